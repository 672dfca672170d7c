/**
 * The ChatScheduler's job state rules (docs/api.md, docs/time.md, issue 3) in workerd: pause and resume, run now, zone
 * change, isolation between chats, the job limit, chat erase and the one alarm. Time moves through the
 * object's own clock (`advanceTo`), then `runDurableObjectAlarm`; instants are compared with that clock, and
 * what the chat did is read through its RPCs, the alarm it armed and the queue spy. Each test has its own
 * chat (ids 2100000 up).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { Result } from "../../src/result";
import { nextOccurrence, parseCron } from "../../src/time";
import { settle, settleSent } from "./agent-helpers";
import {
  advanceTo,
  alarmOf,
  chatIds,
  clockOf,
  createPrompt,
  DAY,
  fireJob,
  HOUR,
  historyOf,
  inObject,
  MINUTE,
  must,
  queued,
  type Stub,
  sentFor,
  spyQueue,
  sql,
} from "./helpers";

const newChat = chatIds(2_100_000);

// ── Helpers of this file (the shared ones are in helpers.ts) ───────────────────────────────────────────

/** `d MMM HH:mm` (with the year when not `now`'s year) in a zone, built with Intl, not the time module. */
function chatTime(instant: number, zone: string, now: number): string {
  const f = (t: number) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(t);
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
    await spyQueue(stub);
    const paused = await createPrompt(chatId, stub, { delay: "PT5M" }, "Paused one");
    const other = await createPrompt(chatId, stub, { delay: "PT1H" }, "Other one");

    const result = await must(stub.pauseJob(chatId, paused.id));
    expect(result).toMatchObject({ id: paused.id, enabled: false, nextRunAt: null, running: false });
    expect(await alarmOf(stub)).toBe(Date.parse(other.nextRunAt!));

    // Its time comes: the alarm fires nothing.
    await advanceTo(stub, Date.parse(paused.nextRunAt!));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await historyOf(stub, chatId, paused.id)).toEqual([]);
    expect(await queued(stub)).toEqual([]);
    expect(await must(stub.getJob(chatId, paused.id))).toMatchObject({ enabled: false, nextRunAt: null });
    expect(await alarmOf(stub)).toBe(Date.parse(other.nextRunAt!));
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
    // Three days pass while it is paused: it resumes from the object's now, not from when it was paused.
    await stub.testAdvanceClock(3 * DAY);

    const t0 = await clockOf(stub);
    const resumed = await must(stub.resumeJob(chatId, job.id));
    const t1 = await clockOf(stub);

    const cron = cronOf("0 9 * * *");
    const candidates = [nextOccurrence(cron, "Europe/Berlin", t0)!.at, nextOccurrence(cron, "Europe/Berlin", t1)!.at].map((t) => new Date(t).toISOString());
    expect(candidates).toContain(resumed.nextRunAt);
    expect(Date.parse(resumed.nextRunAt!)).toBeGreaterThan(t0);
    expect(resumed.enabled).toBe(true);
    expect(await alarmOf(stub)).toBe(Date.parse(resumed.nextRunAt!));
  });

  it("resuming a one-off whose time passed fires it at once on the next alarm, late", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const job = await createPrompt(chatId, stub, { delay: "PT5M" });
    const at = Date.parse(job.nextRunAt!);
    await must(stub.pauseJob(chatId, job.id));
    // Its time passes while it is paused, by 2 hours.
    await advanceTo(stub, at + 2 * HOUR);

    const resumed = await must(stub.resumeJob(chatId, job.id));
    expect(resumed).toMatchObject({ enabled: true, nextRunAt: new Date(at).toISOString(), schedule: { at: new Date(at).toISOString() } });
    // Due at once: the alarm is armed at its (past) time.
    expect(await alarmOf(stub)).toBe(at);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const runId = `${job.id}:${at}`;
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.late])).toEqual([[runId, "dispatched", true]]);
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

describe("edit", () => {
  it("never touches a run in flight: its record and its message stay as sent, and the job stays running (docs/api.md#jobs)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, name: "Yearly", text: "Happy new year." });
    const [before] = await historyOf(stub, chatId, job.id);

    const edited = await must(stub.editJob(chatId, job.id, { name: "Renamed", text: "A new text for next year." }));
    expect([edited.name, edited.running]).toEqual(["Renamed", true]);
    const [after] = await historyOf(stub, chatId, job.id);
    expect(after).toEqual(before);
    expect(before).toMatchObject({ runId, state: "dispatched" });
    // The message in flight is the one sent, and nothing new was sent.
    expect((await queued(stub)).map((s) => s.body)).toEqual([message]);
    expect((message as PromptMessage).text).toContain("Happy new year.");
  });
});

