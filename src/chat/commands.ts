/**
 * @module Executing a chat command (DESIGN §6) against the chat's own jobs: the Durable Object passes itself
 * as the host, so commands use exactly the rules and texts of the admin API and the tools.
 */
import type { CreateJobInput, CreatedBy, Job } from "../schemas/jobs";
import { cancelledText, jobList, jobLine, pausedText, resumedText, runningNowText } from "../jobs/texts";
import {
  helpText,
  parseEvery,
  parseRemind,
  statusText,
  timezoneShowText,
  usageText,
  type Command,
} from "../telegram/commands";
import { formatOffset } from "../time";
import type { Result } from "../result";

/** What a command needs of its chat (the Durable Object's RPC methods). */
export interface CommandHost {
  listJobs(chatId: string, filter: object): Promise<Result<{ timeZone: string; now: string; jobs: Job[] }>>;
  createJob(chatId: string, input: CreateJobInput, createdBy: CreatedBy): Promise<Result<Job>>;
  cancelJob(chatId: string, id: string): Promise<Result<Job>>;
  pauseJob(chatId: string, id: string): Promise<Result<Job>>;
  resumeJob(chatId: string, id: string): Promise<Result<Job>>;
  runJobNow(chatId: string, id: string): Promise<Result<Job>>;
  getSettings(chatId: string): Promise<Result<{ timeZone: string; isDefault: boolean }>>;
  setTimeZone(chatId: string, zone: string | null): Promise<Result<{ message: string }>>;
}

export type CommandContext = { chatId: string; agent: string; runner: string; blocked: boolean };

const text = <T>(r: Result<T>, ok: (value: T) => string): string => (r.ok ? ok(r.value) : r.error.message);

/** The reply to a command, as Markdown. */
export async function runCommand(host: CommandHost, cmd: Command, ctx: CommandContext): Promise<string> {
  const { chatId } = ctx;
  const now = Date.now();
  switch (cmd.name) {
    case "start":
    case "help":
      return helpText();
    case "jobs":
      return text(await host.listJobs(chatId, {}), (l) => jobList(l.jobs, l.timeZone, Date.parse(l.now)));
    case "cancel":
    case "run":
    case "pause":
    case "resume": {
      const id = cmd.args.split(/\s+/)[0] ?? "";
      if (id === "") return usageText(cmd.name);
      if (cmd.name === "cancel") return text(await host.cancelJob(chatId, id), cancelledText);
      if (cmd.name === "pause") return text(await host.pauseJob(chatId, id), pausedText);
      if (cmd.name === "run") return text(await host.runJobNow(chatId, id), runningNowText);
      const zone = await host.getSettings(chatId);
      return text(await host.resumeJob(chatId, id), (job) => resumedText(job, zone.ok ? zone.value.timeZone : "UTC", now));
    }
    case "timezone": {
      const arg = cmd.args.trim();
      if (arg === "") {
        return text(await host.getSettings(chatId), (s) => timezoneShowText(s.timeZone, formatOffset(s.timeZone, now), s.isDefault));
      }
      return text(await host.setTimeZone(chatId, arg.toLowerCase() === "reset" ? null : arg), (z) => z.message);
    }
    case "status": {
      const [list, settings] = await Promise.all([host.listJobs(chatId, {}), host.getSettings(chatId)]);
      if (!list.ok) return list.error.message;
      if (!settings.ok) return settings.error.message;
      const zone = settings.value.timeZone;
      return statusText({
        jobs: list.value.jobs.length,
        zone,
        offset: formatOffset(zone, now),
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
      const created = await host.createJob(chatId, { name: parsed.name, kind: "prompt", text: parsed.text, ...parsed.when }, "user");
      if (!created.ok) return created.error.message;
      const zone = await host.getSettings(chatId);
      return `Created ${jobLine(created.value, zone.ok ? zone.value.timeZone : "UTC", now)}`;
    }
  }
}
