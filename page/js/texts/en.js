// @ts-check
/**
 * @module The page's words in English, loaded with the page: the shape every other table of this folder follows
 * key for key (`Texts`). Sentences with values are functions. A string with `backticks` is shown with those parts
 * as code (the hints of index.html). What the API says (its errors, the zone dialog's result, the transcript) is
 * the API's, never here.
 */

export default {
  // index.html, by its `data-t` keys.
  pageTitle: "Scheduler · Cuckoo",
  scheduler: "Scheduler",
  signOut: "Sign out",
  loading: "Loading…",
  signIn: "Sign in",
  signInAbout: "Enter the admin token (the `ADMIN_TOKEN` secret). The page keeps a signed session for 12 hours, never the token.",
  adminToken: "Admin token",
  jobs: "Jobs",
  chat: "Chat",
  chatId: "Chat id",
  open: "Open",
  changeZone: "Change zone",
  changeQuiet: "Change quiet hours",
  changeAgenda: "Change daily agenda",
  searchJobs: "Search jobs",
  create: "Create",
  category: "Category",
  all: "All",
  oneTime: "One-time",
  recurring: "Recurring",
  monitoring: "Monitoring",
  triggered: "Triggered",
  emptyTitle: "Nothing scheduled yet",
  emptyIntro:
    "A job wakes the chat's agent at a time you choose: once, on a schedule, or when a watcher script finds something. Start from scratch or from one of these.",
  createJob: "Create job",
  suggestionsLabel: "Suggestions",
  conversation: "Conversation",
  transcriptAbout: "Transcript mode: no bot token, so the chat lives here. Write as the chat's user.",
  transcript: "Transcript",
  message: "Message",
  send: "Send",
  telegramChatId: "Telegram chat id",
  name: "Name",
  kind: "Kind",
  prompt: "Prompt",
  watcher: "Watcher",
  timeout: "Timeout in seconds",
  schedule: "Schedule",
  scheduleHint:
    "Words as you would tell the bot (`tomorrow 9am`, `every other tuesday at 10`, `jeden Tag um 8`), a cron expression (`0 8 * * 1-5`), a date and time (`2026-12-01 09:00`), a delay (`in 20 minutes`, `20m`) or a rule (`RRULE:FREQ=DAILY;INTERVAL=3`), in the chat's time zone.",
  nextRuns: "Next runs",
  cancel: "Cancel",
  save: "Save",
  history: "History",
  close: "Close",
  zoneTitle: "Change the time zone",
  timeZone: "Time zone",
  zoneHint:
    "A city or country (`Berlin`), or an IANA name such as `Europe/Berlin`; empty for the default zone. Recurring jobs follow the zone; one-off jobs keep their instant.",
  saveZone: "Save zone",
  quietHours: "Quiet hours",
  from: "From",
  to: "To",
  turnOff: "Turn off",
  saveQuiet: "Save quiet hours",
  dailyAgenda: "Daily agenda",
  agendaTime: "Time of day",
  saveAgenda: "Save agenda",
  calendarFeed: "Calendar feed",
  makeCalendar: "Make calendar feed",
  replaceAddress: "Replace address",
  calendarUrl: "Feed address",
  copyCalendarUrl: "Copy the feed address",
  calendarHint:
    "Subscribe to it in your calendar: Google Calendar, Other calendars → From URL; Apple Calendar, File → New Calendar Subscription; Outlook, Add calendar → Subscribe from web.",
  calendarSecret: "Shown once: whoever has this address sees the chat's jobs. Keep it secret.",
  keepIt: "Keep it",
  delete: "Delete",
  hookOnly: "Run only when its hook is called",
  hookOnlyHint: "No schedule: the job runs each time its hook, a secret URL, is called. A new job gets its hook when saved, its URL shown once.",
  hookAbout: "A hook is a secret URL that runs the job: POST JSON or text to it, and the body is the run's input.",
  hookUrl: "URL",
  hookEmail: "Email address",
  copy: "Copy",
  copyUrl: "Copy the URL",
  copyEmail: "Copy the email address",
  shownOnce: "Shown once: whoever has this address can run the job. Keep it secret.",
  revoke: "Revoke",
  model: "Model",
  missedLabel: "If a run is missed",
  missedOnce: "Run it once, late",
  missedSkip: "Skip it",
  missedAll: "Run each one, in order (at most 10)",
  missedAsk: "Ask in the chat: Run now or Skip",
  missedHint: "A run is missed when the bot was offline at its time and gets to it later than the grace below.",
  grace: "Grace",
  graceHint: "How late a run may still start as usual; later, it counts as missed.",
  beforeLabel: "Notices ahead",
  beforeHint: "Before each run, a short notice with Skip this one, and no agent turn: up to 3, each shorter than the time between runs.",
  repeatLabel: "Nag until done",
  repeatTimes: "Times (1–20)",
  repeatHint: "The run's message is sent again, marked and with its buttons, up to this many more times, until someone presses one.",

  // The list and its states (main.js, jobs.js).
  tryAgain: "Try again",
  loadingJobs: "Loading jobs…",
  zoneLine: (/** @type {string} */ zone) => `Time zone: ${zone}`,
  jobsNotLoaded: (/** @type {string} */ why) => `The jobs could not be loaded: ${why}`,
  /** No job listed for the search `q` ("" for none) in `category` (a filter's value, "" for all). */
  noJobs: (/** @type {string} */ q, /** @type {"" | "one-time" | "recurring" | "monitoring" | "triggered"} */ category) =>
    `${q !== "" ? `No jobs match “${q}”` : "No jobs"}${category ? ` in ${category}` : ""}.`,
  showAllJobs: "Show all jobs",
  deleteTitle: (/** @type {string} */ name) => `Delete “${name}”?`,
  deleteText: "The job and its history go; a run in progress is not stopped.",
  notAChat: (/** @type {string} */ shown) => `The address names “${shown}”, which is not a chat id such as 123456789 or -1001234567890; choose a chat above.`,
  chatsNotLoaded: (/** @type {string} */ why) => `The chats could not be loaded: ${why}`,
  readOnly: "Read only: the group's admins change its jobs",
  sessionEnded: "The session ended and could not be renewed; close the scheduler and open it again from the bot.",
  openDevMode: "Open dev mode",
  cannotStart: (/** @type {string} */ why) => `The Scheduler cannot start: ${why}`,
  /** A button's accessible name: what it does to which job or card. */
  named: (/** @type {string} */ verb, /** @type {string} */ name) => `${verb}: ${name}`,
  cron: (/** @type {string} */ expression) => `Cron ${expression}`,
  rule: (/** @type {string} */ rrule) => `Rule ${rrule}`,
  running: "Running",
  paused: "Paused",
  lastSkipped: "skipped (try next time)",
  lastHeld: "held (over the day's wake-up budget)",
  lastRun: (/** @type {string} */ status, /** @type {string} */ when) => `Last run ${status}, ${when}`,
  notRunYet: "Not run yet",
  noNextRun: "No next run",
  noneWhilePaused: "Next run: none while paused",
  nextRun: (/** @type {string} */ at, /** @type {string} */ distance) => `Next run: ${at} (${distance})`,
  postsInTopic: (/** @type {number} */ id) => `Posts in topic ${id}`,
  runNow: "Run now",
  pause: "Pause",
  resume: "Resume",
  edit: "Edit",
  hook: "Hook",
  hasHook: "Has a hook",
  whenHookCalled: "When its hook is called",
  noHookToRun: "No hook: nothing runs it until one is made",
  /** A job's own model, and what a run missed while the bot was offline does (shown when not `once`). */
  pinnedModel: (/** @type {string} */ model) => `model ${model}`,
  ifMissed: (/** @type {string} */ how) => `if missed: ${how}`,
  missedShort: { once: "run once", skip: "skip", all: "run each", ask: "ask" },
  /** A job's notices ahead (`list`: their spans, longest first) and how its run's message nags (docs/telegram.md#nag-until-done). */
  notices: (/** @type {string} */ list) => `notices: ${list}`,
  nags: (/** @type {string} */ span, /** @type {number} */ n) => `nags every ${span} ×${n}`,
  /** A run's or a last result's status, as the API names it. */
  statuses: {
    delivered: "delivered",
    silent: "silent",
    matched: "matched",
    failed: "failed",
    skipped: "skipped",
    transient: "transient",
    over_budget: "over_budget",
  },

  // The chat picker (chats.js).
  jobCount: (/** @type {number} */ n) => (n === 1 ? "1 job" : `${n} jobs`),
  blocked: "blocked",
  noJobsYet: "no jobs yet",
  chooseChat: "Choose a chat",
  badChatId: "A chat id is a decimal Telegram id, such as 123456789 or -1001234567890.",

  // The job dialog (dialog.js).
  createTitle: "Create a job",
  editTitle: (/** @type {string} */ name) => `Edit “${name}”`,
  inChat: (/** @type {string} */ chatId, /** @type {string} */ zone) => `In chat ${chatId}, times in ${zone}.`,
  timesIn: (/** @type {string} */ zone) => `Times in ${zone}.`,
  command: "Command",
  /** The Model field's first choice: the chat's own (the one its turns run on, when there is one). */
  chatModel: (/** @type {string | null} */ effective) => (effective ? `Chat's model (${effective})` : "Chat's model"),
  /** The Grace field's choices, by their ISO 8601 durations. */
  graceChoices: { PT0S: "none (0 s)", PT1M: "1 min", PT5M: "5 min", PT15M: "15 min", PT1H: "1 h", PT6H: "6 h", P1D: "1 day" },
  /** The Nag until done field's choices: none, and every so often (`span`: `10 min`). */
  repeatOff: "Off (sent once)",
  repeatEvery: (/** @type {string} */ span) => `every ${span}`,
  typeSchedule: "Type a schedule to see when it runs.",
  understood: (/** @type {string} */ said, /** @type {string} */ next, /** @type {boolean} */ more) => `${said} · next: ${next}${more ? "…" : ""}`,
  noPreview: "No preview until the schedule reads right.",
  giveChatId: "Give the chat's decimal Telegram id, such as 123456789.",
  scheduleRequired:
    "A schedule is required: words such as every weekday at 8:30, a cron expression such as 0 8 * * 1-5, a date and time such as 2026-12-01 09:00, or a delay such as 20m.",

  // The Hook dialog (hook.js).
  hookTitle: (/** @type {string} */ name) => `Hook of “${name}”`,
  hookYes: "This job has a hook. A new one replaces it: the old URL stops working.",
  hookNo: "This job has no hook.",
  makeHook: "Make hook",
  replaceHook: "Replace hook",
  copied: "Copied.",
  copyFailed: "The clipboard is not available here: the text is selected, copy it yourself.",

  // The history dialog (history.js).
  historyOf: (/** @type {string} */ name) => `History of “${name}”`,
  loadingRuns: "Loading runs…",
  runs: "Runs",
  noRuns: "No runs yet.",
  settled: "settled",
  inFlight: "in flight",
  runByHand: "run by hand",
  late: "late",
  timedOut: "timed out",
  exit: (/** @type {number} */ code) => `exit ${code}`,

  // Quiet hours (quiet.js).
  quietLine: (/** @type {string} */ hours) => `Quiet hours: ${hours}`,
  quietOff: "off",
  quietAbout: (/** @type {string} */ zone) =>
    `Messages sent inside them arrive without a notification sound; nothing is held back or delayed. The times are in the chat's time zone, ${zone}; an end before the start runs across midnight.`,

  // The daily agenda (agenda.js).
  agendaLine: (/** @type {string} */ at) => `Daily agenda: ${at}`,
  agendaOff: "off",
  agendaAbout: (/** @type {string} */ zone) =>
    `At this time, in the chat's time zone, ${zone}, the bot sends one message listing the rest of the day's runs; nothing on a day without any.`,

  // The calendar feed (calendar.js).
  calendarLine: (/** @type {string} */ state) => `Calendar feed: ${state}`,
  calendarOn: "on",
  calendarOff: "off",
  calendarReplaceTitle: "Replace the calendar address?",
  calendarReplaceText: "The address in use stops working at once: calendars subscribed to it stop updating until they are given the new one.",
  calendarOffTitle: "Turn off the calendar feed?",
  calendarOffText: "Its address stops working at once: calendars subscribed to it stop updating.",

  // The zone (zone.js).
  zoneOffset: (/** @type {string} */ place) => `“${place}” is an offset; these zones are on it now. Choose yours:`,
  zoneSeveral: (/** @type {string} */ place) => `“${place}” has more than one time zone. Choose yours:`,
  deviceZone: (/** @type {string} */ device, /** @type {string} */ zone) => `This device is on ${device}; the chat's times are in ${zone}.`,
  useZone: (/** @type {string} */ zone) => `Use ${zone}`,

  // The chat panel (chat-panel.js): who wrote each entry.
  who: { user: "You", bot: "Bot", prompt: "Prompt to the agent", tool: "Tool call" },
  buttons: "Buttons",
  noMessages: "No messages yet.",

  // The empty state's cards (suggestions.js): each schedule a phrase the Schedule field reads in this language.
  use: "Use",
  suggestions: [
    {
      title: "Weekday inbox summary",
      schedule: "every weekday at 08:00",
      text: "Summarise what came in overnight and what needs an answer today.",
    },
    { title: "Remind me in 20 minutes", schedule: "in 20 minutes", text: "Remind me to take the laundry out." },
    { title: "Friday week review", schedule: "every Friday at 17:00", text: "Ask me what went well this week and what to carry into the next." },
  ],

  // Times (time.js): how far from now, and what is left of a job that ends.
  underAMinute: "in under a minute",
  justNow: "just now",
  ahead: (/** @type {string} */ span) => `in ${span}`,
  ago: (/** @type {string} */ span) => `${span} ago`,
  minutes: (/** @type {number} */ n) => `${n} min`,
  hours: (/** @type {number} */ n) => `${n} h`,
  days: (/** @type {number} */ n) => `${n} d`,
  /** A duration's days and weeks, as notices and nags say them (`1 day`, `1 week`). */
  spanDays: (/** @type {number} */ n) => (n === 1 ? "1 day" : `${n} days`),
  spanWeeks: (/** @type {number} */ n) => (n === 1 ? "1 week" : `${n} weeks`),
  lastRunLeft: "last run",
  runsLeft: (/** @type {number} */ n) => `${n} ${n === 1 ? "run" : "runs"} left`,
  until: (/** @type {string} */ date) => `until ${date}`,

  // The API's own failures as the page words them (api.js), and the Mini App outside Telegram (telegram.js).
  noAnswer: "The server did not answer within 15 seconds.",
  unreachable: "The server could not be reached; check your connection.",
  notJson: (/** @type {number} */ status) => `The server answered ${status} with something that is not JSON.`,
  answered: (/** @type {number} */ status) => `The server answered ${status}.`,
  outsideTelegram: "Open the scheduler from the bot in Telegram (its menu button, or Open scheduler under /jobs): Telegram signs you in.",
};
