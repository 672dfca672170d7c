/**
 * @module Every text a job produces for a person or a model (docs/time.md, docs/api.md, docs/telegram.md): the prompt a fired job sends,
 * the one-line job summary, the job list, the tool replies and the zone-change reply. Pure functions.
 */

import { shown } from "../contracts/ids";
import type { Said } from "../result";
import { CREATED_BY, type Job, type LastResult } from "../schemas/jobs";
import { ENGLISH, type Voice } from "../texts";
import { formatChatTime, formatDayMonthTime, formatNowLine, formatOffset, localFields, readRecurring } from "../time";
import { describeInEnglish, describeWith } from "../words";
import { parseGrace } from "./missed";

/** The line after the job line of a recurring job's last scheduled run (docs/time.md#jobs-that-end-until-and-runsleft). */
export const LAST_RUN_LINE = "This is the last scheduled run of this job.";

/**
 * `[Scheduled job "<name>" (<id>)]\n<text>`, with the late note on its own line when fired > 60 s late, and
 * the last-run line after the job line on a recurring job's last scheduled run.
 */
export function promptText(
  job: { id: string; name: string; text: string },
  late: { dueAt: number; zone: string; now?: number; count?: number } | null,
  last = false,
): string {
  const lines = [`[Scheduled job "${job.name}" (${job.id})]`];
  if (last) lines.push(LAST_RUN_LINE);
  if (late)
    lines.push(
      late.count !== undefined && late.count > 1 ? lateManyNote(late.count, late.dueAt, late.zone, late.now ?? late.dueAt) : lateNote(late.dueAt, late.zone),
    );
  lines.push(job.text);
  return lines.join("\n");
}

/** `This was due at 27 Sep 09:00; the bot was offline.` */
export function lateNote(dueAt: number, zone: string): string {
  return ENGLISH.t.agent.late(formatDayMonthTime(dueAt, zone));
}

/** `3 runs were missed while the bot was offline; this is the latest (due 10:02).` (docs/time.md#missed-runs). */
export function lateManyNote(count: number, dueAt: number, zone: string, now: number, v: Voice = ENGLISH): string {
  return v.t.agent.lateMany(count, formatChatTime(dueAt, zone, now, v.t.dates));
}

/** A one-off fired more than this late carries the late note (docs/api.md#how-a-job-fires). */
export const LATE_AFTER_MS = 60_000;

/** `a`, `a and b`, `a, b and c`: items in an English sentence (each language's table says its own). */
export const listed = (items: readonly string[]): string => ENGLISH.t.zone.and(items);

/** `d MMM HH:mm`, with the year when it is not this year's (zone-change reply). */
function dayMonthTime(instant: number, zone: string, now: number, v: Voice): string {
  if (localFields(zone, instant).year === localFields(zone, now).year) return formatDayMonthTime(instant, zone, v.t.dates);
  // Not today, so the chat time carries the day, month and year.
  return formatChatTime(instant, zone, now, v.t.dates);
}

/** An ISO duration of whole minutes, hours or days (`PT10M`, `PT1H`, `P1D`) as the job line says it: `10 min`, `1 h`, `1 day`. */
function spanText(iso: string, t: Voice["t"]["jobs"]): string {
  const seconds = parseGrace(iso) ?? 0;
  if (seconds % 86_400 === 0) return t.spanDays(seconds / 86_400);
  if (seconds % 3600 === 0) return t.spanHours(seconds / 3600);
  return t.spanMinutes(Math.round(seconds / 60));
}

function lastText(last: LastResult | null, t: Voice["t"]["jobs"]): string | null {
  if (last?.status === "transient") return t.lastTransient(String(last.exitCode ?? "?"));
  if (last?.status === "over_budget") return t.lastOverBudget;
  if (last?.status !== "failed") return null;
  return t.lastFailed(last.exitCode !== undefined && last.exitCode !== null ? String(last.exitCode) : "", last.timedOut === true);
}

/**
 * A recurring job's schedule in a line (docs/time.md#descriptions): in words the bot reads back (`every weekday at
 * 08:00`), never a rule's RRULE; a form no phrase says as written (`` `0 12 13 * 5` ``). Its ends are said after it,
 * by the job line; the reply that makes or changes a job shows a cron's fields too.
 */
