/**
 * @module A reminder written in words, without a model (docs/telegram.md): "remind me tomorrow at 9 to call the
 * dentist", "erinnere mich morgen um 9 an den Zahnarzt" reads as a reminder when it starts with a request to be
 * reminded (in one of the eight languages) and holds a time; the bot then offers it, with the understood time
 * and Create / Cancel buttons, instead of saying that no model is configured. Anything else goes on as before.
 */
import { printable } from "../contracts/ids";
import { findWhen, type Locale } from "../words";
import { offerButtons, type Reply } from "./buttons";
import { understoodLine } from "./words";

/** A reminder found in a message: when, and what to remind of. */
export type FoundReminder = { instant: number; text: string };

/** A reminder offered and waiting for Create or Cancel: the id its buttons carry, when, what, and when it was offered. */
export type ReminderOffer = { id: string; at: number; text: string; createdAt: number };

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
  { locale: "ru", ask: /^напомни(?:те)?(?:\s+мне)?[\s,:]*/i, ties: /^(?:что|чтобы)\s+/i },
  { locale: "uk", ask: /^нагадай(?:те)?(?:\s+мені)?[\s,:]*/i, ties: /^(?:що|щоб)\s+/i },
  { locale: "ja", ask: /^(?:リマインド|リマインダー)[\s:：、]*/, ties: /^$/ },
];

/** The reminder a message asks for, or null: no request to be reminded, no time, a time that will not do. */
export async function readReminder(message: string, zone: string, now: number): Promise<FoundReminder | null> {
  const text = message.trim();
  for (const { locale, ask, ties } of ASKS) {
    const m = ask.exec(text);
    if (!m) continue;
    const rest = text.slice(m[0].length);
    const found = await findWhen(rest, zone, now, locale);
    if (!found?.ok) return null;
    const task = `${found.value.before.trim()} ${found.value.rest}`
      .replace(/\s+/g, " ")
      .trim()
      .replace(ties, "")
      .replace(/[\s.!?,;:。！？]+$/u, "")
      .trim();
    return task === "" ? null : { instant: found.value.instant, text: task };
  }
  return null;
}

/** The offer: what was understood, and Create / Cancel under it. */
export function offerReply(offerId: string, found: FoundReminder, zone: string, now: number): Reply {
  return {
    markdown: `No model is configured, but this reads as a reminder: "${printable(found.text)}"\n${understoodLine(found.instant, zone, now)}\nCreate it?`,
    buttons: offerButtons(offerId),
  };
}
