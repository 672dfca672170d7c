/**
 * @module "typing…" in Telegram while the model works (docs/agent.md): `sendChatAction` now and every 4.5 s (Telegram
 * shows it for 5 s), until the returned stop is called at delivery; stop resolves once the calls still on their
 * way have ended, so none outlives its try (between tries nothing is shown). Best effort: a failed call is
 * ignored, and nothing is sent in transcript mode.
 */
import { type Config, isAllowedChat } from "../config";
import { callBotApi } from "../telegram/api";

const RENEW_MS = 4_500;
const CALL_TIMEOUT_MS = 3_000;

/**
 * Starts showing "typing…" in the chat (in its forum topic, when the message came from one); returns the
 * function that stops it.
 */
export function typing(config: Config, chatId: string, threadId?: number): () => Promise<void> {
  const t = config.telegram;
  if (t.mode === "off" || t.botToken === null || !isAllowedChat(config, chatId)) return async () => undefined;
  const api = { base: t.apiBase, token: t.botToken };
  const topic = threadId === undefined ? {} : { message_thread_id: threadId };
  const inFlight = new Set<Promise<unknown>>();
  const send = () => {
    const call: Promise<unknown> = callBotApi(api, "sendChatAction", { chat_id: chatId, action: "typing", ...topic }, CALL_TIMEOUT_MS)
      .catch(() => undefined)
      .finally(() => inFlight.delete(call));
    inFlight.add(call);
  };
  send();
  const timer = setInterval(send, RENEW_MS);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
  };
}
