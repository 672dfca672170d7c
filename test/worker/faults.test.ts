/**
 * The fault suite's worker-tier part (issue 12): a Bot API that hangs and then recovers does not hold up the
 * chat's jobs and gets the message once; an alarm that runs twice for one instant claims once; a poison
 * prompt is retried alone while the rest of its batch is answered, then dead-lettered with one sentence; a
 * lost alarm comes back with the next call. Chat ids 8500000 up; the Bot API is the stub.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { ChatScheduler } from "../../src/chat/ChatScheduler";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { chatIds, clockOf, feed, must, queued, spyQueue, transcript, type JobView } from "./agent-helpers";
import { telegramChat, TestBot } from "./telegram-helpers";

vi.setConfig({ testTimeout: 30_000 });
const newChat = chatIds(8_500_000);
const bot = new TestBot("faults");

describe("a Bot API that hangs, then recovers", () => {
  it("fires the chat's due jobs on time while a send hangs, and delivers the waiting message once", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "hang", ms: 6_000 }], chat.chatId);
    const job = await must<JobView>(chat.stub.createJob(chat.chatId, { name: "Stretch", kind: "prompt", delay: "PT1M", text: "Stretch." }, "admin"));
    const due = Date.parse(job.nextRunAt!);
    // On the object's clock the job is due and the message waits to be sent; the runtime, on real time, sleeps.
    await chat.stub.testAdvanceClock(due - (await clockOf(chat.stub)));
    await must(chat.stub.deliver("m:first", "Before the outage."));

    // One alarm: the job is claimed and queued first, then the send hangs until the alarm's 5 s budget is spent.
    expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
    const [fired] = (await queued(chat.stub)).map((s) => s.body as PromptMessage);
    expect(fired!.key).toBe(`${job.id}:${due}`);
    // Claimed at once (before the send began to hang), not seconds later.
    expect(Date.parse(fired!.firedAt) - due).toBeLessThan(1_000);
    expect(fired!.late).toBeUndefined();

    // Telegram is back: once the stall's backoff (at most 2 s) has passed, the next alarm sends the message;
    // the hung call never counted as delivered.
    await chat.stub.testAdvanceClock(2_000);
    expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
    await expect.poll(async () => (await bot.sends(chat.chatId)).map((c) => [c.params.text, c.answered]), { timeout: 10_000 }).toEqual([
      ["Before the outage.", -1],
      ["Before the outage.", 200],
    ]);
  });
});

describe("an alarm that runs twice for one instant", () => {
  it("claims the due job once and sends one prompt", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must<JobView>(stub.createJob(chatId, { name: "Once", kind: "prompt", delay: "PT1M", text: "Once." }, "admin"));
    await stub.testAdvanceClock(Date.parse(job.nextRunAt!) - (await clockOf(stub)));
    await Promise.all([runDurableObjectAlarm(stub), runInDurableObject(stub, (instance: ChatScheduler) => instance.alarm())]);
    await runInDurableObject(stub, (instance: ChatScheduler) => instance.alarm());
    expect((await queued(stub)).map((s) => (s.body as PromptMessage).key)).toEqual([`${job.id}:${Date.parse(job.nextRunAt!)}`]);
    expect((await must<{ runId: string }[]>(stub.jobRuns(chatId, job.id))).map((r) => r.runId)).toEqual([`${job.id}:${Date.parse(job.nextRunAt!)}`]);
  });
});

describe("a poison prompt", () => {
  it("is retried alone while the rest of its batch is answered, then dead-lettered with one sentence", async () => {
    const good = newChat();
    const poisoned = newChat();
    // The poison: every call to its chat's object throws (a bug, a corrupt state), whatever the attempt.
    const namespace = {
      getByName(name: string) {
        if (name === poisoned.chatId) {
          return new Proxy({}, { get: (_t, method) => (method === "deadLetter" ? (m: unknown) => poisoned.stub.deadLetter(m) : () => Promise.reject(new Error("the chat object is broken"))) });
        }
        return env.CHAT.getByName(name);
      },
    };
    const testEnv = { ...env, CHAT: namespace } as unknown as Env;
    const message = (chatId: string, n: number) => ({ v: 1, key: `m:${n}`, chatId, timeZone: "UTC", source: "user", text: "hi", body: "hi", firedAt: new Date().toISOString(), messageId: String(n) });
    for (const { stub } of [good, poisoned]) await spyQueue(stub);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const fed = await feed([message(good.chatId, 1), message(poisoned.chatId, 2)], "prompts", testEnv);
    expect(fed.explicitAcks).toEqual([fed.ids[0]]);
    expect(fed.retryMessages.map((r) => r.msgId)).toEqual([fed.ids[1]]);
    expect((await transcript(good.stub, good.chatId)).map((e) => e.role)).toEqual(["prompt", "bot"]);
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual(["prompts: m:2 failed (attempt 1); retrying"]);
    errors.mockRestore();

    // The queue gives up on it: the dead-letter consumer acknowledges it and the chat gets one sentence.
    const dead = await feed([message(poisoned.chatId, 2)], "prompts-dlq", testEnv);
    expect(dead.explicitAcks).toEqual(dead.ids);
    expect((await transcript(poisoned.stub, poisoned.chatId)).map((e) => e.text)).toEqual(["⚠️ I could not answer your message after several tries; please send it again."]);
  });
});

describe("a lost alarm", () => {
  it("is armed again by the next call to the chat", async () => {
    const { chatId, stub } = newChat();
    const job = await must<JobView>(stub.createJob(chatId, { name: "Later", kind: "prompt", delay: "PT1H", text: "Later." }, "admin"));
    const alarm = () => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(await alarm()).toBe(Date.parse(job.nextRunAt!));
    await runInDurableObject(stub, (_instance, state) => state.storage.deleteAlarm());
    expect(await alarm()).toBeNull();
    await must(stub.getSettings(chatId));
    expect(await alarm()).toBe(Date.parse(job.nextRunAt!));
  });
});
