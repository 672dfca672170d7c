/**
 * One time, as `/remind`, the page and the offer read it (docs/time.md#words-when, issue 31 item 4): a date without a
 * time means 09:00 whatever the hour it was said at; an hour 1–12 said without am/pm, a part of the day or a day is
 * the next of its two readings, and as written with a day; a part of the day has the one table's hour in every
 * language; a date in numbers is read in the language's order, or in the other when only that one is a date. In
 * Europe/Berlin (UTC+1 in December), on Tuesday 1 December 2026.
 */
import { describe, expect, it } from "vitest";
import { readSchedule } from "../../src/words";

const ZONE = "Europe/Berlin";

/** The instant `text` is read as at `now` (UTC) in `language`, as RFC 3339, and the phrase read. */
async function once(text: string, now: string, language?: string): Promise<string> {
  const r = await readSchedule(text, { zone: ZONE, now: Date.parse(now), language: language ?? null });
  if (!r.ok) return r.message;
  return r.value.schedule.type === "at" ? `${new Date(r.value.schedule.at).toISOString()} | ${r.value.phrase}` : "not one time";
}

type Row = [text: string, now: string, language: string | undefined, read: string];
const rows = (table: Row[]) =>
  it.each(table)("%s at %s (%s) → %s", async (text, now, language, expected) => {
    expect(await once(text, now, language)).toBe(expected);
  });

describe("a date without a time is 09:00, whatever the hour it was said at (01:46 here)", () => {
  const late = "2026-12-01T00:46:00Z";
  rows([
    ["next week call", late, undefined, "2026-12-08T08:00:00.000Z | next week"],
    ["the day after tomorrow call", late, undefined, "2026-12-03T08:00:00.000Z | the day after tomorrow"],
    ["tomorrow call", late, undefined, "2026-12-02T08:00:00.000Z | tomorrow"],
    ["friday call", late, undefined, "2026-12-04T08:00:00.000Z | friday"],
    ["3 march call", late, undefined, "2027-03-03T08:00:00.000Z | 3 march"],
    ["nächste Woche anrufen", late, "de", "2026-12-08T08:00:00.000Z | nächste Woche"],
    ["übermorgen anrufen", late, "de", "2026-12-03T08:00:00.000Z | übermorgen"],
    ["на следующей неделе позвонить", late, "ru", "2026-12-08T08:00:00.000Z | на следующей неделе"],
    // A number of days counts from now: a duration, not a date.
    ["in 3 days call", late, undefined, "2026-12-04T00:46:00.000Z | in 3 days"],
  ]);
});

describe("an hour 1–12 without am/pm, a part of the day or a day is the next of its two readings", () => {
  const eleven = "2026-12-01T10:00:00Z";
  rows([
    ["at 3 call", eleven, undefined, "2026-12-01T14:00:00.000Z | at 3"],
    ["at 3:30 call", eleven, undefined, "2026-12-01T14:30:00.000Z | at 3:30"],
    ["at 3 call", "2026-12-01T01:00:00Z", undefined, "2026-12-01T02:00:00.000Z | at 3"],
    ["at 3 call", "2026-12-01T15:30:00Z", undefined, "2026-12-02T02:00:00.000Z | at 3"],
    ["at 12 call", eleven, undefined, "2026-12-01T11:00:00.000Z | at 12"],
    ["um 3 anrufen", eleven, "de", "2026-12-01T14:00:00.000Z | um 3"],
    ["в 3 позвонить", eleven, "ru", "2026-12-01T14:00:00.000Z | в 3"],
    // Today said is the day it is said; another day, or a zero before the hour, or am/pm, as written.
    ["today at 3 call", eleven, undefined, "2026-12-01T14:00:00.000Z | today at 3"],
    ["tomorrow at 3 call", eleven, undefined, "2026-12-02T02:00:00.000Z | tomorrow at 3"],
    ["at 09:00 call", eleven, undefined, "2026-12-02T08:00:00.000Z | at 09:00"],
    ["at 3pm call", eleven, undefined, "2026-12-01T14:00:00.000Z | at 3pm"],
    // A word for "at" before a time chrono reads alone is the phrase's; a reading from the start comes first.
    ["at midnight call", eleven, undefined, "2026-12-01T23:00:00.000Z | at midnight"],
    ["um Mitternacht anrufen", eleven, "de", "2026-12-01T23:00:00.000Z | um Mitternacht"],
    ["à 9h appeler", eleven, "fr", "2026-12-01T20:00:00.000Z | à 9h"],
  ]);
});

