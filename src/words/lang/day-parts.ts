/**
 * @module The hours of the parts of the day, one table for every language (docs/time.md#parts-of-the-day), as
 * reminder products document them (Todoist: morning 9am, afternoon 12pm, evening 7pm, night 10pm): what
 * `/every evening` and `/remind tomorrow evening` mean in each of the eight languages. Each language's table
 * only says which of its words name which part.
 */
import type { DayPart } from "./types";

/**
 * A part's hour said alone, and how it reads a bare hour said with it: `am` as written (morning at 7), `pm` 1–11
 * as afternoon or evening (evening at 8 = 20:00), `night` 6–11 as evening and 12 as midnight (night at 10 =
 * 22:00, at 2 = 02:00).
 */
export const DAY_PARTS: Readonly<Record<DayPart, { hour: number; reads: "am" | "pm" | "night" }>> = {
  morning: { hour: 9, reads: "am" },
  afternoon: { hour: 12, reads: "pm" },
  evening: { hour: 19, reads: "pm" },
  night: { hour: 22, reads: "night" },
};
