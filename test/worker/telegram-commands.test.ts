/**
 * The chat commands through the webhook (docs/time.md, docs/telegram.md, issue 5): each command's exact reply arriving as one
 * `sendMessage` to the chat, rendered to Telegram HTML; `/cmd@botname`; non-text messages; any other text as
 * a prompt `u:<update_id>`; and the same router behind `POST /admin/chats/:chatId/messages` in transcript mode.
 * Chat ids 5020000 up; the Bot API is the stub. Instants are read off the chat's own clock (`clockOf`), which
 * runs an hour ahead of the machine's.
 */
import { describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { helpText as helpIn, statusText as statusIn } from "../../src/telegram/commands";
import { ENGLISH } from "../../src/texts";

const helpText = (now: number, zone: string, agent: string) => helpIn(ENGLISH.t.help, now, zone, agent);
const statusText = (s: Parameters<typeof statusIn>[1]) => statusIn(ENGLISH.t.status, s);
const NON_TEXT_REPLY = ENGLISH.t.nonText;

import { renderTelegramHtml } from "../../src/telegram/render";
import { dayMonthTime, NO_MODEL } from "./agent-helpers";
import { alarmOf, brief, chatIds, clockOf, expectSpyInPlace, jobsOf, must, newYears, nextRun, send, spyQueue, transcript } from "./helpers";
import {
  type Call,
  chatTime,
  delivered,
  eitherMinute,
  expectReply,
  photoUpdate,
  postUpdate,
  type TelegramChat,
  TestBot,
  telegramChat,
  textUpdate,
  weekdayTime,
} from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_020_000);
const bot = new TestBot("commands");

/** Sends `text` as the chat's user and returns the bot's new sendMessage calls (`count` of them expected). */
async function say(chat: TelegramChat, text: string, count = 1): Promise<Call[]> {
  const before = (await bot.sends(chat.chatId)).length;
  const res = await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, text));
  expect(res.status).toBe(200);
  const calls = await delivered(bot, chat);
  const fresh = calls.slice(before);
  expect(fresh, `replies to ${text}`).toHaveLength(count);
  return fresh;
}

/** Sends `text` and expects exactly one reply, the rendered `markdown` (or one of several, for "now" texts). */
async function expectAnswer(chat: TelegramChat, text: string, markdown: string | string[]): Promise<Call> {
  const [reply] = await say(chat, text);
  const wanted = (Array.isArray(markdown) ? markdown : [markdown]).map(renderTelegramHtml);
  expect(String(reply!.params.chat_id)).toBe(chat.chatId);
  expect(reply!.params.parse_mode).toBe("HTML");
  expect(wanted).toContain(reply!.params.text);
  expect(reply!.params.reply_markup).toBeUndefined();
  return reply!;
}

/** `d MMM HH:mm`, with the year when not this year's (the zone-change reply), via Intl. */
function dayMonthYear(instant: number, zone: string, now: number): string {
  const year = (ms: number) => new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric" }).format(ms);
  const text = dayMonthTime(instant, zone);
  if (year(instant) === year(now)) return text;
  const [d, m, t] = text.split(" ");
  return `${d} ${m} ${year(instant)} ${t}`;
}

const offsetOf = (zone: string) => (zone === "UTC" ? "UTC+00:00" : zone === "Asia/Tokyo" ? "UTC+09:00" : "?");

describe("/start and /help", () => {
  it("answer with the commands, one line each, the examples computed from the chat's now in its zone", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const t0 = await clockOf(chat.stub);
    const help = async () => eitherMinute(t0, (await clockOf(chat.stub)) + 5_000, (now) => helpText(now, "UTC", "echo"));
    await expectAnswer(chat, "/start", await help());
    await expectAnswer(chat, "/help", await help());
    // The dated example is a week ahead of the chat's day.
    const weekAhead = new Date(t0 + 7 * 86_400_000).toISOString().slice(0, 10);
    expect((await help()).some((h) => h.includes(`/remind ${weekAhead} 14:30 dentist`))).toBe(true);
    const lines = helpText(t0, "UTC", "echo").split("\n");
    for (const name of ["jobs", "cancel", "run", "pause", "resume", "timezone", "status", "remind", "every", "help"]) {
      expect(
        lines.filter((l) => l.startsWith(`/${name}:`)),
        name,
      ).toHaveLength(1);
    }
  });
});

