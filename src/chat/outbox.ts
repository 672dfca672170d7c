/**
 * @module Sending the outbox to Telegram (docs/telegram.md), from the chat's alarm: each message rendered to HTML and
 * split into parts of at most 4096 units; a part that Telegram cannot parse is sent again as plain text; 429
 * waits `retry_after` plus jitter; 5xx answers are retried with backoff, at most 8 attempts or 24 h; a send
 * that met no answer at all (a network error, a time-out) waits the same way but does not use up an attempt,
 * so an outage of minutes is outlasted and only the 24 h bound gives up; 403 or "chat not found" marks the
 * chat blocked and drops what was pending. A message that would take more than 10 parts goes out as its first
 * part and then the whole of it as a Markdown file, `reply.md` (docs/telegram.md#how-messages-are-sent), under the same rules.
 * A message for a forum topic goes there (`message_thread_id`); a topic that is gone ("message thread not
 * found") sends it to the main thread instead, once, after a note, and what else waited for that topic and the
 * jobs that posted there follow it. A send answered "group chat was upgraded to a supergroup chat" moves the chat
 * to the supergroup (whose object then sends what waited). Rows go in order: a row that must wait holds back the
 * ones after it. The alarm sends within a time budget, after it has fired its jobs, so a slow Bot API never
 * holds them up. Inside the chat's quiet hours, and for a silent job's message, a message goes out with
 * `disable_notification`. The message ids Telegram gives a job's message are recorded on its transcript entry,
 * so that a reply names the job.
 */
import { backoffMs } from "../backoff";
import type { Config } from "../config";
import { topicGoneText } from "../jobs/texts";
import { buttonRowsSchema } from "../schemas/chats";
import { BOT_API_TIMEOUT_MS, type BotApi, callBotApi, NetworkError, type ParamsOf, sendDocument, TelegramError } from "../telegram/api";
import { jobButtons, keyboard } from "../telegram/buttons";
import { renderTelegramHtml, splitForTelegram } from "../telegram/render";
import { type Texts, textsOf } from "../texts";
import type { ChatInfo } from "./info";
import type { OutboxRow, OutboxStore } from "./store/outbox";
import type { TranscriptStore } from "./store/transcript";

export const MAX_SEND_ATTEMPTS = 8;
export const MAX_SEND_AGE_MS = 24 * 3_600_000;
/** A message of more parts than this goes out as its first part and the whole of it as `reply.md`. */
export const MAX_PARTS = 10;
/**
 * How long one alarm may spend sending (so a due job waits at most this long on a hung Bot API): what is left waits for the
 * next alarm, which comes at once and fires the chat's due jobs first.
 */
export const SEND_BUDGET_MS = 5_000;

/** Waits after a failed send: 2 s, 4 s, 8 s … at most 10 minutes, jittered. */
const SEND_BACKOFF = { baseMs: 1_000, maxMs: 600_000 };

/** `migrated`: a send was refused because the basic group became supergroup `migrated`; `row` is that message's. */
export type OutboxOutcome = "idle" | "sent" | "waiting" | "blocked" | Migrated;
type Migrated = { migrated: string; row: number; error: string };

/** When a send must be over: `deadline` (epoch ms) on the clock `now()`. */
export type Budget = { deadline: number; now: () => number };

/**
 * Where a send goes and what it needs around it: the chat, whether its quiet hours hold now (every message then
 * goes out without a notification sound), where the Telegram message ids of a job's message are recorded, and
 * what a forum topic that is gone takes with it (its jobs move to the main thread: their ids and names).
 */
type Sending = {
  api: BotApi;
  chatId: string;
  quiet: boolean;
  /** The chat's replies' table: its buttons' labels, and the note before a message whose topic is gone. */
  texts: Texts;
  sent: (entryId: number, messageIds: readonly number[]) => void;
  /** The Telegram message ids an entry went out as. */
  sentIds: (entryId: number) => number[];
  leaveThread: (threadId: number) => { id: string; name: string }[];
};

/** Sends what is due within the budget; `blocked` when Telegram said the chat cannot be reached. */
async function sendOutbox(store: OutboxStore, sending: Sending, budget: Budget, onBlocked: () => void): Promise<OutboxOutcome> {
  let outcome: OutboxOutcome = "idle";
  for (const row of store.dueOutbox(budget.now())) {
    const result = await sendRow(store, sending, row, budget);
    if (result === "blocked") {
      store.clearOutbox();
      onBlocked();
      return "blocked";
    }
    if (result === "waiting" || typeof result === "object") return result;
    outcome = "sent";
  }
  return outcome;
}

