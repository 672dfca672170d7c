/**
 * A job's message is something to act on (docs/telegram.md#scheduled-messages-and-buttons, issue 25), through the webhook and the Bot API stub:
 * after a one-off's run Done, 10 min, 1 h and Tomorrow 9:00; after a recurring job's Done, Snooze 1 h, Skip next
 * and Pause, each naming the run; an alert keeps Run now, Pause and Cancel. A snooze makes a one-off copy of the
 * job (name, text, memory references) at that time in the chat's zone, also after the one-off was deleted; Done
 * and a snooze answer (`Done.`, `Snoozed until 14:40.`) and edit the message: its buttons become one line; a
 * message's buttons act once. Quiet hours and silent jobs send with `disable_notification`. The chat's clock is
 * frozen at a fixed instant, so every instant asserted is exact. Chat ids 5510000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { Job } from "../../src/schemas/jobs";
import { feed } from "./agent-helpers";
import { advanceTo, chatIds, historyOf, jobsOf, must } from "./helpers";
import { type Call, callbackUpdate, delivered, postUpdate, type TelegramChat, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_510_000);
const bot = new TestBot("job-messages");
const BERLIN = "Europe/Berlin";
const MIN = 60_000;

/** A Telegram chat in Europe/Berlin whose clock stands at `at`. */
async function chatAt(at: number): Promise<TelegramChat> {
  const chat = await telegramChat(bot, newChat().chatId);
  await chat.stub.testFreezeClock(at);
  await must(chat.stub.setTimeZone(chat.chatId, BERLIN));
  return chat;
}

/**
 * Creates a job, moves the chat's clock to its next run, fires it, hands its prompt to the consumer (the echo
 * agent delivers its text) and sends what the chat has to send: the job, its run and the message Telegram got.
 */
async function fire(chat: TelegramChat, input: Record<string, unknown>, existing?: Job): Promise<{ job: Job; runId: string; sent: Call }> {
  const job = existing ?? (await must(chat.stub.createJob(chat.chatId, { kind: "prompt", ...input } as never, "user")));
  const latest = await must(chat.stub.getJob(chat.chatId, job.id));
  await advanceTo(chat.stub, Date.parse(latest.nextRunAt!));
  const before = chat.sent!.length;
  expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
  const message = chat
    .sent!.slice(before)
    .map((s) => s.body as PromptMessage)
    .find((m) => m.jobId === job.id)!;
  await feed([message]);
  const sends = await delivered(bot, chat);
  return { job, runId: message.key, sent: sends.at(-1)! };
}

/** Presses `data` under the message Telegram knows as `messageId`: the callback's answers and the message's edits it made. */
async function press(chat: TelegramChat, data: string, messageId: number): Promise<{ answers: string[]; edits: Record<string, unknown>[] }> {
  const editsOf = async () => (await bot.calls({ chatId: chat.chatId, method: "editMessageReplyMarkup" })).filter((c) => c.params.message_id === messageId);
  const before = (await editsOf()).length;
  const update = callbackUpdate(chat.chatId, data, { messageId });
  expect((await postUpdate(bot.env([chat.chatId]), update)).status).toBe(200);
  const answers = (await bot.calls({ method: "answerCallbackQuery" })).filter((c) => c.params.callback_query_id === update.callback_query.id);
  return { answers: answers.map((c) => c.params.text as string), edits: (await editsOf()).slice(before).map((c) => c.params) };
}

/** An answered message's markup: the one line, as a button that answers that it was. */
const oneLine = (text: string, runId: string) => ({ inline_keyboard: [[{ text, callback_data: `a:${runId}` }]] });

// Wed 12 May 2027 14:30 in Berlin (CEST, UTC+2).
const MAY = Date.UTC(2027, 4, 12, 12, 30);

