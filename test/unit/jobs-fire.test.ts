/**
 * Firing decisions (docs/api.md#how-a-job-fires) as pure functions: what the alarm does with a due job (claim, skip, hold),
 * run now, which run ends a one-off, and a cron job's next run. Every instant is fixed; the chat's zone is
 * Europe/Berlin unless a case says otherwise (CEST, UTC+2, until 25 Oct 2026 01:00Z).
 */
import { describe, expect, it } from "vitest";
import { type PromptMessage, promptMessageSchema } from "../../src/contracts/prompt-message";
import { decideFire, endsJob, type FireContext, manualRun, nextCronRun, runEnd } from "../../src/jobs/fire";
import type { JobRecord, RunRecord } from "../../src/jobs/records";
import { RUN_STATUSES } from "../../src/schemas/jobs";
import { jobRecord, runRecord } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const BERLIN = "Europe/Berlin";
const NEW_YORK = "America/New_York";
const CHAT = "123456789";

/** 27 Sep 2026 09:00 in Berlin. */
const AT = ms("2026-09-27T07:00:00Z");

function oneOff(over: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id: "k7m2q",
    name: "Call the dentist",
    schedule: { type: "at", at: AT },
    text: "Call the dentist about the filling",
    createdAt: ms("2026-09-20T10:00:00Z"),
    ...over,
  });
}

function cronJob(cron: string, nextRunAt: number, over: Partial<JobRecord> = {}): JobRecord {
  return oneOff({ id: "p3xz9", name: "Inbox summary", schedule: { type: "cron", cron }, text: "Summarise my inbox", nextRunAt, ...over });
}

function watcher(over: Partial<JobRecord> = {}): JobRecord {
  return oneOff({
    id: "w8r4t",
    name: "Price check",
    kind: "watcher",
    schedule: { type: "cron", cron: "*/10 * * * *" },
    text: null,
    command: "curl -s https://example.com/price",
    nextRunAt: ms("2026-09-26T12:10:00Z"),
    ...over,
  });
}

const ctx = (now: number, over: Partial<FireContext> = {}): FireContext => ({
  chatId: CHAT,
  zone: BERLIN,
  now,
  deliverable: true,
  defaultTimeout: 30,
  ...over,
});

/** A claimed run as `newRun` writes it: a 10-minute lease, and some message. */
const claimed = (runId: string, dueAt: number, now: number, over: Partial<RunRecord> = {}): RunRecord =>
  runRecord({ runId, dueAt, leaseUntil: now + 10 * 60_000, payload: { kind: "prompt", message: expect.any(Object) as unknown as PromptMessage }, ...over });

/** A claimed watcher run's payload: its call to the runner. */
const call = (timeoutSeconds: number, timeZone: string): Partial<RunRecord> => ({
  kind: "watcher",
  payload: { kind: "watcher", call: { command: "curl -s https://example.com/price", timeoutSeconds, timeZone } },
});

/** The run's queue message, checked against the v1 schema (as the store reads it back). */
function messageOf(run: RunRecord): unknown {
  if (run.payload?.kind !== "prompt") throw new Error(`expected a prompt run, got ${run.payload?.kind ?? "none"}`);
  const body: unknown = JSON.parse(JSON.stringify(run.payload.message));
  expect(promptMessageSchema().safeParse(body).success).toBe(true);
  return body;
}

function claimOf(job: JobRecord, c: FireContext): Extract<ReturnType<typeof decideFire>, { action: "claim" }> {
  const decision = decideFire(job, c);
  if (decision.action !== "claim") throw new Error(`expected a claim, got ${decision.action}`);
  return decision;
}

