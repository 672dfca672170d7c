/**
 * @module The phrase reader's face (docs/time.md#words-when): `readPlan` reads a repetition as people say it into
 * a plan, in one language at a time; the rest of `words/` takes these and nothing else of the folder.
 */

export { readEndsPlan } from "./ends-only";
export { fold } from "./names";
export { type Clock, type DateReader, emptyPlan, type Plan, type PlanProblem, type PlanRead, type Position, type SaidDate, wholeInterval } from "./plan";
export { readPlan } from "./reader";
export { readTail } from "./tail";
