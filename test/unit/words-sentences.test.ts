/**
 * The sentences for a schedule not understood (issues 14, 24), as `/remind` and `/every` answer them: they quote
 * what was typed (at most 40 characters), say what was wrong and end with two examples of the command that work
 * now, with the user's text; an unread phrase in the sender's language (Telegram's language_code) where a phrase
 * table has it, English otherwise. Dates in examples are tomorrow's in the chat's zone, never past.
 */
import { describe, expect, it } from "vitest";
import { type ProblemContext, type ScheduleProblem, scheduleProblemText } from "../../src/words";

const BERLIN = "Europe/Berlin";
/** Tuesday 1 December 2026, 10:00 in Berlin. */
const NOW = Date.parse("2026-12-01T09:00:00Z");

const remind = (text: string, more: Partial<ProblemContext> = {}): ProblemContext => ({ zone: BERLIN, now: NOW, command: "/remind", text, ...more });
const every = (text: string, more: Partial<ProblemContext> = {}): ProblemContext => ({ zone: BERLIN, now: NOW, command: "/every", text, ...more });
const say = (problem: ScheduleProblem, ctx: ProblemContext) => scheduleProblemText(problem, ctx);

describe("/remind", () => {
  it("an unreadable time quotes what could not be read and reuses the text", async () => {
    expect(await say({ kind: "unreadable", phrase: "tomorow", rest: "call mum", recurring: false }, remind("call mum"))).toBe(
      'I couldn\'t read "tomorow" as a time. Try /remind tomorrow 9:00 call mum or /remind 2h call mum.',
    );
  });

  it("a past or impossible date gets a dated example for tomorrow, in the chat's zone", async () => {
    expect(await say({ kind: "past", phrase: "2026-01-01 09:00", instant: Date.parse("2026-01-01T08:00:00Z") }, remind(" water plants"))).toBe(
      '"2026-01-01 09:00" is in the past: Thu 1 Jan 09:00 (Europe/Berlin) was 334 days ago. Try /remind 2026-12-02 09:00 water plants or /remind 2h water plants.',
    );
    expect(await say({ kind: "not-real", phrase: "2026-02-30" }, remind("", { zone: "Asia/Tokyo", now: Date.parse("2026-12-31T15:30:00Z") }))).toBe(
      '"2026-02-30" is not a real date. Try /remind 2027-01-02 09:00 call mum or /remind 2h call mum.',
    );
    expect(await say({ kind: "too-far", phrase: "2032-01-01", instant: Date.parse("2032-01-01T08:00:00Z") }, remind(""))).toBe(
      '"2032-01-01" is more than 5 years ahead (2032-01-01 09:00 in Europe/Berlin). Try /remind 2026-12-02 09:00 call mum or /remind 2h call mum.',
    );
  });

  it("seconds and too soon", async () => {
    expect(await say({ kind: "seconds", phrase: "90s" }, remind("stretch"))).toBe(
      '"90s" counts seconds; a reminder is set in minutes, at least one ahead. Try /remind 2m stretch or /remind 2h stretch.',
    );
    expect(await say({ kind: "too-soon", phrase: "0m" }, remind(""))).toBe(
      '"0m" is less than a minute from now. Try /remind 2m call mum or /remind 2h call mum.',
    );
  });

  it("quotes at most 40 characters, and uses a stand-in for a long text", async () => {
    const long = "x".repeat(50);
    expect(await say({ kind: "unreadable", phrase: long, recurring: false }, remind(long))).toBe(
      `I couldn't read "${"x".repeat(40)}…" as a time. Try /remind tomorrow 9:00 call mum or /remind 2h call mum.`,
    );
  });

  it("in the sender's language, with its examples and its stand-in text", async () => {
    const cases: [string, string][] = [
      ["de", 'Ich konnte "morgn" nicht als Zeitpunkt lesen. Versuche /remind morgen um 9:00 Mama anrufen oder /remind 2h Mama anrufen.'],
      ["fr-CA", "Je n'ai pas pu lire « morgn » comme une date. Essayez /remind demain à 9h00 appeler maman ou /remind 2h appeler maman."],
      ["es", 'No pude leer "morgn" como una fecha. Prueba /remind mañana a las 9:00 llamar a mamá o /remind 2h llamar a mamá.'],
      ["pt", 'Não consegui ler "morgn" como uma data. Tente /remind amanhã às 9:00 ligar para a mãe ou /remind 2h ligar para a mãe.'],
      ["it", 'Non sono riuscito a leggere "morgn" come data. Prova /remind domani alle 9:00 chiamare la mamma o /remind 2h chiamare la mamma.'],
      ["nl", 'Ik kon "morgn" niet als tijdstip lezen. Probeer /remind morgen om 9:00 mama bellen of /remind 2h mama bellen.'],
      ["ru", "Не удалось прочитать «morgn» как время. Попробуйте /remind завтра в 9:00 позвонить маме или /remind 2h позвонить маме."],
      ["uk", 'I couldn\'t read "morgn" as a time. Try /remind tomorrow 9:00 call mum or /remind 2h call mum.'],
    ];
    for (const [language, sentence] of cases)
      expect(await say({ kind: "unreadable", phrase: "morgn", recurring: false }, remind("", { language })), language).toBe(sentence);
  });

  it("a time that will not do, in the sender's language: how long ago as it says it (Russian's plural), its examples", async () => {
    const past = (days: number): ScheduleProblem => ({ kind: "past", phrase: "2026-01-01 09:00", instant: NOW - days * 86_400_000 });
    expect(await say(past(334), remind("", { language: "de" }))).toBe(
      '"2026-01-01 09:00" liegt in der Vergangenheit: 2026-01-01 10:00 (Europe/Berlin) war vor 334 Tagen. Versuche /remind 2026-12-02 09:00 Mama anrufen oder /remind 2h Mama anrufen.',
    );
    expect(await say(past(21), remind("", { language: "ru" }))).toBe(
      "«2026-01-01 09:00» — уже в прошлом: 2026-11-10 10:00 (Europe/Berlin) было 21 день назад. Попробуйте /remind 2026-12-02 09:00 позвонить маме или /remind 2h позвонить маме.",
    );
    expect((await say(past(2), remind("", { language: "ru" }))).includes("было 2 дня назад.")).toBe(true);
    expect(await say({ kind: "once", phrase: "morgen 9" }, every("", { language: "nl" }))).toBe(
      '"morgen 9" is één tijdstip, geen herhaling. Probeer /remind morgen 9 mama bellen of /every elke dag om 8:00 het nieuws samenvatten.',
    );
  });
});

