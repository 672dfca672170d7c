/**
 * The daily agenda's content (docs/telegram.md#agenda), as pure functions: the rest of the day's runs of a chat's jobs
 * in order (a one-off at its time, each occurrence of a recurring job, passing over a skip by hand and stopping at
 * its end; nothing of a paused job or one only its hook runs), and the message that lists them, in the chat's
 * language. Europe/Berlin, Tuesday 8 December 2026 (CET, UTC+1).
 */
import { describe, expect, it } from "vitest";
import { agendaText, dayRuns } from "../../src/jobs/agenda";
import type { JobRecord } from "../../src/jobs/records";
import { ENGLISH, textsOf } from "../../src/texts";
import { jobRecord } from "./records";

const ms = (iso: string) => Date.parse(iso);
const ZONE = "Europe/Berlin";
const FROM = ms("2026-12-08T07:00:00Z"); // 08:00
const TO = ms("2026-12-08T23:00:00Z"); // midnight
const none = () => new Set<number>();

let n = 0;
const job = (over: Partial<JobRecord>): JobRecord =>
  jobRecord({ id: `j${String(++n).padStart(4, "2")}`, name: "x", schedule: { type: "at", at: FROM }, text: "x", createdAt: FROM - 86_400_000, ...over });

describe("the day's runs", () => {
  const jobs = [
    job({ name: "Dentist", schedule: { type: "at", at: ms("2026-12-08T13:30:00Z") }, nextRunAt: ms("2026-12-08T13:30:00Z") }),
    job({ name: "Tomorrow", schedule: { type: "at", at: ms("2026-12-09T08:00:00Z") }, nextRunAt: ms("2026-12-09T08:00:00Z") }),
    job({ name: "Water", schedule: { type: "cron", cron: "0 9,13,18 * * *" }, nextRunAt: ms("2026-12-08T08:00:00Z") }),
    job({
      name: "Price",
      kind: "watcher",
      text: null,
      command: "true",
      schedule: { type: "cron", cron: "0 */6 * * *" },
      nextRunAt: ms("2026-12-08T11:00:00Z"),
    }),
    job({ name: "Paused", schedule: { type: "cron", cron: "0 10 * * *" }, enabled: false, nextRunAt: null }),
    job({ name: "Hooked", schedule: { type: "hook" }, nextRunAt: null }),
    job({ name: "Twice more", schedule: { type: "cron", cron: "0 * * * *" }, nextRunAt: ms("2026-12-08T15:00:00Z"), runsLeft: 2 }),
  ];

  it("lists the runs from the agenda's time to midnight in order (by name at one time); paused, hook-only and tomorrow's are left out", () => {
    const day = dayRuns(jobs, ZONE, FROM, TO, none);
    expect(day.runs.map((r) => `${new Date(r.at).toISOString().slice(11, 16)} ${r.kind} ${r.name}`)).toEqual([
      "08:00 prompt Water",
      "11:00 watcher Price",
      "12:00 prompt Water",
      "13:30 prompt Dentist",
      "15:00 prompt Twice more",
      "16:00 prompt Twice more",
      "17:00 watcher Price",
      "17:00 prompt Water",
    ]);
    expect(day.more).toBe(0);
  });

  it("passes over an occurrence skipped by hand", () => {
    const water = jobs[2]!;
    const day = dayRuns([water], ZONE, FROM, TO, (id) => (id === water.id ? new Set([ms("2026-12-08T12:00:00Z")]) : new Set()));
    expect(day.runs.map((r) => new Date(r.at).toISOString().slice(11, 16))).toEqual(["08:00", "17:00"]);
  });

  it("says the day in the chat's language, each run's local time, kind and name; nothing for an empty day", async () => {
    const day = dayRuns(jobs.slice(0, 4), ZONE, FROM, TO, none);
    expect(agendaText(day, ZONE, FROM, ENGLISH.t)).toBe(
      [
        "**Today** (Tue 8 Dec, Europe/Berlin)",
        "09:00 💬 Water",
        "12:00 🔍 Price",
        "13:00 💬 Water",
        "14:30 💬 Dentist",
        "18:00 🔍 Price",
        "18:00 💬 Water",
      ].join("\n"),
    );
    const de = await textsOf("de");
    expect(agendaText(day, ZONE, FROM, de)?.split("\n")[0]).toBe(de.agenda.title("Di., 8. Dez.", ZONE));
    expect(agendaText({ runs: [], more: 0 }, ZONE, FROM, ENGLISH.t)).toBeNull();
  });

  it("lists at most 50 and says how many more", () => {
    const busy = job({ name: "Tick", schedule: { type: "cron", cron: "*/10 * * * *" }, nextRunAt: FROM });
    const day = dayRuns([busy], ZONE, FROM, TO, none);
    expect([day.runs.length, day.more]).toEqual([50, 46]);
    expect(agendaText(day, ZONE, FROM, ENGLISH.t)?.split("\n").at(-1)).toBe("and 46 more: see /jobs");
  });
});
