/**
 * The `prompts` and `prompts-dlq` consumers (docs/agent.md, issue 4), called directly with `createMessageBatch`
 * and `getQueueResult`: the echo agent's exact texts and the local-time header (the chat object's, at
 * handling time), settling a job's run, duplicates and redeliveries (one reply, one agent call), a crash after
 * deliver, follow-up order, transient failures of the offer (the echo's answer goes in with it) and of a
 * follow-up's answer, and the dead-letter path. Every chat has a non-forwarding spy on its `PROMPTS` binding, so only
 * the messages a test feeds reach the consumer. The chat is seen as a consumer sees it (the gate's answers,
 * the transcript, the job's history, what it sends to the queue); time moves through the object's clock.
 * Chat ids 4000000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GATE_LEASE_MS } from "../../src/chat/gate";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { dayMonthTime, expectGateFree, expectPromptText, feed, jobHeader, NO_MODEL, take } from "./agent-helpers";
import {
  advanceTo,
  alarmOf,
  brief,
  chatIds,
  clockAround,
  expectSpyInPlace,
  fireJob,
  historyOf,
  lines,
  MINUTE,
  must,
  quietConsole,
  type Stub,
  spyQueue,
  transcript,
} from "./helpers";

const newChat = chatIds(4_000_000);

afterEach(() => {
  vi.restoreAllMocks();
});

/** A user message written through the admin API (the DO builds and "sends" it; the spy keeps it). */
async function postUser(stub: Stub, chatId: string, sent: { body: unknown }[], text: string): Promise<PromptMessage> {
  const before = sent.length;
  const { messageId } = await must(stub.postUserMessage(chatId, text));
  expect(sent.length).toBe(before + 1);
  const message = sent[before]!.body as PromptMessage;
  expect(message.key).toBe(`m:${messageId}`);
  return message;
}

const TRANSIENT = "transient: the chat object is overloaded";

/**
 * The test env with the chat binding wrapped so that the `failAt`-th call (counting from 1) of `method`
 * fails as a transient RPC failure would: before it reaches the object, or, with `lostAnswer`, after the
 * object did its work (the answer lost on its way back). Every other call goes to the real object.
 */
function failingEnv(method: "gateOffer" | "gateFinish", failAt: number, lostAnswer = false): Env {
  let calls = 0;
  const call = (name: string, work: () => Promise<unknown>): Promise<unknown> => {
    if (name !== method || ++calls !== failAt) return work();
    return lostAnswer ? work().then(() => Promise.reject(new Error(TRANSIENT))) : Promise.reject(new Error(TRANSIENT));
  };
  const namespace = {
    getByName(name: string) {
      const real = env.CHAT.getByName(name);
      return {
        gateOffer: (...args: Parameters<Stub["gateOffer"]>) => call("gateOffer", () => real.gateOffer(...args)),
        gateFinish: (...args: Parameters<Stub["gateFinish"]>) => call("gateFinish", () => real.gateFinish(...args)),
        gateRelease: (token: string) => real.gateRelease(token),
        deadLetter: (message: unknown) => real.deadLetter(message),
      };
    },
  };
  return { ...env, CHAT: namespace } as unknown as Env;
}

// ── The echo agent on a job's prompt ────────────────────────────────────────────────────────────────────

