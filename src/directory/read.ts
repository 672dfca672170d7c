/**
 * @module Reading the D1 directory (docs/design/0008-layout.md, docs/api.md): `GET /admin/chats` and `GET /admin/jobs`. The rows are what
 * the chats' objects last wrote; a recurring job's next run is computed from its schedule in its chat's zone when
 * the stored one has passed (the objects do not write on every fire). Pages are keyset cursors: by chat id for
 * chats; by next run (nulls last), chat id and job id for jobs, soonest first. `q` is found with `instr()`, never
 * LIKE: D1 refuses a LIKE pattern over 50 bytes, and `q` may be 200 characters (docs/design/0017-search.md).
 */
import * as z from "zod";
import { nextRecurringRun } from "../jobs/fire";
import { lazy } from "../lazy";
import type { ChatList, ChatsQuery, DirectoryJob, DirectoryJobList, DirectoryJobsQuery } from "../schemas/directory";
import { CATEGORIES, JOB_KINDS } from "../schemas/jobs";

/** Stale cron rows read per page at most; beyond it the order of the rest is the stored one's. */
const STALE_SCAN = 5_000;
/** Sorts after every real instant: a job with no next run comes last. */
const NEVER = 9e15;

/** A cursor a client sent that is not one of ours. */
export class BadCursor extends Error {}

const encode = (value: unknown): string => btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");

function decode<T>(cursor: string, schema: z.ZodType<T>): T {
  try {
    const json = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    return schema.parse(JSON.parse(json));
  } catch {
    throw new BadCursor(`"cursor" must be the cursor of an earlier answer.`);
  }
}

/**
 * `q` as the search takes it: trimmed, null when that leaves nothing. It is matched as written (`%`, `_` and `\` are
 * plain characters to `instr()`), A–Z in either case: SQLite's `lower()` folds only ASCII, on both sides alike.
 */
const needleOf = (q: string | undefined): string | null => q?.trim() || null;

const jobCursor = lazy(() => z.tuple([z.number(), z.string(), z.string()]));
const chatCursor = lazy(() => z.tuple([z.string()]));

const jobRow = lazy(() =>
  z.object({
    chat_id: z.string(),
    job_id: z.string(),
    name: z.string(),
    kind: z.enum(JOB_KINDS),
    category: z.enum(CATEGORIES),
    schedule: z.string(),
    next_run_at: z.number().nullable(),
    enabled: z.number(),
    last_status: z.enum(["delivered", "silent", "matched", "failed", "transient", "over_budget"]).nullable(),
    time_zone: z.string().nullable(),
  }),
);
type JobRow = z.infer<ReturnType<typeof jobRow>>;
const scheduleJson = lazy(() =>
  z.union([
    z.strictObject({ at: z.string() }),
    z.strictObject({ cron: z.string() }),
    z.strictObject({ rrule: z.string(), start: z.string() }),
    z.strictObject({ trigger: z.literal("hook") }),
  ]),
);
type ScheduleJson = z.infer<ReturnType<typeof scheduleJson>>;

/**
 * A job's next run as of `now`: the stored one, or for a recurring job whose stored one passed, its next
 * occurrence.
 */
export function effectiveNext(row: { schedule: ScheduleJson; next: number | null; enabled: boolean }, zone: string, now: number): number | null {
  if (!row.enabled || row.next === null) return null;
  if ("at" in row.schedule || "trigger" in row.schedule || row.next >= now) return row.next;
  return nextRecurringRun("cron" in row.schedule ? { type: "cron", cron: row.schedule.cron } : { type: "rule", ...row.schedule }, zone, now);
}

