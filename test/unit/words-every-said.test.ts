/**
 * `/every` as a new user says it (issue 24 item 4, the lead's try-out): durations in parts and fractions (every
 * 1h 30m, every hour and a half, every 1.5 hours), windows of hours (every 2 hours from 9 to 17), parts of the
 * day (every morning at 7, every sunday evening), spans (for 5 days) and quarters, in English and in each
 * language of the phrase tables, with the exact schedule, the phrase read and the text after it. Read in
 * Europe/Berlin on Wednesday 2 December 2026 at 10:00, as the lead tried them.
 */
import { describe, expect, it } from "vitest";
import { previewSchedule } from "../../src/time/preview";
import { readSchedule, describe as say } from "../../src/words";
import { wholeInterval } from "../../src/words/phrase";
import { scheduleLine } from "./schedule-line";

/** Wednesday 2 December 2026, 10:00 in Berlin (UTC+1 all December). */
const NOW = Date.parse("2026-12-02T09:00:00Z");
const ZONE = "Europe/Berlin";

/** What `/every` makes of `text`: `<schedule> | <phrase> | <rest>`, or the sentence it answers. */
async function every(text: string, language?: string): Promise<string> {
  const r = await readSchedule(text, { zone: ZONE, now: NOW, language, recurring: true });
  return r.ok ? `${scheduleLine(r.value)} | ${r.value.phrase} | ${r.value.rest}` : r.message;
}

const table = (rows: [string, string][]) =>
  it.each(rows)("%s → %s", async (input, expected) => {
    expect(await every(input)).toBe(expected);
  });

