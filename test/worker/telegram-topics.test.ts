/**
 * Forum topics through the webhook (issue 26, docs/telegram.md), with the messages Telegram sends from a topic
 * (`message_thread_id`, `is_topic_message`, the topic's first message as `reply_to_message`): every reply goes to
 * the topic its update came from; a job made in a topic remembers it (`threadId`, shown by the API) and its
 * messages and buttons go there; /jobs in a topic lists the whole chat's jobs and marks each one's topic; a topic
 * that was deleted ("message thread not found") sends that message to the main thread, once, after a note, and
 * its jobs post there from then on (they forget the topic). Supergroups -1005280000000 up; user 5280003 is in
 * ALLOWED_USER_IDS.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { NO_MODEL_REPLY } from "../../src/agent/echo";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { topicGoneText } from "../../src/jobs/texts";
import { jobReply } from "../../src/schemas/jobs";
import { renderTelegramHtml } from "../../src/telegram/render";
import { BOT_USERNAME, groupPress, groupText, person, supergroup, topicText } from "../group-updates";
import { dayMonthTime, feed } from "./agent-helpers";
import { advanceTo, clockOf, jobOf, queued, send } from "./helpers";
import { type Call, chatTime, delivered, eitherMinute, newUpdateId, postUpdate, type TelegramChat, TestBot, telegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const bot = new TestBot("topics");
const CY = person(5280003, "Cy");
const TOPIC = 42;
let next = 0;
const newForum = () => `-100${5280000000 + next++}`;

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

const forum = (chatId: string) => supergroup(chatId, "Ops", true);
const hook = (chatId: string) => bot.env([String(CY.id)], [chatId]);
const open = (chatId: string): Promise<TelegramChat> => telegramChat(bot, chatId, { allowed: [String(CY.id)], chats: [chatId] });

/** Posts an update to the webhook and returns the chat's new sendMessage calls (`count` of them). */
async function post(chat: TelegramChat, update: unknown, count = 1): Promise<Call[]> {
  const before = (await bot.sends(chat.chatId)).length;
  expect((await postUpdate(hook(chat.chatId), update)).status).toBe(200);
  return (await delivered(bot, chat, before + count)).slice(before);
}
const inTopic = (chat: TelegramChat, text: string, count = 1) => post(chat, topicText(newUpdateId(), forum(chat.chatId), CY, TOPIC, text), count);
const inMain = (chat: TelegramChat, text: string, count = 1) => post(chat, groupText(newUpdateId(), forum(chat.chatId), CY, text), count);
const idIn = (call: Call | undefined) => /<code>([a-z2-9]{5})<\/code>/.exec(String(call?.params.text))![1]!;

describe("replies in a topic", () => {
  it("answers a command in the topic it came from, and one from the main thread in the main thread", async () => {
    const chat = await open(newForum());
    const [there] = await inTopic(chat, "/jobs");
    expect(there!.params).toMatchObject({ chat_id: chat.chatId, message_thread_id: TOPIC, text: renderTelegramHtml("No scheduled jobs.") });
    const [here] = await inMain(chat, "/jobs");
    expect(here!.params.message_thread_id).toBeUndefined();
  });

  it("answers a pressed button in the topic of its message", async () => {
    const chat = await open(newForum());
    const [question] = await inTopic(chat, "/timezone UTC+2");
    expect(question!.params.message_thread_id).toBe(TOPIC);
    const press = groupPress(newUpdateId(), forum(chat.chatId), CY, "z:Europe/Berlin", TOPIC);
    const [reply] = await post(chat, press);
    expect(reply!.params.message_thread_id).toBe(TOPIC);
    expect(String(reply!.params.text)).toMatch(/^Time zone set to Europe\/Berlin \(UTC\+0[12]:00\)\./);
  });

  it("sends the agent's answer to a message in a topic there, and the prompt says where it came from", async () => {
    const chat = await open(newForum());
    const update = topicText(newUpdateId(), forum(chat.chatId), CY, TOPIC, "@cuckoo_test_bot what is next?");
    expect((await postUpdate(hook(chat.chatId), update)).status).toBe(200);
    const [prompt] = (await queued(chat.stub)).map((s) => s.body as PromptMessage);
    expect(prompt).toMatchObject({ key: `u:${update.update_id}`, threadId: TOPIC, userId: String(CY.id) });
    await feed([prompt]);
    const [reply] = await delivered(bot, chat, 1);
    expect(reply!.params).toMatchObject({ chat_id: chat.chatId, message_thread_id: TOPIC, text: renderTelegramHtml(NO_MODEL_REPLY) });
  });
});

