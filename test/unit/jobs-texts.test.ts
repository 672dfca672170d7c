/**
 * Every text a job produces (docs/time.md, docs/api.md, docs/telegram.md): the prompt and its late note, the job line and list of `/jobs`,
 * the tool replies and the zone-change reply with its plurals. It is Sat 26 Sep 2026 14:03 in Berlin
 * (12:03Z) unless a case says otherwise.
 */
import { describe, expect, it } from "vitest";
import {
  cancelledText,
  createdText,
  jobLine,
  jobList,
  lateNote,
  noJobText,
  pausedText,
  promptText,
  resumedText,
  runningNowText,
  sortJobs,
  stillRunningText,
  tooManyJobsText,
  zoneChangedText,
} from "../../src/jobs/texts";
import type { Job } from "../../src/schemas/jobs";
import { jobView } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const BERLIN = "Europe/Berlin";
const NOW = ms("2026-09-26T12:03:00Z");

const job = jobView;

// The four jobs of docs/telegram.md.
const dentist = job({ id: "k7m2q", name: "Call the dentist", schedule: { at: "2026-09-27T07:00:00.000Z" } });
const inbox = job({ id: "p3xz9", name: "Inbox summary", schedule: { cron: "0 8 * * 1-5" }, nextRunAt: "2026-09-28T06:00:00.000Z" });
const price = job({
  id: "w8r4t",
  name: "Price check",
  kind: "watcher",
  category: "monitoring",
  schedule: { cron: "*/10 * * * *" },
  nextRunAt: "2026-09-26T12:10:00.000Z",
  lastResult: { status: "failed", exitCode: 1, timedOut: false, stderrTail: "boom", at: "2026-09-26T12:00:01.000Z" },
});
const stretch = job({ id: "q2m8v", name: "Stretch", schedule: { cron: "0 */2 * * *" }, enabled: false, nextRunAt: null });

describe("promptText and the late note", () => {
  const j = { id: "k7m2q", name: "Call the dentist", text: "Call them\nabout the filling" };

  it("is the header and the text, with the late note between them when late", () => {
    expect(promptText(j, null)).toBe('[Scheduled job "Call the dentist" (k7m2q)]\nCall them\nabout the filling');
    expect(promptText(j, { dueAt: ms("2026-09-27T07:00:00Z"), zone: BERLIN })).toBe(
      '[Scheduled job "Call the dentist" (k7m2q)]\nThis was due at 27 Sep 09:00; the bot was offline.\nCall them\nabout the filling',
    );
  });

  it("names the due time as d MMM HH:mm in the zone, across midnight and without a year", () => {
    expect(lateNote(ms("2026-09-26T22:30:00Z"), BERLIN)).toBe("This was due at 27 Sep 00:30; the bot was offline.");
    expect(lateNote(ms("2026-09-26T22:30:00Z"), "America/New_York")).toBe("This was due at 26 Sep 18:30; the bot was offline.");
    expect(lateNote(ms("2025-12-31T23:00:00Z"), BERLIN)).toBe("This was due at 1 Jan 00:00; the bot was offline.");
  });
});

describe("jobLine", () => {
  it("shows the four forms of docs/telegram.md", () => {
    expect(jobLine(dentist, BERLIN, NOW)).toBe("`k7m2q` 💬 Call the dentist · once 27 Sep 09:00");
    expect(jobLine(inbox, BERLIN, NOW)).toBe("`p3xz9` 💬 Inbox summary · every weekday at 08:00 · next 28 Sep 08:00");
    expect(jobLine(price, BERLIN, NOW)).toBe("`w8r4t` 🔍 Price check · every 10 minutes · next 14:10 · last: failed (exit 1)");
    expect(jobLine(stretch, BERLIN, NOW)).toBe("`q2m8v` 💬 Stretch · every 2 hours · paused");
  });

  it("shows a one-off today as HH:mm, another year with the year, paused and running", () => {
    expect(jobLine(job({ id: "a2345", name: "Tea", schedule: { at: "2026-09-26T21:59:00.000Z" } }), BERLIN, NOW)).toBe("`a2345` 💬 Tea · once 23:59");
    expect(jobLine(job({ id: "a2345", name: "Tea", schedule: { at: "2026-09-26T22:00:00.000Z" } }), BERLIN, NOW)).toBe("`a2345` 💬 Tea · once 27 Sep 00:00");
    expect(jobLine(job({ id: "a2345", name: "Tea", schedule: { at: "2027-01-02T08:00:00.000Z" } }), BERLIN, NOW)).toBe(
      "`a2345` 💬 Tea · once 2 Jan 2027 09:00",
    );
    expect(jobLine({ ...dentist, enabled: false, nextRunAt: null }, BERLIN, NOW)).toBe("`k7m2q` 💬 Call the dentist · once 27 Sep 09:00 · paused");
    expect(jobLine({ ...inbox, running: true }, BERLIN, NOW)).toBe("`p3xz9` 💬 Inbox summary · every weekday at 08:00 · next 28 Sep 08:00 · running");
  });

  it("says when an enabled cron job has no next run", () => {
    expect(jobLine({ ...inbox, nextRunAt: null }, BERLIN, NOW)).toBe("`p3xz9` 💬 Inbox summary · every weekday at 08:00 · no next run");
  });

  it("shows a failed last result with its exit code and timed-out flag, a transient one, and one over budget; nothing else", () => {
    const last = (lastResult: Job["lastResult"]) =>
      jobLine({ ...price, lastResult }, BERLIN, NOW)
        .split(" · ")
        .slice(3)
        .join(" · ");
    const at = "2026-09-26T12:00:01.000Z";
    expect(last({ status: "failed", exitCode: 137, timedOut: true, at })).toBe("last: failed (exit 137, timed out)");
    expect(last({ status: "failed", exitCode: null, timedOut: true, at })).toBe("last: failed (timed out)");
    expect(last({ status: "failed", exitCode: null, timedOut: false, at })).toBe("last: failed");
    expect(last({ status: "failed", at })).toBe("last: failed");
    expect(last({ status: "transient", exitCode: 75, timedOut: false, at })).toBe("last: transient (exit 75)");
    expect(last({ status: "over_budget", exitCode: 0, timedOut: false, at })).toBe("last: over budget");
    expect(last({ status: "matched", at })).toBe("");
    expect(last({ status: "silent", at })).toBe("");
    expect(last(null)).toBe("");
  });
});

