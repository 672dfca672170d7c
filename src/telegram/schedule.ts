/**
 * @module `/remind <when> <text>` and `/every <when> <text>` (DESIGN §6): the WHEN read as a person types it
 * (`time/when.ts`, `time/every.ts`), the text after it stored as the prompt and, cut to 80 characters, as the
 * job's name. The reply is the job line and what was understood: for `/remind` the time with its weekday and
 * how far ahead; for `/every` the cron made, its description and the next three runs. A WHEN that was not
 * understood is answered in the user's words (`words.ts`).
 */
import { lengthOf } from "../jobs/text-fields";
import { jobLine } from "../jobs/texts";
import { LIMITS, type Job } from "../schemas/jobs";
import { formatWeekdayTime, parseCron, preview, readEvery, readWhen, type WhenRead } from "../time";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";
import { quote } from "./replies";
import {
  cronProblemFor,
  cronProblemText,
  everyExample,
  everyProblemFor,
  everyUsage,
  noTextText,
  remindExample,
  remindUsage,
  tooLongText,
  understoodLine,
  whenProblemFor,
  type Example,
} from "./words";

/** A job's name: its text on one line, cut to 80 characters. */
export function nameOf(text: string): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= LIMITS.name ? chars.join("") : `${chars.slice(0, LIMITS.name - 1).join("")}…`;
}

/**
 * Creates a one-off prompt at `instant` with `text` for the chat's user (named after the text, or `name`): the job
 * line and the time understood.
 */
export async function createReminder(host: CommandHost, who: Asker, instant: number, text: string, name = nameOf(text)): Promise<Reply> {
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  const created = await host.create(who.chatId, { name, kind: "prompt", text, at: new Date(instant).toISOString() }, "user");
  if (!created.ok) return { markdown: created.error.message };
  return { markdown: `Created ${jobLine(created.value, who.zone, who.now)}\n${understoodLine(instant, who.zone, who.now)}`, jobId: created.value.id };
}

/** A one-off's WHEN read as `/remind` reads it, with what follows it, or the reply that says why not. */
export async function readOneOff(args: string, who: Asker, example: (rest: string) => Example): Promise<{ ok: true; value: WhenRead } | { ok: false; markdown: string }> {
  const read = await readWhen(args, who.zone, who.now);
  if (read.ok) return read;
  // The likely text, for the examples: after an unreadable WHEN, what follows the part that could be read.
  const rest = read.problem.kind === "unreadable" ? (read.problem.rest ?? "") : args.trim().slice(read.problem.phrase.length);
  return { ok: false, markdown: whenProblemFor(read.problem, example(rest), who.zone, who.now) };
}

/**
 * `/remind <when> <text>`. Sent as a reply to a message (`repliedTo`, its text) with no text of its own, it
 * reminds of that message: its text, quoted, is the prompt (DESIGN §6 Replies).
 */
export async function remindCommand(host: CommandHost, who: Asker, args: string, repliedTo: string | null = null): Promise<Reply> {
  if (args.trim() === "") return { markdown: remindUsage(who.zone, who.now) };
  const read = await readOneOff(args, who, remindExample);
  if (!read.ok) return { markdown: read.markdown };
  const { instant, phrase, rest, note } = read.value;
  const quoted = rest === "" && repliedTo !== null && repliedTo.trim() !== "" ? quote(repliedTo) : null;
  if (rest === "" && quoted === null) return { markdown: noTextText("remind", phrase, who.zone, who.now) };
  const reply = quoted === null ? await createReminder(host, who, instant, rest) : await createReminder(host, who, instant, quoted, nameOf(repliedTo!));
  return { ...reply, markdown: note && reply.jobId ? `${reply.markdown}\n${note}.` : reply.markdown };
}

/** A quoted cron (straight or curly quotes), a macro, or five unquoted fields of digits and `* , - /`. */
const QUOTED = /^["“”'‘’]([^"“”'‘’]+)["“”'‘’](?=\s|$)/;
const MACRO = /^@[A-Za-z]+(?=\s|$)/;
const BARE_CRON = /^(?:[\d*,/-]+\s+){4}[\d*,/-]+(?=\s|$)/;

/** A recurring WHEN as `/every` reads it: a quoted cron, a macro, five bare fields or a phrase, or why not. */
export type EverySchedule = { cron: string; phrase: string; quoted: boolean; fields: string };

/**
 * The schedule at the start of `input` as `/every` reads it, checked by the cron rules, or the reply that says
 * why not (its examples made by `example`, given the text that follows).
 */
export function readEverySchedule(input: string, example: (rest: string) => Example): { ok: true; value: EverySchedule; rest: string } | { ok: false; markdown: string } {
  let cron: string;
  let phrase: string;
  let quoted = true;
  const written = QUOTED.exec(input) ?? MACRO.exec(input) ?? BARE_CRON.exec(input);
  if (written) {
    cron = (written[1] ?? written[0]).trim();
    phrase = written[0];
  } else {
    const read = readEvery(input);
    // The likely text, for the examples: what follows a step that cron cannot keep ("45 minutes stretch").
    if (!read.ok) return { ok: false, markdown: everyProblemFor(read.problem, example(read.problem.kind === "uneven" ? input.slice(read.problem.phrase.length) : "")) };
    ({ cron, phrase } = read.value);
    quoted = false;
  }
  const rest = input.slice(phrase.length).replace(/^[\s,.:;–—-]+/, "").trim();
  const parsed = parseCron(cron);
  if (!parsed.ok) return { ok: false, markdown: cronProblemFor(cron, parsed.error, example(rest)) };
  return { ok: true, value: { cron, phrase, quoted, fields: parsed.value.fields.join(" ") }, rest };
}

/**
 * What a reply says of a job's schedule after its job line (DESIGN §6): a one-off's time with its weekday and
 * how far ahead; a recurring job's cron with its description, and its next three runs.
 */
export async function scheduleLines(job: Job, who: Asker, fields?: string): Promise<string[]> {
  if ("at" in job.schedule) return [understoodLine(Date.parse(job.schedule.at), who.zone, who.now)];
  const next = await preview({ cron: job.schedule.cron }, who.zone, who.now, 3);
  if (!next.ok) return [];
  return [
    `🔁 \`${fields ?? job.schedule.cron}\`: ${next.value.description}`,
    `Next: ${next.value.occurrences.map((at) => formatWeekdayTime(Date.parse(at), who.zone, who.now)).join(", ")}`,
    ...next.value.notes.map((note) => `${note}.`),
  ];
}

/** `/every <when> <text>`. */
export async function everyCommand(host: CommandHost, who: Asker, args: string): Promise<Reply> {
  const input = args.trim();
  if (input === "") return { markdown: everyUsage() };
  const read = readEverySchedule(input, everyExample);
  if (!read.ok) return { markdown: read.markdown };
  const { value: schedule, rest: text } = read;
  if (text === "") return { markdown: noTextText("every", schedule.phrase, who.zone, who.now) };
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  const { cron } = schedule;
  const created = await host.create(who.chatId, { name: nameOf(text), kind: "prompt", text, cron }, "user");
  if (!created.ok) return { markdown: schedule.quoted && created.error.code === "bad_request" && /cron/i.test(created.error.message) ? cronProblemText(cron, created.error.message, text) : created.error.message };
  const lines = [`Created ${jobLine(created.value, who.zone, who.now)}`, ...(await scheduleLines(created.value, who, schedule.fields))];
  return { markdown: lines.join("\n"), jobId: created.value.id };
}
