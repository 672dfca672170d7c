/**
 * Telegram end to end (issue 5): the real Worker under `wrangler dev` with a bot token, a webhook secret and
 * one allowed user, its Bot API pointed at a local stub (test/stub/telegram-stub.ts). Through the webhook:
 * `/timezone Asia/Tokyo`, a one-off made with `/remind` a few seconds ahead in Tokyo time, `/jobs` showing
 * Tokyo times, and the job's fire arriving as one `sendMessage` to the chat, with its buttons.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTelegramStub, type Call, type TelegramStub } from "../stub/telegram-stub.js";
import { startWorker, waitFor, type Worker } from "./harness.js";

const CHAT_ID = "700000101";
const TOKEN = "123456789:AAE_e2e-telegram_abcdefghijklmnop";
const SECRET = "e2e-webhook-secret";
const ZONE = "Asia/Tokyo";

let stub: TelegramStub;
let worker: Worker;

beforeAll(async () => {
  stub = await startTelegramStub();
  worker = await startWorker({
    vars: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET, TELEGRAM_API_BASE: stub.url, ALLOWED_USER_IDS: CHAT_ID },
  });
});

afterAll(async () => {
  await worker?.stop();
  await stub?.close();
});

let nextUpdateId = 500_000;

/** The chat's user writes `text` (from a Telegram app in `language`, when given); the webhook answers 200 at once. */
async function write(text: string, language?: string): Promise<void> {
  const updateId = nextUpdateId++;
  const res = await fetch(`${worker.base}/telegram/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET },
    body: JSON.stringify({
      update_id: updateId,
      message: {
        message_id: updateId,
        from: { id: Number(CHAT_ID), is_bot: false, first_name: "Ada", ...(language ? { language_code: language } : {}) },
        chat: { id: Number(CHAT_ID), type: "private", first_name: "Ada" },
        date: Math.floor(Date.now() / 1000),
        text,
      },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status, await res.text()).toBe(200);
}

const sends = () => stub.calls({ token: TOKEN, method: "sendMessage" });

/** Waits for the `n`-th sendMessage of the bot (at most 20 s) and returns it. */
async function nthSend(n: number): Promise<Call> {
  return waitFor(() => `sendMessage #${n} (got ${sends().length}); wrangler's output ends:\n${worker.log()}`, async () => sends()[n - 1]);
}

/** The fields of an instant in a zone, by Intl. */
function wall(instant: number, zone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const p = (type: string) => parts.find((x) => x.type === type)!.value;
  const month = new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "short" }).format(instant);
  const weekday = new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short" }).format(instant);
  return { weekday, iso: `${p("year")}-${p("month")}-${p("day")}T${p("hour")}:${p("minute")}:${p("second")}`, day: String(Number(p("day"))), month, year: p("year"), hm: `${p("hour")}:${p("minute")}`, date: `${p("year")}-${p("month")}-${p("day")}` };
}

/** `d MMM HH:mm` in Tokyo. */
const dayMonthTime = (instant: number) => {
  const w = wall(instant, ZONE);
  return `${w.day} ${w.month} ${w.hm}`;
};

/**
 * The Telegram HTML of our replies' little Markdown (`**bold**`, `` `code` ``), written out here: the e2e tier
 * sees the Worker as a black box (src/telegram/render.ts has its own tests).
 */
const renderTelegramHtml = (markdown: string) =>
  markdown
    .replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"))
    .replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");

/** The texts a reply stamped with "now" may hold between `t0` and `t1`. */
const minutes = (t0: number, t1: number, text: (now: number) => string) => [...new Set([text(t0), text(t1)])].map(renderTelegramHtml);