export function scheduleText(schedule: Exclude<Job["schedule"], { at: string } | { trigger: "hook" }>, zone: string, now: number, v: Voice = ENGLISH): string {
  // A stored form that no longer reads is shown as written.
  const value = readRecurring(schedule, zone);
  if (!value.ok) return "cron" in schedule ? `\`${schedule.cron}\`` : `\`${schedule.rrule}\` from ${schedule.start.replace("T", " ")}`;
  const at = { zone, now };
  const said = v.speech === null ? describeInEnglish(value.value, NO_END, at) : describeWith(v.speech, value.value, NO_END, at);
  return said.written ? `\`${said.text}\`` : said.text;
}

const NO_END = { until: null, runsLeft: null };

/**
 * `31 Dec`, `31 Dec 2027`, `31 Dec 17:00`: an `until` (a local date-time in the chat's zone) as it was said, its
 * time left out when it is a day's end (its last minute: runs are on whole minutes), its year when it is not the
 * chat's year now.
 */
export function untilText(until: string, zone: string, now: number, v: Voice = ENGLISH): string {
  const [year, month, day] = until.slice(0, 10).split("-").map(Number) as [number, number, number];
  const time = until.slice(11, 16);
  const { dates } = v.t;
  const date = dates.dayMonth(day, dates.months[month - 1]!, year === localFields(zone, now).year ? "" : String(year));
  return `${date}${time === "23:59" ? "" : ` ${time}`}`;
}

/** What is left of a recurring job (docs/time.md#jobs-that-end-until-and-runsleft): `3 runs left`, `until 31 Dec`, `last run`, or null. */
function leftText(job: Pick<Job, "runsLeft" | "until">, zone: string, now: number, v: Voice): string | null {
  const t = v.t.jobs;
  const parts: string[] = [];
  if (job.runsLeft === 0) parts.push(t.lastRun);
  else if (typeof job.runsLeft === "number") parts.push(t.runsLeft(job.runsLeft));
  if (job.until && job.runsLeft !== 0) parts.push(t.until(untilText(job.until, zone, now, v)));
  return parts.length ? parts.join(" · ") : null;
}

/**
 * One line per job, as `/jobs` and the tools show it:
 * `` `p3xz9` 💬 Inbox summary · `0 8 * * 1-5` · next 28 Sep 08:00 ``, a rule in words, and what is left
 * (`· 3 runs left`, `· until 31 Dec`).
 */
export function jobLine(job: Job, zone: string, now: number, v: Voice = ENGLISH): string {
  const t = v.t.jobs;
  const time = (iso: string) => formatChatTime(Date.parse(iso), zone, now, v.t.dates);
  const parts = [`\`${job.id}\` ${job.kind === "watcher" ? "🔍" : "💬"} ${job.name}`];
  if ("at" in job.schedule) {
    parts.push(t.once(time(job.schedule.at)));
  } else if ("trigger" in job.schedule) {
    parts.push(job.hook ? t.onHook : t.hookless(job.id));
  } else {
    parts.push(scheduleText(job.schedule, zone, now, v));
    if (job.enabled && job.nextRunAt) parts.push(t.next(time(job.nextRunAt)));
    else if (job.enabled && job.runsLeft !== 0) parts.push(t.noNext);
    const left = leftText(job, zone, now, v);
    if (left) parts.push(left);
  }
  if (job.hook && !("trigger" in job.schedule)) parts.push(t.hook);
  if (job.model) parts.push(t.model(job.model));
  if (job.missed && job.missed !== "once") parts.push(t.missed[job.missed]);
  if (job.repeat) parts.push(t.nag(spanText(job.repeat.every, t), job.repeat.times));
  if (job.before && job.before.length > 0) parts.push(t.notices(v.t.zone.and(job.before.map((b) => spanText(b, t)))));
  if (!job.enabled) parts.push(t.paused);
  if (job.running) parts.push(t.running);
  const last = lastText(job.lastResult, t);
  if (last) parts.push(last);
  return parts.join(" · ");
}

/** Sorted by next run, one-offs by their time, paused last. */
export function sortJobs(jobs: readonly Job[]): Job[] {
  const key = (j: Job): number => {
    if (!j.enabled) return Number.POSITIVE_INFINITY;
    if (j.nextRunAt) return Date.parse(j.nextRunAt);
    return "at" in j.schedule ? Date.parse(j.schedule.at) : Number.MAX_VALUE;
  };
  return [...jobs].sort((a, b) => key(a) - key(b) || a.createdAt.localeCompare(b.createdAt));
}

