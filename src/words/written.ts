/**
 * @module Schedules as written rather than said (docs/time.md#words-when): a quoted or bare cron or macro, an RRULE
 * with an optional DTSTART, each read once here and taken as it is (a cron that does not read or never fires is a
 * `cron` problem with the cron rules' sentence, a rule that does not read a `rule` problem with the rule engine's);
 * and a duration (`20m`, `PT90M`, `1h 30m`), which `/every` takes as the interval. Pure.
 */
import { DAY_MS, HOUR_MS } from "../time/civil";
import { parseCron } from "../time/cron";
import { nextOccurrence } from "../time/next";
import { neverFires } from "../time/preview";
import { parseRuleSchedule } from "../time/rules";
import { NO_ENDS, type Timing } from "../time/schedule";
import { toLocal } from "../time/zone";
import { localText } from "./form";
import type { Unit } from "./lang";
import { emptyPlan, type Plan } from "./phrase";
import type { ScheduleProblem } from "./problem";
import { ISO_DURATION, restAfter, SHORT_DELAY } from "./when";

/** A written form read: the schedule as it is, the form as typed, and what follows it. */
export type Written = { ok: true; value: Timing & { phrase: string; rest: string } } | { ok: false; problem: ScheduleProblem };

/** A quoted cron (straight or curly quotes), a macro, or five unquoted fields (digits, `* , - / ?` and `L W #`). */
const QUOTED = /^["“”'‘’]([^"“”'‘’]+)["“”'‘’](?=\s|$)/;
const MACRO = /^@[A-Za-z]+(?=\s|$)/;
const BARE_CRON = /^(?:[\d*,/?#LW-]+\s+){4}[\d*,/?#LW-]+(?=\s|$)/;
/** An RRULE value (the `RRULE:` prefix optional), after an optional `DTSTART[;TZID=…]:yyyyMMddTHHmm[ss]` line. */
const RRULE = new RegExp(
  String.raw`^(?:DTSTART(?:;TZID=[^:\s]+)?:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:\d{2})?Z?\s+)?` +
    String.raw`(?:RRULE:)?((?:[A-Z]+=[^;\s]+;)*FREQ=[A-Z]+(?:;[A-Z]+=[^;\s]+)*)(?=\s|$)`,
  "i",
);

/**
 * Cron (quoted, bare, a macro) or an RRULE, as written, read once here: a cron that does not read or never fires
 * is a `cron` problem with the cron rules' sentence, a rule that does not read a `rule` problem with the rule
 * engine's.
 */
export function readWritten(text: string, zone: string, now: number): Written | null {
  const cron = QUOTED.exec(text) ?? MACRO.exec(text) ?? BARE_CRON.exec(text);
  if (cron) {
    const expression = (cron[1] ?? cron[0]).trim();
    const rest = restAfter(text, cron[0]);
    const parsed = parseCron(expression);
    if (!parsed.ok) return { ok: false, problem: { kind: "cron", phrase: expression, sentence: parsed.error, rest } };
    if (nextOccurrence(parsed.value, zone, now) === null)
      return { ok: false, problem: { kind: "cron", phrase: expression, sentence: neverFires(parsed.value), rest } };
    return { ok: true, value: { schedule: { type: "cron", cron: parsed.value }, ends: NO_ENDS, phrase: cron[0], rest } };
  }
  const rule = RRULE.exec(text);
  if (rule) {
    const [, y, mo, d, h, mi, value] = rule;
    // No DTSTART: today at 09:00 there (a date alone means 09:00).
    const start = y !== undefined ? `${y}-${mo}-${d}T${h}:${mi}` : localText(Math.floor(toLocal(zone, now) / DAY_MS) * DAY_MS + 9 * HOUR_MS);
    const rest = restAfter(text, rule[0]);
    const parsed = parseRuleSchedule({ rrule: value!.toUpperCase(), start }, zone);
    if (!parsed.ok) return { ok: false, problem: { kind: "rule", phrase: rule[0], sentence: parsed.error, rest } };
    return { ok: true, value: { schedule: { type: "rule", rule: parsed.value }, ends: NO_ENDS, phrase: rule[0], rest } };
  }
  return null;
}

const DURATION_UNITS: Record<string, Unit> = { w: "week", d: "day", h: "hour", m: "minute", min: "minute" };

/** `/every 20m`, `/every PT90M`, `/every 1h30m`, `/every 1h 30m`: a duration is the interval. */
export function durationPlan(text: string): { plan: Plan; length: number } | null {
  const short = SHORT_DELAY.exec(text);
  const iso = short ? null : ISO_DURATION.exec(text);
  const written = short?.[0] ?? iso?.[0];
  if (!written) return null;
  const parts = [...written.toLowerCase().matchAll(iso ? /(\d+)([ymwdhs])/g : /(\d+)(min|w|d|h|m|s)/g)];
  const isoTime = iso ? written.toUpperCase().indexOf("T") : -1;
  let minutes = 0;
  let unit: Unit | null = null;
  let n = 0;
  for (const p of parts) {
    const value = Number(p[1]);
    let key = p[2]!;
    if (iso && key === "m") key = p.index! > isoTime && isoTime >= 0 ? "m" : "mo";
    if (key === "s" || value === 0) return null;
    if (key === "y" || key === "mo") {
      if (parts.length > 1) return null;
      unit = key === "y" ? "year" : "month";
      n = value;
      continue;
    }
    minutes += value * { w: 10080, d: 1440, h: 60, m: 1, min: 1 }[key]!;
    unit = DURATION_UNITS[key]!;
  }
  if (unit === null) return null;
  if (unit !== "year" && unit !== "month") {
    if (parts.length > 1) unit = minutes % 10080 === 0 ? "week" : minutes % 1440 === 0 ? "day" : minutes % 60 === 0 ? "hour" : "minute";
    n = minutes / { week: 10080, day: 1440, hour: 60, minute: 1 }[unit as "week" | "day" | "hour" | "minute"];
  }
  const plan: Plan = { ...emptyPlan(), unit, interval: n };
  return { plan, length: written.length };
}
