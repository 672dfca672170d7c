/**
 * The one parser from words to a schedule (docs/time.md#words-when, issue 24 item 5), as the page's Schedule field,
 * `POST /admin/preview { when }` and `/remind` read: a phrase that says a repetition is read as `/every` reads it,
 * any other as `/remind` does ("monday 9:00" is the next Monday, once); written forms (ISO, durations, cron,
 * RRULE) as they are; `whole` refuses text after the schedule; errors come with their sentence. Read in
 * Europe/Berlin on Tuesday 1 December 2026 at 10:00:37.
 */
import { describe, expect, it } from "vitest";
import { type ReadScheduleOptions, readSchedule } from "../../src/words";
import { scheduleLine } from "./schedule-line";

const NOW = Date.parse("2026-12-01T09:00:37.123Z");
const ZONE = "Europe/Berlin";

async function read(text: string, options: Partial<ReadScheduleOptions> = {}): Promise<string> {
  const r = await readSchedule(text, { zone: ZONE, now: NOW, ...options });
  if (!r.ok) return `${r.problem.kind}: ${"phrase" in r.problem ? r.problem.phrase : ""}`;
  return `${scheduleLine(r.value)} | ${r.value.phrase} | ${r.value.rest} | ${r.value.language ?? "-"}`;
}

describe("a part of the day takes the one table's hour (morning 9, afternoon 12, evening 19, night 22), in the sender's language", () => {
  // chrono reads the day and, in these, leaves the part of the day as the reminder's text at 09:00.
  const table: [string, string, string][] = [
    ["de", "morgen früh Brot kaufen", "at 2026-12-02T08:00:00.000Z | morgen früh | Brot kaufen | -"],
    ["de", "morgen nachmittag Arzt", "at 2026-12-02T11:00:00.000Z | morgen nachmittag | Arzt | -"],
    ["es", "mañana por la tarde llamar", "at 2026-12-02T11:00:00.000Z | mañana por la tarde | llamar | -"],
    ["pt", "amanhã de manhã ligar", "at 2026-12-02T08:00:00.000Z | amanhã de manhã | ligar | -"],
    ["fr", "demain nuit appeler", "at 2026-12-02T21:00:00.000Z | demain nuit | appeler | -"],
    // chrono's own readings of a part take the table's hour too; a word that only starts like a part of the day is text
    ["fr", "demain soir appeler", "at 2026-12-02T18:00:00.000Z | demain soir | appeler | -"],
    ["de", "morgen Frühstück machen", "at 2026-12-02T08:00:00.000Z | morgen | Frühstück machen | -"],
    // a day with its own time keeps it
    ["de", "morgen um 9 früh aufstehen", "at 2026-12-02T08:00:00.000Z | morgen um 9 | früh aufstehen | -"],
  ];
  it.each(table)("%s: %s → %s", async (language, input, expected) => {
    expect(await read(input, { language })).toBe(expected);
  });
});

