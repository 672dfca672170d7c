/**
 * An end said alone, for `/edit <id> until March`, `/edit <id> 10 times`, `/edit <id> no end` (docs/telegram.md),
 * in the eight languages: the until a local date-time in the chat's zone (a date alone its last minute, a month
 * alone the minute before it begins), the runs counted, both null for no end; anything else is no end alone.
 * Now is Mon 7 Dec 2026 11:00 in Berlin.
 */
import { describe, expect, it } from "vitest";
import { readEnds } from "../../src/words";

const NOW = Date.parse("2026-12-07T10:00:00Z");
const read = (text: string, language = "en") => readEnds(text, { zone: "Europe/Berlin", now: NOW, language });

describe("readEnds", () => {
  it.each([
    ["en", "until March", { until: "2027-02-28T23:59" }],
    ["en", "until 31 march", { until: "2027-03-31T23:59" }],
    ["en", "until 15 jan 18:00", { until: "2027-01-15T18:00" }],
    ["en", "10 times", { runsLeft: 10 }],
    ["en", "10 times until 31 dec", { until: "2026-12-31T23:59", runsLeft: 10 }],
    ["en", "no end", { until: null, runsLeft: null }],
    ["en", "Forever.", { until: null, runsLeft: null }],
    ["de", "bis März", { until: "2027-02-28T23:59" }],
    ["de", "bis 31. März", { until: "2027-03-31T23:59" }],
    ["de", "10-mal", { runsLeft: 10 }],
    ["de", "kein Ende", { until: null, runsLeft: null }],
    ["fr", "jusqu'au 31 mars", { until: "2027-03-31T23:59" }],
    ["fr", "10 fois", { runsLeft: 10 }],
    ["fr", "sans fin", { until: null, runsLeft: null }],
    ["es", "hasta el 31 de marzo", { until: "2027-03-31T23:59" }],
    ["es", "10 veces", { runsLeft: 10 }],
    ["es", "sin fin", { until: null, runsLeft: null }],
    ["pt", "até 31 de março", { until: "2027-03-31T23:59" }],
    ["pt", "10 vezes", { runsLeft: 10 }],
    ["pt", "sem fim", { until: null, runsLeft: null }],
    ["pt", "até março", { until: "2027-02-28T23:59" }],
    ["it", "fino al 31 marzo", { until: "2027-03-31T23:59" }],
    ["it", "10 volte", { runsLeft: 10 }],
    ["it", "senza fine", { until: null, runsLeft: null }],
    ["nl", "tot 31 maart", { until: "2027-03-31T23:59" }],
    ["nl", "10 keer", { runsLeft: 10 }],
    ["nl", "geen einde", { until: null, runsLeft: null }],
    ["ru", "до 31 марта", { until: "2027-03-31T23:59" }],
    ["ru", "10 раз", { runsLeft: 10 }],
    ["ru", "без конца", { until: null, runsLeft: null }],
  ])("%s: %s → %j", async (language, text, ends) => {
    expect(await read(text, language)).toEqual(ends);
  });

  it("is no end alone when the text says anything else: a time, a schedule, an end with text after it", async () => {
    expect(await read("tomorrow 9:00")).toBeNull();
    expect(await read("every day at 9")).toBeNull();
    expect(await read("until March standup")).toBeNull();
    expect(await read("starting monday")).toBeNull();
    expect(await read("for 2 weeks")).toBeNull();
  });
});
