/**
 * @module The words (docs/time.md#words-when, docs/telegram.md): times, schedules and zones as people write them, in
 * eight languages, read into the time engine's forms. One reader from words to a schedule (`read.ts`: a phrase
 * that says a repetition through the phrase reader, `phrase/`, and the simplest cron or rule that says it,
 * `form.ts`; any other as one time, `when.ts` over chrono-node), the sentences it answers when it did not
 * understand (`sentences.ts`), descriptions of schedules that it reads back (`say.ts`), and zones by place
 * (`places.ts`). Words import the engine (`time/`), never the reverse; each language's table and chrono-node
 * locale is loaded on first use.
 */
export type { Locale } from "./chrono";
export { readEnds } from "./ends";
export { LANGS, type Lang, langOf } from "./lang";
export { MAX_CHOICES, type PlaceAnswer, parseOffset, placeZone, zoneChoiceLabel, zonesFor } from "./places";
export type { ScheduleProblem } from "./problem";
export { type ReadScheduleOptions, readSchedule, type ScheduleRead, type ScheduleResult } from "./read";
export { type ReminderWords, reminderWords } from "./reminder-words";
export { type Description, describe, describeIn, describeInEnglish, describeWith, type SayContext, speechOf } from "./say";
export { examplesIn, type ProblemContext, scheduleProblemText, textFor } from "./sentences";
export type { Speech } from "./speech/types";
export { findWhen, readWhen, type WhenProblem, type WhenRead, type WhenResult } from "./when";