/** Where a job's messages go, as /jobs marks it: `topic 42`, `this topic` (the one /jobs was sent in), `main thread`. */
function placeText(job: Job, here: number | null, t: Voice["t"]["jobs"]): string {
  if (job.threadId === undefined) return t.mainThread;
  return job.threadId === here ? t.thisTopic : t.topic(job.threadId);
}

/**
 * `**Scheduled jobs** (Europe/Berlin, now 26 Sep 14:03)` and a line per job, or `No scheduled jobs.` Every job
 * of the chat, wherever it posts: once the chat has topics (a job in one, or the list asked for in one, `here`),
 * each line ends with its place (`· topic 42`, `· this topic`, `· main thread`).
 */
export function jobList(jobs: readonly Job[], zone: string, now: number, options: { here?: number | null } = {}, v: Voice = ENGLISH): string {
  const t = v.t.jobs;
  if (jobs.length === 0) return t.none;
  const here = options.here ?? null;
  const topics = here !== null || jobs.some((j) => j.threadId !== undefined);
  const lines = sortJobs(jobs).map((j) => (topics ? `${jobLine(j, zone, now, v)} · ${placeText(j, here, t)}` : jobLine(j, zone, now, v)));
  return [t.title(zone, formatDayMonthTime(now, zone, v.t.dates)), ...lines].join("\n");
}

/** The tools' `create` (and with `Changed`, `update`) reply: the job line, its next runs, and the `Now:` line. */
export function createdText(job: Job, nextRuns: readonly number[], zone: string, now: number, verb: "Created" | "Changed" = "Created"): string {
  const lines = [`${verb} ${jobLine(job, zone, now)}`];
  if (nextRuns.length > 1) lines.push(`Next runs: ${nextRuns.map((t) => formatChatTime(t, zone, now)).join(", ")}.`);
  lines.push(formatNowLine(now, zone));
  return lines.join("\n");
}

export const cancelledText = (job: { id: string; name: string }, v: Voice = ENGLISH) => v.t.job.cancelled(job.id, job.name);
export const pausedText = (job: { id: string; name: string }, v: Voice = ENGLISH) => v.t.job.paused(job.id, job.name);
export const runningNowText = (job: { id: string; name: string }, v: Voice = ENGLISH) => v.t.job.running(job.id, job.name);
export function resumedText(job: Job, zone: string, now: number, v: Voice = ENGLISH): string {
  return v.t.job.resumed(job.id, job.name, job.nextRunAt ? formatChatTime(Date.parse(job.nextRunAt), zone, now, v.t.dates) : "");
}
export const noJobText = (id: string, v: Voice = ENGLISH) => v.t.job.noJob(id);

/** English's sentences of refusal (the API's and the model's); a chat says them in its language from `said`. */
const PROBLEMS = ENGLISH.t.problems;

/** A refusal: its sentence in English, and what it says by name for a chat's language. */
export type Refusal = { sentence: string; said: Said };

/** The refusal `key` of the replies' tables' `problems`, with its values. */
function refusal<K extends Exclude<keyof typeof PROBLEMS, "adminsOnly" | "rightsUnknown">>(key: K, ...args: Parameters<(typeof PROBLEMS)[K]>): Refusal {
  const say = PROBLEMS[key] as (...values: typeof args) => string;
  return { sentence: say(...args), said: { key, args } };
}

/** Skip (docs/api.md#jobs) of a one-off: it has no next occurrence to pass over. */
export const runsOnceText = (id: string) => refusal("runsOnce", id);
/** Skip of a job that only its hook runs (docs/hooks.md): it has no occurrences. */
export const hookOnlyText = (id: string) => refusal("hookOnly", id);
/** A hook called for a paused job (docs/hooks.md). */
export const pausedJobText = (id: string) => refusal("paused", id);
/** Skip of a paused job, or of one that has no next run. */
export const nothingToSkipText = (job: { id: string; enabled: boolean }) => refusal("nothingToSkip", job.id, !job.enabled);
/** `Skipped 28 Sep 08:00; next 29 Sep 08:00.`: what a skip passed over, and what comes now. */
export function skippedText(skipped: number, job: Job, zone: string, now: number, v: Voice = ENGLISH): string {
  const time = (at: number) => formatChatTime(at, zone, now, v.t.dates);
  return v.t.job.skipped(time(skipped), job.nextRunAt ? time(Date.parse(job.nextRunAt)) : "");
}
/** Skip of a recurring job's last run before its end (`until`, `runsLeft`): passing it over would end the job. */
export const lastRunText = (id: string) => refusal("lastRun", id);
/** What a skip records in the job's history. */
export const SKIPPED_BY_HAND = "skipped by hand";
/** A `memoryRefs` entry that names no record of the chat (docs/api.md#tools-for-agents: checked when a job is created or edited). */
export const memoryRefMissingText = (id: string) => `"memoryRefs" names ${id}, which is not a memory record of this chat; see memory_list.`;