describe("the echo agent on a job's prompt", () => {
  it("answers a due one-off with exactly its text, records the prompt with the header, deletes the one-off and acks", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { name: "Call the dentist", text: "Remind me to call the dentist." });
    expect(message).toMatchObject({ v: 1, key: runId, chatId, timeZone: "Europe/Berlin", source: "job", jobId: job.id, runId });

    // The header is the chat object's, at handling time: on its clock (a year ahead of the machine's here).
    const { value: fed, t0, t1 } = await clockAround(stub, () => feed([message]));
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(fed.retryMessages).toEqual([]);

    const entries = await transcript(stub, chatId);
    expect(entries.map((e) => [e.role, e.source, e.jobId, e.runId])).toEqual([
      ["prompt", "job", job.id, runId],
      ["bot", "job", job.id, runId],
    ]);
    expectPromptText(entries[0]!.text, "Europe/Berlin", t0, t1, `${jobHeader("Call the dentist", job.id)}\nRemind me to call the dentist.`);
    expect(entries[1]!.text).toBe("Remind me to call the dentist.");

    // The finished one-off is gone, with its history; no alarm is left, and nothing is held or waiting.
    const gone = { ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } };
    expect(await stub.getJob(chatId, job.id)).toEqual(gone);
    expect(await stub.jobRuns(chatId, job.id)).toEqual(gone);
    expect(await alarmOf(stub)).toBeNull();
    await expectGateFree(stub, chatId);
  });

  it("settles a cron job's run delivered and sets lastResult delivered, keeping the job", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, name: "Water the plants", text: "Water the plants on the balcony." });

    const { value: fed, t0, t1 } = await clockAround(stub, () => feed([message]));
    expect(fed.explicitAcks).toEqual(fed.ids);

    const entries = await transcript(stub, chatId);
    expect(brief(entries).map((e) => [e.role, e.source, e.jobId, e.runId])).toEqual([
      ["prompt", "job", job.id, runId],
      ["bot", "job", job.id, runId],
    ]);
    expectPromptText(entries[0]!.text, "UTC", t0, t1, `${jobHeader("Water the plants", job.id)}\nWater the plants on the balcony.`);
    expect(entries[1]!.text).toBe("Water the plants on the balcony.");

    const runs = await historyOf(stub, chatId, job.id);
    expect(runs.map((r) => [r.runId, r.state, r.status, r.detail])).toEqual([[runId, "settled", "delivered", null]]);
    const after = await must(stub.getJob(chatId, job.id));
    expect(after.running).toBe(false);
    expect(after.lastResult?.status).toBe("delivered");
    // Stamped by the object, on its clock (a year ahead of the machine's here).
    expect(Date.parse(after.lastResult!.at)).toBeGreaterThanOrEqual(t0);
    expect(Date.parse(after.lastResult!.at)).toBeLessThanOrEqual(t1);
  });

  it("answers run now of a one-off and keeps the one-off", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Stretch", kind: "prompt", text: "Time to stretch.", delay: "PT1H" }, "admin"));
    await must(stub.runJobNow(chatId, job.id));
    expect(sent).toHaveLength(1);
    const message = sent[0]!.body as PromptMessage;

    const fed = await feed([message]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(brief(await transcript(stub, chatId)).filter((e) => e.role === "bot")).toEqual([
      { role: "bot", source: "job", text: "Time to stretch.", jobId: job.id, runId: message.key },
    ]);
    const after = await must(stub.getJob(chatId, job.id));
    expect(after).toMatchObject({ running: false, nextRunAt: job.nextRunAt, lastResult: { status: "delivered" } });
  });

  it("puts the late note before a late one-off's text", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "America/New_York"));
    await spyQueue(stub);
    const { job, message, dueAt } = await fireJob(chatId, stub, { lateMs: 7 * MINUTE, name: "Pay rent", text: "Pay the rent today." });
    expect(message.late).toBe(true);

    const { t0, t1 } = await clockAround(stub, () => feed([message]));
    const note = `This was due at ${dayMonthTime(dueAt, "America/New_York")}; the bot was offline.`;
    const entries = await transcript(stub, chatId);
    expect(entries.map((e) => e.role)).toEqual(["prompt", "bot"]);
    expect(entries[1]!.text).toBe(`${note}\nPay the rent today.`);
    expectPromptText(entries[0]!.text, "America/New_York", t0, t1, `${jobHeader("Pay rent", job.id)}\n${note}\nPay the rent today.`);
  });
});

// ── Duplicates and redeliveries ─────────────────────────────────────────────────────────────────────────

