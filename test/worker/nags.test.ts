/**
 * Reminders that nag until done in workerd (docs/telegram.md#nag-until-done, issue 36): a prompt job's `repeat` sends
 * its run's message again (the echo agent's reply, not another turn), marked, with the buttons, while the copy before
 * gives way to an inert line; a press on a copy ends it; the copies stop at `times`. Transcript mode, and Telegram with
 * the Bot API stub (the copy before is edited there). Chat ids 9880000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { feed } from "./agent-helpers";
import { advanceTo, chatIds, clockOf, MINUTE, must, queued, type Stub, send, spyQueue, transcript } from "./helpers";
import { delivered, sayOnce, TestBot, telegramChat, textOf } from "./telegram-helpers";

const newChat = chatIds(9_880_000);
const bot = new TestBot("nags");

const copies = async (stub: Stub, chatId: string) =>
  (await transcript(stub, chatId)).filter((e) => e.role === "bot").map((e) => ({ text: e.text, buttons: e.buttons }));
const press = (chatId: string, data: string) => send("POST", `/admin/chats/${chatId}/messages`, { press: data });

/** A one-off that nags every 10 minutes, 2 more times, fired and answered by the echo agent: its run id. */
async function fired(stub: Stub, chatId: string): Promise<string> {
  const job = await must(
    stub.createJob(chatId, { name: "Pills", kind: "prompt", delay: "PT5M", text: "Take the pills", repeat: { every: "PT10M", times: 2 } }, "admin"),
  );
  expect(job.repeat).toEqual({ every: "PT10M", times: 2 });
  await advanceTo(stub, Date.parse(job.nextRunAt!));
  await runDurableObjectAlarm(stub);
  await feed([(await queued(stub)).at(-1)!.body as PromptMessage]);
  return `${job.id}:${Date.parse(job.nextRunAt!)}`;
}

describe("a reminder that nags until done", () => {
  it("is sent again every 10 minutes, marked, with the buttons; the copy before gives way; it stops after 2 more", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const runId = await fired(stub, chatId);
    const [first] = await copies(stub, chatId);
    expect(first!.text).toBe("Take the pills");
    const buttons = first!.buttons;
    for (const n of [2, 3]) {
      await advanceTo(stub, (await clockOf(stub)) + 10 * MINUTE + 1_000);
      await runDurableObjectAlarm(stub);
      const all = await copies(stub, chatId);
      expect(all).toHaveLength(n);
      expect(all.at(-1)).toEqual({ text: `🔁 **${n === 2 ? "2nd" : "3rd"} reminder**\nTake the pills`, buttons });
      expect(all.at(-2)!.buttons).toEqual([[{ text: "🔁 Sent again below", data: `a:${runId}` }]]);
    }
    await advanceTo(stub, (await clockOf(stub)) + 60 * MINUTE);
    await runDurableObjectAlarm(stub);
    expect(await copies(stub, chatId)).toHaveLength(3);
    // No other turn: the one prompt of the run.
    expect(await queued(stub)).toHaveLength(1);
  });

  it("stops when a copy is pressed", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const runId = await fired(stub, chatId);
    expect(await press(chatId, `d:${runId}`)).toEqual({ status: 200, body: { answer: "Done." } });
    await advanceTo(stub, (await clockOf(stub)) + 30 * MINUTE);
    await runDurableObjectAlarm(stub);
    expect(await copies(stub, chatId)).toHaveLength(1);
  });

  it("is refused for a watcher, and with an interval outside a minute to a day", async () => {
    const { chatId, stub } = newChat();
    expect(
      (await stub.createJob(chatId, { name: "W", kind: "watcher", cron: "0 * * * *", command: "true", repeat: { every: "PT10M", times: 2 } }, "admin")).ok,
    ).toBe(false);
    expect(await stub.createJob(chatId, { name: "P", kind: "prompt", delay: "PT1H", text: "x", repeat: { every: "PT30S", times: 2 } }, "admin")).toEqual({
      ok: false,
      error: {
        code: "bad_request",
        message: `"repeat" must be { "every": an ISO 8601 duration from PT1M to P1D, "times": a whole number from 1 to 20 }, such as { "every": "PT10M", "times": 6 }, or null for none.`,
      },
    });
  });
});

describe("in Telegram", () => {
  it("sends the copy with the buttons and edits the copy before to its inert line", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const runId = await fired(chat.stub, chat.chatId);
    await delivered(bot, chat);
    const [sent] = await bot.calls({ chatId: chat.chatId, method: "sendMessage" });
    await advanceTo(chat.stub, (await clockOf(chat.stub)) + 10 * MINUTE + 1_000);
    await runDurableObjectAlarm(chat.stub);
    await delivered(bot, chat);
    const calls = (await bot.calls({ chatId: chat.chatId })).filter((c) => c.method === "sendMessage" || c.method === "editMessageReplyMarkup");
    expect(calls.map((c) => c.method)).toEqual(["sendMessage", "sendMessage", "editMessageReplyMarkup"]);
    expect(String(calls[1]!.params.text)).toBe("🔁 <b>2nd reminder</b>\nTake the pills");
    expect(calls[1]!.params.reply_markup).toEqual(sent!.params.reply_markup);
    expect(calls[2]!.params).toMatchObject({ reply_markup: { inline_keyboard: [[{ text: "🔁 Sent again below", callback_data: `a:${runId}` }]] } });
  });
});

describe("in words", () => {
  it("`/remind … until done` nags every 10 minutes, 6 times; `…, 1 day and 1 hour before` gives notices; German too", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await must(chat.stub.setTimeZone(chat.chatId, "Europe/Berlin"));
    const jobs = async () => (await must(chat.stub.listJobs(chat.chatId))).jobs;
    expect(textOf(await sayOnce(bot, chat, "/remind tomorrow 9:00 pills until done"))).toMatch(/^Created <code>\w{5}<\/code> 💬 pills · once /);
    expect((await jobs()).map((j) => [j.text, j.repeat, j.before])).toEqual([["pills", { every: "PT10M", times: 6 }, []]]);
    await sayOnce(bot, chat, "/remind in 3 days dentist, 1 day and 1 hour before");
    await sayOnce(bot, chat, "/every monday at 9 water the plants every 5 minutes until done");
    await sayOnce(bot, chat, "/remind übermorgen 10:00 Zahnarzt, 1 Tag und 1 Stunde vorher");
    expect((await jobs()).map((j) => [j.text, j.repeat, j.before]).slice(1)).toEqual([
      ["dentist", null, ["P1D", "PT1H"]],
      ["water the plants", { every: "PT5M", times: 6 }, []],
      ["Zahnarzt", null, ["P1D", "PT1H"]],
    ]);
  });
});
