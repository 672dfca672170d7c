/**
 * @module `/timezone` (docs/time.md, docs/telegram.md): alone it shows the zone; `reset` goes back to the default; an IANA (or
 * Windows) name sets it; a city or country that names one zone (`Berlin`, `Kiev`, `Japan`) sets that zone; an
 * offset (`UTC+2`) or a name with several zones (`USA`) is answered with a button per likely zone (`z:<zone>`),
 * and a press sets it. Setting always answers with the reply of docs/time.md.
 */

import { printable, shown } from "../contracts/ids";
import { voiceOf } from "../texts";
import { formatOffset } from "../time";
import { placeZone, zoneChoiceLabel } from "../words";
import { type Reply, zoneButtons } from "./buttons";
import type { CommandContext, CommandHost } from "./host";

const text = (r: { ok: true; value: { message: string } } | { ok: false; error: { message: string } }) => (r.ok ? r.value.message : r.error.message);

/** `/timezone [name]`. */
export async function timezoneCommand(host: CommandHost, asked: Pick<CommandContext, "chatId" | "now" | "language">, args: string): Promise<Reply> {
  const { chatId, now, language } = asked;
  const t = (await voiceOf(language)).t.zone;
  // What does not show is no part of a zone's or a place's name (a mark pasted with it): read what shows.
  const arg = printable(args).trim();
  if (arg === "") {
    const settings = await host.getSettings(chatId);
    return {
      markdown: settings.ok ? t.show(settings.value.timeZone, formatOffset(settings.value.timeZone, now), settings.value.isDefault) : settings.error.message,
    };
  }
  if (arg.toLowerCase() === "reset") return { markdown: text(await host.setTimeZone(chatId, null, language ?? null)) };
  // A city by its name in the sender's language first (`Wien`), then in the others (docs/telegram.md).
  const place = await placeZone(arg, now, language);
  if (place.kind === "zone") return { markdown: text(await host.setTimeZone(chatId, place.zone, language ?? null)) };
  if (place.kind === "unknown") return { markdown: t.unknown(shown(arg)) };
  const q = shown(arg);
  const question = place.offset ? t.offset(q) : t.several(q);
  const labels = place.zones.map((zone) => ({ zone, label: zoneChoiceLabel(zone, now, place.offset, t.fixed) }));
  return { markdown: question, buttons: zoneButtons(labels) };
}

/** A zone button pressed: the zone set, with the reply of docs/time.md; the notice names the zone. */
export async function pressZone(host: CommandHost, chatId: string, zone: string, language: string | null): Promise<{ answer: string; reply: Reply }> {
  const set = await host.setTimeZone(chatId, zone, language);
  const t = (await voiceOf(language)).t.zone;
  return { answer: set.ok ? t.setShort(set.value.timeZone) : set.error.message, reply: { markdown: text(set) } };
}
