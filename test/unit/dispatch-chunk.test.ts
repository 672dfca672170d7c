/**
 * Sending claimed prompts to the queue (docs/api.md#how-a-job-fires): chunks of at most 100 messages and 256 KB (UTF-8 bytes of
 * each message's JSON plus the queue's 100 bytes of metadata per message), in order; a chunk whose send fails
 * leaves its runs to be sent again. And the one jittered backoff every retry of the Worker uses.
 */
import { describe, expect, it } from "vitest";
import { backoffMs } from "../../src/backoff";
import { chunkPrompts, MAX_BATCH_BYTES, MAX_BATCH_MESSAGES, MESSAGE_OVERHEAD_BYTES, type Outgoing, sendPrompts } from "../../src/chat/dispatch";
import type { PromptMessage } from "../../src/contracts/prompt-message";

/** A prompt whose queue message serializes to exactly `bytes` bytes of JSON (at least 10). */
function sizedPrompt(i: number, bytes: number, char = "x"): Outgoing {
  const message = { p: char.repeat(bytes - 8) } as unknown as PromptMessage; // {"p":"…"} is 8 bytes around the text
  return { runId: `k7m2q:${1_790_492_400_000 + i}`, message };
}
const sized = (...bytes: number[]): Outgoing[] => bytes.map((n, i) => sizedPrompt(i, n));
/** The chunks as lists of the prompts' positions in the input. */
const shape = (prompts: Outgoing[]): number[][] => chunkPrompts(prompts).map((chunk) => chunk.map((p) => prompts.indexOf(p)));
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);
/** The body size that, with the metadata, is `total` bytes. */
const body = (total: number) => total - MESSAGE_OVERHEAD_BYTES;

describe("chunkPrompts", () => {
  it("has the limits of docs/api.md#how-a-job-fires and Cloudflare's sendBatch", () => {
    expect(MAX_BATCH_MESSAGES).toBe(100);
    expect(MAX_BATCH_BYTES).toBe(256_000);
    expect(MESSAGE_OVERHEAD_BYTES).toBe(100);
  });

  it("sends nothing for no prompts", () => {
    expect(chunkPrompts([])).toStrictEqual([]);
  });

  it("puts 100 messages in one chunk and the 101st in the next, keeping the order", () => {
    expect(shape(sized(...Array<number>(100).fill(20)))).toStrictEqual([range(0, 100)]);
    expect(shape(sized(...Array<number>(101).fill(20)))).toStrictEqual([range(0, 100), [100]]);
    expect(shape(sized(...Array<number>(250).fill(20)))).toStrictEqual([range(0, 100), range(100, 200), range(200, 250)]);
  });

  it("fills a chunk to exactly 256,000 bytes with the metadata, and starts a new one a byte past it", () => {
    expect(shape(sized(body(128_000), body(128_000)))).toStrictEqual([[0, 1]]);
    expect(shape(sized(body(128_000), body(128_001)))).toStrictEqual([[0], [1]]);
    // 100 messages of 2,560 bytes with their metadata are both limits at once.
    expect(shape(sized(...Array<number>(100).fill(body(2_560)), 20))).toStrictEqual([range(0, 100), [100]]);
    expect(shape(sized(...Array<number>(99).fill(body(2_560)), body(2_561)))).toStrictEqual([range(0, 99), [99]]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    // A euro sign is 3 bytes: 42,631 of them and the 8 bytes around make 127,901 bytes, 128,001 with metadata.
    const euros = (i: number, n: number): Outgoing => ({ ...sizedPrompt(i, 10), message: { p: "€".repeat(n) } as unknown as PromptMessage });
    expect(shape([euros(0, 42_631), euros(1, 42_631)])).toStrictEqual([[0], [1]]);
    expect(shape([euros(0, 42_630), sizedPrompt(1, body(128_002))])).toStrictEqual([[0, 1]]);
  });

  it("counts bytes afresh in each chunk", () => {
    expect(shape(sized(body(200_000), body(100_000), body(156_000), 20))).toStrictEqual([[0], [1, 2], [3]]);
  });

  it("gives a message larger than the limit a chunk of its own, wherever it is", () => {
    expect(shape(sized(300_000, 20))).toStrictEqual([[0], [1]]);
    expect(shape(sized(20, 300_000, 20))).toStrictEqual([[0], [1], [2]]);
  });
});

describe("sendPrompts", () => {
  /** A queue that records each batch and fails the calls numbered in `failing` (1-based). */
  function queue(failing: number[], error: unknown = new Error("Queue sendBatch failed: Too Many Requests")) {
    const batches: { body: unknown; contentType?: string }[][] = [];
    const q = {
      sendBatch: async (messages: Iterable<{ body: unknown; contentType?: string }>) => {
        batches.push([...messages]);
        if (failing.includes(batches.length)) throw error;
      },
    };
    return { q: q as unknown as Queue, batches };
  }
  const prompts = (n: number): Outgoing[] =>
    Array.from({ length: n }, (_, i) => ({ runId: `k7m2q:${1_790_492_400_000 + i}`, message: { v: 1, key: `k7m2q:${i}` } as unknown as PromptMessage }));
  const ids = (ps: Outgoing[]) => ps.map((p) => p.runId);

  it("sends every chunk as JSON bodies and reports every run sent", async () => {
    const { q, batches } = queue([]);
    const ps = prompts(150);
    expect(await sendPrompts(q, ps)).toStrictEqual({ sent: ids(ps), failed: [], error: null });
    expect(batches.map((b) => b.length)).toStrictEqual([100, 50]);
    expect(batches[1]![0]).toStrictEqual({ body: { v: 1, key: "k7m2q:100" }, contentType: "json" });
  });

  it("reports a failed chunk's runs and the error, and still sends the chunks after it", async () => {
    const { q, batches } = queue([2]);
    const ps = prompts(250);
    expect(await sendPrompts(q, ps)).toStrictEqual({
      sent: [...ids(ps.slice(0, 100)), ...ids(ps.slice(200))],
      failed: ids(ps.slice(100, 200)),
      error: "Queue sendBatch failed: Too Many Requests",
    });
    expect(batches.length).toBe(3);
  });

  it("reports a thrown value that is not an Error as text", async () => {
    const { q } = queue([1], "queue unavailable");
    expect(await sendPrompts(q, prompts(1))).toStrictEqual({ sent: [], failed: ["k7m2q:1790492400000"], error: "queue unavailable" });
  });
});

describe("backoffMs", () => {
  const send = { baseMs: 5_000, maxMs: 300_000 };

  it("doubles from its base, less up to half at random", () => {
    expect(backoffMs(0, send, () => 0.999_999)).toBe(5_000);
    expect(backoffMs(0, send, () => 0)).toBe(2_500);
    expect(backoffMs(1, send, () => 0.5)).toBe(7_500);
    expect(backoffMs(3, send, () => 0.999_999)).toBe(40_000);
  });

  it("never waits longer than its cap", () => {
    expect(backoffMs(6, send, () => 0.999_999)).toBe(300_000);
    expect(backoffMs(6, send, () => 0)).toBe(150_000);
    expect(backoffMs(4, { baseMs: 5_000, maxMs: 60_000 }, () => 0.5)).toBe(45_000);
    expect(backoffMs(40, { baseMs: 5_000, maxMs: 60_000 }, () => 0.999_999)).toBe(60_000);
  });
});
