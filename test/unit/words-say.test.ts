/**
 * Descriptions of schedules (docs/time.md#descriptions), exact: the words in each of the eight languages for the
 * forms the reader writes, a rule that says where it starts when that picks its runs, and the forms no phrase says
 * (a cron with a step over days, a rule by week number), shown as written with their ends in words, which read
 * back too. Now is Mon 7 Dec 2026 11:00 in Berlin.
 */
import { describe, expect, it } from "vitest";
import { nextOccurrence, nextRuleOccurrence, parseRuleSchedule, type Schedule } from "../../src/time";
import { readSchedule } from "../../src/words";
import type { Lang } from "../../src/words/lang";
import { describe as say } from "../../src/words/say";

const NOW = Date.parse("2026-12-07T10:00:00Z");
const ZONE = "Europe/Berlin";

/** The words for what `phrase` reads as (English, as /every reads it), in `language`. */
async function words(phrase: string, language: Lang, now = NOW): Promise<string> {
  const r = await readSchedule(phrase, { zone: ZONE, now: NOW, language: "en", recurring: true, whole: true });
  if (!r.ok) throw new Error(r.message);
  return say(r.value.schedule, { until: r.value.ends.until ?? null, runsLeft: r.value.ends.runsLeft ?? null }, { zone: ZONE, now, language });
}

