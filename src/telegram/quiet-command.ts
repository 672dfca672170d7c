/**
 * @module `/quiet` (docs/telegram.md#quiet): alone it shows the chat's quiet hours; `/quiet 22:00-07:00` sets them
 * (in the chat's zone; a window whose end comes before its start runs across midnight); `/quiet off` clears
 * them. Inside them every message goes out without a notification sound; nothing is held back or delayed. The
 * replies are in the chat's language (`texts/`).
 */
import { shown } from "../contracts/ids";
import { textsOf } from "../texts";
import { formatQuiet, inQuietHours, readQuiet } from "../time";
import { langOf } from "../words";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";

/** `/quiet [hours | off]`. */
export async function quietCommand(host: CommandHost, who: Pick<Asker, "chatId" | "zone" | "now" | "language">, args: string): Promise<Reply> {
  const { chatId, zone, now } = who;
  const t = (await textsOf(langOf(who.language) ?? "en")).quiet;
  const arg = args.trim();
  if (arg === "") {
    const current = await host.getQuiet(chatId);
    if (!current.ok) return { markdown: current.error.message };
    return { markdown: current.value.quiet === null ? t.none : t.show(formatQuiet(current.value.quiet), zone) };
  }
  if (/^(?:off|none|no|reset)$/i.test(arg)) {
    const cleared = await host.setQuiet(chatId, { quiet: null });
    return { markdown: cleared.ok ? t.off : cleared.error.message };
  }
  const quiet = readQuiet(arg);
  if (quiet === null) return { markdown: t.unreadable(shown(arg)) };
  const set = await host.setQuiet(chatId, { quiet });
  if (!set.ok) return { markdown: set.error.message };
  if (set.value.quiet === null) return { markdown: t.off };
  return { markdown: t.set(formatQuiet(set.value.quiet), zone) + (inQuietHours(set.value.quiet, zone, now) ? t.quietNow : "") };
}
