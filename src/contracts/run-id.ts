/**
 * @module A job run's id (docs/agent.md#keys): `<jobId>:<dueAt epoch ms>` (a manual run: its now), made and read
 * here only. The same text is the run's key in the run gate, the queue message and the transcript, and sits
 * inside a job message's button data, so every part that meets one asks this module what it holds.
 */
import { JOB_ID_PATTERN } from "./ids";

/** A run id, as a pattern's source: for the patterns that hold one (a message button's data). */
export const RUN_ID_PATTERN = `${JOB_ID_PATTERN}:\\d{1,15}`;

let whole: RegExp | undefined;

/** The id of the run of job `jobId` due at `dueAt` (epoch ms). */
export function runIdOf(jobId: string, dueAt: number): string {
  return `${jobId}:${dueAt}`;
}

/** The job and due time a run id names, or null when `id` is no run's (a Telegram update's key, `u:…`). */
export function readRunId(id: string): { jobId: string; dueAt: number } | null {
  whole ??= new RegExp(`^(${JOB_ID_PATTERN}):(\\d{1,15})$`);
  const m = whole.exec(id);
  return m ? { jobId: m[1]!, dueAt: Number(m[2]) } : null;
}
