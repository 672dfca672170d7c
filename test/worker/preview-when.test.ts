/**
 * `POST /admin/preview` with rules, ends and words (docs/time.md#words-when, Preview, #descriptions; docs/api.md):
 * `rrule` + `start`, `until` and `runsLeft` stop the occurrences where a job would end; `when` is read as `/remind`
 * and `/every` read it and the answer says what it resolved to (`schedule`), as a create takes it; every form is
 * described in words the reader reads back, in `language`, and a description's zone in parentheses is read as
 * that zone. It is Tue 1 Dec 2026 11:00 in Berlin (`from`).
 */
import { describe, expect, it } from "vitest";
import { call, postJson } from "./helpers";

const FROM = "2026-12-01T10:00:00Z";
const BERLIN = { timeZone: "Europe/Berlin", from: FROM };

async function preview(body: unknown) {
  const res = await call("/admin/preview", postJson(body));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const ok = (body: Record<string, unknown>) => ({ status: 200, body: { timeZone: "Europe/Berlin", notes: [], ...body } });
const badRequest = (message: string) => ({ status: 400, body: { error: { code: "bad_request", message } } });

describe("a rule and its ends", () => {
  it("previews rrule + start, stopping at its COUNT and at until", async () => {
    expect(await preview({ ...BERLIN, rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=2", start: "2026-12-08T10:00" })).toEqual(
      ok({ occurrences: ["2026-12-08T09:00:00.000Z", "2026-12-22T09:00:00.000Z"], description: "every 2 weeks on Tuesday at 10:00 2 times (Europe/Berlin)" }),
    );
    expect(await preview({ ...BERLIN, cron: "0 8 * * *", until: "2026-12-03" })).toEqual(
      ok({ occurrences: ["2026-12-02T07:00:00.000Z", "2026-12-03T07:00:00.000Z"], description: "every day at 08:00 until 2026-12-03 (Europe/Berlin)" }),
    );
  });

  it("refuses a start without a rule, and an end on a one-off", async () => {
    expect(await preview({ ...BERLIN, cron: "0 8 * * *", start: "2026-12-08T10:00" })).toEqual(
      badRequest(`"start" goes with "rrule" only: it is a rule's first local date-time; for one time use "at".`),
    );
    expect(await preview({ ...BERLIN, at: "2026-12-08T10:00", runsLeft: 3 })).toEqual(
      badRequest(`"runsLeft" applies only to recurring jobs (cron or rrule): a one-off runs once.`),
    );
  });
});

describe("when", () => {
  it("reads a rule a person says, and answers the schedule it resolved to", async () => {
    expect(await preview({ ...BERLIN, when: "every other tuesday at 10", count: 3 })).toEqual(
      ok({
        occurrences: ["2026-12-08T09:00:00.000Z", "2026-12-22T09:00:00.000Z", "2027-01-05T09:00:00.000Z"],
        description: "every 2 weeks on Tuesday at 10:00 (Europe/Berlin)",
        schedule: { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-12-08T10:00" },
      }),
    );
  });

  it("reads one time as /remind does, cron as it is, and an end in another language", async () => {
    expect(await preview({ ...BERLIN, when: "tomorrow 9am" })).toEqual(
      ok({
        occurrences: ["2026-12-02T08:00:00.000Z"],
        description: "Wed 2 Dec 09:00 (Europe/Berlin)",
        schedule: { at: "2026-12-02T08:00:00.000Z" },
      }),
    );
    expect(await preview({ ...BERLIN, when: "0 9 * * 1-5", count: 1 })).toEqual(
      ok({ occurrences: ["2026-12-02T08:00:00.000Z"], description: "every weekday at 09:00 (Europe/Berlin)", schedule: { cron: "0 9 * * 1-5" } }),
    );
    expect(await preview({ ...BERLIN, when: "jeden Tag um 8 bis 3. Dezember", language: "de" })).toEqual(
      ok({
        occurrences: ["2026-12-02T07:00:00.000Z", "2026-12-03T07:00:00.000Z"],
        description: "jeden Tag um 08:00 bis 2026-12-03 (Europe/Berlin)",
        schedule: { cron: "0 8 * * *", until: "2026-12-03T23:59" },
      }),
    );
  });

  it("counts the runs said, and an until given beside it wins over the one said", async () => {
    expect(await preview({ ...BERLIN, when: "every 3 days at 9 for 2 times" })).toEqual(
      ok({
        occurrences: ["2026-12-02T08:00:00.000Z", "2026-12-05T08:00:00.000Z"],
        description: "every 3 days at 09:00 2 times (Europe/Berlin)",
        schedule: { rrule: "FREQ=DAILY;INTERVAL=3", start: "2026-12-02T09:00", runsLeft: 2 },
      }),
    );
    expect(await preview({ ...BERLIN, when: "every day at 8 until 10 dec", until: "2026-12-02" })).toEqual(
      ok({
        occurrences: ["2026-12-02T07:00:00.000Z"],
        description: "every day at 08:00 until 2026-12-02 (Europe/Berlin)",
        schedule: { cron: "0 8 * * *", until: "2026-12-02T23:59" },
      }),
    );
  });

  it("says what it did not understand", async () => {
    expect(await preview({ ...BERLIN, when: "evry day" })).toEqual(badRequest(`I couldn't read "evry" as a schedule. Try tomorrow 9:00 or every day at 8:00.`));
    // The whole text is the schedule: what follows it is not read.
    expect(await preview({ ...BERLIN, when: "every day at 8 and then some" })).toEqual(
      badRequest(`I couldn't read "and then some" as a schedule. Try tomorrow 9:00 or every day at 8:00.`),
    );
  });
});

describe("a description", () => {
  it("is in the language asked for, whatever the form, and reads back in its zone as the same schedule", async () => {
    const rule = { ...BERLIN, rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-12-08T10:00", count: 2 };
    const words = {
      en: "every 2 weeks on Tuesday at 10:00 (Europe/Berlin)",
      de: "alle 2 Wochen am Dienstag um 10:00 (Europe/Berlin)",
      fr: "toutes les 2 semaines le mardi à 10:00 (Europe/Berlin)",
      es: "cada 2 semanas el martes a las 10:00 (Europe/Berlin)",
      pt: "a cada 2 semanas na terça-feira às 10:00 (Europe/Berlin)",
      it: "ogni 2 settimane il martedì alle 10:00 (Europe/Berlin)",
      nl: "elke 2 weken op dinsdag om 10:00 (Europe/Berlin)",
      ru: "каждые 2 недели во вторник в 10:00 (Europe/Berlin)",
    };
    const runs = ["2026-12-08T09:00:00.000Z", "2026-12-22T09:00:00.000Z"];
    for (const [language, description] of Object.entries(words)) {
      expect(await preview({ ...rule, language })).toEqual(ok({ occurrences: runs, description }));
      // Read back from a chat in another zone: the zone in parentheses is the one it is read in.
      expect(await preview({ when: description, timeZone: "Asia/Tokyo", from: FROM, count: 2, language })).toEqual(
        ok({ occurrences: runs, description, schedule: { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-12-08T10:00" } }),
      );
    }
    expect(await preview({ ...BERLIN, cron: "30 8 * * 1-5", count: 1, language: "ru" })).toEqual(
      ok({ occurrences: ["2026-12-02T07:30:00.000Z"], description: "по будням в 08:30 (Europe/Berlin)" }),
    );
  });

  it("shows a cron or a rule no phrase says as written, a delay as the time it comes, and reads them back", async () => {
    expect(await preview({ ...BERLIN, cron: "0 0 */2 * 1", count: 1, runsLeft: 5 })).toEqual(
      ok({ occurrences: ["2026-12-06T23:00:00.000Z"], description: "0 0 */2 * 1 5 times (Europe/Berlin)" }),
    );
    expect(await preview({ ...BERLIN, when: "0 0 */2 * 1 5 times (Europe/Berlin)", count: 1 })).toEqual(
      ok({ occurrences: ["2026-12-06T23:00:00.000Z"], description: "0 0 */2 * 1 5 times (Europe/Berlin)", schedule: { cron: "0 0 */2 * 1", runsLeft: 5 } }),
    );
    expect(await preview({ ...BERLIN, delay: "PT20M", language: "de" })).toEqual(
      ok({ occurrences: ["2026-12-01T10:20:00.000Z"], description: "2026-12-01 11:20 (Europe/Berlin)" }),
    );
  });
});
