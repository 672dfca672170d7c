/**
 * @module The date a phrase's clause starts with (`until 31 dec`, `starting next monday`, `bis März`), for the phrase
 * reader (`read.ts`) and the reader of an end alone (`ends.ts`): `when.ts`'s date at the start, seen no further than
 * the next until or starting word of the table's language. Pure.
 */
import type { PhraseTable } from "./lang";
import { type DateReader, fold } from "./phrase";
import { readDateStart } from "./when";

/**
 * Reads a date inside a phrase (until 31 dec, starting next monday) in the table's language, chrono seeing no
 * further than the next until or starting word: `from 1 jan from 1 jan` is two starts, not a date and 01:00.
 */
export function dateReader(text: string, table: PhraseTable, o: { zone: string; now: number }): DateReader {
  const words = dateWords(table);
  return async (index) => {
    const rest = text.slice(index);
    const cut = Math.min(rest.length, ...words.map((re) => re.exec(fold(rest))?.index ?? rest.length));
    const date = await readDateStart(rest.slice(0, cut), o.zone, o.now, table.lang);
    return date && { length: date.length, date: { local: date.local, dateOnly: date.dateOnly, month: date.month }, dated: date.dated };
  };
}

const dateWordCache = new WeakMap<PhraseTable, RegExp[]>();

/** A table's until and starting words, each as a whole word after a space. */
function dateWords(table: PhraseTable): RegExp[] {
  let words = dateWordCache.get(table);
  if (!words) {
    const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    words = [...table.until, ...table.starting].map((w) => new RegExp(`(?<=\\s)${escaped(fold(w))}(?![\\p{L}\\p{N}])`, "u"));
    dateWordCache.set(table, words);
  }
  return words;
}
