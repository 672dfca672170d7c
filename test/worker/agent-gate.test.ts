/**
 * The run gate of a chat over RPC (docs/agent.md, issue 4): offer / next / settle / release, follow-ups in
 * order, the 10-minute lease renewed by every call, lease takeover by the alarm, a job's run lease renewed
 * while its prompt waits in the gate, and stale prompts. The gate is seen through its own answers, the alarm
 * it arms and what the chat sends to the queue; time moves through the object's clock, and the alarm is run
 * with `runDurableObjectAlarm` once its time has come. Chat ids 4010000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GATE_LEASE_MS } from "../../src/chat/gate";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { TurnAnswer } from "../../src/contracts/turn";
import { OFFER_DEADLINE_MS } from "../../src/jobs/fire";
import { expectGateFree, feed, fireTogether, NO_MODEL, settle, take, userMessage } from "./agent-helpers";
import {
  advanceTo,
  alarmOf,
  brief,
  chatIds,
  clockAround,
  expectSpyInPlace,
  type Fired,
  fireJob,
  historyOf,
  lines,
  MINUTE,
  must,
  quietConsole,
  spyQueue,
  toAlarm,
  transcript,
} from "./helpers";

const newChat = chatIds(4_010_000);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a turn's answer over RPC", () => {
  it("is checked like any input: a reply that is not text, or a field it does not take, is one sentence and changes nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "hello");
    const bad = { markdown: 42, status: "delivered", detail: null } as unknown as TurnAnswer;
    const offered = await stub.gateOffer(m1, { answer: bad });
    expect(offered).toEqual({ ok: false, error: { code: "bad_request", message: '"markdown" must be a string; got a number.' } });

    const token = await take(stub, m1);
    // A model turn's tools are its recorded steps, which the chat's object holds: an answer does not list them.
    const finished = await stub.gateFinish(token, "m:1", { markdown: "Hi.", tools: [], status: "delivered", detail: null } as unknown as TurnAnswer);
    expect(finished).toEqual({ ok: false, error: { code: "bad_request", message: 'Unknown field "tools".' } });
    expect((await transcript(stub, chatId)).filter((e) => e.role === "bot")).toEqual([]);
    // The holder still holds it and finishes it with a good answer.
    expect(await must(stub.gateFinish(token, "m:1", { markdown: "Hi.", status: "delivered", detail: null }))).toEqual({ delivered: true, next: null });
  });
});

describe("offer, next and settle", () => {
  it("prompts offered while a holder runs are queued once each and handed over oldest first; null frees the gate", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const [m1, m2, m3] = ["1", "2", "3"].map((id) => userMessage(chatId, id, `message ${id}`));
    const token = await take(stub, m1!);

    expect(await must(stub.gateOffer(m2))).toEqual({ result: "queued" });
    expect(await must(stub.gateOffer(m3))).toEqual({ result: "queued" });
    // Offered again (a redelivery) while waiting, or while active: still one each.
    expect(await must(stub.gateOffer(m2))).toEqual({ result: "queued" });
    expect(await must(stub.gateOffer(m1))).toEqual({ result: "queued" });

    // The holder is handed m2 and m3, oldest first and once each (a copy stored twice, or the active m1
    // stored, would be handed over too), and then none.
    expect(await must(stub.gateSettle(token, "m:1", "delivered"))).toBeNull();
    expect(await must(stub.gateNext(token))).toEqual({ message: m2 });
    await must(stub.gateSettle(token, "m:2", "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: m3 });
    await must(stub.gateSettle(token, "m:3", "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: null });

    // The gate writes nothing to the transcript by itself.
    expect(await transcript(stub, chatId)).toEqual([]);
    // Null freed the gate: the next offer takes it at once, and nothing is left waiting.
    await expectGateFree(stub, chatId);
  });

  it("a wrong token gets no prompt and neither releases nor changes the gate", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const [m1, m2, m3] = ["1", "2", "3"].map((id) => userMessage(chatId, id, `message ${id}`));
    const token = await take(stub, m1!);
    await must(stub.gateOffer(m2));
    const lease = await alarmOf(stub);
    // A minute later, so that a renewed lease would show in the alarm.
    await stub.testAdvanceClock(MINUTE);

    expect(await must(stub.gateNext("not-the-token"))).toEqual({ message: null });
    expect(await must(stub.gateRelease("not-the-token"))).toBeNull();
    // The lease is where it was, the gate still held (an offer waits), nothing was sent again, and the holder
    // is handed m2, which the wrong token did not take.
    expect(await alarmOf(stub)).toBe(lease);
    expect(await must(stub.gateOffer(m3))).toEqual({ result: "queued" });
    expect(sent).toEqual([]);
    await must(stub.gateSettle(token, "m:1", "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: m2 });
    expect(await must(stub.gateNext(token))).toEqual({ message: m3 });
  });

  it("every holder call renews the 10-minute lease, and the alarm is armed at the lease", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const m2 = userMessage(chatId, "2", "two");
    const { value: token, t0, t1 } = await clockAround(stub, () => take(stub, userMessage(chatId, "1", "one")));
    const lease = await alarmOf(stub);
    expect(lease).toBeGreaterThanOrEqual(t0 + GATE_LEASE_MS);
    expect(lease).toBeLessThanOrEqual(t1 + GATE_LEASE_MS);

    await must(stub.gateOffer(m2));
    // Nine minutes into the lease, each holder call moves it to 10 minutes from then.
    for (const call of [() => stub.gateSettle(token, "m:1", "delivered"), () => stub.gateNext(token)]) {
      await stub.testAdvanceClock(9 * MINUTE);
      const { t0: before, t1: after } = await clockAround(stub, () => must(call()));
      const renewed = await alarmOf(stub);
      expect(renewed).toBeGreaterThanOrEqual(before + GATE_LEASE_MS);
      expect(renewed).toBeLessThanOrEqual(after + GATE_LEASE_MS);
    }

    // A second before the lease ends the gate is still held (the object's clock runs on with the machine's, so
    // not a millisecond before); at its end the alarm frees it and sends the holder's prompt (m2, handed over by
    // next) again.
    const end = (await alarmOf(stub))!;
    await advanceTo(stub, end - 1_000);
    expect(await must(stub.gateOffer(userMessage(chatId, "3", "three")))).toEqual({ result: "queued" });
    await advanceTo(stub, end);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(sent.map((s) => (s.body as PromptMessage).key)).toEqual(["m:2"]);
  });

  it("settling a job's key failed records the detail and lastResult and ends the run", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true });
    const token = await take(stub, message);
    expect(await must(stub.gateSettle(token, runId, "failed", "the model refused"))).toBeNull();
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status, r.detail])).toEqual([
      [runId, "settled", "failed", "the model refused"],
    ]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: false, lastResult: { status: "failed" } });
    expect(await must(stub.gateNext(token))).toEqual({ message: null });
    await expectGateFree(stub, chatId);
  });

  it("refuses an offer that is not a v1 prompt message, or one for another chat", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    expect(await stub.gateOffer({ v: 2 })).toEqual({
      ok: false,
      error: { code: "bad_request", message: "The body must be a v1 prompt message: { v: 1, key, chatId, timeZone, source, text, body, firedAt, … }." },
    });
    await must(stub.getSettings(chatId));
    expect(await stub.gateOffer(userMessage("777", "1", "hi"))).toEqual({
      ok: false,
      error: { code: "bad_request", message: `This scheduler belongs to chat ${chatId}, not 777.` },
    });
    await expectGateFree(stub, chatId);
  });
});

describe("release after a transient error", () => {
  it("puts the active prompt back first in line and frees the gate", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const [m1, m2, m3] = ["1", "2", "3"].map((id) => userMessage(chatId, id, `message ${id}`));
    const token = await take(stub, m1!);
    await must(stub.gateOffer(m2));
    await must(stub.gateOffer(m3));

    // The gate is free with m1 first in line: the chat sends m1 again at once, for a consumer to take over.
    expect(await must(stub.gateRelease(token))).toBeNull();
    expect(sent.map((s) => s.body)).toEqual([m1]);

    // The queue's retry of m1 takes the gate for m1 (out of the line); the holder then gets m2 and m3 in order.
    const again = await take(stub, m1!);
    await must(stub.gateSettle(again, "m:1", "delivered"));
    expect(await must(stub.gateNext(again))).toEqual({ message: m2 });
    await must(stub.gateSettle(again, "m:2", "delivered"));
    expect(await must(stub.gateNext(again))).toEqual({ message: m3 });
    await must(stub.gateSettle(again, "m:3", "delivered"));
    expect(await must(stub.gateNext(again))).toEqual({ message: null });
    expect(sent).toHaveLength(1);
  });

  it("does not put back a prompt whose reply was delivered", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "one");
    const token = await take(stub, m1);
    await must(stub.deliver(m1.key, NO_MODEL));
    await must(stub.gateRelease(token));
    // Nothing was put back, so nothing was sent again (the release sends before it answers).
    expect(sent).toEqual([]);
    await expectGateFree(stub, chatId);
  });
});

describe("lease takeover", () => {
  it("when the holder vanishes, the alarm frees the gate, puts its prompt back first and re-sends one prompt; a consumer then answers both", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Take out the bins." });
    const follow = userMessage(chatId, "9", "and the recycling?");
    const { value: vanished, t1: offeredBy } = await clockAround(stub, () => take(stub, message));
    expect(await must(stub.gateOffer(follow))).toEqual({ result: "queued" });
    const sentBefore = sent.length;

    // Its 10-minute lease runs out on the object's clock (the run's own lease is renewed meanwhile: the
    // prompt is in the gate).
    await advanceTo(stub, offeredBy + GATE_LEASE_MS);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    // The gate is free with the job's prompt first in line: exactly that prompt was sent again.
    await expectSpyInPlace(stub, sent);
    expect(sent.slice(sentBefore).map((s) => s.body)).toEqual([message]);
    // The vanished holder's token no longer holds anything (and takes nothing out of the line).
    expect(await must(stub.gateNext(vanished))).toEqual({ message: null });

    // The re-sent prompt reaches a consumer: it takes the gate and answers both, in order.
    const fed = await feed([sent[sentBefore]!.body]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(brief(await transcript(stub, chatId)).filter((e) => e.role === "bot")).toEqual([
      { role: "bot", source: "job", text: "Take out the bins.", jobId: job.id, runId },
      { role: "bot", source: "admin", text: NO_MODEL },
    ]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.status])).toEqual([[runId, "delivered"]]);
    await expectGateFree(stub, chatId);
  });

  it("an offer after the lease ran out (before the alarm) takes the gate, and the holder then gets the waiting prompts", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const [m1, m2, m3] = ["1", "2", "3"].map((id) => userMessage(chatId, id, `message ${id}`));
    const { value: vanished, t1: offeredBy } = await clockAround(stub, () => take(stub, m1!));
    await must(stub.gateOffer(m2));
    await advanceTo(stub, offeredBy + GATE_LEASE_MS);

    const token = await take(stub, m3!);
    expect(token).not.toBe(vanished);
    await must(stub.gateSettle(token, "m:3", "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: m1 });
    await must(stub.gateSettle(token, "m:1", "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: m2 });
  });
});

describe("a job's run lease while its prompt waits in the gate", () => {
  it("is renewed for a prompt waiting or active in the gate, while a prompt the gate never saw is sent again", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const log = quietConsole("log");
    const [active, waiting, lost] = await fireTogether(chatId, stub, ["Active", "Waiting", "Lost"]);
    const token = await take(stub, active.message);
    expect(await must(stub.gateOffer(waiting.message))).toEqual({ result: "queued" });
    const keysSent = (key: string) => sent.filter((m) => (m.body as PromptMessage).key === key).length;
    /** When a job's (only) run was last sent, as its history says. */
    const startedAt = async (f: Fired) => Date.parse((await historyOf(stub, chatId, f.job.id))[0]!.startedAt!);

    // Sent together, each had 2 minutes to reach the gate: the alarm comes then.
    const deadline = (await alarmOf(stub))!;
    for (const f of [active, waiting, lost]) expect(deadline, f.job.name).toBe((await startedAt(f)) + OFFER_DEADLINE_MS);
    await advanceTo(stub, deadline);
    const { t0, t1 } = await clockAround(stub, async () => expect(await runDurableObjectAlarm(stub)).toBe(true));

    for (const f of [active, waiting]) {
      expect((await historyOf(stub, chatId, f.job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[f.runId, "dispatched", null]]);
      expect(await must(stub.getJob(chatId, f.job.id))).toMatchObject({ running: true });
      expect(keysSent(f.runId), f.job.name).toBe(1);
    }
    // The gate never saw it: lost on its way, so it went out again (docs/agent.md#the-lease), due at the gate in 2 min,
    // which is now the soonest thing the chat waits for.
    expect((await historyOf(stub, chatId, lost.job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[lost.runId, "dispatched", null]]);
    expect(keysSent(lost.runId)).toBe(2);
    expect(lines(log)).toEqual([`run ${lost.runId} did not reach the run gate within 2 min; sending it again`]);
    expect(await startedAt(lost)).toBeGreaterThanOrEqual(t0);
    expect(await alarmOf(stub)).toBe((await startedAt(lost)) + OFFER_DEADLINE_MS);

    // With the lost one cancelled and the gate released (its prompt back first in line, and sent again), what
    // is left to wake for is the two renewed leases: 10 minutes from that alarm.
    await must(stub.cancelJob(chatId, lost.job.id));
    await must(stub.gateRelease(token));
    expect(keysSent(active.runId)).toBe(2);
    const renewed = (await alarmOf(stub))!;
    expect(renewed).toBeGreaterThanOrEqual(t0 + GATE_LEASE_MS);
    expect(renewed).toBeLessThanOrEqual(t1 + GATE_LEASE_MS);
    // The waiting prompt is still in line behind it.
    const next = await take(stub, active.message);
    await must(stub.gateSettle(next, active.runId, "delivered"));
    expect(await must(stub.gateNext(next))).toEqual({ message: waiting.message });
  });
});

