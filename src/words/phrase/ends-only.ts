/**
 * @module An end alone, for a job that has its schedule (`/edit k7m2q until March`, `/edit k7m2q 10 times`;
 * docs/telegram.md): the clause readers of where a repetition ends (`clauses-ends.ts`), and nothing else, over the
 * whole text. Pure.
 */
import type { PhraseTable } from "../lang";
import { dateClause, runs } from "./clauses-ends";
import type { DateReader, Plan } from "./plan";
import { newReading } from "./reading";

/** The end said by the whole of `text` (an `until` date, a number of runs, or both), or null when it says anything else. */
export async function readEndsPlan(text: string, table: PhraseTable, readDate: DateReader): Promise<Pick<Plan, "until" | "runs"> | null> {
  const r = newReading(text, table);
  const { c } = r;
  let clauses = 0;
  while (runs(r) || (await dateClause(r, readDate))) clauses++;
  c.attempt(() => c.take(/[.!]+/u));
  const { until, runs: count, start, span } = r.plan;
  if (clauses === 0 || c.text.slice(c.pos).trim() !== "" || start !== null || span !== null) return null;
  return { until, runs: count };
}