describe("a part of the day has the one table's hour: morning 9, afternoon 12, evening 19, night 22", () => {
  const noon = "2026-12-01T11:00:00Z";
  rows([
    ["tomorrow evening call", noon, undefined, "2026-12-02T18:00:00.000Z | tomorrow evening"],
    ["tonight call", noon, undefined, "2026-12-01T21:00:00.000Z | tonight"],
    ["domani sera chiamare", noon, "it", "2026-12-02T18:00:00.000Z | domani sera"],
    ["stasera chiamare", noon, "it", "2026-12-01T18:00:00.000Z | stasera"],
    ["morgenavond bellen", noon, "nl", "2026-12-02T18:00:00.000Z | morgenavond"],
    ["ночью позвонить", noon, "ru", "2026-12-01T21:00:00.000Z | ночью"],
    // Without a day, the next one: said at 20:30, "evening" is tomorrow's.
    ["evening call", "2026-12-01T19:30:00Z", undefined, "2026-12-02T18:00:00.000Z | evening"],
  ]);
});

describe("a date in numbers: the language's order, or the other when only that one is a date", () => {
  const now = "2026-12-01T09:00:00Z";
  rows([
    ["1/30 pay", now, undefined, "2027-01-30T08:00:00.000Z | 1/30"],
    ["30/1 pay", now, undefined, "2027-01-30T08:00:00.000Z | 30/1"],
    ["3/4 pay", now, "en", "2027-03-04T08:00:00.000Z | 3/4"],
    ["3/4 payer", now, "fr", "2027-04-03T07:00:00.000Z | 3/4"],
    ["3/4 betalen", now, "nl", "2027-04-03T07:00:00.000Z | 3/4"],
    ["30.1. Zahnarzt", now, "de", "2027-01-30T08:00:00.000Z | 30.1."],
    ["30.01.2027 Zahnarzt", now, "de", "2027-01-30T08:00:00.000Z | 30.01.2027"],
    ["1/30 at 9 pay", now, "en", "2027-01-30T08:00:00.000Z | 1/30 at 9"],
  ]);

  it("reads an end in numbers the same way", async () => {
    const r = await readSchedule("tous les jours à 8h jusqu'au 3/4 x", { zone: ZONE, now: Date.parse(now), language: "fr", recurring: true });
    expect(r.ok && r.value.ends.until).toBe("2027-04-03T23:59");
  });
});

describe("a German day before a month's name, with or without its dot (chrono reads only `3. März`)", () => {
  const now = "2026-12-01T09:00:00Z";
  rows([
    ["3 März Arzt anrufen", now, "de", "2027-03-03T08:00:00.000Z | 3 März"],
    ["3. März Arzt anrufen", now, "de", "2027-03-03T08:00:00.000Z | 3. März"],
    ["am 3 März um 10 Arzt", now, "de", "2027-03-03T09:00:00.000Z | am 3 März um 10"],
    // Sent from an English app: not "3 M", three minutes from now, with "ärz" as the text.
    ["3 März Arzt anrufen", now, "en", "2027-03-03T08:00:00.000Z | 3 März"],
    ["15 Mai 14:30 Zahnarzt", now, undefined, "2027-05-15T12:30:00.000Z | 15 Mai 14:30"],
    // A word that only starts like a month stays the text's.
    ["3 Mais kaufen", now, "de", 'Ich konnte "3" nicht als Zeitplan lesen. Versuche morgen um 9:00 oder jeden Tag um 8:00.'],
  ]);

  it("reads an end the same way", async () => {
    const r = await readSchedule("jeden Tag um 8 bis 3 März Zeitung", { zone: ZONE, now: Date.parse(now), language: "de", recurring: true });
    expect(r.ok && [r.value.ends.until, r.value.rest]).toEqual(["2027-03-03T23:59", "Zeitung"]);
  });
});

