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
import { formatWeekdayTime } from "../time";
import type { Pressed, Reply } from "./buttons";
import { jobAction } from "./execute";
import type { CommandContext, CommandHost } from "./host";
import { ANSWERED_TEXT, type JobMessages, pressMessage } from "./message-press";
import { offerTiming, type ReminderOffer } from "./offer";
import { createRecurring, createReminder } from "./schedule";
import { remindExamples } from "./words";
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
  if (pressed.kind === "zone") return { ...(await pressZone(host, ctx.chatId, pressed.zone)), clear: true };
  const offer = found.offers.take(pressed.id);
  if (!offer) return { answer: ANSWERED_TEXT, reply: null, clear: true };
  if (!pressed.create) return { answer: "OK, no reminder.", reply: null, clear: true };
  const who = { chatId: ctx.chatId, zone: ctx.zone, now: ctx.now, threadId: ctx.threadId };
  if (offer.schedule !== null) {
    // A repetition: the recurring job /every would have made, its next runs from now.
    const timing = offerTiming(offer.schedule, ctx.zone);
    const reply = timing.ok ? await createRecurring(host, who, timing.value, offer.text) : { markdown: timing.error };
    return { answer: reply.jobId ? `Created ${reply.jobId}.` : reply.markdown, reply: { markdown: reply.markdown }, clear: true };
  }
  if (offer.at <= ctx.now) {
    const [a, b] = remindExamples(offer.text, ctx.zone, ctx.now);
    const passed = `That time has passed (${formatWeekdayTime(offer.at, ctx.zone, ctx.now)} in ${ctx.zone}); nothing was created. Try ${a} or ${b}.`;
    return { answer: "That time has passed; nothing was created.", reply: { markdown: passed }, clear: true };
  }
  const reply = await createReminder(host, who, offer.at, offer.text);
  return { answer: reply.jobId ? `Created ${reply.jobId}.` : reply.markdown, reply: { markdown: reply.markdown }, clear: true };
}