describe("edit after a skip", () => {
  it("refuses an edit whose next run, past the occurrence skipped by hand, would be after the job's end, and changes nothing", async () => {
    const { chatId, stub } = newChat();
    const now = await clockOf(stub);
    // The chat is in UTC: its next two 09:00s, the first skipped by hand.
    const first = Math.ceil((now - 9 * HOUR) / DAY) * DAY + 9 * HOUR + (now % DAY === 9 * HOUR ? DAY : 0);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const job = await must(stub.createJob(chatId, { name: "Water", kind: "prompt", cron: "0 9 * * *", until: day(first + DAY), text: "Water." }, "admin"));
    expect((await must(stub.skipJob(chatId, job.id))).job.nextRunAt).toBe(new Date(first + DAY).toISOString());
    // The same schedule, ending the day of the skipped run: its only run left is the one skipped.
    const [d, m] = [new Date(first).getUTCDate(), new Date(first).toLocaleString("en", { month: "short", timeZone: "UTC" })];
    expect(await stub.editJob(chatId, job.id, { cron: "0 9 * * *", until: day(first) })).toEqual({
      ok: false,
      error: {
        code: "bad_request",
        message: `Job ${job.id} (Water) has no scheduled run left: its next run would be after its end (until ${d} ${m}). Give it a later "until" or more "runsLeft" (edit it), or cancel it.`,
        // What a chat says in its language: the sentence's name, and the end as stored.
        said: { key: "noRunsLeft", args: [job.id, "Water", `${day(first)}T23:59`] },
      },
    });
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ until: `${day(first + DAY)}T23:59`, nextRunAt: new Date(first + DAY).toISOString() });
  });
});

