/**
 * @module `/quiet` (docs/telegram.md#quiet): alone it shows the chat's quiet hours; `/quiet 22:00-07:00` sets them
 * (in the chat's zone; a window whose end comes before its start runs across midnight); `/quiet off` clears
 * them. Inside them every message goes out without a notification sound; nothing is held back or delayed.
 */
import { shown } from "../contracts/ids";
import { formatQuiet, inQuietHours, type QuietHours, readQuiet } from "../time";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";

const TRY = "Try /quiet 22:00-07:00 or /quiet off.";

/** `Quiet hours: 22:00–07:00 (Europe/Berlin)`, or none. */
export function quietShowText(quiet: QuietHours | null, zone: string): string {
  if (quiet === null) return "No quiet hours: every message arrives with its notification sound. Set them with /quiet 22:00-07:00.";
  return `Quiet hours: ${formatQuiet(quiet)} (${zone}): messages sent then arrive without a sound. Change them with /quiet 23:00-06:30, or turn them off with /quiet off.`;
}

/** The reply to quiet hours set at `now`. */
export function quietSetText(quiet: QuietHours, zone: string, now: number): string {
  const nowInside = inQuietHours(quiet, zone, now) ? " It is quiet now." : "";
  return `Quiet hours set: ${formatQuiet(quiet)} (${zone}). Messages sent then arrive without a sound; nothing is held back.${nowInside}`;
}

export const QUIET_OFF_TEXT = "Quiet hours off: every message arrives with its notification sound.";

/** `/quiet [hours | off]`. */
export async function quietCommand(host: CommandHost, who: Pick<Asker, "chatId" | "zone" | "now">, args: string): Promise<Reply> {
  const { chatId, zone, now } = who;
  const arg = args.trim();
  if (arg === "") {
    const current = await host.getQuiet(chatId);
    return { markdown: current.ok ? quietShowText(current.value.quiet, zone) : current.error.message };
  }
  if (/^(?:off|none|no|reset)$/i.test(arg)) {
    const cleared = await host.setQuiet(chatId, { quiet: null });
    return { markdown: cleared.ok ? QUIET_OFF_TEXT : cleared.error.message };
  }
  const quiet = readQuiet(arg);
  if (quiet === null) return { markdown: `I couldn't read "${shown(arg)}" as quiet hours: give when they start and end, in your time zone. ${TRY}` };
  const set = await host.setQuiet(chatId, { quiet });
  return { markdown: set.ok && set.value.quiet ? quietSetText(set.value.quiet, zone, now) : set.ok ? QUIET_OFF_TEXT : set.error.message };
}
