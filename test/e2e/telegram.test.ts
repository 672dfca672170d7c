/**
 * Telegram end to end (issue 5): the real Worker under `wrangler dev` with a bot token, a webhook secret and
 * allowed users, its Bot API pointed at a local stub (test/stub/telegram-stub.ts): the tier's, in a chat of
 * this file's own. Through the webhook:
 * `/timezone Asia/Tokyo`, a one-off made with `/remind` a few seconds ahead in Tokyo time, `/jobs` showing
 * Tokyo times, and the job's fire arriving as one `sendMessage` to the chat, with its buttons.
 */
import { describe, expect, it } from "vitest";
import { waitFor } from "./harness.js";
import { minutes, renderTelegramHtml, TELEGRAM_CHATS, telegramChat } from "./telegram-chat.js";
import { textsOf } from "./texts.js";

const CHAT_ID = TELEGRAM_CHATS.telegram;
const ZONE = "Asia/Tokyo";

const chat = telegramChat(CHAT_ID, 500_000);
const { write, sends, nthSend } = chat;

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
  return {
    weekday,
    iso: `${p("year")}-${p("month")}-${p("day")}T${p("hour")}:${p("minute")}:${p("second")}`,
    day: String(Number(p("day"))),
    dayNumber: Number(p("day")),
    month,
    monthNumber: Number(p("month")),
    year: p("year"),
    hm: `${p("hour")}:${p("minute")}`,
    date: `${p("year")}-${p("month")}-${p("day")}`,
  };
}

/** `d MMM HH:mm` in Tokyo. */
const dayMonthTime = (instant: number) => {
  const w = wall(instant, ZONE);
  return `${w.day} ${w.month} ${w.hm}`;
};

