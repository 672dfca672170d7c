/**
 * @module What a job does besides its schedule and its text, as a create or an edit gives it (docs/agent.md#models,
 * docs/time.md#missed-runs, docs/telegram.md#notices-ahead, docs/telegram.md#nag-until-done): its model, what a
 * missed run does, its notices ahead and its nagging, each checked over what the job has. Pure; `validate.ts` calls it.
 */

import { fail, type Parsed } from "../result";
import type { CreateJobInput } from "../schemas/jobs";
import { readBefore, readRepeat, shortestInterval } from "./before";
import { graceText, readMissed } from "./missed";
import { modelProblem } from "./model";
import type { JobSpec } from "./records";

/**
 * A create's or an edit's model and missed-run policy for a job whose schedule is `type` (docs/agent.md#models,
 * docs/time.md#missed-runs), over what the job has: a model must be one of the bot's (null: the chat's).
 */
export function runOptions(
  input: Pick<CreateJobInput, "model" | "missed" | "grace" | "before" | "repeat">,
  type: JobSpec["schedule"]["type"],
  current: Pick<JobSpec, "model" | "missed" | "graceSeconds" | "before" | "repeat">,
  ctx: { zone: string; now: number; models?: readonly string[] },
  schedule?: JobSpec["schedule"],
  kind: JobSpec["kind"] = "prompt",
): Parsed<Pick<JobSpec, "model" | "missed" | "graceSeconds" | "before" | "repeat">> {
  let model = current.model;
  if (input.model !== undefined) {
    const problem = input.model === null ? null : modelProblem(input.model, ctx.models ?? []);
    if (problem) return fail(problem);
    model = input.model;
  }
  const missed = readMissed(input, type, current);
  if (!missed.ok) return missed;
  let before = current.before;
  // Checked when given, and against a new schedule when the job has some.
  if (input.before !== undefined || (before.length > 0 && schedule !== undefined)) {
    const shortest = schedule === undefined || schedule.type === "at" || schedule.type === "hook" ? null : shortestInterval(schedule, ctx.zone, ctx.now);
    // A job becoming one only its hook runs keeps no notices of its own.
    const read = readBefore(input.before ?? (type === "hook" ? [] : before.map(graceText)), type, shortest);
    if (!read.ok) return fail(read.error);
    before = read.before;
  }
  let repeat = current.repeat;
  if (input.repeat !== undefined) {
    const read = readRepeat(input.repeat, kind);
    if (!read.ok) return fail(read.error);
    repeat = read.repeat;
  }
  return { ok: true, value: { model, missed: missed.missed, graceSeconds: missed.graceSeconds, before, repeat } };
}
