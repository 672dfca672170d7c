/**
 * Sending claimed prompts to the queue (DESIGN §5): chunks of at most 100 messages and 250 KB (UTF-8 bytes
 * of the stored message), in order; a chunk whose send fails leaves its runs to be sent again; the jittered
 * wait before the next try.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { chunkRuns, dispatchPrompts, MAX_BATCH_BYTES, MAX_BATCH_MESSAGES, retryDelay } from "../../src/chat/dispatch";
import type { RunRecord } from "../../src/jobs/model";
import { runRecord } from "./records";

const run = (i: number, message: string | null): RunRecord => runRecord({ runId: `k7m2q:${1_790_492_400_000 + i}`, dueAt: 1_790_492_400_000 + i, message });

/** Runs whose messages are JSON strings of exactly these UTF-8 byte sizes (at least 8). */
const sized = (...bytes: number[]): RunRecord[] => bytes.map((n, i) => run(i, JSON.stringify({ p: "x".repeat(n - 8) })));
/** The chunks as lists of the runs' positions in the input. */
const shape = (runs: RunRecord[]): number[][] => chunkRuns(runs).map((chunk) => chunk.map((r) => runs.indexOf(r)));
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describe("chunkRuns", () => {
  it("has the limits of DESIGN §5", () => {
    expect(MAX_BATCH_MESSAGES).toBe(100);
    expect(MAX_BATCH_BYTES).toBe(256_000);
  });

  it("sends nothing for no runs", () => {
    expect(chunkRuns([])).toStrictEqual([]);
  });

  it("puts 100 messages in one chunk and the 101st in the next, keeping the order", () => {
    const small = (n: number) => Array.from({ length: n }, (_, i) => run(i, '{"v":1}'));
    expect(shape(small(100))).toStrictEqual([range(0, 100)]);
    expect(shape(small(101))).toStrictEqual([range(0, 100), [100]]);
    expect(shape(small(250))).toStrictEqual([range(0, 100), range(100, 200), range(200, 250)]);
  });

  it("fills a chunk to exactly 250 KB, and starts a new one a byte past it", () => {
    expect(shape(sized(128_000, 128_000))).toStrictEqual([[0, 1]]);
    expect(shape(sized(128_000, 128_001))).toStrictEqual([[0], [1]]);
    // 100 messages of 2,560 bytes are both limits at once.
    expect(shape(sized(...Array<number>(100).fill(2_560), 8))).toStrictEqual([range(0, 100), [100]]);
    expect(shape(sized(...Array<number>(99).fill(2_560), 2_561))).toStrictEqual([range(0, 99), [99]]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    // 42,667 euro signs are 128,001 bytes: two such messages do not fit, though they are 85,334 characters.
    const euros = (n: number) => JSON.stringify("€".repeat(n));
    expect(shape([run(0, euros(42_667)), run(1, euros(42_667))])).toStrictEqual([[0], [1]]);
    // 127,998 + 2 quote bytes, and 127,998 + 2: exactly 256,000.
    expect(shape([run(0, euros(42_666)), run(1, JSON.stringify("x".repeat(127_998)))])).toStrictEqual([[0, 1]]);
  });

  it("counts bytes afresh in each chunk", () => {
    expect(shape(sized(200_000, 100_000, 156_000, 8))).toStrictEqual([[0], [1, 2], [3]]);
  });

  it("gives a message larger than the limit a chunk of its own, wherever it is", () => {
    expect(shape(sized(300_000, 10))).toStrictEqual([[0], [1]]);
    expect(shape(sized(10, 300_000, 10))).toStrictEqual([[0], [1], [2]]);
  });

  it("counts a run without a message as no bytes", () => {
    const empty = Array.from({ length: 101 }, (_, i) => run(i, null));
    expect(shape(empty)).toStrictEqual([range(0, 100), [100]]);
  });
});

describe("dispatchPrompts", () => {
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
  const runs = (n: number) => Array.from({ length: n }, (_, i) => run(i, JSON.stringify({ v: 1, key: `k7m2q:${i}` })));
  const ids = (rs: RunRecord[]) => rs.map((r) => r.runId);

  it("sends every chunk as JSON bodies and reports every run sent", async () => {
    const { q, batches } = queue([]);
    const rs = runs(150);
    expect(await dispatchPrompts(q, rs)).toStrictEqual({ sent: ids(rs), failed: [], error: null });
    expect(batches.map((b) => b.length)).toStrictEqual([100, 50]);
    expect(batches[1]![0]).toStrictEqual({ body: { v: 1, key: "k7m2q:100" }, contentType: "json" });
  });

  it("reports a failed chunk's runs and the error, and still sends the chunks after it", async () => {
    const { q, batches } = queue([2]);
    const rs = runs(250);
    expect(await dispatchPrompts(q, rs)).toStrictEqual({
      sent: [...ids(rs.slice(0, 100)), ...ids(rs.slice(200))],
      failed: ids(rs.slice(100, 200)),
      error: "Queue sendBatch failed: Too Many Requests",
    });
    expect(batches.length).toBe(3);
  });

  it("reports a thrown value that is not an Error as text", async () => {
    const { q } = queue([1], "queue unavailable");
    expect(await dispatchPrompts(q, runs(1))).toStrictEqual({ sent: [], failed: ["k7m2q:1790492400000"], error: "queue unavailable" });
  });
});

describe("retryDelay", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const at = (random: number, attempts: number, maxMs: number): number => {
    vi.spyOn(Math, "random").mockReturnValue(random);
    return retryDelay(attempts, maxMs);
  };

  it("doubles from 5 s, less up to half at random", () => {
    expect(at(0.999_999, 0, 300_000)).toBe(5_000);
    expect(at(0, 0, 300_000)).toBe(2_500);
    expect(at(0.5, 1, 300_000)).toBe(7_500);
    expect(at(0.999_999, 3, 300_000)).toBe(40_000);
  });

  it("never waits longer than its cap", () => {
    expect(at(0.999_999, 6, 300_000)).toBe(300_000);
    expect(at(0, 6, 300_000)).toBe(150_000);
    expect(at(0.5, 4, 60_000)).toBe(45_000);
    expect(at(0.999_999, 40, 60_000)).toBe(60_000);
  });
});
