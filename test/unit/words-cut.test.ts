/**
 * Where the schedule ends and the text begins, and what the reader refuses rather than guesses (docs/time.md#words-when,
 * issue 31 items 1 and 4), in each of the eight languages: schedule-ish words at the start of the text stay text
 * (`weekly report`, `morning pages`); a part of the day after a clock time is the schedule's only when it changes the
 * hour; an end or a count may come after the text; a number that is a time is never an interval; a number too large,
 * a part said twice or a second schedule is refused with its sentence, in the user's language. Read as `/every` reads,
 * in Europe/Berlin on Tuesday 1 December 2026 at 10:00:37.
 */
import { describe, expect, it } from "vitest";
import { readSchedule } from "../../src/words";
import { scheduleLine } from "./schedule-line";

const NOW = Date.parse("2026-12-01T09:00:37.123Z");
const ZONE = "Europe/Berlin";

/** What `/every` makes of `text` in `language`: `<schedule> | <phrase> | <text> | <tail>`, or the sentence it answers. */
async function every(text: string, language: string): Promise<string> {
  const r = await readSchedule(text, { zone: ZONE, now: NOW, language, recurring: true });
  return r.ok ? `${scheduleLine(r.value)} | ${r.value.phrase} | ${r.value.rest} | ${r.value.tail}` : r.message;
}

const rows = (table: [language: string, text: string, read: string][]) =>
  it.each(table)("%s: %s → %s", async (language, text, expected) => {
    expect(await every(text, language)).toBe(expected);
  });

describe("the text is never eaten: schedule-ish words at its start stay text", () => {
  rows([
    ["en", "friday at 17 weekly report", "cron 0 17 * * 5 | friday at 17 | weekly report | "],
    ["en", "monday at 9 daily standup", "cron 0 9 * * 1 | monday at 9 | daily standup | "],
    ["en", "every day at 7 morning pages", "cron 0 7 * * * | every day at 7 | morning pages | "],
    ["en", "every day at 9 weekend plans", "cron 0 9 * * * | every day at 9 | weekend plans | "],
    ["en", "daily at 9 monday report", "cron 0 9 * * * | daily at 9 | monday report | "],
    ["fr", "tous les jours à 9h lundi rapport", "cron 0 9 * * * | tous les jours à 9h | lundi rapport | "],
    ["de", "jeden Freitag um 17 Wochenbericht", "cron 0 17 * * 5 | jeden Freitag um 17 | Wochenbericht | "],
    ["de", "jeden Montag um 9 täglicher Bericht", "cron 0 9 * * 1 | jeden Montag um 9 | täglicher Bericht | "],
    ["fr", "tous les vendredis à 17h rapport hebdomadaire", "cron 0 17 * * 5 | tous les vendredis à 17h | rapport hebdomadaire | "],
    ["fr", "tous les jours à 7h pages du matin", "cron 0 7 * * * | tous les jours à 7h | pages du matin | "],
    ["es", "todos los viernes a las 17 informe semanal", "cron 0 17 * * 5 | todos los viernes a las 17 | informe semanal | "],
    ["pt", "toda sexta às 17 relatório semanal", "cron 0 17 * * 5 | toda sexta às 17 | relatório semanal | "],
    ["it", "ogni venerdì alle 17 rapporto settimanale", "cron 0 17 * * 5 | ogni venerdì alle 17 | rapporto settimanale | "],
    ["nl", "elke dag om 9 uur wekelijks overleg", "cron 0 9 * * * | elke dag om 9 uur | wekelijks overleg | "],
    ["ru", "каждую пятницу в 17 еженедельный отчёт", "cron 0 17 * * 5 | каждую пятницу в 17 | еженедельный отчёт | "],
    ["ru", "каждый день в 7 утренние страницы", "cron 0 7 * * * | каждый день в 7 | утренние страницы | "],
    // Said again with nothing after it, the same word is the schedule's; first, it says how often.
    ["en", "every friday weekly", "cron 0 9 * * 5 | every friday weekly |  | "],
    ["en", "at 9 daily", "cron 0 9 * * * | at 9 daily |  | "],
    // After a time alone, a daily word says how often (nothing else did): `6am daily`, `6am everyday`.
    ["en", "at 9 daily pills", "cron 0 9 * * * | at 9 daily | pills | "],
    ["en", "6am everyday pills", "cron 0 6 * * * | 6am everyday | pills | "],
    ["en", "at 9 weekly report", "cron 0 9 * * * | at 9 | weekly report | "],
    ["en", "daily at 9 pills", "cron 0 9 * * * | daily at 9 | pills | "],
  ]);
});

