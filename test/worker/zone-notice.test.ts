/**
 * No one is surprised by UTC (docs/telegram.md): a chat that follows the default zone is told so once, on the reply that
 * creates its first job (`/remind`, `/every`, an offered reminder's Create), with the default zone's name when
 * DEFAULT_TIMEZONE names one. "Once" is the chat's setting `zone_told`, written when the notice is told or the
 * chat sets a zone: a chat with a zone of its own is never told, and nothing else (the API, the tools, a
 * second job) tells it or uses it up. Through the webhook and the Bot API stub; chat ids 5190000 up.
 */
import { describe, expect, it, vi } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { chatIds, createJob, must, setInstanceVars } from "./helpers";
import { sayOnce, type TelegramChat, TestBot, telegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_190_000);
const bot = new TestBot("zone-notice");

const NOTICE = "Times here are in UTC. Where are you? Send /timezone and your city, e.g. /timezone Berlin.";
const say = async (chat: TelegramChat, text: string): Promise<string> => (await sayOnce(bot, chat, text)).params.text as string;
const html = (markdown: string) => renderTelegramHtml(markdown);

describe("the default-zone notice", () => {
  it("ends the reply that creates the chat's first job, and only that one", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const first = await say(chat, "/remind in 2 hours check the oven");
    expect(first.endsWith(`\n${html(NOTICE)}`)).toBe(true);
    expect(first.split("\n")).toHaveLength(4);
    const second = await say(chat, "/remind in 3 hours check again");
    expect(second).not.toContain("Times here are in");
    expect(second.split("\n")).toHaveLength(3);
    // Not on /every either, once told.
    expect(await say(chat, '/every "0 9 * * *" stretch')).not.toContain("Times here are in");
  });

  it("comes with /every when that makes the first job, after its next runs", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const lines = (await say(chat, '/every "0 9 * * *" stretch')).split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe(html('Read "0 9 * * *" as the schedule and "stretch" as the text.'));
    expect(lines[2]).toBe(html("🔁 every day at 09:00 (UTC) · `0 9 * * *`"));
    expect(lines[3]).toMatch(/^Next: /);
    expect(lines[4]).toBe(html(NOTICE));
  });

  it("names DEFAULT_TIMEZONE's zone when the operator set one", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await setInstanceVars(chat.stub, { ...bot.vars([chat.chatId]), DEFAULT_TIMEZONE: "Europe/Berlin" });
    const reply = await say(chat, "/remind in 2 hours check the oven");
    expect(reply).toContain("(Europe/Berlin), in 2 h\n");
    expect(reply.endsWith(`\n${html("Times here are in Europe/Berlin. Where are you? Send /timezone and your city, e.g. /timezone Berlin.")}`)).toBe(true);
  });

  it("is never told to a chat that set its zone, even after it went back to the default", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await say(chat, "/timezone Berlin");
    expect(await say(chat, "/remind in 2 hours check the oven")).not.toContain("Times here are in");
    await say(chat, "/timezone reset");
    expect(await say(chat, "/remind in 3 hours check again")).not.toContain("Times here are in");
  });

  it("is not used up by a job the API or the tools create: the chat's first reply that creates one still tells it", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await createJob(chat.chatId, { name: "Made by the page", kind: "prompt", cron: "0 8 * * *", text: "Hi" });
    expect(await must(chat.stub.getSettings(chat.chatId))).toEqual({ chatId: chat.chatId, timeZone: "UTC", isDefault: true });
    expect((await say(chat, "/remind in 2 hours check the oven")).endsWith(`\n${html(NOTICE)}`)).toBe(true);
  });
});
