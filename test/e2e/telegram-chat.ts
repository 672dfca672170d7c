/**
 * What the e2e tests of a Telegram chat share: the real Worker under `wrangler dev` with a bot token, a webhook
 * secret and the users of these chats allowed, its Bot API a local stub, both started once for the tier by its
 * global setup (test/e2e/global-setup.ts, `sharedWorker("telegram")`); each file has a chat of its own (its
 * user's private chat) and reads the stub's calls of that chat. The user's messages go through the webhook;
 * also the HTML of the bot's replies, and texts stamped with "now".
 */
import { beforeAll, expect, inject } from "vitest";
import type { Call } from "../stub/telegram-stub.js";
import { sharedWorker, type Worker, waitFor } from "./harness.js";

/** The bot of the shared Telegram Worker. */
export const BOT_TOKEN = "123456789:AAE_e2e-telegram_abcdefghijklmnop";
export const WEBHOOK_SECRET = "e2e-webhook-secret";
/** The chat of each file that talks to it: its user's private chat (a private chat's id is its user's id). */
export const TELEGRAM_CHATS = { telegram: "700000101", every: "700000202", words: "700000303" } as const;

declare module "vitest" {
  export interface ProvidedContext {
    /** The Bot API stub the shared Telegram Worker calls (`http://127.0.0.1:<port>`). */
    telegramStub: string;
  }
}

export type TelegramChat = {
  readonly chatId: string;
  worker: Worker;
  /** The chat's user writes `text` (from a Telegram app in `language`, when given); the webhook answers 200 at once. */
  write(text: string, language?: string): Promise<void>;
  /** The chat's user taps the button with `data` under the bot's message `messageId`. */
  press(data: string, messageId: number): Promise<void>;
  /**
   * The bot's calls so far that name this chat (`chat_id`), answer one of its presses (answerCallbackQuery), or name
   * no chat at all (getMe), oldest first; of one method when given.
   */
  calls(method?: string): Promise<Call[]>;
  /** The bot's sendMessage calls to this chat so far. */
  sends(): Promise<Call[]>;
  /** Waits for the `n`-th sendMessage of the bot to this chat (at most 20 s) and returns it. */
  nthSend(n: number): Promise<Call>;
};

/**
 * The chat of this file with the tier's Telegram Worker, ready before its tests; `updateIds` numbers the
 * updates (each file its own range).
 */
export function telegramChat(chatId: string, updateIds: number): TelegramChat {
  let next = updateIds;
  /** The ids of the callback queries this chat's user sent: another file's presses are answered by the same bot. */
  const pressed = new Set<string>();
  const privateChat = { id: Number(chatId), type: "private", first_name: "Ada" };
  /** Posts an update as Telegram does, with the next update id; the webhook answers 200 at once. */
  const post = async (update: (updateId: number) => Record<string, unknown>): Promise<void> => {
    const updateId = next++;
    const res = await fetch(`${chat.worker.base}/telegram/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET },
      body: JSON.stringify({ update_id: updateId, ...update(updateId) }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status, await res.text()).toBe(200);
  };
  const calls = async (method?: string): Promise<Call[]> => {
    const query = new URLSearchParams({ token: BOT_TOKEN, ...(method ? { method } : {}) });
    const res = await fetch(`${inject("telegramStub")}/__stub/calls?${query}`, { signal: AbortSignal.timeout(10_000) });
    const all = ((await res.json()) as { calls: Call[] }).calls;
    return all.filter((c) =>
      c.params.chat_id !== undefined
        ? String(c.params.chat_id) === chatId
        : c.method !== "answerCallbackQuery" || pressed.has(String(c.params.callback_query_id)),
    );
  };
  const chat: TelegramChat = {
    chatId,
    worker: undefined as unknown as Worker,
    write(text, language) {
      const from = { id: Number(chatId), is_bot: false, first_name: "Ada", ...(language ? { language_code: language } : {}) };
      return post((updateId) => ({ message: { message_id: updateId, from, chat: privateChat, date: Math.floor(Date.now() / 1000), text } }));
    },
    press(data, messageId) {
      const from = { id: Number(chatId), is_bot: false, first_name: "Ada" };
      const message = { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: privateChat, text: "…" };
      return post((updateId) => {
        pressed.add(`cb${updateId}`);
        return { callback_query: { id: `cb${updateId}`, from, chat_instance: "1", message, data } };
      });
    },
    calls,
    sends: () => calls("sendMessage"),
    nthSend: async (n) => {
      let got = 0;
      return waitFor(
        () => `sendMessage #${n} (got ${got}); wrangler's output ends:\n${chat.worker.log()}`,
        async () => {
          const sent = await chat.sends();
          got = sent.length;
          return sent[n - 1];
        },
      );
    },
  };
  beforeAll(async () => {
    chat.worker = await sharedWorker("telegram");
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

/** Has the Bot API stub at `stub` answer `token`'s next `method` calls with `answers` (the stub's script). */
export async function scriptBotApi(stub: string, method: string, token: string, answers: unknown[]): Promise<void> {
  const res = await fetch(`${stub}/__stub/script`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ method, token, answers }),
    signal: AbortSignal.timeout(5_000),
  });
  if (res.status !== 200) throw new Error(`the Bot API stub did not take the script: ${res.status}`);
}