describe("duplicates and redeliveries", () => {
  it("the same job message twice in one batch: one reply, one agent call, both acked", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true });
    const fed = await feed([message, structuredClone(message)]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(fed.retryMessages).toEqual([]);
    expect(brief(await transcript(stub, chatId)).map((e) => e.role)).toEqual(["prompt", "bot"]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.status])).toEqual([[runId, "delivered"]]);
    await expectGateFree(stub, chatId);
  });

  it("the same job message in two batches: the second is acked and writes nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { message } = await fireJob(chatId, stub, { cron: true });
    await feed([message]);
    const first = await transcript(stub, chatId);
    const again = await feed([message], "prompts", env, 2);
    expect(again.explicitAcks).toEqual(again.ids);
    expect(again.retryMessages).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual(first);
    expect(first.map((e) => e.role)).toEqual(["prompt", "bot"]);
  });

  it("a redelivered one-off message after the one-off settled and was deleted is acked and writes nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { message } = await fireJob(chatId, stub);
    await feed([message]);
    const again = await feed([message], "prompts", env, 2);
    expect(again.explicitAcks).toEqual(again.ids);
    expect((await transcript(stub, chatId)).map((e) => e.role)).toEqual(["prompt", "bot"]);
  });

  it("the same user message twice in one batch and once more later: one reply, one agent call", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const message = await postUser(stub, chatId, sent, "hello there");
    const fed = await feed([message, structuredClone(message)]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    const later = await feed([message], "prompts", env, 2);
    expect(later.explicitAcks).toEqual(later.ids);
    expect(brief(await transcript(stub, chatId)).map((e) => [e.role, e.source])).toEqual([
      ["user", "admin"],
      ["prompt", "admin"],
      ["bot", "admin"],
    ]);
  });

  it("a crash after deliver and before settle and ack: the redelivery sends no second reply, settles the run and frees the gate", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Check the mail." });

    // The first consumer takes the gate, delivers the reply and dies before settling and acknowledging.
    const offer = await must(stub.gateOffer(message));
    expect(offer.result).toBe("run");
    expect(await must(stub.deliver(message.key, "Check the mail.", { prompt: `[header]\n${message.text}` }))).toEqual({ delivered: true });

    const fed = await feed([message], "prompts", env, 2);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(fed.retryMessages).toEqual([]);
    expect(brief(await transcript(stub, chatId)).map((e) => [e.role, e.text])).toEqual([
      ["prompt", `[header]\n${message.text}`],
      ["bot", "Check the mail."],
    ]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[runId, "settled", "delivered"]]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: false, lastResult: { status: "delivered" } });
    await expectGateFree(stub, chatId);
  });

  it("a crash after deliver with a follow-up waiting: the follow-up still gets its reply", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const first = await postUser(stub, chatId, sent, "first");
    const second = await postUser(stub, chatId, sent, "second");

    // Consumer A holds the gate for `first`; `second` arrives meanwhile, is stored and its queue message acked.
    expect((await must(stub.gateOffer(first))).result).toBe("run");
    expect(await must(stub.gateOffer(second))).toEqual({ result: "queued" });
    // A delivers `first` and dies.
    await must(stub.deliver(first.key, NO_MODEL, { prompt: `[header]\n${first.text}` }));
    const resentBefore = sent.length;

    // The queue redelivers `first`; then whatever the chat re-sends is consumed too.
    const fed = await feed([first], "prompts", env, 2);
    expect(fed.explicitAcks).toEqual(fed.ids);
    await expectSpyInPlace(stub, sent);
    for (const resent of sent.slice(resentBefore)) await feed([resent.body]);

    // Expected (docs/agent.md: a follow-up is handled after the current turn): `second` answered once.
    const entries = await transcript(stub, chatId);
    expect(entries.filter((e) => e.role === "prompt").map((e) => e.text.split("\n")[1])).toEqual(["first", "second"]);
    expect(entries.filter((e) => e.role === "bot")).toHaveLength(2);
    await expectGateFree(stub, chatId);
  });
});

// ── Follow-ups ──────────────────────────────────────────────────────────────────────────────────────────