describe("a job made in a topic", () => {
  it("remembers its topic, shown by the API, and its prompt, message and buttons go there", async () => {
    const chat = await open(newForum());
    const [made] = await inTopic(chat, "/remind 2h stand up");
    expect(made!.params.message_thread_id).toBe(TOPIC);
    const id = idIn(made);
    const job = await jobOf(chat.stub, chat.chatId, id);
    expect(job.threadId).toBe(TOPIC);
    const api = await send("GET", `/admin/chats/${chat.chatId}/jobs/${id}`, undefined, hook(chat.chatId)).as(jobReply());
    expect(api.body.job.threadId).toBe(TOPIC);
    // It fires: its prompt carries the topic (a follow-up it makes goes there too), and its message goes there.
    const due = Date.parse(job.nextRunAt!);
    await advanceTo(chat.stub, due);
    expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
    const runId = `${id}:${due}`;
    const fired = (await queued(chat.stub)).map((s) => s.body as PromptMessage).find((m) => m.key === runId)!;
    expect(fired.threadId).toBe(TOPIC);
    await feed([fired]);
    const [message] = await delivered(bot, chat, 2).then((calls) => calls.slice(1));
    expect(message!.params).toMatchObject({
      chat_id: chat.chatId,
      message_thread_id: TOPIC,
      text: renderTelegramHtml("stand up"),
      // A one-off's message: Done and the snoozes, naming the run.
      reply_markup: {
        inline_keyboard: [
          [{ text: "Done", callback_data: `d:${runId}` }],
          [
            { text: "10 min", callback_data: `s:10:${runId}` },
            { text: "1 h", callback_data: `s:60:${runId}` },
            { text: "Tomorrow 9:00", callback_data: `s:t:${runId}` },
          ],
        ],
      },
    });
  });

  it("lists every job of the chat from a topic, marking where each posts", async () => {
    const chat = await open(newForum());
    const here = idIn((await inTopic(chat, "/remind 2h stand up"))[0]);
    const main = idIn((await inMain(chat, "/remind 3h bins out"))[0]);
    const t0 = await clockOf(chat.stub);
    const [list] = await inTopic(chat, "/jobs");
    const t1 = await clockOf(chat.stub);
    const at = async (id: string) => Date.parse((await jobOf(chat.stub, chat.chatId, id)).nextRunAt!);
    const [a, b] = [await at(here), await at(main)];
    const wanted = eitherMinute(t0, t1, (now) =>
      renderTelegramHtml(
        [
          `**Scheduled jobs** (UTC, now ${dayMonthTime(now, "UTC")})`,
          `\`${here}\` 💬 stand up · once ${chatTime(a, "UTC", now)} · this topic`,
          `\`${main}\` 💬 bins out · once ${chatTime(b, "UTC", now)} · main thread`,
        ].join("\n"),
      ),
    );
    expect(list!.params.message_thread_id).toBe(TOPIC);
    expect(wanted).toContain(list!.params.text);
  });
});

describe("a deleted topic", () => {
  it("sends the message to the main thread after a note, once, and its job posts there from then on", async () => {
    const chat = await open(newForum());
    const id = idIn((await inTopic(chat, "/remind 2h stand up"))[0]);
    const runId = `${id}:${Date.now()}`;
    await bot.script("sendMessage", [{ kind: "thread_not_found" }], chat.chatId);
    const before = (await bot.sends(chat.chatId)).length;
    expect(await chat.stub.deliver(runId, "Stand up, everyone.")).toEqual({ ok: true, value: { delivered: true } });
    const calls = (await delivered(bot, chat, before + 3)).slice(before);
    expect(calls.map((c) => [c.answered, c.params.message_thread_id, c.params.text])).toEqual([
      [400, TOPIC, renderTelegramHtml("Stand up, everyone.")],
      [200, undefined, renderTelegramHtml(topicGoneText([{ id, name: "stand up" }]))],
      [200, undefined, renderTelegramHtml("Stand up, everyone.")],
    ]);
    expect(calls[2]!.params.reply_markup).toMatchObject({
      inline_keyboard: [[{ callback_data: `r:${id}` }, { callback_data: `p:${id}` }, { callback_data: `c:${id}` }]],
    });
    // The job forgot the topic: its next message goes to the main thread at once, with no note.
    expect((await jobOf(chat.stub, chat.chatId, id)).threadId).toBeUndefined();
    await chat.stub.deliver(`${id}:${Date.now() + 1}`, "Again.");
    const [again] = (await delivered(bot, chat, before + 4)).slice(before + 3);
    expect([again!.params.message_thread_id, again!.params.text]).toEqual([undefined, renderTelegramHtml("Again.")]);
  });

  it("sends a command's reply meant for a deleted topic to the main thread, with the note alone", async () => {
    const chat = await open(newForum());
    await bot.script("sendMessage", [{ kind: "thread_not_found" }], chat.chatId);
    const calls = await inTopic(chat, "/jobs", 3);
    expect(calls.map((c) => [c.params.message_thread_id, c.params.text])).toEqual([
      [TOPIC, renderTelegramHtml("No scheduled jobs.")],
      [undefined, renderTelegramHtml(topicGoneText([]))],
      [undefined, renderTelegramHtml("No scheduled jobs.")],
    ]);
  });
});
