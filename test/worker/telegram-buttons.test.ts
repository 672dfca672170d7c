/**
 * Inline buttons (docs/telegram.md, issue 5): a scheduled job's message carries its buttons (a recurring job's Done,
 * Snooze 1 h, Skip next and Pause for its run: telegram-job-messages.test.ts presses them) and an alert Run now,
 * Pause and Cancel with callback data `r:`/`p:`/`c:` + the job id, on the last part only; pressing one of those
 * acts like the command and answers the callback query; a press from another chat, an unknown user or with bad
 * data does nothing but the one answer every press gets. Chat ids 5030000 up; the Bot API is the stub.
 */
import { describe, expect, it, vi } from "vitest";
import { NO_MODEL_REPLY } from "../../src/agent/echo";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { INVALID_BUTTON } from "../../src/telegram/buttons";
import { statusText as statusIn } from "../../src/telegram/commands";
import { ENGLISH } from "../../src/texts";

const statusText = (s: Parameters<typeof statusIn>[1]) => statusIn(ENGLISH.t.status, s);

import { renderTelegramHtml } from "../../src/telegram/render";
import { feed } from "./agent-helpers";
import { chatIds, fireJob, must, objectExists } from "./helpers";
import { callbackUpdate, delivered, expectReply, postUpdate, type TelegramChat, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_030_000);
const bot = new TestBot("buttons");

const buttons = (id: string) => ({
  inline_keyboard: [
    [
      { text: "Run now", callback_data: `r:${id}` },
      { text: "Pause", callback_data: `p:${id}` },
      { text: "Cancel", callback_data: `c:${id}` },
    ],
  ],
});

/** A recurring job's message: Done and Snooze 1 h, then Skip next and Pause, for the run it came from. */
const recurringButtons = (runId: string) => ({
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

/** The answers to one callback query (the webhook has made them by the time `postUpdate` returns). */
const answers = (callbackId: string) =>
  bot.calls({ method: "answerCallbackQuery" }).then((calls) => calls.filter((c) => c.params.callback_query_id === callbackId));

/** `/status` of a chat with one job in UTC, written by its user: the later message that shows nothing came before it. */
async function statusComesNext(chat: TelegramChat, before: number): Promise<void> {
  await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/status"));
  const calls = await delivered(bot, chat, before + 1);
  const status = statusText({ jobs: 1, zone: "UTC", offset: "UTC+00:00", isDefault: true, agent: "echo", runner: "off", blocked: false });
  expectReply(calls.at(-1), chat.chatId, renderTelegramHtml(status));
}

describe("buttons on scheduled messages", () => {
  it("sends a fired job's message, delivered by the echo agent through the consumer, with Done, Snooze 1 h, Skip next and Pause", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const fired = await fireJob(chat.chatId, chat.stub, { cron: true, name: "Stretch", text: "Time to **stretch**." });
    const fed = await feed([fired.message]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    const [sent] = await delivered(bot, chat, 1);
    expectReply(sent, chat.chatId, renderTelegramHtml("Time to **stretch**."));
    expect(sent!.params.text).toBe("Time to <b>stretch</b>.");
    expect(sent!.params.reply_markup).toEqual(recurringButtons(fired.runId));
    for (const row of (sent!.params.reply_markup as ReturnType<typeof recurringButtons>).inline_keyboard) {
      for (const b of row) expect(new TextEncoder().encode(b.callback_data).length).toBeLessThanOrEqual(64);
    }
  });

  it("puts the buttons on the last part of a long job message only", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const fired = await fireJob(chat.chatId, chat.stub, { cron: true });
    const long = Array.from({ length: 200 }, (_, i) => `Line ${i}: ${"lorem ipsum ".repeat(4)}`).join("\n");
    expect(await must(chat.stub.deliver(fired.runId, long))).toEqual({ delivered: true });
    const calls = await delivered(bot, chat);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.map((c) => c.params.text).join("\n")).toBe(renderTelegramHtml(long));
    for (const c of calls.slice(0, -1)) expect(c.params.reply_markup).toBeUndefined();
    expect(calls.at(-1)!.params.reply_markup).toEqual(recurringButtons(fired.runId));
  });

  it("puts the buttons on an alert about a job (a dead prompt)", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const fired = await fireJob(chat.chatId, chat.stub, { cron: true, name: "Inbox summary" });
    await feed([fired.message], "prompts-dlq");
    const [sent] = await delivered(bot, chat, 1);
    expect(sent!.params.text).toContain("Inbox summary");
    expect(sent!.params.reply_markup).toEqual(buttons(fired.job.id));
  });

  it("sends no buttons under a command's reply or the agent's answer to a user", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/jobs"));
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "Hello"));
    // The prompt the chat queued, handed to the consumer and its echo agent.
    const fed = await feed(chat.sent!.map((s) => s.body as PromptMessage));
    expect(fed.explicitAcks).toEqual(fed.ids);
    const calls = await delivered(bot, chat, 2);
    expect(calls.map((c) => c.params.text)).toEqual([renderTelegramHtml("No scheduled jobs."), renderTelegramHtml(NO_MODEL_REPLY)]);
    for (const c of calls) expect(c.params.reply_markup).toBeUndefined();
  });
});

