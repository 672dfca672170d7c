/**
 * @module A recurring time as a person types it (DESIGN §6 `/every <when> <text>`), in English, turned into
 * the plain five-field cron a reader can learn from: numbers only (Sunday = 0), ranges and steps, no names or
 * macros. `day at 8` → `0 8 * * *`, `weekdays at 8:30` → `30 8 * * 1-5`, `monday 9:00` → `0 9 * * 1`,
 * `15 minutes` → `*\/15 * * * *`, `hour` → `0 * * * *`, `month on the 1st at 9` → `0 9 1 * *`,
 * `mon,wed,fri at 18:00` → `0 18 * * 1,3,5`. A leading `every` or `each` is optional. chrono-node reads no
 * recurrences, so this small grammar is ours. Pure.
 */

/** What was read: the cron expression, the phrase as typed, and the text after it. */
export type EveryRead = { cron: string; phrase: string; rest: string };

/** Why not: nothing read (the first word to quote), or an interval cron cannot keep (`every 45 minutes`). */
export type EveryProblem = { kind: "unreadable"; phrase: string } | { kind: "uneven"; phrase: string; unit: "minute" | "hour"; n: number };

export type EveryResult = { ok: true; value: EveryRead } | { ok: false; problem: EveryProblem };

const DAY_NAMES: readonly (readonly string[])[] = [
  ["sunday", "sundays", "sun"],
  ["monday", "mondays", "mon"],
  ["tuesday", "tuesdays", "tues", "tue"],
  ["wednesday", "wednesdays", "wed"],
  ["thursday", "thursdays", "thurs", "thur", "thu"],
  ["friday", "fridays", "fri"],
  ["saturday", "saturdays", "sat"],
];

/** A small cursor over the lower-cased input: each rule matches at the position or leaves it where it was. */
class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  /** Matches `re` (sticky) at the position, after any spaces; on a match, moves past it. */
  take(re: RegExp): RegExpExecArray | null {
    const spaces = /\s*/y;
    spaces.lastIndex = this.pos;
    spaces.exec(this.text);
    const sticky = new RegExp(re.source, "y");
    sticky.lastIndex = spaces.lastIndex;
    const m = sticky.exec(this.text);
    // A word must end at a word boundary: "mon" is not the start of "money".
    if (!m || /\w/.test(this.text[sticky.lastIndex] ?? "") && /\w$/.test(m[0])) return null;
    this.pos = sticky.lastIndex;
    return m;
  }

  /** Runs `rule`; when it returns null, the position is put back. */
  attempt<T>(rule: () => T | null): T | null {
    const start = this.pos;
    const value = rule();
    if (value === null) this.pos = start;
    return value;
  }
}

const DAY_WORD = new RegExp(`(${DAY_NAMES.flat().sort((a, b) => b.length - a.length).join("|")})`);

function dayIndex(word: string): number {
  return DAY_NAMES.findIndex((names) => names.includes(word));
}

type Clock = { hour: number; minute: number };

/**
 * `at 8`, `08:30`, `8.30`, `8am`, `9:15 pm`, `noon`, `midnight`: hour and minute, or null. A bare number is a
 * time only after "at" (`every day 3 pills` keeps its 3).
 */
function clock(c: Cursor): Clock | null {
  return c.attempt(() => {
    const at = c.take(/at|@/) !== null;
    if (c.take(/noon/)) return { hour: 12, minute: 0 };
    if (c.take(/midnight/)) return { hour: 0, minute: 0 };
    const m = c.take(/(\d{1,2})(?:[:.](\d{2}))?(?:\s*(am|pm|a\.m\.|p\.m\.)(?![a-z]))?/);
    if (!m) return null;
    if (!at && m[2] === undefined && m[3] === undefined) return null;
    let hour = Number(m[1]);
    const minute = m[2] === undefined ? 0 : Number(m[2]);
    const meridiem = m[3]?.[0];
    if (meridiem) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (meridiem === "p" ? 12 : 0);
    }
    if (hour > 23 || minute > 59) return null;
    return { hour, minute };
  });
}

