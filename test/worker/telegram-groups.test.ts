/**
 * Groups through the webhook (issue 26, docs/api.md, docs/telegram.md), with the updates Telegram sends (test/group-updates.ts)
 * and the Bot API stub: a group in ALLOWED_CHAT_IDS is one chat (its jobs shared), a group not listed gets
 * nothing and leaves no state; members read and the group's admins (getChatMember, remembered 10 minutes) and
 * listed users change, everyone else is told `Only the group's admins can change its jobs.`; a command is the
 * bot's when bare or naming this bot (getMe, remembered); only a mention, a text mention or a reply reaches the
 * agent; `my_chat_member` removing the bot blocks the chat and adding it back unblocks it.
 *
 * Users 5270001 (an admin), 5270002 (a member), 5270003 (in ALLOWED_USER_IDS); supergroups -1005270000000 up,
 * basic groups -4527000000 up.
 */
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { ADMINS_ONLY, RIGHTS_UNKNOWN, ROLE_KEPT_MS } from "../../src/chat/members";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { app } from "../../src/http/app";
import { chatListSchema } from "../../src/schemas/directory";
import { jobReply } from "../../src/schemas/jobs";
import { renderTelegramHtml } from "../../src/telegram/render";
import { textsOf } from "../../src/texts";
import {
  asGroup,
  BOT_USERNAME,
  basicGroup,
  groupPress,
  groupText,
  myChatMember,
  person,
  replyToBot,
  supergroup,
  type TgChat,
  textMention,
} from "../group-updates";
import { feed, take } from "./agent-helpers";
import { envWith, expectSpyInPlace, jobsOf, must, objectExists, queued, send, setInstanceVars, transcript } from "./helpers";
import { type Call, delivered, expectReply, newUpdateId, postUpdate, type TelegramChat, TestBot, telegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const bot = new TestBot("groups");
const ADMIN = person(5270001, "Ada");
const MEMBER = person(5270002, "Bob");
const LISTED = person(5270003, "Cy");
let nextSuper = 0;
let nextBasic = 0;
const newSupergroup = () => `-100${5270000000 + nextSuper++}`;
const newBasicGroup = () => `-${4527000000 + nextBasic++}`;

beforeAll(async () => {
  // getMe as Telegram answers it for this bot (privacy mode on): its username, remembered once asked.
  await bot.script("getMe", [
    {
      kind: "ok",
      result: {
        id: Number(bot.id),
        is_bot: true,
        first_name: "Cuckoo",
        username: BOT_USERNAME,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      },
    },
  ]);
});

/** A listed group's chat object, in Telegram mode, with a spy on its queue. */
const group = (chatId: string): Promise<TelegramChat> => telegramChat(bot, chatId, { allowed: [LISTED.id.toString()], chats: [chatId] });
/** The webhook's env: this bot, the listed user, these groups. */
const hook = (...chats: string[]) => bot.env([String(LISTED.id)], chats);

/** Posts an update to the webhook (200 whatever it held) and returns the chat's new sendMessage calls. */
async function post(chat: TelegramChat, update: unknown, count = 1): Promise<Call[]> {
  const before = (await bot.sends(chat.chatId)).length;
  expect((await postUpdate(hook(chat.chatId), update)).status).toBe(200);
  return (await delivered(bot, chat, before + count)).slice(before);
}

const say = (chat: TelegramChat, from = LISTED, text: string, count = 1) => post(chat, groupText(newUpdateId(), chatOf(chat), from, text), count);
const chatOf = (chat: TelegramChat): TgChat => (chat.chatId.startsWith("-100") ? supergroup(chat.chatId) : basicGroup(chat.chatId));
const memberCalls = async (chatId: string) => (await bot.calls({ chatId, method: "getChatMember" })).map((c) => c.params);

describe("allowed groups", () => {
  it("serves a listed supergroup as one chat: /jobs@cuckoo_test_bot is answered in the group, getMe asked once", async () => {
    const chat = await group(newSupergroup());
    const [reply] = await say(chat, MEMBER, "/jobs@cuckoo_test_bot");
    expectReply(reply, chat.chatId, renderTelegramHtml("No scheduled jobs."));
    expect(reply!.params.message_thread_id).toBeUndefined();
    await say(chat, ADMIN, "/jobs@Cuckoo_Test_Bot");
    expect(await bot.calls({ method: "getMe" })).toHaveLength(1);
  });

  it("shares one chat's jobs among its members: a job one makes, another lists", async () => {
    const chat = await group(newBasicGroup());
    const [made] = await say(chat, LISTED, "/remind 2h water the plants");
    expect(String(made!.params.text)).toMatch(/^Created <code>[a-z2-9]{5}<\/code> 💬 water the plants · once /);
    const [listed] = await say(chat, MEMBER, "/jobs");
    expect(String(listed!.params.text)).toContain("💬 water the plants · once ");
    expect(await memberCalls(chat.chatId)).toEqual([]);
  });

  it("answers a group not in ALLOWED_CHAT_IDS with nothing and stores nothing, whoever writes", async () => {
    const chatId = newSupergroup();
    for (const from of [LISTED, ADMIN]) {
      for (const text of ["/jobs", "/jobs@cuckoo_test_bot", "@cuckoo_test_bot hello", "/remind 20m stretch"]) {
        expect((await postUpdate(hook(), groupText(newUpdateId(), supergroup(chatId), from, text))).status).toBe(200);
      }
    }
    expect((await postUpdate(hook(), myChatMember(newUpdateId(), supergroup(chatId), ADMIN, bot.id, "left", "member"))).status).toBe(200);
    expect(await objectExists(chatId)).toBe(false);
    expect(await bot.calls({ chatId })).toEqual([]);
  });

  it("refuses to create a job for a group outside both lists, with the sentence, and creates one for a listed group", async () => {
    // The object reads its own vars: this bot, and a list without the group.
    const outside = (await telegramChat(bot, newSupergroup(), { allowed: [String(LISTED.id)], chats: [] })).chatId;
    const job = { name: "Standup", kind: "prompt", text: "Standup time", cron: "0 9 * * 1-5" };
    expect(await send("POST", `/admin/chats/${outside}/jobs`, job, hook())).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: `Chat ${outside} is not allowed to use this bot; add the group's id to ALLOWED_CHAT_IDS first.` } },
    });
    const listed = (await group(newSupergroup())).chatId;
    const created = await send("POST", `/admin/chats/${listed}/jobs`, job, hook(listed)).as(jobReply());
    expect(created.status).toBe(201);
    expect(created.body.job).toMatchObject({ chatId: listed, name: "Standup" });
  });
});