describe("a Telegram chat under wrangler dev", () => {
  it("sets Tokyo time, creates a one-off with /remind, lists it in Tokyo time, and gets its fire once with buttons", async () => {
    const health = await chat.worker.send("GET", "/healthz");
    expect(health.body).toMatchObject({ ok: true, telegram: "webhook" });

    // 1. /timezone Asia/Tokyo: the docs/time.md reply for a chat without jobs.
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
    expect(created.params.text).toBe(
      renderTelegramHtml(
        `Created \`${id}\` 💬 Stretch · once ${at.hm}\nRead "${at.iso}" as the schedule and "Stretch" as the text.\n⏰ ${at.weekday} ${at.day} ${at.month} ${at.hm} (Asia/Tokyo), in under a minute`,
      ),
    );

    // 3. A recurring one, and /jobs in Tokyo time: the one-off first, then the yearly job.
    await write('/every "0 9 1 1 *" New year');
    const every = await nthSend(3);
    const yearlyId = /<code>([a-z0-9]{5})<\/code>/.exec(String(every.params.text))?.[1];
    const nextYear = new Date().getUTCFullYear() + 1;
    // The job line, the description (with the cron after it), and the next three runs (issue 14, 31).
    const newYears = [0, 1, 2].map((k) => {
      const w = wall(Date.UTC(nextYear + k, 0, 1, 0), ZONE);
      return `${w.weekday} 1 Jan ${nextYear + k} 09:00`;
    });
    expect(every.params.text).toBe(
      renderTelegramHtml(
        `Created \`${yearlyId}\` 💬 New year · every year on 1 January at 09:00 · next 1 Jan ${nextYear} 09:00\nRead "0 9 1 1 *" as the schedule and "New year" as the text.\n🔁 every year on 1 January at 09:00 (Asia/Tokyo) · \`0 9 1 1 *\`\nNext: ${newYears.join(", ")}`,
      ),
    );
    t0 = Date.now();
    await write("/jobs");
    const jobs = await nthSend(4);
    const lines = [`\`${id}\` 💬 Stretch · once ${at.hm}`, `\`${yearlyId}\` 💬 New year · every year on 1 January at 09:00 · next 1 Jan ${nextYear} 09:00`];
    expect(minutes(t0, Date.now(), (now) => [`**Scheduled jobs** (Asia/Tokyo, now ${dayMonthTime(now)})`, ...lines].join("\n"))).toContain(jobs.params.text);
    expect(Date.now()).toBeLessThan(due);

    // 4. The fire: the echo agent's reply (the job's text) as one sendMessage with a one-off's buttons for its run.
    const fired = await waitFor(
      () => `the fire of ${id}; wrangler's output ends:\n${chat.worker.log()}`,
      async () => (await sends())[4],
      30_000,
    );
    expect(fired.at).toBeGreaterThanOrEqual(due);
    expect(String(fired.params.chat_id)).toBe(CHAT_ID);
    expect(fired.params.parse_mode).toBe("HTML");
    expect(fired.params.text).toBe("Stretch");
    const runId = `${id}:${due}`;
    expect(fired.params.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: "Done", callback_data: `d:${runId}` }],
        [
          { text: "10 min", callback_data: `s:10:${runId}` },
          { text: "1 h", callback_data: `s:60:${runId}` },
          { text: "Tomorrow 9:00", callback_data: `s:t:${runId}` },
        ],
      ],
    });
    // Once: nothing else arrives, and the one-off is gone after settling.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await sends()).toHaveLength(5);
    await write("/jobs");
    const after = await nthSend(6);
    expect(String(after.params.text)).not.toContain(`<code>${id}</code>`);
    expect(String(after.params.text)).toContain(`<code>${yearlyId}</code>`);
    expect((await chat.calls()).every((c) => c.method === "sendMessage")).toBe(true);

    // 5. The message acted on (issue 25): 10 min, pressed as Telegram sends a tap, makes a copy of the job that
    // ran and was deleted, 10 minutes after the press; the callback is answered and the message's buttons
    // become one line.
    const pressed = Date.now();
    await chat.press(`s:10:${runId}`, fired.messageId!);
    // The answer and the edit are sent as the webhook answers (waitUntil): they reach the stub soon after.
    const answered = (method: string) =>
      waitFor(`${method} after the press`, async () => {
        const calls = await chat.calls(method);
        return calls.length > 0 ? calls : undefined;
      });
    const answer = await answered("answerCallbackQuery");
    const until = [wall(pressed + 600_000, ZONE).hm, wall(Date.now() + 600_000, ZONE).hm].map((hm) => `Snoozed until ${hm}.`);
    expect(answer).toHaveLength(1);
    expect(until).toContain(answer[0]!.params.text);
    expect((await answered("editMessageReplyMarkup")).map((c) => c.params)).toEqual([
      {
        chat_id: Number(CHAT_ID),
        message_id: fired.messageId,
        reply_markup: { inline_keyboard: [[{ text: `⏰ ${String(answer[0]!.params.text).slice(0, -1)}`, callback_data: `a:${runId}` }]] },
      },
    ]);
    const copies = (await chat.worker.send("GET", `/admin/chats/${CHAT_ID}/jobs`)).body.jobs.filter((j: { name: string }) => j.name === "Stretch");
    expect(copies).toHaveLength(1);
    expect(copies[0].id).not.toBe(id);
    expect(Date.parse(copies[0].schedule.at)).toBeGreaterThanOrEqual(pressed + 600_000);
    expect(Date.parse(copies[0].schedule.at)).toBeLessThanOrEqual(Date.now() + 600_000);
  });

  it("reads times and schedules in the user's languages, chrono-node's locales loaded from their own modules", async () => {
    const before = (await sends()).length;
    const reply = async (text: string, language?: string) => {
      await write(text, language);
      return String((await nthSend(before + ++replies)).params.text);
    };
    let replies = 0;
    const tomorrow = wall(Date.now() + 86_400_000, ZONE);
    // English and German one-offs: chrono-node's en and de modules, uploaded beside the Worker.
    expect(await reply("/remind tomorrow 9am call mum")).toContain(`💬 call mum · once ${tomorrow.day} ${tomorrow.month} 09:00`);
    // Answered in the sender's language (its replies' table), a day as it writes one.
    const de = await textsOf("de");
    const day = de.dates.dayMonth(tomorrow.dayNumber, de.dates.months[tomorrow.monthNumber - 1]!, "");
    expect(await reply("/remind morgen um 9 Mama anrufen", "de")).toContain(`💬 Mama anrufen · ${de.jobs.once(`${day} 09:00`)}`);
    // Repetitions in German, French and Russian, with and without their word for "every".
    expect(await reply("/every jeden Tag um 8 Zeitung", "de")).toContain(`💬 Zeitung · jeden Tag um 08:00 · ${de.jobs.next("")}`);
    expect(await reply("/every lundi à 9h réunion", "fr")).toContain("🔁 tous les lundis à 09:00 (Asia/Tokyo) · <code>0 9 * * 1</code>");
    expect(await reply("/every по будням в 8:30 почта", "ru")).toContain("🔁 по будням в 08:30 (Asia/Tokyo) · <code>30 8 * * 1-5</code>");
    // A date inside a phrase, read by chrono-node in the phrase's language: the job ends then.
    const untilLine = (await reply("/every jeden Tag um 8 bis 31. Dezember Zeitung", "de")).split("\n")[0]!;
    expect(untilLine).toMatch(/^.+<code>[a-z2-9]{5}<\/code> 💬 Zeitung · jeden Tag um 08:00 · /);
    expect(untilLine.endsWith(` · ${de.jobs.until(de.dates.dayMonth(31, de.dates.months[11]!, ""))}`), untilLine).toBe(true);
    // Not read: the sentence in the user's language.
    expect(await reply("/every jedn Tag Zeitung", "de")).toBe(
      'Ich konnte "jedn" nicht als Zeitplan lesen. Versuche /every jeden Tag um 8:00 Nachrichten zusammenfassen oder /every werktags um 8:30 Nachrichten zusammenfassen.',
    );
  });
});