describe("/jobs", () => {
  it("answers No scheduled jobs. in an empty chat, also as /jobs@<this bot>, and leaves /jobs@SomeBot to the agent", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await expectAnswer(chat, "/jobs", "No scheduled jobs.");
    // The stub's getMe names the bot CuckooTestBot; Telegram matches a command's bot name in any case.
    await expectAnswer(chat, "/jobs@CuckooTestBot", "No scheduled jobs.");
    await expectAnswer(chat, "/jobs@cuckootestbot", "No scheduled jobs.");
    await say(chat, "/jobs@SomeBot", 0);
    expect(chat.sent!.map((s) => (s.body as { text: string }).text)).toEqual(["/jobs@SomeBot"]);
  });

  it("lists the jobs sorted by next run, running and paused marked, paused last", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const { chatId, stub } = chat;
    const t0 = await clockOf(stub);
    const year = new Date(t0).getUTCFullYear() + 1;
    const paused = await must(stub.createJob(chatId, { name: "Stretch", kind: "prompt", cron: "0 */2 * * *", text: "Stretch." }, "admin"));
    const oneOff = await must(
      stub.createJob(chatId, { name: "Call the dentist", kind: "prompt", at: `${year}-02-02T09:00:00.000Z`, text: "Call the dentist." }, "admin"),
    );
    const yearly = await must(stub.createJob(chatId, { name: "Inbox summary", kind: "prompt", cron: "0 0 1 1 *", text: "Summarise." }, "admin"));
    const running = await must(stub.createJob(chatId, { name: "Water the plants", kind: "prompt", cron: "30 0 1 1 *", text: "Water." }, "admin"));
    await must(stub.pauseJob(chatId, paused.id));
    await must(stub.runJobNow(chatId, running.id));
    const { shown } = newYears(t0);
    const lines = [
      `\`${yearly.id}\` 💬 Inbox summary · every year on 1 January at 00:00 · next ${shown[0]}`,
      `\`${running.id}\` 💬 Water the plants · every year on 1 January at 00:30 · next ${shown[0]!.replace("00:00", "00:30")} · running`,
      `\`${oneOff.id}\` 💬 Call the dentist · once 2 Feb ${year} 09:00`,
      `\`${paused.id}\` 💬 Stretch · every 2 hours · paused`,
    ];
    const wanted = (t1: number) => eitherMinute(t0, t1, (now) => [`**Scheduled jobs** (UTC, now ${dayMonthTime(now, "UTC")})`, ...lines].join("\n"));
    const reply = await expectAnswer(chat, "/jobs", wanted((await clockOf(stub)) + 5_000));
    expect(reply.params.text).toContain(`<b>Scheduled jobs</b> (UTC, now `);
    expect(reply.params.text).toContain(`<code>${yearly.id}</code> 💬 Inbox summary · every year on 1 January at 00:00 · `);
    await expectAnswer(chat, "/jobs@CuckooTestBot", wanted((await clockOf(stub)) + 5_000));
  });
});