describe("sortJobs and jobList", () => {
  it("lists by next run, paused last, with the zone and now in the header", () => {
    expect(jobList([stretch, inbox, dentist, price], BERLIN, NOW)).toBe(
      [
        "**Scheduled jobs** (Europe/Berlin, now 26 Sep 14:03)",
        "`w8r4t` 🔍 Price check · every 10 minutes · next 14:10 · last: failed (exit 1)",
        "`k7m2q` 💬 Call the dentist · once 27 Sep 09:00",
        "`p3xz9` 💬 Inbox summary · every weekday at 08:00 · next 28 Sep 08:00",
        "`q2m8v` 💬 Stretch · every 2 hours · paused",
      ].join("\n"),
    );
  });

  it("says so when there are no jobs", () => {
    expect(jobList([], BERLIN, NOW)).toBe("No scheduled jobs.");
  });

  it("orders a fired one-off by its time, a cron job without a next run after all timed ones, ties by creation", () => {
    const fired = { ...dentist, id: "f1111", nextRunAt: null, running: true, schedule: { at: "2026-09-26T12:00:00.000Z" } };
    const stuck = { ...inbox, id: "s1111", nextRunAt: null };
    const late = { ...dentist, id: "l1111", schedule: { at: "2030-01-01T00:00:00.000Z" }, nextRunAt: "2030-01-01T00:00:00.000Z" };
    const twinOld = { ...inbox, id: "t1111", createdAt: "2026-09-01T00:00:00.000Z" };
    const twinNew = { ...inbox, id: "t2222", createdAt: "2026-09-02T00:00:00.000Z" };
    const pausedOld = { ...stretch, id: "x1111", createdAt: "2026-09-01T00:00:00.000Z" };
    const input = [pausedOld, stuck, twinNew, late, stretch, twinOld, fired, price];
    const before = input.map((j) => j.id);
    expect(sortJobs(input).map((j) => j.id)).toStrictEqual(["f1111", "w8r4t", "t1111", "t2222", "l1111", "s1111", "x1111", "q2m8v"]);
    expect(input.map((j) => j.id)).toStrictEqual(before);
  });
});

describe("tool and command replies", () => {
  it("answers create with the job line, the next runs and the Now: line", () => {
    const runs = [ms("2026-09-28T06:00:00Z"), ms("2026-09-29T06:00:00Z"), ms("2026-09-30T06:00:00Z")];
    expect(createdText(inbox, runs, BERLIN, NOW)).toBe(
      [
        "Created `p3xz9` 💬 Inbox summary · every weekday at 08:00 · next 28 Sep 08:00",
        "Next runs: 28 Sep 08:00, 29 Sep 08:00, 30 Sep 08:00.",
        "Now: Sat 2026-09-26 14:03 (Europe/Berlin, UTC+02:00)",
      ].join("\n"),
    );
    expect(createdText(dentist, [ms("2026-09-27T07:00:00Z")], "America/New_York", NOW)).toBe(
      "Created `k7m2q` 💬 Call the dentist · once 27 Sep 03:00\nNow: Sat 2026-09-26 08:03 (America/New_York, UTC-04:00)",
    );
  });

  it("answers resume with the next run, or says there is none", () => {
    expect(resumedText({ ...dentist, nextRunAt: "2026-09-28T06:00:00.000Z" }, BERLIN, NOW)).toBe("Resumed k7m2q (Call the dentist); next 28 Sep 08:00.");
    expect(resumedText(price, BERLIN, NOW)).toBe("Resumed w8r4t (Price check); next 14:10.");
    expect(resumedText(stretch, BERLIN, NOW)).toBe("Resumed q2m8v (Stretch); it has no next run.");
  });

  it("has the sentences of docs/api.md#jobs and docs/telegram.md", () => {
    const d = { id: "k7m2q", name: "Call the dentist" };
    expect(cancelledText(d)).toBe("Cancelled k7m2q (Call the dentist).");
    expect(pausedText(d)).toBe("Paused k7m2q (Call the dentist).");
    expect(runningNowText(d)).toBe("Running k7m2q (Call the dentist) now.");
    expect(noJobText("k7m2q")).toBe("No job k7m2q in this chat.");
    expect(stillRunningText("k7m2q").sentence).toBe("Job k7m2q is still running.");
    expect(tooManyJobsText(50).sentence).toBe("This chat already has 50 jobs (the limit); cancel one first.");
  });
});

