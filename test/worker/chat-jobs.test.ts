/**
 * The ChatScheduler's job state rules (DESIGN §3–§5, issue 3) in workerd: pause and resume, run now, zone
 * change, isolation between chats, the job limit, chat erase and the one alarm. Time is passed in by
 * backdating rows, then `runDurableObjectAlarm`; each test has its own chat (ids 2100000 up).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { nextOccurrence, parseCron } from "../../src/time";
import { alarmOf, settleRun, backdateOneOff, chatIds, createPrompt, HOUR, justDue, MINUTE, must, runsOf, spyQueue, sql, type JobView, type Stub } from "./agent-helpers";

const newChat = chatIds(2_100_000);

// ── Helpers of this file (the shared ones are in agent-helpers.ts) ─────────────────────────────────────

/** `d MMM HH:mm` (with the year when not `now`'s year) in a zone, built with Intl, not the time module. */
function chatTime(instant: number, zone: string, now: number): string {
  const f = (t: number) => {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(t);
    return (type: string) => parts.find((p) => p.type === type)?.value;
  };
  const at = f(instant);
  const year = at("year") === f(now)("year") ? "" : ` ${at("year")}`;
  return `${at("day")} ${at("month")}${year} ${at("hour")}:${at("minute")}`;
}

function cronOf(text: string) {
  const parsed = parseCron(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

// ── Pause and resume ────────────────────────────────────────────────────────────────────────────────────

describe("pause and resume", () => {
  it("pause keeps the job with nextRunAt null and the alarm does not fire it", async () => {
    const { chatId, stub } = newChat();
    const paused = await createPrompt(chatId, stub, { delay: "PT5M" }, "Paused one");
    const other = await createPrompt(chatId, stub, { delay: "PT1H" }, "Other one");
    await backdateOneOff(stub, paused.id, justDue());

    const result = await must<JobView>(stub.pauseJob(chatId, paused.id));
    expect(result).toMatchObject({ id: paused.id, enabled: false, nextRunAt: null, running: false });
    expect(await alarmOf(stub)).toBe(Date.parse(other.nextRunAt!));

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runsOf(stub, paused.id)).toEqual([]);
    expect(await must<JobView>(stub.getJob(chatId, paused.id))).toMatchObject({ enabled: false, nextRunAt: null });
  });

  it("pausing the only job leaves no alarm", async () => {
    const { chatId, stub } = newChat();
    const job = await createPrompt(chatId, stub, { cron: "*/10 * * * *" });
    await must(stub.pauseJob(chatId, job.id));
    expect(await alarmOf(stub)).toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("resuming a cron job sets its next occurrence after now, and arms the alarm there", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const job = await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");
    await must(stub.pauseJob(chatId, job.id));

    const t0 = Date.now();
    const resumed = await must<JobView>(stub.resumeJob(chatId, job.id));
    const t1 = Date.now();

    const cron = cronOf("0 9 * * *");
    const candidates = [nextOccurrence(cron, "Europe/Berlin", t0)!.at, nextOccurrence(cron, "Europe/Berlin", t1)!.at].map((t) => new Date(t).toISOString());
    expect(candidates).toContain(resumed.nextRunAt);
    expect(resumed.enabled).toBe(true);
    expect(await alarmOf(stub)).toBe(Date.parse(resumed.nextRunAt!));
  });

  it("resuming a one-off whose time passed fires it at once on the next alarm, late", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    await must(stub.pauseJob(chatId, job.id));
    // Its time passed while it was paused.
    const at = Math.floor(Date.now() / MINUTE) * MINUTE - 2 * HOUR;
    await sql(stub, "UPDATE jobs SET at_ms = ? WHERE id = ?", at, job.id);

    const resumed = await must<JobView>(stub.resumeJob(chatId, job.id));
    expect(resumed).toMatchObject({ enabled: true, nextRunAt: new Date(at).toISOString(), schedule: { at: new Date(at).toISOString() } });
    // Due at once: workerd keeps a past alarm time as "now", and may already be running it.
    const alarm = await alarmOf(stub);
    if (alarm !== null) expect(alarm).toBeLessThanOrEqual(Date.now());

    await runDurableObjectAlarm(stub);
    const runId = `${job.id}:${at}`;
    // If the runtime was already running that alarm, its send may still be in flight: wait for it.
    await vi.waitFor(async () => expect((await runsOf(stub, job.id)).map((r) => [r.run_id, r.state, r.late])).toEqual([[runId, "dispatched", 1]]), { timeout: 2_000 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({
      key: runId,
      late: true,
      text: `[Scheduled job "Call the dentist" (${job.id})]\nThis was due at ${chatTime(at, "Europe/Berlin", at)}; the bot was offline.\nRemind me to call the dentist.`,
      dueAt: new Date(at).toISOString(),
    });
  });
});

// ── Run now ─────────────────────────────────────────────────────────────────────────────────────────────

describe("run now", () => {
  it("dispatches a manual run <jobId>:<now> at once, leaves the next run alone, and refuses a second while in flight", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");

    const t0 = Date.now();
    const ran = await must<JobView>(stub.runJobNow(chatId, job.id));
    const t1 = Date.now();

    const now = Date.parse(ran.lastRunAt!);
    expect(now).toBeGreaterThanOrEqual(t0);
    expect(now).toBeLessThanOrEqual(t1);
    expect(ran).toMatchObject({ running: true, nextRunAt: job.nextRunAt, enabled: true });
    const runId = `${job.id}:${now}`;
    // Dispatched before the RPC returned: no alarm needed.
    const runs = await runsOf(stub, job.id);
    expect(runs.map((r) => [r.run_id, r.manual, r.state, r.late, r.due_at])).toEqual([[runId, 1, "dispatched", 0, now]]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toStrictEqual({
      v: 1,
      key: runId,
      chatId,
      timeZone: "UTC",
      source: "job",
      jobId: job.id,
      jobName: "Inbox summary",
      runId,
      text: `[Scheduled job "Inbox summary" (${job.id})]\nSummarise my inbox.`,
      body: "Summarise my inbox.",
      firedAt: new Date(now).toISOString(),
      dueAt: new Date(now).toISOString(),
    });
    const [history] = await must<{ runId: string; manual: boolean }[]>(stub.jobRuns(chatId, job.id));
    expect(history).toMatchObject({ runId, manual: true });

    expect(await stub.runJobNow(chatId, job.id)).toEqual({ ok: false, error: { code: "conflict", message: `Job ${job.id} is still running.` } });
    expect(await runsOf(stub, job.id)).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect((await must<JobView>(stub.getJob(chatId, job.id))).nextRunAt).toBe(job.nextRunAt);
  });

  it("on a one-off neither deletes nor reschedules it, even after the run settles", async () => {
    const { chatId, stub } = newChat();
    const job = await createPrompt(chatId, stub, { delay: "PT2H" });
    await spyQueue(stub);
    const ran = await must<JobView>(stub.runJobNow(chatId, job.id));
    const runId = `${job.id}:${Date.parse(ran.lastRunAt!)}`;
    expect(ran).toMatchObject({ running: true, nextRunAt: job.nextRunAt, schedule: job.schedule });

    expect(await settleRun(stub, runId, "delivered")).toBe(true);

    const after = await must<JobView>(stub.getJob(chatId, job.id));
    expect(after).toMatchObject({ running: false, nextRunAt: job.nextRunAt, schedule: job.schedule, lastResult: { status: "delivered" } });
    expect(await alarmOf(stub)).toBe(Date.parse(job.nextRunAt!));
  });
});

// ── Zone change ─────────────────────────────────────────────────────────────────────────────────────────

describe("zone change", () => {
  it("moves cron jobs to the new zone, keeps one-offs' instants, and answers with the counts and the reply", async () => {
    const { chatId, stub } = newChat();
    const other = newChat();
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    await must(other.stub.setTimeZone(other.chatId, "Europe/Berlin"));
    const cronJob = await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");
    const oneOff = await createPrompt(chatId, stub, { delay: "P2DT3H" }, "Call the dentist");
    const otherJob = await createPrompt(other.chatId, other.stub, { cron: "0 9 * * *" }, "Other chat", "Stays in Berlin.");

    const t0 = Date.now();
    const change = await must<{ chatId: string; timeZone: string; isDefault: boolean; cronJobs: number; oneOffs: number; message: string }>(stub.setTimeZone(chatId, "Asia/Tokyo"));
    const t1 = Date.now();

    const tokyo9 = [t0, t1].map((t) => new Date(nextOccurrence(cronOf("0 9 * * *"), "Asia/Tokyo", t)!.at).toISOString());
    const after = await must<JobView>(stub.getJob(chatId, cronJob.id));
    expect(tokyo9).toContain(after.nextRunAt);
    // 09:00 in Tokyo is 00:00 UTC.
    expect(after.nextRunAt).toMatch(/T00:00:00\.000Z$/);
    expect(Date.parse(after.nextRunAt!)).toBeGreaterThan(t0);

    const keptOneOff = await must<JobView>(stub.getJob(chatId, oneOff.id));
    expect(keptOneOff.schedule).toEqual(oneOff.schedule);
    expect(keptOneOff.nextRunAt).toBe(oneOff.nextRunAt);

    const at = Date.parse(oneOff.nextRunAt!);
    const replies = [t0, t1].map(
      (now) =>
        `Time zone set to Asia/Tokyo (UTC+09:00). Now ${chatTime(now, "Asia/Tokyo", now)}. 1 recurring job now follows this zone; 1 one-off job keeps its time (now ${chatTime(at, "Asia/Tokyo", now)} here).`,
    );
    expect(change).toMatchObject({ chatId, timeZone: "Asia/Tokyo", isDefault: false, cronJobs: 1, oneOffs: 1 });
    expect(replies).toContain(change.message);
    expect(await must(stub.getSettings(chatId))).toEqual({ chatId, timeZone: "Asia/Tokyo", isDefault: false });
    expect(await alarmOf(stub)).toBe(Math.min(Date.parse(after.nextRunAt!), at));

    // Another chat's jobs do not move.
    expect((await must<JobView>(other.stub.getJob(other.chatId, otherJob.id))).nextRunAt).toBe(otherJob.nextRunAt);
    expect(await must(other.stub.getSettings(other.chatId))).toEqual({ chatId: other.chatId, timeZone: "Europe/Berlin", isDefault: false });
  });

  it("reset to the default zone is marked default, and with no jobs the reply has no job clause", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    const t0 = Date.now();
    const change = await must<{ timeZone: string; isDefault: boolean; cronJobs: number; oneOffs: number; message: string }>(stub.setTimeZone(chatId, null));
    const t1 = Date.now();
    expect(change).toMatchObject({ timeZone: "UTC", isDefault: true, cronJobs: 0, oneOffs: 0 });
    expect([t0, t1].map((now) => `Time zone set to UTC (UTC+00:00, default). Now ${chatTime(now, "UTC", now)}.`)).toContain(change.message);
  });
});

// ── Isolation ───────────────────────────────────────────────────────────────────────────────────────────

describe("isolation", () => {
  it("one chat never sees or touches another's job", async () => {
    const a = newChat();
    const b = newChat();
    const job = await createPrompt(a.chatId, a.stub, { delay: "PT5M" });
    await spyQueue(a.stub);
    const ran = await must<JobView>(a.stub.runJobNow(a.chatId, job.id));
    const runId = `${job.id}:${Date.parse(ran.lastRunAt!)}`;
    const notFound = { ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } };

    expect(await b.stub.getJob(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.pauseJob(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.resumeJob(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.runJobNow(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.jobRuns(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.editJob(b.chatId, job.id, { name: "Taken over" })).toEqual(notFound);
    expect(await b.stub.cancelJob(b.chatId, job.id)).toEqual(notFound);
    expect(await settleRun(b.stub, runId, "delivered")).toBe(false);
    expect((await must<{ jobs: unknown[] }>(b.stub.listJobs(b.chatId, {}))).jobs).toEqual([]);

    expect(await must<JobView>(a.stub.getJob(a.chatId, job.id))).toMatchObject({ name: "Call the dentist", running: true, enabled: true });
  });
});

// ── Limits ──────────────────────────────────────────────────────────────────────────────────────────────

describe("MAX_JOBS_PER_CHAT (50 in the test env)", () => {
  it("refuses the 51st job with the sentence, and takes one again after a cancel", async () => {
    const { chatId, stub } = newChat();
    expect(env.MAX_JOBS_PER_CHAT).toBe("50");
    const ids: string[] = [];
    for (let i = 1; i <= 50; i++) ids.push((await createPrompt(chatId, stub, { cron: `${i % 60} 9 * * *` }, `Job ${i}`, `Text ${i}`)).id);
    expect(new Set(ids).size).toBe(50);

    expect(await stub.createJob(chatId, { name: "One too many", kind: "prompt", delay: "PT5M", text: "No room." }, "admin")).toEqual({
      ok: false,
      error: { code: "bad_request", message: "This chat already has 50 jobs (the limit); cancel one first." },
    });
    expect((await must<{ jobs: unknown[] }>(stub.listJobs(chatId, {}))).jobs).toHaveLength(50);

    await must(stub.cancelJob(chatId, ids[0]!));
    await createPrompt(chatId, stub, { delay: "PT5M" }, "Room again");
    expect((await must<{ jobs: unknown[] }>(stub.listJobs(chatId, {}))).jobs).toHaveLength(50);
  });
});

// ── Erase ───────────────────────────────────────────────────────────────────────────────────────────────

describe("chat erase", () => {
  it("removes every job, run and setting and the alarm", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const fired = await createPrompt(chatId, stub, { delay: "PT5M" });
    await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");
    await backdateOneOff(stub, fired.id, justDue());
    await runDurableObjectAlarm(stub);
    expect(await runsOf(stub, fired.id)).toHaveLength(1);

    expect(await stub.erase(chatId)).toEqual({ ok: true, value: null });

    expect(await alarmOf(stub)).toBeNull();
    expect(await sql(stub, "SELECT (SELECT COUNT(*) FROM jobs) AS jobs, (SELECT COUNT(*) FROM runs) AS runs, (SELECT COUNT(*) FROM settings) AS settings")).toEqual([
      { jobs: 0, runs: 0, settings: 0 },
    ]);
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(await must(stub.getSettings(chatId))).toEqual({ chatId, timeZone: "UTC", isDefault: true });
    expect((await must<{ jobs: unknown[] }>(stub.listJobs(chatId, {}))).jobs).toEqual([]);
    expect(await alarmOf(stub)).toBeNull();
  });
});

// ── The one alarm ───────────────────────────────────────────────────────────────────────────────────────

describe("the alarm", () => {
  it("is armed at the soonest next run after each create and cancel, and cleared with the last job", async () => {
    const { chatId, stub } = newChat();
    expect(await alarmOf(stub)).toBeNull();
    const later = await createPrompt(chatId, stub, { delay: "PT2H" }, "Later");
    expect(await alarmOf(stub)).toBe(Date.parse(later.nextRunAt!));
    const sooner = await createPrompt(chatId, stub, { delay: "PT1H" }, "Sooner");
    expect(await alarmOf(stub)).toBe(Date.parse(sooner.nextRunAt!));
    const latest = await createPrompt(chatId, stub, { at: new Date(Date.now() + 3 * HOUR).toISOString() }, "Latest");
    expect(await alarmOf(stub)).toBe(Date.parse(sooner.nextRunAt!));

    await must(stub.cancelJob(chatId, sooner.id));
    expect(await alarmOf(stub)).toBe(Date.parse(later.nextRunAt!));
    await must(stub.cancelJob(chatId, later.id));
    expect(await alarmOf(stub)).toBe(Date.parse(latest.nextRunAt!));
    await must(stub.cancelJob(chatId, latest.id));
    expect(await alarmOf(stub)).toBeNull();
  });

  it("an alarm with nothing due fires nothing and re-arms at the soonest next run", async () => {
    const { chatId, stub } = newChat();
    const job = await createPrompt(chatId, stub, { delay: "PT1H" });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runsOf(stub, job.id)).toEqual([]);
    expect(await alarmOf(stub)).toBe(Date.parse(job.nextRunAt!));
  });

  // DESIGN §5: "Every RPC entry self-heals: work pending and no alarm set → arm it."
  describe.each([
    ["listJobs", (stub: Stub, chatId: string, _id: string) => stub.listJobs(chatId, {})],
    ["getSettings", (stub: Stub, chatId: string, _id: string) => stub.getSettings(chatId)],
    ["getJob", (stub: Stub, chatId: string, id: string) => stub.getJob(chatId, id)],
    ["jobRuns", (stub: Stub, chatId: string, id: string) => stub.jobRuns(chatId, id)],
  ] as const)("self-healing through %s", (_name, call) => {
    it("re-arms a lost alarm at the soonest next run", async () => {
      const { chatId, stub } = newChat();
      const job = await createPrompt(chatId, stub, { delay: "PT1H" });
      await runInDurableObject(stub, (_instance, state) => state.storage.deleteAlarm());
      expect(await alarmOf(stub)).toBeNull();

      await must(call(stub, chatId, job.id) as Promise<unknown>);

      expect(await alarmOf(stub)).toBe(Date.parse(job.nextRunAt!));
    });
  });
});

describe("edge cases found in review", () => {
  it("holds a one-off whose time comes during a manual run, then fires it once that run settles", async () => {
    const { chatId, stub } = newChat();
    const job = await must<JobView>(stub.createJob(chatId, { name: "Call", kind: "prompt", delay: "PT1H", text: "Call the dentist" }, "admin"));
    await spyQueue(stub);
    const manual = await must<JobView>(stub.runJobNow(chatId, job.id));
    expect(manual.running).toBe(true);
    const at = Date.now() - 1_000;
    await backdateOneOff(stub, job.id, at);
    await runDurableObjectAlarm(stub);
    // Held, not skipped: no second run, the job keeps a next run a minute on.
    const held = await runsOf(stub, job.id);
    expect(held.map((r) => [r.manual, r.state])).toEqual([[1, "dispatched"]]);
    const [row] = await sql<{ next_run_at: number; at_ms: number }>(stub, "SELECT next_run_at, at_ms FROM jobs WHERE id = ?", job.id);
    expect(row!.at_ms).toBe(at);
    expect(row!.next_run_at).toBeGreaterThan(at + 59_000);
    // The manual run settles; the held occurrence then fires with run id <id>:<at>.
    await settleRun(stub, held[0]!.run_id, "delivered");
    await sql(stub, "UPDATE jobs SET next_run_at = ? WHERE id = ?", Date.now() - 1, job.id);
    await runDurableObjectAlarm(stub);
    const runs = await runsOf(stub, job.id);
    expect(runs.filter((r) => r.manual === 0).map((r) => r.run_id)).toEqual([`${job.id}:${at}`]);
  });

  it("cancels a row that no longer parses, naming it, so it stops counting against the limit", async () => {
    const { chatId, stub } = newChat();
    const job = await must<JobView>(stub.createJob(chatId, { name: "Broken", kind: "prompt", cron: "0 9 * * *", text: "x" }, "admin"));
    await sql(stub, "UPDATE jobs SET last_result = '{bad' WHERE id = ?", job.id);
    expect(await stub.getJob(chatId, job.id)).toEqual({ ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } });
    const cancelled = await must<JobView>(stub.cancelJob(chatId, job.id));
    expect([cancelled.id, cancelled.name]).toEqual([job.id, "Broken"]);
    expect(await sql(stub, "SELECT id FROM jobs")).toEqual([]);
  });

  it("refuses a call for another chat id than the one the object belongs to", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId));
    expect(await stub.listJobs("999", {})).toEqual({
      ok: false,
      error: { code: "bad_request", message: `This scheduler belongs to chat ${chatId}, not 999.` },
    });
  });
});
