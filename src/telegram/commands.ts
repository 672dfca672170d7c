/**
 * @module The chat commands (docs/telegram.md) as pure functions: recognising a command (`/cmd` or `/cmd@botname`),
 * who may send it and whether it makes a job (as its row in `menu.ts` says), the usage sentences, `/help` (with
 * examples computed from the chat's now), `/timezone` alone and `/status`. Executing them against a chat's jobs
 * is `execute.ts`; `/remind` and `/every` are `schedule.ts`.
 */
import type { Texts } from "../texts";
import { formatLocalDay } from "../time";
import { COMMANDS, type CommandName, isCommandName, type JobMaker, LISTED, type ListedCommand } from "./menu";

export type { CommandName };

/**
 * `/help` and `/start` in the chat's language: the menu's commands, one line each, the scheduling ones with
 * examples that work now (the dated one a week ahead in the chat's zone). Without a model, the last line says that
 * a reminder written in words is offered as one.
 */
export function helpText(t: Texts["help"], now: number, zone: string, agent: string): string {
  const weekAhead = formatLocalDay(now + 7 * 86_400_000, zone);
  const examples: Partial<Record<ListedCommand, string>> = { ...t.menu, ...t.examples, remind: t.examples.remind(weekAhead) };
  const line = (name: ListedCommand): string => {
    const shown = examples[name];
    return `/${name}: ${shown === undefined ? t.does[name] : `${t.does[name]}: ${shown}`}`;
  };
  return [`**${t.title}**`, ...LISTED.map(line), "", agent === "echo" ? t.noModel : t.agent].join("\n");
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

/** `/status` in the chat's language: the job count, the zone, the agent mode and the runner. */
export function statusText(
  t: Texts["status"],
  s: { jobs: number; zone: string; offset: string; isDefault: boolean; agent: string; runner: string; blocked: boolean },
): string {
  const lines = [
    `**${t.jobs}:** ${s.jobs}`,
    `**${t.zone}:** ${s.zone} (${s.offset}${s.isDefault ? `, ${t.default}` : ""})`,
    `**${t.agent}:** ${s.agent}`,
    `**${t.runner}:** ${s.runner === "off" ? t.notConfigured : s.runner}`,
  ];
  // Only ever read in the reply to the message that lifts the block (a blocked chat is sent nothing).
  if (s.blocked) lines.push(t.blocked);
  return lines.join("\n");
}
