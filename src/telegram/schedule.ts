/**
 * @module `/remind <when> <text>` and `/every <when> <text>` (DESIGN §6): the WHEN read by the time engine's one
 * parser (`readSchedule`, in the sender's language first), the text after it stored as the prompt and, cut to
 * 80 characters, as the job's name. `/every` reads a repetition whether or not it says so (`/every Montag um 9`);
 * `/remind` a repetition only when it says one (`/remind every day at 8 …` makes the recurring job). The reply
 * is the job line and what was understood: for one time, the time with its weekday and how far ahead; for a
 * repetition the cron made, its description and the next three runs. A WHEN that was not understood is answered
 * in the user's words.
 */
import { lengthOf } from "../jobs/text-fields";
import { jobLine } from "../jobs/texts";
import { LIMITS } from "../schemas/jobs";
import { formatWeekdayTime, loadCron, parseCron, preview, readSchedule, scheduleProblemText } from "../time";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";
import { everyUsage, noTextText, notYetText, remindUsage, tooLongText, understoodLine } from "./words";

/** A job's name: its text on one line, cut to 80 characters. */
function nameOf(text: string): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= LIMITS.name ? chars.join("") : `${chars.slice(0, LIMITS.name - 1).join("")}…`;
}

/** Creates a one-off prompt at `instant` with `text` for the chat's user: the job line and the time understood. */
export async function createReminder(host: CommandHost, who: Asker, instant: number, text: string): Promise<Reply & { jobId?: string }> {
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  const created = await host.create(who.chatId, { name: nameOf(text), kind: "prompt", text, at: new Date(instant).toISOString() }, "user", { threadId: who.threadId });
  if (!created.ok) return { markdown: created.error.message };
  return { markdown: `Created ${jobLine(created.value, who.zone, who.now)}\n${understoodLine(instant, who.zone, who.now)}`, jobId: created.value.id };
}

/** Creates a recurring prompt on `cron`: the job line, the cron and its description, the next three runs. */
async function createRecurring(host: CommandHost, who: Asker, cron: string, text: string, written: boolean): Promise<Reply> {
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  const problem = (sentence: string) => scheduleProblemText({ kind: "cron", phrase: cron, sentence }, { zone: who.zone, now: who.now, command: "/every", text });
  await loadCron();
  const parsed = parseCron(cron);
  if (!parsed.ok) return { markdown: await problem(parsed.error) };
  const created = await host.create(who.chatId, { name: nameOf(text), kind: "prompt", text, cron }, "user", { threadId: who.threadId });
  if (!created.ok) return { markdown: written && created.error.code === "bad_request" && /cron/i.test(created.error.message) ? await problem(created.error.message) : created.error.message };
  const next = await preview({ cron }, who.zone, who.now, 3);
  const lines = [`Created ${jobLine(created.value, who.zone, who.now)}`];
  if (next.ok) {
    lines.push(`🔁 \`${parsed.value.fields.join(" ")}\`: ${next.value.description}`);
    lines.push(`Next: ${next.value.occurrences.map((at) => formatWeekdayTime(Date.parse(at), who.zone, who.now)).join(", ")}`);
    for (const note of next.value.notes) lines.push(`${note}.`);
  }
  return { markdown: lines.join("\n") };
}

/** `/remind <when> <text>`. */
export function remindCommand(host: CommandHost, who: Asker, args: string): Promise<Reply> {
  return scheduleCommand(host, who, args, "remind");
}

/** `/every <when> <text>`. */
export function everyCommand(host: CommandHost, who: Asker, args: string): Promise<Reply> {
  return scheduleCommand(host, who, args, "every");
}

async function scheduleCommand(host: CommandHost, who: Asker, args: string, command: "remind" | "every"): Promise<Reply> {
  const input = args.trim();
  if (input === "") return { markdown: command === "remind" ? remindUsage(who.zone, who.now) : everyUsage() };
  const read = await readSchedule(input, { zone: who.zone, now: who.now, language: who.language ?? null, recurring: command === "every" });
  if (!read.ok) {
    const p = read.problem;
    // The likely text, for the examples: what follows the part that could be read (a reminder's), or the cron.
    const text = p.kind === "unreadable" ? (command === "remind" ? (p.rest ?? "") : "") : p.kind === "cron" ? (p.rest ?? "") : "phrase" in p ? input.slice(p.phrase.length) : "";
    return { markdown: await scheduleProblemText(p, { zone: who.zone, now: who.now, language: who.language ?? null, command: `/${command}`, text }) };
  }
  const { schedule, phrase, rest, note } = read.value;
  if (rest === "") return { markdown: noTextText(command, phrase, who.zone, who.now) };
  if ("at" in schedule) {
    const reply = await createReminder(host, who, Date.parse(schedule.at), rest);
    return { markdown: note && reply.jobId ? `${reply.markdown}\n${note}.` : reply.markdown };
  }
  // TODO(issue 24 integration): jobs take `{ rrule, start }`, `until` and `runsLeft`; create them here as cron jobs are.
  if ("rrule" in schedule || schedule.until !== undefined || schedule.runsLeft !== undefined) return { markdown: notYetText(phrase, schedule, rest, who.zone) };
  return createRecurring(host, who, schedule.cron, rest, read.value.language === null);
}
