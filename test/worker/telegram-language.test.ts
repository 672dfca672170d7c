/**
 * The chat's language (docs/telegram.md#language, issue 33 item 1): `/language` shows it and where it comes from,
 * `/language de` sets it, `/language auto` lets it follow each message again; without a choice a reply follows the
 * sender's Telegram app (`language_code`), else the last such the chat saw, else English. What follows it today:
 * the words of schedules (read first, described in the reply). Through the webhook and the Bot API stub; chat ids
 * 5560000 up.
 */
import { describe, expect, it, vi } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { chatIds, jobsOf } from "./helpers";
import { delivered, postUpdate, type TelegramChat, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_560_000);
const bot = new TestBot("language");

/** The chat's user writes `text` from a Telegram app in `language` (none: an app that sends no language_code); the one reply. */
async function say(chat: TelegramChat, text: string, language?: string): Promise<string> {
  const before = (await bot.sends(chat.chatId)).length;
  const update = textUpdate(chat.chatId, text);
  const from = language === undefined ? update.message.from : { ...update.message.from, language_code: language };
  expect((await postUpdate(bot.env([chat.chatId]), { ...update, message: { ...update.message, from } })).status).toBe(200);
  const fresh = (await delivered(bot, chat)).slice(before);
  expect(fresh, `replies to ${text}`).toHaveLength(1);
  return String(fresh[0]!.params.text);
}

/** The 🔁 line of a reply that made a recurring job. */
const described = (reply: string) => reply.split("\n").find((line) => line.startsWith("🔁"));

describe("/language", () => {
  it("shows the language and where it comes from, sets it, refuses one it does not speak, and goes back to auto, each in the chat's language", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    expect(await say(chat, "/language")).toBe(
      renderTelegramHtml(
        "Language: English (en), from the language of your Telegram app. Change it with /language followed by one of en, de, fr, es, pt, it, nl, ru, auto (each message's language).",
      ),
    );
    expect(await say(chat, "/language", "pt-BR")).toBe(
      "Idioma: Português (pt), o do seu aplicativo Telegram. Mude-o com /language seguido de en, de, fr, es, pt, it, nl, ru, auto (o idioma de cada mensagem).",
    );
    // Set from an English app: said in the language set.
    expect(await say(chat, "/language DE", "en")).toBe("Sprache auf Deutsch (de) gestellt.");
    expect(await say(chat, "/language", "ru")).toBe(
      "Sprache: Deutsch (de), mit /language gewählt. Ändere sie mit /language und einem von en, de, fr, es, pt, it, nl, ru, auto (die Sprache jeder Nachricht).",
    );
    expect(await say(chat, "/language xx")).toBe(
      "„xx“ ist keine Sprache, die ich spreche; wähle eine von en, de, fr, es, pt, it, nl, ru, auto, etwa /language de.",
    );
    // Back to auto: said in the language of the app that asked.
    expect(await say(chat, "/language auto", "nl")).toBe(
      "De taal van de chat volgt nu elk bericht: die van de Telegram-app van de afzender als ik die spreek, anders de laatste zulke, anders Engels.",
    );
    expect(await say(chat, "/language", "en")).toMatch(/^Language: English \(en\), from the language of your Telegram app\./);
  });

  it("/quiet answers in the chat's language", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    expect(await say(chat, "/quiet", "ru")).toBe("Тихих часов нет: каждое сообщение приходит со звуком уведомления. Задайте их командой /quiet 22:00-07:00.");
    expect(await say(chat, "/quiet 22-7", "fr")).toMatch(
      /^Heures calmes définies : 22:00–07:00 \(UTC\)\. Les messages envoyés pendant ce temps arrivent sans son ; rien n'est retenu\./,
    );
    expect(await say(chat, "/quiet 25-99", "it")).toBe(
      "Non sono riuscito a leggere «25-99» come fascia di silenzio: indica quando inizia e finisce, nel tuo fuso orario. Prova /quiet 22:00-07:00 o /quiet off.",
    );
  });
});

describe("what follows the chat's language", () => {
  it("a language set with /language wins over the sender's app: a schedule is read and described in it", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await say(chat, "/language de");
    const reply = await say(chat, "/every werktags um 8:30 Post lesen", "en");
    expect(described(reply)).toBe("🔁 werktags um 08:30 (UTC) · <code>30 8 * * 1-5</code>");
    expect((await jobsOf(chat)).map((j) => [j.name, j.schedule])).toEqual([["Post lesen", { cron: "30 8 * * 1-5" }]]);
  });

  it("without a choice, a message from an app that sends no language is answered in the last language the chat saw", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await say(chat, "/jobs", "ru");
    expect(described(await say(chat, "/every каждый день в 9 кофе"))).toBe("🔁 каждый день в 09:00 (UTC) · <code>0 9 * * *</code>");
    // A message from an app in a language of the eight moves it; one in another language (Japanese) does not.
    await say(chat, "/jobs", "ja");
    expect(described(await say(chat, "/every 20m stretch"))).toBe("🔁 каждые 20 минут (UTC) · <code>*/20 * * * *</code>");
    await say(chat, "/jobs", "fr");
    expect(described(await say(chat, "/every 20m stretch"))).toBe("🔁 toutes les 20 minutes (UTC) · <code>*/20 * * * *</code>");
  });
});