describe("a schedule in words", () => {
  it.each([
    [
      "en",
      [
        "every weekday at 08:30",
        "every 2 weeks on Tuesday at 10:00",
        "every month on the last working day at 16:00",
        "every Monday, Wednesday and Friday at 18:00 until 2027-03-31",
      ],
    ],
    [
      "de",
      [
        "werktags um 08:30",
        "alle 2 Wochen am Dienstag um 10:00",
        "jeden Monat am letzten Werktag um 16:00",
        "jeden Montag, Mittwoch und Freitag um 18:00 bis 2027-03-31",
      ],
    ],
    [
      "fr",
      [
        "en semaine à 08:30",
        "toutes les 2 semaines le mardi à 10:00",
        "tous les mois le dernier jour ouvré à 16:00",
        "tous les lundis, mercredis et vendredis à 18:00 jusqu'au 2027-03-31",
      ],
    ],
    [
      "es",
      [
        "entre semana a las 08:30",
        "cada 2 semanas el martes a las 10:00",
        "cada mes el último día laborable a las 16:00",
        "todos los lunes, miércoles y viernes a las 18:00 hasta el 2027-03-31",
      ],
    ],
    [
      "pt",
      [
        "nos dias úteis às 08:30",
        "a cada 2 semanas na terça-feira às 10:00",
        "todo mês no último dia útil às 16:00",
        "toda segunda-feira, quarta-feira e sexta-feira às 18:00 até 2027-03-31",
      ],
    ],
    [
      "it",
      [
        "nei giorni feriali alle 08:30",
        "ogni 2 settimane il martedì alle 10:00",
        "ogni mese l'ultimo giorno feriale alle 16:00",
        "ogni lunedì, mercoledì e venerdì alle 18:00 fino al 2027-03-31",
      ],
    ],
    [
      "nl",
      [
        "op werkdagen om 08:30",
        "elke 2 weken op dinsdag om 10:00",
        "elke maand op de laatste werkdag om 16:00",
        "elke maandag, woensdag en vrijdag om 18:00 tot 2027-03-31",
      ],
    ],
    [
      "ru",
      [
        "по будням в 08:30",
        "каждые 2 недели во вторник в 10:00",
        "каждый месяц в последний рабочий день в 16:00",
        "каждый понедельник, среду и пятницу в 18:00 до 2027-03-31",
      ],
    ],
  ] as const)("%s", async (language, expected) => {
    const phrases = ["weekdays at 8:30", "every other tuesday at 10", "the last working day of the month at 16:00", "mon, wed and fri at 18:00 until 31 march"];
    expect(await Promise.all(phrases.map((p) => words(p, language)))).toEqual(expected);
  });

  it("says where a rule starts once its runs depend on it: from its next run, a week later too", async () => {
    expect(await words("every other tuesday at 10", "en", NOW + 7 * 86_400_000)).toBe("every 2 weeks on Tuesday at 10:00 starting 2026-12-22");
    expect(await words("every 90 minutes", "en", NOW + 3_600_000)).toBe("every 90 minutes starting 2026-12-07T12:30");
  });

  it("shows a form no phrase says as written, its ends in words, and reads it back", async () => {
    for (const [written, language, ends, expected] of [
      ["0 0 */2 * 1", "en", { until: "2027-03-31T23:59", runsLeft: null }, "0 0 */2 * 1 until 2027-03-31"],
      ["DTSTART:20261207T0900 RRULE:FREQ=YEARLY;BYWEEKNO=1", "de", { until: null, runsLeft: 3 }, "DTSTART:20261207T0900 RRULE:FREQ=YEARLY;BYWEEKNO=1 3-mal"],
    ] as const) {
      const r = await readSchedule(written, { zone: ZONE, now: NOW, whole: true });
      if (!r.ok) throw new Error(r.message);
      const text = await say(r.value.schedule, ends, { zone: ZONE, now: NOW, language });
      expect(text).toBe(expected);
      const back = await readSchedule(`${text} (${ZONE})`, { zone: "UTC", now: NOW, whole: true, language });
      expect(back.ok && { zone: back.value.zone, until: back.value.ends.until ?? null, runsLeft: back.value.ends.runsLeft ?? null }).toEqual({
        zone: ZONE,
        ...ends,
      });
    }
  });

  it.each([
    ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-12-08T10:00", "every 2 weeks on Tuesday at 10:00"],
    ["FREQ=DAILY;INTERVAL=3", "2026-12-08", "every 3 days at 09:00 starting 2026-12-08"],
    ["FREQ=MINUTELY;INTERVAL=90", "2026-12-08T10:00", "every 90 minutes starting 2026-12-08T10:00"],
    ["FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-12-08", "every month on the last working day at 09:00"],
    ["FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=17;BYMINUTE=0", "2026-12-08", "every month on the last Friday at 17:00"],
    ["FREQ=MONTHLY", "2026-12-08", "every month on the 8th at 09:00"],
    ["FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,15", "2026-12-08", "every 3 months on the 1st and 15th at 09:00"],
    ["FREQ=YEARLY", "2026-12-25", "every year on 25 December at 09:00"],
    ["FREQ=WEEKLY", "2026-12-08T07:30", "every Tuesday at 07:30"],
    ["FREQ=WEEKLY;BYDAY=SA,SU", "2026-12-08", "every weekend at 09:00 starting 2026-12-12"],
    [
      "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0,30;BYSETPOS=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
      "2026-12-01T11:30",
      "every 30 minutes from 09:00 to 17:00",
    ],
    // What no phrase says: the 13th when it is a Friday, Thanksgiving, week numbers.
    ["FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR", "2026-12-08", "DTSTART:20261208T0900 RRULE:FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR"],
    ["FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "2026-12-08", "DTSTART:20261208T0900 RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"],
    ["FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "2026-12-08", "DTSTART:20261208T0900 RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"],
  ])("says the rule %s from %s as %j, which reads back", async (rrule, start, expected) => {
    const now = Date.parse("2026-12-01T10:00:00Z");
    const rule = parseRuleSchedule({ rrule, start }, ZONE);
    if (!rule.ok) throw new Error(rule.error);
    const schedule = { type: "rule", rule: rule.value } as const;
    const text = await say(schedule, { until: null, runsLeft: null }, { zone: ZONE, now });
    expect(text).toBe(expected);
    const back = await readSchedule(text, { zone: ZONE, now, whole: true, recurring: true });
    if (!back.ok) throw new Error(back.message);
    const runs = (s: Schedule) => {
      const out: number[] = [];
      for (let after = now, i = 0; i < 6; i++) {
        const next = s.type === "rule" ? nextRuleOccurrence(s.rule, ZONE, after) : s.type === "cron" ? nextOccurrence(s.cron, ZONE, after) : null;
        if (!next) break;
        out.push(next.at);
        after = next.at;
      }
      return out;
    };
    expect(runs(back.value.schedule)).toEqual(runs(schedule));
  });

  it("says one time as its wall time in English, and as an ISO date and time in the others", async () => {
    const r = await readSchedule("tomorrow 9am", { zone: ZONE, now: NOW, whole: true });
    if (!r.ok) throw new Error(r.message);
    const ends = { until: null, runsLeft: null };
    expect(await say(r.value.schedule, ends, { zone: ZONE, now: NOW, language: "en" })).toBe("Tue 8 Dec 09:00");
    expect(await say(r.value.schedule, ends, { zone: ZONE, now: NOW, language: "ru" })).toBe("2026-12-08 09:00");
  });
});
