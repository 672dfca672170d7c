/**
 * @module The bot's commands (docs/telegram.md), each declared once: what it does and how it is written (the menu
 * Telegram shows on `/`, and `/help`), who in a group may send it, whether it makes a job, and what runs it. The
 * menu, `/help`, the reads-only rule (`onlyReads`) and the dispatch (`runCommand`) derive from this table; and
 * where the Scheduler Mini App is (issue 18). Dependency-free: `npm run telegram:setup` (scripts/telegram-setup.mjs)
 * imports this file straight from Node to set the menu and the menu button, so a row names what runs it and
 * `execute.ts` holds the handlers by that name.
 */

/** One command. */
type Row = Readonly<{
  /** What it does, in the menu and in `/help`; none: in neither (`/start`, which Telegram sends when a chat opens the bot). */
  does?: string;
  /** How it is written, after what it does in the menu (and in `/help` unless `helpExample`): `/pause <id>`. */
  example?: string;
  /** `/help`'s examples where they differ from the menu's, given the date a week ahead in the chat's zone. */
  helpExample?: string | ((weekAhead: string) => string);
  /**
   * Who in a group may send it (docs/telegram.md#groups-and-topics): `always` anyone, it only reads; `alone` anyone
   * when it has no arguments (it shows), its admins otherwise (it sets). None: the group's admins, since it changes
   * something; so a command added without this field is refused to members until it says otherwise.
   */
  reads?: "always" | "alone";
  /** It makes a job, whose message it then is: editing the message changes the job (docs/telegram.md#replies-and-edited-messages). */
  makesJob?: true;
  /** What runs it: the handler of that name in `execute.ts` (commands that differ only in their name share one). */
  run: string;
}>;

/**
 * The commands, in the menu's order. Adding a command: a row here, with `run` naming a handler of `execute.ts`
 * (a new one if none fits; the compiler asks for it), and its section in docs/telegram.md.
 */
const TABLE = {
  jobs: { does: "list this chat's scheduled jobs", reads: "always", run: "jobs" },
  remind: {
    does: "a one-off prompt",
    example: "/remind tomorrow 9:00 call mum, /remind 20m stretch",
    helpExample: (weekAhead) => `/remind 20m stretch, /remind tomorrow 9:00 call mum, /remind ${weekAhead} 14:30 dentist, /remind monday 9am standup`,
    makesJob: true,
    run: "remind",
  },
  every: {
    does: "a recurring prompt",
    example: "/every weekdays at 8:30 summarise my inbox",
    helpExample: '/every day at 8:00 summarise the news, /every weekdays at 8:30 check my inbox, /every 15 minutes stretch, /every "0 8 * * 1-5" plan the day',
    makesJob: true,
    run: "every",
  },
  edit: {
    does: "change a job's time, text or end",
    example: "/edit <id> tomorrow 10:00, /edit <id> text call dad",
    helpExample: "/edit <id> tomorrow 10:00, /edit <id> text call dad, /edit <id> until March; as a reply to a job's message: /edit 2h",
    run: "edit",
  },
  skip: { does: "skip a recurring job's next run", example: "/skip <id>", helpExample: "/skip <id>, or /skip as a reply to its message", run: "skip" },
  run: { does: "run a job now", example: "/run <id>", run: "jobAction" },
  pause: { does: "pause a job", example: "/pause <id>", run: "jobAction" },
  resume: { does: "resume a paused job", example: "/resume <id>", run: "jobAction" },
  cancel: { does: "cancel a job", example: "/cancel <id>", run: "jobAction" },
  quiet: { does: "hours when messages arrive without a sound", example: "/quiet 22:00-07:00, /quiet off", reads: "alone", run: "quiet" },
  timezone: {
    does: "show or set this chat's time zone",
    example: "/timezone Berlin, /timezone reset",
    helpExample: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    reads: "alone",
    run: "timezone",
  },
  language: {
    does: "show or set the language I answer in",
    example: "/language de, /language auto",
    reads: "alone",
    run: "language",
  },
  status: { does: "jobs, time zone, agent and runner", reads: "always", run: "status" },
  help: { does: "these commands", reads: "always", run: "help" },
  start: { reads: "always", run: "help" },
} as const satisfies Record<string, Row>;

export type CommandName = keyof typeof TABLE;
/** The commands' rows, by name. */
export const COMMANDS: Readonly<Record<CommandName, Row>> = TABLE;
/** The names of `execute.ts`'s handlers. */
export type RunName = (typeof TABLE)[CommandName]["run"];
/** The commands run by handler `R` (the commands its handler is given). */
export type RunBy<R extends RunName> = { [K in CommandName]: (typeof TABLE)[K]["run"] extends R ? K : never }[CommandName];
/** The commands that make a job. */
export type JobMaker = { [K in CommandName]: (typeof TABLE)[K] extends { makesJob: true } ? K : never }[CommandName];

/** Whether `name` (lower case) is one of the bot's commands. */
export const isCommandName = (name: string): name is CommandName => Object.hasOwn(TABLE, name);
/** The handler that runs a command. */
export const runOf = (name: CommandName): RunName => TABLE[name].run;

/** The menu (`setMyCommands`), one line each: the commands that say what they do, in the table's order. */
export const COMMAND_HELP: readonly { command: CommandName; description: string }[] = (Object.keys(TABLE) as CommandName[]).flatMap((command) => {
  const { does, example } = COMMANDS[command];
  return does === undefined ? [] : [{ command, description: example === undefined ? does : `${does}: ${example}` }];
});

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
