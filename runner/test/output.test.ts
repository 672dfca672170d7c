/**
 * Scripts that print far more than is kept: the head, the marker and the tail kept exactly, and the
 * runner's memory flat while the output streams through. In a file of its own so that no other test shares
 * this process's memory while it is sampled.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { runRequest, startRunner, type TestRunner } from "./harness.ts";

let t: TestRunner;
beforeEach(async () => {
  t = await startRunner();
  // Warm up (the first fetch and spawn load code), so that the baseline is the runner at rest.
  await t.send("POST", "/runs?wait=1", runRequest({ command: "head -c 1048576 /dev/zero" }));
});
afterEach(async () => {
  await t.stop();
});

/** Runs `command` as a dry run, sampling this process's RSS; the outcome and the peak growth in bytes. */
async function sampled(command: string): Promise<{ body: any; growth: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const { body } = await t.send("POST", "/runs?wait=1", runRequest({ command, timeoutSeconds: 60 }));
    peak = Math.max(peak, process.memoryUsage().rss);
    return { body, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

const MiB = 1024 * 1024;

it("keeps the first 48 KiB and the last 16 KiB of 50 MB of output, with a marker line between", async () => {
  const { body, growth } = await sampled("head -c 52428800 /dev/zero | tr '\\0' a");
  expect(body).toMatchObject({ status: "output", exitCode: 0, truncated: { stdout: true, stderr: false } });
  const marker = "\n[... 52363264 bytes omitted ...]\n";
  expect(body.stdout.length).toBe(48 * 1024 + marker.length + 16 * 1024);
  expect(body.stdout).toBe("a".repeat(48 * 1024) + marker + "a".repeat(16 * 1024));
  expect(growth).toBeLessThan(64 * MiB);
});

it("stays within bounded memory while 256 MiB stream through each of stdout and stderr", async () => {
  // Far more than the bound: a runner that kept whole streams would grow by 512 MiB here.
  const command = "(head -c 268435456 /dev/zero | tr '\\0' e >&2) & head -c 268435456 /dev/zero | tr '\\0' o; wait";
  const { body, growth } = await sampled(command);
  const marker = "\n[... 268369920 bytes omitted ...]\n";
  expect(body).toMatchObject({ status: "output", exitCode: 0, truncated: { stdout: true, stderr: true } });
  expect(body.stdout).toBe("o".repeat(48 * 1024) + marker + "o".repeat(16 * 1024));
  // No newline in the kept stderr but the marker's, so its last 20 lines are all of it.
  expect(body.stderrTail).toBe("e".repeat(48 * 1024) + marker + "e".repeat(16 * 1024));
  expect(growth).toBeLessThan(64 * MiB);
});
