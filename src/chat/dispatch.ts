/**
 * @module Sending claimed prompt runs to the `prompts` queue with `sendBatch`, in chunks of at most 100
 * messages and 250 KB (DESIGN §5). A chunk that fails leaves its runs claimed, to be sent again.
 */
import type { RunRecord } from "../jobs/model";

export const MAX_BATCH_MESSAGES = 100;
export const MAX_BATCH_BYTES = 250 * 1024;

/**
 * The wait before sending a run again after `attempts` failed sends: 5 s, 10 s, 20 s … at most `maxMs`, less
 * up to half at random (jitter, so that chats that failed together do not retry together).
 */
export function retryDelay(attempts: number, maxMs: number): number {
  const base = Math.min(maxMs, 5_000 * 2 ** attempts);
  return Math.round(base * (0.5 + Math.random() / 2));
}

export type DispatchOutcome = { sent: string[]; failed: string[]; error: string | null };

/** Splits runs into chunks that each fit one `sendBatch` call. */
export function chunkRuns(runs: readonly RunRecord[]): RunRecord[][] {
  const chunks: RunRecord[][] = [];
  let chunk: RunRecord[] = [];
  let bytes = 0;
  for (const run of runs) {
    const size = new TextEncoder().encode(run.message ?? "").length;
    if (chunk.length > 0 && (chunk.length >= MAX_BATCH_MESSAGES || bytes + size > MAX_BATCH_BYTES)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(run);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Sends the runs' stored messages; reports which run ids went out and which did not. */
export async function dispatchPrompts(queue: Queue, runs: readonly RunRecord[]): Promise<DispatchOutcome> {
  const outcome: DispatchOutcome = { sent: [], failed: [], error: null };
  for (const chunk of chunkRuns(runs)) {
    try {
      await queue.sendBatch(chunk.map((run) => ({ body: JSON.parse(run.message ?? "null") as unknown, contentType: "json" as const })));
      outcome.sent.push(...chunk.map((r) => r.runId));
    } catch (error) {
      outcome.failed.push(...chunk.map((r) => r.runId));
      outcome.error = error instanceof Error ? error.message : String(error);
    }
  }
  return outcome;
}