describe("what the lead found, as it reads now", () => {
  table([
    ["every 1h 30m drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every 1h 30m | drink"],
    ["every 1 hour 30 minutes drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every 1 hour 30 minutes | drink"],
    ["every hour and a half drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every hour and a half | drink"],
    ["every 1.5 hours drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every 1.5 hours | drink"],
    ["1h 30m drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | 1h 30m | drink"],
    ["every 2 hours from 9 to 17 stretch", "cron 0 9-17/2 * * * | every 2 hours from 9 to 17 | stretch"],
    ["every hour from 9am to 5pm water", "cron 0 9-17 * * * | every hour from 9am to 5pm | water"],
    ["every 2 hours between 9 and 17 stretch", "cron 0 9-17/2 * * * | every 2 hours between 9 and 17 | stretch"],
    [
      "every 30 minutes from 9 to 17 stretch",
      "rule FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0,30;BYSETPOS=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 from 2026-12-02T10:30 | every 30 minutes from 9 to 17 | stretch",
    ],
    ["every morning at 7 news", "cron 0 7 * * * | every morning at 7 | news"],
    ["every evening at 8 journal", "cron 0 20 * * * | every evening at 8 | journal"],
    ["every night at 22 lights", "cron 0 22 * * * | every night at 22 | lights"],
    ["every sunday evening plan", "cron 0 19 * * 0 | every sunday evening | plan"],
    ["every day at 9 for 5 days pill", "cron 0 9 * * * ×5 | every day at 9 for 5 days | pill"],
    ["every quarter report", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | every quarter | report"],
  ]);
});

describe("in each language", () => {
  table([
    ["alle 1,5 Stunden trinken", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | alle 1,5 Stunden | trinken"],
    ["alle anderthalb Stunden trinken", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | alle anderthalb Stunden | trinken"],
    ["alle 2 Stunden von 9 bis 17 Uhr dehnen", "cron 0 9-17/2 * * * | alle 2 Stunden von 9 bis 17 Uhr | dehnen"],
    ["alle 2 Stunden zwischen 9 und 17 Uhr dehnen", "cron 0 9-17/2 * * * | alle 2 Stunden zwischen 9 und 17 Uhr | dehnen"],
    ["jeden Morgen um 7 Nachrichten", "cron 0 7 * * * | jeden Morgen um 7 | Nachrichten"],
    ["jeden Sonntag Abend planen", "cron 0 19 * * 0 | jeden Sonntag Abend | planen"],
    ["jeden Tag um 9 für 5 Tage Tablette", "cron 0 9 * * * ×5 | jeden Tag um 9 für 5 Tage | Tablette"],
    ["jedes Quartal Bericht", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | jedes Quartal | Bericht"],
    ["toutes les 1h30 boire", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | toutes les 1h30 | boire"],
    ["toutes les 2 heures de 9h à 17h étirer", "cron 0 9-17/2 * * * | toutes les 2 heures de 9h à 17h | étirer"],
    ["toutes les 2 heures entre 9h et 17h étirer", "cron 0 9-17/2 * * * | toutes les 2 heures entre 9h et 17h | étirer"],
    ["chaque matin à 7h nouvelles", "cron 0 7 * * * | chaque matin à 7h | nouvelles"],
    ["tous les soirs journal", "cron 0 19 * * * | tous les soirs | journal"],
    ["tous les jours à 9h pendant 5 jours pilule", "cron 0 9 * * * ×5 | tous les jours à 9h pendant 5 jours | pilule"],
    ["chaque trimestre rapport", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | chaque trimestre | rapport"],
    ["cada hora y media beber", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | cada hora y media | beber"],
    ["cada 2 horas de 9 a 17 estirar", "cron 0 9-17/2 * * * | cada 2 horas de 9 a 17 | estirar"],
    ["cada 2 horas entre las 9 y las 17 estirar", "cron 0 9-17/2 * * * | cada 2 horas entre las 9 y las 17 | estirar"],
    ["cada mañana a las 7 noticias", "cron 0 7 * * * | cada mañana a las 7 | noticias"],
    ["todas las noches luces", "cron 0 22 * * * | todas las noches | luces"],
    ["todos los días a las 9 durante 5 días pastilla", "cron 0 9 * * * ×5 | todos los días a las 9 durante 5 días | pastilla"],
    ["cada trimestre informe", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | cada trimestre | informe"],
    ["a cada hora e meia beber", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | a cada hora e meia | beber"],
    ["a cada 2 horas das 9 às 17 alongar", "cron 0 9-17/2 * * * | a cada 2 horas das 9 às 17 | alongar"],
    ["a cada 2 horas entre 9 e 17 alongar", "cron 0 9-17/2 * * * | a cada 2 horas entre 9 e 17 | alongar"],
    ["toda manhã às 7 notícias", "cron 0 7 * * * | toda manhã às 7 | notícias"],
    ["toda noite diário", "cron 0 22 * * * | toda noite | diário"],
    ["todos os dias às 9 por 5 dias remédio", "cron 0 9 * * * ×5 | todos os dias às 9 por 5 dias | remédio"],
    ["a cada trimestre relatório", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | a cada trimestre | relatório"],
    ["ogni ora e mezza bere", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | ogni ora e mezza | bere"],
    ["ogni 2 ore dalle 9 alle 17 stretching", "cron 0 9-17/2 * * * | ogni 2 ore dalle 9 alle 17 | stretching"],
    ["ogni 2 ore tra le 9 e le 17 stretching", "cron 0 9-17/2 * * * | ogni 2 ore tra le 9 e le 17 | stretching"],
    ["ogni mattina alle 7 notizie", "cron 0 7 * * * | ogni mattina alle 7 | notizie"],
    ["ogni sera diario", "cron 0 19 * * * | ogni sera | diario"],
    ["ogni giorno alle 9 per 5 giorni pillola", "cron 0 9 * * * ×5 | ogni giorno alle 9 per 5 giorni | pillola"],
    ["ogni trimestre rapporto", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | ogni trimestre | rapporto"],
    ["elke anderhalf uur drinken", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | elke anderhalf uur | drinken"],
    ["elke 2 uur van 9 tot 17 uur rekken", "cron 0 9-17/2 * * * | elke 2 uur van 9 tot 17 uur | rekken"],
    ["elke 2 uur tussen 9 en 17 uur rekken", "cron 0 9-17/2 * * * | elke 2 uur tussen 9 en 17 uur | rekken"],
    ["elke ochtend om 7 nieuws", "cron 0 7 * * * | elke ochtend om 7 | nieuws"],
    ["elke avond dagboek", "cron 0 19 * * * | elke avond | dagboek"],
    ["elke dag om 9 gedurende 5 dagen pil", "cron 0 9 * * * ×5 | elke dag om 9 gedurende 5 dagen | pil"],
    ["elk kwartaal rapport", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | elk kwartaal | rapport"],
    ["каждые полтора часа пить", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | каждые полтора часа | пить"],
    ["каждые 2 часа с 9 до 17 разминка", "cron 0 9-17/2 * * * | каждые 2 часа с 9 до 17 | разминка"],
    ["каждые 2 часа между 9 и 17 разминка", "cron 0 9-17/2 * * * | каждые 2 часа между 9 и 17 | разминка"],
    ["каждое утро в 7 новости", "cron 0 7 * * * | каждое утро в 7 | новости"],
    ["каждый вечер дневник", "cron 0 19 * * * | каждый вечер | дневник"],
    ["каждый день в 9 в течение 5 дней таблетка", "cron 0 9 * * * ×5 | каждый день в 9 в течение 5 дней | таблетка"],
    ["каждый квартал отчёт", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | каждый квартал | отчёт"],
  ]);
});

describe("intervals in parts, fractions and named spans", () => {
  table([
    ["every 1 hour and 30 minutes drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every 1 hour and 30 minutes | drink"],
    ["every one and a half hours drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every one and a half hours | drink"],
    ["every 1h30m drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every 1h30m | drink"],
    ["every 1h 30 min drink", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T10:00 | every 1h 30 min | drink"],
    ["every 2.5 hours drink", "rule FREQ=MINUTELY;INTERVAL=150 from 2026-12-02T10:00 | every 2.5 hours | drink"],
    ["every 2 and a half hours drink", "rule FREQ=MINUTELY;INTERVAL=150 from 2026-12-02T10:00 | every 2 and a half hours | drink"],
    ["every 0.5 hours drink", "cron */30 * * * * | every 0.5 hours | drink"],
    ["every 1 day 12 hours drink", "rule FREQ=HOURLY;INTERVAL=36 from 2026-12-02T10:00 | every 1 day 12 hours | drink"],
    ["every half hour stretch", "cron */30 * * * * | every half hour | stretch"],
    ["every half an hour stretch", "cron */30 * * * * | every half an hour | stretch"],
    ["every quarter hour stretch", "cron */15 * * * * | every quarter hour | stretch"],
    ["alle halbe Stunde dehnen", "cron */30 * * * * | alle halbe Stunde | dehnen"],
    ["каждые полчаса разминка", "cron */30 * * * * | каждые полчаса | разминка"],
    ["quarterly report", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2 from 2027-01-02T09:00 | quarterly | report"],
    ["every other quarter report", "rule FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=2 from 2027-01-02T09:00 | every other quarter | report"],
    ["every fortnight review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=WE from 2026-12-09T09:00 | every fortnight | review"],
    // A month has no fixed length, and a minute is the smallest step.
    ["every 1.5 months x", 'I couldn\'t read "every" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
    ["every 1.5 minutes x", 'I couldn\'t read "every" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
  ]);

  it("keeps a whole amount as said and puts a fraction in the largest unit that holds it whole", () => {
    expect(wholeInterval("hour", 36)).toEqual({ unit: "hour", n: 36 });
    expect(wholeInterval("hour", 1.5)).toEqual({ unit: "minute", n: 90 });
    expect(wholeInterval("day", 1.5)).toEqual({ unit: "hour", n: 36 });
    expect(wholeInterval("week", 1.5)).toEqual({ unit: "hour", n: 252 });
    expect(wholeInterval("hour", 0.1)).toEqual({ unit: "minute", n: 6 });
    expect(wholeInterval("minute", 1.5)).toBeNull();
    expect(wholeInterval("month", 1.5)).toBeNull();
    expect(wholeInterval("hour", 0)).toBeNull();
  });
});

describe("a window of hours bounds the runs, its last hour included", () => {
  table([
    [
      "every 90 minutes from 9 to 17 stretch",
      "rule FREQ=DAILY;BYHOUR=9,10,12,13,15,16;BYMINUTE=0,30;BYSETPOS=1,4,5,8,9,12 from 2026-12-02T10:30 | every 90 minutes from 9 to 17 | stretch",
    ],
    ["every hour from 9:30 to 17 water", "cron 30 9-16 * * * | every hour from 9:30 to 17 | water"],
    ["every 30 minutes from 9:00 to 16:30 stretch", "cron */30 9-16 * * * | every 30 minutes from 9:00 to 16:30 | stretch"],
    ["every minute from 9 to 16:59 watch", "cron * 9-16 * * * | every minute from 9 to 16:59 | watch"],
    // From 9 to 5 is the working day; from 22 to 2 runs across midnight.
    ["every hour from 9 to 5 water", "cron 0 9-17 * * * | every hour from 9 to 5 | water"],
    ["every hour from 22 to 2 check", "cron 0 22-2 * * * | every hour from 22 to 2 | check"],
    ["hourly from 9 to 17 water", "cron 0 9-17 * * * | hourly from 9 to 17 | water"],
    ["every 2 hours from 9 to 17 on weekdays stretch", "cron 0 9-17/2 * * 1-5 | every 2 hours from 9 to 17 on weekdays | stretch"],
    ["every 2 hours from 9 to 17 until 31 dec stretch", "cron 0 9-17/2 * * * until 2026-12-31T23:59 | every 2 hours from 9 to 17 until 31 dec | stretch"],
    [
      "every 30 minutes from 9 to 17 starting monday stretch",
      "rule FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0,30;BYSETPOS=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 from 2026-12-07T09:00 | every 30 minutes from 9 to 17 starting monday | stretch",
    ],
    // Refused: more runs a day than BYSETPOS can list; a window without an interval; a window that wraps on some days only.
    [
      "every minute from 9 to 17 watch",
      '"every minute from 9 to 17" runs more times a day than one schedule can list up to 17:00. Try every minute from 9:00 to 16:59 or every 5 minutes from 9:00 to 17:00.',
    ],
    ["every monday from 9 to 5 x", 'I couldn\'t read "every monday from 9 to 5" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
    ["every hour from 22 to 2 on fridays x", 'I couldn\'t read "every hour from 22 to 2 on fridays" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
    // "from" with a date is still a start, "between" with no times is the text.
    ["every day at 8 from 9 dec news", "rule FREQ=DAILY from 2026-12-09T08:00 | every day at 8 from 9 dec | news"],
    ["every day at 8 between us", "cron 0 8 * * * | every day at 8 | between us"],
  ]);

  it("runs 9:00 through 17:00 each day, and says so", async () => {
    const r = await readSchedule("every 30 minutes from 9 to 17 stretch", { zone: ZONE, now: NOW, recurring: true });
    if (!r.ok || r.value.schedule.type !== "rule") throw new Error("expected a rule");
    const p = await previewSchedule(r.value.schedule, r.value.ends, ZONE, Date.parse("2026-12-02T15:40:00Z"), 6);
    if (!p.ok) throw new Error(p.error);
    // 16:40 in Berlin: the day's last runs, then the next day's first.
    expect(p.value.occurrences).toEqual([
      "2026-12-02T16:00:00.000Z",
      "2026-12-03T08:00:00.000Z",
      "2026-12-03T08:30:00.000Z",
      "2026-12-03T09:00:00.000Z",
      "2026-12-03T09:30:00.000Z",
      "2026-12-03T10:00:00.000Z",
    ]);
    expect(await say(r.value.schedule, p.value.read.ends, { zone: ZONE, now: NOW })).toBe("every 30 minutes from 09:00 to 17:00");
    const odd = await readSchedule("every 90 minutes from 9 to 17 stretch", { zone: ZONE, now: NOW, recurring: true });
    if (!odd.ok || odd.value.schedule.type !== "rule") throw new Error("expected a rule");
    const q = await previewSchedule(odd.value.schedule, odd.value.ends, ZONE, NOW, 7);
    if (!q.ok) throw new Error(q.error);
    expect(await say(odd.value.schedule, q.value.read.ends, { zone: ZONE, now: NOW })).toBe("every 90 minutes from 09:00 to 16:30");
    expect(q.value.occurrences).toEqual([
      "2026-12-02T09:30:00.000Z",
      "2026-12-02T11:00:00.000Z",
      "2026-12-02T12:30:00.000Z",
      "2026-12-02T14:00:00.000Z",
      "2026-12-02T15:30:00.000Z",
      "2026-12-03T08:00:00.000Z",
      "2026-12-03T09:30:00.000Z",
    ]);
  });
});

describe("parts of the day", () => {
  table([
    ["every morning news", "cron 0 9 * * * | every morning | news"],
    ["every afternoon tea", "cron 0 12 * * * | every afternoon | tea"],
    ["evening journal", "cron 0 19 * * * | evening | journal"],
    ["every night at 10 lights", "cron 0 22 * * * | every night at 10 | lights"],
    ["every night at 1 lights", "cron 0 1 * * * | every night at 1 | lights"],
    ["every day at 8 in the evening journal", "cron 0 20 * * * | every day at 8 in the evening | journal"],
    ["every weekday morning at 7 run", "cron 0 7 * * 1-5 | every weekday morning at 7 | run"],
    ["every monday night football", "cron 0 22 * * 1 | every monday night | football"],
    ["every 2 days in the evening water", "rule FREQ=DAILY;INTERVAL=2 from 2026-12-02T19:00 | every 2 days in the evening | water"],
    ["abends um 8 Tagebuch", "cron 0 20 * * * | abends um 8 | Tagebuch"],
    ["каждую ночь в 11 свет", "cron 0 23 * * * | каждую ночь в 11 | свет"],
    ["elke middag om 3 thee", "cron 0 15 * * * | elke middag om 3 | thee"],
    // A part of the day is not a window for an interval; German "morgen" alone is tomorrow, not a morning.
    ["every hour in the evening x", 'I couldn\'t read "every hour in the evening" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
    ["morgen um 9 x", 'I couldn\'t read "morgen" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
  ]);

  // One table of hours for every language (docs/time.md#parts-of-the-day): morning 09:00, afternoon 12:00, evening
  // 19:00, night 22:00, whatever hour chrono-node gives the words; /remind tomorrow's and /every each day's alike.
  const agree: [string, string, number][] = [
    ["tomorrow morning", "every morning", 9],
    ["tomorrow afternoon", "every afternoon", 12],
    ["tomorrow evening", "every evening", 19],
    ["tomorrow night", "every night", 22],
    ["morgen Vormittag", "jeden Vormittag", 9],
    ["morgen Nachmittag", "jeden Nachmittag", 12],
    ["morgen Abend", "jeden Abend", 19],
    ["morgen Nacht", "jede Nacht", 22],
    ["demain matin", "chaque matin", 9],
    ["demain après-midi", "chaque après-midi", 12],
    ["demain soir", "chaque soir", 19],
    ["mañana en la mañana", "cada mañana", 9],
    ["mañana tarde", "cada tarde", 12],
    ["mañana noche", "cada noche", 22],
    ["amanhã manhã", "toda manhã", 9],
    ["amanhã à tarde", "toda tarde", 12],
    ["amanhã à noite", "toda noite", 22],
    ["domani mattina", "ogni mattina", 9],
    ["domani pomeriggio", "ogni pomeriggio", 12],
    ["domani sera", "ogni sera", 19],
    ["domani notte", "ogni notte", 22],
    ["morgen ochtend", "elke ochtend", 9],
    ["morgen middag", "elke middag", 12],
    ["morgen namiddag", "elke namiddag", 12],
    ["morgen avond", "elke avond", 19],
    ["завтра утром", "каждое утро", 9],
    ["завтра вечером", "каждый вечер", 19],
    ["завтра ночью", "каждую ночь", 22],
  ];
  it.each(agree)("%s and %s: %i:00", async (once, repeated, hour) => {
    const when = await readSchedule(`${once} x`, { zone: ZONE, now: NOW });
    if (!when.ok || when.value.schedule.type !== "at") throw new Error(once);
    expect(when.value.phrase).toBe(once);
    expect(new Date(when.value.schedule.at + 3_600_000).getUTCHours()).toBe(hour);
    expect(await every(`${repeated} x`)).toBe(`cron 0 ${hour} * * * | ${repeated} | x`);
  });
});

describe("for 5 days: runsLeft when each of those units holds one run, else until", () => {
  table([
    ["every monday for 4 weeks review", "cron 0 9 * * 1 ×4 | every monday for 4 weeks | review"],
    ["every month on the 1st for 6 months pay", "cron 0 9 1 * * ×6 | every month on the 1st for 6 months | pay"],
    ["every evening at 8 for 5 days journal", "cron 0 20 * * * ×5 | every evening at 8 for 5 days | journal"],
    // Until the minute before that many units have passed since the first run: 10 runs, 12 runs, 4 runs, 10 runs.
    ["every day at 9 and 21 for 5 days pill", "cron 0 9,21 * * * until 2026-12-07T20:59 | every day at 9 and 21 for 5 days | pill"],
    ["every 2 hours for 1 day drink", "cron 0 */2 * * * until 2026-12-03T11:59 | every 2 hours for 1 day | drink"],
    ["every 30 minutes for 2 hours drink", "cron */30 * * * * until 2026-12-02T12:29 | every 30 minutes for 2 hours | drink"],
    ["every weekday at 9 for 2 weeks standup", "cron 0 9 * * 1-5 until 2026-12-17T08:59 | every weekday at 9 for 2 weeks | standup"],
    ["every 3 days for 2 weeks water", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-03T09:00 until 2026-12-17T08:59 | every 3 days for 2 weeks | water"],
    // Shorter than what the phrase repeats in, it is how long the thing lasts: the text.
    ["every monday for 2 hours meeting", "cron 0 9 * * 1 | every monday | for 2 hours meeting"],
    ["every day at 9 for mum", "cron 0 9 * * * | every day at 9 | for mum"],
    ["every day for 5 days 10 times x", 'I couldn\'t read "every day for 5 days 10 times" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
  ]);

  it("ends where it said: ten runs over five days, the last on Monday at 9:00", async () => {
    const r = await readSchedule("every day at 9 and 21 for 5 days pill", { zone: ZONE, now: NOW, recurring: true });
    if (!r.ok || r.value.schedule.type !== "cron") throw new Error("expected cron");
    const p = await previewSchedule(r.value.schedule, r.value.ends, ZONE, NOW, 20);
    if (!p.ok) throw new Error(p.error);
    expect(p.value.occurrences).toHaveLength(10);
    expect(p.value.occurrences.at(-1)).toBe("2026-12-07T08:00:00.000Z");
  });
});