function toJob(row: JobRow, defaultZone: string, now: number): DirectoryJob | null {
  const parsed = scheduleJson().safeParse(safeJson(row.schedule));
  if (!parsed.success) return null;
  const timeZone = row.time_zone ?? defaultZone;
  const next = effectiveNext({ schedule: parsed.data, next: row.next_run_at, enabled: row.enabled === 1 }, timeZone, now);
  return {
    chatId: row.chat_id,
    id: row.job_id,
    name: row.name,
    kind: row.kind,
    category: row.category,
    schedule: parsed.data,
    enabled: row.enabled === 1,
    nextRunAt: next === null ? null : new Date(next).toISOString(),
    lastStatus: row.last_status,
    timeZone,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const sortKey = (job: DirectoryJob): [number, string, string] => [job.nextRunAt === null ? NEVER : Date.parse(job.nextRunAt), job.chatId, job.id];

function after(a: [number, string, string], b: [number, string, string]): boolean {
  if (a[0] !== b[0]) return a[0] > b[0];
  if (a[1] !== b[1]) return a[1] > b[1];
  return a[2] > b[2];
}

const JOB_COLUMNS =
  "j.chat_id, j.job_id, j.name, j.kind, j.category, j.schedule, j.next_run_at, j.enabled, j.last_status, c.time_zone " +
  "FROM jobs j LEFT JOIN chats c ON c.chat_id = j.chat_id";
const STALE =
  "((json_extract(j.schedule, '$.cron') IS NOT NULL OR json_extract(j.schedule, '$.rrule') IS NOT NULL) " +
  "AND j.enabled = 1 AND j.next_run_at IS NOT NULL AND j.next_run_at < ?)";

/** Jobs across chats, soonest first. */
export async function listJobs(db: D1Database, query: DirectoryJobsQuery, defaultZone: string, now: number): Promise<DirectoryJobList> {
  const from = query.cursor === undefined ? null : decode(query.cursor, jobCursor());
  const where: string[] = [];
  const binds: (string | number)[] = [];
  const needle = needleOf(query.q);
  if (needle !== null) {
    where.push("(instr(lower(j.name), lower(?)) > 0 OR instr(j.job_id, lower(?)) > 0 OR instr(j.chat_id, ?) > 0)");
    binds.push(needle, needle, needle);
  }
  if (query.category) {
    where.push("j.category = ?");
    binds.push(query.category);
  }
  const filter = where.length ? `${where.join(" AND ")} AND ` : "";
  const keyset = from ? " AND (COALESCE(j.next_run_at, ?), j.chat_id, j.job_id) > (?, ?, ?)" : "";
  const exact = db
    .prepare(`SELECT ${JOB_COLUMNS} WHERE ${filter}NOT ${STALE}${keyset} ORDER BY COALESCE(j.next_run_at, ?), j.chat_id, j.job_id LIMIT ?`)
    .bind(...binds, now, ...(from ? [NEVER, ...from] : []), NEVER, query.limit + 1);
  const stale = db.prepare(`SELECT ${JOB_COLUMNS} WHERE ${filter}${STALE} LIMIT ?`).bind(...binds, now, STALE_SCAN);
  const [a, b] = await db.batch([exact, stale]);
  const rows = [...(a?.results ?? []), ...(b?.results ?? [])].flatMap((r) => {
    const parsed = jobRow().safeParse(r);
    const job = parsed.success ? toJob(parsed.data, defaultZone, now) : null;
    return job ? [job] : [];
  });
  const sorted = rows
    .filter((job) => from === null || after(sortKey(job), from))
    .sort((x, y) => (after(sortKey(x), sortKey(y)) ? 1 : after(sortKey(y), sortKey(x)) ? -1 : 0));
  const page = sorted.slice(0, query.limit);
  const last = page.at(-1);
  return { jobs: page, cursor: sorted.length > query.limit && last ? encode(sortKey(last)) : null };
}

const chatRow = lazy(() => z.object({ chat_id: z.string(), time_zone: z.string().nullable(), jobs: z.number(), blocked: z.number() }));
const nextRow = lazy(() => z.object({ chat_id: z.string(), schedule: z.string(), next_run_at: z.number() }));

/** The directory's chats by id, each with its soonest next run. */
export async function listChats(db: D1Database, query: ChatsQuery, defaultZone: string, now: number): Promise<ChatList> {
  const from = query.cursor === undefined ? null : decode(query.cursor, chatCursor())[0];
  const where: string[] = [];
  const binds: (string | number)[] = [];
  const needle = needleOf(query.q);
  if (needle !== null) {
    where.push("(instr(chat_id, ?) > 0 OR instr(lower(time_zone), lower(?)) > 0)");
    binds.push(needle, needle);
  }
  if (from !== null) {
    where.push("chat_id > ?");
    binds.push(from);
  }
  const sql = `SELECT chat_id, time_zone, jobs, blocked FROM chats${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY chat_id LIMIT ?`;
  const found = await db
    .prepare(sql)
    .bind(...binds, query.limit + 1)
    .all();
  const chats = found.results.flatMap((r) => {
    const parsed = chatRow().safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
  const page = chats.slice(0, query.limit);
  const soonest = new Map<string, number>();
  if (page.length > 0) {
    const ids = page.map((c) => c.chat_id);
    const nexts = await db
      .prepare(
        `SELECT chat_id, schedule, next_run_at FROM jobs WHERE chat_id IN (${ids.map(() => "?").join(", ")}) AND enabled = 1 AND next_run_at IS NOT NULL`,
      )
      .bind(...ids)
      .all();
    const zones = new Map(page.map((c) => [c.chat_id, c.time_zone ?? defaultZone]));
    for (const r of nexts.results) {
      const parsed = nextRow().safeParse(r);
      const schedule = parsed.success ? scheduleJson().safeParse(safeJson(parsed.data.schedule)) : null;
      if (!parsed.success || !schedule?.success) continue;
      const next = effectiveNext({ schedule: schedule.data, next: parsed.data.next_run_at, enabled: true }, zones.get(parsed.data.chat_id) ?? defaultZone, now);
      const current = soonest.get(parsed.data.chat_id);
      if (next !== null && (current === undefined || next < current)) soonest.set(parsed.data.chat_id, next);
    }
  }
  const last = page.at(-1);
  return {
    chats: page.map((c) => {
      const next = soonest.get(c.chat_id);
      return {
        chatId: c.chat_id,
        timeZone: c.time_zone ?? defaultZone,
        jobs: c.jobs,
        nextRunAt: next === undefined ? null : new Date(next).toISOString(),
        blocked: c.blocked === 1,
      };
    }),
    cursor: chats.length > query.limit && last ? encode([last.chat_id]) : null,
  };
}

/** The chat ids of one page of the directory, for a rebuild. */
export async function chatIdsPage(db: D1Database, cursor: string | undefined, limit: number): Promise<{ chatIds: string[]; cursor: string | null }> {
  const from = cursor === undefined ? null : decode(cursor, chatCursor())[0];
  const found = await db
    .prepare(`SELECT chat_id FROM chats${from !== null ? " WHERE chat_id > ?" : ""} ORDER BY chat_id LIMIT ?`)
    .bind(...(from !== null ? [from] : []), limit + 1)
    .all<{ chat_id: string }>();
  const ids = found.results.map((r) => String(r.chat_id));
  const page = ids.slice(0, limit);
  return { chatIds: page, cursor: ids.length > limit ? encode([page.at(-1)]) : null };
}

/** How many chats the directory holds as blocked (Telegram said they cannot be reached), for `GET /healthz`. */
export async function countBlockedChats(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT COUNT(*) AS n FROM chats WHERE blocked = 1").first<{ n: number }>();
  return row?.n ?? 0;
}
