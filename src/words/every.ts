/**
 * @module A repetition as people say it (docs/telegram.md `/every`, issue 24), read with one language's phrase
 * table (`lang/`) and that language's weekday and month names (`names.ts`, from `Intl`) into a plan: a unit and
 * interval (every 3 days, every other tuesday, every 1.5 hours, every 1h 30m, every quarter), days of the week
 * and exceptions, positions in a month (the last friday, the 15th), times of day (at 9 and 18) or a part of the
 * day (every morning, sunday evening), a window of hours (from 9 to 17), counts (twice a day), and an end or a
 * start (until 31 dec, 10 times, for 5 days, starting next monday; the dates are chrono-node's, through
 * `readDate`). The grammar is the same in every language: a phrase is a run of clauses in any order, each said
 * once, and what follows the last one is the text. `form.ts` turns a plan into cron or a rule. Pure.
 */
import type { DayPart, PhraseTable, Unit, Words } from "./lang";
import { fold, namesOf } from "./names";

export type Clock = { hour: number; minute: number };

/** A date said in a phrase (until …, starting …): its local wall time, and whether it had no time of day. */
export type SaidDate = { local: number; dateOnly: boolean };

/** The n-th (1–5, or -1 for the last) weekday (0 = Sunday) or working day of a month. */
export type Position = { n: number; day: number | "workday" };

/** What a phrase says. A field a phrase did not say is null (`times` empty). */
export type Plan = {
  /** The unit said (every 3 days, daily, twice a week), or null when only implied (monday → weekly). */
  unit: Unit | null;
  interval: number;
  days: ReadonlySet<number> | null;
  except: ReadonlySet<number> | null;
  /** Days of the month, 1–31, and -1 for the last. */
  monthDays: readonly number[] | null;
  positions: readonly Position[] | null;
  /** A month (1–12) with `monthDays`: a date each year. */
  month: number | null;
  times: readonly Clock[];
  /** A part of the day said without a time (every evening): its hour. */
  part: number | null;
  /** Every 2 hours from 9 to 17: the runs of a minute or hour interval, each day from `from` up to `to` inclusive. */
  window: { from: Clock; to: Clock } | null;
  /** Twice a day: how many runs the unit holds, to check against the times or days given. */
  count: number | null;
  until: SaidDate | null;
  runs: number | null;
  /** For 5 days, for 2 weeks: how long the job runs from its first run. */
  span: { n: number; unit: Unit } | null;
  start: SaidDate | null;
};

/** A reading: the plan, where the phrase ends in the text, and what kind of words it used. */
export type PlanRead = {
  plan: Plan;
  end: number;
  /** A word that says a repetition was used (every, daily, weekdays, mondays, of the month …). */
  said: boolean;
  /** A word of this language was used, not only numbers and signs (`14:30` is anyone's). */
  anchored: boolean;
};

/** Nothing read: the part to quote, and where it starts (the reading that got furthest is the one reported). */
export type PlanProblem = { kind: "unreadable"; phrase: string; at: number };

/** Reads the date at `index` of the text (until 31 dec): its length in the text and its wall time, or null. */
export type DateReader = (index: number) => Promise<{ length: number; date: SaidDate } | null>;

const LETTER = /[\p{L}\p{N}]/u;

const entryPatterns = new Map<string, RegExp>();

/** An entry's sticky pattern: words apart by any spaces, a trailing `*` for any ending, a word boundary after. */
function entryPattern(entry: string): RegExp {
  let re = entryPatterns.get(entry);
  if (!re) {
    const prefix = entry.endsWith("*");
    const body = (prefix ? entry.slice(0, -1) : entry)
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
      .join("\\s+");
    const end = prefix ? "\\p{L}*(?![\\p{L}\\p{N}])" : LETTER.test(entry.at(-1) ?? "") ? "(?![\\p{L}\\p{N}])" : "";
    re = new RegExp(body + end, "uy");
    entryPatterns.set(entry, re);
  }
  return re;
}

/** Whether `word` (folded) is one of the list's entries, whole. */
function whole(list: Words, word: string): boolean {
  return sorted(list).some((entry) => {
    const re = entryPattern(entry);
    re.lastIndex = 0;
    return re.exec(word)?.[0].length === word.length;
  });
}

