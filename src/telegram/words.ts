/**
 * @module What the commands say when they did not understand, and the lines that show what they understood
 * (docs/telegram.md, issues 14, 24, 33), in the chat's language (`Voice`): every sentence quotes what the user typed
 * (at most 40 characters), says what was not understood, and ends with two examples in that language that work
 * now, reusing the user's own text when there is one. A schedule that was not understood is said by the time
 * engine (`scheduleProblemText`); the API keeps its own sentences.
 */
import { shown } from "../contracts/ids";
import type { Voice } from "../texts";
import { formatDistance, formatWeekdayTime } from "../time";
import { examplesIn, textFor } from "../words";

/** Two examples of `command` in the voice's language, with `text` (else the language's stand-in). */
export async function examplesOf(v: Voice, command: "remind" | "every", text: string): Promise<[string, string]> {
  const ex = await examplesIn(v.lang);
  const t = textFor(text, ex.texts[command]);
  return [`/${command} ${ex[command][0]} ${t}`, `/${command} ${ex[command][1]} ${t}`];
}

/** `/remind` or `/every` with nothing after it. */
export async function usageOf(v: Voice, command: "remind" | "every"): Promise<string> {
  const [a, b] = await examplesOf(v, command, "");
  return command === "remind" ? v.t.job.remindUsage(a, b) : v.t.job.everyUsage(a, b);
}

/** A WHEN that was read, with nothing after it: the phrase again with a stand-in text, and an example. */
export async function noTextText(v: Voice, command: "remind" | "every", phrase: string): Promise<string> {
  const q = shown(phrase);
  const ex = await examplesIn(v.lang);
  const [first, second] = await examplesOf(v, command, "");
  return v.t.job.noText(q, `/${command} ${q} ${ex.texts[command]}`, command === "remind" ? second : first);
}

/** A text longer than a job holds. */
export const tooLongText = (v: Voice, length: number, max: number): string => v.t.job.tooLong(length, max);

/** `⏰ Wed 2 Dec 14:30 (Europe/Berlin), in 3 h 48 min`: the time understood, so a misreading shows at once. */
export function understoodLine(v: Voice, instant: number, zone: string, now: number): string {
  return v.t.job.understood(formatWeekdayTime(instant, zone, now, v.t.dates), zone, formatDistance(instant - now, v.t.dates));
}

/**
 * `Read "every friday at 17" as the schedule and "weekly report" as the text.`: where the words were cut, so that a
 * wrong cut shows at once (docs/telegram.md). An end said after the text follows the schedule's words (`… until
 * March`); a reminder of a message replied to has that message as its text.
 */
export function cutLine(v: Voice, cut: { phrase: string; tail: string; text: string | null }): string {
  // A quoted cron is shown once quoted.
  const phrase = /^["“”'‘’].*["“”'‘’]$/u.test(cut.phrase) ? cut.phrase.slice(1, -1) : cut.phrase;
  const schedule = cut.tail === "" ? phrase : `${phrase} … ${cut.tail}`;
  return v.t.job.cut(shown(schedule), cut.text === null ? null : shown(cut.text));
}
