/**
 * @module The outcome of a run as docs/watchers.md states it, from what the process did: `silent` (exit 0, stdout
 * empty once trimmed), `output` (exit 0 with output) or `failed` (anything else, with the exit status a
 * shell would report, or none when it timed out, was cancelled or never started).
 */
import { constants } from "node:os";
import { lastLines } from "./capture.ts";
import { type RunnerOutcome, STDERR_TAIL_LINES } from "./contract.ts";
import type { ExecResult } from "./exec.ts";

/** The runner's own line after a cancelled run's stderr (only a dry run's caller ever sees it). */
export const CANCELLED_NOTE = "The run was cancelled.";

export interface RunFacts {
  runId: string;
  chatId: string;
  startedAtMs: number;
  finishedAtMs: number;
}

/** The exit status a shell reports for a process ended by `signal`: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number | null {
  const number = constants.signals[signal];
  return number === undefined ? null : 128 + number;
}

export function toOutcome(facts: RunFacts, result: ExecResult): RunnerOutcome {
  const exitCode =
    result.spawnError !== null || result.timedOut || result.cancelled ? null : result.signal !== null ? signalExitCode(result.signal) : result.code;
  const stdout = result.stdout.text;
  const status = exitCode !== 0 ? "failed" : stdout.trim() === "" ? "silent" : "output";
  let stderr = result.stderr.text;
  if (result.spawnError !== null) stderr = result.spawnError;
  else if (result.cancelled) stderr = [stderr.replace(/\n+$/, ""), CANCELLED_NOTE].filter(Boolean).join("\n");
  return {
    runId: facts.runId,
    chatId: facts.chatId,
    status,
    exitCode,
    timedOut: result.timedOut,
    stdout,
    stderrTail: lastLines(stderr, STDERR_TAIL_LINES),
    truncated: { stdout: result.stdout.truncated, stderr: result.stderr.truncated },
    startedAt: new Date(facts.startedAtMs).toISOString(),
    finishedAt: new Date(facts.finishedAtMs).toISOString(),
  };
}
