/**
 * @module `/remind <when> <text>` and `/every <when> <text>` (docs/telegram.md): the WHEN read by the words' one
 * parser (`readSchedule`, in the sender's language first), whose schedule value the job is made with as it is
 * (`timing`), the text after it stored as the prompt and, cut to 80 characters, as the job's name. `/every` reads
 * a repetition whether or not it says so (`/every Montag um 9`); `/remind` a repetition only when it says one
 * (`/remind every day at 8 …` makes the recurring job). Sent as a reply with no text of its own, `/remind <when>`
 * reminds of the message replied to: its text, quoted, is the prompt. The reply is the job line, where the words
 * were cut between the schedule and the text (so that a wrong cut shows), and what was understood: for one time,
 * the time with its weekday and how far ahead; for a repetition its description, in words the reader reads back
 * (and a cron after them), and the next three runs. The reply that creates a chat's
 * first job in the default zone says so once (`zoneNotice`, docs/telegram.md). A WHEN that was not understood is
 * answered in the user's words, by the kind of problem the reader found. `/edit` reads a job's new time the same
 * way and answers with the same lines (`edit.ts`).
 */
import { printable } from "../contracts/ids";
import type { CopyRef } from "../jobs/records";
import { lengthOf } from "../jobs/text-fields";
import { jobLine, saidIn } from "../jobs/texts";
import { type Job, LIMITS } from "../schemas/jobs";
import { type Voice, voiceOf } from "../texts";
import { formatWeekdayTime, NO_ENDS, type Preview, preview, type Timing } from "../time";
import { describeIn, readSchedule, reminderWords, type ScheduleRead, scheduleProblemText } from "../words";
import type { Reply } from "./buttons";
import type { Asker, CommandHost, RepliedTo } from "./host";
import { quote } from "./replies";
import { cutLine, noTextText, tooLongText, understoodLine, usageOf } from "./words";

/** The ends are said by the job line, not by the description after it. */
const NO_END = { until: null, runsLeft: null };

/** A job's name: its text on one line, cut to 80 characters. */
export function nameOf(text: string): string {
  const chars = [...printable(text).replace(/\s+/g, " ").trim()];
  return chars.length <= LIMITS.name ? chars.join("") : `${chars.slice(0, LIMITS.name - 1).join("")}…`;
}

/**
 * What goes with a new job besides its text: its name (else the text's), a `note` on its time (a DST change moved
 * it), and where the words were cut between the schedule and the text (`cutLine`), when words were read.
 */
/** `copyOf`: a message of the chat the reminder brings back when it fires (docs/telegram.md#remind-me-about-this). */
type Made = { name?: string; note?: string | null; cut?: Parameters<typeof cutLine>[1]; copyOf?: CopyRef | null };

/**
 * Creates a one-off prompt at `instant` with `text` for the chat's user: the job line, the time understood, a
 * `note` on it and the default-zone notice the first time.
 */
export async function createReminder(host: CommandHost, who: Asker, instant: number, said: string, made: Made = {}): Promise<Reply> {
  const v = await voiceOf(who.language);
  // `… until done`, `…, 1 hour before` at the text's end (docs/telegram.md#nag-until-done, #notices-ahead).
  const { text, ...extra } = reminderWords(said);
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(v, lengthOf(text), LIMITS.text) };
  const timing: Timing = { schedule: { type: "at", at: instant }, ends: NO_ENDS };
  const input = { name: made.name ?? nameOf(text), kind: "prompt" as const, text, ...extra };
  const created = await host.create(who.chatId, input, "user", { threadId: who.threadId, timing, copyOf: made.copyOf ?? null });
  if (!created.ok) return { markdown: (created.error.said && saidIn(v, created.error.said, who.zone, who.now)) ?? created.error.message };
  const lines = [
    v.t.job.created(jobLine(created.value, who.zone, who.now, v)),
    ...(made.cut ? [cutLine(v, made.cut)] : []),
    understoodLine(v, instant, who.zone, who.now),
  ];
  if (made.note) lines.push(`${made.note}.`);
  return { markdown: await withZoneNotice(host, who, v, lines), jobId: created.value.id };
}

/** A created job's reply, with the default-zone notice the first time (docs/telegram.md). */
async function withZoneNotice(host: CommandHost, who: Asker, v: Voice, lines: string[]): Promise<string> {
  const zone = await host.zoneNotice(who.chatId);
  return (zone === null ? lines : [...lines, v.t.job.zoneNotice(zone)]).join("\n");
}

/**
 * What a reply says of a job's schedule after its job line (docs/telegram.md): a one-off's time with its weekday and how
 * far ahead; a recurring job's schedule in words the bot reads back, in the sender's language, with the zone
 * (docs/time.md#descriptions), then a cron's five fields (a macro written out) so that it can be learnt, never a
 * rule's RRULE unless no phrase says it; and its next three runs, stopping where it ends.
 */
export async function scheduleLines(job: Job, who: Asker, v: Voice): Promise<string[]> {
  if ("at" in job.schedule) return [understoodLine(v, Date.parse(job.schedule.at), who.zone, who.now)];
  if ("trigger" in job.schedule) return [];
  const next = await preview(job.schedule, who.zone, who.now, 3, { until: job.until ?? null, runsLeft: job.runsLeft ?? null });
  return next.ok ? previewLines(next.value, who, v) : [];
}

