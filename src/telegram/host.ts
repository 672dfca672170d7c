/**
 * @module What the chat commands need of their chat (docs/telegram.md): its job operations (the chat object's
 * `JobOps`, so commands use exactly the rules and texts of the admin API and the tools), and who is asking.
 */

import type { CopyRef } from "../jobs/records";
import type { Result } from "../result";
import type { AgendaAnswer, ModelAnswer, QuietAnswer } from "../schemas/chats";
import type { CreatedBy, CreateJobInput, EditJobInput, Job, JobFilter } from "../schemas/jobs";
import type { Timing } from "../time";
import type { Lang } from "../words";

type Maybe<T> = T | Promise<T>;

/** The chat's job operations. */
export interface CommandHost {
  list(chatId: string, filter: JobFilter): Maybe<Result<{ timeZone: string; now: string; jobs: Job[] }>>;
  get(chatId: string, id: string): Maybe<Result<Job>>;
  /**
   * `threadId`: the forum topic the job is made in, where its messages will go (null: the main thread); `timing`:
   * the schedule the words' reader made, in place of the input's schedule fields (docs/time.md#words-when).
   */
  create(
    chatId: string,
    input: CreateJobInput,
    createdBy: CreatedBy,
    options?: { threadId?: number | null; timing?: Timing; copyOf?: CopyRef | null },
  ): Maybe<Result<Job>>;
  /** `create`, and the token of the hook a job only its hook runs is made with (null for any other job). */
  createWithHook(
    chatId: string,
    input: CreateJobInput,
    createdBy: CreatedBy,
    options?: { threadId?: number | null },
  ): Maybe<Result<{ job: Job; token: string | null }>>;
  /** Makes or replaces the job's hook (docs/hooks.md): its token, shown once. */
  makeHook(chatId: string, id: string): Maybe<Result<{ token: string }>>;
  /** Revokes the job's hook; `had`: whether it had one. */
  revokeHook(chatId: string, id: string): Maybe<Result<{ had: boolean }>>;
  /** Makes or replaces the chat's calendar feed address (docs/calendar.md): its token, shown once. */
  makeCalendar(chatId: string): Maybe<Result<{ token: string }>>;
  /** Revokes the chat's calendar feed address; `had`: whether it had one. */
  revokeCalendar(chatId: string): Maybe<Result<{ had: boolean }>>;
  /** Whether the chat has a calendar feed address. */
  hasCalendar(chatId: string): Maybe<Result<{ calendar: boolean }>>;
  /** `timing`: the new schedule the words' reader made, in place of the input's schedule fields. */
  edit(chatId: string, id: string, input: EditJobInput, options?: { timing?: Timing }): Maybe<Result<Job>>;
  cancel(chatId: string, id: string): Maybe<Result<Job>>;
  pause(chatId: string, id: string): Maybe<Result<Job>>;
  resume(chatId: string, id: string): Maybe<Result<Job>>;
  skip(chatId: string, id: string): Maybe<Result<{ job: Job; skipped: string }>>;
  runNow(chatId: string, id: string): Maybe<Result<Job>>;
  /**
   * Run now or Skip under a message about a job's missed runs (docs/time.md#missed-runs), from `first` to `last`:
   * one late run of the latest, or each recorded skipped (a one-off deleted); `count`, how many there were.
   */
  answerMissed(chatId: string, id: string, choice: { run: boolean; first: number; last: number }): Maybe<Result<{ job: Job; count: number }>>;
  getSettings(chatId: string): Maybe<Result<{ timeZone: string; isDefault: boolean }>>;
  /** Sets (null: resets) the chat's zone; the message is in `language`. */
  setTimeZone(chatId: string, zone: string | null, language: string | null): Maybe<Result<{ timeZone: string; message: string }>>;
  /** The chat's language (docs/telegram.md#language), and whether `/language` chose it. */
  getLanguage(chatId: string): Maybe<Result<{ language: Lang; chosen: boolean }>>;
  /** Sets the chat's language, or with null lets it follow its messages' languages. */
  setLanguage(chatId: string, language: Lang | null): Maybe<Result<{ language: Lang; chosen: boolean }>>;
  /** The chat's model (docs/agent.md#models): its own (null: the default), the one its turns run on, the choices. */
  getModel(chatId: string): Maybe<Result<ModelAnswer>>;
  /** Sets the chat's model, or with null goes back to the bot's default. */
  setModel(chatId: string, model: string | null): Maybe<Result<ModelAnswer>>;
  /** The chat's daily agenda (docs/telegram.md#agenda): its time of day, or null, and when the next is sent. */
  getAgenda(chatId: string): Maybe<Result<AgendaAnswer>>;
  /** Sets the agenda's time of day (`HH:mm`), or with null stops it. */
  setAgenda(chatId: string, agenda: string | null): Maybe<Result<AgendaAnswer>>;
  getQuiet(chatId: string): Maybe<Result<QuietAnswer>>;
  setQuiet(chatId: string, body: QuietAnswer): Maybe<Result<QuietAnswer>>;
  /**
   * The zone the default-zone notice names, for the reply that created a job (docs/telegram.md), the first time
   * only: null when the chat has its own zone or was told already.
   */
  zoneNotice(chatId: string): Maybe<string | null>;
}

/**
 * The message a command replies to (docs/telegram.md#replies-and-edited-messages): its text, and the job it belongs to when it is one of a
 * job's messages (or the command that created one).
 */
export type RepliedTo = {
  text: string | null;
  jobId: string | null;
  /** A message `/remind` brings back at fire time (docs/telegram.md#remind-me-about-this), or one Telegram will not copy. */
  copy?: CopyRef | "refused";
};

/**
 * What /status shows of the chat's circumstances besides its jobs and zone, the chat's now, the forum topic the
 * command came from (null: the main thread), how /jobs opens the Scheduler Mini App (a `web_app` button in a
 * private chat with a bot and an https PUBLIC_URL; a link in a group, where Telegram allows no `web_app`
 * button; or nothing), the sender's language (Telegram's `language_code`) if known, and the message replied to.
 */
export type CommandContext = {
  chatId: string;
  agent: string;
  runner: string;
  blocked: boolean;
  now: number;
  threadId: number | null;
  app: { webApp: string } | { url: string } | null;
  language?: string;
  repliedTo?: RepliedTo | null;
  /** Where a hook's URL is (PUBLIC_URL, else the origin the update came to) and its mail domain (docs/hooks.md). */
  hooks: { base: string; emailDomain: string | null };
};

/**
 * Who asks, and when: the chat, its zone, the chat's now, the forum topic they ask in, and the sender's language
 * (Telegram's `language_code`) if known.
 */
export type Asker = { chatId: string; zone: string; now: number; threadId: number | null; language?: string };
