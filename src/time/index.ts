/**
 * @module The time engine (docs/time.md): zones, `at`/`delay`, cron in Cronos's dialect and recurrence rules
 * `{ rrule, start }`, next occurrence with the DST rules, preview (with where a job ends), descriptions and
 * display formats. Pure: `now` and the zone are always arguments; no Workers imports.
 */
export type { Parsed } from "../result";
export { checkOneOff, maxAhead, PAST_GRACE_MS, type ParsedAt, parseAt, resolveAt, resolveDelay, tomorrowAt } from "./at";
export { MONTH_SHORT } from "./civil";
export { type CronSchedule, type MonthDayRule, parseCron, type WeekdayRule } from "./cron";
export { cronosRule } from "./cronos";
export {
  type DateWords,
  ENGLISH_DATES,
  formatChatTime,
  formatDayMonthTime,
  formatDistance,
  formatHeader,
  formatLocalDateTime,
  formatLocalDay,
  formatLongDate,
  formatNowLine,
  formatSpan,
  formatWeekdayDay,
  formatWeekdayTime,
} from "./format";
export { type DstNote, nextOccurrence, type Occurrence, SEARCH_DAYS } from "./next";
export {
  endsBeforeFirstRun,
  neverFires,
  noteText,
  oneOffEnds,
  PREVIEW_DEFAULT_COUNT,
  PREVIEW_MAX_COUNT,
  type Preview,
  type PreviewEnds,
  type PreviewInput,
  preview,
  previewSchedule,
  type RuleInput,
  readEnds,
} from "./preview";
export { formatQuiet, inQuietHours, QUIET_TIME, type QuietHours, readQuiet, readTimeOfDay } from "./quiet";
export {
  nextRuleOccurrence,
  parseRuleSchedule,
  type Rule,
  type RuleEnds,
  type RuleSchedule,
  ruleEnds,
  ruleNeverFires,
} from "./rules";
export {
  ENDLESS,
  type Ends,
  type JobEnds,
  NO_ENDS,
  type RecurringSchedule,
  readRecurring,
  type Schedule,
  type StoredSchedule,
  scheduleFields,
  storedOf,
  type Timing,
} from "./schedule";
export { hasNativeTemporal, loadTemporal } from "./temporal";
export { endOfDay, LOCAL_UNTIL, localUntil, readUntil, untilInstant, untilLocal, untilOfInstant } from "./until";
export { formatOffset, instantOfWall, localFields, type Overlap, offsetAt, parseZone, type Resolution, resolveLocal, toLocal, unknownZone } from "./zone";
