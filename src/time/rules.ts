/**
 * @module Recurrence rules `{ rrule, start }` (docs/time.md), as the rest of the code calls them: read and expanded
 * by the rule engine (time/rule.ts, rule-expand.ts; the words say them, `words/say.ts`), imported like the rest of
 * the time engine. It was loaded with `import()` on first use behind a `loadRules()` every caller had to await;
 * its load measured 0.2 ms and the bundle held its code either way, so it is not lazy any more
 * (docs/design/0025-one-schedule-value.md). COUNT and UNTIL leave the rule here: `ruleEnds` turns them into a
 * job's `runsLeft` and `until` (docs/time.md#jobs-that-end-until-and-runsleft).
 */

import { shown } from "../contracts/ids";
import { fail, ok, type Parsed } from "../result";
import { DAY_MS, HOUR_MS } from "./civil";
import { formatLocalDateTime } from "./format";
import { type Occurrence, SEARCH_DAYS } from "./next";
import { formatStart, parseRule, parseStart, type RuleSchedule, withoutEnds } from "./rule";
import { nextRuleOccurrence as expand } from "./rule-expand";
import { endOfDay, localUntil, untilInstant, untilOfInstant } from "./until";

export type { Rule, RuleSchedule } from "./rule";

/**
 * Reads `{ rrule, start }` in the chat's zone: the RRULE value (time/rule.ts says what is refused) and `start`
 * (`yyyy-MM-dd[T| ]HH:mm`, a date alone = 09:00). COUNT and UNTIL stay in the result's rule; `ruleEnds` moves them.
 */
export function parseRuleSchedule(input: { rrule: string; start: string }, zone: string): Parsed<RuleSchedule> {
  const rule = parseRule(input.rrule);
  if (!rule.ok) return rule;
  const start = parseStart(input.start, zone);
  if (!start.ok) return start;
  return ok({ rule: rule.value, start: start.value });
}

/**
 * The rule's first occurrence strictly after `after` (epoch ms) in `zone`, by the DST rules of cron (a gap
 * fires once at its end; an overlap at its first instant, and its second too for FREQ HOURLY and MINUTELY),
 * or null when none lies within `maxDays` days (5 years by default). COUNT and UNTIL are not applied: they
 * are `runsLeft` and `until`, the caller's (or `ruleOccurrences`').
 */
export function nextRuleOccurrence(schedule: RuleSchedule, zone: string, after: number, maxDays = SEARCH_DAYS): Occurrence | null {
  return expand(schedule.rule, schedule.start, zone, after, maxDays);
}

/** The sentence for a rule with no occurrence within the search bound. */
export function ruleNeverFires(schedule: RuleSchedule): string {
  const from = formatStart(schedule.start).replace("T", " ");
  return `The rule "${shown(schedule.rule.source)}" from ${from} never fires within 5 years; check its FREQ, INTERVAL and BY parts.`;
}

/** A rule as a job stores it: no COUNT or UNTIL, which are `runsLeft` and `until` (a local date-time, `time/until.ts`). */
export type RuleEnds = { rrule: string; start: string; until: string | null; runsLeft: number | null };

/**
 * Splits a rule's COUNT and UNTIL out, as a job is written at `now` (docs/api.md#jobs): `until` is UNTIL as a
 * local date-time in the zone (a UTC time the minute it falls in there; a local time as written; a date its last
 * minute), `runsLeft` is COUNT less the runs at or before now, counted from `start`. Refused with a sentence
 * when nothing is left to run: UNTIL before now, every COUNT run past, or no run within 5 years.
 */
export function ruleEnds(schedule: RuleSchedule, zone: string, now: number): Parsed<RuleEnds> {
  const { rule, start } = schedule;
  const quoted = `The rule "${shown(rule.source)}"`;
  let until: number | null = null;
  let local: string | null = null;
  if (rule.until) {
    const u = rule.until;
    local = u.kind === "instant" ? untilOfInstant(u.at, zone) : u.kind === "local" ? localUntil(u.local) : endOfDay(u.local);
    until = untilInstant(local, zone);
    if (until <= now)
      return fail(`${quoted} ends before now: its UNTIL is ${formatLocalDateTime(until, zone)} in ${zone}; give a later UNTIL or leave it out.`);
  }
  let runsLeft: number | null = null;
  if (rule.count !== null) {
    // Every instance is at or after `start`'s wall time, so no instant of one lies before start − 15 h.
    let after = start - 15 * HOUR_MS;
    const bound = Math.max(0, Math.ceil((now - after) / DAY_MS)) + SEARCH_DAYS;
    let past = 0;
    while (past < rule.count) {
      const next = expand(rule, start, zone, after, bound);
      if (!next || next.at > now) break;
      past++;
      after = next.at;
    }
    runsLeft = rule.count - past;
    if (runsLeft === 0)
      return fail(
        `${quoted} has no runs left: all ${rule.count} of its COUNT ran by ${formatLocalDateTime(after, zone)} in ${zone}; ` +
          "give a later start or a larger COUNT.",
      );
  }
  const first = expand(rule, start, zone, now);
  if (!first || (until !== null && first.at > until)) return fail(ruleNeverFires(schedule));
  return ok({ rrule: withoutEnds(rule), start: formatStart(start), until: local, runsLeft });
}