describe("follow-ups", () => {
  it("two user messages in one batch are answered in order, each once, and leave the gate free with no alarm", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const m1 = await postUser(stub, chatId, sent, "What is on today?");
    const m2 = await postUser(stub, chatId, sent, "And tomorrow?");

    const { value: fed, t0, t1 } = await clockAround(stub, () => feed([m1, m2]));
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(fed.retryMessages).toEqual([]);

    const entries = await transcript(stub, chatId);
    expect(entries.map((e) => [e.role, e.source])).toEqual([
      ["user", "admin"],
      ["user", "admin"],
      ["prompt", "admin"],
      ["bot", "admin"],
      ["prompt", "admin"],
      ["bot", "admin"],
    ]);
    expect(entries.slice(0, 2).map((e) => e.text)).toEqual(["What is on today?", "And tomorrow?"]);
    expectPromptText(entries[2]!.text, "UTC", t0, t1, "What is on today?");
    expectPromptText(entries[4]!.text, "UTC", t0, t1, "And tomorrow?");
    expect([entries[3]!.text, entries[5]!.text]).toEqual([NO_MODEL, NO_MODEL]);
    expect(await alarmOf(stub)).toBeNull();
    await expectGateFree(stub, chatId);
  });

  it("a job prompt and a user message of one chat in one batch are both answered once", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Drink water." });
    const user = await postUser(stub, chatId, sent, "thanks");
    const fed = await feed([message, user]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    const bots = brief(await transcript(stub, chatId)).filter((e) => e.role === "bot");
    expect(bots).toEqual([
      { role: "bot", source: "job", text: "Drink water.", jobId: job.id, runId },
      { role: "bot", source: "admin", text: NO_MODEL },
    ]);
  });

  it("messages of two chats in one batch are each answered in their own chat", async () => {
    const a = newChat();
    const b = newChat();
    await spyQueue(a.stub);
    await spyQueue(b.stub);
    const fa = await fireJob(a.chatId, a.stub, { cron: true, text: "Chat A." });
    const fb = await fireJob(b.chatId, b.stub, { cron: true, text: "Chat B." });
    const fed = await feed([fa.message, fb.message]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect((await transcript(a.stub, a.chatId)).filter((e) => e.role === "bot").map((e) => e.text)).toEqual(["Chat A."]);
    expect((await transcript(b.stub, b.chatId)).filter((e) => e.role === "bot").map((e) => e.text)).toEqual(["Chat B."]);
  });
});

// ── Transient failures ──────────────────────────────────────────────────────────────────────────────────

describe("transient failures", () => {
  it("an offer that fails on its way to the chat retries the queue message and changes nothing; the retry answers once", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Feed the cat." });
    const errors = quietConsole("error");
    const before = sent.length;

    const failed = await feed([message], "prompts", failingEnv("gateOffer", 1));
    expect(failed.explicitAcks).toEqual([]);
    expect(failed.retryMessages.map((r) => r.msgId)).toEqual(failed.ids);
    expect(lines(errors)).toEqual([`prompts: ${runId} failed (attempt 1); retrying Error: ${TRANSIENT}`]);
    // The chat never saw it: nothing written, nothing sent again (the queue's retry is the way back), the run
    // still in flight and the gate free.
    expect(await transcript(stub, chatId)).toEqual([]);
    await expectSpyInPlace(stub, sent);
    expect(sent.slice(before)).toEqual([]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[runId, "dispatched", null]]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: true });

    const retried = await feed([message], "prompts", env, 2);
    expect(retried.explicitAcks).toEqual(retried.ids);
    expect(brief(await transcript(stub, chatId)).map((e) => [e.role, e.text])).toEqual([
      ["prompt", expect.stringContaining(message.text)],
      ["bot", "Feed the cat."],
    ]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => r.status)).toEqual(["delivered"]);
    await expectGateFree(stub, chatId);
    expect(lines(errors)).toHaveLength(1);
  });

  it("a follow-up whose answer failed to go in goes back first in line and is sent again; after the queue's retry both are answered once", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const m1 = await postUser(stub, chatId, sent, "one");
    const m2 = await postUser(stub, chatId, sent, "two");
    // Another consumer held the gate for m1 while m2 came (stored for it), then gave up: m1 goes back first
    // in line, ahead of m2, and is sent again.
    const gaveUp = await take(stub, m1);
    expect(await must(stub.gateOffer(m2))).toEqual({ result: "queued" });
    await must(stub.gateRelease(gaveUp));
    expect(sent.slice(2).map((s) => s.body)).toEqual([m1]);

    // A consumer takes m1 and answers it in the offer; the gate hands it m2, and its answer to m2 fails.
    const errors = quietConsole("error");
    const before = sent.length;
    const fed = await feed([m1], "prompts", failingEnv("gateFinish", 1));
    expect(fed.retryMessages.map((r) => r.msgId)).toEqual(fed.ids);
    expect(lines(errors)).toEqual([`prompts: ${m1.key} failed (attempt 1); retrying Error: ${TRANSIENT}`]);
    // The consumer released the gate: m2 is first in line and the chat sent it again at once.
    await expectSpyInPlace(stub, sent);
    expect(sent.slice(before).map((s) => s.body)).toEqual([m2]);

    // The queue retries m1 (answered already: acked), and the re-sent m2 reaches a consumer.
    const retried = await feed([m1], "prompts", env, 2);
    expect(retried.explicitAcks).toEqual(retried.ids);
    const resent = await feed([m2]);
    expect(resent.explicitAcks).toEqual(resent.ids);

    const entries = await transcript(stub, chatId);
    expect(entries.filter((e) => e.role === "prompt").map((e) => e.text.split("\n")[1])).toEqual(["one", "two"]);
    expect(entries.filter((e) => e.role === "bot").map((e) => e.text)).toEqual([NO_MODEL, NO_MODEL]);
    await expectGateFree(stub, chatId);
    expect(lines(errors)).toHaveLength(1);
  });
});

