/**
 * @module The daily agenda (docs/telegram.md#agenda): at the time a chat chose (`/agenda 8:00`), one message listing the
 * rest of the day's runs in order, each with its time, what kind of job it is and its name (a watcher by its name
 * only), nothing when the day is empty. A message, not an agent turn. Pure: the chat's object finds the jobs and
 * sends what `agendaText` says.
 */
import type { JobKind } from "../schemas/jobs";
import type { Texts } from "../texts";
import { formatChatTime, formatWeekdayDay } from "../time";
import type { Skipped } from "./fire";
import type { JobRecord } from "./records";
import { upcomingRuns } from "./upcoming";

/** A run of the day as the agenda lists it. */
export type AgendaRun = { at: number; name: string; kind: JobKind };

/** The most runs one agenda lists; a chat with more is told how many are left out. */
export const AGENDA_MAX = 50;

/**
 * The runs of `jobs` from `from` (inclusive) to `to` (exclusive), soonest first: of jobs that are enabled and not
 * quarantined, a one-off at its time, a recurring job each occurrence from its next run on, passing over those
 * skipped by hand and stopping at its end (`until`, the runs it has left). A job only its hook runs has none.
 */
export function dayRuns(
  jobs: readonly JobRecord[],
  zone: string,
  from: number,
  to: number,
  skippedOf: (jobId: string) => Skipped,
): { runs: AgendaRun[]; more: number } {
  const runs: AgendaRun[] = [];
  for (const job of jobs) {
    if (!job.enabled || job.quarantined !== null || job.nextRunAt === null) continue;
    const schedule = job.schedule;
    const entry = (at: number): AgendaRun => ({ at, name: job.name, kind: job.kind });
    if (schedule.type === "hook") continue;
    if (schedule.type === "at") {
      if (job.nextRunAt >= from && job.nextRunAt < to) runs.push(entry(job.nextRunAt));
      continue;
    }
    for (const t of upcomingRuns(job, schedule, zone, skippedOf(job.id))) {
      if (t >= to || runs.length > AGENDA_MAX * 4) break;
      if (t >= from) runs.push(entry(t));
    }
  }
  runs.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
  return { runs: runs.slice(0, AGENDA_MAX), more: Math.max(0, runs.length - AGENDA_MAX) };
}

/** `**Today** (Tue 8 Dec, Europe/Berlin)` and a line per run (`09:00 💬 Standup`), in the chat's language; null for no runs. */
export function agendaText(day: { runs: readonly AgendaRun[]; more: number }, zone: string, now: number, t: Texts): string | null {
  if (day.runs.length === 0) return null;
  const lines = [t.agenda.title(formatWeekdayDay(now, zone, t.dates), zone)];
  // Each run is today: its time alone.
  for (const run of day.runs) lines.push(`${formatChatTime(run.at, zone, now, t.dates)} ${run.kind === "watcher" ? "🔍" : "💬"} ${run.name}`);
  if (day.more > 0) lines.push(t.agenda.more(day.more));
  return lines.join("\n");
}
