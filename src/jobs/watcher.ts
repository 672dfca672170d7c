/**
 * @module What a watcher's run means (docs/api.md#how-a-job-fires): the runner call stored with a claimed run, the prompt a
 * match sends, what a match does (wake the agent, stay silent because it is unchanged, or stay silent because
 * the chat's wake-ups for the day are spent), the alert a failure delivers (once per failure streak), exit 75
 * as "try next time", and the reply of a dry run. Pure.
 */

import * as z from "zod";
import { sha256Hex } from "../bytes";
import { leaseMs } from "../config";
import type { RunnerOutcome } from "../contracts/runner";
import { lazy } from "../lazy";
import type { FailureStreak, WatcherCall } from "./records";

/** A watcher's lease beyond its timeout: the runner's cold start and the callback's way back (docs/api.md#how-a-job-fires). */
export const WATCHER_LEASE_GRACE_MS = 60_000;
/** The stderr tail kept in `lastResult` and alerts, at most (the runner sends 20 lines). */
const MAX_TAIL_CHARS = 4000;
/**
 * The most of a watcher's stdout handed to the agent: the prompt carries it twice (`text` and `body`) and a
 * queue message holds at most 128 KB, so the middle of a longer output is left out.
 */
export const MAX_PROMPT_OUTPUT_CHARS = 16_000;

/** A watcher's call to the runner as a run stores it (the run's `kind` is `watcher`), parsed when read back. */
export const watcherCallSchema = lazy(
  (): z.ZodType<WatcherCall> =>
    z.strictObject({
      command: z.string().min(1),
      timeoutSeconds: z.number().int().min(1).max(3600),
      timeZone: z.string().min(1),
      stdin: z.string().optional(),
    }),
);

/** A watcher run's lease: its timeout plus the grace (divided by `speedup` in a local test: `leaseMs` of config.ts). */
export const watcherLeaseMs = (timeoutSeconds: number, speedup = 1): number => timeoutSeconds * 1000 + leaseMs(WATCHER_LEASE_GRACE_MS, speedup);

/** Output for the agent: as printed, or its head and tail with the middle left out when it is long. */
export function clipOutput(stdout: string, maxChars: number = MAX_PROMPT_OUTPUT_CHARS): string {
  if (stdout.length <= maxChars) return stdout;
  const head = stdout.slice(0, Math.floor((maxChars * 3) / 4));
  const tail = stdout.slice(stdout.length - Math.floor(maxChars / 4));
  return `${head}\n… [${stdout.length - head.length - tail.length} characters left out] …\n${tail}`;
}

/** A queue message holds at most 128 KB; the prompt stays under this, JSON-encoded, with room to spare. */
export const MAX_PROMPT_MESSAGE_BYTES = 120_000;

/**
 * The output cut until `build(output)` serializes within the queue's limit: control characters take six
 * bytes each in JSON, and a character up to three in UTF-8, so a character count alone cannot promise it.
 */
export function fitOutput<T>(stdout: string, build: (output: string) => T): T {
  for (let max = MAX_PROMPT_OUTPUT_CHARS; ; max = Math.floor(max / 2)) {
    const message = build(clipOutput(stdout, max));
    if (max < 64 || new TextEncoder().encode(JSON.stringify(message)).length <= MAX_PROMPT_MESSAGE_BYTES) return message;
  }
}

/** `[Scheduled job "<name>" (<id>)] The watcher script printed:\n<stdout>` (docs/api.md#how-a-job-fires). */
export const matchedPromptText = (job: { id: string; name: string }, stdout: string): string =>
  `[Scheduled job "${job.name}" (${job.id})] The watcher script printed:\n${stdout}`;

/** A failure as the run records it: exit code, timed out, and the stderr tail or the reason it did not start. */
export type Failure = { exitCode: number | null; timedOut: boolean; tail: string; didNotStart: boolean };

/** The last `MAX_TAIL_CHARS` of a tail, whole lines where possible. */
export function boundTail(tail: string): string {
  const trimmed = tail.replace(/\s+$/, "");
  if (trimmed.length <= MAX_TAIL_CHARS) return trimmed;
  const cut = trimmed.slice(trimmed.length - MAX_TAIL_CHARS);
  const newline = cut.indexOf("\n");
  return newline >= 0 && newline < cut.length - 1 ? cut.slice(newline + 1) : cut;
}

/** `failed (exit 3)`, `failed (exit 137, timed out)`, `failed (timed out)`, `failed (did not start)`. */
export function failedLabel(f: Pick<Failure, "exitCode" | "timedOut" | "didNotStart">): string {
  if (f.exitCode !== null) return `failed (exit ${f.exitCode}${f.timedOut ? ", timed out" : ""})`;
  if (f.timedOut) return "failed (timed out)";
  return f.didNotStart ? "failed (did not start)" : "failed";
}