describe("who may change what", () => {
  it("lets a member read (/jobs, /status, /help, /timezone) without asking Telegram about them", async () => {
    const chat = await group(newSupergroup());
    for (const text of ["/jobs", "/status", "/help", "/timezone"]) await say(chat, MEMBER, text);
    expect(await memberCalls(chat.chatId)).toEqual([]);
  });

  it("refuses a member's change with the sentence, and changes nothing", async () => {
    const chat = await group(newSupergroup());
    await bot.script("getChatMember", [{ kind: "member", status: "member" }], chat.chatId);
    const [reply] = await say(chat, MEMBER, "/remind 20m stand up");
    expectReply(reply, chat.chatId, renderTelegramHtml(ADMINS_ONLY));
    expect(await memberCalls(chat.chatId)).toEqual([{ chat_id: chat.chatId, user_id: MEMBER.id }]);
    // Remembered: the next change asks nothing, and is refused the same.
    const [again] = await say(chat, MEMBER, "/timezone Berlin");
    expectReply(again, chat.chatId, renderTelegramHtml(ADMINS_ONLY));
    expect(await memberCalls(chat.chatId)).toHaveLength(1);
    expect(await jobsOf(chat)).toEqual([]);
    expect(await must(chat.stub.getSettings(chat.chatId))).toEqual({ chatId: chat.chatId, timeZone: "UTC", isDefault: true });
  });

  it("lets an admin change, asks Telegram once in 10 minutes, and takes the right away from one no longer admin", async () => {
    const chat = await group(newSupergroup());
    await bot.script(
      "getChatMember",
      [
        { kind: "member", status: "administrator" },
        { kind: "member", status: "member" },
      ],
      chat.chatId,
    );
    const [made] = await say(chat, ADMIN, "/remind 2h stand up");
    expect(String(made!.params.text)).toMatch(/^Created <code>[a-z2-9]{5}<\/code> 💬 stand up · once /);
    await say(chat, ADMIN, "/timezone Europe/Berlin");
    expect(await memberCalls(chat.chatId)).toEqual([{ chat_id: chat.chatId, user_id: ADMIN.id }]);
    // Ten minutes on, Telegram is asked again, and now says the user is an admin no more.
    await chat.stub.testAdvanceClock(ROLE_KEPT_MS);
    const [refused] = await say(chat, ADMIN, "/timezone Asia/Tokyo");
    expectReply(refused, chat.chatId, renderTelegramHtml(ADMINS_ONLY));
    expect(await memberCalls(chat.chatId)).toEqual([
      { chat_id: chat.chatId, user_id: ADMIN.id },
      { chat_id: chat.chatId, user_id: ADMIN.id },
    ]);
    expect((await must<{ timeZone: string }>(chat.stub.getSettings(chat.chatId))).timeZone).toBe("Europe/Berlin");
    expect(await jobsOf(chat)).toHaveLength(1);
  });

  it("lets a user in ALLOWED_USER_IDS change without asking Telegram, and the creator (owner) of the group as an admin", async () => {
    const chat = await group(newBasicGroup());
    await say(chat, LISTED, "/timezone Europe/Paris");
    expect(await memberCalls(chat.chatId)).toEqual([]);
    await bot.script("getChatMember", [{ kind: "member", status: "creator" }], chat.chatId);
    const [set] = await say(chat, ADMIN, "/timezone reset");
    expect(String(set!.params.text)).toMatch(/^Time zone set to UTC \(UTC\+00:00, default\)\./);
  });

  it("lets an anonymous admin (writing as the group) change without asking Telegram, whom it could not name", async () => {
    const chat = await group(newSupergroup());
    const [made] = await post(chat, asGroup(newUpdateId(), supergroup(chat.chatId), "/remind 2h stand up"));
    expect(String(made!.params.text)).toMatch(/^Created <code>[a-z2-9]{5}<\/code> 💬 stand up · once /);
    expect(await memberCalls(chat.chatId)).toEqual([]);
  });

  it("refuses a member's button press as the callback's text, and the job stays as it was", async () => {
    const chat = await group(newSupergroup());
    const [made] = await say(chat, LISTED, "/remind 2h stand up");
    const id = /<code>([a-z2-9]{5})<\/code>/.exec(String(made!.params.text))![1]!;
    await bot.script("getChatMember", [{ kind: "member", status: "restricted", isMember: true }], chat.chatId);
    const press = groupPress(newUpdateId(), supergroup(chat.chatId), MEMBER, `p:${id}`);
    expect((await postUpdate(hook(chat.chatId), press)).status).toBe(200);
    const answers = (await bot.calls({ method: "answerCallbackQuery" })).filter((c) => c.params.callback_query_id === press.callback_query.id);
    expect(answers.map((c) => c.params)).toEqual([{ callback_query_id: press.callback_query.id, text: ADMINS_ONLY }]);
    expect((await jobsOf(chat))[0]).toMatchObject({ id, enabled: true });
    // The listed user's press acts.
    const own = groupPress(newUpdateId(), supergroup(chat.chatId), LISTED, `p:${id}`);
    await postUpdate(hook(chat.chatId), own);
    expect((await jobsOf(chat))[0]).toMatchObject({ id, enabled: false });
  });

  it("changes nothing when Telegram cannot say who the admins are, and says so", async () => {
    const chat = await group(newSupergroup());
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await bot.script("getChatMember", [{ kind: "500" }], chat.chatId);
    const [reply] = await say(chat, ADMIN, "/remind 20m stand up");
    expectReply(reply, chat.chatId, renderTelegramHtml(RIGHTS_UNKNOWN));
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([`chat ${chat.chatId}: getChatMember for ${ADMIN.id} failed`]);
    // In the chat's language: an admin whose app speaks German.
    await bot.script("getChatMember", [{ kind: "500" }], chat.chatId);
    const [german] = await say(chat, { ...ADMIN, language_code: "de" }, "/remind 20m aufstehen");
    expectReply(german, chat.chatId, renderTelegramHtml((await textsOf("de")).problems.rightsUnknown));
    logged.mockRestore();
    expect(await jobsOf(chat)).toEqual([]);
  });
});

