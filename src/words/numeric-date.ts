/**
 * @module A date written in numbers (docs/time.md#words-when): `1/30`, `30/1`, `30.1.`, `30.01.2027`, read in the
 * order the language writes it (month first in English, day first in the seven others), or in the other order
 * when only that one is a date (`1/30` is 30 January everywhere, `30/1` too). Dots are always day first
 * (`30.1.`); a dotted pair without a final dot or a year (`8.30`) is a time, not a date, and is left alone. chrono
 * reads slashes in its own locale's order, and English first for any Latin text, so a French `3/4` was 4 March:
 * the order is decided here, from the language of the words around it or the sender's. Pure.
 */
import { daysInMonth } from "../time/civil";

/** A date read: its year when written (else the caller takes the next one), month, day, and its length in the text. */
export type NumericDate = { year: number | null; month: number; day: number; length: number };

const SLASHED = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?=[\s,;]|$)/;
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})?(?=[\s,;]|$)/;

/** The date written at the start of `text`, or null. `monthFirst`: the language writes the month first (English). */
export function numericDate(text: string, monthFirst: boolean): NumericDate | null {
  const slashed = SLASHED.exec(text);
  const m = slashed ?? DOTTED.exec(text);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  const year = m[3] === undefined ? null : m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  const usual = slashed && monthFirst ? { month: a, day: b } : { month: b, day: a };
  const other = { month: usual.day, day: usual.month };
  const valid = (d: { month: number; day: number }) => d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= daysInMonth(year ?? 2028, d.month);
  const date = valid(usual) ? usual : valid(other) ? other : null;
  return date && { year, ...date, length: m[0].length };
}
