/**
 * @module What a missed run does (docs/time.md#missed-runs): a job's `missed` policy and its `grace`, read, checked and
 * shown, and the occurrences a job missed while the bot was offline. An occurrence the chat's object gets to more
 * than `grace` after it came due was missed; one within `grace` runs as usual whatever the policy. `once` (the
 * default): one late run, for the latest; `skip`: none, each recorded skipped; `all`: each in order, one after
 * another, at most 10; `ask`: one message with Run now and Skip. Pure: the firing core (`fire.ts`) decides with it.
 */
import { MISSED_POLICIES, type MissedPolicy } from "../schemas/jobs";
import type { StoredSchedule } from "../time";

export { MISSED_POLICIES, type MissedPolicy };

/** A job's grace when it names none: an occurrence a minute late still runs as usual. */
export const DEFAULT_GRACE_SECONDS = 60;
/** The longest grace: a day. */
export const MAX_GRACE_SECONDS = 86_400;
/** `all` runs at most this many missed occurrences; the earlier ones are recorded skipped. */
export const MAX_CATCH_UP = 10;
/** The detail of an occurrence recorded skipped because it was missed. */
export const MISSED_DETAIL = "missed";
/** At most this many missed occurrences are counted; the count says "at least" past it. */
export const MISSED_COUNT_CAP = 1000;
/** At most this many missed occurrences are recorded in history (which keeps the last 50 runs). */
export const MISSED_RECORDED = 50;

const GRACE = /^P(?:(\d{1,5})D)?(?:T(?=\d)(?:(\d{1,6})H)?(?:(\d{1,8})M)?(?:(\d{1,8})S)?)?$/i;

/** An ISO 8601 duration of whole days, hours, minutes and seconds (`PT5M`, `PT1H30M`, `P1D`) in seconds, or null. */
export function parseGrace(text: string): number | null {
  const m = GRACE.exec(text.trim());
  if (!m || text.trim().toUpperCase() === "P") return null;
  const [d, h, min, s] = [m[1], m[2], m[3], m[4]].map((g) => (g === undefined ? 0 : Number(g))) as [number, number, number, number];
  return d * 86_400 + h * 3600 + min * 60 + s;
}

/** Seconds as the ISO 8601 duration the API shows: `PT0S`, `PT1M`, `PT1H30M`, `P1D`. */
export function graceText(seconds: number): string {
  if (seconds === 0) return "PT0S";
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const time = `${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s ? `${s}S` : ""}`;
  return `P${d ? `${d}D` : ""}${time ? `T${time}` : ""}`;
}

const GRACE_PROBLEM = (got: string) => `"grace" must be an ISO 8601 duration from PT0S to P1D, such as PT5M or PT2H; got "${got.slice(0, 40)}".`;
const MISSED_PROBLEM = `"missed" must be "once", "skip", "all" or "ask".`;
const ALL_ONE_OFF = `"missed": "all" is for recurring jobs: a one-off runs once; use "once", "skip" or "ask".`;
const HOOK_ONLY = `A job only its hook runs has no time to miss: "missed" and "grace" do not apply.`;

/** What an input says of the policy: unchanged when absent. */
export type MissedInput = { missed?: string; grace?: string };

/**
 * A create's or an edit's `missed` and `grace` checked for a job whose schedule is `type`, with what it has now:
 * the values to store, or the one sentence that refuses them.
 */
export function readMissed(
  input: MissedInput,
  type: StoredSchedule["type"],
  current: { missed: MissedPolicy; graceSeconds: number },
): { ok: true; missed: MissedPolicy; graceSeconds: number } | { ok: false; error: string } {
  if (type === "hook" && (input.missed !== undefined || input.grace !== undefined)) return { ok: false, error: HOOK_ONLY };
  let missed = current.missed;
  if (input.missed !== undefined) {
    if (!(MISSED_POLICIES as readonly string[]).includes(input.missed)) return { ok: false, error: MISSED_PROBLEM };
    missed = input.missed as MissedPolicy;
  }
  // A job that became a one-off cannot keep "all".
  if (missed === "all" && type === "at") {
    if (input.missed === "all") return { ok: false, error: ALL_ONE_OFF };
    missed = "once";
  }
  let graceSeconds = current.graceSeconds;
  if (input.grace !== undefined) {
    const seconds = parseGrace(input.grace);
    if (seconds === null || seconds > MAX_GRACE_SECONDS) return { ok: false, error: GRACE_PROBLEM(input.grace) };
    graceSeconds = seconds;
  }
  return { ok: true, missed, graceSeconds };
}

/**
 * The occurrences of a recurring schedule from `dueAt` (its next run, which came) to `now`, as the object finds them
 * on waking: those missed (more than `graceMs` old; at most the last `keep`, oldest first, with how many in all, up
 * to `MISSED_COUNT_CAP`) and the latest, when it is within grace (it runs as usual; an earlier one within grace is
 * passed by it, and missed). `next` is the schedule's next occurrence strictly after an instant.
 */
