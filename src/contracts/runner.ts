/**
 * @module The runner's wire contract as the Worker uses it (docs/watchers.md). Everything of
 * `runner/src/contract.ts` (the request, the outcome, the v2 signature, the limits) is re-exported from
 * here: that file is the one of `runner/` that `src/` imports, and this is the one module of `src/` that
 * imports it (test/unit/runner-contract.test.ts holds both to that). Beside it, two things of the Worker's
 * own: the zod schema it parses an outcome with, and how it names its runs on the runner.
 *
 * Why zod for the outcome rather than the contract's hand-written `parseOutcome`: the outcome crosses three
 * of the Worker's boundaries (the callback's body, a dry run's answer, the Durable Object's RPC argument),
 * where the Worker parses with zod and turns the first issue into a sentence (`sentenceFor`), and the
 * admin OpenAPI document takes its component schemas from zod schemas (`z.toJSONSchema`). So that the two
 * cannot drift: the schema's limits are the contract's constants, its type must be exactly the contract's
 * `RunnerOutcome` (a type test in test/unit/runner-contract.test.ts fails to compile otherwise, in either
 * direction), and a unit test runs the schema and `parseOutcome` over the same outcomes and expects the same
 * verdicts.
 */
import * as z from "zod";
import { CHAT_ID, MAX_RUN_ID_LENGTH } from "../../runner/src/contract.ts";
import { lazy } from "../lazy";

export * from "../../runner/src/contract.ts";

/** A run's outcome, as POSTed to the callback or answered by a dry run. Fields a newer runner adds are dropped. */
export const runnerOutcome = lazy(() =>
  z.object({
    runId: z.string().min(1).max(MAX_RUN_ID_LENGTH),
    chatId: z.string().regex(CHAT_ID),
    status: z.enum(["silent", "output", "failed"]),
    exitCode: z.number().int().nullable(),
    timedOut: z.boolean(),
    stdout: z.string(),
    stderrTail: z.string(),
    truncated: z.object({ stdout: z.boolean(), stderr: z.boolean() }),
    startedAt: z.string(),
    finishedAt: z.string(),
  }),
);

/** The run id the runner gets for a chat's run: `<chatId>:<jobId>:<dueAt>` (the DO's own is `<jobId>:<dueAt>`). */
export const runnerRunId = (chatId: string, runId: string): string => `${chatId}:${runId}`;

/** The DO's run id inside a runner run id of `chatId`, or null when it is not one of this chat's. */
export function chatRunId(chatId: string, runnerId: string): string | null {
  const prefix = `${chatId}:`;
  return runnerId.startsWith(prefix) ? runnerId.slice(prefix.length) : null;
}