describe("the buttons under a job's message", () => {
  it("are Done, 10 min, 1 h and Tomorrow 9:00 after a one-off's run, each naming the run, within 64 bytes", async () => {
    const chat = await chatAt(MAY);
    const { runId, sent } = await fire(chat, { name: "Stretch", text: "Time to stretch.", delay: "PT5M" });
    expect(sent.params.text).toBe("Time to stretch.");
    expect(sent.params.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: "Done", callback_data: `d:${runId}` }],
        [
          { text: "10 min", callback_data: `s:10:${runId}` },
          { text: "1 h", callback_data: `s:60:${runId}` },
          { text: "Tomorrow 9:00", callback_data: `s:t:${runId}` },
        ],
      ],
    });
    for (const b of (sent.params.reply_markup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard.flat()) {
      expect(new TextEncoder().encode(b.callback_data).length).toBeLessThanOrEqual(64);
    }
    expect(sent.params.disable_notification).toBeUndefined();
  });

  it("10 min makes a one-off copy exactly 10 minutes on, after the one-off was deleted; the message's buttons become one line and act once", async () => {
    const chat = await chatAt(MAY);
    const record = await must(chat.stub.createMemory(chat.chatId, { title: "Routine", body: "Neck, then shoulders." }));
    const { job, runId, sent } = await fire(chat, { name: "Stretch", text: "Time to stretch.", delay: "PT5M", memoryRefs: [record.id] });
    // The one-off ran and is gone; what its message keeps is enough for a copy.
    expect(await jobsOf(chat)).toEqual([]);
    const pressedAt = MAY + 5 * MIN;
    const first = await press(chat, `s:10:${runId}`, sent.messageId!);
    expect(first.answers).toEqual(["Snoozed until 14:45."]);
    expect(first.edits).toEqual([{ chat_id: Number(chat.chatId), message_id: sent.messageId, reply_markup: oneLine("⏰ Snoozed until 14:45", runId) }]);
    const [copy] = await jobsOf(chat);
    expect(copy).toMatchObject({
      name: "Stretch",
      text: "Time to stretch.",
      memoryRefs: [record.id],
      kind: "prompt",
      category: "one-time",
      createdBy: "user",
      schedule: { at: new Date(pressedAt + 10 * MIN).toISOString() },
      nextRunAt: new Date(pressedAt + 10 * MIN).toISOString(),
    });
    expect(copy!.id).not.toBe(job.id);
    // Pressed again, or another of its buttons: answered already, nothing changes.
    for (const data of [`s:10:${runId}`, `s:60:${runId}`, `d:${runId}`, `a:${runId}`]) {
      expect(await press(chat, data, sent.messageId!), data).toEqual({ answers: ["This was answered already."], edits: [] });
    }
    expect((await jobsOf(chat)).map((j) => j.id)).toEqual([copy!.id]);
  });

  it("1 h puts the copy an hour on, and Done answers Done. with the line ✅ Done", async () => {
    const chat = await chatAt(MAY);
    const a = await fire(chat, { name: "Tea", text: "Tea.", delay: "PT5M" });
    expect((await press(chat, `s:60:${a.runId}`, a.sent.messageId!)).answers).toEqual(["Snoozed until 15:35."]);
    expect((await jobsOf(chat))[0]!.schedule).toEqual({ at: new Date(MAY + 65 * MIN).toISOString() });
    const b = await fire(chat, { name: "Water", text: "Water.", delay: "PT5M" });
    const done = await press(chat, `d:${b.runId}`, b.sent.messageId!);
    expect(done).toEqual({
      answers: ["Done."],
      edits: [{ chat_id: Number(chat.chatId), message_id: b.sent.messageId, reply_markup: oneLine("✅ Done", b.runId) }],
    });
    // Done creates nothing: the copy of the first message is the chat's one job.
    expect((await jobsOf(chat)).map((j) => j.name)).toEqual(["Tea"]);
  });

  it("Tomorrow 9:00 is 09:00 of the next day in the chat's zone, also across the spring-forward change", async () => {
    // Sat 27 Mar 2027 20:00 in Berlin (CET); Sunday's 09:00 is CEST, 23 hours on, not 24.
    const chat = await chatAt(Date.UTC(2027, 2, 27, 19, 0));
    const { runId, sent } = await fire(chat, { name: "Plants", text: "Water the plants.", delay: "PT5M" });
    const pressed = await press(chat, `s:t:${runId}`, sent.messageId!);
    expect(pressed.answers).toEqual(["Snoozed until 28 Mar 09:00."]);
    expect(pressed.edits.map((e) => e.reply_markup)).toEqual([oneLine("⏰ Snoozed until 28 Mar 09:00", runId)]);
    expect((await jobsOf(chat)).map((j) => j.schedule)).toEqual([{ at: "2027-03-28T07:00:00.000Z" }]);
  });
});

