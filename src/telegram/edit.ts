/**
 * @module Changing a job from the chat (docs/api.md#patch-adminchatschatidjobsid, docs/telegram.md#edit-id-when-edit-id-text-new-text, docs/telegram.md#replies-and-edited-messages): `/edit
 * <id> <when>` (a one-off's time read as /remind reads it, a recurring job's as /every reads it), `/edit <id> until
 * March`, `/edit <id> 10 times` and `/edit <id> no end` (the end alone: the schedule stays), `/edit <id> text
 * <new text>` and `/skip <id>`; sent as a reply to one of a job's messages, they need no id. An edited `/remind` or
 * `/every` edits the job it created. Every change keeps the job's id, history, memory references and last
 * result, through the chat's one edit; the reply is the job line and its next runs.
 */
import { JOB_ID, shown } from "../contracts/ids";
import { lengthOf } from "../jobs/text-fields";
import { jobLine } from "../jobs/texts";
import { type EditJobInput, type Job, LIMITS } from "../schemas/jobs";
import { type Ends, formatChatTime, formatWeekdayTime, preview, type Timing } from "../time";
import { readEnds } from "../words";
import type { Reply } from "./buttons";
import { EDIT_USAGE, makesJob, parseCommand, usageText } from "./commands";
import type { Asker, CommandContext, CommandHost } from "./host";
import { nameOf, readCommandSchedule, scheduleLines } from "./schedule";
import { cutLine, noTextText, tooLongText } from "./words";

/** `/cmd <id> …`: the first word and what follows it. */
function firstWord(args: string): { first: string; rest: string } {
  const m = /^(\S*)\s*([\s\S]*)$/.exec(args.trim())!;
  return { first: m[1]!, rest: m[2]!.trim() };
}

/**
 * The job a command is about, and what it says of it: the id it starts with, or, in a reply to one of a job's
 * messages, that job (a first word that looks like an id then counts only when it names a job of the chat).
 */
export async function whichJob(host: CommandHost, ctx: CommandContext, args: string): Promise<{ id: string; rest: string } | null> {
  const { first, rest } = firstWord(args);
  const replied = ctx.repliedTo?.jobId ?? null;
  const id = first.toLowerCase();
  if (JOB_ID.test(id) && (replied === null || (await host.get(ctx.chatId, id)).ok)) return { id, rest };
  if (replied !== null) return { id: replied, rest: args.trim() };
  return first === "" ? null : { id, rest };
}

/** `/edit <id> <when>`, `/edit <id> text <new text>`, or either without the id as a reply to a job's message. */
export async function editCommand(host: CommandHost, ctx: CommandContext, who: Asker, args: string): Promise<Reply> {
  const target = await whichJob(host, ctx, args);
  if (target === null || target.rest === "") return { markdown: EDIT_USAGE };
  const found = await host.get(who.chatId, target.id);
  if (!found.ok) return { markdown: found.error.message };
  const job = found.value;
  const text = /^text(?:\s+([\s\S]*))?$/i.exec(target.rest);
  if (text) {
    const value = (text[1] ?? "").trim();
    if (value === "") return { markdown: EDIT_USAGE };
    return change(host, who, job, { text: value, ...renamed(job, value) });
  }
  // An end alone (until March, 10 times, no end) changes only the end; the schedule reader would not read it.
  const ends = await readEnds(target.rest, { zone: who.zone, now: who.now, language: who.language ?? null });
  if (ends !== null) return "at" in job.schedule ? { markdown: onceNoEndText(job.id) } : change(host, who, job, endsInput(ends));
  const read = await readCommandSchedule(target.rest, who, "at" in job.schedule ? "remind" : "every", `/edit ${job.id}`);
  if (!read.ok) return { markdown: read.markdown };
  if (read.value.rest !== "") return { markdown: notPartOfTheTime(job.id, read.value.rest) };
  return change(host, who, job, {}, { note: read.value.note, timing: read.value });
}

/** An end said alone, as the edit's fields take it: the local `until` and the count said, null for "no end". */
function endsInput(ends: Ends): Pick<EditJobInput, "until" | "runsLeft"> {
  return { ...(ends.until === undefined ? {} : { until: ends.until }), ...(ends.runsLeft === undefined ? {} : { runsLeft: ends.runsLeft }) };
}

