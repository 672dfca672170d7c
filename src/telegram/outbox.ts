/**
 * @module Sending the outbox to Telegram (DESIGN §6), from the chat's alarm: each message rendered to HTML and
 * split into parts of at most 4096 units; a part that Telegram cannot parse is sent again as plain text; 429
 * waits `retry_after` plus jitter; 5xx and network errors are retried with backoff, at most 8 attempts or 24 h;
 * 403 or "chat not found" marks the chat blocked and drops what was pending. Rows go in order: a row that
 * must wait holds back the ones after it.
 */
import { backoffMs } from "../backoff";
import type { Config } from "../config";
import type { ChatInfo } from "../chat/info";
import type { OutboxRow, OutboxStore } from "../chat/store/outbox";
import { callBotApi, NetworkError, TelegramError, type BotApi, type ParamsOf } from "./api";
import { jobButtons } from "./buttons";
import { splitForTelegram } from "./render";

export const MAX_SEND_ATTEMPTS = 8;
export const MAX_SEND_AGE_MS = 24 * 3_600_000;

/** Waits after a failed send: 2 s, 4 s, 8 s … at most 10 minutes, jittered. */
const SEND_BACKOFF = { baseMs: 1_000, maxMs: 600_000 };

export type OutboxOutcome = "idle" | "sent" | "waiting" | "blocked";

/** Sends what is due; `blocked` when Telegram said the chat cannot be reached. */
export async function sendOutbox(
  store: OutboxStore,
  api: BotApi,
  chatId: string,
  now: number,
  onBlocked: () => Promise<void>,
): Promise<OutboxOutcome> {
  let outcome: OutboxOutcome = "idle";
  for (const row of store.dueOutbox(now)) {
    const result = await sendRow(store, api, chatId, row, now);
    if (result === "blocked") {
      store.clearOutbox();
      await onBlocked();
      return "blocked";
    }
    if (result === "waiting") return "waiting";
    outcome = "sent";
  }
  return outcome;
}

async function sendRow(store: OutboxStore, api: BotApi, chatId: string, row: OutboxRow, now: number): Promise<"sent" | "waiting" | "blocked"> {
  const parts = splitForTelegram(row.markdown);
  for (let i = row.parts_sent; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const params: ParamsOf<"sendMessage"> = {
      chat_id: chatId,
      text: part.html,
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      ...(last && row.job_id !== null ? { reply_markup: jobButtons(row.job_id) } : {}),
    };
    try {
      try {
        await callBotApi(api, "sendMessage", params);
      } catch (error) {
        if (!(error instanceof TelegramError && error.cannotParse)) throw error;
        const { parse_mode: _html, ...plain } = params;
        await callBotApi(api, "sendMessage", { ...plain, text: part.text });
      }
    } catch (error) {
      if (error instanceof TelegramError && error.unreachable) return "blocked";
      if (error instanceof TelegramError && error.code === 429) {
        const wait = (error.retryAfter ?? 1) * 1000 + Math.floor(Math.random() * 1000);
        store.deferOutbox(row.id, row.attempts, now + wait);
        return "waiting";
      }
      const transient = error instanceof NetworkError || (error instanceof TelegramError && error.code >= 500);
      const attempts = row.attempts + 1;
      if (!transient || attempts >= MAX_SEND_ATTEMPTS || now - row.created_at >= MAX_SEND_AGE_MS) {
        const reason = `gave up after ${attempts} attempt(s): ${error instanceof Error ? error.message : String(error)}`;
        console.error(`outbox: ${row.key} ${reason}`);
        store.failOutbox(row.id, reason, now);
        return "sent";
      }
      store.deferOutbox(row.id, attempts, now + backoffMs(attempts, SEND_BACKOFF));
      return "waiting";
    }
    store.partSent(row.id, i + 1); // a crash before this line sends the part again: at-least-once
  }
  store.removeOutbox(row.id);
  return "sent";
}

export type TelegramOutboxDeps = {
  outbox: OutboxStore;
  info: ChatInfo;
  config: () => Config;
  /** Records the chat as blocked (or not) in the D1 directory; never throws. */
  markBlocked: (chatId: string, blocked: boolean, now: number) => Promise<void>;
};

/** The chat's outbox as the alarm sends it: due rows to the Bot API, in order. */
export class TelegramOutbox {
  constructor(private readonly d: TelegramOutboxDeps) {}

  /** The alarm's part: sends the due rows; with no bot to send them, drops them (the transcript is the delivery). */
  async tick(now: number): Promise<boolean> {
    const t = this.d.config().telegram;
    const chatId = this.d.info.chatId();
    if (!this.d.info.canSend() || t.botToken === null || chatId === null) {
      this.d.outbox.clearOutbox();
      return false;
    }
    await sendOutbox(this.d.outbox, { base: t.apiBase, token: t.botToken }, chatId, now, async () => {
      this.d.info.setBlocked(true);
      console.log(`chat ${chatId} is blocked: Telegram says it cannot be reached; it stays so until the user writes`);
      await this.d.markBlocked(chatId, true, now);
    });
    return false;
  }
}
