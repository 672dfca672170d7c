/**
 * @module A reminder written in words, without a model (docs/telegram.md): "remind me tomorrow at 9 to call the
 * dentist", "remind me every monday at 9 to water the plants", "erinnere mich jeden Montag um 9 die Pflanzen zu
 * gießen" reads as a reminder when it starts with a request to be reminded (in one of the eight languages) and
 * holds a schedule; the bot then offers it, with what it understood (the time, or the repetition with its next
 * runs) and Create / Cancel buttons, instead of saying that no model is configured. The schedule is read by the one
 * reader of `/remind` and `/every` (`readSchedule`), where the words put it: right after the request, or after the
 * task ("remind me to call the dentist tomorrow at 9"); a repetition becomes the recurring job `/every` would make.
 * Anything else goes on as before.
 */
import * as z from "zod";
import { printable } from "../contracts/ids";
import { lazy } from "../lazy";
import { voiceOf } from "../texts";
import { nextOccurrence, nextRuleOccurrence, type Parsed, previewSchedule, readRecurring, scheduleFields, type Timing } from "../time";
import { type Locale, readSchedule } from "../words";
import { offerButtons, type Reply } from "./buttons";
import { previewLines } from "./schedule";
import { cutLine, understoodLine } from "./words";

/** A reminder found in a message: its schedule as read, what to remind of, and where the words were cut. */
export type FoundReminder = { timing: Timing; text: string; phrase: string; tail: string; language: Locale };

/**
 * A reminder offered and waiting for Create or Cancel: the id its buttons carry, its first time, what, when it was
 * offered, and for a repetition its schedule as `storedTiming` writes it (null for one time).
 */
export type ReminderOffer = { id: string; at: number; text: string; createdAt: number; schedule: string | null };

/**
 * "Remind me" at the start of a message, per language, and the words that may tie it to the task ("to",
 * "dass", "de", "что"…), which are dropped from the reminder's text.
 */
const ASKS: readonly { locale: Locale; ask: RegExp; ties: RegExp }[] = [
  { locale: "en", ask: /^(?:please\s+|pls\s+)?(?:remind me|reminder|don'?t let me forget)\b[\s,:]*/i, ties: /^(?:to|that|about)\s+/i },
  { locale: "de", ask: /^(?:bitte\s+)?erinnere?\s+mich\b[\s,:]*(?:bitte\s+)?/i, ties: /^(?:daran,?\s+)?(?:dass|zu)\s+/i },
  { locale: "fr", ask: /^rappel(?:le|ez)[-\s]moi\b[\s,:]*/i, ties: /^(?:de|d'|que)\s*/i },
  { locale: "es", ask: /^(?:por favor,?\s+)?recu[eé]rdame\b[\s,:]*/i, ties: /^(?:que|de)\s+/i },
  { locale: "pt", ask: /^(?:me\s+)?lembr[ae](?:-me)?\b[\s,:]*/i, ties: /^(?:de|que)\s+/i },
  { locale: "it", ask: /^ricordami\b[\s,:]*/i, ties: /^(?:di|che)\s+/i },
  { locale: "nl", ask: /^herinner\s+me\b[\s,:]*(?:eraan\s+)?/i, ties: /^(?:om|dat|aan)\s+/i },
  { locale: "ru", ask: /^напомни(?:те)?(?:\s+мне)?[\s,:]*/i, ties: /^(?:что|чтобы|о|об|про)\s+/i },
  { locale: "uk", ask: /^нагадай(?:те)?(?:\s+мені)?[\s,:]*/i, ties: /^(?:що|щоб)\s+/i },
  { locale: "ja", ask: /^(?:リマインド|リマインダー)[\s:：、]*/, ties: /^$/ },
];

/**
 * The reminder a message asks for, or null: no request to be reminded, no schedule, one that will not do. The
 * schedule is the first that reads from a word of the message on, the words before it and after it the task.
 */
export async function readReminder(message: string, zone: string, now: number): Promise<FoundReminder | null> {
  const text = message.trim();
  for (const { locale, ask, ties } of ASKS) {
    const m = ask.exec(text);
    if (!m) continue;
    const rest = text.slice(m[0].length);
    for (const at of [0, ...[...rest.matchAll(/\s+(?=\S)/gu)].map((w) => w.index + w[0].length)]) {
      const read = await readSchedule(rest.slice(at), { zone, now, language: locale });
      if (!read.ok) {
        // A time that will not do (in the past, too far): no offer, as before; words that are none: read on.
        if (read.problem.kind === "unreadable") continue;
        return null;
      }
      const task = `${rest.slice(0, at)} ${read.value.rest}`
        .replace(/\s+/g, " ")
        .trim()
        .replace(ties, "")
        .replace(/[\s.!?,;:。！？]+$/u, "")
        .trim();
      if (task === "") return null;
      const { schedule, ends, phrase, tail } = read.value;
      return { timing: { schedule, ends }, text: task, phrase, tail, language: locale };
    }
    return null;
  }
  return null;
}

/** The offer, in the chat's language (`language`): what was understood (the cut, the time or the repetition and its next runs), and Create / Cancel under it. */
export async function offerReply(offerId: string, found: FoundReminder, zone: string, now: number, language: string | null): Promise<Reply> {
  const v = await voiceOf(language);
  const { schedule, ends } = found.timing;
  const lines = [v.t.offer.found(printable(found.text)), cutLine(v, { phrase: found.phrase, tail: found.tail, text: found.text })];
  if (schedule.type === "at") lines.push(understoodLine(v, schedule.at, zone, now));
  else {
    const next = await previewSchedule(schedule, ends, zone, now, 3);
    if (next.ok) lines.push(...(await previewLines(next.value, { zone, now }, v)));
  }
  lines.push(v.t.offer.ask);
  return { markdown: lines.join("\n"), buttons: offerButtons(offerId, v.t.buttons) };
}

/**
 * The offer to keep for a reminder found at `now`: its first time (a repetition's next run) and, for a repetition,
 * its schedule as the API writes one, with its ends, to be read again on Create (`offerTiming`).
 */
export function offerOf(id: string, found: FoundReminder, zone: string, now: number): ReminderOffer {
  const { schedule, ends } = found.timing;
  if (schedule.type === "at") return { id, at: schedule.at, text: found.text, createdAt: now, schedule: null };
  const next = schedule.type === "cron" ? nextOccurrence(schedule.cron, zone, now) : nextRuleOccurrence(schedule.rule, zone, now);
  const stored = JSON.stringify({ ...scheduleFields(schedule), until: ends.until, runsLeft: ends.runsLeft });
  return { id, at: next?.at ?? now, text: found.text, createdAt: now, schedule: stored };
}

/** An offered repetition's schedule as `offerOf` kept it: the cron or rule, with its ends. */
const storedSchema = lazy(() =>
  z.intersection(
    z.union([z.object({ cron: z.string() }), z.object({ rrule: z.string(), start: z.string() })]),
    z.object({ until: z.string().nullish(), runsLeft: z.number().int().nullish() }),
  ),
);

/** The schedule an offered repetition is created with, read again in the chat's zone; an error when it no longer reads. */
export function offerTiming(stored: string, zone: string): Parsed<Timing> {
  const parsed = storedSchema().safeParse(JSON.parse(stored));
  if (!parsed.success) return { ok: false, error: "The offered schedule could not be read again; send the reminder again." };
  const { until, runsLeft, ...form } = parsed.data;
  const schedule = readRecurring(form, zone);
  return schedule.ok ? { ok: true, value: { schedule: schedule.value, ends: { until, runsLeft } } } : schedule;
}
