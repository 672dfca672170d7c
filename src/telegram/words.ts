/**
 * @module What the commands say when they did not understand (docs/telegram.md, issues 14, 24): every sentence quotes
 * what the user typed (at most 40 characters), says what was not understood, and ends with two examples that work
 * now: relative ones (`tomorrow 9:00`, `2h`), or a date computed from the chat's now, never a past one. The
 * examples reuse the user's own text when there is one. A schedule that was not understood is said by the time
 * engine (`scheduleProblemText`, in the user's language where it can); the API keeps its own sentences.
 */
import { shown } from "../contracts/ids";
import { formatDistance, formatWeekdayTime } from "../time";
import { remindExamples, textFor } from "../words";

export { remindExamples } from "../words";

const DEFAULT_REMINDER = "call mum";
const DEFAULT_RECURRING = "summarise the news";

/** `Try A or B.` */
const tryThese = (a: string, b: string) => `Try ${a} or ${b}.`;

/** Two `/every` examples with `text`. */
function everyExamples(text: string): [string, string] {
  const t = textFor(text, DEFAULT_RECURRING);
  return [`/every day at 8:00 ${t}`, `/every weekdays at 8:30 ${t}`];
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

/** `/timezone` with a name that is neither a zone nor a place. */
export function unknownPlaceText(input: string): string {
  return `I don't know a time zone or place called "${shown(input)}". ${tryThese("/timezone Berlin", "/timezone America/New_York")}`;
}

/** `⏰ Wed 2 Dec 14:30 (Europe/Berlin), in 3 h 48 min`: the time understood, so a misreading shows at once. */
export function understoodLine(instant: number, zone: string, now: number): string {
  return `⏰ ${formatWeekdayTime(instant, zone, now)} (${zone}), ${formatDistance(instant - now)}`;
}

/**
 * `Read "every friday at 17" as the schedule and "weekly report" as the text.`: where the words were cut, so that a
 * wrong cut shows at once (docs/telegram.md). An end said after the text follows the schedule's words (`… until
 * March`); a reminder of a message replied to has that message as its text.
 */
export function cutLine(cut: { phrase: string; tail: string; text: string | null }): string {
  // A quoted cron is shown once quoted.
  const phrase = /^["“”'‘’].*["“”'‘’]$/u.test(cut.phrase) ? cut.phrase.slice(1, -1) : cut.phrase;
  const schedule = cut.tail === "" ? phrase : `${phrase} … ${cut.tail}`;
  const text = cut.text === null ? "the message replied to" : `"${shown(cut.text)}"`;
  return `Read "${shown(schedule)}" as the schedule and ${text} as the text.`;
}