describe("/cancel, /pause, /resume and /run", () => {
  it("act on the job and answer with the docs/telegram.md sentences", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const { chatId, stub } = chat;
    const job = await must(stub.createJob(chatId, { name: "Call the dentist", kind: "prompt", cron: "0 0 1 1 *", text: "Call." }, "admin"));
    const years = newYears(await clockOf(stub));

    await expectAnswer(chat, `/pause ${job.id}`, `Paused ${job.id} (Call the dentist).`);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ enabled: false, nextRunAt: null });

    await expectAnswer(chat, `/resume ${job.id}`, `Resumed ${job.id} (Call the dentist); next ${years.shown[0]}.`);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ enabled: true, nextRunAt: years.iso[0] });

    await expectAnswer(chat, `/run ${job.id}`, `Running ${job.id} (Call the dentist) now.`);
    await expectSpyInPlace(stub, chat.sent!);
    expect(chat.sent!.map((s) => (s.body as PromptMessage).jobId)).toEqual([job.id]);
    // Still in flight: run now again is refused with the docs/api.md#how-a-job-fires sentence.
    await expectAnswer(chat, `/run ${job.id}`, `Job ${job.id} is still running.`);

    await expectAnswer(chat, `/cancel ${job.id}`, `Cancelled ${job.id} (Call the dentist).`);
    expect(await jobsOf(chat)).toEqual([]);
  });

  it("answer the usage sentence without an id", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    for (const name of ["cancel", "pause", "resume", "run"]) {
      await expectAnswer(chat, `/${name}`, `Usage: /${name} <id> (see /jobs).`);
    }
    await expectAnswer(chat, "/cancel@CuckooTestBot", "Usage: /cancel <id> (see /jobs).");
  });

  it("answer No job <id> in this chat. for an unknown id or another chat's job, which stays untouched", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const other = await telegramChat(bot, newChat().chatId);
    const theirs = await must(other.stub.createJob(other.chatId, { name: "Theirs", kind: "prompt", cron: "0 0 1 1 *", text: "T." }, "admin"));
    for (const name of ["cancel", "pause", "resume", "run"]) {
      await expectAnswer(chat, `/${name} k7m2q`, "No job k7m2q in this chat.");
      await expectAnswer(chat, `/${name} ${theirs.id}`, `No job ${theirs.id} in this chat.`);
    }
    expect(await must(other.stub.getJob(other.chatId, theirs.id))).toMatchObject({
      enabled: true,
      nextRunAt: newYears(await clockOf(other.stub)).iso[0],
      running: false,
    });
  });
});

describe("/timezone", () => {
  it("shows the zone, sets one with the docs/time.md reply, and resets to the default", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const { chatId, stub } = chat;
    const show = (zone: string, isDefault: boolean) =>
      `Time zone: ${zone} (${offsetOf(zone)}${isDefault ? ", default" : ""}). Change it with /timezone <IANA name>, e.g. /timezone America/New_York.`;
    const reply = await expectAnswer(chat, "/timezone", show("UTC", true));
    expect(reply.params.text).toContain("/timezone &lt;IANA name&gt;");

    const year = new Date(await clockOf(stub)).getUTCFullYear() + 1;
    const at = Date.parse(`${year}-02-02T09:00:00.000Z`);
    await must(stub.createJob(chatId, { name: "Dentist", kind: "prompt", at: new Date(at).toISOString(), text: "Call." }, "admin"));
    const daily = await must(stub.createJob(chatId, { name: "Summary", kind: "prompt", cron: "0 8 * * *", text: "Sum." }, "admin"));

    const t0 = await clockOf(stub);
    const changed = (zone: string, isDefault: boolean) => (now: number) =>
      `Time zone set to ${zone} (${offsetOf(zone)}${isDefault ? ", default" : ""}). Now ${dayMonthYear(now, zone, now)}. ` +
      `1 recurring job now follows this zone; 1 one-off job keeps its time (now ${dayMonthYear(at, zone, now)} here).`;
    await expectAnswer(chat, "/timezone Asia/Tokyo", eitherMinute(t0, (await clockOf(stub)) + 5_000, changed("Asia/Tokyo", false)));
    expect(await must(stub.getSettings(chatId))).toEqual({ chatId, timeZone: "Asia/Tokyo", isDefault: false });
    expect((await must(stub.getJob(chatId, daily.id))).nextRunAt).toBe(nextRun("0 8 * * *", "Asia/Tokyo", t0));
    await expectAnswer(chat, "/timezone", show("Asia/Tokyo", false));

    await expectAnswer(
      chat,
      "/timezone Mars/Olympus",
      'I don\'t know a time zone or place called "Mars/Olympus". Try /timezone Berlin or /timezone America/New_York.',
    );

    const t1 = await clockOf(stub);
    await expectAnswer(chat, "/timezone reset", eitherMinute(t1, (await clockOf(stub)) + 5_000, changed("UTC", true)));
    expect(await must(stub.getSettings(chatId))).toEqual({ chatId, timeZone: "UTC", isDefault: true });
  });

  it("leaves the job clause out when the chat has no jobs", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const t0 = await clockOf(chat.stub);
    await expectAnswer(
      chat,
      "/timezone Asia/Tokyo",
      eitherMinute(t0, (await clockOf(chat.stub)) + 5_000, (now) => `Time zone set to Asia/Tokyo (UTC+09:00). Now ${dayMonthYear(now, "Asia/Tokyo", now)}.`),
    );
  });
});

