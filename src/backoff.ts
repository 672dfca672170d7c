/**
 * @module The one retry delay of the Worker (a failed queue send, a watcher's start, a Telegram send, a prompt
 * the agent failed on): exponential, capped, and jittered so that chats that failed together do not retry
 * together. Pure; `random` is an argument for tests.
 */

type Backoff = { baseMs: number; maxMs: number };

/** `baseMs × 2^attempts`, at most `maxMs`, less up to half of it at random. */
export function backoffMs(attempts: number, { baseMs, maxMs }: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts));
  return Math.round(ceiling * (0.5 + random() / 2));
}
