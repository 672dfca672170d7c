/**
 * Watchers that cost less (docs/api.md#how-a-job-fires; issue 16), against the fake runner: `onlyOnChange` (a match equal to
 * the last delivered one is silent, unchanged, and wakes no one), exit 75 (transient: no alert, the failure
 * streak unchanged, a one-off's exit 75 a failure), and the chat's daily wake-up budget (MAX_WAKEUPS_PER_DAY,
 * the chat's local day, run now included: past it `over budget`, one notice a day). Time moves through the
 * object's clock. Chat ids 9620000 up.
 */
import { describe, expect, it } from "vitest";
import type { Job } from "../../src/schemas/jobs";
import { feed } from "./agent-helpers";
import { advanceTo, brief, chatIds, clockOf, jobOf, must, queued, type Stub, setInstanceVars, transcript } from "./helpers";
import { createWatcher, fireWatcher, promptOf, runOf, runsOldestFirst, settleWith, withRunner } from "./watcher-helpers";

const newChat = chatIds(9_620_000);
const alerts = async (stub: Stub, chatId: string) => (await transcript(stub, chatId)).filter((e) => e.source === "alert").map((e) => e.text.split("\n")[0]);

/** A run's history entry: status and detail. */
async function ended(stub: Stub, chatId: string, runId: string) {
  const run = await runOf(chatId, stub, runId);
  return run && { state: run.state, status: run.status, detail: run.detail };
}

/** The watcher's next occurrence fired and answered with `stdout`; a match is handed to the echo agent. */
async function tick(stub: Stub, chatId: string, job: Job, stdout: string): Promise<string> {
  const runId = await fireWatcher(chatId, stub, job);
  await settleWith(chatId, runId, { status: "output", stdout });
  if ((await runOf(chatId, stub, runId))?.state !== "settled") await feed([await promptOf(stub, runId)]);
  return runId;
}

describe("onlyOnChange", () => {
  it("keeps silent (unchanged) while the output equals the last delivered match's, and wakes the agent when it changes", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await must(stub.createJob(chatId, { name: "Price", kind: "watcher", cron: "*/10 * * * *", command: "price", onlyOnChange: true }, "admin"));
    expect(await jobOf(stub, chatId, job.id)).toMatchObject({ onlyOnChange: true });

    const first = await tick(stub, chatId, job, "price 42\n");
    const same = await tick(stub, chatId, job, "  price 42 \n\n");
    const changed = await tick(stub, chatId, job, "price 41\n");
    const back = await tick(stub, chatId, job, "price 42\n");
    expect(await ended(stub, chatId, first)).toEqual({ state: "settled", status: "matched", detail: null });
    expect(await ended(stub, chatId, same)).toEqual({ state: "settled", status: "silent", detail: "unchanged" });
    expect(await ended(stub, chatId, changed)).toMatchObject({ status: "matched" });
    // Compared with the last delivered match (41), not the one before it.
    expect(await ended(stub, chatId, back)).toMatchObject({ status: "matched" });
    expect(sent.map((s) => (s.body as { body: string }).body)).toEqual(["price 42\n", "price 41\n", "price 42\n"]);
    expect((await transcript(stub, chatId)).filter((e) => e.role === "bot").map((e) => e.text)).toEqual(["price 42\n", "price 41\n", "price 42\n"]);
  });

  it("compares with the last match the agent delivered: one the agent failed on wakes it again", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await must(stub.createJob(chatId, { name: "Price", kind: "watcher", cron: "*/10 * * * *", command: "price", onlyOnChange: true }, "admin"));
    const first = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, first, { status: "output", stdout: "price 42\n" });
    await feed([await promptOf(stub, first)], "prompts-dlq");
    const again = await tick(stub, chatId, job, "price 42\n");
    expect(await ended(stub, chatId, again)).toMatchObject({ status: "matched" });
  });

  it("is off by default: the same output wakes the agent each time; an edit turns it on", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { cron: "*/10 * * * *" });
    expect(await jobOf(stub, chatId, job.id)).not.toHaveProperty("onlyOnChange");
    await tick(stub, chatId, job, "up\n");
    const second = await tick(stub, chatId, job, "up\n");
    expect(await ended(stub, chatId, second)).toMatchObject({ status: "matched" });
    await must(stub.editJob(chatId, job.id, { onlyOnChange: true }));
    const third = await tick(stub, chatId, job, "up\n");
    expect(await ended(stub, chatId, third)).toEqual({ state: "settled", status: "silent", detail: "unchanged" });
    expect((await jobOf(stub, chatId, job.id)).lastResult).toMatchObject({ status: "silent" });
  });
});