describe("decideFire: a one-off prompt", () => {
  it("is claimed as run <jobId>:<dueAt> with a 10-minute lease and its queue message", () => {
    const now = AT + 5_000;
    const job = oneOff();
    const decision = decideFire(job, ctx(now));
    expect(decision).toStrictEqual({
      action: "claim",
      missed: 0,
      job: { ...job, nextRunAt: null, runningRunId: "k7m2q:1790492400000", lastRunAt: now },
      run: claimed("k7m2q:1790492400000", AT, now),
    });
    expect(messageOf((decision as { run: RunRecord }).run)).toStrictEqual({
      v: 1,
      key: "k7m2q:1790492400000",
      chatId: CHAT,
      timeZone: BERLIN,
      source: "job",
      jobId: "k7m2q",
      jobName: "Call the dentist",
      runId: "k7m2q:1790492400000",
      text: '[Scheduled job "Call the dentist" (k7m2q)]\nCall the dentist about the filling',
      body: "Call the dentist about the filling",
      firedAt: "2026-09-27T07:00:05.000Z",
      dueAt: "2026-09-27T07:00:00.000Z",
    });
  });

  it("carries no late note at exactly 60 s late, and the note one millisecond later", () => {
    const onTime = claimOf(oneOff(), ctx(AT + 60_000));
    expect(onTime.run.late).toBe(false);
    expect(messageOf(onTime.run)).not.toHaveProperty("late");
    expect((messageOf(onTime.run) as { text: string }).text).toBe('[Scheduled job "Call the dentist" (k7m2q)]\nCall the dentist about the filling');

    const late = claimOf(oneOff(), ctx(AT + 60_001));
    expect(late.run.late).toBe(true);
    expect(messageOf(late.run)).toMatchObject({
      late: true,
      text: '[Scheduled job "Call the dentist" (k7m2q)]\nThis was due at 27 Sep 09:00; the bot was offline.\nCall the dentist about the filling',
      body: "Call the dentist about the filling",
      dueAt: "2026-09-27T07:00:00.000Z",
      firedAt: "2026-09-27T07:01:00.001Z",
    });
  });

  it("holds a prompt for a 10-minute lease, divided by a local test's speedup (CUCKOO_DEV_SPEEDUP)", () => {
    expect(claimOf(oneOff(), ctx(AT)).run.leaseUntil).toBe(AT + 600_000);
    expect(claimOf(oneOff(), ctx(AT, { speedup: 30 })).run.leaseUntil).toBe(AT + 20_000);
  });

  it("shows the due time in the chat's zone as it is now", () => {
    const late = claimOf(oneOff(), ctx(AT + 3 * 3_600_000, { zone: NEW_YORK }));
    expect(messageOf(late.run)).toMatchObject({
      timeZone: NEW_YORK,
      text: '[Scheduled job "Call the dentist" (k7m2q)]\nThis was due at 27 Sep 03:00; the bot was offline.\nCall the dentist about the filling',
    });
  });

  it("waits an hour while the chat is undeliverable, then fires late for its original time and ends", () => {
    const now = AT + 2_000;
    const held = decideFire(oneOff(), ctx(now, { deliverable: false }));
    expect(held).toStrictEqual({ action: "hold", job: { ...oneOff(), nextRunAt: now + 3_600_000 } });

    const later = claimOf(held.job, ctx(now + 3_600_000));
    expect(later.run.runId).toBe("k7m2q:1790492400000");
    expect(later.run.dueAt).toBe(AT);
    expect(later.run.late).toBe(true);
    expect((messageOf(later.run) as { text: string }).text).toContain("\nThis was due at 27 Sep 09:00; the bot was offline.\n");
    expect(endsJob(later.job, later.run)).toBe(true);
  });

  it("waits 60 s, and records nothing, while a manual run of it is in flight", () => {
    const job = oneOff({ runningRunId: `k7m2q:${AT - 30_000}` });
    const now = AT + 1_000;
    expect(decideFire(job, ctx(now))).toStrictEqual({ action: "hold", job: { ...job, nextRunAt: now + 60_000 } });
    // The manual run settled meanwhile: the one-off fires for its own time.
    const fired = claimOf({ ...job, runningRunId: null, nextRunAt: now + 60_000 }, ctx(now + 60_000));
    expect(fired.run.runId).toBe("k7m2q:1790492400000");
    expect(fired.job.runningRunId).toBe("k7m2q:1790492400000");
  });

  it("is held, not claimed, when the chat is undeliverable even while a run is in flight", () => {
    const job = oneOff({ runningRunId: `k7m2q:${AT - 30_000}` });
    expect(decideFire(job, ctx(AT, { deliverable: false }))).toStrictEqual({ action: "hold", job: { ...job, nextRunAt: AT + 3_600_000 } });
  });
});