describe("talking to the bot in a group", () => {
  it("ignores /cmd@OtherBot, plain chatter and a reminder in words: no object, no call, no offer", async () => {
    const chatId = newSupergroup();
    for (const text of ["/jobs@OtherBot", "/weather", "good morning all", "remind me tomorrow at 9 to call mum", "ask @someone_else"]) {
      expect((await postUpdate(hook(chatId), groupText(newUpdateId(), supergroup(chatId), ADMIN, text))).status).toBe(200);
    }
    expect(await objectExists(chatId)).toBe(false);
    expect(await bot.calls({ chatId })).toEqual([]);
  });

  it("gives the agent a mention, a text mention and a reply to the bot (after the bot's message, quoted), each with who wrote it", async () => {
    const chat = await group(newSupergroup());
    const updates = [
      groupText(newUpdateId(), supergroup(chat.chatId), MEMBER, "@cuckoo_test_bot what is on today?"),
      textMention(newUpdateId(), supergroup(chat.chatId), ADMIN, bot.id, "Cuckoo, and tomorrow?"),
      replyToBot(newUpdateId(), supergroup(chat.chatId), MEMBER, bot.id, "thanks, and friday?"),
    ];
    for (const update of updates) expect((await postUpdate(hook(chat.chatId), update)).status).toBe(200);
    await expectSpyInPlace(chat.stub, chat.sent!);
    // The reply carries what it answers (replyToBot's "No scheduled jobs."), quoted, before its own text.
    const texts = ["@cuckoo_test_bot what is on today?", "Cuckoo, and tomorrow?", "> No scheduled jobs.\n\nthanks, and friday?"];
    const wanted = updates.map((u, i) => {
      const m = u.message as { from: { id: number } };
      return {
        v: 1,
        key: `u:${u.update_id}`,
        chatId: chat.chatId,
        timeZone: "UTC",
        source: "user",
        text: texts[i],
        body: texts[i],
        firedAt: expect.any(String),
        updateId: u.update_id,
        userId: String(m.from.id),
      };
    });
    expect(chat.sent!.map((s) => s.body as PromptMessage)).toStrictEqual(wanted);
  });
});

