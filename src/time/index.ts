/**
 * @module The time engine (DESIGN §4): zones, `at`/`delay`, cron parsing and next occurrence with the DST
 * rules, preview and display formats. Pure: `now` and the zone are always arguments; no Workers imports.
 */
export { type Parsed } from "../result";
export { parseZone, unknownZone, formatOffset, offsetAt, localFields, resolveLocal, type Resolution } from "./zone";
export { parseCron, loadCron, cronLoaded, type CronSchedule } from "./cron";
export { nextOccurrence, SEARCH_DAYS, type Occurrence, type DstNote } from "./next";
export { parseAt, resolveAt, resolveDelay, checkOneOff, maxAhead, PAST_GRACE_MS, type ParsedAt } from "./at";
export {
  preview,
  describeCron,
  neverFires,
  noteText,
  PREVIEW_DEFAULT_COUNT,
  PREVIEW_MAX_COUNT,
  type Preview,
  type PreviewInput,
} from "./preview";
export { formatChatTime, formatDayMonthTime, formatHeader, formatNowLine, formatLocalDateTime, formatLocalDay, formatLongDate, formatSpan } from "./format";
export { loadTemporal, hasNativeTemporal } from "./temporal";
