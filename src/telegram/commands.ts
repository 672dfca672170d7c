/**
 * @module The chat commands (docs/telegram.md) as pure functions: recognising a command (`/cmd` or `/cmd@botname`),
 * who may send it and whether it makes a job (as its row in `menu.ts` says), the usage sentences, `/help` (with
 * examples computed from the chat's now), `/timezone` alone and `/status`. Executing them against a chat's jobs
 * is `execute.ts`; `/remind` and `/every` are `schedule.ts`.
 */
import { formatLocalDay } from "../time";
import { COMMAND_HELP, COMMANDS, type CommandName, isCommandName, type JobMaker } from "./menu";

export { COMMAND_HELP, type CommandName };

export const NON_TEXT_REPLY = "I can only read text messages.";

/**
 * `/help` and `/start`: the menu's commands, one line each, the scheduling ones with examples that work now (the
 * dated one a week ahead in the chat's zone). Without a model, the last line says that a reminder written in words
 * is offered as one.
 */
export function helpText(now: number, zone: string, agent: string): string {
  const weekAhead = formatLocalDay(now + 7 * 86_400_000, zone);
  const line = (name: CommandName, does: string): string => {
    const { example, helpExample } = COMMANDS[name];
    const shown = typeof helpExample === "function" ? helpExample(weekAhead) : (helpExample ?? example);
    return `/${name}: ${shown === undefined ? does : `${does}: ${shown}`}`;
  };
  const last =
    agent === "echo"
      ? 'No model is configured: a message such as "remind me tomorrow at 9 to call mum" is offered as a reminder.'
      : "Anything else you write goes to the agent.";
  return ["**Commands**", ...COMMAND_HELP.map((c) => line(c.command, COMMANDS[c.command].does!)), "", last].join("\n");
}

/** A command as sent: its name (of those `N`), and the rest of the message. */
export type Command<N extends CommandName = CommandName> = { name: N; args: string };

/**
 * The command in a message, or null when it is not one of ours (then the text is a prompt for the agent).
 * `/cmd@botname` is the same as `/cmd`; a command addressed to another bot is not ours.
 */
export function parseCommand(text: string, botUsername: string | null = null): Command | null {
  const m = /^\/([A-Za-z_]+)(?:@([A-Za-z0-9_]+))?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  if (m[2] !== undefined && botUsername !== null && m[2].toLowerCase() !== botUsername.toLowerCase()) return null;
  if (!isCommandName(name)) return null;
  return { name, args: (m[3] ?? "").trim() };
}

/**
 * Whether a command only reads, so that anyone in a group may send it (docs/telegram.md): its row says `always`, or
 * `alone` and it has no arguments. Every other command changes something and is for the group's admins, a command
 * added later included, until its row says otherwise.
 */
export function onlyReads(command: Command): boolean {
  const { reads } = COMMANDS[command.name];
  return reads === "always" || (reads === "alone" && command.args === "");
}

/** Whether a command makes a job (`/remind`, `/every`): its message is then the job's. */
export function makesJob(command: Command): command is Command<JobMaker> {
  return COMMANDS[command.name].makesJob === true;
}

/** `Usage: /cancel <id> (see /jobs).` and its siblings. */
export const usageText = (name: "cancel" | "run" | "pause" | "resume" | "skip") => `Usage: /${name} <id> (see /jobs).`;

/** `/edit` without what to change. */
export const EDIT_USAGE = "Usage: /edit <id> <when> or /edit <id> text <new text> (see /jobs); as a reply to a job's message, /edit <when>.";

/** `/timezone` alone: `Time zone: Europe/Berlin (UTC+02:00, default). Change it with …` */
export function timezoneShowText(zone: string, offset: string, isDefault: boolean): string {
  return `Time zone: ${zone} (${offset}${isDefault ? ", default" : ""}). Change it with /timezone <IANA name>, e.g. /timezone America/New_York.`;
}

/** `/status`: the job count, the zone, the agent mode and the runner. */
export function statusText(s: { jobs: number; zone: string; offset: string; isDefault: boolean; agent: string; runner: string; blocked: boolean }): string {
  const lines = [
    `**Jobs:** ${s.jobs}`,
    `**Time zone:** ${s.zone} (${s.offset}${s.isDefault ? ", default" : ""})`,
    `**Agent:** ${s.agent}`,
    `**Runner:** ${s.runner === "off" ? "not configured" : s.runner}`,
  ];
  // Only ever read in the reply to the message that lifts the block (a blocked chat is sent nothing).
  if (s.blocked) lines.push("**Delivery:** was blocked until this message (the bot could not reach this chat)");
  return lines.join("\n");
}