describe("an answer lost on its way back", () => {
  it("after the chat delivered and settled: the queue's retry is a duplicate, with no second reply", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Lock the door." });

    const errors = quietConsole("error");
    const failed = await feed([message], "prompts", failingEnv("gateOffer", 1, true));
    expect(failed.retryMessages.map((r) => r.msgId)).toEqual(failed.ids);
    expect(lines(errors)).toEqual([`prompts: ${runId} failed (attempt 1); retrying Error: ${TRANSIENT}`]);
    // The echo's answer went in with the offer: the reply is there and the run settled.
    expect((await transcript(stub, chatId)).filter((e) => e.role === "bot").map((e) => e.text)).toEqual(["Lock the door."]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[runId, "settled", "delivered"]]);

    const retried = await feed([message], "prompts", env, 2);
    expect(retried.explicitAcks).toEqual(retried.ids);
    expect((await transcript(stub, chatId)).filter((e) => e.role === "bot")).toHaveLength(1);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: false, lastResult: { status: "delivered" } });
    await expectGateFree(stub, chatId);
    expect(lines(errors)).toHaveLength(1);
  });
});

describe("a job cancelled while its prompt is in the gate", () => {
  it("a reply delivered after the job was cancelled mid-turn still carries source job, jobId and runId", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Call mum." });
    const token = await take(stub, message);
    await must(stub.cancelJob(chatId, job.id));

    // docs/api.md#how-a-job-fires: an agent run in progress is not aborted; docs/agent.md: entries caused by a job carry its ids.
    await must(stub.deliver(runId, "Call mum.", { prompt: `[header]\n${message.text}` }));
    await must(stub.gateSettle(token, runId, "delivered"));
    expect(brief(await transcript(stub, chatId))).toEqual([
      { role: "prompt", source: "job", text: `[header]\n${message.text}`, jobId: job.id, runId },
      { role: "bot", source: "job", text: "Call mum.", jobId: job.id, runId },
    ]);
  });

  it("a prompt still waiting in the gate when its job is cancelled is dropped when its turn comes, as a stale offer is", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { job, message } = await fireJob(chatId, stub, { cron: true, text: "Cancelled before its turn." });
    const user = await postUser(stub, chatId, sent, "hello");
    // Another consumer holds the gate for the user's message; the job's prompt waits behind it.
    const { t0, t1 } = await clockAround(stub, () => must(stub.gateOffer(user)));
    expect(await must(stub.gateOffer(message))).toEqual({ result: "queued" });
    await must(stub.cancelJob(chatId, job.id));

    // The holder vanishes: the alarm comes at the end of its 10-minute lease, re-sends the user's message, and a
    // consumer takes over.
    const lease = await alarmOf(stub);
    expect(lease).toBeGreaterThanOrEqual(t0 + GATE_LEASE_MS);
    expect(lease).toBeLessThanOrEqual(t1 + GATE_LEASE_MS);
    const before = sent.length;
    await advanceTo(stub, lease!);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await expectSpyInPlace(stub, sent);
    expect(sent.slice(before).map((s) => (s.body as PromptMessage).key)).toEqual([user.key]);
    await feed([sent[before]!.body]);

    const bots = brief(await transcript(stub, chatId)).filter((e) => e.role !== "user");
    expect(bots.map((e) => [e.role, e.text.split("\n").at(-1)])).toEqual([
      ["prompt", "hello"],
      ["bot", NO_MODEL],
    ]);
    await expectGateFree(stub, chatId);
  });

  it("a dead-lettered prompt of a cancelled job writes nothing that looks like an admin message", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, name: "Gone" });
    await must(stub.cancelJob(chatId, job.id));
    await feed([message], "prompts-dlq");
    for (const e of await transcript(stub, chatId)) expect(e).toMatchObject({ source: "alert", jobId: job.id, runId });
  });
});