describe("exit 75", () => {
  it("is transient: no alert, lastResult transient, and the failure streak goes on as if it had not happened", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Feed", cron: "*/10 * * * *" });
    const steps = [
      { status: "failed" as const, exitCode: 3, stderrTail: "down" },
      { status: "failed" as const, exitCode: 75, stderrTail: "busy, try later" },
      { status: "failed" as const, exitCode: 3, stderrTail: "down" },
      { status: "failed" as const, exitCode: 75, stderrTail: "" },
      { status: "silent" as const },
      { status: "failed" as const, exitCode: 75, stderrTail: "" },
      { status: "failed" as const, exitCode: 3, stderrTail: "down" },
    ];
    const runIds: string[] = [];
    for (const fields of steps) {
      const runId = await fireWatcher(chatId, stub, job);
      await settleWith(chatId, runId, fields);
      runIds.push(runId);
      if (fields.exitCode === 75) expect((await jobOf(stub, chatId, job.id)).lastResult).toMatchObject({ status: "transient", exitCode: 75, timedOut: false });
    }
    // Exit 3 alerts once; the 75 in between does not end its streak; a success does, so the last 3 alerts again.
    expect(await alerts(stub, chatId)).toEqual([`⚠️ Job "Feed" (${job.id}) failed (exit 3):`, `⚠️ Job "Feed" (${job.id}) failed (exit 3):`]);
    expect((await runsOldestFirst(chatId, stub, job.id)).map((r) => [r.status, r.detail])).toEqual([
      ["failed", "exit 3"],
      ["transient", "exit 75: tried again next time"],
      ["failed", "exit 3"],
      ["transient", "exit 75: tried again next time"],
      ["silent", null],
      ["transient", "exit 75: tried again next time"],
      ["failed", "exit 3"],
    ]);
    expect((await jobOf(stub, chatId, job.id)).enabled).toBe(true);
  });

  it("fails a one-off watcher, which has no next time: the alert, and the job kept paused", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Once", delay: "PT5M" });
    const runId = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, runId, { status: "failed", exitCode: 75, stderrTail: "try later" });
    expect(await alerts(stub, chatId)).toEqual([`⚠️ Job "Once" (${job.id}) failed (exit 75):`]);
    expect(await jobOf(stub, chatId, job.id)).toMatchObject({ enabled: false, nextRunAt: null, lastResult: { status: "failed", exitCode: 75 } });
  });
});

/** Run now of a watcher, its outcome `stdout`, a match handed to the echo agent; one second later each time. */
async function runNow(stub: Stub, chatId: string, job: Job, stdout: string): Promise<string> {
  await stub.testAdvanceClock(1_000);
  await must(stub.runJobNow(chatId, job.id));
  const [latest] = await must(stub.jobRuns(chatId, job.id));
  await settleWith(chatId, latest!.runId, { status: "output", stdout });
  if ((await runOf(chatId, stub, latest!.runId))?.state !== "settled") await feed([await promptOf(stub, latest!.runId)]);
  return latest!.runId;
}

