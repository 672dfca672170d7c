/**
 * @module The buttons under a prompt job's message (docs/telegram.md#scheduled-messages-and-buttons): Done, the snoozes (a one-off copy of the
 * job 10 minutes or an hour on, or at 09:00 the next day, in the chat's zone; a recurring job's schedule is left
 * alone), Skip next (as /skip) and Pause (as /pause). A message's buttons act once: the press takes them, and
 * once it has acted they are replaced by the one line that says what was done (`✅ Done`, `⏰ Snoozed until
 * 14:40`); pressed again, or a press that comes second, is answered `This was answered already.` and changes
 * nothing. A press that cannot act (the job is gone, the chat is full) gives the buttons back with its sentence.
 */
import { copyInput, type JobCopy, snoozeInstant } from "../jobs/snooze";
import { pausedText, skippedText } from "../jobs/texts";
import type { ButtonRows } from "../schemas/chats";
import { ENGLISH, type Voice, voiceOf } from "../texts";
import { formatChatTime } from "../time";
import { answeredButtons, type MessageAction, type Pressed } from "./buttons";
import { problemText } from "./edit";
import type { CommandContext, CommandHost } from "./host";

export const ANSWERED_TEXT = ENGLISH.t.buttons.answered;
export const GONE_TEXT = ENGLISH.t.buttons.gone;

/** A prompt job's message as its buttons find it. */
export type JobMessage = { entryId: number; jobId: string; runId: string; buttons: ButtonRows | null; copy: JobCopy | null };

/** The chat's job messages: taken by a press, then answered. */
export type JobMessages = {
  /**
   * The message of run `runId`, taken for this press (its buttons put away) when `data` is one of its buttons now;
   * `answered` when it is not (pressed before), `gone` when the chat no longer keeps the message.
   */
  take(runId: string, data: string): JobMessage | "answered" | "gone";
  /** The message's buttons from now on (the line that answers it, or its own given back). */
  answer(entryId: number, buttons: ButtonRows | null): void;
  /** A press on any copy of the run's message ends its nagging (docs/telegram.md#nag-until-done). */
  end(runId: string): void;
};

/** What a press did: its notice and the line that replaces the buttons, or only a notice (nothing was done). */
type Acted = { answer: string; line: string } | { answer: string; line: null };

/** A press of one of a job message's buttons; `buttons` are the message's new ones when it acted. */
export async function pressMessage(
  host: CommandHost,
  messages: JobMessages,
  pressed: Extract<Pressed, { kind: "message" }>,
  data: string,
  ctx: CommandContext & { zone: string },
): Promise<{ answer: string; buttons?: ButtonRows }> {
  const v = await voiceOf(ctx.language);
  messages.end(pressed.runId);
  if (pressed.action.act === "answered") return { answer: v.t.buttons.answered };
  const taken = messages.take(pressed.runId, data);
  if (taken === "answered") return { answer: v.t.buttons.answered };
  if (taken === "gone") return { answer: v.t.buttons.gone };
  let acted: Acted;
  try {
    acted = await act(host, pressed.action, taken, ctx, v);
  } catch (error) {
    messages.answer(taken.entryId, taken.buttons);
    throw error;
  }
  if (acted.line === null) {
    messages.answer(taken.entryId, taken.buttons);
    return { answer: acted.answer };
  }
  const buttons = answeredButtons(acted.line, pressed.runId);
  messages.answer(taken.entryId, buttons);
  return { answer: acted.answer, buttons };
}

/** The instant of the latest missed occurrence a message about missed runs names: its run's. */
function lastOf(message: JobMessage): number {
  return Number(message.runId.slice(message.runId.lastIndexOf(":") + 1));
}

async function act(host: CommandHost, action: MessageAction, message: JobMessage, ctx: CommandContext & { zone: string }, v: Voice): Promise<Acted> {
  const { chatId, zone, now } = ctx;
  const t = v.t.buttons;
  switch (action.act) {
    case "done":
      return { answer: t.doneAnswer, line: t.doneLine };
    case "answered":
      return { answer: t.answered, line: null };
    case "snooze": {
      if (message.copy === null) return { answer: t.gone, line: null };
      const at = snoozeInstant(action.snooze, zone, now);
      // The copy posts where the job did (its topic).
      const created = await host.create(chatId, copyInput(message.copy, at), "user", { threadId: message.copy.threadId ?? null });
      if (!created.ok) return { answer: problemText(v, created.error, message.jobId, ctx), line: null };
      const until = formatChatTime(at, zone, now, v.t.dates);
      return { answer: t.snoozedAnswer(until), line: t.snoozedLine(until) };
    }
    case "skip": {
      const skipped = await host.skip(chatId, message.jobId);
      if (!skipped.ok) return { answer: problemText(v, skipped.error, message.jobId, ctx), line: null };
      const at = Date.parse(skipped.value.skipped);
      return { answer: skippedText(at, skipped.value.job, zone, now, v), line: t.skippedLine(formatChatTime(at, zone, now, v.t.dates)) };
    }
    case "pause": {
      const paused = await host.pause(chatId, message.jobId);
      return paused.ok ? { answer: pausedText(paused.value, v), line: t.pausedLine } : { answer: problemText(v, paused.error, message.jobId, ctx), line: null };
    }
    case "skipOne": {
      // The run the notice was about, while it is still the job's next.
      const dueAt = lastOf(message);
      const job = await host.get(chatId, message.jobId);
      if (!job.ok || job.value.nextRunAt === null || Date.parse(job.value.nextRunAt) !== dueAt) return { answer: t.gone, line: null };
      const at = formatChatTime(dueAt, zone, now, v.t.dates);
      const once = "at" in job.value.schedule;
      const skipped = once ? await host.cancel(chatId, message.jobId) : await host.skip(chatId, message.jobId);
      if (!skipped.ok) return { answer: problemText(v, skipped.error, message.jobId, ctx), line: null };
      return { answer: v.t.job.skippedAt(at), line: t.skippedLine(at) };
    }
    case "missedRun":
    case "missedSkip": {
      const run = action.act === "missedRun";
      const answered = await host.answerMissed(chatId, message.jobId, { run, first: action.first, last: lastOf(message) });
      if (!answered.ok) return { answer: problemText(v, answered.error, message.jobId, ctx), line: null };
      const { job, count } = answered.value;
      return run ? { answer: v.t.job.running(job.id, job.name), line: t.missedRunLine } : { answer: t.missedSkippedAnswer(count), line: t.missedSkippedLine };
    }
  }
}
