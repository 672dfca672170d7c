/**
 * @module The phrase reader's lexicon (docs/time.md#words-when): the words of one language's table at the cursor,
 * each read alone and changing nothing but the position. Numbers (digits or words, with a fraction for an
 * interval), units and the adverbs that carry one (daily, quarterly), amounts (90 minutes, an hour and a half, 1h
 * 30m), weekdays and months by their `Intl` names (`names.ts`), the lead words a clause may start with, "of the
 * month", and a date each year (1 March). What a word means to the plan is the clause readers' (`clauses-*.ts`).
 * Pure.
 */
import { MULTIPLES, type Multiple, type PhraseTable, type Unit, type Words } from "../lang";
import { type Cursor, sorted } from "./cursor";
import { namesOf } from "./names";
import { MINUTES, wholeInterval } from "./plan";

/** The cursor and the table a phrase is read with: what every word reader takes. */
export type Lexed = { readonly c: Cursor; readonly t: PhraseTable };

export type DayWord = { day: number; plural: boolean };

const dayMatchers = new Map<string, (word: string) => DayWord | null>();

/**
 * A weekday's name in `lang`: any of Intl's forms, or a word that starts with the long name less its last letter
 * and runs at most three letters longer (mondays, montags, среду, понедельникам, segundas); `endings` say which
 * of those are plurals.
 */
export function dayMatcher(table: PhraseTable): (word: string) => DayWord | null {
  let match = dayMatchers.get(table.lang);
  if (!match) {
    const { weekdays } = namesOf(table.lang);
    const endings = sorted(table.habit.endings);
    const forms = weekdays.map((names) => [...names, ...names.filter((n) => n.includes("-")).map((n) => n.split("-")[0]!)]);
    // A word the table knows as a unit, a number or a span is none, however it starts (Russian четверть, a quarter,
    // is not четверг, Thursday).
    const known = new Set([...Object.values(table.units).flat(), ...Object.keys(table.numbers), ...Object.keys(table.spans).map((s) => s.split(" ")[0]!)]);
    match = (word) => {
      for (let d = 0; d < 7; d++) if (forms[d]!.includes(word)) return { day: d, plural: false };
      if (known.has(word)) return null;
      for (let d = 0; d < 7; d++) {
        for (const name of forms[d]!) {
          if (name.length < 5 || name.includes("-")) continue;
          if (word.startsWith(name.slice(0, -1)) && word.length <= name.length + 3) return { day: d, plural: endings.some((e) => word.endsWith(e)) };
        }
      }
      // An abbreviation Intl does not list (tues, thurs): the start of one long name only, at least three letters
      // short of it (Dutch "maand", month, is not maandag).
      const starts = word.length < 3 ? [] : weekdays.flatMap((names, d) => (names.some((n) => n.length >= word.length + 3 && n.startsWith(word)) ? [d] : []));
      return starts.length === 1 ? { day: starts[0]!, plural: false } : null;
    };
    dayMatchers.set(table.lang, match);
  }
  return match;
}

const monthMatchers = new Map<string, (word: string) => number | null>();

/** A month's name in `lang` (1–12): any of Intl's forms (декабря, déc, März). */
export function monthMatcher(lang: string): (word: string) => number | null {
  let match = monthMatchers.get(lang);
  if (!match) {
    const { months } = namesOf(lang);
    match = (word) => {
      const m = months.findIndex((names) => names.includes(word));
      return m < 0 ? null : m + 1;
    };
    monthMatchers.set(lang, match);
  }
  return match;
}

