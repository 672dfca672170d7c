/**
 * `/every` as people say it, end to end (issue 24): the real Worker under `wrangler dev` with a bot token, its
 * Bot API a local stub (the tier's, in a chat of this file's own); through the webhook, an everyday phrase in each language `/remind` reads (English,
 * German, French, Spanish, Portuguese, Italian, Dutch, Russian), sent from a Telegram app in that language, and
 * the English forms cron cannot say or that end. Each reply is asserted whole, in the sender's language (its
 * replies' table): the job line, the description (a cron's fields after it, never a rule's RRULE) and the next
 * three runs, computed here by the calendar in the chat's zone (Europe/Berlin), not by the Worker's engine.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { minutes, TELEGRAM_CHATS, telegramChat } from "./telegram-chat.js";
import { type Texts, textsOf } from "./texts.js";

const CHAT_ID = TELEGRAM_CHATS.every;
const ZONE = "Europe/Berlin";

const chat = telegramChat(CHAT_ID, 600_000);

/** The chat's user writes `text` from a Telegram app in `language`; returns the bot's one reply. */
async function say(text: string, language = "en"): Promise<string> {
  const before = (await chat.sends()).length;
  await chat.write(text, language);
  return String((await chat.nthSend(before + 1)).params.text);
}

beforeAll(async () => {
  // The chat's zone first: the replies below are then exactly the jobs' (no default-zone notice).
  expect(await say("/timezone Europe/Berlin")).toMatch(/^Time zone set to Europe\/Berlin \(UTC\+0[12]:00\)\. Now /);
});

// ── The calendar in Berlin, by Intl ─────────────────────────────────────────────────────────────────────

type Wall = { year: number; month: number; day: number; hour: number; minute: number; weekday: number };
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

function wall(instant: number): Wall {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: ZONE,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    weekday: "short",
    hourCycle: "h23",
  }).formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return {
    year: n("year"),
    month: n("month"),
    day: n("day"),
    hour: n("hour"),
    minute: n("minute"),
    weekday: WEEKDAYS.indexOf(parts.find((p) => p.type === "weekday")!.value),
  };
}

/** The instant of a wall time in Berlin (none of these falls in a DST gap). */
function instantOf(year: number, month: number, day: number, hour: number, minute = 0): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  let at = guess;
  for (let i = 0; i < 3; i++) {
    const w = wall(at);
    at -= Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - guess;
  }
  return at;
}

/** The wall days from `after`'s day on, as instants at `hour:minute`, that `keep` takes and lie after `after`. */
function days(after: number, hour: number, minute: number, keep: (w: Wall) => boolean, count: number): number[] {
  const out: number[] = [];
  const start = wall(after);
  for (let i = 0; out.length < count; i++) {
    const day = new Date(Date.UTC(start.year, start.month - 1, start.day + i));
    const at = instantOf(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), hour, minute);
    if (at > after && keep(wall(at))) out.push(at);
  }
  return out;
}

/** `8 Dec`, `5 Jan 2027` (`8. Dez.`, `5 янв. 2027 г.`): a day as the table's language writes it. */
const dayOf = (w: Wall, now: Wall, t: Texts): string => t.dates.dayMonth(w.day, t.dates.months[w.month - 1]!, w.year === now.year ? "" : String(w.year));
const hmOf = (w: Wall): string => `${String(w.hour).padStart(2, "0")}:${String(w.minute).padStart(2, "0")}`;

/** `09:00` today, `8 Dec 09:00`, `5 Jan 2027 09:00`: a time as the chat shows it. */
function chatTime(at: number, now: number, t: Texts): string {
  const w = wall(at);
  const n = wall(now);
  if (w.year === n.year && w.month === n.month && w.day === n.day) return hmOf(w);
  return `${dayOf(w, n, t)} ${hmOf(w)}`;
}

/** `Tue 8 Dec 10:00`, with the year when it is not this one. */
function weekdayTime(at: number, now: number, t: Texts): string {
  const w = wall(at);
  return `${t.dates.weekdayDay(t.dates.weekdays[w.weekday]!, dayOf(w, wall(now), t))} ${hmOf(w)}`;
}

/** `2026-12-08 10:00`: a rule's start as the reply writes it. */
function startText(at: number): string {
  const w = wall(at);
  const p = (x: number) => String(x).padStart(2, "0");
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
}

/** Every `step` days from `first`, at the same wall time: `n` of them. */
function everyDays(first: number, step: number, n: number): number[] {
  const w = wall(first);
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(Date.UTC(w.year, w.month - 1, w.day + i * step));
    return instantOf(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), w.hour, w.minute);
  });
}

/**
 * The whole reply to a created `/every` job, for the `now` it was made at, in the sender's language (`t`): the job
 * line (its schedule in words), the description with the zone and a cron's fields after it, the next runs.
 */
