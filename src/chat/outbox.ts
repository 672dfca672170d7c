/**
 * @module Sending the outbox to Telegram (DESIGN §6), from the chat's alarm: each message rendered to HTML and
 * split into parts of at most 4096 units; a part that Telegram cannot parse is sent again as plain text; 429
 * waits `retry_after` plus jitter; 5xx and network errors are retried with backoff, at most 8 attempts or 24 h;
 * 403 or "chat not found" marks the chat blocked and drops what was pending. Rows go in order: a row that
 * must wait holds back the ones after it.
 */
import type { ApiMethods, InlineKeyboardMarkup } from "@grammyjs/types";
import { callBotApi, NetworkError, TelegramError, type BotApi } from "../telegram/api";
import { splitForTelegram } from "../telegram/render";
import type { ConversationStore, OutboxRow } from "./conversation-store";

/** The Bot API's own shape of sendMessage's parameters (types only, from @grammyjs/types). */
type SendMessage = Parameters<ApiMethods<never>["sendMessage"]>[0];

export const MAX_SEND_ATTEMPTS = 8;
export const MAX_SEND_AGE_MS = 24 * 3_600_000;

/** Run now, Pause and Cancel under a job's message (DESIGN §6), callback data `r:`/`p:`/`c:` + id. */
export function jobButtons(jobId: string): InlineKeyboardMarkup {
  return {
    inline_keyboard: [
      [
        { text: "Run now", callback_data: `r:${jobId}` },
        { text: "Pause", callback_data: `p:${jobId}` },
        { text: "Cancel", callback_data: `c:${jobId}` },
      ],
    ],
  };
}

/** 2 s, 4 s, 8 s … at most 10 minutes, with up to a second of jitter. */
export function sendBackoff(attempts: number, random = Math.random): number {
  return Math.min(600_000, 1000 * 2 ** attempts) + Math.floor(random() * 1000);
}

export type OutboxOutcome = "idle" | "sent" | "waiting" | "blocked";

/** Sends what is due; `blocked` when Telegram said the chat cannot be reached. */
export async function sendOutbox(
  talk: ConversationStore,
  api: BotApi,
  chatId: string,
  now: number,
  onBlocked: () => Promise<void>,
): Promise<OutboxOutcome> {
  let outcome: OutboxOutcome = "idle";
  for (const row of talk.dueOutbox(now)) {
    const result = await sendRow(talk, api, chatId, row, now);
    if (result === "blocked") {
      talk.clearOutbox();
      await onBlocked();
      return "blocked";
    }
    if (result === "waiting") return "waiting";
    outcome = "sent";
  }
  return outcome;
}

async function sendRow(talk: ConversationStore, api: BotApi, chatId: string, row: OutboxRow, now: number): Promise<"sent" | "waiting" | "blocked"> {
  const parts = splitForTelegram(row.markdown);
  for (let i = row.parts_sent; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const params: SendMessage = {
      chat_id: chatId,
      text: part.html,
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      ...(last && row.job_id !== null ? { reply_markup: jobButtons(row.job_id) } : {}),
    };
    try {
      try {
        await callBotApi(api, "sendMessage", { ...params });
      } catch (error) {
        if (!(error instanceof TelegramError && error.cannotParse)) throw error;
        const { parse_mode: _html, ...plain } = params;
        await callBotApi(api, "sendMessage", { ...plain, text: part.text });
      }
    } catch (error) {
      if (error instanceof TelegramError && error.unreachable) return "blocked";
      if (error instanceof TelegramError && error.code === 429) {
        const wait = (error.retryAfter ?? 1) * 1000 + Math.floor(Math.random() * 1000);
        talk.deferOutbox(row.id, row.attempts, now + wait);
        return "waiting";
      }
      const transient = error instanceof NetworkError || (error instanceof TelegramError && error.code >= 500);
      const attempts = row.attempts + 1;
      if (!transient || attempts >= MAX_SEND_ATTEMPTS || now - row.created_at >= MAX_SEND_AGE_MS) {
        const reason = `gave up after ${attempts} attempt(s): ${error instanceof Error ? error.message : String(error)}`;
        console.error(`outbox: ${row.key} ${reason}`);
        talk.failOutbox(row.id, reason, now);
        return "sent";
      }
      talk.deferOutbox(row.id, attempts, now + sendBackoff(attempts));
      return "waiting";
    }
    talk.partSent(row.id, i + 1); // a crash before this line sends the part again: at-least-once
  }
  talk.removeOutbox(row.id);
  return "sent";
}
