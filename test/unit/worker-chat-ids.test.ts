/**
 * The worker files share one workerd, and so every chat's object (vitest.config.ts, `isolate: false`): each file
 * takes its chats from a counter of its own (`chatIds(start)` in test/worker/helpers.ts), and two files whose
 * counters meet would see each other's state (a frozen clock, an alarm already armed). This reads every worker
 * file's starts and fails when two files' ranges come within `SPAN` of each other.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../worker");
/** More chats than any worker file takes from one counter. */
const SPAN = 100;

/** Each `chatIds(<start>)` of each worker test file. */
function starts(): { file: string; start: number }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .flatMap((file) =>
      [...readFileSync(path.join(dir, file), "utf8").matchAll(/\bchatIds\(\s*([\d_]+)\s*\)/g)].map((m) => ({ file, start: Number(m[1]!.replaceAll("_", "")) })),
    );
}

/** Pairs of counters in different files that come within SPAN of each other. */
function clashes(all: { file: string; start: number }[]): string[] {
  const sorted = [...all].sort((a, b) => a.start - b.start);
  const out: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    if (a.file !== b.file && b.start - a.start < SPAN) out.push(`${a.file} (from ${a.start}) and ${b.file} (from ${b.start})`);
  }
  return out;
}

describe("the worker files' chat ids", () => {
  it("are ranges of their own", () => {
    const all = starts();
    expect(all.length).toBeGreaterThan(30);
    expect(clashes(all)).toEqual([]);
  });

  it("name two files whose counters meet", () => {
    expect(
      clashes([
        { file: "a.test.ts", start: 5_530_000 },
        { file: "b.test.ts", start: 5_530_050 },
        { file: "b.test.ts", start: 5_600_000 },
      ]),
    ).toEqual(["a.test.ts (from 5530000) and b.test.ts (from 5530050)"]);
  });
});
