/**
 * @module Why a text makes no schedule: the problems the one parser (`read.ts`) finds and its sentences
 * (`sentences.ts`) say, in a module of their own so that the two import it and not each other.
 */
import type { FormProblem } from "./form";
import type { WhenProblem } from "./when";

/** Why the text makes no schedule; `message` (in `ScheduleResult`) says it in one sentence. */
export type ScheduleProblem =
  | { kind: "empty" }
  /** Nothing read: `phrase` is the part to quote; `recurring` when a repetition was being read. */
  | { kind: "unreadable"; phrase: string; rest?: string; recurring: boolean }
  /**
   * A phrase read only in part (docs/time.md#words-when): a number too large for what it counts (`too-large`: every
   * 99999999999999999999 minutes), one that may be a time or how often (`ambiguous`: French `16h` alone), a part said
   * a second time or a second schedule (`twice`: from 1 jan from 1 jan); `phrase` is the number or part to quote.
   */
  | { kind: "too-large" | "ambiguous" | "twice"; phrase: string }
  /** A one-off time that would not do (in the past, in seconds …): `when.ts`'s problems. */
  | Exclude<WhenProblem, { kind: "unreadable" }>
  /** One time where a repetition was asked for (`/every tomorrow 9am`). */
  | { kind: "once"; phrase: string }
  /** A written cron the cron rules refused, or one that never fires, with their sentence, and the text after it. */
  | { kind: "cron"; phrase: string; sentence: string; rest?: string }
  /** A written RRULE the rule engine refused, with its sentence, and the text after it. */
  | { kind: "rule"; phrase: string; sentence: string; rest?: string }
  /** A repetition read that makes no schedule (times with different minutes, 0 runs, an end before the start). */
  | (FormProblem & { phrase: string });