describe("the daily wake-up budget", () => {
  const NOTICE = (name: string, id: string, max: number) =>
    `⚠️ Job "${name}" (${id}) matched, but this chat's watchers have already woken the agent ${max} times today, the daily limit: matches are recorded "over budget" and wake no one until tomorrow. The bot's owner can raise MAX_WAKEUPS_PER_DAY.`;

  it("counts every match of the chat's watchers, run now included; past it: over budget, one notice a day", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub, { MAX_WAKEUPS_PER_DAY: "2" });
    // Keep the test's few minutes inside one local day: start just after a midnight in the chat's zone (UTC).
    const now = await clockOf(stub);
    await advanceTo(stub, Math.ceil(now / 86_400_000) * 86_400_000 + 60_000);
    const a = await createWatcher(chatId, stub, { name: "A", cron: "0 0 1 1 *" });
    const b = await createWatcher(chatId, stub, { name: "B", cron: "0 0 1 1 *" });
    const first = await runNow(stub, chatId, a, "a1\n");
    const second = await runNow(stub, chatId, b, "b1\n");
    const third = await runNow(stub, chatId, a, "a2\n");
    const fourth = await runNow(stub, chatId, b, "b2\n");
    expect((await queued(stub)).map((s) => (s.body as { key: string }).key)).toEqual([first, second]);
    expect(await ended(stub, chatId, third)).toEqual({ state: "settled", status: "over_budget", detail: "over the day's 2 wake-ups" });
    expect(await ended(stub, chatId, fourth)).toEqual({ state: "settled", status: "over_budget", detail: "over the day's 2 wake-ups" });
    expect(await jobOf(stub, chatId, b.id)).toMatchObject({ running: false, lastResult: { status: "over_budget", exitCode: 0 } });
    // One notice for the day, naming the job whose match went over first.
    expect(brief((await transcript(stub, chatId)).filter((e) => e.source === "alert"))).toEqual([
      { role: "bot", source: "alert", text: NOTICE("A", a.id, 2), jobId: a.id, runId: third },
    ]);

    // The next day the budget is whole again.
    await stub.testAdvanceClock(86_400_000);
    const nextDay = await runNow(stub, chatId, a, "a3\n");
    expect(await ended(stub, chatId, nextDay)).toMatchObject({ status: "matched" });
  });

  it("follows the chat's local day, not UTC's", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub, { MAX_WAKEUPS_PER_DAY: "1" });
    await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    const job = await createWatcher(chatId, stub, { name: "Tokyo", cron: "0 0 1 1 *" });
    // Ten minutes before midnight in Tokyo (15:00 UTC), in the middle of UTC's day.
    const now = await clockOf(stub);
    const midnight = Math.ceil((now - 15 * 3_600_000) / 86_400_000) * 86_400_000 + 15 * 3_600_000;
    await advanceTo(stub, midnight - 10 * 60_000);
    await runNow(stub, chatId, job, "1\n");
    expect(await ended(stub, chatId, await runNow(stub, chatId, job, "2\n"))).toMatchObject({ status: "over_budget" });
    await advanceTo(stub, midnight + 60_000);
    expect(await ended(stub, chatId, await runNow(stub, chatId, job, "3\n"))).toMatchObject({ status: "matched" });
  });

  it("leaves an unchanged match out of the count, and a failure or silence costs nothing", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await setInstanceVars(stub, { MAX_WAKEUPS_PER_DAY: "1" });
    const now = await clockOf(stub);
    await advanceTo(stub, Math.ceil(now / 86_400_000) * 86_400_000 + 60_000);
    const job = await must(stub.createJob(chatId, { name: "Same", kind: "watcher", cron: "0 0 1 1 *", command: "x", onlyOnChange: true }, "admin"));
    await runNow(stub, chatId, job, "same\n");
    expect(await ended(stub, chatId, await runNow(stub, chatId, job, "same\n"))).toMatchObject({ status: "silent", detail: "unchanged" });
    expect(await ended(stub, chatId, await runNow(stub, chatId, job, "new\n"))).toMatchObject({ status: "over_budget" });
  });

  it("keeps a one-off watcher whose match is over budget, paused, so that it can be resumed", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub, { MAX_WAKEUPS_PER_DAY: "0" });
    const job = await createWatcher(chatId, stub, { name: "Once", delay: "PT5M" });
    const runId = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, runId, { status: "output", stdout: "hit\n" });
    expect(await ended(stub, chatId, runId)).toMatchObject({ status: "over_budget", detail: "over the day's 0 wake-ups" });
    expect(await jobOf(stub, chatId, job.id)).toMatchObject({ enabled: false, nextRunAt: null, lastResult: { status: "over_budget" } });
    expect(await queued(stub)).toEqual([]);
  });
});
