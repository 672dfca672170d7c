/**
 * Notices ahead of a run (docs/telegram.md#notices-ahead), as pure functions: a job's `before` read and refused (at most
 * three durations from a minute to a week, each shorter than the job's shortest interval, none for a job only its hook
 * runs), the shortest interval of a schedule, and the instant of a job's next notice.
 */
import { describe, expect, it } from "vitest";
import { noticeAt, readBefore, shortestInterval } from "../../src/jobs/before";

const H = 3_600_000;
const LIST = `"before" must be a list of at most 3 ISO 8601 durations from PT1M to P7D, such as ["P1D", "PT1H"].`;

describe("a job's before", () => {
  it("keeps up to three durations, longest first, each once", () => {
    expect(readBefore(["PT1H", "P1D", "PT1H"], "at", null)).toEqual({ ok: true, before: [86_400, 3600] });
    expect(readBefore([], "cron", 86_400_000)).toEqual({ ok: true, before: [] });
  });

  it("refuses more than three, one outside a minute to a week, one not shorter than the interval, and any for a hook-only job", () => {
    expect(readBefore(["PT1M", "PT2M", "PT3M", "PT4M"], "at", null)).toEqual({ ok: false, error: LIST });
    expect(readBefore(["PT30S"], "at", null)).toEqual({ ok: false, error: LIST });
    expect(readBefore(["P8D"], "at", null)).toEqual({ ok: false, error: LIST });
    expect(readBefore(["soon"], "at", null)).toEqual({ ok: false, error: LIST });
    expect(readBefore(["PT1H"], "cron", H)).toEqual({
      ok: false,
      error: `"before" PT1H is not shorter than this job's shortest interval between runs (PT1H).`,
    });
    expect(readBefore(["PT5M"], "hook", null)).toEqual({
      ok: false,
      error: `A job only its hook runs has no time to be told of ahead: "before" does not apply.`,
    });
  });

  it("measures a schedule's shortest interval over its next runs", () => {
    const now = Date.parse("2026-12-07T12:00:00Z");
    expect(shortestInterval({ type: "cron", cron: "0 9,13 * * 1-5" }, "Europe/Berlin", now)).toBe(4 * H);
    expect(shortestInterval({ type: "cron", cron: "0 8 * * *" }, "Europe/Berlin", now)).toBe(24 * H);
  });

  it("finds the next notice still to come before the next run; none when paused or without one", () => {
    const run = Date.parse("2026-12-08T08:00:00Z");
    const job = { enabled: true, nextRunAt: run, before: [86_400, 3600] };
    expect(noticeAt(job, run - 2 * 86_400_000)).toBe(run - 86_400_000);
    expect(noticeAt(job, run - 86_400_000)).toBe(run - H);
    expect(noticeAt(job, run - H)).toBeNull();
    expect(noticeAt({ ...job, enabled: false }, 0)).toBeNull();
    expect(noticeAt({ ...job, before: [] }, 0)).toBeNull();
  });
});