/**
 * A one-off whose run failed (docs/agent.md#the-lease): kept, paused, with its history, and the chat told once.
 * `⚠️ Job "<name>" (<id>) did not run: <reason>. It is paused: /resume <id> runs it now, /cancel <id> removes it.`
 */
export const oneOffFailedText = (job: { id: string; name: string }, reason: string) =>
  `⚠️ Job "${job.name}" (${job.id}) did not run: ${reason}. It is paused: /resume ${job.id} runs it now, /cancel ${job.id} removes it.`;
export const stillRunningText = (id: string) => refusal("stillRunning", id);

/**
 * A resume or an edit of a recurring job whose end came (docs/time.md#jobs-that-end-until-and-runsleft): nothing is
 * left to run until its ends change. A chat says the end in its language: `said` carries it as stored.
 */
export function noRunsLeftText(job: { id: string; name: string; until: string | null; runsLeft: number | null }, zone: string, now: number): Refusal {
  const until = job.runsLeft === 0 || job.until === null ? "" : job.until;
  return {
    sentence: PROBLEMS.noRunsLeft(job.id, job.name, until && untilText(until, zone, now)),
    said: { key: "noRunsLeft", args: [job.id, job.name, until] },
  };
}
/** A job's maker that is none of the four (a call over RPC sent something else). */
export const createdByText = (value: unknown) =>
  `"createdBy" must be one of ${CREATED_BY.map((c) => `"${c}"`)
    .join(", ")
    .replace(/, ([^,]*)$/, " or $1")}; got ${shown(String(value))}.`;
export const tooManyJobsText = (limit: number) => refusal("tooManyJobs", limit);

/**
 * A refusal `said` in the voice's language (`noRunsLeft`'s end as that language writes a date), or null when the
 * voice's table has no such sentence.
 */
export function saidIn(v: Voice, said: Said, zone: string, now: number): string | null {
  const say = (v.t.problems as Record<string, unknown>)[said.key];
  if (typeof say === "string") return say;
  if (typeof say !== "function") return null;
  const args =
    said.key === "noRunsLeft" && typeof said.args[2] === "string" && said.args[2] !== ""
      ? [...said.args.slice(0, 2), untilText(said.args[2], zone, now, v)]
      : said.args;
  return String(say(...args));
}

/**
 * The reply to a zone change (docs/time.md): `Time zone set to Asia/Tokyo (UTC+09:00). Now 27 Sep 02:15. 2
 * recurring jobs now follow this zone; 1 one-off job keeps its time (now 27 Sep 16:00 here).` The job clause
 * is left out when the chat has no jobs; `default` marks the operator's default zone.
 */
export function zoneChangedText(zone: string, isDefault: boolean, now: number, cronJobs: number, oneOffs: readonly number[], v: Voice = ENGLISH): string {
  const t = v.t.zone;
  const head = t.set(zone, formatOffset(zone, now), isDefault, dayMonthTime(now, zone, now, v));
  const clauses: string[] = [];
  if (cronJobs > 0) clauses.push(t.recurringFollow(cronJobs));
  if (oneOffs.length > 0) {
    const sorted = [...oneOffs].sort((a, b) => a - b);
    const shown = sorted.slice(0, 3).map((at) => dayMonthTime(at, zone, now, v));
    if (sorted.length > 3) shown.push(t.more(sorted.length - 3));
    clauses.push(t.oneOffsKeep(oneOffs.length, t.and(shown)));
  }
  return clauses.length ? `${head} ${clauses.join("; ")}.` : head;
}

/**
 * The note before a message whose forum topic is gone (docs/telegram.md): it comes to the main thread instead, and the
 * jobs that posted in that topic post here from now on.
 */
export function topicGoneText(jobs: readonly { id: string; name: string }[], t: Voice["t"] = ENGLISH.t): string {
  return t.topicGone(t.zone.and(jobs.map((j) => `${j.id} (${j.name})`)), jobs.length);
}