describe("/every", () => {
  it("an unread phrase, in English and in the sender's language, with the user's text", async () => {
    expect(await say({ kind: "unreadable", phrase: "evry", recurring: true }, every(""))).toBe(
      'I couldn\'t read "evry" as a schedule. Try /every day at 8:00 summarise the news or /every weekdays at 8:30 summarise the news.',
    );
    const cases: [string, string][] = [
      ["de", 'Ich konnte "jedn" nicht als Zeitplan lesen. Versuche /every jeden Tag um 8:00 Zeitung oder /every werktags um 8:30 Zeitung.'],
      ["fr", "Je n'ai pas pu lire « jedn » comme un horaire. Essayez /every tous les jours à 8h00 Zeitung ou /every en semaine à 8h30 Zeitung."],
      ["es", 'No pude leer "jedn" como un horario. Prueba /every todos los días a las 8:00 Zeitung o /every entre semana a las 8:30 Zeitung.'],
      ["pt", 'Não consegui ler "jedn" como um horário. Tente /every todos os dias às 8:00 Zeitung ou /every dias úteis às 8:30 Zeitung.'],
      ["it", 'Non sono riuscito a leggere "jedn" come orario. Prova /every ogni giorno alle 8:00 Zeitung o /every nei giorni feriali alle 8:30 Zeitung.'],
      ["nl", 'Ik kon "jedn" niet als schema lezen. Probeer /every elke dag om 8:00 Zeitung of /every op werkdagen om 8:30 Zeitung.'],
      ["ru", "Не удалось прочитать «jedn» как расписание. Попробуйте /every каждый день в 8:00 Zeitung или /every по будням в 8:30 Zeitung."],
    ];
    for (const [language, sentence] of cases)
      expect(await say({ kind: "unreadable", phrase: "jedn", recurring: true }, every("Zeitung", { language })), language).toBe(sentence);
  });

  it("a written cron the rules refused, with their sentence", async () => {
    expect(await say({ kind: "cron", phrase: "0 8 * *", sentence: 'Invalid cron expression "0 8 * *": it has 4 fields.' }, every("plan"))).toBe(
      'I couldn\'t use "0 8 * *" as a schedule: Invalid cron expression "0 8 * *": it has 4 fields. Try /every "0 8 * * 1-5" plan or /every day at 8:00 plan.',
    );
  });

  it("one time, times with different minutes, a count the times do not match, runs out of range, an end before the start", async () => {
    expect(await say({ kind: "once", phrase: "2026-12-02 09:00" }, every("stretch"))).toBe(
      '"2026-12-02 09:00" is one time, not a repetition. Try /remind 2026-12-02 09:00 stretch or /every day at 8:00 stretch.',
    );
    expect(
      await say(
        {
          kind: "minutes",
          phrase: "day at 9:15 and 18:30",
          times: [
            { hour: 9, minute: 15 },
            { hour: 18, minute: 30 },
          ],
        },
        every("pills"),
      ),
    ).toBe(
      '"day at 9:15 and 18:30" names times with different minutes, which one schedule cannot hold. Try /every day at 9:15 and 18:15 pills or /every day at 9:15 pills.',
    );
    expect(await say({ kind: "count", phrase: "twice a day at 9", count: 2, unit: "day" }, every("pills"))).toBe(
      '"twice a day at 9" says 2 times a day; name 2 times. Try /every twice a day at 9 and 18 pills or /every day at 9:00 pills.',
    );
    expect(await say({ kind: "count", phrase: "twice a week on monday", count: 2, unit: "week" }, every("run"))).toBe(
      '"twice a week on monday" says 2 times a week; name 2 days. Try /every twice a week on monday and thursday at 9:00 run or /every monday at 9:00 run.',
    );
    expect(await say({ kind: "runs", phrase: "day 5000 times", runs: 5000 }, every("x"))).toBe(
      '"day 5000 times" asks for 5000 runs; a job runs 1 to 1000 times. Try /every day at 8:00 10 times x or /every day at 8:00 x.',
    );
    expect(await say({ kind: "until", phrase: "3 days until 1 dec", until: Date.parse("2026-12-01T22:59:00Z") }, every("x"))).toBe(
      '"3 days until 1 dec" ends before its first run (2026-12-01 23:59 in Europe/Berlin). Try /every day at 8:00 until 2026-12-31 x or /every day at 8:00 10 times x.',
    );
    expect(await say({ kind: "conflict", phrase: "jeden Tag am 15." }, every("x", { language: "de" }))).toBe(
      'Ich konnte "jeden Tag am 15." nicht als Zeitplan lesen. Versuche /every jeden Tag um 8:00 x oder /every werktags um 8:30 x.',
    );
  });
});
