/**
 * @module The replies in English (docs/telegram.md#language): the table every other language's follows, key for key
 * (its type is `Texts`; `test/unit/texts.test.ts` fails when a language lacks one). A function takes what a reply
 * names; the caller quotes what the user typed (`shown`) before it gets here.
 */
export const texts = {
  language: {
    /** `/language` alone: the language in its own words (`Deutsch (de)`), whether /language set it, the choices. */
    show: (name: string, chosen: boolean, choices: string) =>
      `Language: ${name}, ${chosen ? "set with /language" : "from the language of your Telegram app"}. ` +
      `Change it with /language followed by one of ${choices} (each message's language).`,
    set: (name: string) => `Language set to ${name}.`,
    auto: "The chat's language now follows each message's: the language of the sender's Telegram app when it is one I speak, else the last such, else English.",
    unknown: (typed: string, choices: string) => `"${typed}" is not a language I speak; choose one of ${choices}, such as /language de.`,
  },
  quiet: {
    none: "No quiet hours: every message arrives with its notification sound. Set them with /quiet 22:00-07:00.",
    show: (hours: string, zone: string) =>
      `Quiet hours: ${hours} (${zone}): messages sent then arrive without a sound. Change them with /quiet 23:00-06:30, or turn them off with /quiet off.`,
    set: (hours: string, zone: string) => `Quiet hours set: ${hours} (${zone}). Messages sent then arrive without a sound; nothing is held back.`,
    quietNow: " It is quiet now.",
    off: "Quiet hours off: every message arrives with its notification sound.",
    unreadable: (typed: string) =>
      `I couldn't read "${typed}" as quiet hours: give when they start and end, in your time zone. Try /quiet 22:00-07:00 or /quiet off.`,
  },
  /** How dates and times are written: short names (the week from Sunday), a day of a month, how far ahead. */
  dates: {
    weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    /** `15 Dec`, `15 Dec 2027`: `month` is one of `months`; `year` is empty or the year. */
    dayMonth: (day: number, month: string, year: string) => `${day} ${month}${year ? ` ${year}` : ""}`,
    /** `Tue 15 Dec`: a day with its weekday (one of `weekdays`). */
    weekdayDay: (weekday: string, dayMonth: string) => `${weekday} ${dayMonth}`,
    underAMinute: "in under a minute",
    /** `in 20 min`, `in 3 h`, `in 3 h 48 min`. */
    inMinutes: (minutes: number) => `in ${minutes} min`,
    inHours: (hours: number, minutes: number) => (minutes === 0 ? `in ${hours} h` : `in ${hours} h ${minutes} min`),
    /** `in 12 days`, `in 2 days 4 h`. */
    inDays: (days: number, hours: number) => `in ${days} ${days === 1 ? "day" : "days"}${hours === 0 ? "" : ` ${hours} h`}`,
  },
  /** `/help` and the command menu (`setMyCommands` in each language): what each command does and how it is written. */
  help: {
    title: "Commands",
    noModel: 'No model is configured: a message such as "remind me tomorrow at 9 to call mum" is offered as a reminder.',
    agent: "Anything else you write goes to the agent.",
    does: {
      jobs: "list this chat's scheduled jobs",
      remind: "a one-off prompt",
      every: "a recurring prompt",
      edit: "change a job's time, text or end",
      skip: "skip a recurring job's next run",
      run: "run a job now",
      pause: "pause a job",
      resume: "resume a paused job",
      cancel: "cancel a job",
      hook: "a secret URL that runs a job when it is called",
      calendar: "this chat's jobs in your calendar app",
      model: "show or choose the model the agent uses",
      agenda: "the rest of each day's runs, at a time you choose",
      quiet: "hours when messages arrive without a sound",
      timezone: "show or set this chat's time zone",
      language: "show or set the language I answer in",
      status: "jobs, time zone, agent and runner",
      help: "these commands",
    },
    /** The menu's examples (short); each must be read back by the words in this language. */
    menu: {
      remind: "/remind tomorrow 9:00 call mum, /remind 20m stretch",
      every: "/every weekdays at 8:30 summarise my inbox",
      edit: "/edit <id> tomorrow 10:00, /edit <id> text call dad",
      skip: "/skip <id>",
      run: "/run <id>",
      pause: "/pause <id>",
      resume: "/resume <id>",
      cancel: "/cancel <id>",
      hook: "/hook <id> new, /hook new summarise what came",
      calendar: "/calendar, /calendar new, /calendar off",
      model: "/model, /model default",
      agenda: "/agenda 8:00, /agenda off",
      quiet: "/quiet 22:00-07:00, /quiet off",
      timezone: "/timezone Berlin, /timezone reset",
      language: "/language de, /language auto",
    },
    /** `/help`'s longer examples; `weekAhead` is a date a week ahead (`2026-12-21`). */
    examples: {
      remind: (weekAhead: string) => `/remind 20m stretch, /remind tomorrow 9:00 call mum, /remind ${weekAhead} 14:30 dentist, /remind monday 9am standup`,
      every: '/every day at 8:00 summarise the news, /every weekdays at 8:30 check my inbox, /every 15 minutes stretch, /every "0 8 * * 1-5" plan the day',
      edit: "/edit <id> tomorrow 10:00, /edit <id> text call dad, /edit <id> until March, /edit <id> missed skip; as a reply to a job's message: /edit 2h",
      skip: "/skip <id>, or /skip as a reply to its message",
      timezone: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    },
  },
  /** A job's line (`/jobs`, the reply that makes or changes one) and the list. */
  jobs: {
    none: "No scheduled jobs.",
    /** `now` is a day and time (`14 Dec 11:00`). */
    title: (zone: string, now: string) => `**Scheduled jobs** (${zone}, now ${now})`,
    once: (at: string) => `once ${at}`,
    next: (at: string) => `next ${at}`,
    noNext: "no next run",
    /** A job only its hook runs (docs/hooks.md), while it has one, and once it has none. */
    onHook: "when its hook is called",
    hookless: (id: string) => `only by a hook, and it has none: /hook ${id} new`,
    /** A job with a time of its own that has a hook too. */
    hook: "🔗 hook",
    /** A job whose turns run on a model of their own (docs/agent.md#models). */
    model: (name: string) => `model ${name}`,
    /** A job whose missed runs do not take the default, one late run (docs/time.md#missed-runs). */
    missed: { skip: "if missed: skip", all: "if missed: run each", ask: "if missed: ask" },
    /** A span as the job line says it: `10 min`, `1 h`, `1 day`. */
    spanMinutes: (n: number) => `${n} min`,
    spanHours: (n: number) => `${n} h`,
    spanDays: (n: number) => (n === 1 ? "1 day" : `${n} days`),
    /** A job whose run's message nags until done (docs/telegram.md#nag-until-done): `every` a span. */
    nag: (every: string, times: number) => `🔁 every ${every} until done (${times}×)`,
    /** A job's notices ahead of its runs (docs/telegram.md#notices-ahead): `spans` a list. */
    notices: (spans: string) => `🔔 ${spans} before`,
    paused: "paused",
    running: "running",
    lastRun: "last run",
    runsLeft: (n: number) => `${n} ${n === 1 ? "run" : "runs"} left`,
    until: (date: string) => `until ${date}`,
    mainThread: "main thread",
    thisTopic: "this topic",
    topic: (id: number) => `topic ${id}`,
    lastTransient: (exit: string) => `last: transient (exit ${exit})`,
    lastOverBudget: "last: over budget",
    /** `exit` empty when the script gave none. */
    lastFailed: (exit: string, timedOut: boolean) =>
      exit !== "" ? `last: failed (exit ${exit}${timedOut ? ", timed out" : ""})` : timedOut ? "last: failed (timed out)" : "last: failed",
  },
  /** The replies of the commands that make, change or act on a job. */
  job: {
    created: (line: string) => `Created ${line}`,
    changed: (line: string) => `Changed ${line}`,
    /** Where the words were cut: `schedule` as read, `text` quoted, or null for the message replied to. */
    cut: (schedule: string, text: string | null) =>
      `Read "${schedule}" as the schedule and ${text === null ? "the message replied to" : `"${text}"`} as the text.`,
    /** `⏰ Tue 15 Dec 09:00 (Europe/Berlin), in 22 h` */
    understood: (at: string, zone: string, distance: string) => `⏰ ${at} (${zone}), ${distance}`,
    nextRuns: (times: string) => `Next: ${times}`,
    cancelled: (id: string, name: string) => `Cancelled ${id} (${name}).`,
    paused: (id: string, name: string) => `Paused ${id} (${name}).`,
    running: (id: string, name: string) => `Running ${id} (${name}) now.`,
    /** `next` empty when the job has no next run. */
    resumed: (id: string, name: string, next: string) => (next ? `Resumed ${id} (${name}); next ${next}.` : `Resumed ${id} (${name}); it has no next run.`),
    /** `/skip`'s first line: the occurrence passed over (the job's line and its next runs follow). */
    skippedAt: (at: string) => `Skipped ${at}.`,
    /** `next` empty when the job has no next run. */
    skipped: (at: string, next: string) => `Skipped ${at}; ${next ? `next ${next}` : "it has no next run"}.`,
    usage: (command: string) => `Usage: /${command} <id> (see /jobs).`,
    editUsage:
      "Usage: /edit <id> <when>, /edit <id> text <new text> or /edit <id> missed once|skip|all|ask (see /jobs); as a reply to a job's message, /edit <when>.",
    /** The word after the id that changes what a missed run does (`/edit k7m2q missed skip`), and its values. */
    missedWord: "missed",
    missedValues: { once: "once", skip: "skip", all: "all", ask: "ask" },
    missedUsage: (id: string) =>
      `What should a run missed while the bot was offline do? /edit ${id} missed once (one late run, the default), skip (none), all (each, at most 10) or ask (a message with Run now and Skip).`,
    /** `/remind` alone: two examples that work now. */
    remindUsage: (a: string, b: string) => `/remind needs a time and then the text of the reminder. Try ${a} or ${b}.`,
    everyUsage: (a: string, b: string) => `/every needs a schedule and then the text to send. Try ${a} or ${b}.`,
    /** A schedule read, with no text after it. */
    noText: (phrase: string, a: string, b: string) => `"${phrase}" needs a text after it: what should I send then? Try ${a} or ${b}.`,
    tooLong: (length: number, max: number) => `The text is ${length} characters long; a job holds at most ${max}. Shorten it and send the command again.`,
    noJob: (id: string) => `No job ${id} in this chat.`,
    gone: (id: string) => `The job this message made (${id}) is gone: it ran, or was cancelled. Send the command again for a new one.`,
    onceNoEnd: (id: string) => `${id} runs once, so it has no end to change; to move it, send /edit ${id} <when>.`,
    notPartOfTime: (rest: string, id: string) =>
      `"${rest}" is not part of a time. To change the job's text, send /edit ${id} text ${rest}; to change its time, send the time alone.`,
    /** Told once, on the reply that makes a chat's first job while it follows the default zone. */
    zoneNotice: (zone: string) => `Times here are in ${zone}. Where are you? Send /timezone and your city, e.g. /timezone Berlin.`,
  },
  /** `/hook` (docs/hooks.md): a job's hook, whose URL is shown once, to the one who asked. */
  hook: {
    /** The words after the id (or alone, before a text) that make and revoke a hook, besides `new` and `off`. */
    newWord: "new",
    offWord: "off",
    usage:
      "Usage: /hook <id> says whether a job has a hook, /hook <id> new makes or replaces it, /hook <id> off revokes it, /hook new <text> makes a job only its hook runs.",
    has: (id: string) => `Job ${id} has a hook. /hook ${id} new replaces it (the old address stops working); /hook ${id} off revokes it.`,
    none: (id: string) => `Job ${id} has no hook. /hook ${id} new makes one: a secret URL that runs the job when something calls it.`,
    /** The hook's URL and address, shown once: `email` empty without one. */
    made: (id: string, url: string, email: string) =>
      `Job ${id}'s hook, shown once (whoever has it can run the job, so keep it secret):\n${url}${email ? `\nMail: ${email}` : ""}\nPOST JSON or text to it: the body is the run's input.`,
    revoked: (id: string) => `Job ${id}'s hook is revoked: its address finds nothing now.`,
    noneToRevoke: (id: string) => `Job ${id} has no hook.`,
    /** In a group: the hook went to the admin privately. */
    sentPrivately: "I sent you the hook's address in a private message.",
    /** In a group, when the admin never started a private chat with the bot. */
    startFirst:
      "I can't write to you privately yet: open a chat with me and press Start, then send the command again; or make the hook on the page or in the Mini App.",
  },
  /** `/calendar` (docs/calendar.md): as `/hook`'s, its address shown once, to the one who asked; its words are the hook's. */
  calendar: {
    usage: "Usage: /calendar shows this chat's calendar feed (made the first time), /calendar new replaces its address, /calendar off turns it off.",
    has: "This chat has a calendar feed. /calendar new replaces its address (the old one stops working); /calendar off turns it off.",
    /** The feed's address, shown once, and how to subscribe. */
    made: (url: string) =>
      `This chat's calendar feed, shown once (whoever has the address sees the jobs, so keep it secret):\n${url}\n` +
      "Subscribe to it: Google Calendar → Other calendars → From URL; Apple Calendar → File → New Calendar Subscription; Outlook → Add calendar → Subscribe from web.",
    revoked: "The calendar feed is off: its address finds nothing now.",
    noneToRevoke: "This chat has no calendar feed.",
    sentPrivately: "I sent you the calendar's address in a private message.",
    startFirst:
      "I can't write to you privately yet: open a chat with me and press Start, then send the command again; or make the feed on the page or in the Mini App.",
  },
  /** The buttons under a job's message, what they become once pressed, and what a press answers. */
  buttons: {
    done: "Done",
    in10min: "10 min",
    in1h: "1 h",
    tomorrow9: "Tomorrow 9:00",
    snooze1h: "Snooze 1 h",
    skipNext: "Skip next",
    pause: "Pause",
    runNow: "Run now",
    cancel: "Cancel",
    create: "Create",
    openScheduler: "Open scheduler",
    doneAnswer: "Done.",
    doneLine: "✅ Done",
    snoozedAnswer: (until: string) => `Snoozed until ${until}.`,
    snoozedLine: (until: string) => `⏰ Snoozed until ${until}`,
    skippedLine: (at: string) => `⏭ Skipped ${at}`,
    pausedLine: "⏸ Paused",
    /** Under a message about missed runs (docs/time.md#missed-runs): Run now and Skip, and what they become. */
    skip: "Skip",
    missedRunLine: "▶️ Run now",
    missedSkippedLine: "⏭ Skipped",
    /** `n` missed runs recorded skipped. */
    missedSkippedAnswer: (n: number) => (n === 1 ? "Skipped the missed run." : `Skipped ${n} missed runs.`),
    /** Under a notice ahead of a run (docs/telegram.md#notices-ahead). */
    skipThisOne: "Skip this one",
    /** What a nagging message's copy shows once the next copy was sent (docs/telegram.md#nag-until-done). */
    sentAgainLine: "🔁 Sent again below",
    answered: "This was answered already.",
    gone: "This message is too old to act on; see /jobs.",
    invalid: "This button is no longer valid.",
  },
  /** Runs missed while the bot was offline (docs/time.md#missed-runs). `times`: when they were due, as a list. */
  missed: {
    /** `missed: ask`, several runs: `shown` the latest of them, `more` how many besides. */
    askMany: (name: string, id: string, n: number, times: string) =>
      `⏰ **${name}** (\`${id}\`) missed ${n} runs while the bot was offline: ${times}. Run it now?`,
    askOne: (name: string, id: string, at: string) => `⏰ **${name}** (\`${id}\`) was due at ${at} while the bot was offline. Run it now?`,
    /** The start of a list of times that names only the latest: `3 earlier`. */
    more: (n: number) => `${n} earlier`,
    /** A one-off whose policy is skip, deleted. */
    dropped: (name: string, id: string, at: string) => `Skipped **${name}** (\`${id}\`): it was due at ${at} while the bot was offline.`,
  },
  /** `/model` (docs/agent.md#models): the model the chat's turns run on. `choices` is a list of names. */
  model: {
    shown: (name: string, isDefault: boolean, choices: string) =>
      `Model: ${name}${isDefault ? " (the bot's default)" : ""}. Choices: ${choices}. Change it with /model <name>; /model default goes back.`,
    only: (name: string) => `Model: ${name}, the only one this bot offers (its owner adds more with LLM_MODELS).`,
    set: (name: string) => `Model: ${name}. Jobs with a model of their own keep theirs.`,
    reset: (name: string) => `Model: ${name} (the bot's default).`,
    none: "This bot runs no model, so there is none to choose (its owner sets LLM_MODEL).",
    unknown: (typed: string, choices: string) => `"${typed}" is not one of this bot's models, which are ${choices}.`,
    /** The word that goes back to the bot's default. */
    defaultWord: "default",
    /** A reply's first line when the job's own model is no longer offered. */
    dropped: (wanted: string, used: string) => `(The model ${wanted} is no longer offered, so this ran on ${used}.)`,
  },
  /** "Remind me about this" (docs/telegram.md#remind-me-about-this): a reminder that brings a message back. */
  copy: {
    /** A message's kind as its reminder's text when it has no words of its own. */
    kinds: {
      photo: "a photo",
      video: "a video",
      animation: "a GIF",
      voice: "a voice message",
      audio: "an audio file",
      document: "a file",
      sticker: "a sticker",
      video_note: "a video message",
      location: "a location",
      venue: "a place",
      contact: "a contact",
      poll: "a poll",
      dice: "a dice",
      story: "a story",
      forward_origin: "a forwarded message",
    },
    refused: "I can't bring that message back (Telegram does not let bots copy it): give the reminder a text of its own instead.",
    /** The transcript's record of the message brought back (`kind` one of `kinds`). */
    entry: (kind: string, messageId: number) => `📎 ${kind} (message ${messageId})`,
    /** Sent instead when the message is gone at fire time; the reminder still follows. */
    gone: "📎 The message this reminder was about is gone.",
  },
  /** A message that nags until done (docs/telegram.md#nag-until-done): the mark on its `n`th copy (2 and up). */
  nag: {
    mark: (n: number) =>
      `🔁 **${n}${n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : n % 10 === 1 && n % 100 !== 11 ? "st" : "th"} reminder**`,
  },
  /** A notice ahead of a run (docs/telegram.md#notices-ahead): `ahead` how far (`in 1 h`), `at` the run's day and time. */
  before: {
    notice: (ahead: string, name: string, at: string) => `${ahead.charAt(0).toUpperCase()}${ahead.slice(1)}: **${name}** (${at})`,
  },
  /** `/agenda` (docs/telegram.md#agenda): the daily message listing the rest of the day's runs. */
  agenda: {
    /** The message's first line: `day` a weekday and date (`Tue 8 Dec`). */
    title: (day: string, zone: string) => `**Today** (${day}, ${zone})`,
    /** Its last line when it lists only the first runs of a busy day. */
    more: (n: number) => `and ${n} more: see /jobs`,
    none: "No daily agenda. /agenda 8:00 sends the rest of each day's runs at 8:00.",
    show: (at: string, zone: string) => `Daily agenda at ${at} (${zone}): the rest of the day's runs, when there are any. /agenda off stops it.`,
    /** `next` a weekday, date and time (`Tue 8 Dec 08:00`). */
    set: (at: string, zone: string, next: string) => `Daily agenda at ${at} (${zone}), when the day has runs; the first on ${next}.`,
    off: "Daily agenda off.",
    unreadable: (typed: string) => `I couldn't read "${typed}" as a time of day. Try /agenda 8:00 or /agenda off.`,
    /** The word that turns it off (English's `off` is read in every language). */
    offWord: "off",
  },
  /** A reminder written without a command and no model: offered, with Create and Cancel. */
  offer: {
    found: (text: string) => `No model is configured, but this reads as a reminder: "${text}"`,
    ask: "Create it?",
    declined: "OK, no reminder.",
    created: (id: string) => `Created ${id}.`,
    passedShort: "That time has passed; nothing was created.",
    passed: (at: string, zone: string, a: string, b: string) => `That time has passed (${at} in ${zone}); nothing was created. Try ${a} or ${b}.`,
  },
  /** `/timezone`. */
  zone: {
    /** `offset` `UTC+01:00`; `isDefault`: the operator's default zone. */
    show: (zone: string, offset: string, isDefault: boolean) =>
      `Time zone: ${zone} (${offset}${isDefault ? ", default" : ""}). Change it with /timezone <IANA name>, e.g. /timezone America/New_York.`,
    /** `now` a day and time (`14 Dec 11:00`). */
    set: (zone: string, offset: string, isDefault: boolean, now: string) => `Time zone set to ${zone} (${offset}${isDefault ? ", default" : ""}). Now ${now}.`,
    /** After `set`: how many recurring jobs follow the new zone. */
    recurringFollow: (n: number) => `${n} recurring ${n === 1 ? "job now follows" : "jobs now follow"} this zone`,
    /** After `set`: the one-offs that keep their instants, `times` as they are now here. */
    oneOffsKeep: (n: number, times: string) =>
      n === 1 ? `1 one-off job keeps its time (now ${times} here)` : `${n} one-off jobs keep their times (now ${times} here)`,
    /** `3 more` after the first three times. */
    more: (n: number) => `${n} more`,
    /** `a`, `a and b`, `a, b and c`. */
    and: (items: readonly string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`),
    setShort: (zone: string) => `Time zone set to ${zone}.`,
    unknown: (typed: string) => `I don't know a time zone or place called "${typed}". Try /timezone Berlin or /timezone America/New_York.`,
    offset: (typed: string) => `"${typed}" is an offset; these zones are on it now. Tap yours: a zone keeps its summer time, a fixed offset does not.`,
    /** A button for a fixed offset (`Etc/GMT-9`), which keeps no summer time. */
    fixed: (offset: string) => `${offset}, no summer time`,
    several: (typed: string) => `"${typed}" has more than one time zone. Tap yours, or send /timezone with your city.`,
  },
  /** `/status`. */
  status: {
    jobs: "Jobs",
    zone: "Time zone",
    default: "default",
    agent: "Agent",
    runner: "Runner",
    notConfigured: "not configured",
    blocked: "**Delivery:** was blocked until this message (the bot could not reach this chat)",
  },
  /** What the chat's object refuses to do to a job, and why. */
  problems: {
    /** A skip of a one-off. */
    runsOnce: (id: string) => `${id} runs once; cancel or edit it instead.`,
    /** A skip of a job that only its hook runs. */
    hookOnly: (id: string) => `${id} runs only when its hook is called, so it has no next run to skip.`,
    /** A hook called for a paused job. */
    paused: (id: string) => `Job ${id} is paused.`,
    /** A skip of a paused job, or of one with no next run. */
    nothingToSkip: (id: string, paused: boolean) =>
      paused ? `${id} is paused, so it has no next run to skip; resume it first.` : `${id} has no next run to skip.`,
    /** A skip of a job's last run before its end. */
    lastRun: (id: string) => `${id}'s next run is its last before it ends; cancel it instead, or change its end first.`,
    /** A resume or an edit of a recurring job with no run left before its end; `until` the end as a date, empty when it ended by its count. */
    noRunsLeft: (id: string, name: string, until: string) =>
      `Job ${id} (${name}) has no scheduled run left: ${until ? `its next run would be after its end (until ${until})` : "its last scheduled run has started"}. Give it a later "until" or more "runsLeft" (edit it), or cancel it.`,
    /** Run now of a job whose run has not ended. */
    stillRunning: (id: string) => `Job ${id} is still running.`,
    /** A new job in a chat that has as many as it may. */
    tooManyJobs: (limit: number) => `This chat already has ${limit} jobs (the limit); cancel one first.`,
    /** A group member who is not an admin, sending a command that changes something. */
    adminsOnly: "Only the group's admins can change its jobs.",
    /** Telegram could not be asked who the group's admins are. */
    rightsUnknown: "I could not ask Telegram who this group's admins are, so nothing changed; please try again in a minute.",
  },
  /** The note before a message whose forum topic is gone; `jobs` names the jobs that posted there (`k7m2q (News)`), `n` of them. */
  topicGone: (jobs: string, n: number) =>
    `ℹ️ The topic this was meant for no longer exists, so it comes here.${n === 0 ? "" : ` From now on ${n === 1 ? `job ${jobs} posts` : `jobs ${jobs} post`} here.`}`,
  /** The one line a message that is not text gets. */
  nonText: "I can only read text messages.",
  /** What the agent without a model says: to a message that is no reminder, and before a job's message that came late (`at` when it was due). */
  agent: {
    noModel: "No model is configured, so I can only run your scheduled jobs. Send /help for the commands. For a reminder: /remind tomorrow 9:00 call mum",
    late: (at: string) => `This was due at ${at}; the bot was offline.`,
    /** Before the latest of several missed runs (`missed: once`; `at` when it was due, the day when not today). */
    lateMany: (n: number, at: string) => `${n} runs were missed while the bot was offline; this is the latest (due ${at}).`,
  },
};

/** The replies' table: English's shape, which each language's table has too. */
export type Texts = typeof texts;
