/**
 * @module `/hook` (docs/telegram.md#hooks, docs/hooks.md): whether a job has a hook, making or replacing one, revoking
 * it, and `/hook new <text>`, a prompt job only its hook runs. A reply that shows a hook's URL is secret: the chat
 * sees it once and the transcript keeps `[shown once]` in its place; in a group it goes to the one who asked, in a
 * private message, never to the group.
 */
import { hookAddresses } from "../hooks/token";
import { jobLine } from "../jobs/texts";
import { type Voice, voiceOf } from "../texts";
import type { Reply } from "./buttons";
import { problemText } from "./edit";
import type { Asker, CommandContext, CommandHost } from "./host";
import { shownOnce } from "./privately";
import { nameOf } from "./schedule";

/** The reply that shows a hook: secret, and in a group sent privately (the group is told where it went). */
function shown(v: Voice, ctx: CommandContext, lines: string[], id: string, token: string): Reply {
  const { url, email } = hookAddresses(token, ctx.hooks.base, ctx.hooks.emailDomain);
  const group = { what: "a hook's address", sent: v.t.hook.sentPrivately, refused: v.t.hook.startFirst };
  return shownOnce(ctx.chatId, lines, v.t.hook.made(id, url, email ?? ""), group);
}

export async function hookCommand(host: CommandHost, ctx: CommandContext, who: Asker, args: string): Promise<Reply> {
  const v = await voiceOf(ctx.language);
  const t = v.t.hook;
  const words = args.trim().split(/\s+/).filter(Boolean);
  const isNew = (word: string | undefined) => word !== undefined && ["new", t.newWord].includes(word.toLowerCase());
  const isOff = (word: string | undefined) => word !== undefined && ["off", t.offWord].includes(word.toLowerCase());
  if (words.length === 0) return { markdown: t.usage };
  if (isNew(words[0])) {
    const text = args.trim().slice(words[0]!.length).trim();
    if (text === "") return { markdown: t.usage };
    const input = { name: nameOf(text), kind: "prompt" as const, text, trigger: "hook" as const };
    const made = await host.createWithHook(ctx.chatId, input, "user", { threadId: ctx.threadId });
    if (!made.ok) return { markdown: problemText(v, made.error, "", who) };
    const { job, token } = made.value;
    const line = v.t.job.created(jobLine(job, who.zone, who.now, v));
    return { ...(token === null ? { markdown: line } : shown(v, ctx, [line], job.id, token)), jobId: job.id };
  }
  const id = words[0]!.toLowerCase();
  const act = words[1];
  if (words.length > 2 || (act !== undefined && !isNew(act) && !isOff(act))) return { markdown: t.usage };
  if (isNew(act)) {
    const made = await host.makeHook(ctx.chatId, id);
    return made.ok ? shown(v, ctx, [], id, made.value.token) : { markdown: problemText(v, made.error, id, who) };
  }
  if (isOff(act)) {
    const revoked = await host.revokeHook(ctx.chatId, id);
    if (!revoked.ok) return { markdown: problemText(v, revoked.error, id, who) };
    return { markdown: revoked.value.had ? t.revoked(id) : t.noneToRevoke(id) };
  }
  const job = await host.get(ctx.chatId, id);
  if (!job.ok) return { markdown: problemText(v, job.error, id, who) };
  return { markdown: job.value.hook ? t.has(id) : t.none(id) };
}
