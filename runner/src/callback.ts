/**
 * @module Delivery of an outcome to its `callbackUrl`: a signed JSON POST (the contract's v2 signature over
 * the method, the URL's path and query, and the body), signed afresh (a new `t`) on each attempt, retried
 * with exponential backoff on network errors and non-2xx answers. The Worker answers 204 for any run id it
 * gets; it answers 400, 404 or 413 only to a callback that can never be taken (not an outcome, another
 * chat's, a route that does not exist, too large), which stops the delivery too. A 401 is retried: the
 * secret may be mid-rotation.
 *
 * Policy: at most `maxAttempts` attempts (10 by default); the wait before attempt n+1 is
 * min(baseDelayMs × 2^(n−1), maxDelayMs): 1, 2, 4, 8, 16, 32, 60, 60, 60 s by default, about 4 minutes in
 * all; each attempt gets at most 10 s to answer.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { SIGNATURE_HEADER, signatureHeader, signingTarget } from "./contract.ts";

export interface CallbackPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  attemptTimeoutMs: number;
}

export const DEFAULT_CALLBACK_POLICY: CallbackPolicy = {
  maxAttempts: 10,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  attemptTimeoutMs: 10_000,
};

/** The wait after failed attempt `attempt` (1-based). */
export function backoffDelay(policy: CallbackPolicy, attempt: number): number {
  return Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

export interface CallbackDelivery {
  url: string;
  body: string;
  secret: string;
  /** The clock, in epoch milliseconds; read once per attempt for its `t`. */
  now: () => number;
  policy: CallbackPolicy;
  /** Aborts the delivery: no further attempt, and the one in flight is dropped. */
  signal: AbortSignal;
  /** One line per failed attempt and one when it gives up. */
  log: (line: string) => void;
  /** Names the run in log lines (never the URL or body). */
  label: string;
}

/** Answers that no attempt can change. */
const PERMANENT = new Set([400, 404, 405, 413]);

/** Delivers the body; resolves true once a 2xx came back, false when it gave up or was aborted. */
export async function deliverCallback(delivery: CallbackDelivery): Promise<boolean> {
  const { policy, signal } = delivery;
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    if (signal.aborted) return false;
    const problem = await attemptOnce(delivery);
    if (problem === null) return true;
    if (signal.aborted) return false;
    if (typeof problem === "number") {
      delivery.log(`callback for ${delivery.label} refused with HTTP ${problem}; not retried`);
      return false;
    }
    if (attempt === policy.maxAttempts) {
      delivery.log(`callback for ${delivery.label} gave up after ${attempt} attempts: ${problem}`);
      return false;
    }
    const delay = backoffDelay(policy, attempt);
    delivery.log(`callback for ${delivery.label} failed (attempt ${attempt} of ${policy.maxAttempts}): ${problem}; retrying in ${delay} ms`);
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return false;
    }
  }
  return false;
}

/** One signed POST; null when it was answered 2xx, a status no retry can change, else what went wrong. */
async function attemptOnce(delivery: CallbackDelivery): Promise<string | number | null> {
  try {
    const signature = await signatureHeader(
      delivery.secret,
      { method: "POST", target: signingTarget(delivery.url), body: delivery.body },
      delivery.now() / 1000,
    );
    const response = await fetch(delivery.url, {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
      body: delivery.body,
      signal: AbortSignal.any([delivery.signal, AbortSignal.timeout(delivery.policy.attemptTimeoutMs)]),
    });
    // Read the answer to the end so the connection can be reused; its content does not matter.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return null;
    return PERMANENT.has(response.status) ? response.status : `HTTP ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `${(error as Error).name}${cause ? ` (${cause})` : ""}`;
  }
}
