/**
 * @module The chat commands (DESIGN §6) as pure functions: recognising a command (`/cmd` or `/cmd@botname`),
 * parsing `/remind` and `/every`, and the fixed texts. Executing them against a chat's jobs is the Durable
 * Object's part (src/chat/commands.ts).
 */

export const COMMANDS = ["start", "help", "jobs", "cancel", "run", "pause", "resume", "timezone", "status", "remind", "every"] as const;
export type CommandName = (typeof COMMANDS)[number];

/** The bot's menu and `/help`: one line each (also what `npm run telegram:setup` registers). */
export const COMMAND_HELP: readonly { command: CommandName; description: string }[] = [
  { command: "jobs", description: "list this chat's scheduled jobs" },
  { command: "remind", description: "a one-off prompt: /remind 2026-12-01T09:00 Call the dentist (or 20m, 2h, 1d)" },
  { command: "every", description: 'a recurring prompt: /every "0 8 * * 1-5" Summarise my inbox' },
  { command: "run", description: "run a job now: /run <id>" },
  { command: "pause", description: "pause a job: /pause <id>" },
  { command: "resume", description: "resume a paused job: /resume <id>" },
  { command: "cancel", description: "cancel a job: /cancel <id>" },
  { command: "timezone", description: "show or set this chat's time zone: /timezone Europe/Berlin, /timezone reset" },
  { command: "status", description: "jobs, time zone, agent and runner" },
  { command: "help", description: "these commands" },
];

export const NON_TEXT_REPLY = "I can only read text messages.";

/** `/help` and `/start`. */
export function helpText(): string {
  return ["**Commands**", ...COMMAND_HELP.map((c) => `/${c.command}: ${c.description}`), "", "Anything else you write goes to the agent."].join("\n");
}

export type Command = { name: CommandName; args: string };

/**
 * The command in a message, or null when it is not one of ours (then the text is a prompt for the agent).
 * `/cmd@botname` is the same as `/cmd`; a command addressed to another bot is not ours.
 */
export function parseCommand(text: string, botUsername: string | null = null): Command | null {
  const m = /^\/([A-Za-z_]+)(?:@([A-Za-z0-9_]+))?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  if (m[2] !== undefined && botUsername !== null && m[2].toLowerCase() !== botUsername.toLowerCase()) return null;
  if (!(COMMANDS as readonly string[]).includes(name)) return null;
  return { name: name as CommandName, args: (m[3] ?? "").trim() };
}

/** `Usage: /cancel <id> (see /jobs).` and its siblings. */
export const usageText = (name: "cancel" | "run" | "pause" | "resume") => `Usage: /${name} <id> (see /jobs).`;

export const REMIND_USAGE = "Usage: /remind <when> <text>, where <when> is a date and time such as 2026-12-01T09:00 or a delay such as 20m, 2h or 1d.";
export const EVERY_USAGE = 'Usage: /every "<cron>" <text>, such as /every "0 8 * * 1-5" Summarise my inbox, or a macro: /every @daily Water the plants.';

/** The job a `/remind` or `/every` creates: the text as the prompt, the name the text cut to 80 characters. */
export type ScheduleCommand = { when: { at: string } | { delay: string } | { cron: string }; text: string; name: string };

function nameOf(text: string): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= 80 ? chars.join("") : `${chars.slice(0, 79).join("")}…`;
}

/** `20m`, `2h`, `1d`, `1w` (and ISO `PT20M`) → an ISO 8601 duration; null when it is not a delay. */
export function shortDelay(token: string): string | null {
  if (/^P/i.test(token)) return token.toUpperCase();
  const m = /^(\d{1,6})([mhdw])$/i.exec(token);
  if (!m) return null;
  const n = m[1]!;
  switch (m[2]!.toLowerCase()) {
    case "m":
      return `PT${n}M`;
    case "h":
      return `PT${n}H`;
    case "d":
      return `P${n}D`;
    default:
      return `P${n}W`;
  }
}

/** `/remind <when> <text>`: `<when>` is an `at` without spaces or a delay. */
export function parseRemind(args: string): ScheduleCommand | { error: string } {
  const m = /^(\S+)\s+([\s\S]+)$/.exec(args.trim());
  if (!m) return { error: REMIND_USAGE };
  const [, when, text] = m as unknown as [string, string, string];
  const delay = shortDelay(when);
  return { when: delay !== null ? { delay } : { at: when }, text: text.trim(), name: nameOf(text) };
}

/** `/every "<cron>" <text>` or `/every @macro <text>` (straight or curly quotes). */
export function parseEvery(args: string): ScheduleCommand | { error: string } {
  const text = args.trim();
  const quoted = /^["“”']([^"“”']+)["“”']\s+([\s\S]+)$/.exec(text);
  if (quoted) return { when: { cron: quoted[1]!.trim() }, text: quoted[2]!.trim(), name: nameOf(quoted[2]!) };
  const macro = /^(@[A-Za-z]+)\s+([\s\S]+)$/.exec(text);
  if (macro) return { when: { cron: macro[1]! }, text: macro[2]!.trim(), name: nameOf(macro[2]!) };
  return { error: EVERY_USAGE };
}

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
