/**
 * Issue 25's actions in a group and its forum topics (issue 26, docs/telegram.md#groups-and-topics, Buttons, More
 * commands, Replies and edits), through the webhook with the updates Telegram sends (test/group-updates.ts) and
 * the Bot API stub: the buttons under a job's message (Done, the snoozes, Skip next, Pause), `/edit`, `/skip` and
 * `/quiet`, and an edited `/remind`, are for the group's admins and listed users; anyone else gets `Only the
 * group's admins can change its jobs.` (a press as its notice) and nothing changes. A snooze's copy posts in the
 * topic of the message pressed; a reply to a job's message in a topic is answered there; the group's quiet hours
 * hold for its jobs. Every Bot API call a step makes is asserted, in order.
 *
 * The chats' clocks stand still at Wed 12 May 2027 14:30 in Berlin (CEST, UTC+2). Users 5290001 (an admin),
 * 5290002 (a member), 5290003 (in ALLOWED_USER_IDS); forums -1005290000000 up, basic groups -4529000000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { NO_MODEL_REPLY } from "../../src/agent/echo";
import { ADMINS_ONLY, ROLE_KEPT_MS } from "../../src/chat/members";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { renderTelegramHtml } from "../../src/telegram/render";
import {
  BOT_USERNAME,
  basicGroup,
  groupEdit,
  groupPress,
  groupText,
  inTopic,
  person,
  supergroup,
  type TgChat,
  type TgUser,
  topicReply,
  topicText,
} from "../group-updates";
import { feed } from "./agent-helpers";
import { advanceTo, clockOf, historyOf, jobOf, jobsOf, must } from "./helpers";
import { type Call, delivered, newUpdateId, postUpdate, type TelegramChat, TestBot, telegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const bot = new TestBot("group-actions");
const ADMIN = person(5290001, "Ada");
const MEMBER = person(5290002, "Bob");
const LISTED = person(5290003, "Cy");
const TOPIC = 42;
const BERLIN = "Europe/Berlin";
const MIN = 60_000;
// Wed 12 May 2027 14:30 in Berlin.
const MAY = Date.UTC(2027, 4, 12, 12, 30);
// 09:00 in Berlin on a day of May 2027.
const nine = (day: number) => Date.UTC(2027, 4, day, 7, 0);
let nextForum = 0;
let nextBasic = 0;

beforeAll(async () => {
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

/** A listed group in Europe/Berlin whose clock stands at `at`: a forum (a supergroup with topics) or a basic group. */
async function groupAt(kind: "forum" | "basic", at = MAY): Promise<{ chat: TelegramChat; tg: TgChat }> {
  const chatId = kind === "forum" ? `-100${5290000000 + nextForum++}` : `-${4529000000 + nextBasic++}`;
  const chat = await telegramChat(bot, chatId, { allowed: [String(LISTED.id)], chats: [chatId] });
  await chat.stub.testFreezeClock(at);
  await must(chat.stub.setTimeZone(chatId, BERLIN));
  return { chat, tg: kind === "forum" ? supergroup(chatId, "Ops", true) : basicGroup(chatId) };
}

/** Every Bot API call this bot made, oldest first (one bot per file: no other file's calls). */
const allCalls = () => bot.calls();

/**
 * Posts an update to the webhook, sends what the chat then has to send, and returns every Bot API call that made,
 * as `[method, what matters of it]`: a send's topic, text and whether it is silent; a press's notice; an edit's
 * markup; whom getChatMember asked about.
 */
async function post(chat: TelegramChat, update: unknown): Promise<unknown[][]> {
  const before = (await allCalls()).length;
  expect((await postUpdate(bot.env([String(LISTED.id)], [chat.chatId]), update)).status).toBe(200);
  await delivered(bot, chat);
  return (await allCalls()).slice(before).map(brief);
}

function brief(call: Call): unknown[] {
  const p = call.params;
  switch (call.method) {
    case "sendMessage":
      return ["sendMessage", p.message_thread_id ?? null, p.text, p.disable_notification ?? false];
    case "answerCallbackQuery":
      return ["answerCallbackQuery", p.text];
    case "editMessageReplyMarkup":
      return ["editMessageReplyMarkup", p.message_id, p.reply_markup];
    case "getChatMember":
      return ["getChatMember", p.user_id];
    default:
      return [call.method];
  }
}