describe("zoneChangedText", () => {
  const TOKYO = "Asia/Tokyo";
  // 27 Sep 02:15 in Tokyo.
  const now = ms("2026-09-26T17:15:00Z");
  const head = "Time zone set to Asia/Tokyo (UTC+09:00). Now 27 Sep 02:15.";
  /** One-offs at 16:00, 17:00 … on 27 Sep in Tokyo. */
  const oneOffs = (n: number) => Array.from({ length: n }, (_, i) => ms("2026-09-27T07:00:00Z") + i * 3_600_000);

  it("is the reply of docs/time.md", () => {
    expect(zoneChangedText(TOKYO, false, now, 2, oneOffs(1))).toBe(
      `${head} 2 recurring jobs now follow this zone; 1 one-off job keeps its time (now 27 Sep 16:00 here).`,
    );
  });

  it("leaves the job clause out when the chat has no jobs, and marks the default zone", () => {
    expect(zoneChangedText(TOKYO, false, now, 0, [])).toBe(head);
    expect(zoneChangedText(BERLIN, true, now, 0, [])).toBe("Time zone set to Europe/Berlin (UTC+02:00, default). Now 26 Sep 19:15.");
  });

  it("uses the singular and plural forms", () => {
    expect(zoneChangedText(TOKYO, false, now, 1, [])).toBe(`${head} 1 recurring job now follows this zone.`);
    expect(zoneChangedText(TOKYO, false, now, 3, [])).toBe(`${head} 3 recurring jobs now follow this zone.`);
    expect(zoneChangedText(TOKYO, false, now, 0, oneOffs(1))).toBe(`${head} 1 one-off job keeps its time (now 27 Sep 16:00 here).`);
    expect(zoneChangedText(TOKYO, false, now, 1, oneOffs(2).reverse())).toBe(
      `${head} 1 recurring job now follows this zone; 2 one-off jobs keep their times (now 27 Sep 16:00 and 27 Sep 17:00 here).`,
    );
  });

  it("lists up to three one-offs by time, then how many more", () => {
    expect(zoneChangedText(TOKYO, false, now, 0, oneOffs(3))).toBe(
      `${head} 3 one-off jobs keep their times (now 27 Sep 16:00, 27 Sep 17:00 and 27 Sep 18:00 here).`,
    );
    expect(zoneChangedText(TOKYO, false, now, 0, oneOffs(4))).toBe(
      `${head} 4 one-off jobs keep their times (now 27 Sep 16:00, 27 Sep 17:00, 27 Sep 18:00 and 1 more here).`,
    );
    const shuffled = [...oneOffs(6)].sort((a, b) => (a % 7_200_000) - (b % 7_200_000) || b - a);
    expect(zoneChangedText(TOKYO, false, now, 2, shuffled)).toBe(
      `${head} 2 recurring jobs now follow this zone; 6 one-off jobs keep their times (now 27 Sep 16:00, 27 Sep 17:00, 27 Sep 18:00 and 3 more here).`,
    );
  });

  it("adds the year to a time in another year of the new zone, with a negative offset", () => {
    // 31 Dec 2026 20:00 in New York is already 2027 in UTC; the one-off is 1 Jan 2027 09:00 there.
    expect(zoneChangedText("America/New_York", false, ms("2027-01-01T01:00:00Z"), 0, [ms("2027-01-01T14:00:00Z"), ms("2027-01-01T04:30:00Z")])).toBe(
      "Time zone set to America/New_York (UTC-05:00). Now 31 Dec 20:00. 2 one-off jobs keep their times (now 31 Dec 23:30 and 1 Jan 2027 09:00 here).",
    );
  });

  it("shows a half-hour offset", () => {
    expect(zoneChangedText("Asia/Kolkata", false, now, 1, [])).toBe(
      "Time zone set to Asia/Kolkata (UTC+05:30). Now 26 Sep 22:45. 1 recurring job now follows this zone.",
    );
  });
});