describe("run now", () => {
  it("dispatches a manual run <jobId>:<now> at once, leaves the next run alone, and refuses a second while in flight", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    // A day on the object's clock, so that its now and the machine's differ.
    await stub.testAdvanceClock(DAY);
    const job = await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");

    const t0 = await clockOf(stub);
    const ran = await must(stub.runJobNow(chatId, job.id));
    const t1 = await clockOf(stub);

    const now = Date.parse(ran.lastRunAt!);
    expect(now).toBeGreaterThanOrEqual(t0);
    expect(now).toBeLessThanOrEqual(t1);
    expect(ran).toMatchObject({ running: true, nextRunAt: job.nextRunAt, enabled: true });
    const runId = `${job.id}:${now}`;
    // Dispatched before the RPC returned: no alarm needed.
    const runs = await historyOf(stub, chatId, job.id);
    expect(runs.map((r) => [r.runId, r.manual, r.state, r.late, r.dueAt])).toEqual([[runId, true, "dispatched", false, new Date(now).toISOString()]]);
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
    const [history] = await must(stub.jobRuns(chatId, job.id));
    expect(history).toMatchObject({ runId, manual: true });

    expect(await stub.runJobNow(chatId, job.id)).toEqual({
      ok: false,
      error: { code: "conflict", message: `Job ${job.id} is still running.`, said: { key: "stillRunning", args: [job.id] } },
    });
    expect(await historyOf(stub, chatId, job.id)).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect((await must(stub.getJob(chatId, job.id))).nextRunAt).toBe(job.nextRunAt);
  });

  it("on a one-off neither deletes nor reschedules it, even after the run settles", async () => {
    const { chatId, stub } = newChat();
    const job = await createPrompt(chatId, stub, { delay: "PT2H" });
    await spyQueue(stub);
    const ran = await must(stub.runJobNow(chatId, job.id));
    const runId = `${job.id}:${Date.parse(ran.lastRunAt!)}`;
    expect(ran).toMatchObject({ running: true, nextRunAt: job.nextRunAt, schedule: job.schedule });

    expect(await settleSent(stub, runId, "delivered")).toBe(true);

    const after = await must(stub.getJob(chatId, job.id));
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
    // A day on this chat's clock (the one-off is still ahead): the change and its reply are at the object's now.
    await stub.testAdvanceClock(DAY);

    const t0 = await clockOf(stub);
    const change = await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    const t1 = await clockOf(stub);

    const tokyo9 = [t0, t1].map((t) => new Date(nextOccurrence(cronOf("0 9 * * *"), "Asia/Tokyo", t)!.at).toISOString());
    const after = await must(stub.getJob(chatId, cronJob.id));
    expect(tokyo9).toContain(after.nextRunAt);
    // 09:00 in Tokyo is 00:00 UTC.
    expect(after.nextRunAt).toMatch(/T00:00:00\.000Z$/);
    expect(Date.parse(after.nextRunAt!)).toBeGreaterThan(t0);

    const keptOneOff = await must(stub.getJob(chatId, oneOff.id));
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
    expect((await must(other.stub.getJob(other.chatId, otherJob.id))).nextRunAt).toBe(otherJob.nextRunAt);
    expect(await must(other.stub.getSettings(other.chatId))).toEqual({ chatId: other.chatId, timeZone: "Europe/Berlin", isDefault: false });
  });

  it("reset to the default zone is marked default, and with no jobs the reply has no job clause", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    await stub.testAdvanceClock(3 * DAY);
    const t0 = await clockOf(stub);
    const change = await must(stub.setTimeZone(chatId, null));
    const t1 = await clockOf(stub);
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
    const ran = await must(a.stub.runJobNow(a.chatId, job.id));
    const [message] = await sentFor(a.stub, `${job.id}:${Date.parse(ran.lastRunAt!)}`);
    const notFound = { ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } };

    expect(await b.stub.getJob(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.pauseJob(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.resumeJob(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.runJobNow(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.jobRuns(b.chatId, job.id)).toEqual(notFound);
    expect(await b.stub.editJob(b.chatId, job.id, { name: "Taken over" })).toEqual(notFound);
    expect(await b.stub.cancelJob(b.chatId, job.id)).toEqual(notFound);
    // Chat a's prompt offered to chat b's run gate: b has no such run, so nothing runs or settles.
    expect(await settle(b.stub, message!, "delivered")).toBe(false);
    expect((await must(b.stub.listJobs(b.chatId, {}))).jobs).toEqual([]);

    expect(await must(a.stub.getJob(a.chatId, job.id))).toMatchObject({ name: "Call the dentist", running: true, enabled: true });
    expect((await historyOf(a.stub, a.chatId, job.id)).map((r) => r.state)).toEqual(["dispatched"]);
  });
});

// ── Limits ──────────────────────────────────────────────────────────────────────────────────────────────

describe("MAX_JOBS_PER_CHAT (50 in the test env)", () => {
  it("refuses the 51st job with the sentence, and takes one again after a cancel", async () => {
    const { chatId, stub } = newChat();
    expect(env.MAX_JOBS_PER_CHAT).toBe("50");
    const ids: string[] = [];
    // Made inside the object, in one round trip from the test (not 50).
    await inObject(stub, async (chat) => {
      for (let i = 1; i <= 50; i++)
        ids.push((await must(chat.createJob(chatId, { name: `Job ${i}`, kind: "prompt", text: `Text ${i}`, cron: `${i % 60} 9 * * *` }, "admin"))).id);
    });
    expect(new Set(ids).size).toBe(50);

    expect(await stub.createJob(chatId, { name: "One too many", kind: "prompt", delay: "PT5M", text: "No room." }, "admin")).toEqual({
      ok: false,
      error: { code: "bad_request", message: "This chat already has 50 jobs (the limit); cancel one first.", said: { key: "tooManyJobs", args: [50] } },
    });
    expect((await must(stub.listJobs(chatId, {}))).jobs).toHaveLength(50);

    await must(stub.cancelJob(chatId, ids[0]!));
    await createPrompt(chatId, stub, { delay: "PT5M" }, "Room again");
    expect((await must(stub.listJobs(chatId, {}))).jobs).toHaveLength(50);
  });
});

// ── Erase ───────────────────────────────────────────────────────────────────────────────────────────────

describe("chat erase", () => {
  it("removes every job, run and setting and the alarm", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const fired = await createPrompt(chatId, stub, { delay: "PT5M" });
    const cron = await createPrompt(chatId, stub, { cron: "0 9 * * *" }, "Inbox summary", "Summarise my inbox.");
    const due = Date.parse(fired.nextRunAt!);
    await advanceTo(stub, due);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [message] = await sentFor(stub, `${fired.id}:${due}`);
    expect((await historyOf(stub, chatId, fired.id)).map((r) => r.state)).toEqual(["dispatched"]);

    expect(await stub.erase(chatId)).toEqual({ ok: true, value: null });

    expect(await alarmOf(stub)).toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(await must(stub.getSettings(chatId))).toEqual({ chatId, timeZone: "UTC", isDefault: true });
    expect((await must(stub.listJobs(chatId, {}))).jobs).toEqual([]);
    for (const id of [fired.id, cron.id]) {
      expect(await stub.jobRuns(chatId, id)).toEqual({ ok: false, error: { code: "not_found", message: `No job ${id} in this chat.` } });
    }
    // The run in flight went too: its prompt, offered now, finds nothing to run, and nothing is left to wake for.
    expect(await settle(stub, message!, "delivered")).toBe(false);
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
    const latest = await createPrompt(chatId, stub, { at: new Date((await clockOf(stub)) + 3 * HOUR).toISOString() }, "Latest");
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
    await spyQueue(stub);
    const job = await createPrompt(chatId, stub, { delay: "PT1H" });
    // A minute short of its time.
    await advanceTo(stub, Date.parse(job.nextRunAt!) - MINUTE);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await historyOf(stub, chatId, job.id)).toEqual([]);
    expect(await queued(stub)).toEqual([]);
    expect(await alarmOf(stub)).toBe(Date.parse(job.nextRunAt!));
  });

  // docs/api.md#how-a-job-fires: "Every RPC entry self-heals: work pending and no alarm set → arm it."
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

      await must(call(stub, chatId, job.id) as Promise<Result<unknown>>);

      expect(await alarmOf(stub)).toBe(Date.parse(job.nextRunAt!));
    });
  });
});