describe("a phrase that says a repetition is a repetition; any other is one time", () => {
  const table: [string, string][] = [
    ["tomorrow 9am call mum", "at 2026-12-02T08:00:00.000Z | tomorrow 9am | call mum | -"],
    ["monday 9:00 standup", "at 2026-12-07T08:00:00.000Z | monday 9:00 | standup | -"],
    ["mondays at 9 standup", "cron 0 9 * * 1 | mondays at 9 | standup | en"],
    ["every monday 9:00 standup", "cron 0 9 * * 1 | every monday 9:00 | standup | en"],
    ["weekdays at 8:30 inbox", "cron 30 8 * * 1-5 | weekdays at 8:30 | inbox | en"],
    ["daily at 7 wake", "cron 0 7 * * * | daily at 7 | wake | en"],
    ["twice a day at 9 and 18 pills", "cron 0 9,18 * * * | twice a day at 9 and 18 | pills | en"],
    ["the last friday of the month at 17:00 invoices", "cron 0 17 * * 5L | the last friday of the month at 17:00 | invoices | en"],
    ["every other tuesday at 10 review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | every other tuesday at 10 | review | en"],
    ["in 2 hours oven", "at 2026-12-01T11:00:37.123Z | in 2 hours | oven | -"],
    ["14:30 call mum", "at 2026-12-01T13:30:00.000Z | 14:30 | call mum | -"],
    ["20m stretch", "at 2026-12-01T09:20:37.123Z | 20m | stretch | -"],
    ["PT20M stretch", "at 2026-12-01T09:20:37.123Z | PT20M | stretch | -"],
    ["2026-12-02 14:30 call mum", "at 2026-12-02T13:30:00.000Z | 2026-12-02 14:30 | call mum | -"],
    ["2026-12-02T14:30Z call mum", "at 2026-12-02T14:30:00.000Z | 2026-12-02T14:30Z | call mum | -"],
    // The other languages: a one-off by chrono-node, a repetition by the phrase tables.
    ["morgen um 9 Mama anrufen", "at 2026-12-02T08:00:00.000Z | morgen um 9 | Mama anrufen | -"],
    ["Montag um 9 Standup", "at 2026-12-07T08:00:00.000Z | Montag um 9 | Standup | -"],
    ["montags um 9 Standup", "cron 0 9 * * 1 | montags um 9 | Standup | de"],
    ["jeden Tag um 8 Zeitung", "cron 0 8 * * * | jeden Tag um 8 | Zeitung | de"],
    ["14:30 Uhr Zahnarzt", "at 2026-12-01T13:30:00.000Z | 14:30 Uhr | Zahnarzt | -"],
    ["demain à 9h appeler maman", "at 2026-12-02T08:00:00.000Z | demain à 9h | appeler maman | -"],
    ["tous les lundis à 9h réunion", "cron 0 9 * * 1 | tous les lundis à 9h | réunion | fr"],
    ["mañana a las 9 llamar", "at 2026-12-02T08:00:00.000Z | mañana a las 9 | llamar | -"],
    ["cada 2 semanas el martes revisión", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T09:00 | cada 2 semanas el martes | revisión | es"],
    ["amanhã às 9 ligar", "at 2026-12-02T08:00:00.000Z | amanhã às 9 | ligar | -"],
    ["toda segunda às 9 reunião", "cron 0 9 * * 1 | toda segunda às 9 | reunião | pt"],
    ["domani alle 9 chiamare", "at 2026-12-02T08:00:00.000Z | domani alle 9 | chiamare | -"],
    ["ogni giorno alle 8 caffè", "cron 0 8 * * * | ogni giorno alle 8 | caffè | it"],
    ["morgen om 9 bellen", "at 2026-12-02T08:00:00.000Z | morgen om 9 | bellen | -"],
    ["elke dag om 8 koffie", "cron 0 8 * * * | elke dag om 8 | koffie | nl"],
    ["завтра в 9 позвонить маме", "at 2026-12-02T08:00:00.000Z | завтра в 9 | позвонить маме | -"],
    ["каждый день в 9 кофе", "cron 0 9 * * * | каждый день в 9 | кофе | ru"],
    ["明日9時にお母さんに電話", "at 2026-12-02T08:00:00.000Z | 明日9時 | お母さんに電話 | -"],
  ];
  it.each(table)("%s → %s", async (input, expected) => {
    expect(await read(input)).toBe(expected);
  });
});

describe("written forms, taken as they are", () => {
  const table: [string, string][] = [
    ['"0 8 * * 1-5" plan', 'cron 0 8 * * 1-5 | "0 8 * * 1-5" | plan | -'],
    ["“0 8 * * 1-5” plan", "cron 0 8 * * 1-5 | “0 8 * * 1-5” | plan | -"],
    ["0 7 * * 0 weekly review", "cron 0 7 * * 0 | 0 7 * * 0 | weekly review | -"],
    ["@daily water", "cron @daily | @daily | water | -"],
    ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-01T09:00 | FREQ=WEEKLY;INTERVAL=2;BYDAY=TU | review | -"],
    [
      "rrule:freq=monthly;byday=mo,tu,we,th,fr;bysetpos=-1 report",
      "rule FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1 from 2026-12-01T09:00 | rrule:freq=monthly;byday=mo,tu,we,th,fr;bysetpos=-1 | report | -",
    ],
    [
      "DTSTART:20261208T100000 RRULE:FREQ=WEEKLY;INTERVAL=2 review",
      "rule FREQ=WEEKLY;INTERVAL=2 from 2026-12-08T10:00 | DTSTART:20261208T100000 RRULE:FREQ=WEEKLY;INTERVAL=2 | review | -",
    ],
    [
      "DTSTART;TZID=Europe/Berlin:20261208T100000 BYDAY=TU;FREQ=WEEKLY",
      "rule BYDAY=TU;FREQ=WEEKLY from 2026-12-08T10:00 | DTSTART;TZID=Europe/Berlin:20261208T100000 BYDAY=TU;FREQ=WEEKLY |  | -",
    ],
  ];
  it.each(table)("%s → %s", async (input, expected) => {
    expect(await read(input)).toBe(expected);
  });
});

describe("a written form that cannot be a schedule is a problem of its kind, with the engine's sentence", () => {
  it("refuses a cron that never fires as a cron problem, and a rule that does not read as a rule problem", async () => {
    const never = await readSchedule('"0 0 30 2 *" leap day', { zone: ZONE, now: NOW, recurring: true });
    expect(never).toMatchObject({
      ok: false,
      problem: {
        kind: "cron",
        phrase: "0 0 30 2 *",
        rest: "leap day",
        sentence: 'The cron expression "0 0 30 2 *" never fires within 5 years; check its day-of-month, month and day-of-week fields.',
      },
    });
    const rule = await readSchedule("FREQ=SECONDLY tick", { zone: ZONE, now: NOW, recurring: true });
    expect(rule.ok).toBe(false);
    if (rule.ok) return;
    expect(rule.problem).toMatchObject({ kind: "rule", phrase: "FREQ=SECONDLY", rest: "tick" });
    // Its sentence is the rule engine's, as the job's create would have said it.
    expect(rule.message).toBe("sentence" in rule.problem ? rule.problem.sentence : "");
    expect(rule.message).toMatch(/^"rrule" "FREQ=SECONDLY"/);
  });
});

describe("the page's field: the whole text is the schedule", () => {
  it("takes a schedule alone, and refuses one with text after it, quoting the text", async () => {
    expect(await read("every other tuesday at 10", { whole: true })).toBe(
      "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | every other tuesday at 10 |  | en",
    );
    expect(await read("tomorrow 9am", { whole: true })).toBe("at 2026-12-02T08:00:00.000Z | tomorrow 9am |  | -");
    const r = await readSchedule("every day at 8 blah", { zone: ZONE, now: NOW, whole: true });
    expect(r).toEqual({
      ok: false,
      problem: { kind: "unreadable", phrase: "blah", recurring: true },
      message: 'I couldn\'t read "blah" as a schedule. Try tomorrow 9:00 or every day at 8:00.',
    });
  });
});

describe("errors come as one sentence, in the language asked for when a phrase was not read", () => {
  const table: [text: string, language: string | undefined, message: string][] = [
    ["", undefined, "The schedule is empty. Try tomorrow 9:00 or every day at 8:00."],
    ["tomorow 9am", undefined, 'I couldn\'t read "tomorow" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
    ["morgn um 9", "de-AT", 'Ich konnte "morgn" nicht als Zeitplan lesen. Versuche morgen um 9:00 oder jeden Tag um 8:00.'],
    ["demian", "fr", "Je n'ai pas pu lire « demian » comme un horaire. Essayez demain à 9h00 ou tous les jours à 8h00."],
    ["mannana", "es", 'No pude leer "mannana" como un horario. Prueba mañana a las 9:00 o todos los días a las 8:00.'],
    ["amanhaa", "pt-BR", 'Não consegui ler "amanhaa" como um horário. Tente amanhã às 9:00 ou todos os dias às 8:00.'],
    ["domami", "it", 'Non sono riuscito a leggere "domami" come orario. Prova domani alle 9:00 o ogni giorno alle 8:00.'],
    ["morgn", "nl", 'Ik kon "morgn" niet als schema lezen. Probeer morgen om 9:00 of elke dag om 8:00.'],
    ["завтро", "ru", "Не удалось прочитать «завтро» как расписание. Попробуйте завтра в 9:00 или каждый день в 8:00."],
    // A language without a table answers in English.
    ["blah", "ja", 'I couldn\'t read "blah" as a schedule. Try tomorrow 9:00 or every day at 8:00.'],
    ["today 8am", undefined, '"today 8am" is in the past: Tue 1 Dec 08:00 (Europe/Berlin) was 2 hours ago. Try 2026-12-02 09:00 or 2h.'],
    ["2031-12-31", undefined, '"2031-12-31" is more than 5 years ahead (2031-12-31 09:00 in Europe/Berlin). Try 2026-12-02 09:00 or 2h.'],
    [
      '"0 8 * *"',
      undefined,
      'I couldn\'t use "0 8 * *" as a schedule: Invalid cron expression "0 8 * *": it has 4 fields; use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily". Try "0 8 * * 1-5" or every day at 8:00.',
    ],
    [
      "every day at 9:15 and 18:30",
      undefined,
      '"every day at 9:15 and 18:30" names times with different minutes, which one schedule cannot hold. Try every day at 9:15 and 18:15 or every day at 9:15.',
    ],
    [
      "every 3 days at 9 until 1 dec",
      undefined,
      '"every 3 days at 9 until 1 dec" ends before its first run (2026-12-01 23:59 in Europe/Berlin). Try every day at 8:00 until 2026-12-31 or every day at 8:00 10 times.',
    ],
  ];
  it.each(table)("%j (%s)", async (text, language, message) => {
    const r = await readSchedule(text, { zone: ZONE, now: NOW, language: language ?? null });
    expect(r.ok ? r.value : r.message).toBe(message);
  });
});

describe("the examples of every sentence read now, in their own language", () => {
  for (const lang of ["en", "de", "fr", "es", "pt", "it", "nl", "ru"] as const) {
    it(`${lang}`, async () => {
      const { table } = await import(`../../src/words/lang/${lang}.ts`);
      for (const example of table.examples.every) {
        const r = await readSchedule(`${example} ${table.texts.every}`, { zone: ZONE, now: NOW, language: lang, recurring: true });
        expect(r.ok && "cron" in r.value.schedule && r.value.rest, example).toBe(table.texts.every);
      }
      for (const example of [...table.examples.remind, table.examples.any[0]]) {
        const r = await readSchedule(`${example} ${table.texts.remind}`, { zone: ZONE, now: NOW, language: lang });
        expect(r.ok && "at" in r.value.schedule && r.value.rest, example).toBe(table.texts.remind);
      }
      const r = await readSchedule(table.examples.any[1], { zone: ZONE, now: NOW, language: lang, whole: true });
      expect(r.ok && "cron" in r.value.schedule, table.examples.any[1]).toBe(true);
    });
  }
});