describe("a part of the day after a clock time is the schedule's when it changes the hour", () => {
  rows([
    ["en", "every day at 8 in the evening walk", "cron 0 20 * * * | every day at 8 in the evening | walk | "],
    ["de", "jeden Tag um 8 abends spazieren", "cron 0 20 * * * | jeden Tag um 8 abends | spazieren | "],
    ["fr", "tous les jours à 8h du soir promenade", "cron 0 20 * * * | tous les jours à 8h du soir | promenade | "],
    ["es", "todos los días a las 8 de la tarde paseo", "cron 0 20 * * * | todos los días a las 8 de la tarde | paseo | "],
    ["ru", "каждый день в 8 вечера прогулка", "cron 0 20 * * * | каждый день в 8 вечера | прогулка | "],
  ]);
});

describe("an end or a count may come after the text", () => {
  rows([
    ["en", "every weekday at 8:30 inbox until March", "cron 30 8 * * 1-5 until 2027-02-28T23:59 | every weekday at 8:30 | inbox | until March"],
    ["en", "every day at 9 stretch 10 times", "cron 0 9 * * * ×10 | every day at 9 | stretch | 10 times"],
    ["en", "every monday at 10 review until 31 dec", "cron 0 10 * * 1 until 2026-12-31T23:59 | every monday at 10 | review | until 31 dec"],
    ["en", "every day at 9 call mum 3 times until friday", "cron 0 9 * * * until 2026-12-04T23:59 ×3 | every day at 9 | call mum | 3 times until friday"],
    // A time alone is no end: "until 5pm" is the text's; so is a count in one word ("twice" is how the text is done).
    ["en", "every day at 9 focus until 5pm", "cron 0 9 * * * | every day at 9 | focus until 5pm | "],
    ["en", "every weekday at 8 call mom twice", "cron 0 8 * * 1-5 | every weekday at 8 | call mom twice | "],
    ["de", "jeden Werktag um 8:30 Posteingang bis März", "cron 30 8 * * 1-5 until 2027-02-28T23:59 | jeden Werktag um 8:30 | Posteingang | bis März"],
    ["de", "jeden Tag um 9 dehnen 10 mal", "cron 0 9 * * * ×10 | jeden Tag um 9 | dehnen | 10 mal"],
    [
      "fr",
      "tous les jours à 8h boîte de réception jusqu'en mars",
      "cron 0 8 * * * until 2027-02-28T23:59 | tous les jours à 8h | boîte de réception | jusqu'en mars",
    ],
    ["es", "todos los días a las 9 correo hasta marzo", "cron 0 9 * * * until 2027-02-28T23:59 | todos los días a las 9 | correo | hasta marzo"],
    ["pt", "todos os dias às 9 emails até março", "cron 0 9 * * * until 2027-02-28T23:59 | todos os dias às 9 | emails | até março"],
    ["it", "ogni giorno alle 9 posta fino a marzo", "cron 0 9 * * * until 2027-02-28T23:59 | ogni giorno alle 9 | posta | fino a marzo"],
    ["nl", "elke dag om 9 mail tot maart", "cron 0 9 * * * until 2027-02-28T23:59 | elke dag om 9 | mail | tot maart"],
    ["ru", "каждый день в 9 почта до марта", "cron 0 9 * * * until 2027-02-28T23:59 | каждый день в 9 | почта | до марта"],
    ["ru", "каждый день в 9 зарядка 10 раз", "cron 0 9 * * * ×10 | каждый день в 9 | зарядка | 10 раз"],
  ]);
});