describe("/status", () => {
  it("shows the job count, the zone, the agent mode and the runner", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const status = (jobs: number, zone: string, isDefault: boolean) =>
      statusText({ jobs, zone, offset: offsetOf(zone), isDefault, agent: "echo", runner: "off", blocked: false });
    await expectAnswer(chat, "/status", status(0, "UTC", true));
    expect(status(0, "UTC", true)).toBe("**Jobs:** 0\n**Time zone:** UTC (UTC+00:00, default)\n**Agent:** echo\n**Runner:** not configured");
    await must(chat.stub.createJob(chat.chatId, { name: "A", kind: "prompt", cron: "0 0 1 1 *", text: "A." }, "admin"));
    await must(chat.stub.setTimeZone(chat.chatId, "Asia/Tokyo"));
    await expectAnswer(chat, "/status", status(1, "Asia/Tokyo", false));
  });
});

describe("other messages", () => {
  it("answers a message without text with the docs/telegram.md sentence", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await postUpdate(bot.env([chat.chatId]), photoUpdate(chat.chatId));
    const [reply] = await delivered(bot, chat, 1);
    expectReply(reply, chat.chatId, renderTelegramHtml(NON_TEXT_REPLY));
    expect(NON_TEXT_REPLY).toBe("I can only read text messages.");
    expect(chat.sent).toEqual([]);
  });

  it("hands any other text to the agent as a prompt u:<update_id>, with a user entry from telegram", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await must(chat.stub.setTimeZone(chat.chatId, "Asia/Tokyo"));
    const texts = ["What is on my list today?", "/weather Berlin", "cancel k7m2q"];
    const updates = texts.map((text) => textUpdate(chat.chatId, text));
    const before = await clockOf(chat.stub);
    for (const u of updates) expect((await postUpdate(bot.env([chat.chatId]), u)).status).toBe(200);
    const after = await clockOf(chat.stub);
    await expectSpyInPlace(chat.stub, chat.sent!);
    expect(chat.sent!.map((s) => s.body)).toEqual(
      updates.map((u) => ({
        v: 1,
        key: `u:${u.update_id}`,
        chatId: chat.chatId,
        timeZone: "Asia/Tokyo",
        source: "user",
        text: u.message.text,
        body: u.message.text,
        firedAt: expect.any(String),
        updateId: u.update_id,
      })),
    );
    for (const s of chat.sent!) {
      const firedAt = Date.parse((s.body as PromptMessage).firedAt);
      expect(firedAt).toBeGreaterThanOrEqual(before);
      expect(firedAt).toBeLessThanOrEqual(after);
    }
    expect(brief(await transcript(chat.stub, chat.chatId))).toEqual(texts.map((text) => ({ role: "user", source: "telegram", text })));
    // No reply: a reply would have made the alarm due now, and `delivered` would have sent it.
    expect(await delivered(bot, chat)).toEqual([]);
  });

  it("sends the echo agent's reply to a text, through the real queue and its consumer, through the Bot API once", async () => {
    const chat = await telegramChat(bot, newChat().chatId, { spy: false });
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "Hello"));
    // The runtime's queue hands the prompt to the consumer when it will: wait for the reply in the transcript.
    await vi.waitFor(async () => expect((await transcript(chat.stub, chat.chatId)).map((e) => e.role)).toContain("bot"), { timeout: 10_000, interval: 20 });
    const calls = await delivered(bot, chat, 1);
    expectReply(calls[0], chat.chatId, renderTelegramHtml(NO_MODEL));
    expect(brief(await transcript(chat.stub, chat.chatId)).filter((e) => e.role !== "prompt")).toEqual([
      { role: "user", source: "telegram", text: "Hello" },
      { role: "bot", source: "telegram", text: NO_MODEL },
    ]);
  });
});