describe("the agent's tools in a group's turn", () => {
  /** A group member's message as the chat queues it (their id, the topic), taken by an agent: the turn's token. */
  async function turnOf(chat: TelegramChat, from: { id: number }, text: string): Promise<string> {
    const message: PromptMessage = {
      v: 1,
      key: `u:${newUpdateId()}`,
      chatId: chat.chatId,
      timeZone: "UTC",
      source: "user",
      text,
      body: text,
      firedAt: new Date().toISOString(),
      userId: String(from.id),
      threadId: 42,
    };
    return take(chat.stub, message);
  }
  /** `POST /tools/<chat>/schedule` with the turn's token, as an agent of its own calls it. */
  async function schedule(chatId: string, token: string, body: Record<string, unknown>) {
    const res = await app.request(
      `/tools/${chatId}/schedule`,
      { method: "POST", headers: { "Content-Type": "application/json", "X-Cuckoo-Turn": token }, body: JSON.stringify(body) },
      envWith(),
    );
    return (await res.json()) as { ok: boolean; text: string; data?: { job?: { threadId?: number; createdBy: string } } };
  }
  const create = { action: "create", name: "Standup", kind: "prompt", cron: "0 9 * * 1-5", text: "Standup time." };

  it("acts with the rights of the member whose message it answers: reads, and is told a change is for admins", async () => {
    const chat = await group(newSupergroup());
    const token = await turnOf(chat, MEMBER, "@cuckoo_test_bot make a standup job");
    expect(await chat.stub.turnRights(chat.chatId, token)).toEqual({ ok: true, value: { kind: "member", userId: String(MEMBER.id), threadId: 42 } });
    expect((await schedule(chat.chatId, token, { action: "list" })).ok).toBe(true);
    expect(await memberCalls(chat.chatId)).toEqual([]);
    await bot.script("getChatMember", [{ kind: "member", status: "member" }], chat.chatId);
    expect(await schedule(chat.chatId, token, create)).toEqual({ ok: false, text: ADMINS_ONLY });
    expect(await memberCalls(chat.chatId)).toEqual([{ chat_id: chat.chatId, user_id: MEMBER.id }]);
    expect(await jobsOf(chat)).toEqual([]);
  });

  it("lets an admin's turn change, and the job it makes posts in the topic the message came from", async () => {
    const chat = await group(newSupergroup());
    const token = await turnOf(chat, ADMIN, "@cuckoo_test_bot make a standup job");
    await bot.script("getChatMember", [{ kind: "member", status: "administrator" }], chat.chatId);
    const made = await schedule(chat.chatId, token, create);
    expect(made.ok).toBe(true);
    expect(made.data!.job).toMatchObject({ threadId: 42, createdBy: "agent" });
  });
});

