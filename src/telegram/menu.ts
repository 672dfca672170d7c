/**
 * @module The bot's commands (docs/telegram.md), each declared once: whether the menu Telegram shows on `/` and
 * `/help` list it (what it does and how it is written are in each language's replies' table), who in a group may
 * send it, whether it makes a job, and what runs it. The menu, `/help`, the reads-only rule (`onlyReads`) and the
 * dispatch (`runCommand`) derive from this table; and where the Scheduler Mini App is (issue 18). Dependency-free:
 * `npm run telegram:setup` (scripts/telegram-setup.mjs) imports this file and the tables straight from Node to set
 * the menu in each language and the menu button, so a row names what runs it and `execute.ts` holds the handlers
 * by that name.
 */

/** One command. */
type Row = Readonly<{
  /** Shown in the menu and in `/help` (what it does and its examples are in the replies' tables, `help`); false: in neither (`/start`, which Telegram sends when a chat opens the bot). */
  listed: boolean;
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
 * (a new one if none fits; the compiler asks for it), what it does in each table of src/texts/ (`help.does`, and
 * its examples in `help.menu`), and its section in docs/telegram.md.
 */
const TABLE = {
  jobs: { listed: true, reads: "always", run: "jobs" },
  remind: { listed: true, makesJob: true, run: "remind" },
  every: { listed: true, makesJob: true, run: "every" },
  edit: { listed: true, run: "edit" },
  skip: { listed: true, run: "skip" },
  run: { listed: true, run: "jobAction" },
  pause: { listed: true, run: "jobAction" },
  resume: { listed: true, run: "jobAction" },
  cancel: { listed: true, run: "jobAction" },
  hook: { listed: true, reads: "alone", run: "hook" },
  calendar: { listed: true, run: "calendar" },
  model: { listed: true, reads: "alone", run: "model" },
  agenda: { listed: true, reads: "alone", run: "agenda" },
  quiet: { listed: true, reads: "alone", run: "quiet" },
  timezone: { listed: true, reads: "alone", run: "timezone" },
  language: { listed: true, reads: "alone", run: "language" },
  status: { listed: true, reads: "always", run: "status" },
  help: { listed: true, reads: "always", run: "help" },
  start: { listed: false, reads: "always", run: "help" },
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

/** The commands the menu and `/help` show, in the table's order. */
export type ListedCommand = { [K in CommandName]: (typeof TABLE)[K]["listed"] extends true ? K : never }[CommandName];
export const LISTED: readonly ListedCommand[] = (Object.keys(TABLE) as CommandName[]).filter((c): c is ListedCommand => TABLE[c].listed);

/** What the menu and `/help` say of each command, as each replies' table (src/texts/) has it. */
export type CommandWords = {
  readonly does: Readonly<Record<ListedCommand, string>>;
  readonly menu: Readonly<Partial<Record<ListedCommand, string>>>;
};

/** The menu (`setMyCommands`) in a table's language, one line each: what a command does, and how it is written. */
export function commandMenu(words: CommandWords): { command: ListedCommand; description: string }[] {
  return LISTED.map((command) => {
    const example = words.menu[command];
    return { command, description: example === undefined ? words.does[command] : `${words.does[command]}: ${example}` };
  });
}

/** The menu button's label (next to the message field) that opens the Scheduler Mini App. */
export const MENU_BUTTON = "Scheduler";

/**
 * The Mini App's URL, `${PUBLIC_URL}/app`, when PUBLIC_URL is an https URL; else null: Telegram opens Mini Apps
 * (menu button, `web_app` buttons) only over https.
 */
export function miniAppUrl(publicUrl: string | null | undefined): string | null {
  if (!publicUrl || !/^https:\/\/[^/]/i.test(publicUrl)) return null;
  return `${publicUrl.replace(/\/+$/, "")}/app`;
}
