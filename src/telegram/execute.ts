/**
 * @module Executing a chat command (docs/telegram.md) against the chat's own jobs: the chat object hands in its job
 * operations as the host, so commands use exactly the rules and texts of the admin API and the tools. Job ids
 * are read case-insensitively (`/run 3CFEC`); sent as a reply to one of a job's messages, a job command needs
 * none. A pressed job button acts like its command.
 */
import { cancelledText, jobList, pausedText, resumedText, runningNowText } from "../jobs/texts";
import type { Result } from "../result";
import { zoneOrUtc } from "../schemas/chats";
import { formatOffset } from "../time";
import { type JobAction, type Reply, schedulerButton } from "./buttons";
import { type Command, helpText, statusText, usageText } from "./commands";
import { editCommand, skipCommand } from "./edit";
import type { Asker, CommandContext, CommandHost } from "./host";
import { quietCommand } from "./quiet-command";
import { everyCommand, remindCommand } from "./schedule";
import { timezoneCommand } from "./zone-command";

export type { CommandContext, CommandHost };

const text = <T>(r: Result<T>, ok: (value: T) => string): string => (r.ok ? ok(r.value) : r.error.message);

/** The chat's zone (UTC should the object refuse, which a bound chat never does). */
async function zoneOf(host: CommandHost, chatId: string): Promise<string> {
  return zoneOrUtc(await host.getSettings(chatId));
}

/** Run now, pause, resume or cancel a job, by an id read case-insensitively: the command's sentence. */
export async function jobAction(host: CommandHost, action: JobAction | "resume", rawId: string, ctx: CommandContext): Promise<string> {
  const { chatId, now } = ctx;
  const id = rawId.toLowerCase();
  if (action === "cancel") return text(await host.cancel(chatId, id), cancelledText);
  if (action === "pause") return text(await host.pause(chatId, id), pausedText);
  if (action === "run") return text(await host.runNow(chatId, id), runningNowText);
  const zone = await zoneOf(host, chatId);
  return text(await host.resume(chatId, id), (job) => resumedText(job, zone, now));
}

/** The reply to a command: Markdown, with buttons when it asks something (the zones of `/timezone UTC+2`). */
export async function runCommand(host: CommandHost, cmd: Command, ctx: CommandContext): Promise<Reply> {
  const { chatId, now } = ctx;
  const asker = async (): Promise<Asker> => ({
    chatId,
    zone: await zoneOf(host, chatId),
    now,
    threadId: ctx.threadId,
    ...(ctx.language ? { language: ctx.language } : {}),
  });
  switch (cmd.name) {
    case "start":
    case "help":
      return { markdown: helpText(now, await zoneOf(host, chatId), ctx.agent) };
    case "jobs": {
      const listed = await host.list(chatId, {});
      const markdown = text(listed, (l) => jobList(l.jobs, l.timeZone, Date.parse(l.now), { here: ctx.threadId }));
      // The Mini App shows the same jobs with their forms (issue 18); Telegram refuses web_app buttons without https.
      return ctx.app === null ? { markdown } : { markdown, buttons: schedulerButton(ctx.app) };
    }
    case "cancel":
    case "run":
    case "pause":
    case "resume": {
      // A reply to one of a job's messages names its job (docs/telegram.md#replies-and-edited-messages).
      const id = cmd.args.split(/\s+/)[0] || ctx.repliedTo?.jobId || "";
      return { markdown: id === "" ? usageText(cmd.name) : await jobAction(host, cmd.name, id, ctx) };
    }
    case "skip":
      return skipCommand(host, ctx, await asker(), cmd.args);
    case "edit":
      return editCommand(host, ctx, await asker(), cmd.args);
    case "quiet":
      return quietCommand(host, chatId, await zoneOf(host, chatId), now, cmd.args);
    case "timezone":
      return timezoneCommand(host, chatId, now, cmd.args);
    case "status": {
      const [list, settings] = await Promise.all([host.list(chatId, {}), host.getSettings(chatId)]);
      if (!list.ok) return { markdown: list.error.message };
      if (!settings.ok) return { markdown: settings.error.message };
      const current = settings.value.timeZone;
      return {
        markdown: statusText({
          jobs: list.value.jobs.length,
          zone: current,
          offset: formatOffset(current, now),
          isDefault: settings.value.isDefault,
          agent: ctx.agent,
          runner: ctx.runner,
          blocked: ctx.blocked,
        }),
      };
    }
    case "remind":
      return remindCommand(host, await asker(), cmd.args, ctx.repliedTo?.text ?? null);
    case "every":
      return everyCommand(host, await asker(), cmd.args);
    default:
      return unhandled(cmd.name);
  }
}

/** Every command has its case: a name added to COMMANDS without one does not compile (`npm run check`, CI). */
function unhandled(name: never): never {
  throw new Error(`/${String(name)} has no case in runCommand`);
}