describe("forms a locale's chrono does not read, rewritten for it and shown as typed (`rewrite.ts`)", () => {
  const now = "2026-12-01T09:00:00Z";
  rows([
    // The day after tomorrow: French and Spanish chrono read "demain"/"mañana" inside it, tomorrow.
    ["après-demain appeler", now, "fr", "2026-12-03T08:00:00.000Z | après-demain"],
    ["après-demain à 17h appeler", now, "fr", "2026-12-03T16:00:00.000Z | après-demain à 17h"],
    ["pasado mañana llamar", now, "es", "2026-12-03T08:00:00.000Z | pasado mañana"],
    ["depois de amanhã ligar", now, "pt", "2026-12-03T08:00:00.000Z | depois de amanhã"],
    ["dopo domani chiamare", now, "it", "2026-12-03T08:00:00.000Z | dopo domani"],
    ["overmorgen bellen", now, "nl", "2026-12-03T08:00:00.000Z | overmorgen"],
    ["overmorgen om 5 uur bellen", now, "nl", "2026-12-03T04:00:00.000Z | overmorgen om 5 uur"],
    ["übermorgen anrufen", now, "de", "2026-12-03T08:00:00.000Z | übermorgen"],
    ["послезавтра позвонить", now, "ru", "2026-12-03T08:00:00.000Z | послезавтра"],
    // Russian hours in words: chrono read `15 часов` as fifteen hours from now.
    ["в 15 часов позвонить", now, "ru", "2026-12-01T14:00:00.000Z | в 15 часов"],
    ["в субботу в 9 часов позвонить", now, "ru", "2026-12-05T08:00:00.000Z | в субботу в 9 часов"],
    ["следующая среда позвонить", now, "ru", "2026-12-09T08:00:00.000Z | следующая среда"],
    ["18-го февраля позвонить", now, "ru", "2027-02-18T08:00:00.000Z | 18-го февраля"],
    ["komende maandag bellen", now, "nl", "2026-12-07T08:00:00.000Z | komende maandag"],
    ["15 heures aujourd'hui appeler", now, "fr", "2026-12-01T14:00:00.000Z | 15 heures aujourd'hui"],
    ["amanhã 8 horas ligar", now, "pt", "2026-12-02T07:00:00.000Z | amanhã 8 horas"],
  ]);
});