describe("edge cases found in review", () => {
  it("holds a one-off whose time comes during a manual run, then fires it once that run settles", async () => {
    const { chatId, stub } = newChat();
    // Due in a minute, so that the manual run's 2 minutes to reach the run gate outlast its time.
    const job = await must(stub.createJob(chatId, { name: "Call", kind: "prompt", delay: "PT1M", text: "Call the dentist" }, "admin"));
    const at = Date.parse(job.nextRunAt!);
    await spyQueue(stub);
    const manual = await must(stub.runJobNow(chatId, job.id));
    expect(manual.running).toBe(true);
    const manualRunId = `${job.id}:${Date.parse(manual.lastRunAt!)}`;

    await advanceTo(stub, at);
    const t0 = await clockOf(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const t1 = await clockOf(stub);
    // Held, not skipped: no second run; the job keeps its time and looks again a minute on.
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.manual, r.state])).toEqual([[manualRunId, true, "dispatched"]]);
    expect((await queued(stub)).map((m) => (m.body as PromptMessage).key)).toEqual([manualRunId]);
    const held = await must(stub.getJob(chatId, job.id));
    expect(held.schedule).toEqual({ at: new Date(at).toISOString() });
    const retry = Date.parse(held.nextRunAt!);
    expect(retry).toBeGreaterThanOrEqual(t0 + MINUTE);
    expect(retry).toBeLessThanOrEqual(t1 + MINUTE);

    // The manual run settles; at the retry the held occurrence fires with run id <id>:<at>.
    expect(await settleSent(stub, manualRunId, "delivered")).toBe(true);
    expect(await alarmOf(stub)).toBe(retry);
    await advanceTo(stub, retry);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const runs = await historyOf(stub, chatId, job.id);
    expect(runs.map((r) => [r.runId, r.manual, r.state])).toEqual([
      [`${job.id}:${at}`, false, "dispatched"],
      [manualRunId, true, "settled"],
    ]);
    expect((await queued(stub)).map((m) => (m.body as PromptMessage).key)).toEqual([manualRunId, `${job.id}:${at}`]);
  });

  it("cancels a row that no longer parses, naming it, so it stops counting against the limit", async () => {
    const { chatId, stub } = newChat();
    const job = await must(stub.createJob(chatId, { name: "Broken", kind: "prompt", cron: "0 9 * * *", text: "x" }, "admin"));
    // A damaged row is the point here, and no client can write one: the one raw write of this file.
    await sql(stub, "UPDATE jobs SET last_result = '{bad' WHERE id = ?", job.id);
    const notFound = { ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } };
    expect(await stub.getJob(chatId, job.id)).toEqual(notFound);
    const cancelled = await must(stub.cancelJob(chatId, job.id));
    expect([cancelled.id, cancelled.name]).toEqual([job.id, "Broken"]);
    // The row is gone: a second cancel finds nothing.
    expect(await stub.cancelJob(chatId, job.id)).toEqual(notFound);
  });

  it("refuses a maker that is none of the four with one sentence, and creates nothing", async () => {
    const { chatId, stub } = newChat();
    const input = { name: "Call", kind: "prompt", delay: "PT1M", text: "Call the dentist" } as const;
    expect(await stub.createJob(chatId, input, "robot" as never)).toEqual({
      ok: false,
      error: { code: "bad_request", message: '"createdBy" must be one of "user", "agent", "admin" or "job"; got robot.' },
    });
    expect((await must(stub.listJobs(chatId, {}))).jobs).toEqual([]);
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