describe("the built-in model in a group", () => {
  it("calls its tools with the rights of the member who wrote: a change the member may not make is refused to the model", async () => {
    const base = inject("modelStub");
    const model = { LLM_BASE_URL: `${base}/v1`, LLM_MODEL: "stub-model-groups", LLM_API_KEY: "sk-groups-test-key" };
    const answers = [
      { kind: "tools", calls: [{ name: "schedule_create", arguments: { name: "Standup", kind: "prompt", cron: "0 9 * * 1-5", text: "Standup time." } }] },
      { kind: "text", content: "Only the group's admins can set that up." },
    ];
    expect(
      (
        await fetch(`${base}/__stub/script`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ model: model.LLM_MODEL, answers }),
        })
      ).status,
    ).toBe(200);
    const chatId = newSupergroup();
    const chat = await telegramChat(bot, chatId, { allowed: [String(LISTED.id)], chats: [chatId] });
    await setInstanceVars(chat.stub, model);
    await bot.script("getChatMember", [{ kind: "member", status: "member" }], chatId);
    expect((await postUpdate(hook(chatId), groupText(newUpdateId(), supergroup(chatId), MEMBER, "@cuckoo_test_bot set up a weekday standup"))).status).toBe(
      200,
    );
    const [prompt] = (await queued(chat.stub)).map((q) => q.body as PromptMessage);
    await feed([prompt], "prompts", envWith({ ...bot.vars([String(LISTED.id)], [chatId]), ...model }));
    const tools = (await transcript(chat.stub, chatId)).filter((e) => e.role === "tool").map((e) => e.text);
    expect(tools).toEqual([`schedule_create ${JSON.stringify(answers[0]!.calls![0]!.arguments)}\n→ not ok: ${ADMINS_ONLY}`]);
    expect(await jobsOf(chat)).toEqual([]);
    const [reply] = await delivered(bot, chat, 1);
    expectReply(reply, chatId, renderTelegramHtml("Only the group's admins can set that up."));
  });
});

describe("the bot removed and added back (my_chat_member)", () => {
  it("blocks the chat when the bot is kicked or leaves (what waited is dropped), and unblocks it when it is back", async () => {
    const chat = await group(newSupergroup());
    // The directory's row (a chat with nothing to show has none: not blocked).
    const blocked = async () =>
      (await send("GET", "/admin/chats", undefined, hook(chat.chatId)).as(chatListSchema())).body.chats.find((c) => c.chatId === chat.chatId)?.blocked ?? false;
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    // A reply waits in the outbox (its alarm has not run) when the bot is removed: it is dropped, never sent.
    expect((await postUpdate(hook(chat.chatId), groupText(newUpdateId(), supergroup(chat.chatId), LISTED, "/jobs"))).status).toBe(200);
    expect((await postUpdate(hook(chat.chatId), myChatMember(newUpdateId(), supergroup(chat.chatId), ADMIN, bot.id, "member", "kicked"))).status).toBe(200);
    expect(await delivered(bot, chat)).toEqual([]);
    expect(await blocked()).toBe(true);
    // Telegram's repeat of the same change has no second effect.
    expect((await postUpdate(hook(chat.chatId), myChatMember(newUpdateId(), supergroup(chat.chatId), ADMIN, bot.id, "kicked", "left"))).status).toBe(200);
    expect((await postUpdate(hook(chat.chatId), myChatMember(newUpdateId(), supergroup(chat.chatId), ADMIN, bot.id, "left", "member"))).status).toBe(200);
    expect(await blocked()).toBe(false);
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
      `chat ${chat.chatId} is blocked: the bot's status there is now kicked; it stays so until the bot is added back`,
      `chat ${chat.chatId} is unblocked: the bot is member there again`,
    ]);
    logged.mockRestore();
    const [reply] = await say(chat, LISTED, "/jobs");
    expectReply(reply, chat.chatId, renderTelegramHtml("No scheduled jobs."));
  });
});
