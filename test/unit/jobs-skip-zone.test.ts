/**
 * Decisions of the firing core (docs/api.md#jobs, docs/time.md) that the chat object writes: a skip by hand
 * (`decideSkip`), a zone change (`decideZoneChange`) and a resume (`decideResume`), and how the last two keep an
 * occurrence skipped by hand skipped (issue 32). Every instant is fixed; a daily cron job at 09:00 whose next run
 * is Sunday 27 Sep 2026, 09:00 in Berlin (07:00Z; CEST, UTC+2).
 */
import { describe, expect, it } from "vitest";
import { decideEditNext, decideResume, decideSkip, decideZoneChange } from "../../src/jobs/by-hand";
import { pastSkipped } from "../../src/jobs/fire";
import type { JobRecord, RunRecord } from "../../src/jobs/records";
import { jobRecord } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const BERLIN = "Europe/Berlin";
const NEW_YORK = "America/New_York";
const NEXT = ms("2026-09-27T07:00:00Z");
const NOW = ms("2026-09-26T12:00:00Z");
const TOKYO = "Asia/Tokyo";
const same = (zone: string) => ({ from: zone, to: zone });

function daily(over: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id: "p3xz9",
    name: "Inbox summary",
    schedule: { type: "cron", cron: "0 9 * * *" },
    text: "Summarise my inbox",
    createdAt: ms("2026-09-20T10:00:00Z"),
    nextRunAt: NEXT,
    ...over,
  });
}

describe("decideSkip", () => {
  it("passes over the next occurrence: a settled skipped run of it (by hand, never late) and the next run the day after", () => {
    const skip = decideSkip(daily(), BERLIN, NOW);
    expect(skip).toStrictEqual({
      ok: true,
      value: {
        action: "skip",
        job: daily({ nextRunAt: ms("2026-09-28T07:00:00Z") }),
        run: {
          runId: `p3xz9:${NEXT}`,
          jobId: "p3xz9",
          kind: "prompt",
          manual: false,
          dueAt: NEXT,
          startedAt: NOW,
          finishedAt: NOW,
          state: "settled",
          status: "skipped",
          exitCode: null,
          timedOut: false,
          late: false,
          detail: "skipped by hand",
          leaseUntil: null,
          attempts: 0,
          resends: 0,
          payload: null,
          outputHash: null,
          via: null,
        },
      },
    });
  });

  it("is not late even when the occurrence passed over is long gone (the alarm has not come yet)", () => {
    const skip = decideSkip(daily(), BERLIN, NEXT + 3_600_000);
    if (!skip.ok) throw new Error(skip.error.sentence);
    expect(skip.value.run).toMatchObject({ dueAt: NEXT, startedAt: NEXT + 3_600_000, late: false });
  });

  it("does not count against runsLeft", () => {
    const skip = decideSkip(daily({ runsLeft: 3 }), BERLIN, NOW);
    expect(skip.ok && skip.value.job.runsLeft).toBe(3);
  });

  it("refuses a one-off, a paused job, one with no next run, and a job's last run before its end, each with its sentence", () => {
    const oneOff = daily({ schedule: { type: "at", at: NEXT } });
    expect(decideSkip(oneOff, BERLIN, NOW)).toStrictEqual({
      ok: false,
      error: { sentence: "p3xz9 runs once; cancel or edit it instead.", said: { key: "runsOnce", args: ["p3xz9"] } },
    });
    expect(decideSkip(daily({ enabled: false, nextRunAt: null }), BERLIN, NOW)).toStrictEqual({
      ok: false,
      error: { sentence: "p3xz9 is paused, so it has no next run to skip; resume it first.", said: { key: "nothingToSkip", args: ["p3xz9", true] } },
    });
    expect(decideSkip(daily({ nextRunAt: null }), BERLIN, NOW).ok).toBe(false);
    const last = {
      sentence: "p3xz9's next run is its last before it ends; cancel it instead, or change its end first.",
      said: { key: "lastRun", args: ["p3xz9"] },
    };
    expect(decideSkip(daily({ runsLeft: 1 }), BERLIN, NOW)).toStrictEqual({ ok: false, error: last });
    expect(decideSkip(daily({ until: "2026-09-27T14:00" }), BERLIN, NOW)).toStrictEqual({ ok: false, error: last });
  });
});

