/**
 * @module The phrase reader (docs/telegram.md `/every`, docs/time.md#words-when, issue 24): a repetition as people
 * say it, read with one language's phrase table (`../lang/`) and that language's weekday and month names
 * (`names.ts`, from `Intl`) into a plan (`plan.ts`). The grammar is the same in every language: a phrase is a run
 * of clauses in any order, each said once, and what follows the last one is the text. The clause readers are
 * `clauses-*.ts`, over the cursor (`cursor.ts`) and the table's words (`lexicon.ts`); this module tries them in
 * turn and says what the reading came to. A phrase read only in part is refused rather than cut short: a part said
 * a second time (`from 1 jan from 1 jan`), a second schedule after "and" (`every monday at 9 and wednesday at 10`),
 * a number too large or one that may be a time or how often. `../form.ts` turns a plan into cron or a rule. Pure.
 */
import { DAY_PARTS, type PhraseTable } from "../lang";
import { days, except, monthDay, position } from "./clauses-days";
import { dateClause, runs } from "./clauses-ends";
import { count, interval } from "./clauses-repeats";
import { dayPart, times, window } from "./clauses-times";
import { leads, weekday } from "./lexicon";
import { type DateReader, type PlanProblem, type PlanRead, partHour } from "./plan";
import { newReading, periodSaid, type Reading, schedules } from "./reading";

/** Reads one language's phrase at the start of `text`; `said` in the reading tells whether it says a repetition. */
export async function readPlan(text: string, table: PhraseTable, readDate: DateReader): Promise<PlanRead | PlanProblem> {
  const r = newReading(text, table);
  const { c } = r;
  for (;;) {
    const start = c.pos;
    const ok = clause(r) || (await dateClause(r, readDate));
    if (!ok) {
      c.pos = start;
      break;
    }
    r.clauses++;
  }
  const end = c.pos;
  // "every day at 25": a time was meant but is none; say so rather than take 09:00 and "at 25" as the text.
  const bad = c.attempt(() => (c.word(table.at) !== null ? c.take(/\d\S*/u) : null));
  if (bad) return { kind: "unreadable", phrase: text.slice(end, c.pos).trim(), at: end };
  if (r.trouble?.kind === "too-large") return r.trouble;
  // "each 4/15", "elke 15-4", "2nd-to-last friday": the phrase stopped inside a word, so the rest of that word was
  // meant with it (a date in numbers, a position it cannot take); refused rather than read as the 4th or the 2nd.
  if (/\S$/u.test(text.slice(0, end)) && /^[\p{L}\d/\-–]/u.test(text.slice(end))) {
    return { kind: "unreadable", phrase: text.slice(0, end).trim() + (/^\S+/u.exec(text.slice(end))?.[0] ?? ""), at: 0 };
  }
  // "jedes Jahr am 31.08.", "maandelijks op de voorlaatste vrijdag": the text would start with "on" and a date in
  // numbers or a weekday (a word before it, a position the phrase cannot take); that day was meant, not the text's.
  // Refused rather than read as every year on the first of this month, every month on the 1st.
  const leftover = newReading(text, table);
  leftover.c.pos = end;
  leads(leftover);
  const { c: l } = leftover;
  const numbers = l.pos > end && l.peek(() => l.take(/\d/u));
  // "of" or "every" before a weekday joins it to the schedule too (9am di ogni lunedì, at 9 every monday).
  while (l.word(table.of) !== null || l.word(table.every) !== null || l.word(table.lead) !== null);
  const dayAhead = () => weekday(leftover) ?? (l.take(/\S+/u) ? weekday(leftover) : null);
  if (numbers || (l.pos > end && l.peek(dayAhead))) {
    return { kind: "unreadable", phrase: text.slice(end).trim().split(/\s+/u).slice(0, 2).join(" "), at: end };
  }
  const again = await saidAgain(text, end, table, readDate);
  if (again !== null) return { kind: "twice", phrase: again, at: end };
  if (r.clauses === 0) return { kind: "unreadable", phrase: firstWord(text), at: 0 };
  if (!schedules(r)) return { kind: "unreadable", phrase: text.slice(0, end).trim(), at: 0 };
  // `16h` alone: at 16:00 every day, or every 16 hours? Nothing else in the phrase says.
  if (r.trouble?.kind === "ambiguous" && !periodSaid(r) && !r.part) return r.trouble;
  if (r.part) {
    const part = r.part;
    r.plan.part = DAY_PARTS[part].hour;
    r.plan.times = r.plan.times.map((t) => (r.bare.has(t) ? { hour: partHour(t.hour, part), minute: t.minute } : t));
  }
  return { plan: r.plan, end, said: r.said, anchored: c.anchored };
}

/** One clause at the position, tried in turn; false when none reads. */
function clause(r: Reading): boolean {
  const { c } = r;
  c.attempt(() => c.take(/,/u)); // "every monday, at 9"
  // Days before units: "tous les jours de semaine" is the working days, not every day and a text.
  // Parts of the day before times: Dutch "middag" is a part (elke middag om 3) before it is noon.
  return count(r) || position(r) || days(r) || monthDay(r) || window(r) || interval(r) || dayPart(r) || times(r) || except(r) || runs(r);
}

/**
 * What follows the phrase at `end`, when it is a part of a schedule the phrase could not take: a date clause said a
 * second time (`from 1 jan from 1 jan`: taken as a time, it made a job at 01:00 with "jan water" as its text), or,
 * after "and", days, a position in the month, a time with its "at", or how often with its "every" (a second
 * schedule: `every monday at 9 and wednesday at 10`). The part to quote, up to where it ends; else null.
 */
async function saidAgain(text: string, end: number, table: PhraseTable, readDate: DateReader): Promise<string | null> {
  const f = newReading(text, table);
  const { c } = f;
  c.pos = end;
  if (await dateClause(f, readDate)) return text.slice(end, c.pos).trim();
  c.pos = end;
  const and = c.word(table.and);
  if (and === null || and === ",") return null;
  const explicit = (words: PhraseTable["at"]) => c.peek(() => c.word(words));
  const second =
    days(f) || position(f) || (explicit(table.at) && times(f)) || (explicit(table.every) && (interval(f) || dayPart(f))) || (await dateClause(f, readDate));
  if (!second) return null;
  // The quote runs to the end of that second schedule: "and wednesday at 10".
  while (clause(f) || (await dateClause(f, readDate)));
  return text.slice(end, c.pos).trim();
}

function firstWord(text: string): string {
  return text.trim().split(/\s+/)[0] ?? "";
}