const sortedLists = new WeakMap<Words, string[]>();

/** A list's entries folded, longest first, so that `tous les` is tried before `tous`. */
function sorted(list: Words): string[] {
  let out = sortedLists.get(list);
  if (!out) {
    out = [...new Set(list.map(fold))].sort((a, b) => b.length - a.length);
    sortedLists.set(list, out);
  }
  return out;
}

const foldedMaps = new WeakMap<object, Map<string, unknown>>();

function foldedMap<T>(map: Readonly<Record<string, T>>): Map<string, T> {
  let out = foldedMaps.get(map) as Map<string, T> | undefined;
  if (!out) {
    out = new Map(Object.entries(map).map(([k, v]) => [fold(k), v]));
    foldedMaps.set(map, out);
  }
  return out;
}

/** A cursor over the folded text: each rule matches at the position or leaves it where it was. */
class Cursor {
  pos = 0;
  /** A word of the language was matched (see `PlanRead.anchored`). */
  anchored = false;
  constructor(readonly text: string) {}

  private skipSpaces(): number {
    const spaces = /\s*/y;
    spaces.lastIndex = this.pos;
    spaces.exec(this.text);
    return spaces.lastIndex;
  }

  /** Matches `re` (sticky) after any spaces; on a match, moves past it. */
  take(re: RegExp): RegExpExecArray | null {
    const sticky = re.sticky ? re : new RegExp(re.source, `${re.flags}y`);
    sticky.lastIndex = this.skipSpaces();
    const m = sticky.exec(this.text);
    if (!m) return null;
    // A word must end at a word boundary ("mon" is not the start of "money"); a number may run into a unit (20m).
    if (/\p{L}/u.test(m[0].at(-1) ?? "") && LETTER.test(this.text[sticky.lastIndex] ?? "")) return null;
    this.pos = sticky.lastIndex;
    return m;
  }

  /** The entry of `list` that stands at the position (the longest), moving past it; else null. */
  word(list: Words): string | null {
    const at = this.skipSpaces();
    for (const entry of sorted(list)) {
      const re = entryPattern(entry);
      re.lastIndex = at;
      if (re.exec(this.text)) {
        this.pos = re.lastIndex;
        if (/\p{L}/u.test(entry)) this.anchored = true;
        return entry;
      }
    }
    return null;
  }

  /** The value of the map's entry that stands at the position. */
  value<T>(map: Readonly<Record<string, T>>): T | null {
    const folded = foldedMap(map);
    const entry = this.word([...folded.keys()]);
    return entry === null ? null : (folded.get(entry) ?? null);
  }

  /** Runs `rule`; when it returns null, the position (and what was matched) is put back. */
  attempt<T>(rule: () => T | null): T | null {
    const [pos, anchored] = [this.pos, this.anchored];
    const value = rule();
    if (value === null) [this.pos, this.anchored] = [pos, anchored];
    return value;
  }

  /** Whether `rule` would match here; the position stays. */
  peek<T>(rule: () => T | null): boolean {
    const [pos, anchored] = [this.pos, this.anchored];
    const value = rule();
    [this.pos, this.anchored] = [pos, anchored];
    return value !== null;
  }

  async attemptAsync<T>(rule: () => Promise<T | null>): Promise<T | null> {
    const [pos, anchored] = [this.pos, this.anchored];
    const value = await rule();
    if (value === null) [this.pos, this.anchored] = [pos, anchored];
    return value;
  }
}

type DayWord = { day: number; plural: boolean };

const dayMatchers = new Map<string, (word: string) => DayWord | null>();

/**
 * A weekday's name in `lang`: any of Intl's forms, or a word that starts with the long name less its last letter
 * and runs at most three letters longer (mondays, montags, среду, понедельникам, segundas); `endings` say which
 * of those are plurals.
 */