const sent = (thread: number | null, markdown: string, silent = false) => ["sendMessage", thread, renderTelegramHtml(markdown), silent];
const idIn = (text: unknown) => /<code>([a-z2-9]{5})<\/code>/.exec(String(text))![1]!;
/** An answered message's markup: the one line, as a button that answers that it was. */
const oneLine = (text: string, runId: string) => ({ inline_keyboard: [[{ text, callback_data: `a:${runId}` }]] });

/** A command sent in the forum's topic by `from`; its one reply must go there. Returns the made job's id, if any. */
async function inTopicCommand(chat: TelegramChat, tg: TgChat, from: TgUser, text: string): Promise<string> {
  const calls = await post(chat, topicText(newUpdateId(), tg, from, TOPIC, text));
  const sends = calls.filter((c) => c[0] === "sendMessage");
  expect(sends, text).toHaveLength(1);
  expect(sends[0]![1]).toBe(TOPIC);
  return idIn(sends[0]![2]);
}

/**
 * Fires job `id` at its next run (the clock moved there), hands its prompt to the consumer (the echo agent
 * delivers its text) and sends it: the run, and the job's message as Telegram got it.
 */
async function fire(chat: TelegramChat, id: string): Promise<{ runId: string; message: Call }> {
  await advanceTo(chat.stub, Date.parse((await jobOf(chat.stub, chat.chatId, id)).nextRunAt!));
  const before = chat.sent!.length;
  expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
  const prompt = chat
    .sent!.slice(before)
    .map((s) => s.body as PromptMessage)
    .find((m) => m.jobId === id)!;
  await feed([prompt]);
  const sends = await delivered(bot, chat);
  return { runId: prompt.key, message: sends.at(-1)! };
}

/** A press in the forum's topic under the job's message. */
const pressIn = (tg: TgChat, from: TgUser, data: string, message: Call) => groupPress(newUpdateId(), tg, from, data, TOPIC, message.messageId!);

describe("the buttons under a job's message in a group", () => {
  it("refuse a member's Done, Snooze 1 h, Skip next and Pause as the press's notice, changing nothing; an admin's press then acts", async () => {
    const { chat, tg } = await groupAt("forum");
    const id = await inTopicCommand(chat, tg, LISTED, "/every day at 9:00 Standup notes");
    const { runId, message } = await fire(chat, id);
    expect([message.params.message_thread_id, message.params.text]).toEqual([TOPIC, "Standup notes"]);
    const job = await jobOf(chat.stub, chat.chatId, id);
    expect(job).toMatchObject({ nextRunAt: new Date(nine(14)).toISOString(), enabled: true, threadId: TOPIC });
    await bot.script(
      "getChatMember",
      [
        { kind: "member", status: "member" },
        { kind: "member", status: "administrator" },
      ],
      chat.chatId,
    );
    // Telegram is asked once; what it said is remembered for the other presses.
    const presses = [`d:${runId}`, `s:60:${runId}`, `k:${runId}`, `p:${runId}`];
    const answers = [];
    for (const data of presses) answers.push(await post(chat, pressIn(tg, MEMBER, data, message)));
    expect(answers).toEqual([
      [
        ["getChatMember", MEMBER.id],
        ["answerCallbackQuery", ADMINS_ONLY],
      ],
      [["answerCallbackQuery", ADMINS_ONLY]],
      [["answerCallbackQuery", ADMINS_ONLY]],
      [["answerCallbackQuery", ADMINS_ONLY]],
    ]);
    expect(await jobsOf(chat)).toEqual([job]);
    expect((await historyOf(chat.stub, chat.chatId, id)).map((r) => r.runId)).toEqual([runId]);
    // The buttons were not taken by the refused presses: the admin's Skip next acts, once.
    expect(await post(chat, pressIn(tg, ADMIN, `k:${runId}`, message))).toEqual([
      ["getChatMember", ADMIN.id],
      ["answerCallbackQuery", "Skipped 14 May 09:00; next 15 May 09:00."],
      ["editMessageReplyMarkup", message.messageId, oneLine("⏭ Skipped 14 May 09:00", runId)],
    ]);
    expect((await jobOf(chat.stub, chat.chatId, id)).nextRunAt).toBe(new Date(nine(15)).toISOString());
    expect(await post(chat, pressIn(tg, ADMIN, `p:${runId}`, message))).toEqual([["answerCallbackQuery", "This was answered already."]]);
    expect((await jobOf(chat.stub, chat.chatId, id)).enabled).toBe(true);
  });

  it("post a one-off's 10 min and Tomorrow 9:00 copies in the topic of the message pressed, and their messages there", async () => {
    const { chat, tg } = await groupAt("forum");
    const id = await inTopicCommand(chat, tg, LISTED, "/remind 10m Stand up");
    const first = await fire(chat, id);
    expect(first.message.params.message_thread_id).toBe(TOPIC);
    // 14:40: the listed user's 10 min, asking Telegram nothing.
    expect(await post(chat, pressIn(tg, LISTED, `s:10:${first.runId}`, first.message))).toEqual([
      ["answerCallbackQuery", "Snoozed until 14:50."],
      ["editMessageReplyMarkup", first.message.messageId, oneLine("⏰ Snoozed until 14:50", first.runId)],
    ]);
    const [copy] = await jobsOf(chat);
    expect(copy).toMatchObject({ name: "Stand up", text: "Stand up", schedule: { at: new Date(MAY + 20 * MIN).toISOString() }, threadId: TOPIC });
    const second = await fire(chat, copy!.id);
    expect([second.message.params.message_thread_id, second.message.params.text]).toEqual([TOPIC, "Stand up"]);
    // 14:50: an admin's Tomorrow 9:00.
    await bot.script("getChatMember", [{ kind: "member", status: "administrator" }], chat.chatId);
    expect(await post(chat, pressIn(tg, ADMIN, `s:t:${second.runId}`, second.message))).toEqual([
      ["getChatMember", ADMIN.id],
      ["answerCallbackQuery", "Snoozed until 13 May 09:00."],
      ["editMessageReplyMarkup", second.message.messageId, oneLine("⏰ Snoozed until 13 May 09:00", second.runId)],
    ]);
    const [tomorrow] = await jobsOf(chat);
    expect(tomorrow).toMatchObject({ name: "Stand up", schedule: { at: new Date(nine(13)).toISOString() }, threadId: TOPIC });
    const third = await fire(chat, tomorrow!.id);
    expect([third.message.params.message_thread_id, third.message.params.text]).toEqual([TOPIC, "Stand up"]);
  });
});

