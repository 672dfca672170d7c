/**
 * @module An end said after the text (docs/time.md#words-when): `every weekday at 8:30 inbox until March`, `every
 * day at 9 stretch 10 times`. A phrase's schedule ends where its text begins, but its end or its count may come at
 * the very end of the message, after the text: the last words are read as the end clauses (`until` a date that
 * names a day, a number of runs, for how long) when they read to the end of the message; the text is what lies
 * between. `until 5pm` is the text's (it names no day). Pure.
 */
import type { PhraseTable } from "../lang";
import { dateClause, runs } from "./clauses-ends";
import type { DateReader, Plan } from "./plan";
import { atEnd, newReading } from "./reading";

/** The end clauses at the end of `text`, after the text that starts at `from`: where they start, and the plan with them; else null. */
export async function readTail(text: string, from: number, plan: Plan, table: PhraseTable, readDate: DateReader): Promise<{ at: number; plan: Plan } | null> {
  const first = from + (text.slice(from).length - text.slice(from).trimStart().length);
  // Each word after the text's first, earliest first: the longest tail that reads to the end.
  for (const m of text.slice(first).matchAll(/\s+(?=\S)/gu)) {
    const at = first + m.index + m[0].length;
    const r = newReading(text, table);
    Object.assign(r.plan, plan);
    r.c.pos = at;
    let read = false;
    while (runs(r) || (await dateClause(r, readDate, { keys: ["until"], dated: true }))) read = true;
    if (read && atEnd(r)) return { at, plan: r.plan };
  }
  return null;
}