/** An end for a one-off, which runs once. */
const onceNoEndText = (id: string) => `${id} runs once, so it has no end to change; to move it, send /edit ${id} <when>.`;

/** What followed a WHEN in `/edit`: the text is changed on its own. */
const notPartOfTheTime = (id: string, rest: string) =>
  `"${shown(rest)}" is not part of a time. To change the job's text, send /edit ${id} text ${shown(rest)}; to change its time, send the time alone.`;

/** A job named after its text (as /remind and /every name them) is renamed with it. */
function renamed(job: Job, text: string): Pick<EditJobInput, "name"> {
  return job.text !== undefined && job.name === nameOf(job.text) ? { name: nameOf(text) } : {};
}

/**
 * The edit, and its reply: `Changed <job line>`, where the words were cut (`cut`, an edited command), then its
 * schedule (a DST note, `note`, after a one-off's time). `timing`: a new schedule read from the words, the job
 * changed with it as it was read.
 */
async function change(
  host: CommandHost,
  who: Asker,
  job: Job,
  input: EditJobInput,
  read: { note?: string | null; timing?: Timing; cut?: string } = {},
): Promise<Reply> {
  const { note = null, timing, cut } = read;
  if (input.text !== undefined && lengthOf(input.text) > LIMITS.text) return { markdown: tooLongText(lengthOf(input.text), LIMITS.text) };
  const edited = await host.edit(who.chatId, job.id, input, timing === undefined ? {} : { timing });
  if (!edited.ok) return { markdown: edited.error.message };
  const lines = [`Changed ${jobLine(edited.value, who.zone, who.now)}`, ...(cut ? [cut] : []), ...(await scheduleLines(edited.value, who))];
  if (note) lines.push(`${note}.`);
  return { markdown: lines.join("\n"), jobId: edited.value.id };
}

/** `/skip <id>`, or `/skip` as a reply to a job's message: the occurrence passed over, the job line, its next runs. */
export async function skipCommand(host: CommandHost, ctx: CommandContext, who: Asker, args: string): Promise<Reply> {
  const id = firstWord(args).first.toLowerCase() || ctx.repliedTo?.jobId || "";
  if (id === "") return { markdown: usageText("skip") };
  const skipped = await host.skip(who.chatId, id);
  if (!skipped.ok) return { markdown: skipped.error.message };
  const { job } = skipped.value;
  const at = Date.parse(skipped.value.skipped);
  const lines = [`Skipped ${formatChatTime(at, who.zone, who.now)}.`, jobLine(job, who.zone, who.now)];
  if (job.nextRunAt !== null && !("at" in job.schedule)) {
    // The runs from the job's next run now (past every occurrence skipped), stopping where the job ends.
    const from = Date.parse(job.nextRunAt) - 1;
    const next = await preview(job.schedule, who.zone, from, 3, { until: job.until ?? null, runsLeft: job.runsLeft ?? null });
    if (next.ok) lines.push(`Next: ${next.value.occurrences.map((t) => formatWeekdayTime(Date.parse(t), who.zone, who.now)).join(", ")}`);
  }
  return { markdown: lines.join("\n") };
}

/**
 * An edited message whose original created job `jobId` through `/remind` or `/every` (docs/telegram.md): the edited
 * command is read again, as sent now, and changes that job, keeping its id; the reply is the changed job line.
 * Null when the edit is no longer such a command (then it is ignored, as other edits are).
 */
export async function editedCommand(host: CommandHost, who: Asker, jobId: string, text: string): Promise<Reply | null> {
  const cmd = parseCommand(text);
  if (cmd === null || !makesJob(cmd)) return null;
  const found = await host.get(who.chatId, jobId);
  if (!found.ok) return { markdown: `The job this message made (${jobId}) is gone: it ran, or was cancelled. Send the command again for a new one.` };
  const read = await readCommandSchedule(cmd.args.trim(), who, cmd.name);
  if (!read.ok) return { markdown: read.markdown };
  if (read.value.rest === "") return { markdown: noTextText(cmd.name, read.value.phrase, who.zone, who.now) };
  const { rest, phrase, tail, note } = read.value;
  const cut = cutLine({ phrase, tail, text: rest });
  return change(host, who, found.value, { text: rest, name: nameOf(rest) }, { note, timing: read.value, cut });
}
