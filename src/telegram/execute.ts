/**
 * @module Executing a chat command (docs/telegram.md) against the chat's own jobs: the chat object hands in its job
 * operations as the host, so commands use exactly the rules and texts of the admin API and the tools. Job ids
 * are read case-insensitively (`/run 3CFEC`); sent as a reply to one of a job's messages, a job command needs
 * none. A pressed job button acts like its command.
 */
import { cancelledText, jobList, pausedText, resumedText, runningNowText } from "../jobs/texts";
import type { Result } from "../result";
import { zoneOrUtc } from "../schemas/chats";
import { voiceOf } from "../texts";
import { formatOffset } from "../time";
import { agendaCommand } from "./agenda-command";
import { type JobAction, type Reply, schedulerButton } from "./buttons";
import { calendarCommand } from "./calendar-command";
import { type Command, helpText, statusText } from "./commands";
import { editCommand, problemText, skipCommand } from "./edit";
import { hookCommand } from "./hook-command";
import type { Asker, CommandContext, CommandHost } from "./host";
import { languageCommand } from "./language-command";
import { type CommandName, type RunBy, type RunName, runOf } from "./menu";
import { modelCommand } from "./model-command";
import { quietCommand } from "./quiet-command";
import { everyCommand, remindCommand } from "./schedule";
import { timezoneCommand } from "./zone-command";

export type { CommandContext, CommandHost };

/** The chat's zone (UTC should the object refuse, which a bound chat never does). */
async function zoneOf(host: CommandHost, chatId: string): Promise<string> {
  return zoneOrUtc(await host.getSettings(chatId));
}

/** Run now, pause, resume or cancel a job, by an id read case-insensitively: the command's sentence. */
export async function jobAction(host: CommandHost, action: JobAction | "resume", rawId: string, ctx: CommandContext): Promise<string> {
  const { chatId, now } = ctx;
  const v = await voiceOf(ctx.language);
  const id = rawId.toLowerCase();
  const zone = await zoneOf(host, chatId);
  const text = <T>(r: Result<T>, ok: (value: T) => string): string => (r.ok ? ok(r.value) : problemText(v, r.error, rawId, { zone, now }));
  if (action === "cancel") return text(await host.cancel(chatId, id), (job) => cancelledText(job, v));
  if (action === "pause") return text(await host.pause(chatId, id), (job) => pausedText(job, v));
  if (action === "run") return text(await host.runNow(chatId, id), (job) => runningNowText(job, v));
  return text(await host.resume(chatId, id), (job) => resumedText(job, zone, now, v));
}

/** Who asks: the chat, its zone, its now, the topic and the sender's language. */
async function asker(host: CommandHost, ctx: CommandContext): Promise<Asker> {
  const { chatId, now, threadId, language } = ctx;
  return { chatId, zone: await zoneOf(host, chatId), now, threadId, ...(language ? { language } : {}) };
}

/** A handler: the reply to a command of those `N` it runs (Markdown, with buttons when it asks something). */
type Run<N extends CommandName> = (host: CommandHost, cmd: Command<N>, ctx: CommandContext) => Promise<Reply>;

/** The handlers, by the name a command's row in `menu.ts` gives (`run`); each is given the commands it runs. */
const RUNS: { readonly [R in RunName]: Run<RunBy<R>> } = {
  help: async (host, _cmd, ctx) => ({ markdown: helpText((await voiceOf(ctx.language)).t.help, ctx.now, await zoneOf(host, ctx.chatId), ctx.agent) }),
  jobs: async (host, _cmd, ctx) => {
    const v = await voiceOf(ctx.language);
    const listed = await host.list(ctx.chatId, {});
    const markdown = listed.ok
      ? jobList(listed.value.jobs, listed.value.timeZone, Date.parse(listed.value.now), { here: ctx.threadId }, v)
      : listed.error.message;
    // The Mini App shows the same jobs with their forms (issue 18); Telegram refuses web_app buttons without https.
    return ctx.app === null ? { markdown } : { markdown, buttons: schedulerButton(ctx.app, v.t.buttons) };
  },
  jobAction: async (host, cmd, ctx) => {
    // A reply to one of a job's messages names its job (docs/telegram.md#replies-and-edited-messages).
    const id = cmd.args.split(/\s+/)[0] || ctx.repliedTo?.jobId || "";
    return { markdown: id === "" ? (await voiceOf(ctx.language)).t.job.usage(cmd.name) : await jobAction(host, cmd.name, id, ctx) };
  },
  skip: async (host, cmd, ctx) => skipCommand(host, ctx, await asker(host, ctx), cmd.args),
  edit: async (host, cmd, ctx) => editCommand(host, ctx, await asker(host, ctx), cmd.args),
  quiet: async (host, cmd, ctx) => quietCommand(host, await asker(host, ctx), cmd.args),
  agenda: async (host, cmd, ctx) => agendaCommand(host, await asker(host, ctx), cmd.args),
  language: async (host, cmd, ctx) => languageCommand(host, ctx, cmd.args),
  model: async (host, cmd, ctx) => modelCommand(host, ctx, cmd.args),
  timezone: (host, cmd, ctx) => timezoneCommand(host, ctx, cmd.args),
  status: async (host, _cmd, ctx) => {
    const [list, settings] = await Promise.all([host.list(ctx.chatId, {}), host.getSettings(ctx.chatId)]);
    if (!list.ok) return { markdown: list.error.message };
    if (!settings.ok) return { markdown: settings.error.message };
    const { timeZone, isDefault } = settings.value;
    const { agent, runner, blocked } = ctx;
    const t = (await voiceOf(ctx.language)).t.status;
    return {
      markdown: statusText(t, { jobs: list.value.jobs.length, zone: timeZone, offset: formatOffset(timeZone, ctx.now), isDefault, agent, runner, blocked }),
    };
  },
  hook: async (host, cmd, ctx) => hookCommand(host, ctx, await asker(host, ctx), cmd.args),
  calendar: async (host, cmd, ctx) => calendarCommand(host, ctx, cmd.args),
  remind: async (host, cmd, ctx) => remindCommand(host, await asker(host, ctx), cmd.args, ctx.repliedTo ?? null),
  every: async (host, cmd, ctx) => everyCommand(host, await asker(host, ctx), cmd.args),
};

/** The reply to a command, from the handler its row names. */
export function runCommand(host: CommandHost, cmd: Command, ctx: CommandContext): Promise<Reply> {
  // The handler of `runOf(cmd.name)` is given exactly the commands whose rows name it: `cmd` is one of them.
  const run = RUNS[runOf(cmd.name)] as Run<CommandName>;
  return run(host, cmd, ctx);
}
