/**
 * @module Executing a chat command (DESIGN §6) against the chat's own jobs: the chat object hands in its job
 * operations as the host, so commands use exactly the rules and texts of the admin API and the tools.
 */
import type { JobFilter, CreateJobInput, Job } from "../schemas/jobs";
import type { CreatedBy } from "../schemas/jobs";
import { cancelledText, jobList, jobLine, pausedText, resumedText, runningNowText } from "../jobs/texts";
import type { Result } from "../result";
import { formatOffset } from "../time";
import { helpText, parseEvery, parseRemind, statusText, timezoneShowText, usageText, type Command } from "./commands";

type Maybe<T> = T | Promise<T>;

/** What a command needs of its chat: the chat's job operations. */
export interface CommandHost {
  list(chatId: string, filter: JobFilter): Maybe<Result<{ timeZone: string; now: string; jobs: Job[] }>>;
  create(chatId: string, input: CreateJobInput, createdBy: CreatedBy): Maybe<Result<Job>>;
  cancel(chatId: string, id: string): Maybe<Result<Job>>;
  pause(chatId: string, id: string): Maybe<Result<Job>>;
  resume(chatId: string, id: string): Maybe<Result<Job>>;
  runNow(chatId: string, id: string): Maybe<Result<Job>>;
  getSettings(chatId: string): Maybe<Result<{ timeZone: string; isDefault: boolean }>>;
  setTimeZone(chatId: string, zone: string | null): Maybe<Result<{ message: string }>>;
}

/** What /status shows of the chat's circumstances besides its jobs and zone. */
export type CommandContext = { chatId: string; agent: string; runner: string; blocked: boolean; now: number };

const text = <T>(r: Result<T>, ok: (value: T) => string): string => (r.ok ? ok(r.value) : r.error.message);

/** The reply to a command, as Markdown. */
export async function runCommand(host: CommandHost, cmd: Command, ctx: CommandContext): Promise<string> {
  const { chatId, now } = ctx;
  const zone = async (): Promise<string> => {
    const settings = await host.getSettings(chatId);
    return settings.ok ? settings.value.timeZone : "UTC";
  };
  switch (cmd.name) {
    case "start":
    case "help":
      return helpText();
    case "jobs":
      return text(await host.list(chatId, {}), (l) => jobList(l.jobs, l.timeZone, Date.parse(l.now)));
    case "cancel":
    case "run":
    case "pause":
    case "resume": {
      const id = cmd.args.split(/\s+/)[0] ?? "";
      if (id === "") return usageText(cmd.name);
      if (cmd.name === "cancel") return text(await host.cancel(chatId, id), cancelledText);
      if (cmd.name === "pause") return text(await host.pause(chatId, id), pausedText);
      if (cmd.name === "run") return text(await host.runNow(chatId, id), runningNowText);
      const current = await zone();
      return text(await host.resume(chatId, id), (job) => resumedText(job, current, now));
    }
    case "timezone": {
      const arg = cmd.args.trim();
      if (arg === "") {
        return text(await host.getSettings(chatId), (s) => timezoneShowText(s.timeZone, formatOffset(s.timeZone, now), s.isDefault));
      }
      return text(await host.setTimeZone(chatId, arg.toLowerCase() === "reset" ? null : arg), (z) => z.message);
    }
    case "status": {
      const [list, settings] = await Promise.all([host.list(chatId, {}), host.getSettings(chatId)]);
      if (!list.ok) return list.error.message;
      if (!settings.ok) return settings.error.message;
      const current = settings.value.timeZone;
      return statusText({
        jobs: list.value.jobs.length,
        zone: current,
        offset: formatOffset(current, now),
        isDefault: settings.value.isDefault,
        agent: ctx.agent,
        runner: ctx.runner,
        blocked: ctx.blocked,
      });
    }
    case "remind":
    case "every": {
      const parsed = cmd.name === "remind" ? parseRemind(cmd.args) : parseEvery(cmd.args);
      if ("error" in parsed) return parsed.error;
      const created = await host.create(chatId, { name: parsed.name, kind: "prompt", text: parsed.text, ...parsed.when }, "user");
      if (!created.ok) return created.error.message;
      return `Created ${jobLine(created.value, await zone(), now)}`;
    }
  }
}
