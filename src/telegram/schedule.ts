/**
 * @module `/remind <when> <text>` and `/every <when> <text>` (DESIGN §6): the WHEN read as a person types it
 * (`time/when.ts`, `time/every.ts`), the text after it stored as the prompt and, cut to 80 characters, as the
 * job's name. The reply is the job line and what was understood: for `/remind` the time with its weekday and
 * how far ahead; for `/every` the cron made, its description and the next three runs. A WHEN that was not
 * understood is answered in the user's words (`words.ts`).
 */
import { lengthOf } from "../jobs/text-fields";
import { jobLine } from "../jobs/texts";
import { LIMITS } from "../schemas/jobs";
import { formatWeekdayTime, loadCron, parseCron, preview, readEvery, readWhen } from "../time";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";
import { cronProblemText, everyProblemText, everyUsage, noTextText, remindUsage, tooLongText, understoodLine, whenProblemText } from "./words";

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

/** `/remind <when> <text>`. */
export async function remindCommand(host: CommandHost, who: Asker, args: string): Promise<Reply> {
  if (args.trim() === "") return { markdown: remindUsage(who.zone, who.now) };
  const read = await readWhen(args, who.zone, who.now);
  if (!read.ok) {
    // The likely text, for the examples: after an unreadable WHEN, what follows the part that could be read.
    const rest = read.problem.kind === "unreadable" ? (read.problem.rest ?? "") : args.trim().slice(read.problem.phrase.length);
    return { markdown: whenProblemText(read.problem, rest, who.zone, who.now) };
  }
  const { instant, phrase, rest, note } = read.value;
  if (rest === "") return { markdown: noTextText("remind", phrase, who.zone, who.now) };
  const reply = await createReminder(host, who, instant, rest);
  return { markdown: note && reply.jobId ? `${reply.markdown}\n${note}.` : reply.markdown };
}

/** A quoted cron (straight or curly quotes), a macro, or five unquoted fields of digits and `* , - /`. */
const QUOTED = /^["“”'‘’]([^"“”'‘’]+)["“”'‘’](?=\s|$)/;
const MACRO = /^@[A-Za-z]+(?=\s|$)/;
const BARE_CRON = /^(?:[\d*,/-]+\s+){4}[\d*,/-]+(?=\s|$)/;

/** `/every <when> <text>`. */
export async function everyCommand(host: CommandHost, who: Asker, args: string): Promise<Reply> {
  const input = args.trim();
  if (input === "") return { markdown: everyUsage() };
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
    if (!read.ok) return { markdown: everyProblemText(read.problem, read.problem.kind === "uneven" ? input.slice(read.problem.phrase.length) : "") };
    ({ cron, phrase } = read.value);
    quoted = false;
  }
  const text = input.slice(phrase.length).replace(/^[\s,.:;–—-]+/, "").trim();
  if (text === "") return { markdown: noTextText("every", phrase, who.zone, who.now) };
  if (lengthOf(text) > LIMITS.text) return { markdown: tooLongText(lengthOf(text), LIMITS.text) };
  await loadCron();
  const parsed = parseCron(cron);
  if (!parsed.ok) return { markdown: cronProblemText(cron, parsed.error, text) };
  const created = await host.create(who.chatId, { name: nameOf(text), kind: "prompt", text, cron }, "user", { threadId: who.threadId });
  if (!created.ok) return { markdown: quoted && created.error.code === "bad_request" && /cron/i.test(created.error.message) ? cronProblemText(cron, created.error.message, text) : created.error.message };
  const next = await preview({ cron }, who.zone, who.now, 3);
  const lines = [`Created ${jobLine(created.value, who.zone, who.now)}`];
  if (next.ok) {
    lines.push(`🔁 \`${parsed.value.fields.join(" ")}\`: ${next.value.description}`);
    lines.push(`Next: ${next.value.occurrences.map((at) => formatWeekdayTime(Date.parse(at), who.zone, who.now)).join(", ")}`);
    for (const note of next.value.notes) lines.push(`${note}.`);
  }
  return { markdown: lines.join("\n") };
}