describe("decideZoneChange", () => {
  it("moves a recurring job's next run to the new zone's 09:00 strictly after now", () => {
    // Saturday 12:00Z is 08:00 in New York (EDT): its 09:00 that day is 13:00Z.
    expect(decideZoneChange(daily(), { from: BERLIN, to: NEW_YORK }, NOW)).toStrictEqual({
      action: "move",
      job: daily({ nextRunAt: ms("2026-09-26T13:00:00Z") }),
      skips: [],
    });
  });

  it("leaves a one-off, a paused or quarantined job, and one whose last run is in flight (runsLeft 0)", () => {
    const toNewYork = { from: BERLIN, to: NEW_YORK };
    expect(decideZoneChange(daily({ schedule: { type: "at", at: NEXT } }), toNewYork, NOW)).toBeNull();
    expect(decideZoneChange(daily({ enabled: false, nextRunAt: null }), toNewYork, NOW)).toBeNull();
    expect(decideZoneChange(daily({ quarantined: "unreadable" }), toNewYork, NOW)).toBeNull();
    expect(decideZoneChange(daily({ runsLeft: 0, nextRunAt: null }), toNewYork, NOW)).toBeNull();
  });

  it("ends a job whose next run in the new zone falls after its until; with a run in flight, keeps it with no next run", () => {
    // Until Saturday 16:00 wherever the chat is: New York's next 09:00 (Saturday, 13:00Z) comes before it, Berlin's
    // (Sunday, it is 14:00 there now) after it.
    const until = "2026-09-26T16:00";
    const inNewYork = daily({ until, nextRunAt: ms("2026-09-26T13:00:00Z") });
    expect(decideZoneChange(daily({ until }), { from: BERLIN, to: NEW_YORK }, NOW)).toStrictEqual({ action: "move", job: inNewYork, skips: [] });
    expect(decideZoneChange(inNewYork, { from: NEW_YORK, to: BERLIN }, NOW)).toStrictEqual({ action: "end", job: inNewYork });
    const running = daily({ until, runningRunId: "p3xz9:1790000000000" });
    expect(decideZoneChange(running, same(BERLIN), NOW)).toStrictEqual({ action: "move", job: { ...running, nextRunAt: null, runsLeft: 0 }, skips: [] });
  });
});

/** Sunday's 09:00 in Berlin skipped by hand at NOW: the job after the skip, and the skip in its history. */
function skippedSunday(over: Partial<JobRecord> = {}): { job: JobRecord; skip: RunRecord } {
  const decided = decideSkip(daily(over), BERLIN, NOW);
  if (!decided.ok) throw new Error(decided.error.sentence);
  return { job: decided.value.job, skip: decided.value.run };
}

describe("an occurrence skipped by hand stays skipped", () => {
  const MONDAY = ms("2026-09-28T07:00:00Z");

  it("through a change to the zone the chat has: the job keeps Monday, the skip stays where it is", () => {
    const { job, skip } = skippedSunday();
    expect(job.nextRunAt).toBe(MONDAY);
    expect(decideZoneChange(job, same(BERLIN), NOW, [skip])).toStrictEqual({ action: "move", job, skips: [] });
    // Without its history the same change brings Sunday back: the skip is what keeps it away.
    expect(decideZoneChange(job, same(BERLIN), NOW)).toStrictEqual({ action: "move", job: { ...job, nextRunAt: NEXT }, skips: [] });
  });

  it("through a change to another zone: Sunday's 09:00 there is skipped, Monday's runs, and the skip moves to it", () => {
    const { job, skip } = skippedSunday();
    // Saturday 12:00Z is 21:00 in Tokyo: its next 09:00 is Sunday's (00:00Z), the one skipped.
    const sundayTokyo = ms("2026-09-27T00:00:00Z");
    const moved = { ...skip, runId: `p3xz9:${sundayTokyo}`, dueAt: sundayTokyo };
    const toTokyo = decideZoneChange(job, { from: BERLIN, to: TOKYO }, NOW, [skip]);
    expect(toTokyo).toStrictEqual({ action: "move", job: { ...job, nextRunAt: ms("2026-09-28T00:00:00Z") }, skips: [{ was: skip.runId, run: moved }] });
    // And back: Berlin's Sunday is skipped again, its skip where it was.
    expect(decideZoneChange(toTokyo!.job, { from: TOKYO, to: BERLIN }, NOW, [moved])).toStrictEqual({
      action: "move",
      job,
      skips: [{ was: moved.runId, run: skip }],
    });
  });

  it("moves a paused job's skip, for its resume; leaves a skip whose time passed in both zones and one skipped because a run was in flight", () => {
    const { job, skip } = skippedSunday();
    const paused = { ...job, enabled: false, nextRunAt: null };
    const sundayNewYork = ms("2026-09-27T13:00:00Z");
    expect(decideZoneChange(paused, { from: BERLIN, to: NEW_YORK }, NOW, [skip])).toStrictEqual({
      action: "move",
      job: paused,
      skips: [{ was: skip.runId, run: { ...skip, runId: `p3xz9:${sundayNewYork}`, dueAt: sundayNewYork } }],
    });
    // Sunday 20:00Z: Sunday's 09:00 has passed in Berlin and in New York.
    const later = ms("2026-09-27T20:00:00Z");
    expect(decideZoneChange(job, { from: BERLIN, to: NEW_YORK }, later, [skip])).toMatchObject({ action: "move", skips: [] });
    const running = { ...skip, detail: "still running" };
    expect(decideZoneChange(job, same(BERLIN), NOW, [running])?.job.nextRunAt).toBe(NEXT);
  });

  it("through resume, of a job that is not paused and of one that is", () => {
    const { job, skip } = skippedSunday();
    const skipped = new Set([skip.dueAt]);
    expect(decideResume(job, BERLIN, NOW, skipped)).toStrictEqual({ ok: true, value: job });
    expect(decideResume({ ...job, enabled: false, nextRunAt: null }, BERLIN, NOW, skipped)).toStrictEqual({ ok: true, value: job });
    expect(decideResume(job, BERLIN, NOW)).toStrictEqual({ ok: true, value: { ...job, nextRunAt: NEXT } });
  });

  it("passes over every skip in a row, and a resume keeps to a job's end", () => {
    const schedule = { type: "cron" as const, cron: "0 9 * * *" };
    expect(pastSkipped(schedule, BERLIN, NEXT, new Set([NEXT, MONDAY]))).toBe(ms("2026-09-29T07:00:00Z"));
    expect(pastSkipped(schedule, BERLIN, NEXT, new Set([MONDAY]))).toBe(NEXT);
    expect(pastSkipped(schedule, BERLIN, null, new Set([NEXT]))).toBeNull();
    // Until Monday 14:00 in Berlin (12:00Z): with Sunday skipped, Monday's is the last run; once it has passed, none is left.
    const { job, skip } = skippedSunday({ until: "2026-09-28T14:00" });
    const paused = { ...job, nextRunAt: null, enabled: false };
    expect(decideResume(paused, BERLIN, NOW, new Set([skip.dueAt]))).toStrictEqual({ ok: true, value: { ...job, nextRunAt: MONDAY } });
    expect(decideResume(paused, BERLIN, ms("2026-09-28T08:00:00Z"), new Set([skip.dueAt]))).toStrictEqual({
      ok: false,
      error: {
        sentence:
          'Job p3xz9 (Inbox summary) has no scheduled run left: its next run would be after its end (until 28 Sep 14:00). Give it a later "until" or more "runsLeft" (edit it), or cancel it.',
        said: { key: "noRunsLeft", args: ["p3xz9", "Inbox summary", "2026-09-28T14:00"] },
      },
    });
  });
});