/** A repetition's lines from its preview (`scheduleLines`): its words with the zone and a cron's fields, its next runs. */
export async function previewLines(next: Preview, who: Pick<Asker, "zone" | "now">, v: Voice): Promise<string[]> {
  const { schedule } = next.read;
  const said = await describeIn(schedule, NO_END, { zone: who.zone, now: who.now, language: v.lang });
  const cron = schedule.type === "cron" && !said.written ? ` · \`${schedule.cron.fields.join(" ")}\`` : "";
  return [
    `🔁 ${said.written ? `\`${said.text}\`` : said.text} (${who.zone})${cron}`,
    v.t.job.nextRuns(next.occurrences.map((at) => formatWeekdayTime(Date.parse(at), who.zone, who.now, v.t.dates)).join(", ")),
    ...next.notes.map((note) => `${note}.`),
  ];
}

/**
 * Creates a recurring prompt on the cron expression or rule read, with its end: the job line (with what is left),
 * the cron or rule made and its description, the next three runs (stopping where it ends).
 */
export async function createRecurring(host: CommandHost, who: Asker, timing: Timing, said: string, made: Made = {}): Promise<Reply> {
  const v = await voiceOf(who.language);
  const { text, ...extra } = reminderWords(said);
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(v, lengthOf(text), LIMITS.text) };
  const input = { name: made.name ?? nameOf(text), kind: "prompt" as const, text, ...extra };
  const created = await host.create(who.chatId, input, "user", { threadId: who.threadId, timing });
  if (!created.ok) return { markdown: (created.error.said && saidIn(v, created.error.said, who.zone, who.now)) ?? created.error.message };
  const job = created.value;
  const lines = [v.t.job.created(jobLine(job, who.zone, who.now, v)), ...(made.cut ? [cutLine(v, made.cut)] : []), ...(await scheduleLines(job, who, v))];
  return { markdown: await withZoneNotice(host, who, v, lines), jobId: job.id };
}

/**
 * `/remind <when> <text>`; as a reply with no text of its own, it reminds of the message replied to (`repliedTo`,
 * its text), quoted (docs/telegram.md#replies-and-edited-messages).
 */
export function remindCommand(host: CommandHost, who: Asker, args: string, repliedTo: RepliedTo | null = null): Promise<Reply> {
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
  // A refusal of a part of the phrase (a number too large, a part said twice) does not say where the text begins.
  const partial = p.kind === "too-large" || p.kind === "ambiguous" || p.kind === "twice";
  const text =
    p.kind === "unreadable"
      ? command === "remind"
        ? (p.rest ?? "")
        : ""
      : p.kind === "cron" || p.kind === "rule"
        ? (p.rest ?? "")
        : "phrase" in p && !partial
          ? input.slice(p.phrase.length)
          : "";
  const context = {
    zone: who.zone,
    now: who.now,
    language: who.language ?? null,
    command: `/${command}` as const,
    text,
    ...(prefix === undefined ? {} : { prefix }),
  };
  return { ok: false, markdown: await scheduleProblemText(p, context) };
}

async function scheduleCommand(host: CommandHost, who: Asker, args: string, command: "remind" | "every", repliedTo: RepliedTo | null): Promise<Reply> {
  const input = args.trim();
  const v = await voiceOf(who.language);
  if (input === "") return { markdown: await usageOf(v, command) };
  const read = await readCommandSchedule(input, who, command);
  if (!read.ok) return { markdown: read.markdown };
  const { schedule, phrase, rest, tail, note } = read.value;
  // A message to bring back at fire time (docs/telegram.md#remind-me-about-this): a photo, a voice note …; a one-off's.
  const copy = command === "remind" && schedule.type === "at" ? repliedTo?.copy : undefined;
  if (copy === "refused" && rest === "") return { markdown: v.t.copy.refused };
  const copyOf = copy !== undefined && copy !== "refused" ? copy : null;
  // A reply with no text of its own: what it replies to, quoted, named after the message itself; a copied message's
  // caption, or what kind of message it is.
  const replied = command === "remind" && rest === "" ? (repliedTo?.text ?? null) : null;
  const ownText = copyOf !== null && rest === "" ? (replied ?? v.t.copy.kinds[copyOf.kind]) : null;
  const quoted = ownText === null && replied !== null && replied.trim() !== "" ? quote(replied) : null;
  if (rest === "" && quoted === null && ownText === null) return { markdown: await noTextText(v, command, phrase) };
  // The text without what its end says of nagging and notices (`pills until done`: pills).
  const own = reminderWords(rest).text;
  const named = ownText ?? (quoted === null ? own : replied!);
  const made = { name: nameOf(named), note, cut: { phrase, tail, text: quoted === null && ownText === null ? own : null }, copyOf };
  if (schedule.type === "at") return createReminder(host, who, schedule.at, ownText ?? quoted ?? rest, made);
  return createRecurring(host, who, read.value, quoted ?? rest, made);
}