function dayMatcher(table: PhraseTable): (word: string) => DayWord | null {
  let match = dayMatchers.get(table.lang);
  if (!match) {
    const { weekdays } = namesOf(table.lang);
    const endings = sorted(table.habit.endings);
    const forms = weekdays.map((names) => [...names, ...names.filter((n) => n.includes("-")).map((n) => n.split("-")[0]!)]);
    match = (word) => {
      for (let d = 0; d < 7; d++) if (forms[d]!.includes(word)) return { day: d, plural: false };
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
function monthMatcher(lang: string): (word: string) => number | null {
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

const WORD = /\p{L}+(?:'\p{L}+)?/uy;

const monthDayPatterns = new Map<string, RegExp>();

function monthDayPattern(table: PhraseTable): RegExp {
  let re = monthDayPatterns.get(table.lang);
  if (!re) {
    re = new RegExp(table.monthDay, "uy");
    monthDayPatterns.set(table.lang, re);
  }
  return re;
}

/** A plan that says nothing yet (`durationPlan` fills in an interval). */
export function emptyPlan(): Plan {
  return {
    unit: null,
    interval: 1,
    days: null,
    except: null,
    monthDays: null,
    positions: null,
    month: null,
    times: [],
    part: null,
    window: null,
    count: null,
    until: null,
    runs: null,
    span: null,
    start: null,
  };
}

/** Each unit's length in minutes, where it has one. */
const MINUTES: Partial<Record<Unit, number>> = { minute: 1, hour: 60, day: 1440, week: 10080 };
const ORDER: readonly Unit[] = ["minute", "hour", "day", "week", "month", "year"];

/**
 * An amount of a unit as whole units: as said when it is whole (36 hours stay hours), else in the largest smaller
 * unit that makes it whole (1.5 hours = 90 minutes, 1.5 weeks = 252 hours); none for a month or year (no fixed length).
 */
export function wholeInterval(unit: Unit, amount: number): { unit: Unit; n: number } | null {
  if (Number.isInteger(amount)) return amount >= 1 ? { unit, n: amount } : null;
  const minutes = MINUTES[unit];
  if (minutes === undefined) return null;
  const total = Math.round(amount * minutes * 1e6) / 1e6;
  if (!Number.isInteger(total) || total < 1) return null;
  const whole = (["week", "day", "hour", "minute"] as const).find((u) => MINUTES[u]! <= minutes && total % MINUTES[u]! === 0)!;
  return { unit: whole, n: total / MINUTES[whole]! };
}

/** Reads one language's phrase at the start of `text`; `said` in the reading tells whether it says a repetition. */
export async function readPlan(text: string, table: PhraseTable, readDate: DateReader): Promise<PlanRead | PlanProblem> {
  return new Reader(text, table, readDate).read();
}

class Reader {
  private readonly c: Cursor;
  private readonly plan: { -readonly [K in keyof Plan]: Plan[K] } = emptyPlan();
  private said = false;
  /** The part of the day said (every evening), applied to the times at the end. */
  private part: DayPart | null = null;
  /** Times said with neither am/pm nor a word for noon: a part of the day may still make them pm. */
  private readonly bare = new WeakSet<Clock>();
  private readonly day: (word: string) => DayWord | null;

  constructor(
    private readonly original: string,
    private readonly t: PhraseTable,
    private readonly readDate: DateReader,
  ) {
    this.c = new Cursor(fold(original));
    this.day = dayMatcher(t);
  }

  async read(): Promise<PlanRead | PlanProblem> {
    let clauses = 0;
    for (;;) {
      const start = this.c.pos;
      const ok = this.clause() || (await this.dateClause());
      if (!ok) {
        this.c.pos = start;
        break;
      }
      clauses++;
    }
    const end = this.c.pos;
    // "every day at 25": a time was meant but is none; say so rather than take 09:00 and "at 25" as the text.
    const bad = this.c.attempt(() => (this.c.word(this.t.at) !== null ? this.c.take(/\d\S*/u) : null));
    if (bad) return { kind: "unreadable", phrase: this.original.slice(end, this.c.pos).trim(), at: end };
    if (clauses === 0) return { kind: "unreadable", phrase: firstWord(this.original), at: 0 };
    if (!this.schedules()) return { kind: "unreadable", phrase: this.original.slice(0, end).trim(), at: 0 };
    if (this.part) {
      const [hour, reads] = this.part;
      this.plan.part = hour;
      this.plan.times = this.plan.times.map((t) => (this.bare.has(t) ? { hour: partHour(t.hour, reads), minute: t.minute } : t));
    }
    return { plan: this.plan, end, said: this.said, anchored: this.c.anchored };
  }

  /** Whether what was read says when to run (an end or a count alone does not). */
  private schedules(): boolean {
    const p = this.plan;
    return p.unit !== null || p.days !== null || p.monthDays !== null || p.positions !== null || p.times.length > 0 || this.part !== null;
  }

  /** The unit the phrase so far repeats in (every monday: weeks; mon and thu, at 9: days), or null when none yet. */
  private period(): Unit | null {
    const p = this.plan;
    if (p.unit !== null) return p.unit;
    if (p.month !== null) return "year";
    if (p.monthDays || p.positions) return "month";
    if (p.days) return p.days.size === 1 ? "week" : "day";
    return p.times.length > 0 || this.part ? "day" : null;
  }

  /** One clause at the position, tried in turn; false when none reads. */
  private clause(): boolean {
    const c = this.c;
    c.attempt(() => c.take(/,/u)); // "every monday, at 9"
    // Days before units: "tous les jours de semaine" is the working days, not every day and a text.
    // Parts of the day before times: Dutch "middag" is a part (elke middag om 3) before it is noon.
    return (
      this.count() ||
      this.position() ||
      this.days() ||
      this.monthDay() ||
      this.window() ||
      this.interval() ||
      this.dayPart() ||
      this.times() ||
      this.except() ||
      this.runs()
    );
  }

  /** Runs a clause's rule: true when it read (and moved on), else the position is put back. */
  private tries(rule: () => true | null): boolean {
    return this.c.attempt(rule) !== null;
  }

  private setOnce<K extends keyof Plan>(key: K, value: Plan[K]): boolean {
    const empty = key === "times" ? this.plan.times.length === 0 : key === "interval" ? true : this.plan[key] === null;
    if (!empty) return false;
    this.plan[key] = value;
    return true;
  }

  /** A whole number, in digits or a word (anderthalb is not one). */
  private number(): number | null {
    const c = this.c;
    return c.attempt(() => {
      const m = c.take(/\d{1,4}/u);
      const n = m ? Number(m[0]) : c.value(this.t.numbers);
      return n !== null && Number.isInteger(n) ? n : null;
    });
  }

  /** A number that may have a fraction, for an interval: 1.5, 1,5, anderthalb, полтора. */
  private amount(): number | null {
    const m = this.c.take(/\d{1,4}(?:[.,]\d{1,2})?(?![\d:])/u);
    return m ? Number(m[0].replace(",", ".")) : this.c.value(this.t.numbers);
  }

  /** "And a half" (an hour and a half, una hora y media). */
  private andHalf(): boolean {
    const c = this.c;
    return this.t.half.length > 0 && c.attempt(() => (c.word(this.t.and) !== null && c.word(this.t.half) !== null ? true : null)) !== null;
  }

  /** A unit (hours), or a span with a name of its own (half an hour, a quarter): how many of which unit. */
  private span(): { n: number; unit: Unit } | null {
    const unit = this.unit();
    if (unit !== null) return { n: 1, unit };
    const named = this.c.value(this.t.spans);
    return named ? { n: named[0], unit: named[1] } : null;
  }

  /**
   * How long an interval is: 90 minutes, 1.5 hours, an hour and a half, 1h 30m, 1 hour and 30 minutes, 1h30,
   * every other week, a quarter, полтора часа; a fraction or a sum comes out in the smaller unit (`wholeInterval`).
   */
  private amountOf(): { n: number; unit: Unit } | null {
    const c = this.c;
    const hm = c.take(/(\d{1,3})h(\d{2})(?:min|m)?(?![\p{L}\d])/u);
    if (hm) return wholeInterval("minute", Number(hm[1]) * 60 + Number(hm[2]));
    let n = c.attempt(() => this.amount());
    if (n === null && c.word(this.t.other) !== null) n = 2;
    let half = n !== null && this.andHalf();
    if (half) n! += 0.5;
    const span = this.span();
    if (!span || (n !== null && n <= 0)) return null;
    let unit = span.unit;
    let total = (n ?? 1) * span.n;
    if (!half && this.andHalf()) [total, half] = [total + span.n / 2, true];
    // A sum (1h 30m, 1 hour and 30 minutes, 1 day 12 hours) only after a number, in ever smaller units of fixed length.
    for (;;) {
      if (n === null) break;
      const more = c.attempt(() => {
        c.word(this.t.and);
        const m = this.number();
        const next = m === null ? null : this.unit();
        const [big, small] = [MINUTES[unit], next === null ? undefined : MINUTES[next]];
        return m !== null && next !== null && big !== undefined && small !== undefined && small < big ? { m, next, ratio: big / small } : null;
      });
      if (!more) break;
      [total, unit] = [total * more.ratio + more.m, more.next];
    }
    return wholeInterval(unit, total);
  }

  private unit(): Unit | null {
    for (const unit of ["minute", "hour", "day", "week", "month", "year"] as const) if (this.c.word(this.t.units[unit]) !== null) return unit;
    return null;
  }

  /** Hourly, daily, quarterly (3 months), zweimal täglich's täglich. */
  private adverb(): { unit: Unit; n: number } | null {
    for (const [key, words] of Object.entries(this.t.adverbs) as [Unit | "quarter", Words][]) {
      if (this.c.word(words) !== null) return key === "quarter" ? { unit: "month", n: 3 } : { unit: key, n: 1 };
    }
    return null;
  }

  private setUnit(unit: Unit, interval: number): boolean {
    if (this.plan.unit !== null) return false;
    this.plan.unit = unit;
    this.plan.interval = interval;
    return true;
  }

  /** Twice a day, 3 times a day, zweimal täglich, два раза в день, раз в 2 недели. */
  private count(): boolean {
    const c = this.c;
    return this.tries(() => {
      let n = c.value(this.t.multiples);
      if (n === null) {
        n = c.attempt(() => this.number()) ?? 1;
        if (c.word(this.t.times) === null) return null;
      }
      const adverb = this.adverb();
      let unit = adverb?.unit ?? null;
      let every = adverb?.n ?? 1;
      if (unit === null) {
        if (c.word(this.t.per) === null) return null;
        every = c.attempt(() => this.number()) ?? 1;
        unit = this.unit();
      }
      if (unit === null || n < 1 || this.plan.count !== null || !this.setUnit(unit, every)) return null;
      this.plan.count = n;
      this.said = true;
      return true;
    });
  }

  /** Every 90 minutes, every 3 days, every other day, every month, daily; a bare `15 minutes` too. */
  private interval(): boolean {
    const c = this.c;
    return this.tries(() => {
      const adverb = this.adverb();
      if (adverb !== null) {
        this.said = true;
        // cada hora y media: the adverb's unit and a half.
        const amount = this.andHalf() ? wholeInterval(adverb.unit, adverb.n * 1.5) : adverb;
        return amount && this.setUnit(amount.unit, "n" in amount ? amount.n : 1) ? true : null;
      }
      const every = c.word(this.t.every) !== null;
      const amount = this.amountOf();
      if (amount === null || !this.setUnit(amount.unit, amount.n)) return null;
      this.said = this.said || every;
      return true;
    });
  }

  /** `of the month`, `of every month`, `im Monat`, `месяца`: true when said. */
  private ofMonth(): boolean {
    const c = this.c;
    return this.tries(() => {
      c.word(this.t.of);
      while (c.word(this.t.lead) !== null || c.word(this.t.every) !== null);
      return c.word(this.t.units.month) === null ? null : true;
    });
  }

  private leads(): void {
    while (this.c.word(this.t.lead) !== null);
  }

  /** The last friday of the month, the first monday, the last day, the 2nd working day, am ersten Montag im Monat. */
  private position(): boolean {
    const c = this.c;
    return this.tries(() => {
      const every = c.word(this.t.every) !== null;
      this.leads();
      const ordinals: { n: number; word: string }[] = [];
      for (;;) {
        const before = c.pos;
        const n = c.value(this.t.ordinals);
        if (n === null) break;
        ordinals.push({ n, word: c.text.slice(before, c.pos).trim() });
        const more = c.attempt(() => {
          if (c.word(this.t.and) === null) return null;
          this.leads(); // the 1st and the last day
          return c.peek(() => c.value(this.t.ordinals)) ? true : null;
        });
        if (more === null) break;
      }
      if (ordinals.length === 0) return null;
      let target: number | "workday" | "day" | null = null;
      if (c.word(this.t.workday) !== null) target = "workday";
      else if (c.word(this.t.units.day) !== null) target = "day";
      else target = this.weekday()?.day ?? null;
      if (target === null) return null;
      const ofMonth = this.ofMonth();
      // "every second tuesday" is every other tuesday; "the second tuesday (of the month)" a position.
      if (every && !ofMonth && typeof target === "number" && ordinals.every((o) => whole(this.t.other, o.word))) return null;
      if (target === "day") {
        const days = ordinals.map((o) => o.n);
        if (!this.setOnce("monthDays", days)) return null;
      } else {
        const day = target;
        if (
          !this.setOnce(
            "positions",
            ordinals.map((o) => ({ n: o.n, day })),
          )
        )
          return null;
      }
      this.said = this.said || every || ofMonth;
      return true;
    });
  }

  /** A day of the month (the 15th, am 15., le 15, el día 15, 15-го числа), or several; with a month, a date each year. */
  private monthDay(): boolean {
    const c = this.c;
    const pattern = monthDayPattern(this.t);
    const one = (): number | null =>
      c.attempt(() => {
        for (;;) {
          const m = c.take(pattern);
          if (m) {
            const day = Number(m.slice(1).find((g) => g !== undefined));
            return day >= 1 && day <= 31 ? day : null;
          }
          if (c.word(this.t.lead) === null) return null;
        }
      });
    return this.tries(() => {
      const every = c.word(this.t.every) !== null;
      // March 1st, 1 March, 1. März, 31 декабря: a date each year.
      const dated = this.yearDate();
      if (dated) {
        if (!this.setOnce("monthDays", [dated.day]) || !this.setOnce("month", dated.month)) return null;
        this.said = this.said || every;
        return true;
      }
      const first = one();
      if (first === null) return null;
      const days = [first];
      for (;;) {
        const next = c.attempt(() => (c.word(this.t.and) !== null ? one() : null));
        if (next === null) break;
        days.push(next);
      }
      const ofMonth = this.ofMonth();
      if (!this.setOnce("monthDays", days)) return null;
      this.said = this.said || every || ofMonth;
      return true;
    });
  }

  /** `1 March`, `March 1st`, `1. März`, `1er mars`, `1 de marzo`, `31 декабря`. */
  private yearDate(): { day: number; month: number } | null {
    const c = this.c;
    const month = monthMatcher(this.t.lang);
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
      this.leads();
      const d = day();
      if (d !== null) {
        c.word(this.t.of);
        const m = monthWord();
        return m === null ? null : { day: d, month: m };
      }
      const m = monthWord();
      const after = m === null ? null : day();
      return m === null || after === null ? null : { day: after, month: m };
    });
  }

  private weekday(): DayWord | null {
    const c = this.c;
    return c.attempt(() => {
      const w = c.take(WORD);
      const found = w ? this.day(w[0]) : null;
      if (!found) return null;
      c.anchored = true;
      // segunda-feira, segundas-feiras
      c.attempt(() => c.take(/-feiras?/u));
      return found;
    });
  }

  /** Monday, mon-fri, mon, wed and fri, from monday to friday, weekdays, weekends: a set of weekdays. */
  private dayList(): { days: Set<number>; habit: boolean } | null {
    const c = this.c;
    if (c.word(this.t.workdays) !== null) return { days: new Set([1, 2, 3, 4, 5]), habit: true };
    if (c.word(this.t.weekend) !== null) return { days: new Set([0, 6]), habit: true };
    const range = (from: number, to: number, into: Set<number>) => {
      for (let d = from; d !== to; d = (d + 1) % 7) into.add(d);
      into.add(to);
    };
    const fromTo = c.attempt(() => {
      if (c.word(this.t.rangeFrom) === null) return null;
      this.leads();
      const a = this.weekday();
      if (!a || c.word(this.t.rangeTo) === null) return null;
      this.leads();
      const b = this.weekday();
      return b ? { a, b } : null;
    });
    if (fromTo) {
      const days = new Set<number>();
      range(fromTo.a.day, fromTo.b.day, days);
      return { days, habit: true };
    }
    const first = this.weekday();
    if (!first) return null;
    const days = new Set([first.day]);
    let habit = first.plural;
    let last = first.day;
    for (;;) {
      const to = c.attempt(() => (c.word(this.t.rangeTo) !== null ? this.weekday() : null));
      if (to) {
        range(last, to.day, days);
        last = to.day;
        habit = habit || to.plural;
        continue;
      }
      const next = c.attempt(() => {
        if (c.word(this.t.and) === null && c.take(/\//u) === null) return null;
        this.leads();
        return this.weekday();
      });
      if (!next) return { days, habit };
      days.add(next.day);
      last = next.day;
      habit = habit || next.plural;
    }
  }

  /** Every monday, on mondays, every other tuesday, jeden zweiten Dienstag, tous les deux mardis, weekdays. */
  private days(): boolean {
    const c = this.c;
    return this.tries(() => {
      const every = c.word(this.t.every) !== null;
      let n = every ? c.attempt(() => this.number()) : null;
      if (n === null && c.word(this.t.other) !== null) n = 2;
      let habit = false;
      for (;;) {
        const lead = c.word(this.t.lead);
        if (lead === null) break;
        if (sorted(this.t.habit.before).includes(lead)) habit = true;
      }
      const list = this.dayList();
      if (!list || (n !== null && n < 1) || !this.setOnce("days", list.days)) return null;
      if (n !== null && n > 1 && !this.setUnit("week", n)) return null;
      this.said = this.said || every || habit || list.habit || (n ?? 1) > 1;
      return true;
    });
  }

  /**
   * `at 8`, `08:30`, `8.30`, `8am`, `9:15 pm`, `9h30`, `18 Uhr`, `noon`: hour and minute, or null. A bare number
   * is a time only after a word for "at", before one for "o'clock", or as a later item of a list (at 9 and 18).
   */
  private clock(inherited: boolean): Clock | null {
    const c = this.c;
    return c.attempt(() => {
      const at = c.word(this.t.at) !== null;
      if (c.word(this.t.noon) !== null) return { hour: 12, minute: 0 };
      if (c.word(this.t.midnight) !== null) return { hour: 0, minute: 0 };
      const m = c.take(/(\d{1,2})(?:(?:[:.]|h)(\d{2}))?(?!\d)/u);
      if (!m) return null;
      let hour = Number(m[1]);
      const minute = m[2] === undefined ? 0 : Number(m[2]);
      const am = c.word(this.t.am) !== null;
      const pm = !am && c.word(this.t.pm) !== null;
      const oclock = c.word(this.t.oclock) !== null;
      if (!at && !inherited && !oclock && !am && !pm && m[2] === undefined) return null;
      if (am || pm) {
        if (hour < 1 || hour > 12) return null;
        hour = (hour % 12) + (pm ? 12 : 0);
      }
      if (hour > 23 || minute > 59) return null;
      const clock = { hour, minute };
      if (!am && !pm) this.bare.add(clock);
      return clock;
    });
  }

  /** One or more times of day: at 9 and 18, um 9 und 18 Uhr, a las 9 y a las 18. */
  private times(): boolean {
    const c = this.c;
    return this.tries(() => {
      const first = this.clock(false);
      if (!first) return null;
      const list = [first];
      for (;;) {
        const next = c.attempt(() => {
          const sep = c.word(this.t.and);
          if (sep === null) return null;
          if (sep !== ",") return this.clock(true);
          // After a comma, a bare number only when the list goes on (at 8, 13 and 19; "at 8, 3 pills" keeps its 3).
          return (
            this.clock(false) ??
            c.attempt(() => {
              const bare = this.clock(true);
              return bare && c.peek(() => (c.word(this.t.and) !== null ? this.clock(true) : null)) ? bare : null;
            })
          );
        });
        if (!next) break;
        list.push(next);
      }
      return this.setOnce("times", list) ? true : null;
    });
  }

  /** Except friday, außer Freitag, sauf le vendredi, кроме пятницы. */
  private except(): boolean {
    const c = this.c;
    return this.tries(() => {
      if (c.word(this.t.except) === null) return null;
      this.leads();
      const list = this.dayList();
      return list && this.setOnce("except", list.days) ? true : null;
    });
  }

  /**
   * 10 times, for 10 times, 10-mal, 10 раз: how many runs; for 5 days, für 2 Wochen, в течение 3 дней: for how
   * long. A span shorter than what the phrase repeats in is not one (every monday for 2 hours: the text says how
   * long the meeting is).
   */
  private runs(): boolean {
    const c = this.c;
    return this.tries(() => {
      const lead = c.word(this.t.for) !== null;
      const n = this.number();
      c.take(/-/u);
      if (n === null) return null;
      if (c.word(this.t.times) !== null) return this.setOnce("runs", n) ? true : null;
      const span = lead ? this.span() : null;
      const period = this.period();
      if (!span || n < 1 || (period !== null && ORDER.indexOf(span.unit) < ORDER.indexOf(period))) return null;
      return this.setOnce("span", { n: n * span.n, unit: span.unit }) ? true : null;
    });
  }

  /** Every morning, in the evening, sunday evening, jeden Morgen, le soir, каждое утро: a part of the day, once. */
  private dayPart(): boolean {
    const c = this.c;
    return this.tries(() => {
      if (this.part) return null;
      const part =
        c.value(this.t.dayParts) ??
        c.attempt(() => {
          const every = c.word(this.t.every) !== null;
          this.leads();
          const found = c.value(this.t.dayParts) ?? (every ? c.value(this.t.dayPartsAfterEvery) : null);
          if (found) this.said = this.said || every;
          return found;
        });
      if (!part) return null;
      this.part = part;
      return true;
    });
  }

  /** From 9 to 17, between 9am and 5pm, von 9 bis 17 Uhr, entre 9h et 17h, dalle 9 alle 17, с 9 до 17: once. */
  private window(): boolean {
    const c = this.c;
    return this.tries(() => {
      const between = c.word(this.t.between) !== null;
      if (this.plan.window || (!between && c.word(this.t.rangeFrom) === null)) return null;
      this.leads();
      const from = this.clock(true);
      if (!from || c.word(between ? this.t.and : this.t.rangeTo) === null) return null;
      this.leads();
      let to = this.clock(true);
      if (!to) return null;
      // From 9 to 5 is a working day's, to 17:00, not to 05:00 the next morning.
      if (this.bare.has(to) && to.hour < 12 && to.hour < from.hour && to.hour + 12 > from.hour) to = { hour: to.hour + 12, minute: to.minute };
      this.plan.window = { from, to };
      return true;
    });
  }

  /** Until 31 dec, starting next monday, from 1 jan, bis 31. Dezember, с 1 января: the date is chrono's. */
  private async dateClause(): Promise<boolean> {
    const c = this.c;
    for (const key of ["until", "start"] as const) {
      const words = key === "until" ? this.t.until : this.t.starting;
      const read = await c.attemptAsync(async () => {
        if (c.word(words) === null) return null;
        while (c.word(this.t.dateLead) !== null);
        const at = c.pos + (c.text.slice(c.pos).length - c.text.slice(c.pos).trimStart().length);
        const date = await this.readDate(at);
        if (!date || !this.setOnce(key, date.date)) return null;
        c.pos = at + date.length;
        return true;
      });
      if (read) return true;
    }
    return false;
  }
}

/** A bare hour said with a part of the day: evening at 8 = 20, night at 10 = 22, night at 2 = 2, morning at 7 = 7. */
function partHour(hour: number, reads: DayPart[1]): number {
  if (reads === "pm") return hour >= 1 && hour <= 11 ? hour + 12 : hour;
  if (reads === "night") return hour >= 6 && hour <= 11 ? hour + 12 : hour === 12 ? 0 : hour;
  return hour;
}

function firstWord(text: string): string {
  return text.trim().split(/\s+/)[0] ?? "";
}
