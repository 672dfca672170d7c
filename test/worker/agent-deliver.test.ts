/**
 * The chat's `deliver` and transcript over RPC (docs/design/0008-layout.md, docs/agent.md, issue 4): a key seen before is a no-op, the
 * roles and sources of entries, the Telegram send a delivery leads to (seen at the Bot API stub, with the
 * chat's alarm run by the test), the last 500 entries kept, and the transcript's shape. Chat ids 4020000 up.
 */
import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../src/schemas/chats";
import { alarmOf, brief, chatIds, clockAround, fireJob, inObject, must, spyQueue, transcript, transcriptCount } from "./helpers";
import { aheadOfRuntime, delivered, TestBot, telegramChat } from "./telegram-helpers";

const newChat = chatIds(4_020_000);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// The chats in Telegram mode have their clocks ahead of the runtime's (`telegramChat`): the tests run their
// alarms and see at the Bot API stub what was sent.
const bot = new TestBot("agent-deliver");

describe("deliver with a bot connected", () => {
  it("refuses a chat outside ALLOWED_USER_IDS and writes nothing", async () => {
    const { chatId } = newChat();
    const { stub } = await telegramChat(bot, chatId, { allowed: ["42"] });
    expect(await stub.deliver("m:1", "Hello.")).toEqual({
      ok: false,
      error: { code: "bad_request", message: `Chat ${chatId} is not allowed to use this bot (ALLOWED_USER_IDS); nothing was delivered.` },
    });
    expect(await transcript(stub, chatId)).toEqual([]);
    // Nothing waits to be sent: no alarm is armed, and the bot sent nothing.
    expect(await alarmOf(stub)).toBeNull();
    expect(await bot.sends(chatId)).toEqual([]);
  });
});

describe("deliver", () => {
  it("writes one bot entry for a new key and nothing for a key seen before", async () => {
    const { chatId, stub } = newChat();
    const { value: first, t0, t1 } = await clockAround(stub, () => must(stub.deliver("m:1", "First reply.")));
    expect(first).toEqual({ delivered: true });
    expect(await must(stub.deliver("m:1", "Second reply."))).toEqual({ delivered: false });
    expect(await must(stub.deliver("m:1", "First reply.", { prompt: "[h]\nhi" }))).toEqual({ delivered: false });

    const entries = await transcript(stub, chatId);
    expect(entries).toHaveLength(1);
    const [entry] = entries as [TranscriptEntry];
    expect(Object.keys(entry).sort()).toEqual(["at", "id", "role", "source", "text"]);
    expect(entry).toMatchObject({ role: "bot", source: "admin", text: "First reply." });
    expect(entry.id).toMatch(/^\d+$/);
    expect(entry.at).toMatch(ISO_INSTANT);
    // Stamped by the object, on its clock.
    expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(t0);
    expect(Date.parse(entry.at)).toBeLessThanOrEqual(t1);
  });

  it("records the prompt the agent saw before the reply, both with the job's ids and source job", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub, { cron: true });
    expect(await must(stub.deliver(runId, "Done.", { prompt: "[Mon 2026-01-05 09:00 UTC]\nDo it." }))).toEqual({ delivered: true });
    expect(brief(await transcript(stub, chatId))).toEqual([
      { role: "prompt", source: "job", text: "[Mon 2026-01-05 09:00 UTC]\nDo it.", jobId: job.id, runId },
      { role: "bot", source: "job", text: "Done.", jobId: job.id, runId },
    ]);
  });

  it("gives a Telegram update's key the source telegram", async () => {
    const { chatId, stub } = newChat();
    await must(stub.deliver("u:42", "Hi."));
    expect(brief(await transcript(stub, chatId))).toEqual([{ role: "bot", source: "telegram", text: "Hi." }]);
  });

  it("refuses an empty reply with a sentence and writes nothing", async () => {
    const { chatId, stub } = newChat();
    const refused = (await stub.deliver("m:1", "")) as { ok: boolean; error?: { code: string; message: string } };
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe("bad_request");
    expect(refused.error?.message).toMatch(/^[A-Z"].*\.$/);
    expect(await transcript(stub, chatId)).toEqual([]);
    // The key was not used up: a later delivery with text goes through.
    expect(await must(stub.deliver("m:1", "Now with text."))).toEqual({ delivered: true });
  });

  it("with a bot connected sends one Telegram message per new key, due with the delivery, none for a repeat", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const { chatId, stub } = chat;
    const { t0, t1 } = await clockAround(stub, () => must(stub.deliver("u:7", "Hello.")));
    // Its send was written with the delivery and is due at once: the alarm is armed for then.
    const armed = await alarmOf(stub);
    expect(armed).toBeGreaterThanOrEqual(t0);
    expect(armed).toBeLessThanOrEqual(t1);
    await must(stub.deliver("u:7", "Hello again."));
    await must(stub.deliver("u:8", "Bye."));

    expect((await delivered(bot, chat)).map((c) => c.params.text)).toEqual(["Hello.", "Bye."]);
    // Everything went out: nothing is left to wake for.
    expect(await alarmOf(stub)).toBeNull();
    expect((await transcript(stub, chatId)).map((e) => e.text)).toEqual(["Hello.", "Bye."]);
  });

  it("with a bot connected, a recurring job's reply goes out with Done, Snooze 1 h, Skip next and Pause for its run", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const { chatId, stub } = chat;
    const { runId } = await fireJob(chatId, stub, { cron: true });
    await must(stub.deliver(runId, "Done."));
    const sends = await delivered(bot, chat);
    expect(sends.map((c) => c.params.text)).toEqual(["Done."]);
    expect(sends[0]!.params.reply_markup).toEqual({
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
  });

  it("in transcript mode leaves nothing to send behind: with no bot, the transcript entry is the delivery", async () => {
    const { chatId, stub } = newChat();
    await aheadOfRuntime(stub);
    await must(stub.deliver("m:1", "Hello."));
    expect((await transcript(stub, chatId)).map((e) => [e.role, e.text])).toEqual([["bot", "Hello."]]);
    // Had it left a message to send, a bot connected later would send it (its alarm armed on connecting); only
    // what is delivered from then on goes out.
    const chat = await telegramChat(bot, chatId);
    await must(stub.deliver("m:2", "Now on Telegram."));
    expect((await delivered(bot, chat)).map((c) => c.params.text)).toEqual(["Now on Telegram."]);
  });
});

describe("the transcript", () => {
  it("keeps exactly the last 500 entries, oldest first", async () => {
    const { chatId, stub } = newChat();
    // One after another inside the object, in one round trip from the test (not 505).
    await inObject(stub, async (chat) => {
      for (let i = 1; i <= 505; i++) await must(chat.deliver(`m:${i}`, `#${i}`));
    });
    expect(await transcriptCount(stub)).toBe(500);
    const entries = await transcript(stub, chatId, 500);
    expect(entries.map((e) => e.text)).toEqual(Array.from({ length: 500 }, (_, i) => `#${i + 6}`));
    const ids = entries.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // A limit gives the newest entries, still oldest first.
    expect((await transcript(stub, chatId, 3)).map((e) => e.text)).toEqual(["#503", "#504", "#505"]);
  });

  it("of an unused chat is empty", async () => {
    const { chatId, stub } = newChat();
    expect(await must(stub.messages(chatId, 50))).toEqual({ chatId, messages: [] });
  });
});
