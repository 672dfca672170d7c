/**
 * @module `/calendar` (docs/calendar.md): the chat's calendar feed. Alone it shows the feed's address the first time
 * (making it) and says there is one after; `/calendar new` replaces the address, `/calendar off` revokes it. The
 * address is secret: the chat sees it once and the transcript keeps `[shown once]` in its place; in a group only its
 * admins may ask, and it goes to the one who asked, in a private message, never to the group.
 */
import { calendarAddress } from "../hooks/token";
import { type Voice, voiceOf } from "../texts";
import type { Reply } from "./buttons";
import type { CommandContext, CommandHost } from "./host";
import { shownOnce } from "./privately";

/** The reply that shows the feed's address: secret, and in a group sent privately (the group is told where it went). */
function shown(v: Voice, ctx: CommandContext, token: string): Reply {
  const group = { what: "a calendar's address", sent: v.t.calendar.sentPrivately, refused: v.t.calendar.startFirst };
  return shownOnce(ctx.chatId, [], v.t.calendar.made(calendarAddress(token, ctx.hooks.base)), group);
}

/** `/calendar [new | off]`. */
export async function calendarCommand(host: CommandHost, ctx: CommandContext, args: string): Promise<Reply> {
  const v = await voiceOf(ctx.language);
  const t = v.t.calendar;
  const words = args.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const act = words[0];
  if (words.length > 1) return { markdown: t.usage };
  if (act === undefined || act === "new" || act === v.t.hook.newWord.toLowerCase()) {
    if (act === undefined) {
      const has = await host.hasCalendar(ctx.chatId);
      if (!has.ok) return { markdown: has.error.message };
      if (has.value.calendar) return { markdown: t.has };
    }
    const made = await host.makeCalendar(ctx.chatId);
    return made.ok ? shown(v, ctx, made.value.token) : { markdown: made.error.message };
  }
  if (act === "off" || act === v.t.hook.offWord.toLowerCase()) {
    const revoked = await host.revokeCalendar(ctx.chatId);
    if (!revoked.ok) return { markdown: revoked.error.message };
    return { markdown: revoked.value.had ? t.revoked : t.noneToRevoke };
  }
  return { markdown: t.usage };
}
