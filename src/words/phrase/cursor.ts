/**
 * @module The phrase reader's cursor (docs/time.md#words-when): the folded text and a position in it, with the
 * few moves every clause reader is made of: a pattern or one of a table's entries at the position (after any
 * spaces, ending at a word's end), an attempt that puts the position back when it fails, a look ahead. A table's
 * entries are compared folded (`fold`), the longest first, so that `tous les` is tried before `tous`; an entry
 * may span words, and one that ends in `*` stands for every word that starts so (`кажд*`). Pure.
 */
import type { Words } from "../lang";
import { fold } from "./names";

const LETTER = /[\p{L}\p{N}]/u;

const entryPatterns = new Map<string, RegExp>();

/** An entry's sticky pattern: words apart by any spaces, a trailing `*` for any ending, a word boundary after. */
function entryPattern(entry: string): RegExp {
  let re = entryPatterns.get(entry);
  if (!re) {
    const prefix = entry.endsWith("*");
    const body = (prefix ? entry.slice(0, -1) : entry)
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
      .join("\\s+");
    const end = prefix ? "\\p{L}*(?![\\p{L}\\p{N}])" : LETTER.test(entry.at(-1) ?? "") ? "(?![\\p{L}\\p{N}])" : "";
    re = new RegExp(body + end, "uy");
    entryPatterns.set(entry, re);
  }
  return re;
}

/** Whether `word` (folded) is one of the list's entries, whole. */
export function whole(list: Words, word: string): boolean {
  return sorted(list).some((entry) => {
    const re = entryPattern(entry);
    re.lastIndex = 0;
    return re.exec(word)?.[0].length === word.length;
  });
}

const sortedLists = new WeakMap<Words, string[]>();

/** A list's entries folded, longest first, so that `tous les` is tried before `tous`. */
export function sorted(list: Words): string[] {
  let out = sortedLists.get(list);
  if (!out) {
    out = [...new Set(list.map(fold))].sort((a, b) => b.length - a.length);
    sortedLists.set(list, out);
  }
  return out;
}

const foldedMaps = new WeakMap<object, Map<string, unknown>>();

function foldedMap<T>(map: Readonly<Record<string, T>>): Map<string, T> {
  let out = foldedMaps.get(map) as Map<string, T> | undefined;
  if (!out) {
    out = new Map(Object.entries(map).map(([k, v]) => [fold(k), v]));
    foldedMaps.set(map, out);
  }
  return out;
}

/** A cursor over the folded text: each rule matches at the position or leaves it where it was. */
export class Cursor {
  pos = 0;
  /** A word of the language was matched (see `PlanRead.anchored`). */
  anchored = false;
  constructor(readonly text: string) {}

  private skipSpaces(): number {
    const spaces = /\s*/y;
    spaces.lastIndex = this.pos;
    spaces.exec(this.text);
    return spaces.lastIndex;
  }

  /** Matches `re` (sticky) after any spaces; on a match, moves past it. */
  take(re: RegExp): RegExpExecArray | null {
    const sticky = re.sticky ? re : new RegExp(re.source, `${re.flags}y`);
    sticky.lastIndex = this.skipSpaces();
    const m = sticky.exec(this.text);
    if (!m) return null;
    // A word must end at a word boundary ("mon" is not the start of "money"); a number may run into a unit (20m).
    if (/\p{L}/u.test(m[0].at(-1) ?? "") && LETTER.test(this.text[sticky.lastIndex] ?? "")) return null;
    this.pos = sticky.lastIndex;
    return m;
  }

  /** The entry of `list` that stands at the position (the longest), moving past it; else null. */
  word(list: Words): string | null {
    const at = this.skipSpaces();
    for (const entry of sorted(list)) {
      const re = entryPattern(entry);
      re.lastIndex = at;
      if (re.exec(this.text)) {
        this.pos = re.lastIndex;
        // A letter alone is a sign any language writes (the h of 16h, the x of 3x), not a word of this one.
        if (/\p{L}.*\p{L}/u.test(entry)) this.anchored = true;
        return entry;
      }
    }
    return null;
  }

  /** The value of the map's entry that stands at the position. */
  value<T>(map: Readonly<Record<string, T>>): T | null {
    const folded = foldedMap(map);
    const entry = this.word([...folded.keys()]);
    return entry === null ? null : (folded.get(entry) ?? null);
  }

  /** Runs `rule`; when it returns null, the position (and what was matched) is put back. */
  attempt<T>(rule: () => T | null): T | null {
    const [pos, anchored] = [this.pos, this.anchored];
    const value = rule();
    if (value === null) [this.pos, this.anchored] = [pos, anchored];
    return value;
  }

  /** Whether `rule` would match here; the position stays. */
  peek<T>(rule: () => T | null): boolean {
    const [pos, anchored] = [this.pos, this.anchored];
    const value = rule();
    [this.pos, this.anchored] = [pos, anchored];
    return value !== null;
  }

  async attemptAsync<T>(rule: () => Promise<T | null>): Promise<T | null> {
    const [pos, anchored] = [this.pos, this.anchored];
    const value = await rule();
    if (value === null) [this.pos, this.anchored] = [pos, anchored];
    return value;
  }
}
