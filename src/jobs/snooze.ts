/**
 * @module Snoozing a job's message (docs/telegram.md#scheduled-messages-and-buttons): a one-off copy of the job (its name, text, memory
 * references, whether it is silent, and the forum topic it posts in) at a later time in the chat's zone: 10 minutes or an hour from now, or
 * 09:00 of the next day. What the copy needs is kept with the message when it is delivered (`JobCopy`), so a
 * snooze works after the one-off it came from was deleted. Pure.
 */
import type { CreateJobInput } from "../schemas/jobs";
import { tomorrowAt } from "../time";
import type { JobRecord } from "./records";

/** When a snooze button puts the copy: minutes from now, or 09:00 of the next day in the chat's zone. */
export type Snooze = { minutes: 10 | 60 } | { tomorrow: true };

/** What a snooze copies of a prompt job, kept with each of its messages (`threadId`: its topic, when it has one). */
export type JobCopy = { name: string; text: string; memoryRefs: string[]; silent: boolean; threadId?: number };

/** What a prompt job's message keeps for a snooze. */
export const copyOf = (job: Pick<JobRecord, "name" | "text" | "memoryRefs" | "silent" | "threadId">): JobCopy => ({
  name: job.name,
  text: job.text ?? "",
  memoryRefs: [...job.memoryRefs],
  silent: job.silent,
  ...(job.threadId !== null ? { threadId: job.threadId } : {}),
});

/** The instant a snooze pressed at `now` puts the copy at. */
export function snoozeInstant(snooze: Snooze, zone: string, now: number): number {
  return "minutes" in snooze ? now + snooze.minutes * 60_000 : tomorrowAt(zone, now, 9, 0);
}

/** The create input of the copy: a one-off prompt at `at`, created as the chat's user's. */
export function copyInput(copy: JobCopy, at: number): CreateJobInput {
  return {
    name: copy.name,
    kind: "prompt",
    text: copy.text,
    at: new Date(at).toISOString(),
    ...(copy.memoryRefs.length > 0 ? { memoryRefs: copy.memoryRefs } : {}),
    ...(copy.silent ? { silent: true } : {}),
  };
}
