/**
 * What the e2e tests of a Telegram chat share: the real Worker under `wrangler dev` with a bot token, a webhook
 * secret and one allowed user, its Bot API a local stub; the user's messages through the webhook; the HTML of
 * the bot's replies, and texts stamped with "now".
 */
import { afterAll, beforeAll, expect } from "vitest";
import { type Call, startTelegramStub, type TelegramStub } from "../stub/telegram-stub.js";
import { startWorker, type Worker, waitFor } from "./harness.js";

export type TelegramChat = {
  readonly chatId: string;
  readonly token: string;
  stub: TelegramStub;
  worker: Worker;
  /** The chat's user writes `text` (from a Telegram app in `language`, when given); the webhook answers 200 at once. */
  write(text: string, language?: string): Promise<void>;
  /** The chat's user taps the button with `data` under the bot's message `messageId`. */
  press(data: string, messageId: number): Promise<void>;
  /** The bot's sendMessage calls so far. */
  sends(): Call[];
  /** Waits for the `n`-th sendMessage of the bot (at most 20 s) and returns it. */
  nthSend(n: number): Promise<Call>;
};

/**
 * A chat with the bot for the tests of this file: the stub and the Worker started before them and stopped
 * after; `updateIds` numbers the updates (each file its own range).
 */
export function telegramChat(chatId: string, token: string, updateIds: number): TelegramChat {
  const secret = `e2e-secret-${chatId}`;
  let next = updateIds;
  const privateChat = { id: Number(chatId), type: "private", first_name: "Ada" };
  /** Posts an update as Telegram does, with the next update id; the webhook answers 200 at once. */
  const post = async (update: (updateId: number) => Record<string, unknown>): Promise<void> => {
    const updateId = next++;
    const res = await fetch(`${chat.worker.base}/telegram/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret },
      body: JSON.stringify({ update_id: updateId, ...update(updateId) }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status, await res.text()).toBe(200);
  };
  const chat: TelegramChat = {
    chatId,
    token,
    stub: undefined as unknown as TelegramStub,
    worker: undefined as unknown as Worker,
    write(text, language) {
      const from = { id: Number(chatId), is_bot: false, first_name: "Ada", ...(language ? { language_code: language } : {}) };
      return post((updateId) => ({ message: { message_id: updateId, from, chat: privateChat, date: Math.floor(Date.now() / 1000), text } }));
    },
    press(data, messageId) {
      const from = { id: Number(chatId), is_bot: false, first_name: "Ada" };
      const message = { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: privateChat, text: "…" };
      return post((updateId) => ({ callback_query: { id: `cb${updateId}`, from, chat_instance: "1", message, data } }));
    },
    sends: () => chat.stub.calls({ token, method: "sendMessage" }),
    nthSend: (n) =>
      waitFor(
        () => `sendMessage #${n} (got ${chat.sends().length}); wrangler's output ends:\n${chat.worker.log()}`,
        async () => chat.sends()[n - 1],
      ),
  };
  beforeAll(async () => {
    chat.stub = await startTelegramStub();
    chat.worker = await startWorker({
      vars: { TELEGRAM_BOT_TOKEN: token, TELEGRAM_WEBHOOK_SECRET: secret, TELEGRAM_API_BASE: chat.stub.url, ALLOWED_USER_IDS: chatId },
    });
  });
  afterAll(async () => {
    await chat.worker?.stop();
    await chat.stub?.close();
  });
  return chat;
}

/**
 * The Telegram HTML of our replies' little Markdown (`**bold**`, `` `code` ``), written out here: the e2e tier
 * sees the Worker as a black box (src/telegram/render.ts has its own tests).
 */
export const renderTelegramHtml = (markdown: string) =>
  markdown
    .replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"))
    .replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");

/** The texts a reply stamped with "now" may hold between `t0` and `t1`. */
export const minutes = (t0: number, t1: number, text: (now: number) => string) => [...new Set([text(t0), text(t1)])].map(renderTelegramHtml);