describe("a number that is a time is never an interval", () => {
  rows([
    ["fr", "à 16h tous les lundis réunion", "cron 0 16 * * 1 | à 16h tous les lundis | réunion | "],
    ["fr", "16h tous les lundis réunion", "cron 0 16 * * 1 | 16h tous les lundis | réunion | "],
    ["fr", "tous les lundis 16h réunion", "cron 0 16 * * 1 | tous les lundis 16h | réunion | "],
    ["fr", "16h00 boire", "cron 0 16 * * * | 16h00 | boire | "],
    ["es", "a las 16 todos los lunes reunión", "cron 0 16 * * 1 | a las 16 todos los lunes | reunión | "],
    // English writes no time as "16h": there it is how often.
    ["en", "16h drink", "rule FREQ=HOURLY;INTERVAL=16 from 2026-12-01T10:00 | 16h | drink | "],
    // Alone, where the language writes a time so, it could be either: refused, with both readings.
    ["fr", "16h boire", "« 16h » peut être une heure ou un intervalle. Essayez tous les jours à 16h00 ou toutes les 16 heures."],
    ["de", "16h trinken", '"16h" kann eine Uhrzeit oder ein Abstand sein. Versuche jeden Tag um 16:00 oder alle 16 Stunden.'],
    ["es", "16h beber", '"16h" puede ser una hora del día o un intervalo. Prueba todos los días a las 16:00 o cada 16 horas.'],
    ["pt", "16h beber", '"16h" pode ser um horário ou um intervalo. Tente todos os dias às 16:00 ou a cada 16 horas.'],
    ["it", "16h bere", '"16h" può essere un\'ora del giorno o un intervallo. Prova ogni giorno alle 16:00 o ogni 16 ore.'],
    ["nl", "2 uur drinken", '"2 uur" kan een tijdstip of een interval zijn. Probeer elke dag om 2:00 of elke 2 uur.'],
  ]);
});

describe("refused: a number too large, a part said twice, a second schedule", () => {
  rows([
    [
      "en",
      "every 99999999999999999999 minutes water",
      "99999999999999999999 is too large: a schedule runs at least once in 5 years. Try tomorrow 9:00 or every day at 8:00.",
    ],
    ["en", "every 61 months x", "61 is too large: a schedule runs at least once in 5 years. Try tomorrow 9:00 or every day at 8:00."],
    [
      "de",
      "alle 99999999999999999999 Minuten gießen",
      "99999999999999999999 ist zu groß: ein Zeitplan läuft mindestens einmal in 5 Jahren. Versuche morgen um 9:00 oder jeden Tag um 8:00.",
    ],
    [
      "ru",
      "каждые 99999999999999999999 минут полить",
      "99999999999999999999 — слишком большое число: расписание срабатывает хотя бы раз в 5 лет. Попробуйте завтра в 9:00 или каждый день в 8:00.",
    ],
    ["en", "day from 1 jan from 1 jan water", 'I couldn\'t use "from 1 jan": a schedule says each of its parts once. Try tomorrow 9:00 or every day at 8:00.'],
    [
      "es",
      "todos los días desde el 1 de enero desde el 1 de enero regar",
      'No pude usar "desde el 1 de enero": un horario dice cada una de sus partes una sola vez. Prueba mañana a las 9:00 o todos los días a las 8:00.',
    ],
    [
      "en",
      "every day at 9 until friday until monday x",
      'I couldn\'t use "until monday": a schedule says each of its parts once. Try tomorrow 9:00 or every day at 8:00.',
    ],
    [
      "en",
      "every monday at 9 and wednesday at 10 standup",
      'I couldn\'t use "and wednesday at 10": a schedule says each of its parts once. Try tomorrow 9:00 or every day at 8:00.',
    ],
    [
      "de",
      "jeden Montag um 9 und Mittwoch um 10 Standup",
      'Ich konnte "und Mittwoch um 10" nicht verwenden: ein Zeitplan nennt jeden Teil nur einmal. Versuche morgen um 9:00 oder jeden Tag um 8:00.',
    ],
  ]);

  it("reads 'every day twice' as twice a day, which then needs its two times, not as two runs in all", async () => {
    expect(await every("every day twice pills", "en")).toBe(
      '"every day twice" says 2 times a day; name 2 times. Try every twice a day at 9 and 18 or every day at 9:00.',
    );
    expect(await every("every day twice at 9 and 18 pills", "en")).toBe("cron 0 9,18 * * * | every day twice at 9 and 18 | pills | ");
  });

  it("takes an interval up to 5 years", async () => {
    expect(await every("every 60 months x", "en")).toBe("rule FREQ=MONTHLY;INTERVAL=60;BYMONTHDAY=1 from 2027-01-01T09:00 | every 60 months | x | ");
  });
});
