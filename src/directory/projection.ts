/**
 * @module What a chat's object writes into the D1 directory (docs/design/0008-layout.md, docs/api.md), decided purely: the rows its
 * state projects to, and the difference from what it last wrote. Each row has a fingerprint that leaves out
 * what moves on every fire (a recurring job's next run), so a fire writes nothing; a recurring job's next run is
 * computed from its schedule when the directory is read (`read.ts`). The D1 writes are `write.ts`'s, run by the
 * object (`src/chat/directory.ts`).
 */
import { categoryOf, type StoredSchedule, scheduleView } from "../jobs/records";
import type { Category, JobKind } from "../schemas/jobs";

/** What the directory needs of one job, as the chat's store reads it. */
export type JobFacts = {
  id: string;
  name: string;
  kind: JobKind;
  schedule: StoredSchedule;
  enabled: boolean;
  quarantined: boolean;
  nextRunAt: number | null;
  lastStatus: string | null;
  /** Its hook's token hash (docs/hooks.md), null when it has none. */
  hook: string | null;
};

/** What the directory needs of the chat itself. */
export type ChatFacts = {
  chatId: string;
  /** The chat's own zone, null when it follows DEFAULT_TIMEZONE. */
  ownZone: string | null;
  /** The zone its cron jobs run in (its own or the default), part of a cron row's fingerprint. */
  zone: string;
  blocked: boolean;
  /** The basic group this chat was before it became a supergroup (the webhook serves it as that group). */
  movedFrom?: string | null;
  /** The SHA-256 of its calendar feed's token (docs/calendar.md), null when it has none. */
  calendar?: string | null;
};

export type ChatRow = { chatId: string; timeZone: string | null; jobs: number; nextRunAt: number | null; blocked: boolean };
export type JobRow = {
  chatId: string;
  jobId: string;
  name: string;
  kind: JobKind;
  category: Category;
  /** JSON: `{"at":"<RFC 3339>"}`, `{"cron":"<expression>"}` or `{"rrule":"…","start":"…"}`, as a Job's `schedule`. */
  schedule: string;
  nextRunAt: number | null;
  enabled: boolean;
  lastStatus: string | null;
};

/** A supergroup that was a basic group: the `moves` row the webhook reads. */
export type MoveRow = { toChatId: string; fromChatId: string };

/** A job's hook: the `hooks` row a call of its URL, or a mail to its address, is routed by. */
export type HookRow = { chatId: string; jobId: string; tokenHash: string };

/** A chat's calendar feed: the `calendars` row a fetch of its address is routed by. */
export type CalendarRow = { chatId: string; tokenHash: string };

/** A row to write with the fingerprint it is remembered by; the key is `chat`, `job:<id>` or `moved`. */
export type Projected = { key: string; fingerprint: string } & (
  | { table: "chats"; row: ChatRow }
  | { table: "jobs"; row: JobRow }
  | { table: "moves"; row: MoveRow }
  | { table: "hooks"; row: HookRow }
  | { table: "calendars"; row: CalendarRow }
);

/** The fingerprint key of a job, and of its hook. */
const jobKey = (id: string): string => `job:${id}`;
const hookKey = (id: string): string => `hook:${id}`;
const CHAT_KEY = "chat";
const MOVED_KEY = "moved";
const CALENDAR_KEY = "calendar";

/**
 * The rows a chat projects to. A chat has a row only while it has a job, its own zone or the blocked flag:
 * one that has only been read projects to nothing. A job with a hook has its `hooks` row too.
 */
export function project(chat: ChatFacts, jobs: readonly JobFacts[]): Projected[] {
  const out: Projected[] = [];
  let soonest: number | null = null;
  for (const job of jobs) {
    const live = job.enabled && !job.quarantined;
    // A one-off's next run is its time while it is live (fired-but-unsettled included: its end, the delete,
    // is the change); a recurring job's is the object's value at write time, left out of the fingerprint.
    const next = !live ? null : job.schedule.type === "at" ? job.schedule.at : job.nextRunAt;
    if (next !== null && (soonest === null || next < soonest)) soonest = next;
    const schedule = scheduleView(job.schedule);
    const row: JobRow = {
      chatId: chat.chatId,
      jobId: job.id,
      name: job.name,
      kind: job.kind,
      category: categoryOf(job.kind, job.schedule.type),
      schedule: JSON.stringify(schedule),
      nextRunAt: next,
      enabled: job.enabled,
      lastStatus: job.lastStatus,
    };
    const moving = job.schedule.type === "at" ? { next } : { zone: chat.zone, live };
    const fingerprint = JSON.stringify([row.name, row.kind, row.schedule, row.enabled, row.lastStatus, moving]);
    out.push({ key: jobKey(job.id), fingerprint, table: "jobs", row });
    if (job.hook !== null)
      out.push({ key: hookKey(job.id), fingerprint: job.hook, table: "hooks", row: { chatId: chat.chatId, jobId: job.id, tokenHash: job.hook } });
  }
  if (jobs.length > 0 || chat.ownZone !== null || chat.blocked) {
    const row: ChatRow = { chatId: chat.chatId, timeZone: chat.ownZone, jobs: jobs.length, nextRunAt: soonest, blocked: chat.blocked };
    out.push({ key: CHAT_KEY, fingerprint: JSON.stringify([row.timeZone, row.jobs, row.blocked]), table: "chats", row });
  }
  if (chat.calendar) out.push({ key: CALENDAR_KEY, fingerprint: chat.calendar, table: "calendars", row: { chatId: chat.chatId, tokenHash: chat.calendar } });
  if (chat.movedFrom) out.push({ key: MOVED_KEY, fingerprint: chat.movedFrom, table: "moves", row: { toChatId: chat.chatId, fromChatId: chat.movedFrom } });
  return out;
}

/** What a sync writes: rows whose fingerprint differs from the remembered one, and keys no longer projected. */
export type Change = { upserts: Projected[]; removals: string[] };

export function diff(projected: readonly Projected[], remembered: ReadonlyMap<string, string>): Change {
  const keys = new Set(projected.map((p) => p.key));
  return {
    upserts: projected.filter((p) => remembered.get(p.key) !== p.fingerprint),
    removals: [...remembered.keys()].filter((key) => !keys.has(key)),
  };
}

/** The job id of a `job:<id>` key, or null for the chat's key and the move's. */
export function jobIdOfKey(key: string): string | null {
  return key.startsWith("job:") ? key.slice(4) : null;
}

/** The job id of a `hook:<id>` key, or null for any other. */
export function hookJobOfKey(key: string): string | null {
  return key.startsWith("hook:") ? key.slice(5) : null;
}

/** Whether a key is the `moves` row's. */
export const isMoveKey = (key: string): boolean => key === MOVED_KEY;

/** Whether a key is the `calendars` row's. */
export const isCalendarKey = (key: string): boolean => key === CALENDAR_KEY;