// ── Stale prompts ───────────────────────────────────────────────────────────────────────────────────────

describe("a stale job prompt", () => {
  it("whose job was cancelled after dispatch is acked and writes nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, message } = await fireJob(chatId, stub, { cron: true });
    await must(stub.cancelJob(chatId, job.id));
    const fed = await feed([message]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(await transcript(stub, chatId)).toEqual([]);
    await expectGateFree(stub, chatId);
  });
});

// ── Dead letters ────────────────────────────────────────────────────────────────────────────────────────

describe("the prompts-dlq consumer", () => {
  it("settles a dead job prompt failed, delivers one alert and acks", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, name: "Inbox summary" });
    const fed = await feed([message], "prompts-dlq");
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(fed.retryMessages).toEqual([]);
    expect(brief(await transcript(stub, chatId))).toEqual([
      {
        role: "bot",
        source: "alert",
        text: `⚠️ The scheduled job "Inbox summary" (${job.id}) could not be handled: the agent failed after several tries.`,
        jobId: job.id,
        runId,
      },
    ]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status, r.detail])).toEqual([
      [runId, "settled", "failed", "the agent failed after several tries (dead-lettered)"],
    ]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: false, lastResult: { status: "failed" } });

    // Dead-lettered twice (the DLQ redelivers): still one alert.
    await feed([message], "prompts-dlq", env, 2);
    expect(await transcript(stub, chatId)).toHaveLength(1);
  });

  it("keeps a dead one-off paused with its failed run in its history, and tells the chat once", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, message, runId } = await fireJob(chatId, stub, { name: "Once" });
    const fed = await feed([message], "prompts-dlq");
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect((await transcript(stub, chatId)).map((e) => e.text)).toEqual([
      `⚠️ The scheduled job "Once" (${job.id}) could not be handled: the agent failed after several tries.`,
    ]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ enabled: false, nextRunAt: null, running: false, lastResult: { status: "failed" } });
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[runId, "settled", "failed"]]);
  });

  it("tells the user a dead message of theirs was not answered", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const message = await postUser(stub, chatId, sent, "are you there?");
    const fed = await feed([message], "prompts-dlq");
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect((await transcript(stub, chatId)).map((e) => [e.role, e.text])).toEqual([
      ["user", "are you there?"],
      ["bot", "⚠️ I could not answer your message after several tries; please send it again."],
    ]);
  });

  it("drops a dead prompt that was waiting in the gate", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const holder = await postUser(stub, chatId, sent, "holder");
    const waiting = await postUser(stub, chatId, sent, "waiting");
    const token = await take(stub, holder);
    expect(await must(stub.gateOffer(waiting))).toEqual({ result: "queued" });

    await feed([waiting], "prompts-dlq");
    expect((await transcript(stub, chatId)).filter((e) => e.role === "bot")).toHaveLength(1);
    // The holder finishes its turn and is handed nothing: the dead prompt left the line.
    await must(stub.gateSettle(token, holder.key, "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: null });
    await expectGateFree(stub, chatId);
  });
});