describe("a delay in words, with the tables' units and spans (`delay-words.ts`)", () => {
  const now = "2026-12-01T09:00:00Z";
  rows([
    ["in einer halben Stunde anrufen", now, "de", "2026-12-01T09:30:00.000Z | in einer halben Stunde"],
    ["in einer Viertelstunde anrufen", now, "de", "2026-12-01T09:15:00.000Z | in einer Viertelstunde"],
    ["tra mezz'ora chiamare", now, "it", "2026-12-01T09:30:00.000Z | tra mezz'ora"],
    ["tra un quarto d'ora chiamare", now, "it", "2026-12-01T09:15:00.000Z | tra un quarto d'ora"],
    ["over een kwartier bellen", now, "nl", "2026-12-01T09:15:00.000Z | over een kwartier"],
    ["over een half uur bellen", now, "nl", "2026-12-01T09:30:00.000Z | over een half uur"],
    ["dans une demi-heure appeler", now, "fr", "2026-12-01T09:30:00.000Z | dans une demi-heure"],
    ["dans un quart d'heure appeler", now, "fr", "2026-12-01T09:15:00.000Z | dans un quart d'heure"],
    ["en media hora llamar", now, "es", "2026-12-01T09:30:00.000Z | en media hora"],
    ["en un cuarto de hora llamar", now, "es", "2026-12-01T09:15:00.000Z | en un cuarto de hora"],
    ["daqui a meia hora ligar", now, "pt", "2026-12-01T09:30:00.000Z | daqui a meia hora"],
    ["em um quarto de hora ligar", now, "pt", "2026-12-01T09:15:00.000Z | em um quarto de hora"],
    // Portuguese chrono reads no delay at all.
    ["em 2 horas ligar", now, "pt", "2026-12-01T11:00:00.000Z | em 2 horas"],
    ["daqui a 3 dias ligar", now, "pt", "2026-12-04T09:00:00.000Z | daqui a 3 dias"],
    ["через полчаса позвонить", now, "ru", "2026-12-01T09:30:00.000Z | через полчаса"],
    // Not "in a quarter" (three months) with "of an hour" as the text.
    ["in a quarter of an hour call", now, "en", "2026-12-01T09:15:00.000Z | in a quarter of an hour"],
    ["in half an hour, call", now, "en", "2026-12-01T09:30:00.000Z | in half an hour"],
    // What chrono reads further stays chrono's.
    ["in 2 hours and a half call", now, "en", "2026-12-01T11:30:00.000Z | in 2 hours and a half"],
  ]);
});

describe("a clock time with its part of the day after it or in it: the reading it says, and the words the phrase's", () => {
  const now = "2026-12-01T09:00:00Z";
  rows([
    // "del pomeriggio" was not applied (05:00), "du matin" and "'s morgens" were left as the text.
    ["dopodomani alle 5 del pomeriggio chiamare", now, "it", "2026-12-03T16:00:00.000Z | dopodomani alle 5 del pomeriggio"],
    ["le 2 mars à 5h du matin appeler", now, "fr", "2027-03-02T04:00:00.000Z | le 2 mars à 5h du matin"],
    ["op zaterdag om 9 uur 's morgens bellen", now, "nl", "2026-12-05T08:00:00.000Z | op zaterdag om 9 uur 's morgens"],
    ["amanhã 8 horas da manhã ligar", now, "pt", "2026-12-02T07:00:00.000Z | amanhã 8 horas da manhã"],
    ["в 3 часа дня позвонить", now, "ru", "2026-12-01T14:00:00.000Z | в 3 часа дня"],
    // The evening's 8 (was refused as 08:00, past).
    ["vanavond om 8 uur bellen", now, "nl", "2026-12-01T19:00:00.000Z | vanavond om 8 uur"],
    ["a las 2 de la noche llamar", now, "es", "2026-12-02T01:00:00.000Z | a las 2 de la noche"],
    // Said at 18:00 without a day: tomorrow's 09:00, not today's, passed.
    ["alle 9 di mattina chiamare", "2026-12-01T17:00:00Z", "it", "2026-12-02T08:00:00.000Z | alle 9 di mattina"],
    // One word that agrees with the hour may start the text.
    ["morgen um 9 früh aufstehen", now, "de", "2026-12-02T08:00:00.000Z | morgen um 9"],
  ]);
});

describe("an hour in words after the language's `at` (chrono reads digits only)", () => {
  const now = "2026-12-01T09:00:00Z";
  rows([
    ["amanhã às oito da noite ligar", now, "pt", "2026-12-02T19:00:00.000Z | amanhã às oito da noite"],
    ["às tres da tarde ligar", now, "pt", "2026-12-01T14:00:00.000Z | às tres da tarde"],
    ["às tres e meia ligar", now, "pt", "2026-12-01T14:30:00.000Z | às tres e meia"],
    ["a las tres de la tarde llamar", now, "es", "2026-12-01T14:00:00.000Z | a las tres de la tarde"],
    ["a las 3 y media llamar", now, "es", "2026-12-01T14:30:00.000Z | a las 3 y media"],
    ["à huit heures et demie appeler", now, "fr", "2026-12-01T19:30:00.000Z | à huit heures et demie"],
    ["alle cinque del pomeriggio chiamare", now, "it", "2026-12-01T16:00:00.000Z | alle cinque del pomeriggio"],
    ["om acht uur bellen", now, "nl", "2026-12-01T19:00:00.000Z | om acht uur"],
  ]);
});

