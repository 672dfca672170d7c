/**
 * @module `/remind <when> <text>` and `/every <when> <text>` (DESIGN §6): the WHEN read by the time engine's one
 * parser (`readSchedule`, in the sender's language first), the text after it stored as the prompt and, cut to
 * 80 characters, as the job's name. `/every` reads a repetition whether or not it says so (`/every Montag um 9`);
 * `/remind` a repetition only when it says one (`/remind every day at 8 …` makes the recurring job). Sent as a
 * reply with no text of its own, `/remind <when>` reminds of the message replied to: its text, quoted, is the
 * prompt. The reply is the job line and what was understood: for one time, the time with its weekday and how
 * far ahead; for a repetition the cron made, its description and the next three runs. A WHEN that was not
 * understood is answered in the user's words. `/edit` reads a job's new time the same way (`edit.ts`).
 */
import { lengthOf } from "../jobs/text-fields";
import { jobLine } from "../jobs/texts";
import { LIMITS, type Job } from "../schemas/jobs";
import { formatWeekdayTime, loadCron, parseCron, preview, readSchedule, scheduleProblemText, type ScheduleRead } from "../time";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";
import { quote } from "./replies";
import { everyUsage, noTextText, notYetText, remindUsage, tooLongText, understoodLine } from "./words";

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

/**
 * What a reply says of a job's schedule after its job line (DESIGN §6): a one-off's time with its weekday and
 * how far ahead; a recurring job's cron (its five fields, a macro written out) with its description, and its
 * next three runs.
 */
export async function scheduleLines(job: Job, who: Asker): Promise<string[]> {
  if ("at" in job.schedule) return [understoodLine(Date.parse(job.schedule.at), who.zone, who.now)];
  const cron = job.schedule.cron;
  const next = await preview({ cron }, who.zone, who.now, 3);
  if (!next.ok) return [];
  const parsed = parseCron(cron);
  return [
    `🔁 \`${parsed.ok ? parsed.value.fields.join(" ") : cron}\`: ${next.value.description}`,
    `Next: ${next.value.occurrences.map((at) => formatWeekdayTime(Date.parse(at), who.zone, who.now)).join(", ")}`,
    ...next.value.notes.map((note) => `${note}.`),
  ];
}

/** Creates a recurring prompt on `cron`: the job line, the cron and its description, the next three runs. */
async function createRecurring(host: CommandHost, who: Asker, cron: string, text: string, written: boolean, name = nameOf(text)): Promise<Reply> {
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  const problem = (sentence: string) => scheduleProblemText({ kind: "cron", phrase: cron, sentence }, { zone: who.zone, now: who.now, command: "/every", text });
  await loadCron();
  const parsed = parseCron(cron);
  if (!parsed.ok) return { markdown: await problem(parsed.error) };
  const created = await host.create(who.chatId, { name, kind: "prompt", text, cron }, "user");
  if (!created.ok) return { markdown: written && created.error.code === "bad_request" && /cron/i.test(created.error.message) ? await problem(created.error.message) : created.error.message };
  const lines = [`Created ${jobLine(created.value, who.zone, who.now)}`, ...(await scheduleLines(created.value, who))];
  return { markdown: lines.join("\n"), jobId: created.value.id };
}

/**
 * `/remind <when> <text>`; as a reply with no text of its own, it reminds of the message replied to (`repliedTo`,
 * its text), quoted (DESIGN §6 Replies).
 */
export function remindCommand(host: CommandHost, who: Asker, args: string, repliedTo: string | null = null): Promise<Reply> {
  return scheduleCommand(host, who, args, "remind", repliedTo);
}

/** `/every <when> <text>`. */
export function everyCommand(host: CommandHost, who: Asker, args: string): Promise<Reply> {
  return scheduleCommand(host, who, args, "every", null);
}

/**
 * The WHEN at the start of `input` as `/remind` or `/every` reads it, or the reply that says why not. `prefix`
 * (`/edit k7m2q`): the examples are a new time for that job, with no text.
 */
export async function readCommandSchedule(
  input: string,
  who: Asker,
  command: "remind" | "every",
  prefix?: string,
): Promise<{ ok: true; value: ScheduleRead } | { ok: false; markdown: string }> {
  const read = await readSchedule(input, { zone: who.zone, now: who.now, language: who.language ?? null, recurring: command === "every" });
  if (read.ok) return read;
  const p = read.problem;
  // The likely text, for the examples: what follows the part that could be read (a reminder's), or the cron.
  const text = p.kind === "unreadable" ? (command === "remind" ? (p.rest ?? "") : "") : p.kind === "cron" ? (p.rest ?? "") : "phrase" in p ? input.slice(p.phrase.length) : "";
  const context = { zone: who.zone, now: who.now, language: who.language ?? null, command: `/${command}` as const, text, ...(prefix === undefined ? {} : { prefix }) };
  return { ok: false, markdown: await scheduleProblemText(p, context) };
}

async function scheduleCommand(host: CommandHost, who: Asker, args: string, command: "remind" | "every", repliedTo: string | null): Promise<Reply> {
  const input = args.trim();
  if (input === "") return { markdown: command === "remind" ? remindUsage(who.zone, who.now) : everyUsage() };
  const read = await readCommandSchedule(input, who, command);
  if (!read.ok) return { markdown: read.markdown };
  const { schedule, phrase, rest, note } = read.value;
  // A reply with no text of its own: what it replies to, quoted, named after the message itself.
  const quoted = command === "remind" && rest === "" && repliedTo !== null && repliedTo.trim() !== "" ? quote(repliedTo) : null;
  if (rest === "" && quoted === null) return { markdown: noTextText(command, phrase, who.zone, who.now) };
  const text = quoted ?? rest;
  const name = nameOf(quoted === null ? rest : repliedTo!);
  if ("at" in schedule) {
    const reply = await createReminder(host, who, Date.parse(schedule.at), text, name);
    return { ...reply, markdown: note && reply.jobId ? `${reply.markdown}\n${note}.` : reply.markdown };
  }
  // TODO(issue 24 integration): jobs take `{ rrule, start }`, `until` and `runsLeft`; create them here as cron jobs are.
  if ("rrule" in schedule || schedule.until !== undefined || schedule.runsLeft !== undefined) return { markdown: notYetText(phrase, schedule, rest, who.zone) };
  return createRecurring(host, who, schedule.cron, text, read.value.language === null, name);
}