describe("decideResume", () => {
  it("puts a one-off at its time and clears a quarantine; refuses a job whose last run has started", () => {
    const oneOff = daily({ schedule: { type: "at", at: NEXT }, enabled: false, nextRunAt: null });
    expect(decideResume(oneOff, BERLIN, NOW)).toStrictEqual({ ok: true, value: { ...oneOff, enabled: true, nextRunAt: NEXT } });
    expect(decideResume(daily({ quarantined: "unreadable" }), BERLIN, NOW)).toStrictEqual({ ok: true, value: daily() });
    expect(decideResume(daily({ runsLeft: 0, nextRunAt: null }), BERLIN, NOW).ok).toBe(false);
  });

  it("keeps what the end said: until Sunday 09:00 keeps Sunday's 09:00 run in the new zone, hours later than in Berlin", () => {
    // Kept as an instant (07:00Z, Berlin's 09:00), the end would fall before New York's Sunday 09:00 (13:00Z) and end the job.
    const until = "2026-09-27T09:00";
    expect(decideZoneChange(daily({ until }), { from: BERLIN, to: NEW_YORK }, NOW)).toStrictEqual({
      action: "move",
      job: daily({ until, nextRunAt: ms("2026-09-26T13:00:00Z") }),
      skips: [],
    });
    const sunday = daily({ until, nextRunAt: ms("2026-09-27T13:00:00Z") });
    expect(decideZoneChange(sunday, { from: BERLIN, to: NEW_YORK }, ms("2026-09-27T00:00:00Z"))).toStrictEqual({ action: "move", job: sunday, skips: [] });
  });
});

describe("decideEditNext", () => {
  it("passes over a skip, and refuses when that takes the last run before the end, naming the end", () => {
    const MONDAY = ms("2026-09-28T07:00:00Z");
    expect(decideEditNext(daily(), NEXT, BERLIN, NOW, new Set([NEXT]))).toStrictEqual({ ok: true, value: MONDAY });
    expect(decideEditNext(daily({ until: "2026-09-28T09:00" }), NEXT, BERLIN, NOW, new Set([NEXT]))).toStrictEqual({ ok: true, value: MONDAY });
    expect(decideEditNext(daily({ until: "2026-09-27T23:59" }), NEXT, BERLIN, NOW, new Set([NEXT]))).toStrictEqual({
      ok: false,
      error: {
        sentence:
          'Job p3xz9 (Inbox summary) has no scheduled run left: its next run would be after its end (until 27 Sep). Give it a later "until" or more "runsLeft" (edit it), or cancel it.',
        // A chat says the end in its language: as stored.
        said: { key: "noRunsLeft", args: ["p3xz9", "Inbox summary", "2026-09-27T23:59"] },
      },
    });
    expect(decideEditNext(daily({ until: "2026-09-27T23:59" }), NEXT, BERLIN, NOW)).toStrictEqual({ ok: true, value: NEXT });
  });

  it("leaves a one-off's time as the edit made it", () => {
    const oneOff = daily({ schedule: { type: "at", at: NEXT } });
    expect(decideEditNext(oneOff, NEXT, BERLIN, NOW, new Set([NEXT]))).toStrictEqual({ ok: true, value: NEXT });
  });
});