describe("a day of the month after `le`, `dia`, `am`; a time followed by its day; a word for `at` chrono leaves", () => {
  const now = "2026-12-01T09:00:00Z";
  rows([
    // French chrono read `16 à 18h` as 16:00 to 18:00, today.
    ["le 16 à 18h appeler", now, "fr", "2026-12-16T17:00:00.000Z | le 16 à 18h"],
    ["le 16 à 6h du soir appeler", now, "fr", "2026-12-16T17:00:00.000Z | le 16 à 6h du soir"],
    ["le 16 décembre à 18h appeler", now, "fr", "2026-12-16T17:00:00.000Z | le 16 décembre à 18h"],
    ["dia 15 às 18 ligar", now, "pt", "2026-12-15T17:00:00.000Z | dia 15 às 18"],
    ["am 15.2. Zahnarzt", now, "de", "2027-02-15T08:00:00.000Z | am 15.2."],
    ["il 25/12 regali", now, "it", "2026-12-25T08:00:00.000Z | il 25/12"],
    // The day after the time was left as the text, the time today's.
    ["12h30 le 27 décembre déjeuner", now, "fr", "2026-12-27T11:30:00.000Z | 12h30 le 27 décembre"],
    ["3 p.m. hoy llamar", now, "es", "2026-12-01T14:00:00.000Z | 3 p.m. hoy"],
    ["à 6h du soir demain appeler", now, "fr", "2026-12-02T17:00:00.000Z | à 6h du soir demain"],
    ["at 9 call mom tomorrow", now, "en", "2026-12-01T20:00:00.000Z | at 9"],
    ["verso mezzogiorno chiamare", now, "it", "2026-12-01T11:00:00.000Z | verso mezzogiorno"],
    ["la medianoche llamar", now, "es", "2026-12-01T23:00:00.000Z | la medianoche"],
    ["la mattina alle 7 chiamare", now, "it", "2026-12-02T06:00:00.000Z | la mattina alle 7"],
    ["gegen 15 Uhr anrufen", now, "de", "2026-12-01T14:00:00.000Z | gegen 15 Uhr"],
  ]);
});

describe("a weekday of next week (French chrono read the coming one and left the week as the text)", () => {
  rows([
    ["lundi de la semaine prochaine appeler", "2026-12-01T09:00:00Z", "fr", "2026-12-07T08:00:00.000Z | lundi de la semaine prochaine"],
    // Said on a Monday: next week's, not today's or the coming one.
    ["lundi de la semaine prochaine appeler", "2026-12-07T07:00:00Z", "fr", "2026-12-14T08:00:00.000Z | lundi de la semaine prochaine"],
    ["vendredi de la semaine prochaine à 10h appeler", "2026-12-01T09:00:00Z", "fr", "2026-12-11T09:00:00.000Z | vendredi de la semaine prochaine à 10h"],
  ]);
});

describe("Dutch `komende` and `aanstaande` before a weekday: the coming one, as the weekday alone", () => {
  rows([["komende woensdag bellen", "2026-12-01T09:00:00Z", "nl", "2026-12-02T08:00:00.000Z | komende woensdag"]]);
});

describe("a word that starts like a weekday and is a unit or span is not the weekday", () => {
  // Russian четверть (a quarter) starts like четверг (Thursday): "in a quarter of an hour" was every other Thursday.
  rows([["через четверть часа позвонить", "2026-12-01T09:00:00Z", "ru", "2026-12-01T09:15:00.000Z | через четверть часа"]]);
});
