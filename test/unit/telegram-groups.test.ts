/**
 * The pure parts of groups and topics (issue 26, docs/telegram.md), on the updates Telegram sends (test/group-updates.ts):
 * which messages are the bot's (`addressed`) and when that needs its username, where an update comes from (its
 * topic), the migration pair and the bot's membership, which commands only read, a ChatMember status as a role,
 * /jobs marking each job's topic, and the note when a topic is gone.
 */
import { describe, expect, it } from "vitest";
import { roleOf } from "../../src/chat/members";
import { jobList, topicGoneText } from "../../src/jobs/texts";
import type { Job } from "../../src/schemas/jobs";
import { addressed, botIdOf, needsUsername } from "../../src/telegram/address";
import { onlyReads, parseCommand } from "../../src/telegram/commands";
import { botIsIn, fromAnonymousAdmin, migrationOf, type UpdateMessage, updateOrigin, updateSchema } from "../../src/telegram/update";
import {
  asGroup,
  BOT_USERNAME,
  basicGroup,
  groupPress,
  groupText,
  migrateFrom,
  migrateTo,
  myChatMember,
  person,
  replyToBot,
  supergroup,
  textMention,
  topicText,
} from "../group-updates";

const TOKEN = "7000000042:AAE_unit_tests_of_groups_0123456789";
const BOT_ID = "7000000042";
const bot = { id: BOT_ID, username: BOT_USERNAME };
const ada = person(5260001, "Ada");
const team = supergroup("-1001234567890");
const family = basicGroup("-4012345678");

/** The update, parsed as the webhook parses it. */
const parsed = (update: unknown) => updateSchema().parse(update);
const message = (update: unknown): UpdateMessage => parsed(update).message!;

describe("whether a group message is the bot's", () => {
  it("takes the bot's id from its token, with no call", () => {
    expect(botIdOf(TOKEN)).toBe(BOT_ID);
  });

  it("takes a bare command and one naming this bot (in any case), never one naming another bot", () => {
    expect(addressed(message(groupText(1, team, ada, "/jobs")), bot)).toBe("command");
    expect(addressed(message(groupText(2, team, ada, "/jobs@cuckoo_test_bot")), bot)).toBe("command");
    expect(addressed(message(groupText(3, family, ada, "/remind@Cuckoo_Test_Bot 20m stretch")), bot)).toBe("command");
    expect(addressed(message(groupText(4, team, ada, "/jobs@OtherBot")), bot)).toBe("none");
    // Someone else's command, bare: not the bot's; one that names the bot but is none of its commands: for the agent.
    expect(addressed(message(groupText(5, team, ada, "/weather")), bot)).toBe("none");
    expect(addressed(message(groupText(6, team, ada, "/weather@cuckoo_test_bot tomorrow")), bot)).toBe("agent");
  });

  it("gives the agent a mention of the bot, a text mention of its user and a reply to its message; nothing else", () => {
    expect(addressed(message(groupText(1, team, ada, "@cuckoo_test_bot what is on today?")), bot)).toBe("agent");
    expect(addressed(message(groupText(2, team, ada, "hey @CUCKOO_TEST_BOT, remind me at 9")), bot)).toBe("agent");
    expect(addressed(message(textMention(3, team, ada, BOT_ID, "Cuckoo, what is on today?")), bot)).toBe("agent");
    expect(addressed(message(replyToBot(4, team, ada, BOT_ID, "and tomorrow?")), bot)).toBe("agent");
    expect(addressed(message(groupText(5, team, ada, "remind me tomorrow at 9 to call mum")), bot)).toBe("none");
    expect(addressed(message(groupText(6, team, ada, "ask @someone_else about it")), bot)).toBe("none");
    expect(addressed(message(textMention(7, team, ada, "5260002", "Bob, see this", "Bob")), bot)).toBe("none");
  });

  it("does not count a forum topic's first message as a reply, even a topic the bot opened", () => {
    const inTopic = topicText(1, supergroup("-1009", "Ops", true), ada, 42, "good morning");
    expect(addressed(message(inTopic), bot)).toBe("none");
    const root = (inTopic.message as { reply_to_message?: Record<string, unknown> }).reply_to_message;
    const opened = { ...inTopic.message, reply_to_message: { ...root, from: { id: Number(BOT_ID), is_bot: true, first_name: "Cuckoo" } } };
    expect(addressed(message({ update_id: 2, message: opened }), bot)).toBe("none");
    expect(addressed(message(topicText(3, supergroup("-1009", "Ops", true), ada, 42, "/jobs")), bot)).toBe("command");
  });

  it("asks for the username only when the message names someone: a command naming a bot, an @mention", () => {
    expect(needsUsername(message(groupText(1, team, ada, "/jobs")))).toBe(false);
    expect(needsUsername(message(groupText(2, team, ada, "/jobs@cuckoo_test_bot")))).toBe(true);
    expect(needsUsername(message(groupText(3, team, ada, "hello @cuckoo_test_bot")))).toBe(true);
    expect(needsUsername(message(replyToBot(4, team, ada, BOT_ID, "thanks")))).toBe(false);
    expect(needsUsername(message(textMention(5, team, ada, BOT_ID, "Cuckoo, hi")))).toBe(false);
    expect(needsUsername(message(groupText(6, team, ada, "just chatting")))).toBe(false);
  });

  it("in a private chat: every text is the bot's, a command naming another bot is text for the agent", () => {
    const dm = (id: number, text: string) => ({
      update_id: id,
      message: { message_id: id, from: ada, chat: { id: ada.id, type: "private", first_name: "Ada" }, date: 1, text },
    });
    expect(addressed(message(dm(1, "/jobs")), bot)).toBe("command");
    expect(addressed(message(dm(2, "/jobs@cuckoo_test_bot")), bot)).toBe("command");
    expect(addressed(message(dm(3, "/jobs@OtherBot")), bot)).toBe("agent");
    expect(addressed(message(dm(4, "what is on today?")), bot)).toBe("agent");
    expect(needsUsername(message(dm(5, "/jobs@OtherBot")))).toBe(true);
    expect(needsUsername(message(dm(6, "/jobs")))).toBe(false);
    expect(parseCommand("/jobs@OtherBot", BOT_USERNAME)).toBeNull();
    expect(parseCommand("/jobs@cuckoo_test_bot", BOT_USERNAME)).toEqual({ name: "jobs", args: "" });
  });
});