describe("a reply to a job's message in a topic", () => {
  it("is answered in that topic: an admin's /skip skips, a member's /edit is refused there, a message to the agent is answered there", async () => {
    const { chat, tg } = await groupAt("forum");
    const id = await inTopicCommand(chat, tg, LISTED, "/every day at 9:00 Standup notes");
    const { message } = await fire(chat, id);
    const replied = { message_id: message.messageId!, text: "Standup notes" };
    const reply = (from: TgUser, text: string) => post(chat, topicReply(newUpdateId(), tg, from, TOPIC, bot.id, replied, text));
    // Thu 13 May 09:00: the job's next run is Friday's.
    expect(await reply(LISTED, "/skip")).toEqual([
      sent(
        TOPIC,
        [
          `Skipped 14 May 09:00.`,
          `\`${id}\` 💬 Standup notes · every day at 09:00 · next 15 May 09:00`,
          "Next: Sat 15 May 09:00, Sun 16 May 09:00, Mon 17 May 09:00",
        ].join("\n"),
      ),
    ]);
    await bot.script("getChatMember", [{ kind: "member", status: "member" }], chat.chatId);
    expect(await reply(MEMBER, "/edit 10:00")).toEqual([["getChatMember", MEMBER.id], sent(TOPIC, ADMINS_ONLY)]);
    expect(await jobOf(chat.stub, chat.chatId, id)).toMatchObject({ schedule: { cron: "0 9 * * *" }, nextRunAt: new Date(nine(15)).toISOString() });
    // A member may talk to the agent: the prompt carries the job's message, quoted, and the topic.
    const before = chat.sent!.length;
    expect(await reply(MEMBER, "what was decided?")).toEqual([]);
    const [prompt] = chat.sent!.slice(before).map((s) => s.body as PromptMessage);
    expect(prompt).toMatchObject({ source: "user", text: "> Standup notes\n\nwhat was decided?", userId: String(MEMBER.id), threadId: TOPIC });
    const callsBefore = (await allCalls()).length;
    await feed([prompt]);
    await delivered(bot, chat);
    expect((await allCalls()).slice(callsBefore).map(brief)).toEqual([sent(TOPIC, NO_MODEL_REPLY)]);
  });
});

