/**
 * @module The time engine (DESIGN §4): zones, `at`/`delay`, cron in Cronos's dialect and recurrence rules
 * `{ rrule, start }`, next occurrence with the DST rules, preview (with where a job ends), descriptions and
 * display formats. Pure: `now` and the zone are always arguments; no Workers imports. The rule engine is
 * loaded on first use (`await loadRules()` before the rule functions).
 */
export { type Parsed } from "../result";
export { parseZone, unknownZone, formatOffset, offsetAt, localFields, resolveLocal, type Resolution } from "./zone";
export { parseCron, type CronSchedule, type MonthDayRule, type WeekdayRule } from "./cron";
export { cronosRule } from "./cronos";
export { nextOccurrence, SEARCH_DAYS, type Occurrence, type DstNote } from "./next";
export {
  loadRules,
  rulesLoaded,
  parseRuleSchedule,
  nextRuleOccurrence,
  describeRule,
  ruleEnds,
  ruleNeverFires,
  type Rule,
  type RuleSchedule,
  type RuleEnds,
} from "./rules";
export { parseUntil } from "./until";
export { parseAt, resolveAt, resolveDelay, checkOneOff, maxAhead, tomorrowAt, PAST_GRACE_MS, type ParsedAt } from "./at";
export { readQuiet, inQuietHours, formatQuiet, QUIET_TIME, type QuietHours } from "./quiet";
export {
  preview,
  describeCron,
  endsBeforeFirstRun,
  neverFires,
  oneOffEnds,
  noteText,
  PREVIEW_DEFAULT_COUNT,
  PREVIEW_MAX_COUNT,
  type Preview,
  type PreviewEnds,
  type PreviewInput,
  type RuleInput,
} from "./preview";
export { formatChatTime, formatDayMonthTime, formatDistance, formatHeader, formatNowLine, formatLocalDateTime, formatLocalDay, formatLongDate, formatSpan, formatWeekdayTime } from "./format";
export { loadTemporal, hasNativeTemporal } from "./temporal";
export { readWhen, findWhen, type WhenRead, type WhenProblem, type WhenResult } from "./when";
export { type Locale } from "./chrono";
export { readSchedule, type ReadScheduleOptions, type Schedule, type ScheduleRead, type ScheduleProblem, type ScheduleResult } from "./schedule-read";
export { scheduleProblemText, remindExamples, textFor, type ProblemContext } from "./schedule-words";
export { zonesFor, placeZone, zoneChoiceLabel, parseOffset, MAX_CHOICES, type PlaceAnswer } from "./places";