/** `monday`, `mon,wed,fri`, `monday and thursday`, `mon-fri`, `tuesday to thursday`: a set of weekdays. */
function weekdays(c: Cursor): Set<number> | null {
  return c.attempt(() => {
    const first = c.take(DAY_WORD);
    if (!first) return null;
    const days = new Set<number>([dayIndex(first[1]!)]);
    let last = dayIndex(first[1]!);
    for (;;) {
      const range = c.attempt(() => (c.take(/-|–|to|through|thru|till|until/) ? c.take(DAY_WORD) : null));
      if (range) {
        const end = dayIndex(range[1]!);
        for (let d = last; d !== end; d = (d + 1) % 7) days.add(d);
        days.add(end);
        last = end;
        continue;
      }
      const next = c.attempt(() => (c.take(/,\s*and|,|and|&|\//) ? c.take(DAY_WORD) : null));
      if (!next) return days;
      last = dayIndex(next[1]!);
      days.add(last);
    }
  });
}

/** `1st`, `the 15th`, `on the 1st`: a day of the month. */
function monthDay(c: Cursor): number | null {
  return c.attempt(() => {
    c.take(/on/);
    c.take(/the/);
    const m = c.take(/(\d{1,2})(?:st|nd|rd|th)?/);
    const day = m ? Number(m[1]) : 0;
    return day >= 1 && day <= 31 ? day : null;
  });
}

/** Weekday numbers as cron writes them: runs of three or more as ranges (`1-5`), the rest as a list. */
export function dayField(days: ReadonlySet<number>): string {
  const sorted = [...days].sort((a, b) => a - b);
  if (sorted.length === 7) return "*";
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${sorted[i]}-${sorted[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(sorted[k]));
    i = j + 1;
  }
  return parts.join(",");
}

type Uneven = { kind: "uneven"; unit: "minute" | "hour"; n: number };

/** `15 minutes`, `minute`, `2 hours`, `hour`: a step that divides the hour (or the day), else `uneven`. */
function interval(c: Cursor): string | Uneven | null {
  return c.attempt(() => {
    const n = c.take(/(\d{1,3})/);
    const unit = c.take(/(minutes|minute|mins|min|m|hours|hour|hrs|hr|h)/);
    if (!unit) return null;
    const count = n ? Number(n[1]) : 1;
    const minutes = unit[1]!.startsWith("m");
    if (count === 1) return minutes ? "* * * * *" : "0 * * * *";
    // `*/45` would fire at :00 and :45, 15 minutes apart: only steps that divide the hour (day) are even.
    if (count < 1 || (minutes ? 60 : 24) % count !== 0) return { kind: "uneven", unit: minutes ? "minute" : "hour", n: count };
    return minutes ? `*/${count} * * * *` : `0 */${count} * * *`;
  });
}

/** `the 1st of the month`, `15th of every month`: a day of the month. */
function dayOfMonth(c: Cursor): number | null {
  return c.attempt(() => {
    const day = monthDay(c);
    if (day === null || !c.take(/of/)) return null;
    c.take(/the|each|every/);
    return c.take(/month/) ? day : null;
  });
}

/** The rules, tried in order; each gives the cron, `uneven`, or null to let the next one try. */
function schedule(c: Cursor): string | Uneven | null {
  const step = interval(c);
  if (step !== null) return step;
  const daily = (days: string, time: Clock | null) => `${time?.minute ?? 0} ${time?.hour ?? 9} * * ${days}`;
  const monthly = (day: number, time: Clock | null) => `${time?.minute ?? 0} ${time?.hour ?? 9} ${day} * *`;
  // month on the 1st at 9, monthly on the 15th; the 1st of the month at 9
  if (c.take(/monthly|month/)) {
    const day = monthDay(c);
    return day === null ? null : monthly(day, clock(c));
  }
  const day = dayOfMonth(c);
  if (day !== null) return monthly(day, clock(c));
  // day at 8, daily, weekdays at 8:30, weekends, monday 9:00, mon,wed,fri at 18:00 (09:00 when no time)
  if (c.take(/days|day|daily/)) return daily("*", clock(c));
  if (c.take(/weekdays|weekday|workdays|workday|working days|business days/)) return daily("1-5", clock(c));
  if (c.take(/weekends|weekend/)) return daily("0,6", clock(c));
  const days = weekdays(c);
  if (days) return daily(dayField(days), clock(c));
  // 8:30 on weekdays, 9am, at 8 (every day)
  const time = clock(c);
  if (!time) return null;
  c.take(/on|every/);
  if (c.take(/weekdays|weekday/)) return daily("1-5", time);
  if (c.take(/weekends|weekend/)) return daily("0,6", time);
  const on = weekdays(c);
  if (on) return daily(dayField(on), time);
  c.take(/daily|every day|each day/);
  return daily("*", time);
}

/** Reads the recurring WHEN at the start of `input` (`every` optional); the rest is the text. */
export function readEvery(input: string): EveryResult {
  const original = input.trim();
  const c = new Cursor(original.toLowerCase());
  c.take(/every|each/);
  const result = schedule(c);
  if (result === null) return { ok: false, problem: { kind: "unreadable", phrase: original.split(/\s+/)[0] ?? "" } };
  if (typeof result !== "string") return { ok: false, problem: { ...result, phrase: original.slice(0, c.pos).trim() } };
  const rest = original.slice(c.pos).replace(/^[\s,.:;–—-]+/, "").trim();
  // "every day at 25": a time was meant but is none; say so rather than take 09:00 and "at 25" as the text.
  const badTime = /^at\s+\S+/i.exec(rest);
  if (badTime) return { ok: false, problem: { kind: "unreadable", phrase: badTime[0] } };
  return { ok: true, value: { cron: result, phrase: original.slice(0, c.pos).trim(), rest } };
}
