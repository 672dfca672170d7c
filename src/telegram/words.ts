/**
 * @module What the commands say when they did not understand (DESIGN §6, issue 14): every sentence quotes what
 * the user typed (at most 40 characters), says what was not understood, and ends with two examples that work
 * now: relative ones (`tomorrow 9:00`, `2h`), or a date computed from the chat's now, never a past one. The
 * examples reuse the user's own text when there is one. The API keeps its own sentences for its fields.
 */
import { shown } from "../contracts/ids";
import { formatDistance, formatLocalDateTime, formatLocalDay, formatSpan, formatWeekdayTime, type EveryProblem, type WhenProblem } from "../time";

const DAY_MS = 86_400_000;
const DEFAULT_REMINDER = "call mum";
const DEFAULT_RECURRING = "summarise the news";

/** The user's text for an example, or a stand-in when there is none (or it is too long to repeat). */
function textFor(text: string, fallback: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one !== "" && one.length <= 40 ? one : fallback;
}

/** `Try A or B.` */
const tryThese = (a: string, b: string) => `Try ${a} or ${b}.`;

/** A command that works, around a WHEN: `/remind <when> call mum`, or `/edit k7m2q <when>`. */
export type Example = (when: string) => string;

export const remindExample = (text: string): Example => (when) => `/remind ${when} ${textFor(text, DEFAULT_REMINDER)}`;
export const everyExample = (text: string): Example => (when) => `/every ${when} ${textFor(text, DEFAULT_RECURRING)}`;
/** `/edit k7m2q <when>`: a job's new time, with no text after it. */
export const editExample = (id: string): Example => (when) => `/edit ${id} ${when}`;

/** Two examples of a one-off's WHEN: relative, or with tomorrow's date (never a past one) when the problem was a date. */
function whenExamples(example: Example, zone: string, now: number, dated = false): [string, string] {
  return [example(dated ? `${formatLocalDay(now + DAY_MS, zone)} 09:00` : "tomorrow 9:00"), example("2h")];
}

/** Two `/remind` examples with `text`: relative, or with tomorrow's date (never a past one) when the problem was a date. */
export function remindExamples(text: string, zone: string, now: number, dated = false): [string, string] {
  return whenExamples(remindExample(text), zone, now, dated);
}

/** Two examples of a recurring WHEN. */
const recurringExamples = (example: Example): [string, string] => [example("day at 8:00"), example("weekdays at 8:30")];

/** Two `/every` examples with `text`. */
function everyExamples(text: string): [string, string] {
  return recurringExamples(everyExample(text));
}

/** `/remind` with nothing after it. */
export function remindUsage(zone: string, now: number): string {
  return `/remind needs a time and then the text of the reminder. ${tryThese(...remindExamples("", zone, now))}`;
}

/** `/every` with nothing after it. */
export function everyUsage(): string {
  return `/every needs a schedule and then the text to send. ${tryThese(...everyExamples(""))}`;
}

/** A WHEN that was read, with nothing after it. */
export function noTextText(command: "remind" | "every", phrase: string, zone: string, now: number): string {
  const q = shown(phrase);
  const second = command === "remind" ? remindExamples("", zone, now)[1] : everyExamples("")[0];
  const fallback = command === "remind" ? DEFAULT_REMINDER : DEFAULT_RECURRING;
  return `"${q}" needs a text after it: what should I send then? ${tryThese(`/${command} ${q} ${fallback}`, second)}`;
}

/** A reminder's text longer than a job holds. */
export function tooLongText(length: number, max: number): string {
  return `The text is ${length} characters long; a job holds at most ${max}. Shorten it and send the command again.`;
}

/** Why a `/remind` time was not taken, in the user's words, with two examples. */
export function whenProblemText(problem: WhenProblem, text: string, zone: string, now: number): string {
  return whenProblemFor(problem, remindExample(text), zone, now);
}

/** Why a one-off's WHEN was not taken, with two examples made by `example` (`/remind …`, `/edit k7m2q …`). */
export function whenProblemFor(problem: WhenProblem, example: Example, zone: string, now: number): string {
  const q = shown(problem.phrase);
  switch (problem.kind) {
    case "unreadable":
      return `I couldn't read "${q}" as a time. ${tryThese(...whenExamples(example, zone, now))}`;
    case "not-real":
      return `"${q}" is not a real date. ${tryThese(...whenExamples(example, zone, now, true))}`;
    case "seconds":
      return `"${q}" counts seconds; a reminder is set in minutes, at least one ahead. ${tryThese(example("2m"), example("2h"))}`;
    case "too-soon":
      return `"${q}" is less than a minute from now. ${tryThese(example("2m"), example("2h"))}`;
    case "past":
      return `"${q}" is in the past: ${formatWeekdayTime(problem.instant, zone, now)} (${zone}) was ${formatSpan(now - problem.instant)} ago. ${tryThese(...whenExamples(example, zone, now, true))}`;
    case "too-far":
      return `"${q}" is more than 5 years ahead (${formatLocalDateTime(problem.instant, zone)} in ${zone}). ${tryThese(...whenExamples(example, zone, now, true))}`;
  }
}

/** Why an `/every` schedule was not taken. */
export function everyProblemText(problem: EveryProblem, text: string): string {
  return everyProblemFor(problem, everyExample(text));
}

/** Why a recurring WHEN was not taken, with two examples made by `example`. */
export function everyProblemFor(problem: EveryProblem, example: Example): string {
  const q = shown(problem.phrase);
  if (problem.kind === "unreadable") return `I couldn't read "${q}" as a schedule. ${tryThese(...recurringExamples(example))}`;
  const [unit, whole, a, b] = problem.unit === "minute" ? ["minutes", "an hour", "30 minutes", "hour"] : ["hours", "a day", "4 hours", "6 hours"];
  return `"${q}" can't be kept evenly by cron: ${problem.n} ${unit} does not divide ${whole}. ${tryThese(example(a), example(b))}`;
}

/** A quoted cron or macro that the cron rules refused, with their sentence. */
export function cronProblemText(cron: string, sentence: string, text: string): string {
  return cronProblemFor(cron, sentence, everyExample(text));
}

/** A quoted cron or macro the cron rules refused, with two examples made by `example`. */
export function cronProblemFor(cron: string, sentence: string, example: Example): string {
  return `I couldn't use "${shown(cron)}" as a schedule: ${sentence} ${tryThese(example('"0 8 * * 1-5"'), example("day at 8:00"))}`;
}

/** `/timezone` with a name that is neither a zone nor a place. */
export function unknownPlaceText(input: string): string {
  return `I don't know a time zone or place called "${shown(input)}". ${tryThese("/timezone Berlin", "/timezone America/New_York")}`;
}

/** `⏰ Wed 2 Dec 14:30 (Europe/Berlin), in 3 h 48 min`: the time understood, so a misreading shows at once. */
export function understoodLine(instant: number, zone: string, now: number): string {
  return `⏰ ${formatWeekdayTime(instant, zone, now)} (${zone}), ${formatDistance(instant - now)}`;
}
