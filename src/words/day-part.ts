/**
 * @module A part of the day in a one-off (docs/time.md#parts-of-the-day): `tomorrow evening`, `heute Abend`,
 * `сегодня вечером` mean the part's hour of the one table every language shares (evening 19:00), not chrono's
 * own, which differ by locale (20:00 in English, 18:00 in German and French); and `morgen früh`, `mañana por la
 * tarde`, which chrono reads as a day with the part left as text, take that part's hour too. Said alone, a part is
 * the next of its two readings (`evening` said at 20:00 is tomorrow's); `this evening` is today's, passed or not. A
 * clock time said keeps its hour.
 */
import { DAY_MS, HOUR_MS } from "../time/civil";
import { instantOfWall, toLocal } from "../time/zone";
import { DAY_PARTS, type DayPart, type PhraseTable } from "./lang";
import { fold } from "./phrase";
import { type OnceRead, restAfter } from "./when";

/**
 * The part of the day named by whole words in `text` (folded), the longest entry first, or null; `whole` when those
 * words are all of `text`. A word that alone is a day (German "Morgen", Spanish "mañana": tomorrow) names a part only
 * after another word (`morgen Morgen`, `mañana por la mañana`).
 */
function partIn(text: string, table: PhraseTable, atStart: boolean): { part: DayPart; length: number; whole: boolean } | null {
  const folded = fold(text);
  const words = [...Object.entries(table.dayParts), ...Object.entries(table.dayPartsAfterEvery).map(([w, p]) => [w, p, true] as const)].sort(
    (a, b) => b[0].length - a[0].length,
  );
  for (const [word, part, later] of words) {
    const w = fold(word);
    const at = atStart ? (folded === w || folded.startsWith(`${w} `) ? 0 : -1) : ` ${folded} `.indexOf(` ${w} `, later ? 1 : 0);
    if (at >= 0 && !(later && at === 0)) return { part, length: w.length, whole: folded.trim() === w };
  }
  return null;
}

/**
 * The one-off `read` at the start of `text` with the part of the day it names, in `table`'s words, at the shared
 * hours: its instant and its phrase (which takes in a part said right after a day, `morgen früh`).
 */
export function withDayPart(text: string, read: OnceRead, table: PhraseTable, zone: string, now: number): OnceRead {
  if (read.said.clock) return withMeridiem(text, read, table, zone, now);
  let found = partIn(read.phrase, table, false);
  let phrase = read.phrase;
  const rest = restAfter(text, read.phrase);
  if (!found && !/\d/.test(read.phrase) && rest !== "") {
    found = partIn(rest, table, true);
    if (found) phrase = text.slice(0, text.length - rest.length + found.length);
  }
  if (!found) return read;
  // Without a day said, chrono's day is its own guess (Russian "ночью" is the next midnight's): today's; and a part
  // said alone ("evening") is the next of its two readings, today's or tomorrow's ("this evening" is today's).
  const day = Math.floor(toLocal(zone, read.said.day ? read.instant : now) / DAY_MS) * DAY_MS;
  let local = day + DAY_PARTS[found.part].hour * HOUR_MS;
  if (!read.said.day && found.whole && instantOfWall(zone, local) <= now) local += DAY_MS;
  // Passed, it is refused as any past time is ("this morning" said at 10:00), not moved on by chrono's reading.
  return { ...read, instant: instantOfWall(zone, local), phrase };
}

/** The words of `words` (folded, a word may span several) that start `folded` as whole words, the longest; or null. */
function wordAtStart(folded: string, words: readonly string[]): string | null {
  const hits = words.map((w) => fold(w)).filter((w) => folded === w || (folded.startsWith(w) && /^[\s,.;:!?]/u.test(folded.slice(w.length))));
  return hits.sort((a, b) => b.length - a.length)[0] ?? null;
}

/**
 * A clock time with the part of the day that says which of its two readings is meant: said after it, in `table`'s am
 * or pm words (`5h du matin`, `alle 5 del pomeriggio`, `в 3 часа дня`, `9 uur 's morgens`), which the phrase takes
 * in; or in it (`vanavond om 8 uur`, chrono's 08:00). An afternoon or evening makes an hour 1–11 the later one, a
 * night one from 6 to 11 (`2 de la noche` is 02:00), a morning the earlier. Without a day said, a time that has
 * passed is tomorrow's, as a bare hour's next reading is.
 */
function withMeridiem(text: string, read: OnceRead, table: PhraseTable, zone: string, now: number): OnceRead {
  const rest = restAfter(text, read.phrase);
  const folded = fold(rest);
  const said = wordAtStart(folded, [...table.am, ...table.pm]);
  const part = said ? (partIn(said, table, false)?.part ?? (wordAtStart(said, table.am) ? "morning" : "evening")) : partIn(read.phrase, table, false)?.part;
  if (!part) return read;
  const local = toLocal(zone, read.instant);
  const day = Math.floor(local / DAY_MS) * DAY_MS;
  const hour = Math.floor((local - day) / HOUR_MS);
  // The hour as written: a bare hour's later reading (5 read as 17:00) was written as its earlier one.
  const written = hour >= 13 && !new RegExp(`(?<!\\d)${hour}(?!\\d)`).test(read.phrase) ? hour - 12 : hour;
  const later = part === "afternoon" || part === "evening" || (part === "night" && written >= 6);
  // 0:30, 18h: a later part agrees and is the time's (`18h du soir`); an earlier one says nothing more, and stays.
  if (written < 1 || written > 12) return said && later && written > 12 ? { ...read, phrase: text.slice(0, text.length - rest.length + said.length) } : read;
  // 12 in the afternoon is noon; 12 at night, midnight.
  const to = written === 12 ? (part === "night" ? 24 : 12) : later ? written + 12 : written;
  let at = day + to * HOUR_MS + (local - day - hour * HOUR_MS);
  if (!read.said.day && instantOfWall(zone, at) <= now) at += DAY_MS;
  const instant = instantOfWall(zone, at);
  // One word that agrees with the hour written may be the text's (`morgen um 9 früh aufstehen`: get up early);
  // `du matin` is the time's.
  if (!said || (!/\s/u.test(said) && to === written)) return { ...read, instant };
  return { ...read, instant, phrase: text.slice(0, text.length - rest.length + said.length) };
}

/**
 * The words at the start of `rest` that still belong to a one-off's time, in `table`'s words: an o'clock or an
 * afternoon/evening word (`в 15 часов`, `в 3 часа дня`, chrono reading only the hour), or "at" and a number
 * (`в субботу в 9 часов`, chrono reading only the day). The hour they say was not the one read; null when none.
 */
export function timeLeftOver(rest: string, table: PhraseTable): string | null {
  const words = rest.split(/\s+/u);
  const folded = words.map((w) => fold(w));
  const atNumber = table.at.includes(folded[0] ?? "") && /^\d/u.test(folded[1] ?? "");
  if (atNumber) return words.slice(0, 2).join(" ");
  // Not a morning word: it keeps the hour read, and may start the text ("morgen um 9 früh aufstehen").
  for (const entry of [...table.oclock, ...table.pm].map((w) => fold(w).split(/\s+/u))) {
    if (entry.every((w, i) => folded[i] === w)) return words.slice(0, entry.length).join(" ");
  }
  return null;
}
