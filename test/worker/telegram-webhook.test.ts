/**
 * `POST /telegram/webhook` (docs/api.md, docs/telegram.md, issue 5): the secret header, transcript mode, malformed updates,
 * the allow-list and private chats only (others leave no state and get no call), and a repeated `update_id`
 * with no second effect, one after the other and at once. Chat ids 5010000 up; the Bot API is the stub.
 *
 * `postUpdate` returns once the request and everything it left running (`waitUntil`) is done, so an update
 * that reached no chat object has made every Bot API call it ever will; a chat's replies go out in the alarm
 * runs `delivered` makes.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { statusText as statusIn } from "../../src/telegram/commands";
import { ENGLISH } from "../../src/texts";

const statusText = (s: Parameters<typeof statusIn>[1]) => statusIn(ENGLISH.t.status, s);

import { renderTelegramHtml } from "../../src/telegram/render";
import { brief, chatIds, envWith, expectSpyInPlace, objectExists, transcript } from "./helpers";
import { delivered, expectReply, newUpdateId, postUpdate, SECRET, STUB_URL, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

const newChat = chatIds(5_010_000);
const bot = new TestBot("webhook");
vi.setConfig({ testTimeout: 20_000 });
// A test that expects a log line spies on the console itself; the spy ends with it.
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the secret header", () => {
  it("answers 401 to a wrong or missing secret, creating no chat object and calling nothing", async () => {
    const { chatId } = newChat();
    for (const secret of ["wrong-secret", `${SECRET}x`, SECRET.slice(0, -1), "", null]) {
      const res = await postUpdate(bot.env([chatId]), textUpdate(chatId, "/help"), { secret });
      expect(res.status, `secret ${JSON.stringify(secret)}`).toBe(401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("unauthorized");
      expect(body.error.message).toMatch(/^[A-Z].*\.$/);
    }
    expect(await objectExists(chatId)).toBe(false);
    expect(await bot.calls({ chatId })).toEqual([]);
  });

  it("answers 200 with the right secret, and never replies in the response body", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const res = await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/jobs"));
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain("sendMessage");
    expect(body).not.toContain("scheduled");
    const [reply] = await delivered(bot, chat, 1);
    expectReply(reply, chat.chatId, renderTelegramHtml("No scheduled jobs."));
  });
});

describe("the body limit", () => {
  it("answers 413 to an update over 64 KiB once the secret matched, and 401 before reading it otherwise", async () => {
    const { chatId } = newChat();
    const huge = JSON.stringify({ ...textUpdate(chatId, "/help"), pad: "x".repeat(65 * 1024) });
    const res = await postUpdate(bot.env([chatId]), huge);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: "payload_too_large", message: "The body is larger than 64 KiB." } });
    expect((await postUpdate(bot.env([chatId]), huge, { secret: "wrong-secret" })).status).toBe(401);
    expect(await objectExists(chatId)).toBe(false);
  });
});

describe("a token without a secret", () => {
  it("answers 500 config_error naming TELEGRAM_WEBHOOK_SECRET, with or without a header, and stores nothing", async () => {
    const { chatId } = newChat();
    const noSecret = envWith({ ...bot.vars([chatId]), TELEGRAM_WEBHOOK_SECRET: undefined });
    for (const secret of [null, "", "anything"]) {
      const res = await postUpdate(noSecret, textUpdate(chatId, "/help"), { secret });
      expect(res.status).toBe(500);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("config_error");
      expect(body.error.message).toContain("TELEGRAM_WEBHOOK_SECRET");
    }
    expect(await objectExists(chatId)).toBe(false);
  });
});

describe("transcript mode", () => {
  it("answers 404 without a bot token, secret or not", async () => {
    const { chatId } = newChat();
    const noBot = envWith({ TELEGRAM_BOT_TOKEN: undefined, TELEGRAM_WEBHOOK_SECRET: SECRET, ALLOWED_USER_IDS: chatId, TELEGRAM_API_BASE: STUB_URL });
    for (const secret of [SECRET, null]) {
      const res = await postUpdate(noBot, textUpdate(chatId, "/help"), { secret });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    expect(await objectExists(chatId)).toBe(false);
  });
});

describe("malformed updates", () => {
  it("acknowledges malformed JSON and bodies that are not updates with 200, storing nothing, and logs why", async () => {
    const { chatId } = newChat();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const bodies = [
      "{not json",
      "",
      "[]",
      "null",
      JSON.stringify({ hello: "world" }),
      JSON.stringify({ update_id: "12", message: { text: "/help" } }),
      JSON.stringify({ update_id: -1, message: { message_id: 1, from: { id: Number(chatId) }, chat: { id: Number(chatId), type: "private" }, text: "/help" } }),
      JSON.stringify({ update_id: 5, message: { message_id: 1, chat: { id: Number(chatId), type: "private" }, text: "/help" } }),
    ];
    for (const body of bodies) {
      const res = await postUpdate(bot.env([chatId]), body);
      expect(res.status, body).toBe(200);
    }
    expect(await objectExists(chatId)).toBe(false);
    expect(await bot.calls({ chatId })).toEqual([]);
    // One line per body the update schema refused (the last one parses: an update without a sender, ignored).
    const why = (text: string) => ["telegram: acknowledged a malformed update", expect.stringContaining(text)];
    expect(logged.mock.calls).toEqual([
      why("JSON"),
      why("JSON"),
      why("expected object, received array"),
      why("expected object, received null"),
      why('"update_id"'),
      why("expected number, received string"),
      why("Too small: expected number to be >=0"),
    ]);
  });

  it("acknowledges an update of a kind the bot does not read (a channel post) and stores nothing", async () => {
    const { chatId } = newChat();
    const update = {
      update_id: newUpdateId(),
      channel_post: { ...textUpdate(chatId, "/help").message, chat: { id: Number(chatId), type: "channel", title: "News" } },
    };
    const res = await postUpdate(bot.env([chatId]), update);
    expect(res.status).toBe(200);
    expect(await objectExists(chatId)).toBe(false);
  });
});

describe("who is served", () => {
  it("ignores a group chat, even of an allowed user: 200, no object, no Bot API call", async () => {
    const { chatId: userId } = newChat();
    const groupId = `-100${userId}`;
    const update = {
      update_id: newUpdateId(),
      message: {
        message_id: 1,
        from: { id: Number(userId), is_bot: false, first_name: "Ada" },
        chat: { id: Number(groupId), type: "supergroup", title: "Team" },
        text: "/jobs",
      },
    };
    const res = await postUpdate(bot.env([userId]), update);
    expect(res.status).toBe(200);
    expect(await objectExists(groupId)).toBe(false);
    expect(await objectExists(userId)).toBe(false);
    expect(await bot.calls({ chatId: groupId })).toEqual([]);
    expect(await bot.calls({ chatId: userId })).toEqual([]);
  });

  it("ignores a user outside ALLOWED_USER_IDS: 200, no object, no Bot API call", async () => {
    const { chatId: allowed } = newChat();
    const { chatId: stranger } = newChat();
    for (const text of ["/help", "/jobs", "hello there", "/remind 20m Stretch"]) {
      const res = await postUpdate(bot.env([allowed]), textUpdate(stranger, text));
      expect(res.status).toBe(200);
    }
    // Nobody is allowed when the list is empty.
    const res = await postUpdate(bot.env([]), textUpdate(allowed, "/help"));
    expect(res.status).toBe(200);
    expect(await objectExists(stranger)).toBe(false);
    expect(await objectExists(allowed)).toBe(false);
    expect(await bot.calls({ chatId: stranger })).toEqual([]);
    expect(await bot.calls({ chatId: allowed })).toEqual([]);
  });

  it("ignores a private chat whose id is not the sender's", async () => {
    const { chatId: a } = newChat();
    const { chatId: b } = newChat();
    const update = textUpdate(b, "/help");
    update.message.from.id = Number(a);
    const res = await postUpdate(bot.env([a, b]), update);
    expect(res.status).toBe(200);
    expect(await objectExists(a)).toBe(false);
    expect(await objectExists(b)).toBe(false);
  });
});

describe("a repeated update_id", () => {
  it("has no second effect when it comes again later: one reply", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const update = textUpdate(chat.chatId, "/status");
    expect((await postUpdate(bot.env([chat.chatId]), update)).status).toBe(200);
    await delivered(bot, chat, 1);
    expect((await postUpdate(bot.env([chat.chatId]), update)).status).toBe(200);
    expect((await postUpdate(bot.env([chat.chatId]), { ...update, message: { ...update.message, text: "/jobs" } })).status).toBe(200);
    const calls = await delivered(bot, chat, 1);
    expect(calls).toHaveLength(1);
    expect(brief(await transcript(chat.stub, chat.chatId))).toEqual([
      { role: "user", source: "telegram", text: "/status" },
      {
        role: "bot",
        source: "command",
        text: statusText({ jobs: 0, zone: "UTC", offset: "UTC+00:00", isDefault: true, agent: "echo", runner: "off", blocked: false }),
      },
    ]);
  });

  it("has no second effect when two copies arrive at once: one reply", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const update = textUpdate(chat.chatId, "/jobs");
    const answers = await Promise.all([postUpdate(bot.env([chat.chatId]), update), postUpdate(bot.env([chat.chatId]), update)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const calls = await delivered(bot, chat, 1);
    expect(calls).toHaveLength(1);
    expectReply(calls[0], chat.chatId, renderTelegramHtml("No scheduled jobs."));
  });

  it("queues one prompt for a repeated text, one after the other and at once", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const first = textUpdate(chat.chatId, "What is on my list today?");
    await postUpdate(bot.env([chat.chatId]), first);
    await postUpdate(bot.env([chat.chatId]), first);
    const second = textUpdate(chat.chatId, "And tomorrow?");
    await Promise.all([postUpdate(bot.env([chat.chatId]), second), postUpdate(bot.env([chat.chatId]), second), postUpdate(bot.env([chat.chatId]), second)]);
    await expectSpyInPlace(chat.stub, chat.sent!);
    expect(chat.sent!.map((s) => (s.body as PromptMessage).key)).toEqual([`u:${first.update_id}`, `u:${second.update_id}`]);
    expect(brief(await transcript(chat.stub, chat.chatId))).toEqual([
      { role: "user", source: "telegram", text: "What is on my list today?" },
      { role: "user", source: "telegram", text: "And tomorrow?" },
    ]);
  });
});
