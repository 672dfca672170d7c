/**
 * @module Quiet hours (docs/telegram.md): a daily window of wall-clock time in the chat's zone, `from` to `to` (a
 * window that ends before it starts runs across midnight), during which messages go out without a notification
 * sound. Read as a person types it (`22:00-07:00`, `22-7`, `10pm-7am`, `22:00 to 07:00`) or as the API's
 * `HH:mm` pair; a window that starts where it ends is refused. Pure.
 */
import { localFields } from "./zone";

/** Quiet hours as stored and shown: two `HH:mm` wall times in the chat's zone. */
export type QuietHours = { from: string; to: string };

/** `HH:mm`, 00:00 to 23:59: the API's form of each end. */
export const QUIET_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

const minutesOf = (hm: string): number => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5));
const hm = (hour: number, minute: number): string => `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;

/** A time of day as a person types it: `22`, `22:00`, `7:30`, `10pm`, `7.30am`, as `HH:mm`; null when it is none. */
export function readTimeOfDay(text: string): string | null {
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm)?$/i.exec(text.trim());
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.toLowerCase();
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === "pm" ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? hm(hour, minute) : null;
}

/** Quiet hours as `/quiet` reads them (`22:00-07:00`, `22–7`, `10pm to 7am`), or null when they are not. */
export function readQuiet(text: string): QuietHours | null {
  const m = /^(.+?)\s*(?:-|–|—|\bto\b|\bbis\b)\s*(.+)$/i.exec(text.trim());
  if (!m) return null;
  const from = readTimeOfDay(m[1]!);
  const to = readTimeOfDay(m[2]!);
  if (from === null || to === null || from === to) return null;
  return { from, to };
}

/** Whether `now` falls inside the quiet hours, read on the wall clock of `zone` (`from` inclusive, `to` not). */
export function inQuietHours(quiet: QuietHours, zone: string, now: number): boolean {
  const local = localFields(zone, now);
  const minute = local.hour * 60 + local.minute;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/** `22:00–07:00`. */
export const formatQuiet = (quiet: QuietHours): string => `${quiet.from}–${quiet.to}`;
