/**
 * The ChatScheduler's firing rules (docs/api.md#how-a-job-fires, issue 3) in workerd: claims, dispatch, the late note, cron
 * without catch-up, crash recovery, a failed send, quarantine, overlap, settling and leases. Time moves through
 * the object's own clock (`advanceTo`, `toAlarm`), then `runDurableObjectAlarm`; every instant is compared
 * with that clock. Each test has its own chat (ids 2000000 up).
 *
 * What the chat did is read as a client or the agent sees it: `jobRuns`, `getJob`, `messages`, the run gate,
 * the alarm it armed, and the queue spy of helpers.ts on the instance's `env.PROMPTS`, which records
 * every message and forwards none, so runs stay in flight until a test settles them through the run gate.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import productSource from "../../src/chat/ChatScheduler.ts?raw";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import * as Worker from "../../src/index";
import { PROMPT_LEASE_MS } from "../../src/jobs/fire";
import { nextOccurrence, parseCron } from "../../src/time";
import { dayMonthTime, settleSent } from "./agent-helpers";
import { TestChatScheduler } from "./chat-scheduler";
import * as TestEntry from "./entry";
import {
  advanceTo,
  alarmOf,
  chatIds,
  claimOnly,
  clockOf,
  createPrompt,
  fireJob,
  HOUR,
  historyOf,
  inObject,
  lines,
  MINUTE,
  must,
  queued,
  quietConsole,
  refuseSends,
  sentFor,
  spyQueue,
  sql,
  toAlarm,
} from "./helpers";

const newChat = chatIds(2_000_000);

afterEach(() => {
  vi.restoreAllMocks();
});

const jobIdsSent = async (stub: Parameters<typeof queued>[0]) => (await queued(stub)).map((m) => (m.body as PromptMessage).jobId);

// ── Claims and dispatch ─────────────────────────────────────────────────────────────────────────────────

describe("a due one-off prompt", () => {
  it("is claimed as one run <jobId>:<at ms>, dispatched with the v1 message, and kept until settled", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = Date.parse(job.nextRunAt!);
    await advanceTo(stub, due);

    const t0 = await clockOf(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const t1 = await clockOf(stub);

    const runId = `${job.id}:${due}`;
    const runs = await historyOf(stub, chatId, job.id);
    expect(runs.map((r) => [r.runId, r.state, r.manual, r.late, r.status])).toEqual([[runId, "dispatched", false, false, null]]);
    const sent = await queued(stub);
    expect(sent).toHaveLength(1);
    const message = sent[0]!.body as PromptMessage;
    const firedAt = Date.parse(message.firedAt);
    expect(firedAt).toBeGreaterThanOrEqual(t0);
    expect(firedAt).toBeLessThanOrEqual(t1);
    expect(message).toStrictEqual({
      v: 1,
      key: runId,
      chatId,
      timeZone: "UTC",
      source: "job",
      jobId: job.id,
      jobName: "Call the dentist",
      runId,
      text: `[Scheduled job "Call the dentist" (${job.id})]\nRemind me to call the dentist.`,
      body: "Remind me to call the dentist.",
      firedAt: new Date(firedAt).toISOString(),
      dueAt: new Date(due).toISOString(),
    });
    expect(sent).toEqual([{ body: message, contentType: "json" }]);

    const kept = await must(stub.getJob(chatId, job.id));
    expect(kept).toMatchObject({ id: job.id, nextRunAt: null, running: true, lastRunAt: new Date(firedAt).toISOString(), lastResult: null });
    // From the moment the send resolved, the run gate must see it within 2 minutes (docs/agent.md#the-lease): the
    // alarm waits for exactly that.
    const startedAt = Date.parse(runs[0]!.startedAt!);
    expect(startedAt).toBeGreaterThanOrEqual(firedAt);
    expect(startedAt).toBeLessThanOrEqual(t1);
    expect(await alarmOf(stub)).toBe(startedAt + 2 * MINUTE);
  });

  it("is sent once when the alarm runs twice (the claim is idempotent)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub);

    // Re-armed at the lease; running it early must neither claim nor send again.
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state])).toEqual([[runId, "dispatched"]]);
    expect(await queued(stub)).toHaveLength(1);
  });

  it("fired 2 hours late carries the late note in the chat's zone, late: true", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "America/New_York"));
    const { job, runId, dueAt, message } = await fireJob(chatId, stub, {
      lateMs: 2 * HOUR,
      name: "Water the plants",
      text: "Water the plants on the balcony.",
    });

    const firedAt = Date.parse(message.firedAt);
    expect(firedAt).toBeGreaterThanOrEqual(dueAt + 2 * HOUR);
    expect(firedAt).toBeLessThanOrEqual(await clockOf(stub));
    expect(message).toStrictEqual({
      v: 1,
      key: runId,
      chatId,
      timeZone: "America/New_York",
      source: "job",
      jobId: job.id,
      jobName: "Water the plants",
      runId,
      text: `[Scheduled job "Water the plants" (${job.id})]\nThis was due at ${dayMonthTime(dueAt, "America/New_York")}; the bot was offline.\nWater the plants on the balcony.`,
      body: "Water the plants on the balcony.",
      late: true,
      firedAt: message.firedAt,
      dueAt: new Date(dueAt).toISOString(),
    });
    expect((await queued(stub)).map((m) => m.body)).toEqual([message]);
    const [history] = await historyOf(stub, chatId, job.id);
    expect(history).toMatchObject({ runId, late: true, manual: false, state: "dispatched" });
  });
});

describe("a due cron prompt", () => {
  it("claims one run and advances to the next occurrence strictly after now", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const job = await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");
    const due = Date.parse(job.nextRunAt!);
    // Half a minute after its time: due and not late; the run id is the due instant.
    await advanceTo(stub, due + 30_000);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const runs = await historyOf(stub, chatId, job.id);
    expect(runs.map((r) => [r.runId, r.state, r.late])).toEqual([[`${job.id}:${due}`, "dispatched", false]]);
    const sent = await queued(stub);
    expect(sent).toHaveLength(1);
    const firedAt = Date.parse((sent[0]!.body as PromptMessage).firedAt);
    expect(firedAt).toBeGreaterThanOrEqual(due + 30_000);
    const cron = parseCron("0 9 * * *");
    if (!cron.ok) throw new Error(cron.error);
    const expected = nextOccurrence(cron.value, "Europe/Berlin", firedAt)!.at;
    const after = await must(stub.getJob(chatId, job.id));
    expect(after.nextRunAt).toBe(new Date(expected).toISOString());
    expect(Date.parse(after.nextRunAt!)).toBeGreaterThan(firedAt);
    expect(after).toMatchObject({ running: true, lastRunAt: new Date(firedAt).toISOString() });
    // The alarm waits for the sooner of the run's 2 minutes and the next occurrence.
    expect(await alarmOf(stub)).toBe(Math.min(expected, Date.parse(runs[0]!.startedAt!) + 2 * MINUTE));
  });

  it("does not catch up after 2 hours of downtime: `*/10 * * * *` fires once, not 13 times", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const logs = quietConsole("log");
    const job = await createPrompt(chatId, stub, { cron: "*/10 * * * *" }, "Price check", "Check the price.");
    const due = Date.parse(job.nextRunAt!);
    await advanceTo(stub, due + 2 * HOUR);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    // The mark due at the alarm's now runs as usual (missed: once); the 12 before it were missed.
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.late])).toEqual([[`${job.id}:${due + 2 * HOUR}`, false]]);
    const after = await must(stub.getJob(chatId, job.id));
    // The next 10-minute mark strictly after the alarm's now.
    expect(after.nextRunAt).toBe(new Date(due + 130 * MINUTE).toISOString());
    expect(await queued(stub)).toHaveLength(1);
    expect(lines(logs)).toEqual([`job ${job.id}: missed runs (once): 12 missed, passed over for the one due now`]);

    // Another alarm right away finds nothing due.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await queued(stub)).toHaveLength(1);
    expect(await historyOf(stub, chatId, job.id)).toHaveLength(1);
  });
});

// ── Crash recovery and a failed send ────────────────────────────────────────────────────────────────────

describe("a run claimed but never dispatched (a crash between claim and send)", () => {
  it("is dispatched exactly once by the next alarm, and not again by the one after", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = Date.parse(job.nextRunAt!);
    const runId = `${job.id}:${due}`;
    await advanceTo(stub, due);
    await claimOnly(stub);
    // The alarm set at creation is still armed (a crashed alarm is retried by the runtime).
    expect(await alarmOf(stub)).toBe(due);
    expect(await queued(stub)).toEqual([]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state])).toEqual([[runId, "claimed"]]);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state])).toEqual([[runId, "dispatched"]]);
    expect((await queued(stub)).map((m) => (m.body as PromptMessage).key)).toEqual([runId]);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await queued(stub)).toHaveLength(1);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state])).toEqual([[runId, "dispatched"]]);
  });

  it("is dispatched after an RPC re-arms a lost alarm (self-healing entry)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = Date.parse(job.nextRunAt!);
    await advanceTo(stub, due);
    const claimedAt = await claimOnly(stub);
    await runInDurableObject(stub, (_instance, state) => state.storage.deleteAlarm());
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    await must(stub.listJobs(chatId, {}));
    // Armed at the claimed run's lease.
    expect(await alarmOf(stub)).toBe(claimedAt + PROMPT_LEASE_MS);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await queued(stub)).map((m) => (m.body as PromptMessage).key)).toEqual([`${job.id}:${due}`]);
  });
});

describe("a failed sendBatch", () => {
  it("leaves the run claimed and re-arms with a backoff that grows with each attempt; the queue then takes it once", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const errors = quietConsole("error");
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = Date.parse(job.nextRunAt!);
    const runId = `${job.id}:${due}`;
    await refuseSends(stub, "Queue is unavailable");
    await advanceTo(stub, due);

    const t0 = await clockOf(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const t1 = await clockOf(stub);

    expect(await queued(stub)).toEqual([]);
    // backoff(0) = 5 s × (0.5 … 1), from the alarm's now; the alarm is armed at that retry.
    const retry1 = (await alarmOf(stub))!;
    expect(retry1).toBeGreaterThanOrEqual(t0 + 2_500);
    expect(retry1).toBeLessThanOrEqual(t1 + 5_000);
    expect(await historyOf(stub, chatId, job.id)).toMatchObject([{ runId, state: "claimed", startedAt: null }]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: true, nextRunAt: null });
    expect(lines(errors)).toEqual(["sendBatch failed for 1 run(s): Queue is unavailable"]);

    // Not before its retry time: a dispatch in between (here another job's run now) leaves it for later.
    await refuseSends(stub, null);
    const other = await createPrompt(chatId, stub, { delay: "PT5M" }, "Other", "Other.");
    await must(stub.runJobNow(chatId, other.id));
    expect(await jobIdsSent(stub)).toEqual([other.id]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => r.state)).toEqual(["claimed"]);

    // Its retry time comes and the queue refuses again: the attempt was counted, so the wait doubles,
    // backoff(1) = 10 s × (0.5 … 1).
    await refuseSends(stub, "Queue is unavailable");
    await advanceTo(stub, retry1);
    const t2 = await clockOf(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const t3 = await clockOf(stub);
    const retry2 = (await alarmOf(stub))!;
    expect(retry2).toBeGreaterThanOrEqual(t2 + 5_000);
    expect(retry2).toBeLessThanOrEqual(t3 + 10_000);
    expect(await jobIdsSent(stub)).toEqual([other.id]);

    // The queue takes it at the next retry: sent once, the message of its claim, dispatched.
    await refuseSends(stub, null);
    await advanceTo(stub, retry2);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state])).toEqual([[runId, "dispatched"]]);
    expect(await jobIdsSent(stub)).toEqual([other.id, job.id]);
    const [message] = await sentFor(stub, runId);
    expect(message).toMatchObject({
      key: runId,
      text: `[Scheduled job "Call the dentist" (${job.id})]\nRemind me to call the dentist.`,
      dueAt: new Date(due).toISOString(),
    });
    expect(Date.parse(message!.firedAt)).toBeGreaterThanOrEqual(t0);
    expect(Date.parse(message!.firedAt)).toBeLessThanOrEqual(t1);
    expect(lines(errors)).toEqual(["sendBatch failed for 1 run(s): Queue is unavailable", "sendBatch failed for 1 run(s): Queue is unavailable"]);
  });
});

// ── Rows that fail to parse ─────────────────────────────────────────────────────────────────────────────

describe("a job row that fails to parse", () => {
  it("quarantines that job (lastResult failed, no next run) while the other due job still fires", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const errors = quietConsole("error");
    const bad = await createPrompt(chatId, stub, { delay: "PT5M" }, "Broken", "This row will not parse.");
    const good = await createPrompt(chatId, stub, { delay: "PT6M" }, "Healthy", "This one fires.");
    // A damaged row is the point here, and no client can write one: the one raw write of this file.
    await sql(stub, "UPDATE jobs SET last_result = '{bad' WHERE id = ?", bad.id);
    const goodDue = Date.parse(good.nextRunAt!);
    await advanceTo(stub, goodDue);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect((await historyOf(stub, chatId, good.id)).map((r) => [r.runId, r.state])).toEqual([[`${good.id}:${goodDue}`, "dispatched"]]);
    const sent = await queued(stub);
    expect(sent.map((m) => (m.body as PromptMessage).jobId)).toEqual([good.id]);
    const firedAt = (sent[0]!.body as PromptMessage).firedAt;

    expect(await historyOf(stub, chatId, bad.id)).toEqual([]);
    const quarantined = await must(stub.getJob(chatId, bad.id));
    expect(quarantined).toMatchObject({ nextRunAt: null, running: false, lastResult: { status: "failed", at: firedAt } });
    expect(lines(errors)).toEqual([`job ${bad.id} quarantined: row: last_result is not a valid result`]);

    // It stays out of later alarms.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await historyOf(stub, chatId, bad.id)).toEqual([]);
    expect(await queued(stub)).toHaveLength(1);
  });
});

describe("several due jobs in one alarm", () => {
  it("claims them in one write; when that write fails, each is claimed on its own and only the one that cannot be written is left", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const errors = quietConsole("error");
    const due = Math.floor((await clockOf(stub)) / 1000) * 1000 + 5 * MINUTE;
    const at = new Date(due).toISOString();
    const [first, blocked, last] = [
      await createPrompt(chatId, stub, { at }, "First", "One."),
      await createPrompt(chatId, stub, { at }, "Blocked", "Two."),
      await createPrompt(chatId, stub, { at }, "Last", "Three."),
    ];
    // A run already holding the id this claim needs makes the batch's insert fail (a state no client can
    // reach): the one raw write of this test.
    await sql(
      stub,
      "INSERT INTO runs (run_id, job_id, kind, manual, due_at, state, lease_until) VALUES (?, ?, 'prompt', 0, ?, 'dispatched', ?)",
      `${blocked.id}:${due}`,
      blocked.id,
      due,
      due + HOUR,
    );
    await advanceTo(stub, due);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect((await jobIdsSent(stub)).sort()).toEqual([first.id, last.id].sort());
    for (const job of [first, last])
      expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state])).toEqual([[`${job.id}:${due}`, "dispatched"]]);
    expect(lines(errors).map((l) => l.split(": ")[0])).toEqual([`job ${blocked.id} could not fire Error`]);
    expect(lines(errors)[0]).toContain("UNIQUE constraint failed: runs.run_id");
  });
});

// ── Overlap ─────────────────────────────────────────────────────────────────────────────────────────────

describe("overlap", () => {
  it("records an occurrence due while a run is in flight as skipped (still running), lastResult untouched", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { cron: "* * * * *" }, "Price check", "Check the price.");
    const d1 = Date.parse(job.nextRunAt!);
    const [d2, d3] = [d1 + MINUTE, d1 + 2 * MINUTE];

    // First occurrence: fired and settled, so lastResult is set.
    await advanceTo(stub, d1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await settleSent(stub, `${job.id}:${d1}`, "delivered")).toBe(true);
    const settled = await must(stub.getJob(chatId, job.id));
    expect(settled.lastResult?.status).toBe("delivered");

    // Second occurrence: fired, still in flight (the run gate has 2 minutes to see it, past the third).
    await advanceTo(stub, d2);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await queued(stub)).toHaveLength(2);

    // Third occurrence comes due while the second is in flight.
    await advanceTo(stub, d3);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const t1 = await clockOf(stub);

    const history = await historyOf(stub, chatId, job.id);
    expect(history.map((r) => [r.runId, r.state, r.status, r.detail])).toEqual([
      [`${job.id}:${d3}`, "settled", "skipped", "still running"],
      [`${job.id}:${d2}`, "dispatched", null, null],
      [`${job.id}:${d1}`, "settled", "delivered", null],
    ]);
    expect(await queued(stub)).toHaveLength(2);
    const skippedAt = Date.parse(history[0]!.startedAt!);
    expect(skippedAt).toBeGreaterThanOrEqual(d3);
    expect(skippedAt).toBeLessThanOrEqual(t1);
    const after = await must(stub.getJob(chatId, job.id));
    expect(after.lastResult).toEqual(settled.lastResult);
    expect(after.running).toBe(true);
    expect(after.nextRunAt).toBe(new Date(d3 + MINUTE).toISOString());
  });
});

// ── Settling and leases ─────────────────────────────────────────────────────────────────────────────────

describe("settling", () => {
  it("keeps a fired one-off until its run settles, then deletes it", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub);

    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ nextRunAt: null, running: true });

    expect(await settleSent(stub, runId, "delivered")).toBe(true);
    const gone = { ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } };
    expect(await stub.getJob(chatId, job.id)).toEqual(gone);
    expect(await stub.jobRuns(chatId, job.id)).toEqual(gone);
    // A second settle finds nothing, and nothing is left to wake for.
    expect(await settleSent(stub, runId, "delivered")).toBe(false);
    expect(await alarmOf(stub)).toBeNull();
  });

  it("ends a cron run: running false, lastResult delivered at the settle time, the run settled delivered", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub, { cron: true, name: "Inbox summary", text: "Summarise my inbox." });
    const next = (await must(stub.getJob(chatId, job.id))).nextRunAt;

    const t0 = await clockOf(stub);
    expect(await settleSent(stub, runId, "delivered")).toBe(true);
    const t1 = await clockOf(stub);

    const [run] = await historyOf(stub, chatId, job.id);
    expect(run).toMatchObject({ runId, state: "settled", status: "delivered", detail: null });
    const finishedAt = Date.parse(run!.finishedAt!);
    expect(finishedAt).toBeGreaterThanOrEqual(t0);
    expect(finishedAt).toBeLessThanOrEqual(t1);
    const after = await must(stub.getJob(chatId, job.id));
    expect(after).toMatchObject({ running: false, nextRunAt: next });
    expect(after.lastResult).toStrictEqual({ status: "delivered", at: run!.finishedAt });
    // Settled twice: the second is a no-op.
    expect(await settleSent(stub, runId, "failed", "late duplicate")).toBe(false);
    expect((await must(stub.getJob(chatId, job.id))).lastResult?.status).toBe("delivered");
    // The alarm is back at the next occurrence alone.
    expect(await alarmOf(stub)).toBe(Date.parse(next!));
  });
});

describe("history", () => {
  it("keeps the last 50 runs of a job: the 51st settle drops the oldest (docs/api.md#how-a-job-fires)", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { cron: "*/10 * * * *" }, "Every ten minutes", "Tick.");
    // The 51 fires and settles run inside the object, in one round trip from the test: seven RPCs a run took
    // longer than a test may on a busy machine. Each is what the test does outside: the clock moved to the run's
    // due time, the alarm that is armed run, and the prompt it sent offered, settled and the gate released.
    const due = await inObject(stub, async (chat, state) => {
      const due: number[] = [];
      let next = Date.parse(job.nextRunAt!);
      for (let i = 0; i < 51; i++) {
        due.push(next);
        await chat.testAdvanceClock(next - (await chat.testAdvanceClock(0)));
        expect(await state.storage.getAlarm()).not.toBeNull();
        await chat.alarm();
        const message = sent.at(-1)?.body as PromptMessage;
        expect(message.key).toBe(`${job.id}:${next}`);
        const offer = await must(chat.gateOffer(message));
        if (offer.result !== "run") throw new Error(`run ${message.key} was not run: ${offer.result}`);
        await must(chat.gateSettle(offer.token, message.key, "delivered", null));
        await must(chat.gateNext(offer.token));
        next += 10 * MINUTE;
      }
      return due;
    });
    // The rows themselves (the history's size is the point): 50, the first run gone.
    const kept = await sql<{ run_id: string }>(
      stub,
      "SELECT run_id FROM run_history WHERE run_id >= ? AND run_id < ? ORDER BY due_at",
      `${job.id}:`,
      `${job.id};`,
    );
    expect(kept.map((r) => r.run_id)).toEqual(due.slice(1).map((at) => `${job.id}:${at}`));
    expect((await historyOf(stub, chatId, job.id)).map((r) => r.runId)).toEqual(
      due
        .slice(1)
        .reverse()
        .map((at) => `${job.id}:${at}`),
    );
  });
});

describe("lease expiry", () => {
  const resent = (runId: string) => `run ${runId} did not reach the run gate within 2 min; sending it again`;
  const reason = "no agent took it: sent 4 times, it never reached the run gate";

  it("sends a one-off whose prompt never reached the gate again, 3 times; then keeps it paused with its history and tells the chat once", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const logs = quietConsole("log");
    const { job, runId, message } = await fireJob(chatId, stub);
    for (const copies of [2, 3, 4]) {
      const lease = await toAlarm(stub);
      expect(await sentFor(stub, runId)).toEqual(Array<PromptMessage>(copies).fill(message));
      // Each copy has its own 2 minutes from its send.
      const [run] = await historyOf(stub, chatId, job.id);
      expect(run).toMatchObject({ runId, state: "dispatched" });
      expect(Date.parse(run!.startedAt!)).toBeGreaterThanOrEqual(lease);
      expect(await alarmOf(stub)).toBe(Date.parse(run!.startedAt!) + 2 * MINUTE);
    }
    await toAlarm(stub);
    expect(await queued(stub)).toHaveLength(4);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ enabled: false, nextRunAt: null, running: false, lastResult: { status: "failed" } });
    const [history] = await historyOf(stub, chatId, job.id);
    expect(history).toMatchObject({ runId, status: "failed", detail: reason });
    expect((await must(stub.messages(chatId, 50))).messages).toEqual([
      expect.objectContaining({
        role: "bot",
        source: "alert",
        text: `⚠️ Job "Call the dentist" (${job.id}) did not run: ${reason}. It is paused: /resume ${job.id} runs it now, /cancel ${job.id} removes it.`,
      }),
    ]);
    expect(await alarmOf(stub)).toBeNull();
    expect(lines(logs)).toEqual([resent(runId), resent(runId), resent(runId)]);
  });

  it("fails a cron run the gate never saw after 3 re-sends, keeping the schedule", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const logs = quietConsole("log");
    const { job, runId } = await fireJob(chatId, stub, { cron: true, name: "Inbox summary", text: "Summarise my inbox." });
    const next = (await must(stub.getJob(chatId, job.id))).nextRunAt;
    for (let i = 0; i < 4; i++) await toAlarm(stub);
    expect(await queued(stub)).toHaveLength(4);
    const [run] = await historyOf(stub, chatId, job.id);
    expect(run).toMatchObject({ runId, state: "settled", status: "failed", detail: reason });
    const after = await must(stub.getJob(chatId, job.id));
    expect(after).toMatchObject({ enabled: true, running: false, nextRunAt: next });
    expect(after.lastResult).toStrictEqual({ status: "failed", at: run!.finishedAt });
    // A cron job keeps running; its failure is in its result, not a message.
    expect((await must(stub.messages(chatId, 50))).messages).toEqual([]);
    expect(await alarmOf(stub)).toBe(Date.parse(next!));
    expect(lines(logs)).toEqual([resent(runId), resent(runId), resent(runId)]);
  });
});

describe("the object's test-only RPCs", () => {
  it("are the worker tests' subclass's: the Worker's own entry exports a ChatScheduler that has none and names none", () => {
    const testOnly = Object.getOwnPropertyNames(TestChatScheduler.prototype).filter((name) => name.startsWith("test"));
    expect(testOnly).toEqual(["testAdvanceClock", "testFreezeClock", "testClaimDue", "testNoteMove", "testForget"]);
    expect(Worker.ChatScheduler).not.toBe(TestChatScheduler);
    for (const name of testOnly) {
      expect(name in Worker.ChatScheduler.prototype, name).toBe(false);
      expect(productSource, name).not.toContain(name);
    }
  });

  it("are served by the tests' entry, which exports every name the Worker's own entry does", () => {
    expect(Object.keys(TestEntry).sort()).toEqual(Object.keys(Worker).sort());
    expect(TestEntry.ChatScheduler).toBe(TestChatScheduler);
    expect(TestEntry.default).toBe(Worker.default);
  });
});