describe("a recurring job's message", () => {
  // Daily at 09:00 in Berlin: first run Thu 13 May 2027 09:00 CEST (07:00Z).
  const DAILY = { name: "Standup", text: "Standup notes.", cron: "0 9 * * *" };
  const nine = (day: number) => Date.UTC(2027, 4, day, 7, 0);

  it("carries Done, Snooze 1 h, Skip next and Pause; Snooze 1 h makes a one-off copy and leaves the schedule alone", async () => {
    const chat = await chatAt(MAY);
    const { job, runId, sent } = await fire(chat, DAILY);
    expect(sent.params.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: "Done", callback_data: `d:${runId}` },
          { text: "Snooze 1 h", callback_data: `s:60:${runId}` },
        ],
        [
          { text: "Skip next", callback_data: `k:${runId}` },
          { text: "Pause", callback_data: `p:${runId}` },
        ],
      ],
    });
    expect(runId).toBe(`${job.id}:${nine(13)}`);
    expect((await press(chat, `s:60:${runId}`, sent.messageId!)).answers).toEqual(["Snoozed until 10:00."]);
    const jobs = await jobsOf(chat);
    expect(jobs.find((j) => j.id === job.id)).toMatchObject({ schedule: { cron: "0 9 * * *" }, nextRunAt: new Date(nine(14)).toISOString(), enabled: true });
    expect(jobs.find((j) => j.id !== job.id)).toMatchObject({
      name: "Standup",
      text: "Standup notes.",
      schedule: { at: new Date(nine(13) + 60 * MIN).toISOString() },
    });
  });

  it("Skip next passes over the next run, recorded as skipped by hand, and the run after it is the next; Pause pauses", async () => {
    const chat = await chatAt(MAY);
    const first = await fire(chat, DAILY);
    const skip = await press(chat, `k:${first.runId}`, first.sent.messageId!);
    expect(skip).toEqual({
      answers: ["Skipped 14 May 09:00; next 15 May 09:00."],
      edits: [{ chat_id: Number(chat.chatId), message_id: first.sent.messageId, reply_markup: oneLine("⏭ Skipped 14 May 09:00", first.runId) }],
    });
    const job = await must(chat.stub.getJob(chat.chatId, first.job.id));
    expect(job.nextRunAt).toBe(new Date(nine(15)).toISOString());
    expect((await historyOf(chat.stub, chat.chatId, job.id)).map((r) => [r.runId, r.status, r.detail, r.manual])).toEqual([
      [`${job.id}:${nine(14)}`, "skipped", "skipped by hand", false],
      [first.runId, "delivered", null, false],
    ]);
    const second = await fire(chat, DAILY, job);
    expect(second.runId).toBe(`${job.id}:${nine(15)}`);
    const pause = await press(chat, `p:${second.runId}`, second.sent.messageId!);
    expect(pause).toEqual({
      answers: [`Paused ${job.id} (Standup).`],
      edits: [{ chat_id: Number(chat.chatId), message_id: second.sent.messageId, reply_markup: oneLine("⏸ Paused", second.runId) }],
    });
    expect(await must(chat.stub.getJob(chat.chatId, job.id))).toMatchObject({ enabled: false, nextRunAt: null });
  });

  it("gives a press that cannot act its sentence and keeps the buttons, so another press still can", async () => {
    const chat = await chatAt(MAY);
    const { job, runId, sent } = await fire(chat, DAILY);
    await must(chat.stub.cancelJob(chat.chatId, job.id));
    expect(await press(chat, `k:${runId}`, sent.messageId!)).toEqual({ answers: [`No job ${job.id} in this chat.`], edits: [] });
    // The copy needs nothing of the job: the message kept it.
    expect((await press(chat, `s:60:${runId}`, sent.messageId!)).answers).toEqual(["Snoozed until 10:00."]);
  });
});

