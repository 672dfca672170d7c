/**
 * The run gate of a chat over RPC (DESIGN §7, issue 4): offer / next / settle / release, follow-ups in
 * order, the 10-minute lease renewed by every call, lease takeover by the alarm, a job's run lease renewed
 * while its prompt waits in the gate, and stale prompts. Time is passed in by backdating rows, then
 * `runDurableObjectAlarm`. Chat ids 4010000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { alarmOf, clockOf, settleRun, brief, chatIds, expectSpyInPlace, feed, fireJob, gateRow, LEASE_MS, MINUTE, must, NO_MODEL, pendingKeys, runRow, spyQueue, sql, transcript, userMessage, type JobView } from "./agent-helpers";

const newChat = chatIds(4_010_000);

type Offer = { result: "duplicate" | "queued" } | { result: "run"; token: string };

async function take(stub: ReturnType<typeof newChat>["stub"], message: PromptMessage): Promise<string> {
  const offer = await must<Offer>(stub.gateOffer(message));
  if (offer.result !== "run") throw new Error(`expected run, got ${offer.result}`);
  expect(offer.token).toMatch(/^\S{8,}$/);
  return offer.token;
}

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
    expect(await pendingKeys(stub)).toEqual(["m:2", "m:3"]);
    expect((await gateRow(stub))?.active_key).toBe("m:1");

    expect(await must(stub.gateSettle(token, "m:1", "delivered"))).toBeNull();
    expect(await must(stub.gateNext(token))).toEqual({ message: m2 });
    expect((await gateRow(stub))?.active_key).toBe("m:2");
    await must(stub.gateSettle(token, "m:2", "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: m3 });
    await must(stub.gateSettle(token, "m:3", "delivered"));
    expect(await must(stub.gateNext(token))).toEqual({ message: null });

    expect(await gateRow(stub)).toBeNull();
    expect(await pendingKeys(stub)).toEqual([]);
    // The gate writes nothing to the transcript by itself.
    expect(await transcript(stub, chatId)).toEqual([]);
    // A free gate takes the next offer at once.
    expect((await must<Offer>(stub.gateOffer(userMessage(chatId, "4", "again")))).result).toBe("run");
  });

  it("a wrong token gets no prompt and neither releases nor changes the gate", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const token = await take(stub, userMessage(chatId, "1", "one"));
    await must(stub.gateOffer(userMessage(chatId, "2", "two")));
    const before = await gateRow(stub);

    expect(await must(stub.gateNext("not-the-token"))).toEqual({ message: null });
    expect(await must(stub.gateRelease("not-the-token"))).toBeNull();
    expect(await gateRow(stub)).toEqual(before);
    expect(await pendingKeys(stub)).toEqual(["m:2"]);
    expect(before?.token).toBe(token);
  });

  it("every holder call renews the 10-minute lease, and the alarm is armed at the lease", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const t0 = Date.now();
    const token = await take(stub, userMessage(chatId, "1", "one"));
    const t1 = Date.now();
    const lease = (await gateRow(stub))!.lease_until;
    expect(lease).toBeGreaterThanOrEqual(t0 + LEASE_MS);
    expect(lease).toBeLessThanOrEqual(t1 + LEASE_MS);
    expect(await alarmOf(stub)).toBe(lease);

    await must(stub.gateOffer(userMessage(chatId, "2", "two")));
    for (const call of [() => stub.gateSettle(token, "m:1", "delivered"), () => stub.gateNext(token)]) {
      await sql(stub, "UPDATE gate SET lease_until = ?", Date.now() + MINUTE);
      const before = Date.now();
      await must(call());
      expect((await gateRow(stub))!.lease_until).toBeGreaterThanOrEqual(before + LEASE_MS);
    }
  });

  it("settling a job's key failed records the detail and lastResult and ends the run", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true });
    const token = await take(stub, message);
    expect(await must(stub.gateSettle(token, runId, "failed", "the model refused"))).toBeNull();
    const run = await runRow(stub, runId);
    expect([run?.state, run?.status, run?.detail]).toEqual(["settled", "failed", "the model refused"]);
    expect(await must<JobView>(stub.getJob(chatId, job.id))).toMatchObject({ running: false, lastResult: { status: "failed" } });
    expect(await must(stub.gateNext(token))).toEqual({ message: null });
    expect(await gateRow(stub)).toBeNull();
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
    expect(await gateRow(stub)).toBeNull();
  });
});

describe("release after a transient error", () => {
  it("puts the active prompt back first in line and frees the gate", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const [m1, m2, m3] = ["1", "2", "3"].map((id) => userMessage(chatId, id, `message ${id}`));
    const token = await take(stub, m1!);
    await must(stub.gateOffer(m2));
    await must(stub.gateOffer(m3));

    expect(await must(stub.gateRelease(token))).toBeNull();
    expect(await gateRow(stub)).toBeNull();
    expect(await pendingKeys(stub)).toEqual(["m:1", "m:2", "m:3"]);

    // The queue's retry of m1 takes the gate for m1; the holder then gets m2 and m3 in order.
    const again = await take(stub, m1!);
    expect(await pendingKeys(stub)).toEqual(["m:2", "m:3"]);
    await must(stub.gateSettle(again, "m:1", "delivered"));
    expect(await must(stub.gateNext(again))).toEqual({ message: m2 });
  });

  it("does not put back a prompt whose reply was delivered", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "one");
    const token = await take(stub, m1);
    await must(stub.deliver(m1.key, NO_MODEL));
    await must(stub.gateRelease(token));
    expect(await pendingKeys(stub)).toEqual([]);
    expect(await gateRow(stub)).toBeNull();
  });
});

describe("lease takeover", () => {
  it("when the holder vanishes, the alarm frees the gate, puts its prompt back first and re-sends one prompt; a consumer then answers both", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Take out the bins." });
    const follow = userMessage(chatId, "9", "and the recycling?");
    const vanished = await take(stub, message);
    expect(await must(stub.gateOffer(follow))).toEqual({ result: "queued" });
    const sentBefore = sent.length;

    await sql(stub, "UPDATE gate SET lease_until = ?", Date.now() - 1_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    expect(await gateRow(stub)).toBeNull();
    expect(await pendingKeys(stub)).toEqual([runId, follow.key]);
    await expectSpyInPlace(stub, sent);
    expect(sent.slice(sentBefore).map((s) => s.body)).toEqual([message]);
    // The vanished holder's token no longer holds anything.
    expect(await must(stub.gateNext(vanished))).toEqual({ message: null });
    expect(await pendingKeys(stub)).toEqual([runId, follow.key]);

    // The re-sent prompt reaches a consumer: it takes the gate and answers both, in order.
    const fed = await feed([sent[sentBefore]!.body]);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(brief(await transcript(stub, chatId)).filter((e) => e.role === "bot")).toEqual([
      { role: "bot", source: "job", text: "Take out the bins.", jobId: job.id, runId },
      { role: "bot", source: "admin", text: NO_MODEL },
    ]);
    expect((await runRow(stub, runId))?.status).toBe("delivered");
    expect(await gateRow(stub)).toBeNull();
    expect(await pendingKeys(stub)).toEqual([]);
  });

  it("an offer after the lease ran out (before the alarm) takes the gate, and the holder then gets the waiting prompts", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const [m1, m2, m3] = ["1", "2", "3"].map((id) => userMessage(chatId, id, `message ${id}`));
    const vanished = await take(stub, m1!);
    await must(stub.gateOffer(m2));
    await sql(stub, "UPDATE gate SET lease_until = ?", Date.now() - 1_000);

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
    const active = await fireJob(chatId, stub, { cron: true, name: "Active" });
    const waiting = await fireJob(chatId, stub, { cron: true, name: "Waiting" });
    const lost = await fireJob(chatId, stub, { cron: true, name: "Lost" });
    await take(stub, active.message);
    expect(await must(stub.gateOffer(waiting.message))).toEqual({ result: "queued" });

    const t0 = await clockOf(stub);
    for (const f of [active, waiting, lost]) await sql(stub, "UPDATE runs SET lease_until = ? WHERE run_id = ?", t0 - 1_000, f.runId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    for (const f of [active, waiting]) {
      const run = await runRow(stub, f.runId);
      expect([run?.state, run?.status]).toEqual(["dispatched", null]);
      expect(run!.lease_until!).toBeGreaterThanOrEqual(t0 + LEASE_MS);
      expect(await must<JobView>(stub.getJob(chatId, f.job.id))).toMatchObject({ running: true });
    }
    // The gate never saw it: lost on its way, so it went out again (DESIGN §5 Leases), due at the gate in 2 min.
    const resent = await runRow(stub, lost.runId);
    expect([resent?.state, resent?.status, resent?.resends]).toEqual(["dispatched", null, 1]);
    expect(resent!.lease_until!).toBeGreaterThanOrEqual(t0 + 2 * MINUTE);
    expect(resent!.lease_until!).toBeLessThan(t0 + LEASE_MS);
    expect(sent.filter((m) => (m.body as { key: string }).key === lost.runId)).toHaveLength(2);
    expect(await pendingKeys(stub)).toEqual([waiting.runId]);
  });
});

describe("stale and duplicate prompts", () => {
  it("a job prompt whose job was cancelled after dispatch is a duplicate and writes nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, message } = await fireJob(chatId, stub, { cron: true });
    await must(stub.cancelJob(chatId, job.id));
    expect(await must(stub.gateOffer(message))).toEqual({ result: "duplicate" });
    expect(await gateRow(stub)).toBeNull();
    expect(await pendingKeys(stub)).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual([]);

    // Also while another prompt holds the gate: not stored for the holder.
    await take(stub, userMessage(chatId, "1", "hi"));
    expect(await must(stub.gateOffer(message))).toEqual({ result: "duplicate" });
    expect(await pendingKeys(stub)).toEqual([]);
  });

  it("a prompt whose reply was delivered is a duplicate", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "one");
    await must(stub.deliver(m1.key, NO_MODEL));
    expect(await must(stub.gateOffer(m1))).toEqual({ result: "duplicate" });
    expect(await gateRow(stub)).toBeNull();
  });
});


describe("offers that must not run again", () => {
  it("answers a job prompt whose run already settled (failed by its lease, say) as a duplicate, writing nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { runId, message } = await fireJob(chatId, stub, { cron: true });
    await settleRun(stub, runId, "failed", "no agent settled it within 10 min");
    expect(await must(stub.gateOffer(message))).toEqual({ result: "duplicate" });
    expect(await gateRow(stub)).toBeNull();
    expect(await transcript(stub, chatId)).toEqual([]);
  });

  it("drops a delivered prompt's copy waiting in line, so the free gate does not send it again and again", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "one");
    const token = await take(stub, m1);
    // The holder's lease runs out: its prompt goes back in line and is sent again once.
    await sql(stub, "UPDATE gate SET lease_until = ?", Date.now() - 1);
    await runDurableObjectAlarm(stub);
    expect(await pendingKeys(stub)).toEqual([m1.key]);
    const resent = sent.length;
    // The old holder delivers after all; the re-sent copy is then a duplicate and leaves the line.
    await must(stub.deliver(m1.key, NO_MODEL));
    expect(await must(stub.gateOffer(m1))).toEqual({ result: "duplicate" });
    expect(await pendingKeys(stub)).toEqual([]);
    expect(sent.length).toBe(resent);
    void token;
  });
});
