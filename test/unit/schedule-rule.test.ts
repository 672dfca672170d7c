/**
 * The one rule of a schedule's fields (docs/api.md, docs/time.md; issue 11): create, preview and the schedule tool need
 * exactly one of `at`, `cron`, `delay`, an edit at most one, and every refusal is the same sentence.
 */
import { describe, expect, it } from "vitest";
import { ONE_SCHEDULE, oneSchedule } from "../../src/schemas/schedule";

const refused = { ok: false, error: 'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".' };

describe("oneSchedule", () => {
  it("names the fields and shows an accepted form", () => {
    expect(ONE_SCHEDULE).toBe(refused.error);
  });

  it("answers the one field given, as the only key", () => {
    expect(oneSchedule({ cron: "0 8 * * 1-5" })).toStrictEqual({ ok: true, value: { cron: "0 8 * * 1-5" } });
    expect(oneSchedule({ at: "2031-06-02T09:30", cron: null, delay: undefined })).toStrictEqual({ ok: true, value: { at: "2031-06-02T09:30" } });
    expect(oneSchedule({ delay: "PT20M" }, { optional: true })).toStrictEqual({ ok: true, value: { delay: "PT20M" } });
  });

  it("refuses none where one is needed, and more than one always, with the same sentence", () => {
    expect(oneSchedule({})).toStrictEqual(refused);
    expect(oneSchedule({ at: null, cron: null, delay: null })).toStrictEqual(refused);
    expect(oneSchedule({ at: "2031-01-01", cron: "0 9 * * *" })).toStrictEqual(refused);
    expect(oneSchedule({ at: "2031-01-01", cron: "0 9 * * *", delay: "PT1H" }, { optional: true })).toStrictEqual(refused);
  });

  it("lets an edit give none (null: the schedule stays)", () => {
    expect(oneSchedule({ cron: null }, { optional: true })).toStrictEqual({ ok: true, value: null });
  });

  it("counts an empty string as given (the time rules then refuse it with their own sentence)", () => {
    expect(oneSchedule({ cron: "" })).toStrictEqual({ ok: true, value: { cron: "" } });
  });
});
