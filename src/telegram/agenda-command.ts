/**
 * @module `/agenda` (docs/telegram.md#agenda): alone it shows the chat's daily agenda; `/agenda 8:00` sets its time of
 * day in the chat's zone (a group's by its admins); `/agenda off` stops it. The replies are in the chat's language.
 */
import { shown } from "../contracts/ids";
import { voiceOf } from "../texts";
import { formatWeekdayTime, readTimeOfDay } from "../time";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";

/** `/agenda [time | off]`. */
export async function agendaCommand(host: CommandHost, who: Pick<Asker, "chatId" | "zone" | "now" | "language">, args: string): Promise<Reply> {
  const { t } = await voiceOf(who.language);
  const arg = args.trim();
  if (arg === "") {
    const current = await host.getAgenda(who.chatId);
    if (!current.ok) return { markdown: current.error.message };
    return { markdown: current.value.agenda === null ? t.agenda.none : t.agenda.show(current.value.agenda, who.zone) };
  }
  if (/^(?:off|none|no|stop)$/i.test(arg) || arg.toLowerCase() === t.agenda.offWord.toLowerCase()) {
    const cleared = await host.setAgenda(who.chatId, null);
    return { markdown: cleared.ok ? t.agenda.off : cleared.error.message };
  }
  const at = readTimeOfDay(arg);
  if (at === null) return { markdown: t.agenda.unreadable(shown(arg.slice(0, 40))) };
  const set = await host.setAgenda(who.chatId, at);
  if (!set.ok) return { markdown: set.error.message };
  const next = set.value.next === null ? "" : formatWeekdayTime(Date.parse(set.value.next), who.zone, who.now, t.dates);
  return { markdown: t.agenda.set(at, who.zone, next) };
}
