/**
 * "Remind me about this" for any message (docs/telegram.md#remind-me-about-this, issue 36): `/remind <when>` as a reply
 * to a photo, or as a photo's caption, makes a one-off whose fire brings the message back with `copyMessage`, then the
 * reminder with its buttons under it; a message Telegram will not copy is refused when the reminder is made; one gone
 * at fire time is said in one line and the reminder still arrives; transcript mode keeps the reference. Through the
 * webhook with Telegram's update shapes and the Bot API stub. Chat ids 9900000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { renderTelegramHtml } from "../../src/telegram/render";
import { feed } from "./agent-helpers";
import { advanceTo, chatIds, jobsOf, lines, must, queued, quietConsole, transcript } from "./helpers";
import { delivered, newUpdateId, postUpdate, type TelegramChat, TestBot, telegramChat, textOf } from "./telegram-helpers";

const bot = new TestBot("remind-copy");
const newChat = chatIds(9_900_000);
const PHOTO = [{ file_id: "AgAC-photo", file_unique_id: "u1", width: 90, height: 90 }];

const person = (chatId: string) => ({ id: Number(chatId), is_bot: false, first_name: "Ada", language_code: "en" });
const chatOf = (chatId: string) => ({ id: Number(chatId), type: "private" });

/** The user sends `message` (fields of Telegram's Message besides its id, sender, chat and date); the bot's one reply. */
async function sends(chat: TelegramChat, message: Record<string, unknown>): Promise<string | undefined> {
  const before = (await bot.sends(chat.chatId)).length;
  const updateId = newUpdateId();
  const update = {
    update_id: updateId,
    message: { message_id: updateId % 100_000, from: person(chat.chatId), chat: chatOf(chat.chatId), date: Math.floor(Date.now() / 1000), ...message },
  };
  expect((await postUpdate(bot.env([chat.chatId]), update)).status).toBe(200);
  const fresh = (await delivered(bot, chat)).slice(before);
  expect(fresh).toHaveLength(1);
  return textOf(fresh[0]);
}

/** The chat's one job fired and answered by the echo agent; the Bot API calls it made then. */
async function fire(chat: TelegramChat): Promise<{ method: string; params: Record<string, unknown> }[]> {
  const [job] = await jobsOf(chat);
  await advanceTo(chat.stub, Date.parse(job!.nextRunAt!));
  await runDurableObjectAlarm(chat.stub);
  const before = (await bot.calls({ chatId: chat.chatId })).length;
  await feed([(await queued(chat.stub)).at(-1)!.body as PromptMessage]);
  await delivered(bot, chat);
  return (await bot.calls({ chatId: chat.chatId })).slice(before).filter((c) => c.method === "copyMessage" || c.method === "sendMessage");
}

describe("/remind about a message", () => {
  it("as a reply to a photo: a one-off named for it, whose fire copies the photo and sends the reminder under it", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await must(chat.stub.setTimeZone(chat.chatId, "UTC"));
    const reply = await sends(chat, { text: "/remind in 2 hours", reply_to_message: { message_id: 500, date: 0, chat: chatOf(chat.chatId), photo: PHOTO } });
    expect(reply).toMatch(/^Created <code>\w{5}<\/code> 💬 a photo · once /);
    const [job] = await jobsOf(chat);
    expect(job!.text).toBe("a photo");
    const calls = await fire(chat);
    expect(calls.map((c) => c.method)).toEqual(["copyMessage", "sendMessage"]);
    expect(calls[0]!.params).toMatchObject({ chat_id: chat.chatId, from_chat_id: chat.chatId, message_id: 500 });
    expect(String(calls[1]!.params.text)).toBe("a photo");
    expect(calls[1]!.params.reply_markup).toBeDefined();
    // The transcript keeps the reference (the page's chat panel shows it), never the file.
    const kept = (await transcript(chat.stub, chat.chatId)).filter((e) => e.role === "bot").map((e) => e.text);
    expect(kept.slice(-2)).toEqual(["📎 a photo (message 500)", "a photo"]);
  });

  it("as a photo's caption, with words of its own: the photo itself, and the words as the reminder", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const updateText = await sends(chat, { photo: PHOTO, caption: "/remind in 3 hours check this receipt" });
    expect(updateText).toMatch(/💬 check this receipt · once /);
    const [job] = await jobsOf(chat);
    expect(job!.text).toBe("check this receipt");
    const calls = await fire(chat);
    expect(calls.map((c) => c.method)).toEqual(["copyMessage", "sendMessage"]);
    expect(String(calls[1]!.params.text)).toBe("check this receipt");
  });

  it("refuses a message Telegram will not copy (a quiz, protected content) when it has no words of its own", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const refused = renderTelegramHtml("I can't bring that message back (Telegram does not let bots copy it): give the reminder a text of its own instead.");
    const quiz = { message_id: 501, date: 0, chat: chatOf(chat.chatId), poll: { id: "p", question: "?", options: [], type: "quiz" } };
    expect(await sends(chat, { text: "/remind in 1 hour", reply_to_message: quiz })).toBe(refused);
    const locked = { message_id: 502, date: 0, chat: chatOf(chat.chatId), photo: PHOTO, has_protected_content: true };
    expect(await sends(chat, { text: "/remind in 1 hour", reply_to_message: locked })).toBe(refused);
    expect(await jobsOf(chat)).toEqual([]);
  });

  it("says in one line that the message is gone, and still sends the reminder", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await sends(chat, { text: "/remind in 2 hours", reply_to_message: { message_id: 503, date: 0, chat: chatOf(chat.chatId), voice: { file_id: "v" } } });
    await bot.script(
      "copyMessage",
      [{ kind: "raw", status: 400, body: { ok: false, error_code: 400, description: "Bad Request: message to copy not found" } }],
      chat.chatId,
    );
    const logged = quietConsole("log");
    const calls = await fire(chat);
    expect(calls.map((c) => [c.method, c.params.text])).toEqual([
      ["copyMessage", undefined],
      ["sendMessage", renderTelegramHtml("📎 The message this reminder was about is gone.")],
      ["sendMessage", "a voice message"],
    ]);
    expect(lines(logged).filter((l) => l.startsWith("outbox:"))).toEqual([
      expect.stringMatching(
        /^outbox: copy:[a-z2-9]{5}:\d+: the message could not be copied: Telegram copyMessage failed \(400\): Bad Request: message to copy not found$/,
      ),
    ]);
  });
});