describe("stale and duplicate prompts", () => {
  it("a job prompt whose job was cancelled after dispatch is a duplicate and writes nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, message } = await fireJob(chatId, stub, { cron: true });
    await must(stub.cancelJob(chatId, job.id));
    expect(await must(stub.gateOffer(message))).toEqual({ result: "duplicate" });
    expect(await transcript(stub, chatId)).toEqual([]);
    await expectGateFree(stub, chatId);

    // Also while another prompt holds the gate: not stored for the holder, who is handed nothing.
    const hi = userMessage(chatId, "1", "hi");
    const token = await take(stub, hi);
    expect(await must(stub.gateOffer(message))).toEqual({ result: "duplicate" });
    await must(stub.gateSettle(token, hi.key, "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: null });
  });

  it("a prompt whose reply was delivered is a duplicate", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "one");
    await must(stub.deliver(m1.key, NO_MODEL));
    expect(await must(stub.gateOffer(m1))).toEqual({ result: "duplicate" });
    await expectGateFree(stub, chatId);
  });
});

describe("offers that must not run again", () => {
  it("answers a job prompt whose run already settled (failed by its lease, say) as a duplicate, writing nothing", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const log = quietConsole("log");
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true });
    // It never reaches the gate: sent again 3 times, 2 minutes apart, and then its run has failed.
    for (let i = 0; i < 4; i++) await toAlarm(stub);
    expect(sent.map((s) => s.body)).toEqual([message, message, message, message]);
    expect(lines(log)).toEqual(Array(3).fill(`run ${runId} did not reach the run gate within 2 min; sending it again`));
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status, r.detail])).toEqual([
      [runId, "settled", "failed", "no agent took it: sent 4 times, it never reached the run gate"],
    ]);

    expect(await must(stub.gateOffer(message))).toEqual({ result: "duplicate" });
    expect(await transcript(stub, chatId)).toEqual([]);
    await expectGateFree(stub, chatId);
  });

  it("answers a job prompt whose run an agent settled as a duplicate, writing nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { message } = await fireJob(chatId, stub, { cron: true });
    expect(await settle(stub, message, "failed", "the model refused")).toBe(true);
    expect(await must(stub.gateOffer(message))).toEqual({ result: "duplicate" });
    expect(await transcript(stub, chatId)).toEqual([]);
    await expectGateFree(stub, chatId);
  });

  it("drops a delivered prompt's copy waiting in line, so the free gate does not send it again and again", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "one");
    const { t1: offeredBy } = await clockAround(stub, () => take(stub, m1));
    // The holder's lease runs out: its prompt goes back in line and is sent again once.
    await advanceTo(stub, offeredBy + GATE_LEASE_MS);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(sent.map((s) => s.body)).toEqual([m1]);
    // The old holder delivers after all; the re-sent copy is then a duplicate and leaves the line: nothing is
    // sent again, nothing waits, and there is nothing to wake for.
    await must(stub.deliver(m1.key, NO_MODEL));
    expect(await must(stub.gateOffer(m1))).toEqual({ result: "duplicate" });
    expect(sent).toHaveLength(1);
    expect(await alarmOf(stub)).toBeNull();
    await expectGateFree(stub, chatId);
    expect(sent).toHaveLength(1);
  });
});