describe("pressing a button", () => {
  async function chatWithJob() {
    const chat = await telegramChat(bot, newChat().chatId);
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Call the dentist", kind: "prompt", cron: "0 0 1 1 *", text: "Call." }, "admin"));
    return { ...chat, job };
  }

  it("Pause pauses the job and answers the callback query with the pause sentence", async () => {
    const chat = await chatWithJob();
    const update = callbackUpdate(chat.chatId, `p:${chat.job.id}`);
    expect((await postUpdate(bot.env([chat.chatId]), update)).status).toBe(200);
    expect(await must(chat.stub.getJob(chat.chatId, chat.job.id))).toMatchObject({ enabled: false, nextRunAt: null });
    expect((await answers(update.callback_query.id)).map((c) => c.params)).toEqual([
      { callback_query_id: update.callback_query.id, text: `Paused ${chat.job.id} (Call the dentist).` },
    ]);
    // The press itself sends no message to the chat: the next one it gets is the reply to a later message.
    expect(await delivered(bot, chat, 0)).toEqual([]);
    await statusComesNext(chat, 0);
  });

  it("Run now runs the job and Cancel cancels it, each answering its query once, also when pressed twice", async () => {
    const chat = await chatWithJob();
    const run = callbackUpdate(chat.chatId, `r:${chat.job.id}`);
    await postUpdate(bot.env([chat.chatId]), run);
    await postUpdate(bot.env([chat.chatId]), run);
    expect(chat.sent!.map((s) => (s.body as { jobId?: string }).jobId)).toEqual([chat.job.id]);
    expect((await answers(run.callback_query.id)).map((c) => c.params.text)).toEqual([`Running ${chat.job.id} (Call the dentist) now.`]);

    const cancel = callbackUpdate(chat.chatId, `c:${chat.job.id}`);
    await postUpdate(bot.env([chat.chatId]), cancel);
    expect((await must(chat.stub.listJobs(chat.chatId, {}))).jobs).toEqual([]);
    expect((await answers(cancel.callback_query.id)).map((c) => c.params.text)).toEqual([`Cancelled ${chat.job.id} (Call the dentist).`]);
  });

  it("does nothing for a press in another chat than the presser's, or by a user outside the allow-list, and answers it once", async () => {
    const a = await chatWithJob();
    const b = await chatWithJob();
    const { chatId: stranger } = newChat();
    // B's job pressed from a message in B's chat by A (who is allowed): not A's private chat.
    const crossed = callbackUpdate(b.chatId, `p:${b.job.id}`, { fromId: a.chatId });
    expect((await postUpdate(bot.env([a.chatId, b.chatId]), crossed)).status).toBe(200);
    // A stranger pressing A's button in their own chat, and in A's.
    const own = callbackUpdate(stranger, `p:${a.job.id}`);
    expect((await postUpdate(bot.env([a.chatId, b.chatId]), own)).status).toBe(200);
    const inA = callbackUpdate(a.chatId, `c:${a.job.id}`, { fromId: stranger });
    expect((await postUpdate(bot.env([a.chatId, b.chatId]), inA)).status).toBe(200);

    for (const chat of [a, b]) expect(await must(chat.stub.getJob(chat.chatId, chat.job.id))).toMatchObject({ enabled: true, nextRunAt: chat.job.nextRunAt });
    expect(await objectExists(stranger)).toBe(false);
    // Each press is answered all the same, so that no button keeps spinning.
    for (const u of [crossed, own, inA]) expect((await answers(u.callback_query.id)).map((c) => c.params.text)).toEqual([INVALID_BUTTON]);
    for (const chat of [a, b]) await statusComesNext(chat, 0);
  });

  it("does nothing to another chat's job pressed in the presser's own chat", async () => {
    const a = await chatWithJob();
    const b = await chatWithJob();
    const press = callbackUpdate(a.chatId, `c:${b.job.id}`);
    expect((await postUpdate(bot.env([a.chatId, b.chatId]), press)).status).toBe(200);
    expect(await must(b.stub.getJob(b.chatId, b.job.id))).toMatchObject({ enabled: true });
    expect(await must(a.stub.getJob(a.chatId, a.job.id))).toMatchObject({ enabled: true });
    // The press is A's own, so it is answered, with the sentence its command would reply.
    expect((await answers(press.callback_query.id)).map((c) => c.params.text)).toEqual([`No job ${b.job.id} in this chat.`]);
    for (const chat of [a, b]) await statusComesNext(chat, 0);
  });

  it("does nothing for bad callback data, and answers each press once: This button is no longer valid.", async () => {
    const chat = await chatWithJob();
    const bad = [
      `x:${chat.job.id}`,
      `p:${chat.job.id}x`,
      `p:${chat.job.id.slice(0, 4)}`,
      "p:",
      `P:${chat.job.id}`,
      `p:${chat.job.id.toUpperCase()}`,
      "c:k7m2q",
      "",
      `s:-10:${chat.job.id}:1796134541092`,
      `x:${"0123456789".repeat(10)}`,
    ];
    expect(new TextEncoder().encode(bad.at(-1)).length).toBe(102);
    const presses = bad.map((data) => callbackUpdate(chat.chatId, data));
    for (const press of presses) expect((await postUpdate(bot.env([chat.chatId]), press)).status).toBe(200);
    // A callback with no data at all.
    const noData = callbackUpdate(chat.chatId, "x");
    delete (noData.callback_query as { data?: string }).data;
    expect((await postUpdate(bot.env([chat.chatId]), noData)).status).toBe(200);
    expect(await must(chat.stub.getJob(chat.chatId, chat.job.id))).toMatchObject({ enabled: true, nextRunAt: chat.job.nextRunAt, running: false });
    expect(await must(chat.stub.jobRuns(chat.chatId, chat.job.id))).toEqual([]);
    expect(chat.sent).toEqual([]);
    // Data that is no button is answered that it is not valid; a well-formed press of an unknown job as its command would be.
    for (const press of [...presses, noData]) {
      const wanted = press.callback_query.data === "c:k7m2q" ? ["No job k7m2q in this chat."] : ["This button is no longer valid."];
      expect(
        (await answers(press.callback_query.id)).map((c) => c.params.text),
        press.callback_query.data,
      ).toEqual(wanted);
    }
    await statusComesNext(chat, 0);
  });
});
