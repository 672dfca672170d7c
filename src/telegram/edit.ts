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
import { jobLine, saidIn } from "../jobs/texts";
import type { Problem } from "../result";
import { type EditJobInput, type Job, LIMITS, MISSED_POLICIES, type MissedPolicy } from "../schemas/jobs";
import { type Voice, voiceOf } from "../texts";
import { type Ends, formatChatTime, formatWeekdayTime, preview, type Timing } from "../time";
import { readEnds } from "../words";
import type { Reply } from "./buttons";
import { makesJob, parseCommand } from "./commands";
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

/** `text` in the bot's languages (German's is English's): `/edit <id> text …`, `/edit <id> texte …`, `/edit <id> текст …`. */
const TEXT_WORD = /^(?:text|texte|texto|testo|tekst|текст)(?:\s+([\s\S]*))?$/iu;

/** `/edit <id> <when>`, `/edit <id> text <new text>`, or either without the id as a reply to a job's message. */
export async function editCommand(host: CommandHost, ctx: CommandContext, who: Asker, args: string): Promise<Reply> {
  const v = await voiceOf(who.language);
  const target = await whichJob(host, ctx, args);
  if (target === null || target.rest === "") return { markdown: v.t.job.editUsage };
  const found = await host.get(who.chatId, target.id);
  if (!found.ok) return { markdown: problemText(v, found.error, target.id, who) };
  const job = found.value;
  const text = TEXT_WORD.exec(target.rest);
  if (text) {
    const value = (text[1] ?? "").trim();
    if (value === "") return { markdown: v.t.job.editUsage };
    return change(host, who, v, job, { text: value, ...renamed(job, value) });
  }
  const missed = missedOf(target.rest, v);
  if (missed !== undefined) return missed === null ? { markdown: v.t.job.missedUsage(job.id) } : change(host, who, v, job, { missed });
  // An end alone (until March, 10 times, no end) changes only the end; the schedule reader would not read it.
  const ends = await readEnds(target.rest, { zone: who.zone, now: who.now, language: who.language ?? null });
  if (ends !== null) return "at" in job.schedule ? { markdown: v.t.job.onceNoEnd(job.id) } : change(host, who, v, job, endsInput(ends));
  const read = await readCommandSchedule(target.rest, who, "at" in job.schedule ? "remind" : "every", `/edit ${job.id}`);
  if (!read.ok) return { markdown: read.markdown };
  if (read.value.rest !== "") return { markdown: v.t.job.notPartOfTime(shown(read.value.rest), job.id) };
  return change(host, who, v, job, {}, { note: read.value.note, timing: read.value });
}

/** Lower case without accents: `Überspringen` is `uberspringen`, `manqué` is `manque`. */
const folded = (word: string): string => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * `missed <policy>` (docs/time.md#missed-runs) in English or the chat's language (`verpasst überspringen`): the
 * policy, null when the word comes without one it knows, undefined when the words are not about missed runs.
 */
function missedOf(rest: string, v: Voice): MissedPolicy | null | undefined {
  const [word = "", value = "", ...more] = rest.trim().split(/\s+/);
  if (folded(word) !== "missed" && folded(word) !== folded(v.t.job.missedWord)) return undefined;
  if (more.length > 0) return null;
  const values = v.t.job.missedValues;
  return MISSED_POLICIES.find((p) => folded(value) === p || folded(value) === folded(values[p])) ?? null;
}

/** An end said alone, as the edit's fields take it: the local `until` and the count said, null for "no end". */
function endsInput(ends: Ends): Pick<EditJobInput, "until" | "runsLeft"> {
  return { ...(ends.until === undefined ? {} : { until: ends.until }), ...(ends.runsLeft === undefined ? {} : { runsLeft: ends.runsLeft }) };
}

/**
 * A job operation's refusal as the chat reads it, in its language: a job that is not there (`not_found`, the id
 * asked for), or what the object said by name (`said`); any other in the sentence the object gave.
 */
export function problemText(v: Voice, problem: Problem, id: string, at: Pick<Asker, "zone" | "now">): string {
  if (problem.code === "not_found") return v.t.job.noJob(shown(id));
  return (problem.said && saidIn(v, problem.said, at.zone, at.now)) ?? problem.message;
}

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
  v: Voice,
  job: Job,
  input: EditJobInput,
  read: { note?: string | null; timing?: Timing; cut?: string } = {},
): Promise<Reply> {
  const { note = null, timing, cut } = read;
  if (input.text !== undefined && lengthOf(input.text) > LIMITS.text) return { markdown: tooLongText(v, lengthOf(input.text), LIMITS.text) };
  const edited = await host.edit(who.chatId, job.id, input, timing === undefined ? {} : { timing });
  if (!edited.ok) return { markdown: problemText(v, edited.error, job.id, who) };
  const lines = [v.t.job.changed(jobLine(edited.value, who.zone, who.now, v)), ...(cut ? [cut] : []), ...(await scheduleLines(edited.value, who, v))];
  if (note) lines.push(`${note}.`);
  return { markdown: lines.join("\n"), jobId: edited.value.id };
}

/** `/skip <id>`, or `/skip` as a reply to a job's message: the occurrence passed over, the job line, its next runs. */
export async function skipCommand(host: CommandHost, ctx: CommandContext, who: Asker, args: string): Promise<Reply> {
  const v = await voiceOf(who.language);
  const id = firstWord(args).first.toLowerCase() || ctx.repliedTo?.jobId || "";
  if (id === "") return { markdown: v.t.job.usage("skip") };
  const skipped = await host.skip(who.chatId, id);
  if (!skipped.ok) return { markdown: problemText(v, skipped.error, id, who) };
  const { job } = skipped.value;
  const at = Date.parse(skipped.value.skipped);
  const lines = [v.t.job.skippedAt(formatChatTime(at, who.zone, who.now, v.t.dates)), jobLine(job, who.zone, who.now, v)];
  if (job.nextRunAt !== null && !("at" in job.schedule) && !("trigger" in job.schedule)) {
    // The runs from the job's next run now (past every occurrence skipped), stopping where the job ends.
    const from = Date.parse(job.nextRunAt) - 1;
    const next = await preview(job.schedule, who.zone, from, 3, { until: job.until ?? null, runsLeft: job.runsLeft ?? null });
    if (next.ok) lines.push(v.t.job.nextRuns(next.value.occurrences.map((t) => formatWeekdayTime(Date.parse(t), who.zone, who.now, v.t.dates)).join(", ")));
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
  const v = await voiceOf(who.language);
  const found = await host.get(who.chatId, jobId);
  if (!found.ok) return { markdown: v.t.job.gone(jobId) };
  const read = await readCommandSchedule(cmd.args.trim(), who, cmd.name);
  if (!read.ok) return { markdown: read.markdown };
  if (read.value.rest === "") return { markdown: await noTextText(v, cmd.name, read.value.phrase) };
  const { rest, phrase, tail, note } = read.value;
  const cut = cutLine(v, { phrase, tail, text: rest });
  return change(host, who, v, found.value, { text: rest, name: nameOf(rest) }, { note, timing: read.value, cut });
}