describe("decideFire: a cron job", () => {
  // Weekdays at 08:00 in Berlin: Fri 2 Oct 2026 06:00Z, then Mon 5 Oct 06:00Z.
  const FRI = ms("2026-10-02T06:00:00Z");
  const MON = ms("2026-10-05T06:00:00Z");

  it("is claimed on time and advances strictly after now, over the weekend", () => {
    const job = cronJob("0 8 * * 1-5", FRI);
    expect(decideFire(job, ctx(FRI))).toStrictEqual({
      action: "claim",
      missed: 0,
      job: { ...job, nextRunAt: MON, runningRunId: `p3xz9:${FRI}`, lastRunAt: FRI },
      run: claimed(`p3xz9:${FRI}`, FRI, FRI),
    });
  });

  it("advances, without a run, while the chat is undeliverable", () => {
    const job = cronJob("0 8 * * 1-5", FRI);
    expect(decideFire(job, ctx(FRI + 1_000, { deliverable: false }))).toStrictEqual({ action: "hold", job: { ...job, nextRunAt: MON } });
  });

  it("records an occurrence during a run in flight as skipped, leaving lastResult and the running run alone", () => {
    const lastResult = { status: "delivered" as const, at: "2026-10-01T06:00:05.000Z" };
    const job = cronJob("0 8 * * 1-5", FRI, { runningRunId: "p3xz9:1790834400000", lastRunAt: ms("2026-10-01T06:00:00Z"), lastResult });
    const now = FRI + 300;
    const decision = decideFire(job, ctx(now));
    expect(decision).toStrictEqual({
      action: "skip",
      job: { ...job, nextRunAt: MON },
      run: runRecord({
        runId: `p3xz9:${FRI}`,
        dueAt: FRI,
        startedAt: now,
        finishedAt: now,
        state: "settled",
        status: "skipped",
        detail: "still running",
        leaseUntil: null,
        payload: null,
      }),
    });
    expect(decision.job.lastResult).toBe(lastResult);
  });

  it("skips a watcher's occurrence in the same way", () => {
    const job = watcher({ runningRunId: "w8r4t:1790424000000" });
    const now = ms("2026-09-26T12:10:00Z");
    const decision = decideFire(job, ctx(now));
    expect(decision.action).toBe("skip");
    expect(decision.job.nextRunAt).toBe(ms("2026-09-26T12:20:00Z"));
    expect(decision.job.runningRunId).toBe("w8r4t:1790424000000");
  });

  it("runs the latest missed occurrence once, late, its line counting every one missed (missed: once, the default)", () => {
    // Daily at 08:00, due Sun 20 Sep; the bot comes back Sat 26 Sep 14:03: 20th to 26th never ran.
    const due = ms("2026-09-20T06:00:00Z");
    const latest = ms("2026-09-26T06:00:00Z");
    const now = ms("2026-09-26T12:03:00Z");
    const decision = claimOf(cronJob("0 8 * * *", due), ctx(now));
    expect(decision.missed).toBe(7);
    expect(decision.job.nextRunAt).toBe(ms("2026-09-27T06:00:00Z"));
    expect(decision.run).toStrictEqual(claimed(`p3xz9:${latest}`, latest, now, { late: true }));
    expect(messageOf(decision.run)).toMatchObject({
      late: true,
      missed: 7,
      text: '[Scheduled job "Inbox summary" (p3xz9)]\n7 runs were missed while the bot was offline; this is the latest (due 08:00).\nSummarise my inbox',
      dueAt: "2026-09-26T06:00:00.000Z",
      firedAt: "2026-09-26T12:03:00.000Z",
    });
  });

  it("runs an occurrence within its grace as usual, and one a millisecond past it as missed", () => {
    const due = ms("2026-09-26T12:00:00Z");
    // 12:20 is due now: it runs on time; 12:00 and 12:10 are passed over.
    const at20 = claimOf(cronJob("*/10 * * * *", due), ctx(ms("2026-09-26T12:20:00Z")));
    expect([at20.missed, at20.run.runId, at20.run.late, at20.job.nextRunAt]).toStrictEqual([
      2,
      `p3xz9:${ms("2026-09-26T12:20:00Z")}`,
      false,
      ms("2026-09-26T12:30:00Z"),
    ]);
    const before20 = claimOf(cronJob("*/10 * * * *", due), ctx(ms("2026-09-26T12:19:59.999Z")));
    expect([before20.missed, before20.run.dueAt, before20.run.late, before20.job.nextRunAt]).toStrictEqual([
      2,
      ms("2026-09-26T12:10:00Z"),
      true,
      ms("2026-09-26T12:20:00Z"),
    ]);
    // A grace of 5 minutes: 12:10 at 12:15 still runs as usual.
    const graced = claimOf(cronJob("*/10 * * * *", ms("2026-09-26T12:10:00Z"), { graceSeconds: 300 }), ctx(ms("2026-09-26T12:15:00Z")));
    expect([graced.missed, graced.run.late]).toStrictEqual([0, false]);
    const past = claimOf(cronJob("*/10 * * * *", ms("2026-09-26T12:10:00Z"), { graceSeconds: 300 }), ctx(ms("2026-09-26T12:15:00.001Z")));
    expect([past.missed, past.run.late, (messageOf(past.run) as { text: string }).text.split("\n")[1]]).toStrictEqual([
      1,
      true,
      "This was due at 26 Sep 14:10; the bot was offline.",
    ]);
  });

  it("counts missed runs across a spring-forward gap: the gap's match fires once, at 03:00", () => {
    // 02:30 daily; due Sat 28 Mar 02:30 CET. 29 Mar 02:30 does not exist (runs 03:00 CEST = 01:00Z).
    const decision = decideFire(cronJob("30 2 * * *", ms("2026-03-28T01:30:00Z"), { missed: "skip" }), ctx(ms("2026-03-31T12:00:00Z")));
    expect(decision.action).toBe("missed");
    const skipped = (decision as { skipped: RunRecord[] }).skipped.map((r) => new Date(r.dueAt).toISOString());
    expect(skipped).toStrictEqual(["2026-03-28T01:30:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z", "2026-03-31T00:30:00.000Z"]);
    expect(decision.job.nextRunAt).toBe(ms("2026-04-01T00:30:00Z"));
  });

  it("counts both passes of a fall-back hour for an interval expression, one for a fixed one (New York)", () => {
    const c = ctx(ms("2026-11-01T07:00:00Z"), { zone: NEW_YORK });
    // Every 30 minutes in the 01 hour: 01:00 EDT, 01:30 EDT, 01:00 EST and 01:30 EST were missed.
    const interval = claimOf(cronJob("*/30 1 * * *", ms("2026-11-01T05:00:00Z")), c);
    expect([interval.missed, interval.run.dueAt, interval.job.nextRunAt]).toStrictEqual([4, ms("2026-11-01T06:30:00Z"), ms("2026-11-02T06:00:00Z")]);
    // 01:30 daily, due 31 Oct: it and 1 Nov 01:30 EDT were missed; its second pass (EST) is no occurrence.
    const fixed = claimOf(cronJob("30 1 * * *", ms("2026-10-31T05:30:00Z")), c);
    expect([fixed.missed, fixed.run.dueAt, fixed.job.nextRunAt]).toStrictEqual([2, ms("2026-11-01T05:30:00Z"), ms("2026-11-02T06:30:00Z")]);
  });

  it("counts at most 1000 missed runs, and still runs the latest", () => {
    const now = ms("2026-09-26T12:00:30Z");
    // No grace: 12:00, 30 s old, was missed too, and is the one that runs, three days of minutes later.
    const decision = claimOf(cronJob("* * * * *", now - 3 * 86_400_000 - 30_000, { graceSeconds: 0 }), ctx(now));
    expect(decision.missed).toBe(1000);
    expect([decision.run.dueAt, decision.run.late]).toStrictEqual([ms("2026-09-26T12:00:00Z"), true]);
    expect(decision.job.nextRunAt).toBe(ms("2026-09-26T12:01:00Z"));
    // With the default grace, 12:00 runs as usual, and no line counts the others (the log does).
    const usual = claimOf(cronJob("* * * * *", now - 3 * 86_400_000 - 30_000), ctx(now));
    expect([usual.missed, usual.run.dueAt, usual.run.late]).toStrictEqual([999, ms("2026-09-26T12:00:00Z"), false]);
    expect((messageOf(usual.run) as { text: string }).text).toBe('[Scheduled job "Inbox summary" (p3xz9)]\nSummarise my inbox');
  });
});