/** A code block that a backtick run inside the text cannot close early. */
function codeBlock(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/**
 * The alert delivered straight to the chat, never through the model: `⚠️ Job "<name>" (<id>) failed (exit
 * <n>[, timed out]):` and the stderr tail in a code block (the reason, when it did not start); with an empty
 * tail it ends with a full stop.
 */
export function alertText(job: { id: string; name: string }, f: Failure): string {
  const head = `⚠️ Job "${job.name}" (${job.id}) ${failedLabel(f)}`;
  const tail = boundTail(f.tail);
  // With nothing on stderr the sentence ends there, not on a colon that introduces nothing.
  return tail === "" ? `${head}.` : `${head}:\n${codeBlock(tail)}`;
}

/**
 * Whether a failure starts a new streak, so it is reported: no streak is running, or it started with another
 * exit code or timed-out flag (docs/api.md#how-a-job-fires). A success ends a streak; a transient run (exit 75) leaves it.
 */
export function isNewFailure(streak: FailureStreak | null, f: Pick<Failure, "exitCode" | "timedOut">): boolean {
  return streak === null || streak.exitCode !== f.exitCode || streak.timedOut !== f.timedOut;
}

/** `EX_TEMPFAIL` (sysexits.h): the script could not tell this time and asks to be tried again next time. */
export const EX_TEMPFAIL = 75;

/** Whether a failed outcome is transient: exit 75, not killed for its time. */
export const isTransient = (f: Pick<Failure, "exitCode" | "timedOut">): boolean => f.exitCode === EX_TEMPFAIL && !f.timedOut;

/**
 * What a match does (docs/api.md#how-a-job-fires): `unchanged` when the job has `onlyOnChange` and the output's hash is the last
 * delivered match's; `over_budget` when the chat's watchers already woke the agent `max` times today
 * (`used`); else `wake`. An unchanged match is not a wake-up, so it uses none of the budget.
 */
export function decideMatch(
  job: { onlyOnChange: boolean; matchHash: string | null },
  hash: string,
  used: number,
  max: number,
): "unchanged" | "over_budget" | "wake" {
  if (job.onlyOnChange && job.matchHash === hash) return "unchanged";
  return used >= max ? "over_budget" : "wake";
}

/** The hash a match is compared by (`onlyOnChange`): SHA-256 of the output without surrounding whitespace, hex. */
export function outputHash(stdout: string): Promise<string> {
  return sha256Hex(stdout.trim());
}

/**
 * The day's one notice when the chat's watchers have used up their wake-ups (docs/api.md#access MAX_WAKEUPS_PER_DAY),
 * direct to the chat like an alert, naming the job whose match went over.
 */
export function overBudgetText(job: { id: string; name: string }, max: number, via: "match" | "hook" = "match"): string {
  const what = via === "hook" ? "was called by its hook, but this chat's jobs have" : "matched, but this chat's watchers have";
  const runs = via === "hook" ? "such runs are" : "matches are";
  return (
    `⚠️ Job "${job.name}" (${job.id}) ${what} already woken the agent ${max} ${max === 1 ? "time" : "times"} today, ` +
    `the daily limit: ${runs} recorded "over budget" and wake no one until tomorrow. ` +
    "The bot's owner can raise MAX_WAKEUPS_PER_DAY."
  );
}

/** The `test` action's reply to the model (docs/api.md#tools-for-agents): what a watcher with this script would do. */
export function testReplyText(outcome: Pick<RunnerOutcome, "status" | "exitCode" | "timedOut" | "stdout" | "stderrTail" | "truncated">): string {
  switch (outcome.status) {
    case "silent":
      return "The script exited 0 and printed nothing: as a watcher it would stay silent. Nothing was scheduled.";
    case "output":
      return [
        `The script exited 0 and printed${outcome.truncated.stdout ? " (cut to its first 48 KiB and last 16 KiB)" : ""}:`,
        codeBlock(clipOutput(outcome.stdout).replace(/\s+$/, "")),
        "As a watcher it would wake the agent with this output. Nothing was scheduled.",
      ].join("\n");
    case "failed": {
      const tail = boundTail(outcome.stderrTail);
      return [
        `The script ${failedLabel({ exitCode: outcome.exitCode, timedOut: outcome.timedOut, didNotStart: false })}${tail ? "; the end of its stderr:" : "."}`,
        ...(tail ? [codeBlock(tail)] : []),
        "As a watcher it would alert the chat. Nothing was scheduled.",
      ].join("\n");
    }
  }
}
