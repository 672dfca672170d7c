/**
 * @module What the runner says (DESIGN §8): the outcome of a run, as POSTed to the callback or answered by a
 * dry run, parsed with zod at the edge. Extra fields from a newer runner are ignored.
 */
import * as z from "zod";

import { lazy } from "../lazy";
import { CHAT_ID } from "../contracts/ids";

export const runnerOutcome = lazy(() =>
  z.object({
    runId: z.string().min(1).max(200),
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

export type RunnerOutcome = z.infer<ReturnType<typeof runnerOutcome>>;

/** The body of `POST /runs` (DESIGN §8). */
export type RunRequest = {
  runId: string;
  chatId: string;
  jobId: string;
  command: string;
  timeoutSeconds: number;
  timeZone: string;
  callbackUrl?: string;
};

/** The runner's run id of a chat's run: `<chatId>:<jobId>:<dueAt>` (the DO's own run id is `<jobId>:<dueAt>`). */
export const runnerRunId = (chatId: string, runId: string): string => `${chatId}:${runId}`;

/** The DO's run id inside a runner run id of `chatId`, or null when it is not one of this chat's. */
export function chatRunId(chatId: string, runnerId: string): string | null {
  const prefix = `${chatId}:`;
  return runnerId.startsWith(prefix) ? runnerId.slice(prefix.length) : null;
}