/** The Telegram message ids of a row's parts sent so far (kept only for a row with an entry: a job's message). */
function sentIds(row: OutboxRow): number[] {
  if (row.message_ids === null) return [];
  try {
    const ids: unknown = JSON.parse(row.message_ids);
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/** One sendMessage, sent again as plain text when Telegram cannot parse the HTML. */
async function sendPart(api: BotApi, params: ParamsOf<"sendMessage">, plainText: string, budget: Budget, timeoutMs: number): Promise<{ message_id: number }> {
  try {
    return await callBotApi(api, "sendMessage", params, timeoutMs);
  } catch (error) {
    if (!(error instanceof TelegramError && error.cannotParse)) throw error;
    const { parse_mode: _html, ...plain } = params;
    return callBotApi(api, "sendMessage", { ...plain, text: plainText }, Math.max(1, Math.min(BOT_API_TIMEOUT_MS, budget.deadline - budget.now())));
  }
}

/**
 * An edit row: the buttons of a message sent before are replaced (a nagging message's copy that gave way to the next,
 * docs/telegram.md#nag-until-done). A message not sent, or gone, has nothing to edit; a transient failure is tried
 * again, as a send is.
 */
async function editRow(store: OutboxStore, sending: Sending, row: OutboxRow & { edit_of: number }, budget: Budget): Promise<"sent" | "waiting"> {
  const messageId = sending.sentIds(row.edit_of).at(-1);
  if (messageId !== undefined) {
    try {
      const timeoutMs = Math.max(1, Math.min(BOT_API_TIMEOUT_MS, budget.deadline - budget.now()));
      const rows = buttonRowsSchema().safeParse(JSON.parse(row.buttons ?? "[]"));
      const reply_markup = keyboard(rows.success ? rows.data : []);
      await callBotApi(sending.api, "editMessageReplyMarkup", { chat_id: sending.chatId, message_id: messageId, reply_markup }, timeoutMs);
    } catch (error) {
      const transient = error instanceof NetworkError || (error instanceof TelegramError && (error.code >= 500 || error.code === 429));
      if (transient && row.attempts + 1 < MAX_SEND_ATTEMPTS) {
        store.deferOutbox(row.id, { attempts: row.attempts + 1, stalls: row.stalls, nextAttemptAt: budget.now() + backoffMs(row.attempts + 1, SEND_BACKOFF) });
        return "waiting";
      }
      // Telegram's 400 ("message is not modified", "message to edit not found"): there is nothing left to edit.
      console.log(`outbox: ${row.key} left as it was: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  store.removeOutbox(row.id);
  return "sent";
}

/**
 * A copy row: a message of the chat brought back by `copyMessage` (docs/telegram.md#remind-me-about-this). One Telegram
 * no longer has (deleted, or not copyable any more) is said in one line instead; the reminder follows either way. A
 * transient failure is tried again, as a send is.
 */
async function copyRow(store: OutboxStore, sending: Sending, row: OutboxRow & { copy_of: number }, budget: Budget): Promise<"sent" | "waiting"> {
  const timeoutMs = () => Math.max(1, Math.min(BOT_API_TIMEOUT_MS, budget.deadline - budget.now()));
  const topic = row.thread_id !== null ? { message_thread_id: row.thread_id } : {};
  const soundless: { disable_notification?: true } = sending.quiet || row.silent === 1 ? { disable_notification: true } : {};
  try {
    await callBotApi(
      sending.api,
      "copyMessage",
      { chat_id: sending.chatId, from_chat_id: sending.chatId, message_id: row.copy_of, ...topic, ...soundless },
      timeoutMs(),
    );
  } catch (error) {
    const transient = error instanceof NetworkError || (error instanceof TelegramError && (error.code >= 500 || error.code === 429));
    if (transient && row.attempts + 1 < MAX_SEND_ATTEMPTS) {
      store.deferOutbox(row.id, { attempts: row.attempts + 1, stalls: row.stalls, nextAttemptAt: budget.now() + backoffMs(row.attempts + 1, SEND_BACKOFF) });
      return "waiting";
    }
    console.log(`outbox: ${row.key}: the message could not be copied: ${error instanceof Error ? error.message : String(error)}`);
    await callBotApi(
      sending.api,
      "sendMessage",
      { chat_id: sending.chatId, ...topic, ...soundless, text: renderTelegramHtml(sending.texts.copy.gone), parse_mode: "HTML" },
      timeoutMs(),
    ).catch((noted: unknown) =>
      console.error(`outbox: ${row.key}: the note that the message is gone was not sent`, noted instanceof Error ? noted.message : noted),
    );
  }
  store.removeOutbox(row.id);
  return "sent";
}

async function sendRow(store: OutboxStore, sending: Sending, row: OutboxRow, budget: Budget): Promise<"sent" | "waiting" | "blocked" | Migrated> {
  if (row.edit_of !== null) return editRow(store, sending, { ...row, edit_of: row.edit_of }, budget);
  if (row.copy_of !== null) return copyRow(store, sending, { ...row, copy_of: row.copy_of }, budget);
  const { api, chatId } = sending;
  const parts = splitForTelegram(row.markdown);
  let thread = row.thread_id;
  const ids = sentIds(row);
  // Quiet hours and silent jobs: the message arrives, without a sound; nothing is held back (docs/telegram.md).
  const soundless: { disable_notification?: true } = sending.quiet || row.silent === 1 ? { disable_notification: true } : {};
  // Sent as two parts, the first and the file, when it would take more than MAX_PARTS.
  const count = parts.length > MAX_PARTS ? 2 : parts.length;
  for (let i = row.parts_sent; i < count; i++) {
    const left = budget.deadline - budget.now();
    if (left <= 0) return "waiting"; // the next alarm goes on from this part
    const timeoutMs = Math.min(BOT_API_TIMEOUT_MS, left);
    const part = parts[i]!;
    const last = i === count - 1;
    const topic = thread !== null ? { message_thread_id: thread } : {};
    const params: ParamsOf<"sendMessage"> = {
      chat_id: chatId,
      ...topic,
      text: part.html,
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      ...soundless,
      ...(last ? markup(row, sending.texts.buttons) : {}),
    };
    let message: { message_id: number };
    try {
      if (count < parts.length && i === 1) {
        message = await sendDocument(
          api,
          { chat_id: chatId, ...topic, ...soundless, ...markup(row, sending.texts.buttons) },
          { filename: "reply.md", content: row.markdown, type: "text/markdown" },
          timeoutMs,
        );
      } else {
        message = await sendPart(api, params, part.text, budget, timeoutMs);
      }
    } catch (error) {
      const now = budget.now();
      if (error instanceof TelegramError && error.threadGone && thread !== null) {
        // The topic was deleted: this part (and what else waited for it) goes to the main thread, after a note.
        const moved = sending.leaveThread(thread);
        thread = null;
        await callBotApi(
          api,
          "sendMessage",
          { chat_id: chatId, text: renderTelegramHtml(topicGoneText(moved, sending.texts)), parse_mode: "HTML", ...soundless },
          Math.max(1, Math.min(BOT_API_TIMEOUT_MS, budget.deadline - budget.now())),
        ).catch((noted: unknown) =>
          console.error(`outbox: the note that topic ${row.thread_id} is gone was not sent`, noted instanceof Error ? noted.message : noted),
        );
        i--;
        continue;
      }
      if (error instanceof TelegramError && error.migrateTo !== null) return { migrated: error.migrateTo, row: row.id, error: error.message };
      if (error instanceof TelegramError && error.unreachable) return "blocked";
      if (error instanceof TelegramError && error.code === 429) {
        const wait = (error.retryAfter ?? 1) * 1000 + Math.floor(Math.random() * 1000);
        store.deferOutbox(row.id, { attempts: row.attempts, stalls: row.stalls, nextAttemptAt: now + wait });
        return "waiting";
      }
      // No answer at all is not Telegram refusing: it does not use up an attempt (the 24 h bound still holds).
      const stalled = error instanceof NetworkError;
      const transient = stalled || (error instanceof TelegramError && error.code >= 500);
      const attempts = stalled ? row.attempts : row.attempts + 1;
      const stalls = stalled ? row.stalls + 1 : row.stalls;
      if (!transient || attempts >= MAX_SEND_ATTEMPTS || now - row.created_at >= MAX_SEND_AGE_MS) {
        const reason = `gave up after ${attempts + stalls} attempt(s): ${error instanceof Error ? error.message : String(error)}`;
        console.error(`outbox: ${row.key} ${reason}`);
        store.failOutbox(row.id, reason, now);
        return "sent";
      }
      store.deferOutbox(row.id, { attempts, stalls, nextAttemptAt: now + backoffMs(attempts + stalls, SEND_BACKOFF) });
      return "waiting";
    }
    if (row.entry_id !== null) ids.push(message.message_id);
    // The last part removes the row instead: one row written per part, the ids going to the entry with it.
    if (!last) store.partSent(row.id, i + 1, row.entry_id === null ? null : ids); // a crash before this line sends the part again: at-least-once
  }
  if (row.entry_id !== null) sending.sent(row.entry_id, ids);
  store.removeOutbox(row.id);
  return "sent";
}

/** The buttons under a message's last part: its own, else a job's message gets Run now, Pause and Cancel. */
function markup(row: OutboxRow, labels: Texts["buttons"]): Pick<ParamsOf<"sendMessage">, "reply_markup"> {
  if (row.buttons !== null) {
    let rows: ReturnType<ReturnType<typeof buttonRowsSchema>["safeParse"]> | null;
    try {
      rows = buttonRowsSchema().safeParse(JSON.parse(row.buttons));
    } catch {
      rows = null;
    }
    if (rows?.success && rows.data.length > 0) return { reply_markup: keyboard(rows.data) };
  }
  return row.job_id !== null ? { reply_markup: keyboard(jobButtons(row.job_id, labels)) } : {};
}

export type TelegramOutboxDeps = {
  outbox: OutboxStore;
  /** Where a job's message keeps the Telegram message ids its parts went out as. */
  transcript: Pick<TranscriptStore, "recordSent" | "sentIds">;
  info: ChatInfo;
  config: () => Config;
  now: () => number;
  /** A forum topic is gone: the jobs that posted there post to the main thread from now on (their ids and names). */
  leaveThread: (threadId: number) => { id: string; name: string }[];
  /** Telegram said the group became supergroup `to`: the chat moves there (its object sends what waited). */
  /** The chat became supergroup `to` (a send was answered so): whether its state is moving or moved there now. */
  migrated: (to: string) => Promise<boolean>;
};

/** The chat's outbox as the alarm sends it: due rows to the Bot API, in order. */
export class TelegramOutbox {
  constructor(private readonly d: TelegramOutboxDeps) {}

  /**
   * The alarm's part: sends the due rows; with no bot to send them, drops them (the transcript is the
   * delivery). A chat found blocked reaches the D1 directory in the alarm's sync that follows.
   */
  async tick(): Promise<boolean> {
    const t = this.d.config().telegram;
    const chatId = this.d.info.chatId();
    if (!this.d.info.canSend() || t.botToken === null || chatId === null) {
      this.d.outbox.clearOutbox();
      return false;
    }
    const now = this.d.now();
    const sending: Sending = {
      api: { base: t.apiBase, token: t.botToken },
      chatId,
      quiet: this.d.info.quietAt(now),
      texts: await textsOf(this.d.info.language()),
      sent: (entryId, ids) => this.d.transcript.recordSent(entryId, ids),
      sentIds: (entryId) => this.d.transcript.sentIds(entryId),
      leaveThread: (threadId) => {
        this.d.outbox.leaveThread(threadId);
        return this.d.leaveThread(threadId);
      },
    };
    const outcome = await sendOutbox(this.d.outbox, sending, { deadline: now + SEND_BUDGET_MS, now: this.d.now }, () => {
      this.d.info.setBlocked(true);
      console.log(`chat ${chatId} is blocked: Telegram says it cannot be reached; it stays so until the user writes`);
    });
    // A move refused (the chat is not served, it moved elsewhere already) leaves nowhere to send the message: it is
    // given up, not sent again and again (its row would be due at once, and so would the alarm).
    if (typeof outcome === "object" && !(await this.d.migrated(outcome.migrated))) {
      console.error(`outbox: a message of chat ${chatId} was given up: ${outcome.error}, and the chat did not move there`);
      this.d.outbox.failOutbox(outcome.row, `gave up: ${outcome.error}`, this.d.now());
    }
    return false;
  }
}
