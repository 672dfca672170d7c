/**
 * @module A delay said in words (`in half an hour`, `in einer Viertelstunde`, `tra mezz'ora`, `over een kwartier`,
 * `em 2 horas`), read with the phrase tables' own units, numbers and spans. chrono reads no half or quarter of an
 * hour in most locales (English read `in a quarter` as three months, with "of an hour" left as the text), and
 * Portuguese chrono no delay at all.
 */
import { type Lang, tableOf, type Unit } from "./lang";
import { fold } from "./phrase/names";

/** `in an hour and a half`, `in 2 days and a half`: chrono reads the whole units and leaves the half as text. */
const AND_A_HALF = /^\s+and\s+a\s+half\b/i;
const HALF_OF: readonly [RegExp, number][] = [
  [/\bhours?$/i, 30 * 60_000],
  [/\bdays?$/i, 12 * 60 * 60_000],
];

/** The half said after a delay `phrase` of whole hours or days, in `after`: the words and the time they add; or null. */
export function andAHalf(phrase: string, after: string): { words: string; add: number } | null {
  const half = AND_A_HALF.exec(after);
  const add = half && HALF_OF.find(([unit]) => unit.test(phrase))?.[1];
  return half && add ? { words: half[0], add } : null;
}

/** The word that makes a delay of what follows, per language ("in", "dans", "через"), folded. */
const IN: readonly [Lang, RegExp][] = [
  ["en", /^(?:in|within)\s+/],
  ["de", /^(?:in|binnen)\s+/],
  ["fr", /^(?:dans|d'ici)\s+/],
  ["es", /^(?:en|dentro de)\s+/],
  ["pt", /^(?:em|daqui a|dentro de|daqui)\s+/],
  ["it", /^(?:tra|fra)\s+/],
  ["nl", /^(?:over|binnen)\s+/],
  ["ru", /^через\s+/],
];

/** Words for "a" or "one" before a unit or span that the tables' numbers leave out (German `einer`, Dutch `een`). */
const ONE = new Set(["a", "an", "ein", "eine", "einer", "einem", "un", "une", "una", "um", "uma", "een", "uno"]);

/** The ISO duration of `amount` of `unit`, or null when it is not a whole number of a unit ISO can say. */
function isoOf(amount: number, unit: Unit): string | null {
  const minutes = unit === "minute" ? amount : unit === "hour" ? amount * 60 : null;
  if (minutes !== null) return Number.isInteger(minutes) ? `PT${minutes}M` : null;
  const [n, letter] = unit === "day" ? [amount * 24, "H"] : unit === "week" ? [amount * 7 * 24, "H"] : [amount, unit === "month" ? "M" : "Y"];
  if (!Number.isInteger(n)) return null;
  // Days and weeks as days when whole, so that a DST change moves nothing; else as hours.
  if (letter === "H") return Number.isInteger(n / 24) ? `P${n / 24}D` : `PT${n}H`;
  return `P${n}${letter}`;
}

/** A text word is the table's word, or the word with a German case's `-n` (`halben`, `Stunden` are in the table). */
const same = (typed: string, word: string) => typed === word || typed === `${word}n`;

/**
 * The delay said at the start of `text` in words: the ISO duration and the length of the phrase, or null. Only the
 * languages whose "in" word starts the text are looked at (an English text loads no other table).
 */
export async function delayInWords(text: string): Promise<{ iso: string; length: number } | null> {
  const folded = fold(text);
  // fold keeps the length of these scripts' letters; a text it does not is not read here.
  if (folded.length !== text.length) return null;
  for (const [lang, pattern] of IN) {
    const lead = pattern.exec(folded);
    if (!lead) continue;
    const table = await tableOf(lang);
    const words = folded.slice(lead[0].length).split(/(?<=\s)(?=\S)/u);
    let at = 0;
    let amount = 1;
    const first = words[0]?.trim() ?? "";
    if (/^\d{1,4}$/.test(first)) [amount, at] = [Number(first), 1];
    else if (table.numbers[first] !== undefined) [amount, at] = [table.numbers[first]!, 1];
    else if (ONE.has(first)) at = 1;
    const after = words.slice(at).map((w) => w.trim().replace(/[,;:.!?]+$/u, ""));
    const entries: [string[], number, Unit][] = [
      ...Object.entries(table.spans).map(([w, [n, unit]]) => [fold(w).split(/\s+/), n, unit] as [string[], number, Unit]),
      ...Object.entries(table.units).flatMap(([unit, ws]) => ws.map((w) => [[fold(w)], 1, unit as Unit] as [string[], number, Unit])),
    ].sort((a, b) => b[0].join(" ").length - a[0].join(" ").length);
    const found = entries.find(([ws]) => ws.every((w, i) => after[i] !== undefined && same(after[i]!, w)));
    if (!found) continue;
    const [ws, n, unit] = found;
    const iso = isoOf(amount * n, unit);
    if (!iso) continue;
    const length =
      lead[0].length +
      words
        .slice(0, at + ws.length)
        .join("")
        .replace(/[\s,;:.!?]+$/u, "").length;
    return { iso, length };
  }
  return null;
}
