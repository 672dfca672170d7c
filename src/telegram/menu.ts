/**
 * @module The bot's commands and the menu Telegram shows on `/` (docs/telegram.md), one line each, and where the
 * Scheduler Mini App is (issue 18). Dependency-free: `npm run telegram:setup` (scripts/telegram-setup.mjs)
 * imports this file straight from Node to set the menu and the menu button.
 */

export const COMMANDS = [
  "start",
  "help",
  "jobs",
  "cancel",
  "run",
  "pause",
  "resume",
  "timezone",
  "status",
  "remind",
  "every",
  "edit",
  "skip",
  "quiet",
] as const;
export type CommandName = (typeof COMMANDS)[number];

/** The menu, one line each. `/help` shows the same commands, with examples computed from the chat's now. */
export const COMMAND_HELP: readonly { command: CommandName; description: string }[] = [
  { command: "jobs", description: "list this chat's scheduled jobs" },
  { command: "remind", description: "a one-off prompt: /remind tomorrow 9:00 call mum, /remind 20m stretch" },
  { command: "every", description: "a recurring prompt: /every weekdays at 8:30 summarise my inbox" },
  { command: "edit", description: "change a job's time or text: /edit <id> tomorrow 10:00, /edit <id> text call dad" },
  { command: "skip", description: "skip a recurring job's next run: /skip <id>" },
  { command: "run", description: "run a job now: /run <id>" },
  { command: "pause", description: "pause a job: /pause <id>" },
  { command: "resume", description: "resume a paused job: /resume <id>" },
  { command: "cancel", description: "cancel a job: /cancel <id>" },
  { command: "quiet", description: "hours when messages arrive without a sound: /quiet 22:00-07:00, /quiet off" },
  { command: "timezone", description: "show or set this chat's time zone: /timezone Berlin, /timezone reset" },
  { command: "status", description: "jobs, time zone, agent and runner" },
  { command: "help", description: "these commands" },
];

/** The menu button's label (next to the message field) that opens the Scheduler Mini App. */
export const MENU_BUTTON = "Scheduler";
/** The label of the inline button under /jobs that opens the Scheduler Mini App. */
export const SCHEDULER_BUTTON = "Open scheduler";

/**
 * The Mini App's URL, `${PUBLIC_URL}/app`, when PUBLIC_URL is an https URL; else null: Telegram opens Mini Apps
 * (menu button, `web_app` buttons) only over https.
 */
export function miniAppUrl(publicUrl: string | null | undefined): string | null {
  if (!publicUrl || !/^https:\/\/[^/]/i.test(publicUrl)) return null;
  return `${publicUrl.replace(/\/+$/, "")}/app`;
}