function reply(now: number, t: Texts, o: { id: string; name: string; phrase: string; said: string; cron?: string; runs: number[]; left?: number }): string {
  const left = o.left === undefined ? "" : ` · ${t.jobs.runsLeft(o.left)}`;
  return [
    t.job.created(`\`${o.id}\` 💬 ${o.name} · ${o.said} · ${t.jobs.next(chatTime(o.runs[0]!, now, t))}${left}`),
    t.job.cut(o.phrase, o.name),
    `🔁 ${o.said} (${ZONE})${o.cron ? ` · \`${o.cron}\`` : ""}`,
    t.job.nextRuns(o.runs.map((at) => weekdayTime(at, now, t)).join(", ")),
  ].join("\n");
}

/** What the admin API says of the job `id`. */
async function jobOf(id: string): Promise<Record<string, unknown>> {
  const res = await chat.worker.send("GET", `/admin/chats/${CHAT_ID}/jobs/${id}`);
  expect(res.status).toBe(200);
  return res.body.job;
}

const idIn = (text: string): string => /<code>([a-z2-9]{5})<\/code>/.exec(text)?.[1] ?? "?";

// ── The phrases ─────────────────────────────────────────────────────────────────────────────────────

type Case = {
  message: string;
  language: string;
  name: string;
  /** The stored schedule, and how the reply shows it for `now`. */
  expect: (now: number) => { schedule: Record<string, unknown>; said: string; cron?: string; runs: number[]; left?: number };
};

const hh = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/** Every day at `hour`, said in the sender's language as `said(HH:00)`. */
const daily = (hour: number, said: (time: string) => string) => (now: number) => ({
  schedule: { cron: `0 ${hour} * * *` },
  said: said(hh(hour)),
  cron: `0 ${hour} * * *`,
  runs: days(now, hour, 0, () => true, 3),
});

/** Every other `weekday` (0 = Sunday) at `hour`, from the first one after now: the rule and its three runs; never its RRULE. */
function everyOther(weekday: number, code: string, name: string, hour: number, said = `every 2 weeks on ${name} at ${hh(hour)}`) {
  return (now: number) => {
    const runs = everyDays(days(now, hour, 0, (w) => w.weekday === weekday, 1)[0]!, 14, 3);
    const rrule = `FREQ=WEEKLY;INTERVAL=2;BYDAY=${code}`;
    return { schedule: { rrule, start: startText(runs[0]!).replace(" ", "T") }, said, runs };
  };
}

/** The last Friday of each month at 17:00, from now. */
function lastFridays(now: number): number[] {
  const isLastFriday = (w: Wall) => w.weekday === 5 && w.day + 7 > new Date(Date.UTC(w.year, w.month, 0)).getUTCDate();
  return days(now, 17, 0, isLastFriday, 3);
}

const CASES: Case[] = [
  { message: "/every other tuesday at 10 review", language: "en", name: "review", expect: everyOther(2, "TU", "Tuesday", 10) },
  {
    message: "/every the last friday of the month at 17:00 invoices",
    language: "en",
    name: "invoices",
    expect: (now) => ({
      schedule: { cron: "0 17 * * 5L" },
      said: "every month on the last Friday at 17:00",
      cron: "0 17 * * 5L",
      runs: lastFridays(now),
    }),
  },
  {
    message: "/every 3 days at 9 for 10 times water the plants",
    language: "en",
    name: "water the plants",
    expect: (now) => {
      const runs = everyDays(days(now, 9, 0, () => true, 1)[0]!, 3, 3);
      return {
        schedule: { rrule: "FREQ=DAILY;INTERVAL=3", start: startText(runs[0]!).replace(" ", "T") },
        said: "every 3 days at 09:00",
        runs,
        left: 10,
      };
    },
  },
  { message: "/every jeden Tag um 8 Zeitung lesen", language: "de", name: "Zeitung lesen", expect: daily(8, (t) => `jeden Tag um ${t}`) },
  {
    message: "/every tous les lundis à 9h réunion",
    language: "fr",
    name: "réunion",
    expect: (now) => ({
      schedule: { cron: "0 9 * * 1" },
      said: "tous les lundis à 09:00",
      cron: "0 9 * * 1",
      runs: days(now, 9, 0, (w) => w.weekday === 1, 3),
    }),
  },
  {
    message: "/every cada 2 semanas el martes informe",
    language: "es",
    name: "informe",
    expect: everyOther(2, "TU", "Tuesday", 9, "cada 2 semanas el martes a las 09:00"),
  },
  { message: "/every todos os dias às 8 café", language: "pt", name: "café", expect: daily(8, (t) => `todos os dias às ${t}`) },
  { message: "/every ogni giorno alle 9 caffè", language: "it", name: "caffè", expect: daily(9, (t) => `ogni giorno alle ${t}`) },
  { message: "/every elke dag om 8 krant lezen", language: "nl", name: "krant lezen", expect: daily(8, (t) => `elke dag om ${t}`) },
  { message: "/every каждый день в 9 кофе", language: "ru", name: "кофе", expect: daily(9, (t) => `каждый день в ${t}`) },
];

describe("/every through the webhook", () => {
  it.each(CASES.map((c) => [c.message, c] as const))("%s", async (_message, c) => {
    const t0 = Date.now();
    const text = await say(c.message, c.language);
    const t1 = Date.now();
    const id = idIn(text);
    // Where the words were cut: what follows "/every " up to the text.
    const phrase = c.message.slice("/every ".length, -(c.name.length + 1));
    const t = await textsOf(c.language);
    const expected = (now: number) => reply(now, t, { id, name: c.name, phrase, ...c.expect(now) });
    expect(minutes(t0, t1, expected)).toContain(text);
    const job = await jobOf(id);
    expect(job).toMatchObject({ name: c.name, text: c.name, category: "recurring", createdBy: "user", schedule: c.expect(t1).schedule });
    expect(job.runsLeft).toBe(c.message.includes("10 times") ? 10 : null);
    // The job's first run is the reply's first.
    expect([c.expect(t0).runs[0], c.expect(t1).runs[0]].map((t) => new Date(t!).toISOString())).toContain(job.nextRunAt);
  });

  it("lists the rule jobs in /jobs in words, with what is left", async () => {
    const text = await say("/jobs");
    expect(text).toMatch(/ 💬 review · every 2 weeks on Tuesday at 10:00( starting \d{4}-\d{2}-\d{2})? · next /);
    expect(text).toMatch(/ 💬 water the plants · every 3 days at 09:00( starting \d{4}-\d{2}-\d{2})? · next [^\n]+ · 10 runs left(\n|$)/);
    expect(text).toContain(" 💬 invoices · every month on the last Friday at 17:00 · next ");
  });
});