export function occurrencesSince(
  next: (after: number) => number | null,
  dueAt: number,
  now: number,
  graceMs: number,
  keep = MISSED_RECORDED,
): { missed: number[]; total: number; onTime: number | null } {
  let tail: number[] = [];
  let total = 0;
  let t: number | null = dueAt;
  for (; t !== null && t <= now && total < MISSED_COUNT_CAP; t = next(t)) {
    total++;
    tail.push(t);
    if (tail.length > keep + 1) tail.shift();
  }
  // Past the cap, the latest occurrences are found back from now, not by walking on.
  if (t !== null && t <= now) tail = latest(next, dueAt, now, keep + 1);
  const last = tail[tail.length - 1];
  const onTime = last !== undefined && now - last <= graceMs ? last : null;
  const missed = onTime === null ? tail.slice(-keep) : tail.slice(0, -1).slice(-keep);
  return { missed, total: onTime === null ? total : total - 1, onTime };
}

/** Windows back from now in which the latest occurrences are looked for, shortest first. */
const WINDOWS_MS = [3_600_000, 86_400_000, 7 * 86_400_000, 31 * 86_400_000, 366 * 86_400_000, 5 * 366 * 86_400_000];

/** The last `n` occurrences after `dueAt` and at most `now` (fewer when the schedule has fewer), oldest first. */
function latest(next: (after: number) => number | null, dueAt: number, now: number, n: number): number[] {
  let found: number[] = [];
  for (const window of WINDOWS_MS) {
    found = [];
    const from = Math.max(dueAt, now - window);
    let steps = 0;
    for (let t = next(from - 1); t !== null && t <= now && steps++ < 200_000; t = next(t)) {
      found.push(t);
      if (found.length > n) found.shift();
    }
    if (found.length >= n || from === dueAt) break;
  }
  return found;
}

/** What the chat is asked of missed occurrences (`ask`): the first and the last, how many in all, and those shown. */
export type MissedAsk = { first: number; last: number; total: number; shown: number[] };

/** The most missed times an `ask` message names; the rest are counted. */
export const ASK_SHOWN = 5;

/**
 * What a recurring job that missed occurrences does: `run` claims the occurrence `dueAt` (late when it is past grace;
 * `count`, when more than one was missed, the late line's number), then finds its next run after `after` (now, or
 * for `all` the occurrence it runs, so that the next missed one follows when this run ends); `none` claims nothing,
 * and its next run is after now. Both record `skip` as skipped (missed) and may ask the chat (`ask`). A run on time
 * (within grace) that passes over missed ones has their `count` too, for the log: it has no late line.
 */
export type MissedPlan =
  | { act: "run"; dueAt: number; count: number; after: number; skip: number[]; ask: MissedAsk | null }
  | { act: "none"; skip: number[]; ask: MissedAsk | null };

/**
 * A recurring job's missed occurrences from its due one, `dueAt`, to `now` under its policy, or null when `dueAt` is
 * within grace (it runs as usual). `next`: the schedule's next occurrence after an instant, none past the job's end.
 */
export function planMissed(
  job: { missed: MissedPolicy; graceSeconds: number },
  dueAt: number,
  now: number,
  next: (after: number) => number | null,
): MissedPlan | null {
  const graceMs = job.graceSeconds * 1000;
  if (now - dueAt <= graceMs) return null;
  const keep = job.missed === "all" ? MISSED_RECORDED + MAX_CATCH_UP : job.missed === "ask" ? ASK_SHOWN : MISSED_RECORDED;
  const { missed, total, onTime } = occurrencesSince(next, dueAt, now, graceMs, keep);
  const latest = missed[missed.length - 1];
  if (latest === undefined) return onTime === null ? null : { act: "run", dueAt: onTime, count: 0, after: now, skip: [], ask: null };
  switch (job.missed) {
    case "once":
      return { act: "run", dueAt: onTime ?? latest, count: total, after: now, skip: [], ask: null };
    case "skip":
      return onTime === null ? { act: "none", skip: missed, ask: null } : { act: "run", dueAt: onTime, count: 0, after: now, skip: missed, ask: null };
    case "ask": {
      const ask = { first: dueAt, last: latest, total, shown: missed };
      return onTime === null ? { act: "none", skip: [], ask } : { act: "run", dueAt: onTime, count: 0, after: now, skip: [], ask };
    }
    case "all": {
      const all = onTime === null ? missed : [...missed, onTime];
      const n = onTime === null ? total : total + 1;
      const runs = all.slice(-Math.min(n, MAX_CATCH_UP));
      const first = runs[0]!;
      return { act: "run", dueAt: first, count: 0, after: first, skip: all.slice(0, all.length - runs.length), ask: null };
    }
  }
}

/**
 * The occurrences of a job from `first` to `last`, the ones a message about its missed runs names: at most the last
 * 50, and how many in all (a one-off's is its one). `next`: the recurring schedule's next occurrence after an instant,
 * or null for a one-off.
 */
export function missedBetween(next: ((after: number) => number | null) | null, first: number, last: number): { dues: number[]; total: number } {
  if (next === null) return { dues: [last], total: 1 };
  const { missed, total } = occurrencesSince(next, first, last, -1);
  return { dues: missed, total: Math.max(total, 1) };
}
