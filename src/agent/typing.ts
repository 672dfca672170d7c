/**
 * @module "typing…" in Telegram while the model works (DESIGN §7): `sendChatAction` now and every 4.5 s (Telegram
 * shows it for 5 s), until the returned stop is called at delivery. Best effort: a failed call is ignored, and
 * nothing is sent in transcript mode.
 */
import { isAllowedChat, type Config } from "../config";
import { callBotApi } from "../telegram/api";

const RENEW_MS = 4_500;
const CALL_TIMEOUT_MS = 3_000;

/**
 * Starts showing "typing…" in the chat (in its forum topic, when the message came from one); returns the
 * function that stops it.
 */
export function typing(config: Config, chatId: string, threadId?: number): () => void {
  const t = config.telegram;
  if (t.mode === "off" || t.botToken === null || !isAllowedChat(config, chatId)) return () => undefined;
  const api = { base: t.apiBase, token: t.botToken };
  const topic = threadId === undefined ? {} : { message_thread_id: threadId };
  const send = () => void callBotApi(api, "sendChatAction", { chat_id: chatId, action: "typing", ...topic }, CALL_TIMEOUT_MS).catch(() => undefined);
  send();
  const timer = setInterval(send, RENEW_MS);
  return () => clearInterval(timer);
}
