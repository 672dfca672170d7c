/**
 * The texts of rule jobs and jobs that end (docs/time.md#jobs-that-end-until-and-runsleft, docs/telegram.md `/jobs`): a rule in plain words in the job line,
 * what is left (`· 3 runs left`, `· until 31 Dec`), the tools' create reply, and the sentence for a resume with
 * nothing left. It is Tue 1 Dec 2026 11:00 in Berlin (10:00Z).
 */
import { describe, expect, it } from "vitest";
import { createdText, jobLine, jobList, noRunsLeftText, untilText } from "../../src/jobs/texts";
import type { Job } from "../../src/schemas/jobs";
import { jobView } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const BERLIN = "Europe/Berlin";
const NOW = ms("2026-12-01T10:00:00Z");

/** A recurring prompt job as clients see it, no end unless `over` says one. */
const job = (over: Partial<Job> & Pick<Job, "id" | "name" | "schedule">): Job => jobView({ until: null, runsLeft: null, ...over });

const review = job({
  id: "r2v9x",
  name: "Review",
  schedule: { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-12-08T10:00" },
  nextRunAt: "2026-12-08T09:00:00.000Z",
});

describe("the job line of a rule job and of a job that ends", () => {
  it("shows a stored rule that no longer reads as written", () => {
    const unread = { ...review, schedule: { rrule: "FREQ=SECONDLY", start: "2026-12-08T10:00" } };
    expect(jobLine(unread, BERLIN, NOW)).toBe("`r2v9x` 💬 Review · `FREQ=SECONDLY` from 2026-12-08 10:00 · next 8 Dec 10:00");
  });

  it("speaks a rule in plain words", () => {
    expect(jobLine(review, BERLIN, NOW)).toBe("`r2v9x` 💬 Review · every 2 weeks on Tuesday at 10:00 · next 8 Dec 10:00");
    const lastWorkday = job({
      id: "m4k8d",
      name: "Invoices",
      schedule: { rrule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", start: "2026-12-01T17:00" },
      nextRunAt: "2026-12-31T16:00:00.000Z",
    });
    expect(jobLine(lastWorkday, BERLIN, NOW)).toBe("`m4k8d` 💬 Invoices · every month on the last working day at 17:00 · next 31 Dec 17:00");
  });

  it("shows the runs left, an until (its time when it is not a day's end, its year when not this one), and the last run", () => {
    expect(jobLine({ ...review, runsLeft: 3 }, BERLIN, NOW)).toBe("`r2v9x` 💬 Review · every 2 weeks on Tuesday at 10:00 · next 8 Dec 10:00 · 3 runs left");
    expect(jobLine({ ...review, runsLeft: 1 }, BERLIN, NOW)).toBe("`r2v9x` 💬 Review · every 2 weeks on Tuesday at 10:00 · next 8 Dec 10:00 · 1 run left");
    const inbox = job({
      id: "p3xz9",
      name: "Inbox",
      schedule: { cron: "0 8 * * 1-5" },
      nextRunAt: "2026-12-02T07:00:00.000Z",
      until: "2026-12-31T23:59",
    });
    expect(jobLine(inbox, BERLIN, NOW)).toBe("`p3xz9` 💬 Inbox · every weekday at 08:00 · next 2 Dec 08:00 · until 31 Dec");
    expect(jobLine({ ...inbox, until: "2027-01-15T18:00", runsLeft: 20 }, BERLIN, NOW)).toBe(
      "`p3xz9` 💬 Inbox · every weekday at 08:00 · next 2 Dec 08:00 · 20 runs left · until 15 Jan 2027 18:00",
    );
    // Its last run claimed and in flight: no next run, nothing else left.
    expect(jobLine({ ...inbox, nextRunAt: null, runsLeft: 0, running: true }, BERLIN, NOW)).toBe(
      "`p3xz9` 💬 Inbox · every weekday at 08:00 · last run · running",
    );
  });

  it("lists them in /jobs and the tools' create reply", () => {
    expect(jobList([{ ...review, runsLeft: 3 }], BERLIN, NOW)).toBe(
      "**Scheduled jobs** (Europe/Berlin, now 1 Dec 11:00)\n`r2v9x` 💬 Review · every 2 weeks on Tuesday at 10:00 · next 8 Dec 10:00 · 3 runs left",
    );
    expect(createdText({ ...review, runsLeft: 3 }, [ms("2026-12-08T09:00:00Z"), ms("2026-12-22T09:00:00Z"), ms("2027-01-05T09:00:00Z")], BERLIN, NOW)).toBe(
      [
        "Created `r2v9x` 💬 Review · every 2 weeks on Tuesday at 10:00 · next 8 Dec 10:00 · 3 runs left",
        "Next runs: 8 Dec 10:00, 22 Dec 10:00, 5 Jan 2027 10:00.",
        "Now: Tue 2026-12-01 11:00 (Europe/Berlin, UTC+01:00)",
      ].join("\n"),
    );
  });
});

describe("untilText and a resume with nothing left", () => {
  it("formats an until as it was said: its day, with its time unless it is the day's last minute, and a year not this one", () => {
    expect(untilText("2026-12-31T23:59", BERLIN, NOW)).toBe("31 Dec");
    expect(untilText("2026-12-31T23:58", BERLIN, NOW)).toBe("31 Dec 23:58");
    expect(untilText("2026-12-24T18:00", BERLIN, NOW)).toBe("24 Dec 18:00");
    expect(untilText("2027-03-01T23:59", BERLIN, NOW)).toBe("1 Mar 2027");
    // The same words in any zone: the local date-time is what was said.
    expect(untilText("2027-03-31T23:59", "Asia/Tokyo", NOW)).toBe("31 Mar 2027");
  });

  it("says why a job cannot be resumed", () => {
    expect(noRunsLeftText({ id: "r2v9x", name: "Review", until: "2026-12-20T23:59", runsLeft: null }, BERLIN, NOW).sentence).toBe(
      `Job r2v9x (Review) has no scheduled run left: its next run would be after its end (until 20 Dec). Give it a later "until" or more "runsLeft" (edit it), or cancel it.`,
    );
    expect(noRunsLeftText({ id: "r2v9x", name: "Review", until: null, runsLeft: 0 }, BERLIN, NOW).sentence).toBe(
      `Job r2v9x (Review) has no scheduled run left: its last scheduled run has started. Give it a later "until" or more "runsLeft" (edit it), or cancel it.`,
    );
  });
});
