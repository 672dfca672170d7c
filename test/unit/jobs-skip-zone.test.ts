/**
 * Two decisions of the firing core (docs/api.md#jobs, docs/time.md) that the chat object writes through `Firing.apply`:
 * a skip by hand (`decideSkip`) and a zone change (`decideZoneChange`). Every instant is fixed; a daily cron job at
 * 09:00 whose next run is Sunday 27 Sep 2026, 09:00 in Berlin (07:00Z; CEST, UTC+2).
 */
import { describe, expect, it } from "vitest";
import { decideSkip, decideZoneChange } from "../../src/jobs/fire";
import type { JobRecord } from "../../src/jobs/records";
import { jobRecord } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const BERLIN = "Europe/Berlin";
const NEW_YORK = "America/New_York";
const NEXT = ms("2026-09-27T07:00:00Z");
const NOW = ms("2026-09-26T12:00:00Z");

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
        },
      },
    });
  });

  it("is not late even when the occurrence passed over is long gone (the alarm has not come yet)", () => {
    const skip = decideSkip(daily(), BERLIN, NEXT + 3_600_000);
    expect(skip.ok && skip.value.run.late).toBe(false);
  });

  it("does not count against runsLeft", () => {
    const skip = decideSkip(daily({ runsLeft: 3 }), BERLIN, NOW);
    expect(skip.ok && skip.value.job.runsLeft).toBe(3);
  });

  it("refuses a one-off, a paused job, one with no next run, and a job's last run before its end, each with its sentence", () => {
    const oneOff = daily({ schedule: { type: "at", at: NEXT } });
    expect(decideSkip(oneOff, BERLIN, NOW)).toStrictEqual({ ok: false, error: "p3xz9 runs once; cancel or edit it instead." });
    expect(decideSkip(daily({ enabled: false, nextRunAt: null }), BERLIN, NOW).ok).toBe(false);
    expect(decideSkip(daily({ nextRunAt: null }), BERLIN, NOW).ok).toBe(false);
    const last = "p3xz9's next run is its last before it ends; cancel it instead, or change its end first.";
    expect(decideSkip(daily({ runsLeft: 1 }), BERLIN, NOW)).toStrictEqual({ ok: false, error: last });
    expect(decideSkip(daily({ until: "2026-09-27T14:00" }), BERLIN, NOW)).toStrictEqual({ ok: false, error: last });
  });
});

describe("decideZoneChange", () => {
  it("moves a recurring job's next run to the new zone's 09:00 strictly after now", () => {
    // Saturday 12:00Z is 08:00 in New York (EDT): its 09:00 that day is 13:00Z.
    expect(decideZoneChange(daily(), NEW_YORK, NOW)).toStrictEqual({ action: "move", job: daily({ nextRunAt: ms("2026-09-26T13:00:00Z") }) });
  });

  it("leaves a one-off, a paused or quarantined job, and one whose last run is in flight (runsLeft 0)", () => {
    expect(decideZoneChange(daily({ schedule: { type: "at", at: NEXT } }), NEW_YORK, NOW)).toBeNull();
    expect(decideZoneChange(daily({ enabled: false, nextRunAt: null }), NEW_YORK, NOW)).toBeNull();
    expect(decideZoneChange(daily({ quarantined: "unreadable" }), NEW_YORK, NOW)).toBeNull();
    expect(decideZoneChange(daily({ runsLeft: 0, nextRunAt: null }), NEW_YORK, NOW)).toBeNull();
  });

  it("ends a job whose next run in the new zone falls after its until; with a run in flight, keeps it with no next run", () => {
    // Until Saturday 16:00 wherever the chat is: New York's next 09:00 (Saturday, 13:00Z) comes before it, Berlin's
    // (Sunday, it is 14:00 there now) after it.
    const until = "2026-09-26T16:00";
    const inNewYork = daily({ until, nextRunAt: ms("2026-09-26T13:00:00Z") });
    expect(decideZoneChange(daily({ until }), NEW_YORK, NOW)).toStrictEqual({ action: "move", job: inNewYork });
    expect(decideZoneChange(inNewYork, BERLIN, NOW)).toStrictEqual({ action: "end", job: inNewYork });
    const running = daily({ until, runningRunId: "p3xz9:1790000000000" });
    expect(decideZoneChange(running, BERLIN, NOW)).toStrictEqual({ action: "move", job: { ...running, nextRunAt: null, runsLeft: 0 } });
  });

  it("keeps what the end said: until Sunday 09:00 keeps Sunday's 09:00 run in the new zone, hours later than in Berlin", () => {
    // Kept as an instant (07:00Z, Berlin's 09:00), the end would fall before New York's Sunday 09:00 (13:00Z) and end the job.
    const until = "2026-09-27T09:00";
    expect(decideZoneChange(daily({ until }), NEW_YORK, NOW)).toStrictEqual({
      action: "move",
      job: daily({ until, nextRunAt: ms("2026-09-26T13:00:00Z") }),
    });
    const sunday = daily({ until, nextRunAt: ms("2026-09-27T13:00:00Z") });
    expect(decideZoneChange(sunday, NEW_YORK, ms("2026-09-27T00:00:00Z"))).toStrictEqual({ action: "move", job: sunday });
  });
});