describe("changing commands in a group", () => {
  it("refuse a member's /edit, /skip and /quiet with the sentence, asking Telegram once, and change nothing; /quiet alone is theirs to read", async () => {
    const { chat, tg } = await groupAt("basic");
    const say = (from: TgUser, text: string) => post(chat, groupText(newUpdateId(), tg, from, text));
    const made = await say(LISTED, "/every day at 9:00 Standup notes");
    const id = idIn(made[0]![2]);
    const job = await jobOf(chat.stub, chat.chatId, id);
    await bot.script("getChatMember", [{ kind: "member", status: "member" }], chat.chatId);
    const refused = [];
    for (const text of [`/edit ${id} 10:00`, `/edit ${id} text Retro notes`, `/skip ${id}`, "/quiet 22:00-07:00", "/quiet off"])
      refused.push(await say(MEMBER, text));
    expect(refused).toEqual([
      [["getChatMember", MEMBER.id], sent(null, ADMINS_ONLY)],
      [sent(null, ADMINS_ONLY)],
      [sent(null, ADMINS_ONLY)],
      [sent(null, ADMINS_ONLY)],
      [sent(null, ADMINS_ONLY)],
    ]);
    expect(await say(MEMBER, "/quiet")).toEqual([
      sent(null, "No quiet hours: every message arrives with its notification sound. Set them with /quiet 22:00-07:00."),
    ]);
    expect(await jobsOf(chat)).toEqual([job]);
    expect(await historyOf(chat.stub, chat.chatId, id)).toEqual([]);
    expect(await must(chat.stub.getQuiet(chat.chatId))).toEqual({ quiet: null });
  });
});

describe("quiet hours in a group", () => {
  it("hold for the group's jobs: inside them a job's message in its topic arrives without a sound, after them with one", async () => {
    // 23:30 in Berlin.
    const { chat, tg } = await groupAt("forum", Date.UTC(2027, 4, 12, 21, 30));
    expect(await post(chat, topicText(newUpdateId(), tg, LISTED, TOPIC, "/quiet 22:00-07:00"))).toEqual([
      sent(TOPIC, "Quiet hours set: 22:00–07:00 (Europe/Berlin). Messages sent then arrive without a sound; nothing is held back. It is quiet now.", true),
    ]);
    const night = await inTopicCommand(chat, tg, LISTED, "/remind 10m Night check");
    const morning = await inTopicCommand(chat, tg, LISTED, "/remind 8h Morning check");
    const a = await fire(chat, night);
    expect([a.message.params.message_thread_id, a.message.params.text, a.message.params.disable_notification]).toEqual([TOPIC, "Night check", true]);
    // 07:30: outside.
    const b = await fire(chat, morning);
    expect(await clockOf(chat.stub)).toBe(Date.UTC(2027, 4, 13, 5, 30));
    expect([b.message.params.message_thread_id, b.message.params.text, b.message.params.disable_notification]).toEqual([TOPIC, "Morning check", undefined]);
  });
});

describe("an edited message in a group", () => {
  it("from an admin no longer one is refused in its topic and changes nothing; a member's edit of a refused /remind is ignored", async () => {
    const { chat, tg } = await groupAt("forum");
    await bot.script(
      "getChatMember",
      [
        { kind: "member", status: "administrator" },
        { kind: "member", status: "member" },
        { kind: "member", status: "member" },
      ],
      chat.chatId,
    );
    const update = topicText(newUpdateId(), tg, ADMIN, TOPIC, "/remind 2h stand up");
    const made = await post(chat, update);
    expect(made[0]).toEqual(["getChatMember", ADMIN.id]);
    const id = idIn(made[1]![2]);
    const job = await jobOf(chat.stub, chat.chatId, id);
    // Ten minutes on Telegram is asked again, and says the user is an admin no more.
    await chat.stub.testAdvanceClock(ROLE_KEPT_MS);
    const edit = groupEdit(newUpdateId(), tg, ADMIN, update.message.message_id, "/remind 3h sit down", inTopic(tg, ADMIN, TOPIC));
    expect(await post(chat, edit)).toEqual([["getChatMember", ADMIN.id], sent(TOPIC, ADMINS_ONLY)]);
    expect(await jobsOf(chat)).toEqual([job]);
    // A member's /remind was refused and made nothing: its edit is no one's business, and asks nothing.
    const own = topicText(newUpdateId(), tg, MEMBER, TOPIC, "/remind 1h tea");
    expect(await post(chat, own)).toEqual([["getChatMember", MEMBER.id], sent(TOPIC, ADMINS_ONLY)]);
    expect(await post(chat, groupEdit(newUpdateId(), tg, MEMBER, own.message.message_id, "/remind 2h tea", inTopic(tg, MEMBER, TOPIC)))).toEqual([]);
    expect(await jobsOf(chat)).toEqual([job]);
  });
});