describe("where an update comes from", () => {
  it("names a forum topic only for a topic message: a reply thread in a group without topics is the main thread", () => {
    const ops = supergroup("-1001111111111", "Ops", true);
    expect(updateOrigin(parsed(topicText(1, ops, ada, 42, "/jobs")))).toEqual({
      chatId: "-1001111111111",
      userId: "5260001",
      chatType: "supergroup",
      threadId: 42,
    });
    // A reply in a supergroup without topics carries its reply thread's id, which sendMessage would refuse.
    const reply = groupText(2, team, ada, "/jobs", { message_thread_id: 77, reply_to_message: { message_id: 77, date: 1, chat: team } });
    expect(updateOrigin(parsed(reply))).toEqual({ chatId: "-1001234567890", userId: "5260001", chatType: "supergroup", threadId: null });
    expect(updateOrigin(parsed(groupPress(3, ops, ada, "p:k7m2q", 42)))).toEqual({
      chatId: "-1001111111111",
      userId: "5260001",
      chatType: "supergroup",
      threadId: 42,
    });
    expect(updateOrigin(parsed(myChatMember(4, team, ada, BOT_ID, "member", "kicked")))).toEqual({
      chatId: "-1001234567890",
      userId: "5260001",
      chatType: "supergroup",
      threadId: null,
    });
  });

  it("reads the move from either message of Telegram's pair", () => {
    const move = { from: "-4012345678", to: "-1004012345678" };
    expect(migrationOf(message(migrateTo(1, move.from, move.to, ada)))).toEqual(move);
    expect(migrationOf(message(migrateFrom(2, move.to, move.from, ada)))).toEqual(move);
    expect(migrationOf(message(groupText(3, family, ada, "/jobs")))).toBeNull();
  });

  it("knows an anonymous admin's message by its sender being the group itself", () => {
    expect(fromAnonymousAdmin(message(asGroup(1, team, "/remind 20m stretch")))).toBe(true);
    expect(fromAnonymousAdmin(message(groupText(2, team, ada, "/remind 20m stretch")))).toBe(false);
    // A channel's post forwarded into its discussion group is sent as the channel, not as the group.
    const forwarded = groupText(3, team, ada, "news", { sender_chat: { id: -1009999999999, title: "News", type: "channel" } });
    expect(fromAnonymousAdmin(message(forwarded))).toBe(false);
  });

  it("tells whether the bot is still in the chat after my_chat_member", () => {
    const status = (was: string, now: string) => botIsIn(parsed(myChatMember(1, team, ada, BOT_ID, was, now)).my_chat_member!.new_chat_member);
    expect([status("member", "kicked"), status("member", "left"), status("left", "member"), status("member", "administrator")]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(botIsIn({ status: "restricted", is_member: false })).toBe(false);
    expect(botIsIn({ status: "restricted", is_member: true })).toBe(true);
  });
});

describe("who may change what", () => {
  it("lets anyone send the commands that only read: /jobs, /status, /help, /start, and /timezone and /quiet alone", () => {
    const reads = (text: string) => onlyReads(parseCommand(text)!);
    expect(["/jobs", "/status", "/help", "/start", "/timezone", "/quiet"].map(reads)).toEqual(Array(6).fill(true));
    const changes = [
      "/timezone Berlin",
      "/timezone reset",
      "/remind 20m stretch",
      "/every day at 8 news",
      "/cancel k7m2q",
      "/pause k7m2q",
      "/resume k7m2q",
      "/run k7m2q",
    ];
    changes.push("/edit k7m2q tomorrow 9am", "/skip k7m2q", "/quiet 22:00-07:00", "/quiet off");
    expect(changes.map(reads)).toEqual(Array(changes.length).fill(false));
  });

  it("reads a ChatMember's status as a role: creator and administrator are admins; a restricted member still a member", () => {
    expect(["creator", "administrator", "member", "left", "kicked"].map((status) => roleOf({ status }))).toEqual(["admin", "admin", "member", "none", "none"]);
    expect(roleOf({ status: "restricted", is_member: true })).toBe("member");
    expect(roleOf({ status: "restricted", is_member: false })).toBe("none");
  });
});

describe("topics in /jobs", () => {
  const NOW = Date.UTC(2026, 8, 26, 12, 3);
  const job = (id: string, name: string, at: string, threadId?: number): Job => ({
    id,
    chatId: "-1001111111111",
    name,
    kind: "prompt",
    category: "one-time",
    schedule: { at },
    text: name,
    enabled: true,
    createdAt: "2026-09-20T10:00:00.000Z",
    createdBy: "user",
    nextRunAt: at,
    lastRunAt: null,
    lastResult: null,
    running: false,
    hook: false,
    model: null,
    missed: "once",
    grace: "PT1M",
    before: [],
    repeat: null,
    ...(threadId !== undefined ? { threadId } : {}),
  });
  const jobs = [
    job("k7m2q", "Standup", "2026-09-27T07:00:00.000Z", 42),
    job("p3xz9", "Bins", "2026-09-28T18:00:00.000Z"),
    job("w8r4t", "Deploy", "2026-09-29T09:00:00.000Z", 57),
  ];

  it("lists every job of the chat and marks where each posts, from a topic and from the main thread", () => {
    expect(jobList(jobs, "UTC", NOW, { here: 42 })).toBe(
      [
        "**Scheduled jobs** (UTC, now 26 Sep 12:03)",
        "`k7m2q` 💬 Standup · once 27 Sep 07:00 · this topic",
        "`p3xz9` 💬 Bins · once 28 Sep 18:00 · main thread",
        "`w8r4t` 💬 Deploy · once 29 Sep 09:00 · topic 57",
      ].join("\n"),
    );
    expect(jobList(jobs, "UTC", NOW)).toBe(
      [
        "**Scheduled jobs** (UTC, now 26 Sep 12:03)",
        "`k7m2q` 💬 Standup · once 27 Sep 07:00 · topic 42",
        "`p3xz9` 💬 Bins · once 28 Sep 18:00 · main thread",
        "`w8r4t` 💬 Deploy · once 29 Sep 09:00 · topic 57",
      ].join("\n"),
    );
  });

  it("marks nothing in a chat without topics", () => {
    expect(jobList([jobs[1]!], "UTC", NOW)).toBe(["**Scheduled jobs** (UTC, now 26 Sep 12:03)", "`p3xz9` 💬 Bins · once 28 Sep 18:00"].join("\n"));
  });

  it("says where a message for a deleted topic went, and which jobs post there from now on", () => {
    expect(topicGoneText([])).toBe("ℹ️ The topic this was meant for no longer exists, so it comes here.");
    expect(topicGoneText([{ id: "k7m2q", name: "Standup" }])).toBe(
      "ℹ️ The topic this was meant for no longer exists, so it comes here. From now on job k7m2q (Standup) posts here.",
    );
    expect(
      topicGoneText([
        { id: "k7m2q", name: "Standup" },
        { id: "w8r4t", name: "Deploy" },
      ]),
    ).toBe("ℹ️ The topic this was meant for no longer exists, so it comes here. From now on jobs k7m2q (Standup) and w8r4t (Deploy) post here.");
  });
});