describe("decideFire: a watcher", () => {
  const due = ms("2026-09-26T12:10:00Z");

  it("stores its call to the runner with the default timeout, the zone, and a lease of timeout + 60 s", () => {
    const job = watcher();
    const now = due + 200;
    expect(decideFire(job, ctx(now))).toStrictEqual({
      action: "claim",
      missed: 0,
      job: { ...job, nextRunAt: ms("2026-09-26T12:20:00Z"), runningRunId: `w8r4t:${due}`, lastRunAt: now },
      run: claimed(`w8r4t:${due}`, due, now, {
        leaseUntil: now + 90_000,
        ...call(30, "Europe/Berlin"),
      }),
    });
  });

  it("uses its own timeout and the chat's zone as they are at the claim", () => {
    const decision = claimOf(watcher({ timeoutSeconds: 3600 }), ctx(due, { zone: NEW_YORK, defaultTimeout: 45 }));
    expect(decision.run.leaseUntil).toBe(due + 3_660_000);
    expect(decision.run.payload).toStrictEqual(call(3600, "America/New_York").payload);
  });

  it("keeps a shorter grace under a local test's speedup (CUCKOO_DEV_SPEEDUP), and its own timeout whole", () => {
    expect(claimOf(watcher({ timeoutSeconds: 5 }), ctx(due, { speedup: 30 })).run.leaseUntil).toBe(due + 5_000 + 2_000);
  });
});

