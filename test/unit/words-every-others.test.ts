/**
 * `/every` with the repetitions other products document and other parsers test (Recognizers-Text, duckling,
 * Todoist's help, rrule's text tests) that Cuckoo misread or refused: each with the exact schedule it makes now,
 * the phrase read and the text after it, or the part it refuses. Read in Europe/Berlin on Tuesday 1 December 2026
 * at 10:00:37, as test/unit/words-every.test.ts.
 */
import { describe, expect, it } from "vitest";
import { readSchedule, describe as say } from "../../src/words";
import { scheduleLine } from "./schedule-line";

const NOW = Date.parse("2026-12-01T09:00:37.123Z");
const ZONE = "Europe/Berlin";

/** What `/every` makes of `text` in `language`: `<schedule> | <phrase> | <rest>`, or `<problem>: <phrase>`. */
async function every(language: string, text: string): Promise<string> {
  const r = await readSchedule(text, { zone: ZONE, now: NOW, language, recurring: true });
  if (!r.ok) return `${r.problem.kind}: ${"phrase" in r.problem ? r.problem.phrase : ""}`;
  return `${scheduleLine(r.value)} | ${r.value.phrase} | ${r.value.rest}`;
}

const table = (rows: [string, string, string][]) =>
  it.each(rows)("%s: %s → %s", async (language, input, expected) => {
    expect(await every(language, input)).toBe(expected);
  });

describe("a time first, then its weekday after a word that joins them", () => {
  table([
    ["pt", "às 8h da manhã da segunda-feira x", "cron 0 8 * * 1 | às 8h da manhã da segunda-feira | x"],
    ["pt", "às 9 de segunda-feira x", "cron 0 9 * * 1 | às 9 de segunda-feira | x"],
    ["pt", "às 9 de segunda a sexta x", "cron 0 9 * * 1-5 | às 9 de segunda a sexta | x"],
    ["it", "9am di ogni lunedì x", "cron 0 9 * * 1 | 9am di ogni lunedì | x"],
    ["it", "alle 9 di lunedì x", "cron 0 9 * * 1 | alle 9 di lunedì | x"],
    ["fr", "à 9h du lundi x", "cron 0 9 * * 1 | à 9h du lundi | x"],
    ["fr", "à 9h chaque lundi x", "cron 0 9 * * 1 | à 9h chaque lundi | x"],
    ["es", "a las 9 de lunes a viernes x", "cron 0 9 * * 1-5 | a las 9 de lunes a viernes | x"],
    ["es", "a las 9 los lunes x", "cron 0 9 * * 1 | a las 9 los lunes | x"],
    ["de", "um 9 Uhr am Montag x", "cron 0 9 * * 1 | um 9 Uhr am Montag | x"],
    ["nl", "om 9 uur op maandag x", "cron 0 9 * * 1 | om 9 uur op maandag | x"],
    ["en", "9am every monday x", "cron 0 9 * * 1 | 9am every monday | x"],
    // After "every day", a weekday joined to it is refused rather than left in the text of an every-day job.
    ["en", "every day at 9 every monday report", "unreadable: every monday"],
    ["de", "täglich um 9 am Montag x", "unreadable: am Montag"],
  ]);
});

