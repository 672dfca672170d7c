/**
 * A repetition said in words, end to end (issue 31 item 2): the real Worker under `wrangler dev` with no model,
 * its Bot API a local stub, in a chat of this file's own. Through the webhook, "remind me every monday at 9 …"
 * in English, German and Russian is offered as the recurring job `/every` would make (where the words were cut,
 * the schedule in the sender's words with its cron, the next runs), and Create makes it; `/remind` with a
 * repetition in French and Italian makes the recurring job at once. The jobs are read back from the admin API.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderTelegramHtml, TELEGRAM_CHATS, telegramChat } from "./telegram-chat.js";
import { patternOf, textsOf } from "./texts.js";

const CHAT_ID = TELEGRAM_CHATS.words;
const ZONE = "Europe/Berlin";

const chat = telegramChat(CHAT_ID, 700_000);

/** The chat's user writes `text` from a Telegram app in `language`; returns the bot's one reply and its message id. */
async function say(text: string, language = "en"): Promise<{ text: string; messageId: number; buttons: unknown }> {
  const before = (await chat.sends()).length;
  await chat.write(text, language);
  const sent = await chat.nthSend(before + 1);
  return { text: String(sent.params.text), messageId: sent.messageId!, buttons: sent.params.reply_markup };
}

/** What the admin API says of the job `id`. */
async function jobOf(id: string): Promise<Record<string, unknown>> {
  const res = await chat.worker.send("GET", `/admin/chats/${CHAT_ID}/jobs/${id}`);
  expect(res.status).toBe(200);
  return res.body.job;
}

const idIn = (text: string): string => /<code>([a-z2-9]{5})<\/code>/.exec(text)?.[1] ?? "?";

beforeAll(async () => {
  // The chat's zone first: the replies below are then exactly the jobs' (no default-zone notice).
  expect((await say("/timezone Europe/Berlin")).text).toMatch(/^Time zone set to Europe\/Berlin \(UTC\+0[12]:00\)\. Now /);
});

describe("a reminder that repeats, written without a command and no model configured", () => {
  const table: [language: string, message: string, text: string, phrase: string, said: string][] = [
    ["en", "remind me every monday at 9 to water the plants", "water the plants", "every monday at 9", "every Monday at 09:00"],
    ["de", "erinnere mich jeden Montag um 9 die Pflanzen zu gießen", "die Pflanzen zu gießen", "jeden Montag um 9", "jeden Montag um 09:00"],
    ["ru", "напомни мне каждый понедельник в 9 полить цветы", "полить цветы", "каждый понедельник в 9", "каждый понедельник в 09:00"],
  ];
  it.each(table)("%s: %s is offered as the recurring job, and Create makes it", async (language, message, text, phrase, said) => {
    const t = await textsOf(language);
    const offer = await say(message, language);
    const lines = offer.text.split("\n");
    expect(lines.slice(0, 3)).toEqual([t.offer.found(text), t.job.cut(phrase, text), `🔁 ${said} (${ZONE}) · \`0 9 * * 1\``].map(renderTelegramHtml));
    // Three Mondays, as the language writes a day.
    const monday = t.dates.weekdayDay(t.dates.weekdays[1]!, "@DAY@");
    expect(lines[3]).toMatch(patternOf(t.job.nextRuns([1, 2, 3].map(() => `${monday} 09:00`).join(", ")), "@DAY@"));
    expect(lines.slice(4)).toEqual([renderTelegramHtml(t.offer.ask)]);
    const [[create, cancel]] = (offer.buttons as { inline_keyboard: { text: string; callback_data: string }[][] }).inline_keyboard as [
      [{ text: string; callback_data: string }, { text: string; callback_data: string }],
    ];
    expect([create.text, cancel.text]).toEqual([t.buttons.create, t.buttons.cancel]);

    const before = (await chat.sends()).length;
    await chat.press(create.callback_data, offer.messageId);
    const created = String((await chat.nthSend(before + 1)).params.text);
    expect(created.startsWith(renderTelegramHtml(t.job.created(`\`${idIn(created)}\` 💬 ${text} · ${said} · `)))).toBe(true);
    expect(await jobOf(idIn(created))).toMatchObject({ name: text, text, schedule: { cron: "0 9 * * 1" }, category: "recurring", createdBy: "user" });
  });
});

describe("/remind with a repetition", () => {
  const table: [language: string, message: string, text: string, phrase: string, said: string, cron: string][] = [
    ["fr", "/remind tous les jours à 8h lire le journal", "lire le journal", "tous les jours à 8h", "tous les jours à 08:00", "0 8 * * *"],
    ["it", "/remind ogni lunedì alle 9 annaffiare le piante", "annaffiare le piante", "ogni lunedì alle 9", "ogni lunedì alle 09:00", "0 9 * * 1"],
  ];
  it.each(table)("%s: %s makes the recurring job, saying where it cut", async (language, message, text, phrase, said, cron) => {
    const t = await textsOf(language);
    const reply = (await say(message, language)).text.split("\n");
    expect(reply.slice(1, 3)).toEqual([t.job.cut(phrase, text), `🔁 ${said} (${ZONE}) · \`${cron}\``].map(renderTelegramHtml));
    expect(await jobOf(idIn(reply[0]!))).toMatchObject({ name: text, text, schedule: { cron }, category: "recurring" });
  });
});