describe("manualRun (run now)", () => {
  it("is run <jobId>:<now>, manual, due now, never late, with a 10-minute lease", () => {
    const now = AT + 5 * 3_600_000;
    const run = manualRun(oneOff({ nextRunAt: now + 3_600_000 }), ctx(now)).run;
    expect(run).toStrictEqual(claimed(`k7m2q:${now}`, now, now, { manual: true }));
    expect(run.runId).toBe("k7m2q:1790510400000");
    expect(messageOf(run)).toStrictEqual({
      v: 1,
      key: "k7m2q:1790510400000",
      chatId: CHAT,
      timeZone: BERLIN,
      source: "job",
      jobId: "k7m2q",
      jobName: "Call the dentist",
      runId: "k7m2q:1790510400000",
      text: '[Scheduled job "Call the dentist" (k7m2q)]\nCall the dentist about the filling',
      body: "Call the dentist about the filling",
      firedAt: "2026-09-27T12:00:00.000Z",
      dueAt: "2026-09-27T12:00:00.000Z",
    });
  });

  it("gives a watcher its timeout + 60 s and the stored runner call", () => {
    const now = ms("2026-09-26T12:03:00Z");
    const run = manualRun(watcher({ timeoutSeconds: 120 }), ctx(now)).run;
    expect(run).toStrictEqual(
      claimed(`w8r4t:${now}`, now, now, {
        manual: true,
        leaseUntil: now + 180_000,
        ...call(120, "Europe/Berlin"),
      }),
    );
  });
});

describe("endsJob", () => {
  const run = (dueAt: number, manual = false) => ({ dueAt, manual });

  it("is true only for the scheduled run of a one-off at its time", () => {
    expect(endsJob(oneOff(), run(AT))).toBe(true);
    expect(endsJob(oneOff(), run(AT, true))).toBe(false);
    expect(endsJob(cronJob("0 8 * * *", AT), run(AT))).toBe(false);
    // Edited to another time while its run was in flight: the job stays for its new time.
    expect(endsJob(oneOff({ schedule: { type: "at", at: AT + 3_600_000 } }), run(AT))).toBe(false);
  });

  it("is false for run now of a one-off, even at the one-off's own time", () => {
    expect(endsJob(oneOff(), manualRun(oneOff(), ctx(AT)).run)).toBe(false);
  });
});