describe("every six months and every two months, in one word", () => {
  const half = "rule FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=1 from 2027-01-01T09:00";
  const two = "rule FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1 from 2027-01-01T09:00";
  table([
    ["fr", "semestriellement x", `${half} | semestriellement | x`],
    ["fr", "semestrielle x", `${half} | semestrielle | x`],
    ["fr", "tous les semestres x", `${half} | tous les semestres | x`],
    ["es", "semestral x", `${half} | semestral | x`],
    ["es", "semestralmente x", `${half} | semestralmente | x`],
    ["es", "bimestral x", `${two} | bimestral | x`],
    ["pt", "semestralmente x", `${half} | semestralmente | x`],
    ["de", "halbjährlich x", `${half} | halbjährlich | x`],
    ["de", "zweimonatlich x", `${two} | zweimonatlich | x`],
    ["it", "ogni semestre x", `${half} | ogni semestre | x`],
    ["nl", "tweemaandelijks x", `${two} | tweemaandelijks | x`],
    ["ru", "раз в полгода x", `${half} | раз в полгода | x`],
    ["en", "semiannually x", `${half} | semiannually | x`],
    ["en", "once a quarter x", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1 from 2027-01-01T09:00 | once a quarter | x"],
  ]);
});

describe("the second-to-last weekday or working day of the month", () => {
  const fr = "rule FREQ=MONTHLY;BYDAY=-2FR from 2026-12-18T09:00";
  table([
    ["en", "Monthly on the 2nd-to-last Friday x", `${fr} | Monthly on the 2nd-to-last Friday | x`],
    ["en", "the second to last friday of the month x", `${fr} | the second to last friday of the month | x`],
    [
      "en",
      "the penultimate working day of the month x",
      "rule FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2 from 2026-12-30T09:00 | the penultimate working day of the month | x",
    ],
    ["nl", "Maandelijks op de voorlaatste vrijdag x", `${fr} | Maandelijks op de voorlaatste vrijdag | x`],
    ["de", "am vorletzten Freitag im Monat x", `${fr} | am vorletzten Freitag im Monat | x`],
    ["fr", "l'avant-dernier vendredi du mois x", `${fr} | l'avant-dernier vendredi du mois | x`],
    ["es", "el penúltimo viernes de cada mes x", `${fr} | el penúltimo viernes de cada mes | x`],
    ["pt", "a penúltima sexta-feira do mês x", `${fr} | a penúltima sexta-feira do mês | x`],
    ["it", "il penultimo venerdì del mese x", `${fr} | il penultimo venerdì del mese | x`],
    ["ru", "в предпоследнюю пятницу месяца x", `${fr} | в предпоследнюю пятницу месяца | x`],
    ["fr", "tous les premiers mercredis du mois x", "cron 0 9 * * 3#1 | tous les premiers mercredis du mois | x"],
    ["fr", "les derniers vendredis du mois x", "cron 0 9 * * 5L | les derniers vendredis du mois | x"],
  ]);

  it.each([
    ["en", "Monthly on the 2nd-to-last Friday", "every month on the second-to-last Friday at 09:00"],
    ["en", "the first and second to last friday of the month", "every month on the first and second-to-last Friday at 09:00"],
    ["fr", "l'avant-dernier vendredi du mois", "tous les mois l'avant-dernier vendredi à 09:00"],
    ["de", "am vorletzten Freitag im Monat", "jeden Monat am vorletzten Freitag um 09:00"],
    ["ru", "в предпоследнюю пятницу месяца", "каждый месяц в предпоследнюю пятницу в 09:00"],
  ])("%s: %s is described as %s", async (language, input, expected) => {
    const r = await readSchedule(input, { zone: ZONE, now: NOW, language, recurring: true });
    if (!r.ok) throw new Error(r.message);
    expect(await say(r.value.schedule, undefined, { zone: ZONE, now: NOW, language })).toBe(expected);
  });
});

describe("a date in numbers after a word for every is a date each year", () => {
  table([
    ["en", "each 4/15 x", "cron 0 9 15 4 * | each 4/15 | x"],
    ["en", "every 15/4 x", "cron 0 9 15 4 * | every 15/4 | x"],
    ["fr", "chaque 15/04 x", "cron 0 9 15 4 * | chaque 15/04 | x"],
    ["es", "cada 15/4 x", "cron 0 9 15 4 * | cada 15/4 | x"],
    ["pt", "cada 15/4 x", "cron 0 9 15 4 * | cada 15/4 | x"],
    ["it", "ogni 4/15 x", "cron 0 9 15 4 * | ogni 4/15 | x"],
    ["nl", "iedere 15/4 x", "cron 0 9 15 4 * | iedere 15/4 | x"],
    ["nl", "elke 15-4 x", "cron 0 9 15 4 * | elke 15-4 | x"],
    ["de", "jedes Jahr am 31.08. x", "cron 0 9 31 8 * | jedes Jahr am 31.08. | x"],
    ["ru", "каждое 15.04. x", "cron 0 9 15 4 * | каждое 15.04. | x"],
    // In the language's order when both are dates: English month first, the others day first.
    ["en", "every 4/5 x", "cron 0 9 5 4 * | every 4/5 | x"],
    ["fr", "chaque 4/5 x", "cron 0 9 4 5 * | chaque 4/5 | x"],
    // No date: half an hour, hours, a day no month has, a year (a one-off).
    ["en", "every 1/2 hour x", "unreadable: every"],
    ["de", "alle 9-17 Uhr x", "unreadable: alle 9-17"],
    ["it", "ogni 9-12 x", "unreadable: ogni 9-12"],
    ["en", "every 31/4 x", "unreadable: every"],
    ["en", "every 15/4/2027 x", "unreadable: every"],
  ]);
});

describe("a daily word after a time alone says how often", () => {
  table([
    ["en", "6am everyday x", "cron 0 6 * * * | 6am everyday | x"],
    ["en", "6am daily x", "cron 0 6 * * * | 6am daily | x"],
    ["de", "um 9 Uhr täglich Zeitung", "cron 0 9 * * * | um 9 Uhr täglich | Zeitung"],
    ["fr", "à 9h quotidiennement x", "cron 0 9 * * * | à 9h quotidiennement | x"],
    // After a phrase that said how often, it still starts the text.
    ["en", "every friday at 17 weekly report", "cron 0 17 * * 5 | every friday at 17 | weekly report"],
    ["en", "every monday at 9 daily standup", "cron 0 9 * * 1 | every monday at 9 | daily standup"],
    ["en", "every evening daily x", "cron 0 19 * * * | every evening | daily x"],
    ["pt", "toda noite diário x", "cron 0 22 * * * | toda noite | diário x"],
  ]);
});

describe("words other products document", () => {
  const weekly2 = "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00";
  table([
    ["es", "cada finde x", "cron 0 9 * * 0,6 | cada finde | x"],
    ["fr", "à chaque heure x", "cron 0 * * * * | à chaque heure | x"],
    ["it", "una volta la settimana x", "cron 0 9 * * 2 | una volta la settimana | x"],
    // An ordinal in digits before a unit counts the units.
    ["de", "jede 2. Woche am Montag x", `${weekly2} | jede 2. Woche am Montag | x`],
    ["en", "every 2nd week on monday x", `${weekly2} | every 2nd week on monday | x`],
    ["nl", "elke 2e week op maandag x", `${weekly2} | elke 2e week op maandag | x`],
    ["en", "every 3rd month x", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1 from 2027-01-01T09:00 | every 3rd month | x"],
    // After "every day", "from monday to friday" says which days; it was read as a start and an end.
    ["de", "jeden Tag von Montag bis Freitag x", "cron 0 9 * * 1-5 | jeden Tag von Montag bis Freitag | x"],
    ["en", "every day from monday to friday x", "cron 0 9 * * 1-5 | every day from monday to friday | x"],
    ["en", "daily from monday to friday at 9 x", "cron 0 9 * * 1-5 | daily from monday to friday at 9 | x"],
    // A time in Russian words said inside a repetition.
    ["ru", "каждый день в 3 часа дня x", "cron 0 15 * * * | каждый день в 3 часа дня | x"],
    ["ru", "в 15 часов каждый день x", "cron 0 15 * * * | в 15 часов каждый день | x"],
  ]);
});
