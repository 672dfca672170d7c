/**
 * Rule jobs and jobs that end (docs/api.md#post-adminchatschatidjobs, Edit, End; docs/time.md Recurrence rules), as pure functions: what a
 * create or an edit stores (an RRULE's COUNT and UNTIL moved into `runsLeft` and `until`), the sentences, and
 * the firing decisions of a recurring job that ends: `runsLeft` counted when a scheduled run is claimed (run
 * now and skipped occurrences do not count), a next occurrence past `until` ends it, the last run's prompt
 * marked, and the job deleted when that run settles. The chat is in Europe/Berlin (CET, UTC+1 in December);
 * it is Tue 1 Dec 2026 11:00 there (10:00Z) unless a case says otherwise.
 */
import { describe, expect, it } from "vitest";
import { advance, decideFire, endsJob, type FireContext, manualRun, runEnd } from "../../src/jobs/fire";
import type { JobRecord } from "../../src/jobs/records";
import { LAST_RUN_LINE, promptText } from "../../src/jobs/texts";
import { type RuleContext, validateCreate, validateEdit } from "../../src/jobs/validate";
import type { CreateJobInput } from "../../src/schemas/jobs";
import { jobRecord, runRecord } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const BERLIN = "Europe/Berlin";
const NOW = ms("2026-12-01T10:00:00Z");
const ctx: RuleContext = { zone: BERLIN, now: NOW };
/** Every other Tuesday at 10:00 from 8 Dec 2026: 8 Dec, 22 Dec, 5 Jan … (09:00Z in winter). */
const RULE = { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-12-08T10:00" };
const TUESDAYS = [ms("2026-12-08T09:00:00Z"), ms("2026-12-22T09:00:00Z"), ms("2027-01-05T09:00:00Z")] as const;

const rulePrompt = (over: Partial<CreateJobInput> = {}): CreateJobInput => ({ name: "Review", kind: "prompt", text: "Review the sprint", ...RULE, ...over });

async function problem(input: CreateJobInput, c: RuleContext = ctx): Promise<string> {
  const r = await validateCreate(input, c);
  if (r.ok) throw new Error(`expected a sentence, got ${JSON.stringify(r.value)}`);
  return r.error;
}

async function stored(input: CreateJobInput, c: RuleContext = ctx) {
  const r = await validateCreate(input, c);
  if (!r.ok) throw new Error(r.error);
  return { ...r.value.spec, nextRunAt: r.value.nextRunAt };
}

describe("validateCreate: a rule job", () => {
  it("stores the rule and its start, first run the first instance after now, category from the kind", async () => {
    expect(await stored(rulePrompt())).toMatchObject({ schedule: { type: "rule", ...RULE }, until: null, runsLeft: null, nextRunAt: TUESDAYS[0] });
  });

  it("moves COUNT into runsLeft and UNTIL into until; the rule stored has neither", async () => {
    expect(await stored(rulePrompt({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3" }))).toMatchObject({
      schedule: { type: "rule", ...RULE },
      runsLeft: 3,
      until: null,
    });
    // A date UNTIL is that whole day in the chat's zone: its last minute, kept as local time.
    expect(await stored(rulePrompt({ rrule: "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20261231" }))).toMatchObject({
      schedule: { type: "rule", ...RULE },
      runsLeft: null,
      until: "2026-12-31T23:59",
    });
  });

  it("counts COUNT from start: the runs before now are gone", async () => {
    // Daily at 09:00 from 28 Nov: 28, 29, 30 Nov and 1 Dec (08:00Z, before now) ran; 6 of 10 are left.
    expect(await stored(rulePrompt({ rrule: "FREQ=DAILY;COUNT=10", start: "2026-11-28T09:00" }))).toMatchObject({
      runsLeft: 6,
      nextRunAt: ms("2026-12-02T08:00:00Z"),
    });
  });

  it("takes the earlier end when both the rule and the fields say one", async () => {
    expect(await stored(rulePrompt({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3", runsLeft: 2 }))).toMatchObject({ runsLeft: 2 });
    expect(await stored(rulePrompt({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3", runsLeft: 10 }))).toMatchObject({ runsLeft: 3 });
    expect(await stored(rulePrompt({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20261231", until: "2026-12-24T18:00" }))).toMatchObject({
      until: "2026-12-24T18:00",
    });
  });

  it("refuses a start without a rule, a rule without a start, and a watcher on a rule", async () => {
    expect(await problem({ name: "R", kind: "prompt", text: "x", at: "2026-12-08T10:00", start: "2026-12-08T10:00" })).toBe(
      `"start" goes with "rrule" only: it is a rule's first local date-time; for one time use "at".`,
    );
    expect(await problem({ name: "R", kind: "prompt", text: "x", rrule: "FREQ=DAILY" })).toBe(
      `"rrule" needs "start", its first local date-time in the chat's zone, such as "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "start": "2026-12-08T10:00".`,
    );
    expect(await problem({ name: "W", kind: "watcher", command: "true", ...RULE })).toBe(
      `A watcher takes "at" or "cron"; a recurrence rule ("rrule") is for prompt jobs.`,
    );
    expect(await problem(rulePrompt({ cron: "0 9 * * *" }))).toBe(
      `Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".`,
    );
  });

  it("passes on the rule engine's sentences", async () => {
    expect(await problem(rulePrompt({ rrule: "FREQ=SECONDLY" }))).toMatch(/^"rrule" "FREQ=SECONDLY" /);
    expect(await problem(rulePrompt({ rrule: "FREQ=DAILY;COUNT=3", start: "2026-11-01T09:00" }))).toBe(
      `The rule "FREQ=DAILY;COUNT=3" has no runs left: all 3 of its COUNT ran by 2026-11-03 09:00 in Europe/Berlin; give a later start or a larger COUNT.`,
    );
  });
});

describe("validateCreate: until and runsLeft", () => {
  it("store on a cron job; a date alone as until is the end of that day in the chat's zone", async () => {
    expect(await stored({ name: "I", kind: "prompt", text: "x", cron: "0 8 * * *", until: "2026-12-31", runsLeft: 10 })).toMatchObject({
      schedule: { type: "cron", cron: "0 8 * * *" },
      until: "2026-12-31T23:59",
      runsLeft: 10,
      nextRunAt: ms("2026-12-02T07:00:00Z"),
    });
    // null is no end, as leaving it out is.
    expect(await stored({ name: "I", kind: "prompt", text: "x", cron: "0 8 * * *", until: null, runsLeft: null })).toMatchObject({
      until: null,
      runsLeft: null,
    });
  });

  it("apply to recurring jobs only", async () => {
    expect(await problem({ name: "D", kind: "prompt", text: "x", at: "2026-12-08T10:00", until: "2026-12-31" })).toBe(
      `"until" applies only to recurring jobs (cron or rrule): a one-off runs once.`,
    );
    expect(await problem({ name: "D", kind: "prompt", text: "x", delay: "PT1H", runsLeft: 2 })).toBe(
      `"runsLeft" applies only to recurring jobs (cron or rrule): a one-off runs once.`,
    );
  });

  it("refuse an until that passed or comes before the first run, and a runsLeft outside 1–1000", async () => {
    expect(await problem(rulePrompt({ until: "2026-11-30" }))).toBe(`"until" must be in the future; 2026-11-30 23:59 in Europe/Berlin has passed.`);
    expect(await problem(rulePrompt({ until: "2026-12-05" }))).toBe(
      `The schedule ends before its first run: the next is 2026-12-08 10:00 in Europe/Berlin, after "until" (2026-12-05 23:59).`,
    );
    expect(await problem(rulePrompt({ until: "next week" }))).toBe(
      `"until" must be an ISO 8601 date or date and time such as 2026-12-01T09:00 (read in Europe/Berlin) or 2026-12-01T09:00:00Z; got "next week".`,
    );
    expect(await problem(rulePrompt({ runsLeft: 0 }))).toBe(`"runsLeft" must be a whole number of runs from 1 to 1000; got 0.`);
    expect(await problem(rulePrompt({ runsLeft: 1001 }))).toBe(`"runsLeft" must be a whole number of runs from 1 to 1000; got 1001.`);
  });
});

describe("validateEdit: ends", () => {
  const cronSpec = {
    ...jobRecord({ id: "p3xz9", name: "I", schedule: { type: "cron", cron: "0 8 * * *" }, text: "x", createdAt: 0 }),
    runsLeft: 5,
    until: null,
  };
  const edit = (current: JobRecord, input: Parameters<typeof validateEdit>[1]) => validateEdit(current, input, ctx);

  it("keeps a job's ends for a new schedule, and a new rule's COUNT takes the place of runsLeft", async () => {
    const r = await edit(cronSpec, { cron: "30 7 * * *" });
    expect(r.ok && [r.value.spec.runsLeft, r.value.spec.until, r.value.nextRunAt, r.value.scheduleChanged]).toEqual([
      5,
      null,
      ms("2026-12-02T06:30:00Z"),
      true,
    ]);
    const rule = await edit(cronSpec, { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=2", start: RULE.start });
    expect(rule.ok && [rule.value.spec.schedule, rule.value.spec.runsLeft, rule.value.nextRunAt]).toEqual([{ type: "rule", ...RULE }, 2, TUESDAYS[0]]);
  });

  it("drops the ends when the job becomes a one-off", async () => {
    const r = await edit({ ...cronSpec, until: "2026-12-31T23:59" }, { at: "2026-12-10T09:00" });
    expect(r.ok && [r.value.spec.schedule, r.value.spec.runsLeft, r.value.spec.until]).toEqual([{ type: "at", at: ms("2026-12-10T08:00:00Z") }, null, null]);
  });

  it("sets and clears ends alone, checked against the next run from now", async () => {
    const set = await edit(cronSpec, { until: "2026-12-20", runsLeft: null });
    expect(set).toStrictEqual({
      ok: true,
      value: {
        spec: { ...cronSpec, until: "2026-12-20T23:59", runsLeft: null },
        nextRunAt: ms("2026-12-02T07:00:00Z"),
        scheduleChanged: false,
        reopened: false,
      },
    });
    const early = await edit(cronSpec, { until: "2026-12-02T07:59" });
    expect(early).toStrictEqual({
      ok: false,
      error: `The schedule ends before its first run: the next is 2026-12-02 08:00 in Europe/Berlin, after "until" (2026-12-02 07:59).`,
    });
  });

  it("reopens a job whose last run was claimed when it is given more runs", async () => {
    const r = await edit({ ...cronSpec, runsLeft: 0, nextRunAt: null }, { runsLeft: 3 });
    expect(r.ok && [r.value.spec.runsLeft, r.value.nextRunAt, r.value.reopened]).toEqual([3, ms("2026-12-02T07:00:00Z"), true]);
  });

  it("refuses ends on a one-off", async () => {
    const oneOff = jobRecord({ id: "k7m2q", name: "D", schedule: { type: "at", at: ms("2026-12-10T08:00:00Z") }, text: "x", createdAt: 0 });
    expect(await edit(oneOff, { runsLeft: 2 })).toStrictEqual({
      ok: false,
      error: `"runsLeft" applies only to recurring jobs (cron or rrule): a one-off runs once.`,
    });
  });
});

// ── Firing ────────────────────────────────────────────────────────────────────────────────────────────

const fire = (now: number, over: Partial<FireContext> = {}): FireContext => ({
  chatId: "123456789",
  zone: BERLIN,
  now,
  deliverable: true,
  defaultTimeout: 30,
  ...over,
});

/** The rule job, due at its first Tuesday. */
function ruleJob(over: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id: "r2v9x",
    name: "Review",
    schedule: { type: "rule", ...RULE },
    text: "Review the sprint",
    createdAt: NOW,
    nextRunAt: TUESDAYS[0],
    ...over,
  });
}

const due = TUESDAYS[0] + 30_000;

describe("decideFire: a rule job", () => {
  it("claims its run and advances to the rule's next instance", () => {
    const d = decideFire(ruleJob(), fire(due));
    expect(d.action).toBe("claim");
    if (d.action !== "claim") return;
    expect([d.run.runId, d.job.nextRunAt, d.job.runsLeft]).toEqual([`r2v9x:${TUESDAYS[0]}`, TUESDAYS[1], null]);
    expect(d.run.payload?.kind === "prompt" && d.run.payload.message.text).toBe(`[Scheduled job "Review" (r2v9x)]\nReview the sprint`);
  });

  it("fires a rule's instance in Berlin's spring-forward gap once, at 03:00", () => {
    const daily = ruleJob({ schedule: { type: "rule", rrule: "FREQ=DAILY", start: "2026-03-27T02:30" }, nextRunAt: ms("2026-03-28T01:30:00Z") });
    const d = decideFire(daily, fire(ms("2026-03-28T01:30:10Z")));
    // 29 Mar 02:30 does not exist: 03:00 CEST (01:00Z); then 30 Mar 02:30 CEST (00:30Z).
    expect(d.job.nextRunAt).toBe(ms("2026-03-29T01:00:00Z"));
    expect(decideFire({ ...daily, nextRunAt: d.job.nextRunAt }, fire(ms("2026-03-29T01:00:10Z"))).job.nextRunAt).toBe(ms("2026-03-30T00:30:00Z"));
  });
});

describe("decideFire: runsLeft", () => {
  it("counts a claimed run: 3 → 2, with the next run", () => {
    const d = decideFire(ruleJob({ runsLeft: 3 }), fire(due));
    expect(d.action === "claim" && [d.job.runsLeft, d.job.nextRunAt]).toEqual([2, TUESDAYS[1]]);
  });

  it("makes the last one the last: runsLeft 0, no next run, the line after the job line, deleted when it settles", () => {
    const d = decideFire(ruleJob({ runsLeft: 1 }), fire(due));
    if (d.action !== "claim") throw new Error(d.action);
    expect([d.job.runsLeft, d.job.nextRunAt, d.job.runningRunId]).toEqual([0, null, `r2v9x:${TUESDAYS[0]}`]);
    expect(d.run.payload?.kind === "prompt" && d.run.payload.message).toMatchObject({
      text: `[Scheduled job "Review" (r2v9x)]\nThis is the last scheduled run of this job.\nReview the sprint`,
      body: "Review the sprint",
    });
    expect(endsJob(d.job, d.run)).toBe(true);
    // A last run deletes its job whatever its status: nothing is left to resume.
    for (const status of ["delivered", "failed", "matched", "over_budget"] as const) expect(runEnd(d.job, d.run, status)).toBe("delete");
  });

  it("puts the last-run line before the late note", () => {
    expect(promptText({ id: "r2v9x", name: "Review", text: "Go" }, { dueAt: TUESDAYS[0], zone: BERLIN }, true)).toBe(
      `[Scheduled job "Review" (r2v9x)]\n${LAST_RUN_LINE}\nThis was due at 8 Dec 10:00; the bot was offline.\nGo`,
    );
  });

  it("does not count run now, nor an occurrence skipped while a run is in flight", () => {
    const manual = manualRun(ruleJob({ runsLeft: 3 }), fire(due));
    expect(manual.job.runsLeft).toBe(3);
    expect(runEnd(manual.job, manual.run, "delivered")).toBe("keep");
    const skip = decideFire(ruleJob({ runsLeft: 3, runningRunId: "r2v9x:1" }), fire(due));
    expect(skip.action === "skip" && [skip.job.runsLeft, skip.job.nextRunAt, skip.run.status]).toEqual([3, TUESDAYS[1], "skipped"]);
  });

  it("counts a cron job the same way", () => {
    const cron = ruleJob({ schedule: { type: "cron", cron: "0 10 * * 2" }, runsLeft: 2 });
    const d = decideFire(cron, fire(due));
    expect(d.action === "claim" && [d.job.runsLeft, d.job.nextRunAt]).toEqual([1, ms("2026-12-15T09:00:00Z")]);
  });
});

describe("decideFire: until", () => {
  const until = "2026-12-20T23:59";

  it("makes the run before until the last: its next occurrence falls after it", () => {
    const d = decideFire(ruleJob({ until }), fire(due));
    if (d.action !== "claim") throw new Error(d.action);
    expect([d.job.nextRunAt, d.job.runsLeft]).toEqual([null, 0]);
    expect(d.run.payload?.kind === "prompt" && d.run.payload.message.text).toBe(`[Scheduled job "Review" (r2v9x)]\n${LAST_RUN_LINE}\nReview the sprint`);
  });

  it("keeps going while the next occurrence is at or before until", () => {
    // 22 Dec at 10:00 there: an end at that minute keeps it, one a minute before does not.
    expect(advance({ until: "2026-12-22T10:00" }, { type: "rule", ...RULE }, BERLIN, due)).toEqual({ nextRunAt: TUESDAYS[1], ended: false });
    expect(advance({ until: "2026-12-22T09:59" }, { type: "rule", ...RULE }, BERLIN, due)).toEqual({ nextRunAt: null, ended: true });
  });

  it("ends a job due after its until without a run, and one held for an undeliverable chat with nothing left", () => {
    expect(decideFire(ruleJob({ until: "2026-12-08T09:59" }), fire(due)).action).toBe("end");
    expect(decideFire(ruleJob({ until }), fire(due, { deliverable: false }))).toEqual({ action: "end", job: ruleJob({ until, nextRunAt: null, runsLeft: 0 }) });
    // Held with runs left, it advances without counting.
    expect(decideFire(ruleJob({ runsLeft: 2 }), fire(due, { deliverable: false }))).toEqual({
      action: "hold",
      job: ruleJob({ runsLeft: 2, nextRunAt: TUESDAYS[1] }),
    });
  });

  it("marks a job whose end comes while another run is in flight: that run ends it when it settles", () => {
    const skip = decideFire(ruleJob({ until, runningRunId: `r2v9x:${due}` }), fire(due));
    if (skip.action !== "skip") throw new Error(skip.action);
    expect([skip.job.nextRunAt, skip.job.runsLeft]).toEqual([null, 0]);
    expect(runEnd(skip.job, runRecord({ runId: `r2v9x:${due}`, dueAt: due, manual: true }), "delivered")).toBe("delete");
  });
});