describe("whose presses count", () => {
  it("answers a run the chat has no message of as too old, and does nothing", async () => {
    const a = await chatAt(MAY);
    const b = await chatAt(MAY);
    const { runId, sent } = await fire(b, { name: "Tea", text: "Tea.", delay: "PT5M" });
    // B's message's button pressed in A's own chat: A's transcript has no message of that run.
    expect(await press(a, `s:10:${runId}`, 99)).toEqual({ answers: ["This message is too old to act on; see /jobs."], edits: [] });
    expect(await jobsOf(a)).toEqual([]);
    expect(await jobsOf(b)).toEqual([]);
    // And B's own press still acts.
    expect((await press(b, `d:${runId}`, sent.messageId!)).answers).toEqual(["Done."]);
  });

  it("keeps Run now, Pause and Cancel on an alert about a job", async () => {
    const chat = await chatAt(MAY);
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Inbox", kind: "prompt", text: "Inbox.", cron: "0 9 * * *" }, "user"));
    await advanceTo(chat.stub, Date.parse(job.nextRunAt!));
    const before = chat.sent!.length;
    await runDurableObjectAlarm(chat.stub);
    await feed([chat.sent![before]!.body], "prompts-dlq");
    const [alert] = await delivered(bot, chat, 1);
    expect(alert!.params.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: "Run now", callback_data: `r:${job.id}` },
          { text: "Pause", callback_data: `p:${job.id}` },
          { text: "Cancel", callback_data: `c:${job.id}` },
        ],
      ],
    });
  });
});

describe("without a sound: quiet hours and silent jobs", () => {
  it("sends a silent job's message with disable_notification, and a job that is not silent without it", async () => {
    const chat = await chatAt(MAY);
    const quiet = await fire(chat, { name: "Quiet", text: "Quiet one.", delay: "PT5M", silent: true });
    expect(quiet.sent.params.disable_notification).toBe(true);
    const loud = await fire(chat, { name: "Loud", text: "Loud one.", delay: "PT5M" });
    expect(loud.sent.params.disable_notification).toBeUndefined();
  });

  it("sends everything inside the chat's quiet hours with disable_notification, across midnight, and nothing is held back", async () => {
    // 23:30 in Berlin, inside 22:00–07:00.
    const chat = await chatAt(Date.UTC(2027, 4, 12, 21, 30));
    await must(chat.stub.setQuiet(chat.chatId, { quiet: { from: "22:00", to: "07:00" } }));
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/jobs"));
    const night = await fire(chat, { name: "Night", text: "At night.", delay: "PT5M" });
    const [reply] = await bot.sends(chat.chatId);
    expect(reply!.params.text).toBe("No scheduled jobs.");
    expect([reply!.params.disable_notification, night.sent.params.disable_notification]).toEqual([true, true]);
    // 07:00 is outside: the window ends there.
    await advanceTo(chat.stub, Date.UTC(2027, 4, 13, 5, 0));
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/jobs"));
    const morning = (await delivered(bot, chat)).at(-1)!;
    expect(morning.params.text).toBe("No scheduled jobs.");
    expect(morning.params.disable_notification).toBeUndefined();
  });
});