export const WORD = /\p{L}+(?:'\p{L}+)?/uy;

const monthDayPatterns = new Map<string, RegExp>();

/** A day of the month as the table writes it (the 15th, am 15., le 15), as a sticky pattern. */
export function monthDayPattern(table: PhraseTable): RegExp {
  let re = monthDayPatterns.get(table.lang);
  if (!re) {
    re = new RegExp(table.monthDay, "uy");
    monthDayPatterns.set(table.lang, re);
  }
  return re;
}

/** The number read last, as written, kept where a clause may refuse it as too large (`Reading.number`). */
type Counted = Lexed & { number?: string };

/** A whole number, in digits (all of them: 99999999999999999999 is one number, too large) or a word (anderthalb is not one). */
export function wholeNumber(x: Counted): number | null {
  const { c, t } = x;
  return c.attempt(() => {
    const m = c.take(/\d+/u);
    if (m && "number" in x) x.number = m[0];
    const n = m ? Number(m[0]) : c.value(t.numbers);
    return n !== null && Number.isInteger(n) ? n : null;
  });
}

/** A number that may have a fraction, for an interval: 1.5, 1,5, anderthalb, полтора. */
function fraction(x: Counted): number | null {
  const { c, t } = x;
  const m = c.take(/\d+(?:[.,]\d{1,2})?(?![\d:])/u);
  if (m && "number" in x) x.number = m[0];
  return m ? Number(m[0].replace(",", ".")) : c.value(t.numbers);
}

/** "And a half" (an hour and a half, una hora y media). */
export function andHalf({ c, t }: Lexed): boolean {
  return t.half.length > 0 && c.attempt(() => (c.word(t.and) !== null && c.word(t.half) !== null ? true : null)) !== null;
}

/** A unit's word (hours, Tage, недели). */
export function unitWord({ c, t }: Lexed): Unit | null {
  for (const unit of ["minute", "hour", "day", "week", "month", "year"] as const) if (c.word(t.units[unit]) !== null) return unit;
  return null;
}

/** Hourly, daily, quarterly (3 months), semestriel (6 months), zweimal täglich's täglich. */
export function adverb({ c, t }: Lexed): { unit: Unit; n: number } | null {
  for (const [key, words] of Object.entries(t.adverbs) as [Unit | Multiple, Words][]) {
    if (c.word(words) !== null) return key in MULTIPLES ? { unit: "month", n: MULTIPLES[key as Multiple] } : { unit: key as Unit, n: 1 };
  }
  return null;
}

/** A unit (hours), or a span with a name of its own (half an hour, a quarter): how many of which unit. */
export function span(x: Lexed): { n: number; unit: Unit } | null {
  const unit = unitWord(x);
  if (unit !== null) return { n: 1, unit };
  const named = x.c.value(x.t.spans);
  return named ? { n: named[0], unit: named[1] } : null;
}

/**
 * How long an interval is: 90 minutes, 1.5 hours, an hour and a half, 1h 30m, 1 hour and 30 minutes, 1h30,
 * every other week, a quarter, полтора часа; a fraction or a sum comes out in the smaller unit (`wholeInterval`).
 */
export function amountOf(x: Lexed): { n: number; unit: Unit } | null {
  const { c, t } = x;
  const hm = c.take(/(\d{1,3})h(\d{2})(?:min|m)?(?![\p{L}\d])/u);
  if (hm) return wholeInterval("minute", Number(hm[1]) * 60 + Number(hm[2]));
  let n = c.attempt(() => fraction(x));
  if (n === null && c.word(t.other) !== null) n = 2;
  let half = n !== null && andHalf(x);
  if (half) n! += 0.5;
  const said = span(x);
  if (!said || (n !== null && n <= 0)) return null;
  let unit = said.unit;
  let total = (n ?? 1) * said.n;
  if (!half && andHalf(x)) [total, half] = [total + said.n / 2, true];
  // A sum (1h 30m, 1 hour and 30 minutes, 1 day 12 hours) only after a number, in ever smaller units of fixed length.
  for (;;) {
    if (n === null) break;
    const more = c.attempt(() => {
      c.word(t.and);
      const m = wholeNumber(x);
      const next = m === null ? null : unitWord(x);
      const [big, small] = [MINUTES[unit], next === null ? undefined : MINUTES[next]];
      return m !== null && next !== null && big !== undefined && small !== undefined && small < big ? { m, next, ratio: big / small } : null;
    });
    if (!more) break;
    [total, unit] = [total * more.ratio + more.m, more.next];
  }
  return wholeInterval(unit, total);
}

/** The words a clause may start with and that say nothing of their own (on, the, am, le …). */
export function leads({ c, t }: Lexed): void {
  while (c.word(t.lead) !== null);
}

/** `of the month`, `of every month`, `im Monat`, `месяца`: true when said. */
export function ofMonth({ c, t }: Lexed): boolean {
  return (
    c.attempt(() => {
      c.word(t.of);
      while (c.word(t.lead) !== null || c.word(t.every) !== null);
      return c.word(t.units.month) === null ? null : true;
    }) !== null
  );
}

/** A weekday's name (segunda-feira too), or null. */
export function weekday({ c, t }: Lexed): DayWord | null {
  return c.attempt(() => {
    const w = c.take(WORD);
    const found = w ? dayMatcher(t)(w[0]) : null;
    if (!found) return null;
    c.anchored = true;
    // segunda-feira, segundas-feiras
    c.attempt(() => c.take(/-feiras?/u));
    return found;
  });
}

/** The longest each month runs (29 February is a date in a leap year). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A date each year in numbers: `15/4`, `15-4`, `4/15` after a word for every (Todoist's "every 4/15", elke 15-4),
 * `31.08.` after one or after a lead (am 31.08.). In the language's order (English month first, the others day
 * first), or the other when only that one is a date; dotted, day first; with a dash, a day past 12 first. Not
 * before a unit or a word of the clock (every 1/2 hour, 9-17 Uhr: no dates), nor with a year (a one-off).
 */
export function numericDate(x: Lexed, every: boolean): { day: number; month: number } | null {
  const { c, t } = x;
  return c.attempt(() => {
    const from = c.pos;
    leads(x);
    if (!every && c.pos === from) return null;
    const dotted = c.take(/(\d{1,2})\.(\d{1,2})\.(?!\d)/u);
    const m = dotted ?? c.take(/(\d{1,2})([/-])(\d{1,2})(?![\d/:-]|[.,]\d)/u);
    if (!m || c.peek(() => span(x) ?? c.word(t.oclock) ?? c.word(t.am) ?? c.word(t.pm))) return null;
    const [a, b] = [Number(m[1]), Number(m[dotted ? 2 : 3])];
    const valid = (day: number, month: number) => month >= 1 && month <= 12 && day >= 1 && day <= MONTH_DAYS[month - 1]!;
    // With a dash only a day past 12, first (elke 15-4): `alle 9-17`, `ogni 9-12` are hours more likely than dates.
    const dashed = m[2] === "-";
    const orders: [number, number][] = dotted
      ? [[a, b]]
      : dashed
        ? a > 12
          ? [[a, b]]
          : []
        : t.lang === "en"
          ? [
              [b, a],
              [a, b],
            ]
          : [
              [a, b],
              [b, a],
            ];
    const found = orders.find(([day, month]) => valid(day, month));
    return found ? { day: found[0], month: found[1] } : null;
  });
}

/** `1 March`, `March 1st`, `1. März`, `1er mars`, `1 de marzo`, `31 декабря`. */
export function yearDate(x: Lexed): { day: number; month: number } | null {
  const { c, t } = x;
  const month = monthMatcher(t.lang);
  const monthWord = (): number | null =>
    c.attempt(() => {
      const w = c.take(WORD);
      const m = w ? month(w[0].replace(/\.$/, "")) : null;
      if (m !== null) c.anchored = true;
      return m;
    });
  const day = (): number | null =>
    c.attempt(() => {
      const m = c.take(/(\d{1,2})(?:st|nd|rd|th|er|e|º|ª|\.)?(?![\d:])/u);
      const d = m ? Number(m[1]) : 0;
      return d >= 1 && d <= 31 ? d : null;
    });
  return c.attempt(() => {
    leads(x);
    const d = day();
    if (d !== null) {
      c.word(t.of);
      const m = monthWord();
      return m === null ? null : { day: d, month: m };
    }
    const m = monthWord();
    const after = m === null ? null : day();
    return m === null || after === null ? null : { day: after, month: m };
  });
}
