/**
 * @module A pressed button (docs/telegram.md), in Telegram or through `POST /admin/chats/:chatId/messages { press }` in
 * transcript mode: a job's Run now, Pause and Cancel act like their commands and only answer; an offered
 * reminder's Create makes the job (one time checked again; a repetition the recurring job /every would make) and
 * Cancel drops it, once, whichever comes first; a
 * zone button sets the zone; a prompt job's message buttons (Done, the snoozes, Skip next, Pause) act once
 * (`message-press.ts`). `answer` is the short notice Telegram shows; `reply` a message for the chat; `clear`
 * takes the buttons away from the message that had them (they have been answered); `buttons`, when given, are
 * the pressed message's buttons from now on (the line that says what was done).
 */

import type { ButtonRows } from "../schemas/chats";
import { voiceOf } from "../texts";
import { formatWeekdayTime } from "../time";
import type { Pressed, Reply } from "./buttons";
import { jobAction } from "./execute";
import type { CommandContext, CommandHost } from "./host";
import { type JobMessages, pressMessage } from "./message-press";
import { offerTiming, type ReminderOffer } from "./offer";
import { createRecurring, createReminder } from "./schedule";
import { examplesOf } from "./words";
import { pressZone } from "./zone-command";

export type PressOutcome = { answer: string; reply: Reply | null; clear: boolean; buttons?: ButtonRows };

/** The offers waiting for an answer: taken once. */
export type Offers = { take(id: string): ReminderOffer | null };

/** What a press finds in the chat: the offers waiting, and the job messages. */
export type Pressable = { offers: Offers; messages: JobMessages };

/** Carries out a press of `data`; the zone is the chat's, for the texts. */
export async function press(
  host: CommandHost,
  found: Pressable,
  pressed: Pressed,
  data: string,
  ctx: CommandContext & { zone: string },
): Promise<PressOutcome> {
  if (pressed.kind === "job") return { answer: await jobAction(host, pressed.action, pressed.id, ctx), reply: null, clear: false };
  if (pressed.kind === "message") return { ...(await pressMessage(host, found.messages, pressed, data, ctx)), reply: null, clear: false };
  if (pressed.kind === "zone") return { ...(await pressZone(host, ctx.chatId, pressed.zone, ctx.language ?? null)), clear: true };
  const v = await voiceOf(ctx.language);
  const offer = found.offers.take(pressed.id);
  if (!offer) return { answer: v.t.buttons.answered, reply: null, clear: true };
  if (!pressed.create) return { answer: v.t.offer.declined, reply: null, clear: true };
  const who = { chatId: ctx.chatId, zone: ctx.zone, now: ctx.now, threadId: ctx.threadId, ...(ctx.language ? { language: ctx.language } : {}) };
  if (offer.schedule !== null) {
    // A repetition: the recurring job /every would have made, its next runs from now.
    const timing = offerTiming(offer.schedule, ctx.zone);
    const reply = timing.ok ? await createRecurring(host, who, timing.value, offer.text) : { markdown: timing.error };
    return { answer: reply.jobId ? v.t.offer.created(reply.jobId) : reply.markdown, reply: { markdown: reply.markdown }, clear: true };
  }
  if (offer.at <= ctx.now) {
    const [a, b] = await examplesOf(v, "remind", offer.text);
    const passed = v.t.offer.passed(formatWeekdayTime(offer.at, ctx.zone, ctx.now, v.t.dates), ctx.zone, a, b);
    return { answer: v.t.offer.passedShort, reply: { markdown: passed }, clear: true };
  }
  const reply = await createReminder(host, who, offer.at, offer.text);
  return { answer: reply.jobId ? v.t.offer.created(reply.jobId) : reply.markdown, reply: { markdown: reply.markdown }, clear: true };
}
