/**
 * @module Calendar arithmetic on the proleptic Gregorian calendar, with no zones: a local wall-clock time is
 * a "local epoch" millisecond count (the same count UTC would have at that wall time). Pure integer maths,
 * so the cron walk can step through days and minutes without touching `Intl`.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Wall-clock fields of a local time. `month` is 1–12, `weekday` 0–6 with 0 = Sunday. */
export type CivilFields = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
};

/** Days since 1970-01-01 for a civil date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The civil date of a day count since 1970-01-01 (Howard Hinnant's civil_from_days). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Weekday of a day count since 1970-01-01 (a Thursday), 0 = Sunday. */
export function weekdayOfDays(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The local epoch milliseconds of a wall-clock time. */
export function localMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  return daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + ms;
}

/** Splits local epoch milliseconds into wall-clock fields. */
export function civilFields(local: number): CivilFields {
  const days = Math.floor(local / DAY_MS);
  const rest = local - days * DAY_MS;
  const { year, month, day } = civilFromDays(days);
  return {
    year,
    month,
    day,
    hour: Math.floor(rest / HOUR_MS),
    minute: Math.floor((rest % HOUR_MS) / MINUTE_MS),
    second: Math.floor((rest % MINUTE_MS) / 1000),
    millisecond: rest % 1000,
    weekday: weekdayOfDays(days),
  };
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/** `yyyy-MM-dd` of a local time. */
export function formatDate(f: CivilFields): string {
  return `${String(f.year).padStart(4, "0")}-${pad2(f.month)}-${pad2(f.day)}`;
}

/** `HH:mm` of a local time. */
export function formatHm(f: CivilFields): string {
  return `${pad2(f.hour)}:${pad2(f.minute)}`;
}

export const WEEKDAY_SHORT = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
export const MONTH_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