describe("a Telegram chat under wrangler dev", () => {
  it("sets Tokyo time, creates a one-off with /remind, lists it in Tokyo time, and gets its fire once with buttons", async () => {
    const health = await worker.send("GET", "/healthz");
    expect(health.body).toMatchObject({ ok: true, telegram: "webhook" });

    // 1. /timezone Asia/Tokyo: the §4 reply for a chat without jobs.
    let t0 = Date.now();
    await write("/timezone Asia/Tokyo");
    const zoneReply = await nthSend(1);
    expect(String(zoneReply.params.chat_id)).toBe(CHAT_ID);
    expect(zoneReply.params.parse_mode).toBe("HTML");
    expect(minutes(t0, Date.now(), (now) => `Time zone set to Asia/Tokyo (UTC+09:00). Now ${dayMonthTime(now)}.`)).toContain(zoneReply.params.text);

    // 2. /remind at a Tokyo wall time (no offset) 12 s ahead, to the second.
    const due = Math.floor((Date.now() + 12_000) / 1000) * 1000;
    const at = wall(due, ZONE);
    await write(`/remind ${at.iso} Stretch`);
    const created = await nthSend(2);
    const id = /<code>([a-z0-9]{5})<\/code>/.exec(String(created.params.text))?.[1];
    expect(id, String(created.params.text)).toBeDefined();
    // The job line, and the time understood: with its weekday, and how far ahead (issue 14).
    expect(created.params.text).toBe(renderTelegramHtml(`Created \`${id}\` 💬 Stretch · once ${at.hm}\n⏰ ${at.weekday} ${at.day} ${at.month} ${at.hm} (Asia/Tokyo), in under a minute`));

    // 3. A recurring one, and /jobs in Tokyo time: the one-off first, then the yearly job.
    await write('/every "0 9 1 1 *" New year');
    const every = await nthSend(3);
    const yearlyId = /<code>([a-z0-9]{5})<\/code>/.exec(String(every.params.text))?.[1];
    const nextYear = new Date().getUTCFullYear() + 1;
    // The job line, the cron with its description, and the next three runs (issue 14).
    const newYears = [0, 1, 2].map((k) => {
      const w = wall(Date.UTC(nextYear + k, 0, 1, 0), ZONE);
      return `${w.weekday} 1 Jan ${nextYear + k} 09:00`;
    });
    expect(every.params.text).toBe(
      renderTelegramHtml(
        `Created \`${yearlyId}\` 💬 New year · \`0 9 1 1 *\` · next 1 Jan ${nextYear} 09:00\n🔁 \`0 9 1 1 *\`: At 09:00, on day 1 of the month, only in January (Asia/Tokyo)\nNext: ${newYears.join(", ")}`,
      ),
    );
    t0 = Date.now();
    await write("/jobs");
    const jobs = await nthSend(4);
    const lines = [`\`${id}\` 💬 Stretch · once ${at.hm}`, `\`${yearlyId}\` 💬 New year · \`0 9 1 1 *\` · next 1 Jan ${nextYear} 09:00`];
    expect(minutes(t0, Date.now(), (now) => [`**Scheduled jobs** (Asia/Tokyo, now ${dayMonthTime(now)})`, ...lines].join("\n"))).toContain(jobs.params.text);
    expect(Date.now()).toBeLessThan(due);

    // 4. The fire: the echo agent's reply (the job's text) as one sendMessage with Run now, Pause and Cancel.
    const fired = await waitFor(() => `the fire of ${id}; wrangler's output ends:\n${worker.log()}`, async () => sends()[4], 30_000);
    expect(fired.at).toBeGreaterThanOrEqual(due);
    expect(String(fired.params.chat_id)).toBe(CHAT_ID);
    expect(fired.params.parse_mode).toBe("HTML");
    expect(fired.params.text).toBe("Stretch");
    expect(fired.params.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: "Run now", callback_data: `r:${id}` },
          { text: "Pause", callback_data: `p:${id}` },
          { text: "Cancel", callback_data: `c:${id}` },
        ],
      ],
    });
    // Once: nothing else arrives, and the one-off is gone after settling.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(sends()).toHaveLength(5);
    await write("/jobs");
    const after = await nthSend(6);
    expect(String(after.params.text)).not.toContain(`<code>${id}</code>`);
    expect(String(after.params.text)).toContain(`<code>${yearlyId}</code>`);
    expect(stub.calls({ token: TOKEN }).every((c) => c.method === "sendMessage")).toBe(true);
  });

  it("reads times and schedules in the user's languages, chrono-node's locales loaded from their own modules", async () => {
    const before = sends().length;
    const reply = async (text: string, language?: string) => {
      await write(text, language);
      return String((await nthSend(before + (++replies))).params.text);
    };
    let replies = 0;
    const tomorrow = wall(Date.now() + 86_400_000, ZONE);
    // English and German one-offs: chrono-node's en and de modules, uploaded beside the Worker.
    expect(await reply("/remind tomorrow 9am call mum")).toContain(`💬 call mum · once ${tomorrow.day} ${tomorrow.month} 09:00`);
    expect(await reply("/remind morgen um 9 Mama anrufen", "de")).toContain(`💬 Mama anrufen · once ${tomorrow.day} ${tomorrow.month} 09:00`);
    // Repetitions in German, French and Russian, with and without their word for "every".
    expect(await reply("/every jeden Tag um 8 Zeitung", "de")).toContain("💬 Zeitung · <code>0 8 * * *</code>");
    expect(await reply("/every lundi à 9h réunion", "fr")).toContain("💬 réunion · <code>0 9 * * 1</code>");
    expect(await reply("/every по будням в 8:30 почта", "ru")).toContain("💬 почта · <code>30 8 * * 1-5</code>");
    // A date inside a phrase, read by chrono-node in the phrase's language: such a job comes soon.
    expect(await reply("/every jeden Tag um 8 bis 31. Dezember Zeitung", "de")).toMatch(/^"jeden Tag um 8 bis 31\. Dezember" reads as <code>0 8 \* \* \*<\/code> until \d{4}-12-31 23:59; jobs on such schedules come soon\./);
    // Not read: the sentence in the user's language.
    expect(await reply("/every jedn Tag Zeitung", "de")).toBe(
      'Ich konnte "jedn" nicht als Zeitplan lesen. Versuche /every jeden Tag um 8:00 Nachrichten zusammenfassen oder /every werktags um 8:30 Nachrichten zusammenfassen.',
    );
  });
});
