/**
 * @module `/remind <when> <text>` and `/every <when> <text>` (DESIGN §6): the WHEN read by the time engine's one
 * parser (`readSchedule`, in the sender's language first), the text after it stored as the prompt and, cut to
 * 80 characters, as the job's name. `/every` reads a repetition whether or not it says so (`/every Montag um 9`);
 * `/remind` a repetition only when it says one (`/remind every day at 8 …` makes the recurring job). The reply
 * is the job line and what was understood: for one time, the time with its weekday and how far ahead; for a
 * repetition the cron or rule made (with its end: `until`, `runsLeft`), its description and the next three runs.
 * The reply that creates a chat's first job in the default zone says so once (`zoneNotice`, DESIGN §6). A WHEN
 * that was not understood is answered in the user's words.
 */
import { lengthOf } from "../jobs/text-fields";
import { jobLine, readyFor } from "../jobs/texts";
import { LIMITS, type CreateJobInput } from "../schemas/jobs";
import { formatWeekdayTime, parseCron, preview, readSchedule, scheduleProblemText, type Schedule } from "../time";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";
import { everyUsage, noTextText, remindUsage, tooLongText, understoodLine } from "./words";

/** A job's name: its text on one line, cut to 80 characters. */
function nameOf(text: string): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= LIMITS.name ? chars.join("") : `${chars.slice(0, LIMITS.name - 1).join("")}…`;
}

/**
 * Creates a one-off prompt at `instant` with `text` for the chat's user: the job line, the time understood, a
 * `note` on it (a DST change moved it) and the default-zone notice the first time.
 */
export async function createReminder(host: CommandHost, who: Asker, instant: number, text: string, note: string | null = null): Promise<Reply & { jobId?: string }> {
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  const created = await host.create(who.chatId, { name: nameOf(text), kind: "prompt", text, at: new Date(instant).toISOString() }, "user");
  if (!created.ok) return { markdown: created.error.message };
  const lines = [`Created ${jobLine(created.value, who.zone, who.now)}`, understoodLine(instant, who.zone, who.now)];
  if (note) lines.push(`${note}.`);
  return { markdown: await withZoneNotice(host, who, lines), jobId: created.value.id };
}

/** A created job's reply, with the default-zone notice the first time (DESIGN §6). */
async function withZoneNotice(host: CommandHost, who: Asker, lines: string[]): Promise<string> {
  const notice = await host.zoneNotice(who.chatId);
  return (notice === null ? lines : [...lines, notice]).join("\n");
}

/**
 * Creates a recurring prompt on a cron expression or a rule, with its end: the job line (with what is left), the
 * cron or rule made and its description, the next three runs (stopping where it ends).
 */
async function createRecurring(host: CommandHost, who: Asker, schedule: Exclude<Schedule, { at: string }>, text: string, written: boolean): Promise<Reply> {
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  const cron = "cron" in schedule ? schedule.cron : null;
  const problem = (sentence: string) => scheduleProblemText({ kind: "cron", phrase: cron ?? "", sentence }, { zone: who.zone, now: who.now, command: "/every", text });
  const parsed = cron === null ? null : parseCron(cron);
  if (parsed && !parsed.ok) return { markdown: await problem(parsed.error) };
  const input: CreateJobInput = {
    name: nameOf(text),
    kind: "prompt",
    text,
    ...("rrule" in schedule ? { rrule: schedule.rrule, start: schedule.start } : { cron: schedule.cron }),
    ...(schedule.until === undefined ? {} : { until: schedule.until }),
    ...(schedule.runsLeft === undefined ? {} : { runsLeft: schedule.runsLeft }),
  };
  const created = await host.create(who.chatId, input, "user");
  if (!created.ok) return { markdown: cron !== null && written && created.error.code === "bad_request" && /cron/i.test(created.error.message) ? await problem(created.error.message) : created.error.message };
  const job = created.value;
  await readyFor([job]);
  const next = await preview(job.schedule as Exclude<typeof job.schedule, { at: string }>, who.zone, who.now, 3, { until: job.until ?? null, runsLeft: job.runsLeft ?? null });
  const lines = [`Created ${jobLine(job, who.zone, who.now)}`];
  if (next.ok) {
    const form = "rrule" in job.schedule ? `\`${job.schedule.rrule}\` from ${job.schedule.start.replace("T", " ")}` : `\`${parsed?.ok ? parsed.value.fields.join(" ") : cron}\``;
    lines.push(`🔁 ${form}: ${next.value.description}`);
    lines.push(`Next: ${next.value.occurrences.map((at) => formatWeekdayTime(Date.parse(at), who.zone, who.now)).join(", ")}`);
    for (const note of next.value.notes) lines.push(`${note}.`);
  }
  return { markdown: await withZoneNotice(host, who, lines) };
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
  if ("at" in schedule) return createReminder(host, who, Date.parse(schedule.at), rest, note);
  return createRecurring(host, who, schedule, rest, read.value.language === null);
}