describe("commands in transcript mode", () => {
  const post = (chatId: string, text: string) => send("POST", `/admin/chats/${chatId}/messages`, { text });

  it("is refused 409 with a bot connected: the chat lives in Telegram", async () => {
    const { chatId } = newChat();
    const res = await send("POST", `/admin/chats/${chatId}/messages`, { text: "/jobs" }, bot.env([chatId]));
    expect(res).toEqual({ status: 409, body: { error: { code: "conflict", message: "The bot is connected to Telegram; write to it there." } } });
  });

  it("answers /jobs in the transcript as a bot entry with source command, and queues nothing", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const res = await post(chatId, "/jobs");
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ messageId: expect.stringMatching(/^\d+$/) });
    expect(brief(await transcript(stub, chatId))).toEqual([
      { role: "user", source: "admin", text: "/jobs" },
      { role: "bot", source: "command", text: "No scheduled jobs." },
    ]);
    await expectSpyInPlace(stub, sent);
    expect(sent).toEqual([]);
    // Nothing left to wake for: no prompt waiting for the agent, nothing to send.
    expect(await alarmOf(stub)).toBeNull();
  });

  it("runs every command with the same texts: /help, /remind, /jobs, /pause, /timezone, /status", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const helped = await clockOf(stub);
    expect((await post(chatId, "/help")).status).toBe(202);
    expect((await post(chatId, "/remind 2h Stretch")).status).toBe(202);
    const [job] = (await must(stub.listJobs(chatId, {}))).jobs;
    expect(job).toMatchObject({ name: "Stretch", createdBy: "user" });
    const at = Date.parse((job!.schedule as { at: string }).at);
    const created = await clockOf(stub);
    expect((await post(chatId, `/pause ${job!.id}`)).status).toBe(202);
    expect((await post(chatId, "/pause")).status).toBe(202);
    expect((await post(chatId, "/status")).status).toBe(202);
    const t0 = await clockOf(stub);
    expect((await post(chatId, "/timezone Asia/Tokyo")).status).toBe(202);
    const entries = brief(await transcript(stub, chatId));
    expect(entries[0]).toEqual({ role: "user", source: "admin", text: "/help" });
    expect(eitherMinute(helped, created, (now) => ({ role: "bot", source: "command", text: helpText(now, "UTC", "echo") }))).toContainEqual(entries[1]);
    expect(entries.slice(2, 10)).toEqual([
      { role: "user", source: "admin", text: "/remind 2h Stretch" },
      // The chat's first job, in the default zone: it is told so, once (docs/telegram.md).
      {
        role: "bot",
        source: "command",
        text: `Created \`${job!.id}\` 💬 Stretch · once ${chatTime(at, "UTC", created)}\nRead "2h" as the schedule and "Stretch" as the text.\n⏰ ${weekdayTime(at, "UTC", created)} (UTC), in 2 h\nTimes here are in UTC. Where are you? Send /timezone and your city, e.g. /timezone Berlin.`,
      },
      { role: "user", source: "admin", text: `/pause ${job!.id}` },
      { role: "bot", source: "command", text: `Paused ${job!.id} (Stretch).` },
      { role: "user", source: "admin", text: "/pause" },
      { role: "bot", source: "command", text: "Usage: /pause <id> (see /jobs)." },
      { role: "user", source: "admin", text: "/status" },
      { role: "bot", source: "command", text: "**Jobs:** 1\n**Time zone:** UTC (UTC+00:00, default)\n**Agent:** echo\n**Runner:** not configured" },
    ]);
    expect(entries[10]).toEqual({ role: "user", source: "admin", text: "/timezone Asia/Tokyo" });
    expect(
      eitherMinute(t0, await clockOf(stub), (now) => ({
        role: "bot",
        source: "command",
        text: `Time zone set to Asia/Tokyo (UTC+09:00). Now ${dayMonthYear(now, "Asia/Tokyo", now)}. 1 one-off job keeps its time (now ${dayMonthYear(at, "Asia/Tokyo", now)} here).`,
      })),
    ).toContainEqual(entries[11]);
    expect(entries).toHaveLength(12);
    await expectSpyInPlace(stub, sent);
    expect(sent).toEqual([]);
  });
});
