/**
 * @module A part of the day in a one-off (docs/time.md#parts-of-the-day): `tomorrow evening`, `heute Abend`,
 * `сегодня вечером` mean the part's hour of the one table every language shares (evening 19:00), not chrono's
 * own, which differ by locale (20:00 in English, 18:00 in German and French); and `morgen früh`, `mañana por la
 * tarde`, which chrono reads as a day with the part left as text, take that part's hour too. Said without a day,
 * a part is the next of its two readings (`evening` said at 20:00 is tomorrow's). A clock time said keeps its hour.
 */
import { DAY_MS, HOUR_MS } from "../time/civil";
import { instantOfWall, toLocal } from "../time/zone";
import { DAY_PARTS, type DayPart, type PhraseTable } from "./lang";
import { fold } from "./phrase";
import { restAfter, type WhenRead } from "./when";

/** The part of the day named by whole words in `text` (folded), the longest entry first, or null. */
function partIn(text: string, table: PhraseTable, atStart: boolean): { part: DayPart; length: number } | null {
  const folded = fold(text);
  const words = Object.keys(table.dayParts).sort((a, b) => b.length - a.length);
  for (const word of words) {
    const w = fold(word);
    const at = atStart ? (folded === w || folded.startsWith(`${w} `) ? 0 : -1) : ` ${folded} `.indexOf(` ${w} `);
    if (at >= 0) return { part: table.dayParts[word]!, length: w.length };
  }
  return null;
}

/** The one-off `read` of `text` with the part of the day it names, in `table`'s words, at the shared hours. */
export function withDayPart(text: string, read: WhenRead, table: PhraseTable, zone: string, now: number): WhenRead {
  if (read.said.clock) return read;
  let found = partIn(read.phrase, table, false);
  let phrase = read.phrase;
  if (!found && !/\d/.test(read.phrase) && read.rest !== "") {
    found = partIn(read.rest, table, true);
    if (found) phrase = text.slice(0, text.length - read.rest.length + found.length);
  }
  if (!found) return read;
  // Without a day said, chrono's day is its own guess (Russian "ночью" is the next midnight's): today's, or tomorrow's.
  const day = Math.floor(toLocal(zone, read.said.day ? read.instant : now) / DAY_MS) * DAY_MS;
  let local = day + DAY_PARTS[found.part].hour * HOUR_MS;
  if (!read.said.day && instantOfWall(zone, local) <= now) local += DAY_MS;
  const instant = instantOfWall(zone, local);
  if (instant <= now) return read;
  return { ...read, instant, phrase, rest: restAfter(text, phrase) };
}
