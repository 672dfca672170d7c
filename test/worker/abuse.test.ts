/**
 * Input an attacker or a bad day sends (issue 12): a Telegram text far over Telegram's own limit is capped
 * before it is queued; a command's echoed argument is cut, so a 3,000-character command gets one short
 * reply (ten 10,000-character commands produced 18 messages before). Chat ids 8300000 up; the Bot API is the stub.
 */
import { describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { chatIds, must, transcript } from "./helpers";
import { delivered, postUpdate, type TelegramChat, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(8_300_000);
const bot = new TestBot("abuse");

/** Sends `text` as the chat's user and returns the texts of the bot's replies to it (exactly `count`). */
async function repliesTo(chat: TelegramChat, text: string, count = 1): Promise<string[]> {
  const before = (await bot.sends(chat.chatId)).length;
  expect((await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, text))).status).toBe(200);
  const fresh = (await delivered(bot, chat, before + count)).slice(before);
  return fresh.map((c) => String(c.params.text));
}

describe("a Telegram text over Telegram's limit", () => {
  // Each is under the webhook's 64 KiB body limit, and was over the queue's 128 KB as a prompt (text + body).
  for (const [what, char, n] of [
    ["a 60,000-character text", "x", 60_000],
    ["16,000 emoji (4 bytes each)", "😀", 16_000],
  ] as const) {
    it(`is cut to 4,096 characters before it is queued: ${what} (answered 500 before)`, async () => {
      const chat = await telegramChat(bot, newChat().chatId, { spy: true });
      const res = await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, char.repeat(n)));
      expect(res.status).toBe(200);
      const [queued] = chat.sent!.map((s) => s.body as PromptMessage);
      expect(queued!.text).toBe(char.repeat(4096 / char.length));
      expect(queued!.body).toBe(queued!.text);
      expect(new TextEncoder().encode(JSON.stringify(queued)).length).toBeLessThan(128 * 1024);
      const [entry] = await transcript(chat.stub, chat.chatId);
      expect(entry).toMatchObject({ role: "user", source: "telegram", text: char.repeat(4096 / char.length) });
    });
  }

  it("never splits a character: an emoji at the limit is left out whole", async () => {
    const chat = await telegramChat(bot, newChat().chatId, { spy: true });
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, `${"x".repeat(4095)}😀 and more`));
    const [queued] = chat.sent!.map((s) => s.body as PromptMessage);
    expect(queued!.text).toBe("x".repeat(4095));
  });
});

describe("a command with a 3,000-character argument", () => {
  const long = "z".repeat(3_000);
  const cut = `${"z".repeat(40)}…`;

  it("gets one reply that quotes at most 40 characters of it", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    expect(await repliesTo(chat, `/cancel ${long}`)).toEqual([`No job ${cut} in this chat.`]);
    expect(await repliesTo(chat, `/timezone ${long}`)).toEqual([
      `I don't know a time zone or place called "${cut}". Try /timezone Berlin or /timezone America/New_York.`,
    ]);
    const [every] = await repliesTo(chat, `/every "${long}" text`);
    expect(every!.length).toBeLessThan(400);
    expect(every).toContain(`"${cut}"`);
    await must(chat.stub.listJobs(chat.chatId, {}));
  });
});
