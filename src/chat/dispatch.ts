/**
 * @module Sending claimed prompt runs to the `prompts` queue with `sendBatch`, in chunks of at most 100
 * messages and 256 KB with the queue's per-message metadata (docs/api.md#how-a-job-fires: 250 KB of bodies). A
 * chunk that fails leaves its runs claimed, to be sent again.
 */
import type { PromptMessage } from "../contracts/prompt-message";

export const MAX_BATCH_MESSAGES = 100;
/** Cloudflare's limit for one `sendBatch` is 256 KB in total (1 KB = 1,000 bytes), metadata included. */
export const MAX_BATCH_BYTES = 256_000;
/** What Cloudflare counts for each message besides its body (its documented metadata, about 100 bytes). */
export const MESSAGE_OVERHEAD_BYTES = 100;

/** A claimed prompt ready to send: its run id and its queue message. */
export type Outgoing = { runId: string; message: PromptMessage };

export type DispatchOutcome = { sent: string[]; failed: string[]; error: string | null };

/** Splits prompts into chunks that each fit one `sendBatch` call: UTF-8 bytes of the JSON, plus each message's metadata. */
export function chunkPrompts(prompts: readonly Outgoing[]): Outgoing[][] {
  const encoder = new TextEncoder();
  const chunks: Outgoing[][] = [];
  let chunk: Outgoing[] = [];
  let bytes = 0;
  for (const prompt of prompts) {
    const size = encoder.encode(JSON.stringify(prompt.message)).length + MESSAGE_OVERHEAD_BYTES;
    if (chunk.length > 0 && (chunk.length >= MAX_BATCH_MESSAGES || bytes + size > MAX_BATCH_BYTES)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(prompt);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Sends the prompts; reports which run ids went out and which did not. */
export async function sendPrompts(queue: Queue, prompts: readonly Outgoing[]): Promise<DispatchOutcome> {
  const outcome: DispatchOutcome = { sent: [], failed: [], error: null };
  for (const chunk of chunkPrompts(prompts)) {
    try {
      await queue.sendBatch(chunk.map((p) => ({ body: p.message, contentType: "json" as const })));
      outcome.sent.push(...chunk.map((p) => p.runId));
    } catch (error) {
      outcome.failed.push(...chunk.map((p) => p.runId));
      outcome.error = error instanceof Error ? error.message : String(error);
    }
  }
  return outcome;
}