describe("runEnd: how a run's end leaves its job", () => {
  const run = (dueAt: number, manual = false) => ({ dueAt, manual });

  it("deletes a one-off after its scheduled run, and keeps it paused when that run failed or was over budget", () => {
    expect(RUN_STATUSES.map((status) => [status, runEnd(oneOff(), run(AT), status)])).toEqual([
      ["delivered", "delete"],
      ["silent", "delete"],
      ["matched", "delete"],
      ["failed", "pause"],
      ["skipped", "delete"],
      ["transient", "delete"],
      ["over_budget", "pause"],
    ]);
  });

  it("leaves a recurring job, and a one-off's run now, to their schedule whatever the status", () => {
    for (const status of RUN_STATUSES) {
      expect(runEnd(cronJob("0 8 * * *", AT), run(AT), status), status).toBe("keep");
      expect(runEnd(oneOff(), run(AT, true), status), status).toBe("keep");
    }
  });

  it("is the rule the firing core applies to a one-off whose memory record is gone: kept paused, the chat told so", () => {
    const job = oneOff({ memoryRefs: ["m4x7pq"] });
    const decision = decideFire(job, ctx(AT));
    expect(decision).toMatchObject({ action: "fail", job: { enabled: false, nextRunAt: null, lastRunAt: AT } });
    const manual = manualRun(job, ctx(AT));
    expect(manual).toMatchObject({ action: "fail", job: { enabled: true, nextRunAt: AT } });
  });
});

describe("nextCronRun", () => {
  const next = (cron: string, zone: string, after: string): string | null => {
    const t = nextCronRun(cron, zone, ms(after));
    return t === null ? null : new Date(t).toISOString();
  };

  it("is strictly after the reference instant", () => {
    expect(next("0 8 * * *", BERLIN, "2026-09-27T06:00:00Z")).toBe("2026-09-28T06:00:00.000Z");
    expect(next("0 8 * * *", BERLIN, "2026-09-27T05:59:59.999Z")).toBe("2026-09-27T06:00:00.000Z");
  });

  it("fires a time in the spring-forward gap at the first instant after it (Berlin, New York)", () => {
    expect(next("30 2 * * *", BERLIN, "2026-03-28T12:00:00Z")).toBe("2026-03-29T01:00:00.000Z");
    expect(next("0 2 * * *", NEW_YORK, "2026-03-07T12:00:00Z")).toBe("2026-03-08T07:00:00.000Z");
  });

  it("fires a fixed time once at fall-back, an interval in both passes (Berlin)", () => {
    expect(next("30 2 * * *", BERLIN, "2026-10-25T00:30:00Z")).toBe("2026-10-26T01:30:00.000Z");
    expect(next("*/30 2 * * *", BERLIN, "2026-10-25T00:30:00Z")).toBe("2026-10-25T01:00:00.000Z");
    expect(next("*/30 2 * * *", BERLIN, "2026-10-25T01:00:00Z")).toBe("2026-10-25T01:30:00.000Z");
  });

  it("crosses midnight, month ends and leap days in the zone", () => {
    // 00:30 on 1 Feb in Berlin is still 31 Jan in UTC; the next 1st is 1 Mar 00:00 CET.
    expect(next("0 0 1 * *", BERLIN, "2026-01-31T23:30:00Z")).toBe("2026-02-28T23:00:00.000Z");
    // April has no 31st: the next is 31 May 23:59 CEST.
    expect(next("59 23 31 * *", BERLIN, "2026-04-01T00:00:00Z")).toBe("2026-05-31T21:59:00.000Z");
    expect(next("0 12 29 2 *", "UTC", "2026-03-01T00:00:00Z")).toBe("2028-02-29T12:00:00.000Z");
    expect(next("@daily", NEW_YORK, "2026-12-31T23:00:00Z")).toBe("2027-01-01T05:00:00.000Z");
  });

  it("is null for an expression that does not parse or never fires within 5 years", () => {
    expect(next("0 8 * *", BERLIN, "2026-09-26T12:00:00Z")).toBeNull();
    expect(next("0 0 30 2 *", BERLIN, "2026-09-26T12:00:00Z")).toBeNull();
  });
});
