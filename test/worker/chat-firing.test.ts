/**
 * The ChatScheduler's firing rules (DESIGN §5, issue 3) in workerd: claims, dispatch, the late note, cron
 * without catch-up, crash recovery, a failed send, quarantine, overlap, settling and leases. Time is passed in
 * by backdating rows, then `runDurableObjectAlarm`; each test has its own chat (ids 2000000 up).
 *
 * Queue sends are observed through the spy of agent-helpers.ts on the Durable Object instance's `env.PROMPTS`:
 * it records every message and forwards none, so runs stay in flight until a test settles them (the consumer
 * has its own tests); the one test that needs the real `prompts` queue asks for it, and the spy then records
 * only what the queue took.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { nextOccurrence, parseCron } from "../../src/time";
import { alarmOf, clockOf, runRow, settleRun, backdateCron, backdateOneOff, chatIds, createPrompt, dayMonthTime, expectSpyInPlace, fireJob, HOUR, justDue, LEASE_MS, MINUTE, must, runsOf, spyQueue, sql, type JobView, type Stub } from "./agent-helpers";

const newChat = chatIds(2_000_000);

// ── Claims and dispatch ─────────────────────────────────────────────────────────────────────────────────

describe("a due one-off prompt", () => {
  it("is claimed as one run <jobId>:<at ms>, dispatched with the v1 message, and kept until settled", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = justDue();
    await backdateOneOff(stub, job.id, due);

    const t0 = Date.now();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const t1 = Date.now();

    const runId = `${job.id}:${due}`;
    const runs = await runsOf(stub, job.id);
    expect(runs.map((r) => [r.run_id, r.state, r.manual, r.late, r.status])).toEqual([[runId, "dispatched", 0, 0, null]]);
    const run = runs[0]!;
    const message = JSON.parse(run.message!) as { firedAt: string };
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
    // From the moment the send resolved, the run gate must see it within 2 minutes (DESIGN §5 Leases).
    expect(run.lease_until).toBe(run.started_at! + 2 * MINUTE);

    expect(sent).toEqual([{ body: message, contentType: "json" }]);

    const kept = await must<JobView>(stub.getJob(chatId, job.id));
    expect(kept).toMatchObject({ id: job.id, nextRunAt: null, running: true, lastRunAt: new Date(firedAt).toISOString(), lastResult: null });
    expect(await alarmOf(stub)).toBe(run.lease_until);
  });

  it("is sent once when the alarm runs twice (the claim is idempotent)", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = justDue();
    await backdateOneOff(stub, job.id, due);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // Re-armed at the lease; running it early must neither claim nor send again.
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect((await runsOf(stub, job.id)).map((r) => [r.run_id, r.state])).toEqual([[`${job.id}:${due}`, "dispatched"]]);
    await expectSpyInPlace(stub, sent);
    expect(sent).toHaveLength(1);
  });

  it("fired 2 hours late carries the late note in the chat's zone, late: true", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "America/New_York"));
    const job = await createPrompt(chatId, stub, { delay: "PT5M" }, "Water the plants", "Water the plants on the balcony.");
    const due = Math.floor(Date.now() / MINUTE) * MINUTE - 2 * HOUR;
    await backdateOneOff(stub, job.id, due);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const runId = `${job.id}:${due}`;
    const [run] = await runsOf(stub, job.id);
    expect(run).toMatchObject({ run_id: runId, state: "dispatched", late: 1 });
    const message = JSON.parse(run!.message!) as { firedAt: string };
    expect(message).toStrictEqual({
      v: 1,
      key: runId,
      chatId,
      timeZone: "America/New_York",
      source: "job",
      jobId: job.id,
      jobName: "Water the plants",
      runId,
      text: `[Scheduled job "Water the plants" (${job.id})]\nThis was due at ${dayMonthTime(due, "America/New_York")}; the bot was offline.\nWater the plants on the balcony.`,
      body: "Water the plants on the balcony.",
      late: true,
      firedAt: message.firedAt,
      dueAt: new Date(due).toISOString(),
    });
    expect(sent.map((m) => m.body)).toEqual([message]);
    const [history] = await must<{ runId: string; late: boolean; manual: boolean; state: string }[]>(stub.jobRuns(chatId, job.id));
    expect(history).toMatchObject({ runId, late: true, manual: false, state: "dispatched" });
  });
});

describe("a due cron prompt", () => {
  it("claims one run and advances to the next occurrence strictly after now", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const job = await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");
    // One minute ago is due and not late; the run id is the due instant.
    const due = Math.floor(Date.now() / 1000) * 1000 - 30_000;
    await backdateCron(stub, job.id, due);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const runs = await runsOf(stub, job.id);
    expect(runs.map((r) => [r.run_id, r.state, r.late])).toEqual([[`${job.id}:${due}`, "dispatched", 0]]);
    const firedAt = Date.parse((JSON.parse(runs[0]!.message!) as { firedAt: string }).firedAt);
    const cron = parseCron("0 9 * * *");
    if (!cron.ok) throw new Error(cron.error);
    const expected = nextOccurrence(cron.value, "Europe/Berlin", firedAt)!.at;
    const after = await must<JobView>(stub.getJob(chatId, job.id));
    expect(after.nextRunAt).toBe(new Date(expected).toISOString());
    expect(Date.parse(after.nextRunAt!)).toBeGreaterThan(firedAt);
    expect(after).toMatchObject({ running: true, lastRunAt: new Date(firedAt).toISOString() });
    expect(sent).toHaveLength(1);
    // The alarm waits for the sooner of the lease and the next occurrence.
    expect(await alarmOf(stub)).toBe(Math.min(expected, runs[0]!.lease_until!));
  });

  it("does not catch up after 2 hours of downtime: `*/10 * * * *` fires once, not 12 times", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { cron: "*/10 * * * *" }, "Price check", "Check the price.");
    const due = Math.floor(Date.now() / (10 * MINUTE)) * 10 * MINUTE - 2 * HOUR;
    await backdateCron(stub, job.id, due);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const runs = await runsOf(stub, job.id);
    expect(runs.map((r) => r.run_id)).toEqual([`${job.id}:${due}`]);
    const firedAt = Date.parse((JSON.parse(runs[0]!.message!) as { firedAt: string }).firedAt);
    const after = await must<JobView>(stub.getJob(chatId, job.id));
    // The next 10-minute mark strictly after the alarm's now.
    expect(after.nextRunAt).toBe(new Date((Math.floor(firedAt / (10 * MINUTE)) + 1) * 10 * MINUTE).toISOString());
    expect(sent).toHaveLength(1);

    // Another alarm right away finds nothing due.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await expectSpyInPlace(stub, sent);
    expect(sent).toHaveLength(1);
    expect(await runsOf(stub, job.id)).toHaveLength(1);
  });
});

// ── Crash recovery and a failed send ────────────────────────────────────────────────────────────────────

/** Writes what the alarm's claim writes (the run `claimed` with its message, the job in flight), and stops. */
async function claimWithoutDispatch(stub: Stub, chatId: string, job: JobView, due: number, body: string, bodyOverride?: string): Promise<string> {
  const runId = `${job.id}:${due}`;
  const now = Date.now();
  const message = {
    v: 1,
    key: runId,
    chatId,
    timeZone: "UTC",
    source: "job",
    jobId: job.id,
    jobName: job.name,
    runId,
    text: `[Scheduled job "${job.name}" (${job.id})]\n${bodyOverride ?? body}`,
    body: bodyOverride ?? body,
    firedAt: new Date(now).toISOString(),
    dueAt: new Date(due).toISOString(),
  };
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.transactionSync(() => {
      state.storage.sql.exec(
        "INSERT INTO runs (run_id, job_id, manual, due_at, state, late, lease_until, attempts, message) VALUES (?, ?, 0, ?, 'claimed', 0, ?, 0, ?)",
        runId,
        job.id,
        due,
        now + LEASE_MS,
        JSON.stringify(message),
      );
      state.storage.sql.exec("UPDATE jobs SET at_ms = ?, next_run_at = NULL, running_run_id = ?, last_run_at = ? WHERE id = ?", due, runId, now, job.id);
    });
  });
  return runId;
}

describe("a run claimed but never dispatched (a crash between claim and send)", () => {
  it("is dispatched exactly once by the next alarm, and not again by the one after", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = justDue();
    const runId = await claimWithoutDispatch(stub, chatId, job, due, "Remind me to call the dentist.");
    // The alarm set at creation is still armed (a crashed alarm is retried by the runtime).
    expect(await alarmOf(stub)).not.toBeNull();

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await runsOf(stub, job.id)).map((r) => [r.run_id, r.state])).toEqual([[runId, "dispatched"]]);
    expect(sent.map((m) => (m.body as { key: string }).key)).toEqual([runId]);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await expectSpyInPlace(stub, sent);
    expect(sent).toHaveLength(1);
    expect((await runsOf(stub, job.id)).map((r) => [r.run_id, r.state])).toEqual([[runId, "dispatched"]]);
  });

  it("is dispatched after an RPC re-arms a lost alarm (self-healing entry)", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const runId = await claimWithoutDispatch(stub, chatId, job, justDue(), "Remind me to call the dentist.");
    await runInDurableObject(stub, (_instance, state) => state.storage.deleteAlarm());
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    await must(stub.listJobs(chatId, {}));
    const lease = (await runsOf(stub, job.id))[0]!.lease_until;
    expect(await alarmOf(stub)).toBe(lease);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(sent.map((m) => (m.body as { key: string }).key)).toEqual([runId]);
  });
});

describe("a failed sendBatch", () => {
  // The real local queue refuses a message over 128,000 bytes (miniflare's limit), so a claimed run whose
  // stored message is that large makes the real `sendBatch` reject; nothing in the Durable Object is faked.
  it("leaves the run claimed, counts the attempt and re-arms with a 2.5–5 s backoff; the next alarm sends it", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub, true);
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const due = justDue();
    const runId = await claimWithoutDispatch(stub, chatId, job, due, "Remind me to call the dentist.", "x".repeat(130_000));

    const t0 = Date.now();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const t1 = Date.now();

    const [run] = await runsOf(stub, job.id);
    expect(run).toMatchObject({ run_id: runId, state: "claimed", attempts: 1, started_at: null });
    expect(sent).toHaveLength(0);
    // backoff(0) = 5 s × (0.5 … 1), from the alarm's now; the alarm is armed at that retry.
    expect(run!.lease_until).toBeGreaterThanOrEqual(t0 + 2_500);
    expect(run!.lease_until).toBeLessThanOrEqual(t1 + 5_000);
    expect(await alarmOf(stub)).toBe(run!.lease_until);
    expect(await must<JobView>(stub.getJob(chatId, job.id))).toMatchObject({ running: true, nextRunAt: null });

    // The queue takes it again (the message is back to a normal size): sent once, dispatched.
    const normal = JSON.parse(run!.message!) as { text: string; body: string };
    normal.body = "Remind me to call the dentist.";
    normal.text = `[Scheduled job "Call the dentist" (${job.id})]\nRemind me to call the dentist.`;
    await sql(stub, "UPDATE runs SET message = ? WHERE run_id = ?", JSON.stringify(normal), runId);
    // Not before its retry time: a dispatch in between (here another run's) leaves it for later.
    const other = await createPrompt(chatId, stub, { delay: "PT5M" }, "Other", "Other.");
    await must(stub.runJobNow(chatId, other.id));
    expect((await runsOf(stub, job.id)).map((r) => [r.state, r.attempts])).toEqual([["claimed", 1]]);
    expect(sent.map((m) => (m.body as { jobId: string }).jobId)).toEqual([other.id]);
    // Its retry time has come: the alarm sends it.
    await sql(stub, "UPDATE runs SET lease_until = ? WHERE run_id = ?", Date.now() - 1, runId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await runsOf(stub, job.id)).map((r) => [r.run_id, r.state, r.attempts])).toEqual([[runId, "dispatched", 1]]);
    sent.shift();
    expect(sent.map((m) => m.body)).toEqual([normal]);
  });
});

// ── Rows that fail to parse ─────────────────────────────────────────────────────────────────────────────

describe("a job row that fails to parse", () => {
  it("quarantines that job (lastResult failed, no next run) while the other due job still fires", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const bad = await createPrompt(chatId, stub, { delay: "PT5M" }, "Broken", "This row will not parse.");
    const good = await createPrompt(chatId, stub, { delay: "PT6M" }, "Healthy", "This one fires.");
    const due = justDue();
    await backdateOneOff(stub, bad.id, due);
    await backdateOneOff(stub, good.id, due);
    await sql(stub, "UPDATE jobs SET last_result = '{bad' WHERE id = ?", bad.id);

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect((await runsOf(stub, good.id)).map((r) => [r.run_id, r.state])).toEqual([[`${good.id}:${due}`, "dispatched"]]);
    expect(sent.map((m) => (m.body as { jobId: string }).jobId)).toEqual([good.id]);
    const firedAt = (sent[0]!.body as { firedAt: string }).firedAt;

    expect(await runsOf(stub, bad.id)).toEqual([]);
    const quarantined = await must<JobView>(stub.getJob(chatId, bad.id));
    expect(quarantined).toMatchObject({ nextRunAt: null, running: false, lastResult: { status: "failed", at: firedAt } });
    const [row] = await sql<{ quarantined: string | null }>(stub, "SELECT quarantined FROM jobs WHERE id = ?", bad.id);
    expect(row!.quarantined).toContain("last_result");

    // It stays out of later alarms.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runsOf(stub, bad.id)).toEqual([]);
    expect(sent).toHaveLength(1);
  });
});

// ── Overlap ─────────────────────────────────────────────────────────────────────────────────────────────

describe("overlap", () => {
  it("records an occurrence due while a run is in flight as skipped (still running), lastResult untouched", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const cronText = "*/10 * * * *";
    const job = await createPrompt(chatId, stub, { cron: cronText }, "Price check", "Check the price.");
    const mark = Math.floor(Date.now() / (10 * MINUTE)) * 10 * MINUTE;
    const [d1, d2, d3] = [mark - 20 * MINUTE, mark - 10 * MINUTE, mark];

    // First occurrence: fired and settled, so lastResult is set.
    await backdateCron(stub, job.id, d1);
    await runDurableObjectAlarm(stub);
    expect(await settleRun(stub, `${job.id}:${d1}`, "delivered")).toBe(true);
    const settled = await must<JobView>(stub.getJob(chatId, job.id));
    expect(settled.lastResult?.status).toBe("delivered");

    // Second occurrence: fired, still in flight.
    await backdateCron(stub, job.id, d2);
    await runDurableObjectAlarm(stub);
    expect(sent).toHaveLength(2);

    // Third occurrence comes due while the second is in flight.
    await backdateCron(stub, job.id, d3);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const runs = await runsOf(stub, job.id);
    expect(runs.map((r) => [r.run_id, r.state, r.status, r.detail])).toEqual([
      [`${job.id}:${d1}`, "settled", "delivered", null],
      [`${job.id}:${d2}`, "dispatched", null, null],
      [`${job.id}:${d3}`, "settled", "skipped", "still running"],
    ]);
    await expectSpyInPlace(stub, sent);
    expect(sent).toHaveLength(2);
    const skippedAt = runs[2]!.started_at!;
    const cron = parseCron(cronText);
    if (!cron.ok) throw new Error(cron.error);
    const after = await must<JobView>(stub.getJob(chatId, job.id));
    expect(after.lastResult).toEqual(settled.lastResult);
    expect(after.running).toBe(true);
    expect(after.nextRunAt).toBe(new Date(nextOccurrence(cron.value, "UTC", skippedAt)!.at).toISOString());
    const history = await must<{ runId: string; status: string | null; detail: string | null; state: string }[]>(stub.jobRuns(chatId, job.id));
    expect(history[0]).toMatchObject({ runId: `${job.id}:${d3}`, state: "settled", status: "skipped", detail: "still running" });
  });
});

// ── Settling and leases ─────────────────────────────────────────────────────────────────────────────────

describe("settling", () => {
  it("keeps a fired one-off until its run settles, then deletes it", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub);

    expect(await must<JobView>(stub.getJob(chatId, job.id))).toMatchObject({ nextRunAt: null, running: true });

    expect(await settleRun(stub, runId, "delivered")).toBe(true);
    expect(await stub.getJob(chatId, job.id)).toEqual({ ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } });
    expect(await sql(stub, "SELECT run_id FROM runs")).toEqual([]);
    // A second settle finds nothing.
    expect(await settleRun(stub, runId, "delivered")).toBe(false);
    expect(await alarmOf(stub)).toBeNull();
  });

  it("ends a cron run: running false, lastResult delivered at the settle time, the run settled delivered", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub, { cron: true, name: "Inbox summary", text: "Summarise my inbox." });
    const next = (await must<JobView>(stub.getJob(chatId, job.id))).nextRunAt;

    const t0 = await clockOf(stub);
    expect(await settleRun(stub, runId, "delivered")).toBe(true);
    const t1 = await clockOf(stub);

    const [run] = await runsOf(stub, job.id);
    expect(run).toMatchObject({ run_id: runId, state: "settled", status: "delivered", detail: null, lease_until: null });
    expect(run!.finished_at).toBeGreaterThanOrEqual(t0);
    expect(run!.finished_at).toBeLessThanOrEqual(t1);
    const after = await must<JobView>(stub.getJob(chatId, job.id));
    expect(after).toMatchObject({ running: false, nextRunAt: next, lastResult: { status: "delivered", at: new Date(run!.finished_at!).toISOString() } });
    expect(after.lastResult).toStrictEqual({ status: "delivered", at: new Date(run!.finished_at!).toISOString() });
    // Settled twice: the second is a no-op.
    expect(await settleRun(stub, runId, "failed", "late duplicate")).toBe(false);
    expect((await must<JobView>(stub.getJob(chatId, job.id))).lastResult?.status).toBe("delivered");
    // The alarm is back at the next occurrence alone.
    expect(await alarmOf(stub)).toBe(Date.parse(next!));
  });
});

describe("lease expiry", () => {
  /** Lets the run's lease run out and runs the alarm. */
  async function expire(stub: Stub, runId: string): Promise<void> {
    await sql(stub, "UPDATE runs SET lease_until = ? WHERE run_id = ?", (await clockOf(stub)) - 1, runId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
  }

  it("sends a one-off whose prompt never reached the gate again, 3 times; then keeps it paused with its history and tells the chat once", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub);
    for (const resends of [1, 2, 3]) {
      await expire(stub, runId);
      expect(sent.map((m) => m.body)).toEqual(Array<unknown>(resends + 1).fill(message));
      expect(await runRow(stub, runId)).toMatchObject({ state: "dispatched", resends });
    }
    await expire(stub, runId);
    const reason = "no agent took it: sent 4 times, it never reached the run gate";
    expect(sent).toHaveLength(4);
    expect(await must<JobView>(stub.getJob(chatId, job.id))).toMatchObject({ enabled: false, nextRunAt: null, running: false, lastResult: { status: "failed" } });
    const [history] = await must<{ runId: string; status: string; detail: string }[]>(stub.jobRuns(chatId, job.id));
    expect(history).toMatchObject({ runId, status: "failed", detail: reason });
    expect((await must<{ messages: { role: string; source: string; text: string }[] }>(stub.messages(chatId, 50))).messages).toEqual([
      expect.objectContaining({
        role: "bot",
        source: "alert",
        text: `⚠️ Job "Call the dentist" (${job.id}) did not run: ${reason}. It is paused: /resume ${job.id} runs it now, /cancel ${job.id} removes it.`,
      }),
    ]);
    expect(await alarmOf(stub)).toBeNull();
  });

  it("fails a cron run the gate never saw after 3 re-sends, keeping the schedule", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub, { cron: true, name: "Inbox summary", text: "Summarise my inbox." });
    const next = (await must<JobView>(stub.getJob(chatId, job.id))).nextRunAt;
    for (let i = 0; i < 4; i++) await expire(stub, runId);
    expect(sent).toHaveLength(4);
    const [run] = await runsOf(stub, job.id);
    expect(run).toMatchObject({ run_id: runId, state: "settled", status: "failed", detail: "no agent took it: sent 4 times, it never reached the run gate", lease_until: null });
    const after = await must<JobView>(stub.getJob(chatId, job.id));
    expect(after).toMatchObject({ enabled: true, running: false, nextRunAt: next, lastResult: { status: "failed", at: new Date(run!.finished_at!).toISOString() } });
    // A cron job keeps running; its failure is in its result, not a message.
    expect((await must<{ messages: unknown[] }>(stub.messages(chatId, 50))).messages).toEqual([]);
  });
});
