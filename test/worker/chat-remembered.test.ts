/**
 * The stores that keep what they read in memory (the settings, the run gate's holder, whether the outbox was
 * cleared: issue 17, each a statement saved per read) must never answer from memory what the database no
 * longer holds. The object is the database's only writer, so a value is stale only after a transaction that
 * threw (SQLite rolled it back) or an erase: both make the object forget. No input makes a transaction throw,
 * so these tests make SQLite refuse one write of a public call, with a trigger that raises, after the store
 * read or wrote what the rollback undoes; the object's own code rolls back, and the public calls after it
 * (with the trigger dropped) are what is checked. Chat ids 8600000 up.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ChatScheduler } from "../../src/chat/ChatScheduler";
import { GATE_LEASE_MS } from "../../src/chat/gate";
import { take, userMessage } from "./agent-helpers";
import { chatIds, createPrompt, fireJob, must, type Stub, spyQueue, sql } from "./helpers";

const newChat = chatIds(8_600_000);

const REFUSED = "rolled back on purpose";

/**
 * What a public call that SQLite refused throws. Made on the instance itself, so that the error reaches this
 * test as the caller sees it and is not logged by the runtime as an RPC's uncaught one.
 */
function thrown(stub: Stub, call: (chat: ChatScheduler) => Promise<unknown>): Promise<string> {
  return runInDurableObject<ChatScheduler, string>(stub, async (instance) => {
    try {
      await call(instance);
      return "answered";
    } catch (error) {
      return (error as Error).message;
    }
  });
}
const REFUSAL = `${REFUSED}: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_TRIGGER)`;

/** Until `drop`, SQLite refuses the write that `on` names (`BEFORE UPDATE ON jobs`, …) in its transaction. */
async function refuse(stub: Stub, on: string): Promise<{ drop: () => Promise<void> }> {
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec(`CREATE TRIGGER refused ${on} BEGIN SELECT RAISE(ABORT, '${REFUSED}'); END`);
  });
  return { drop: () => runInDurableObject(stub, (_instance, state) => void state.storage.sql.exec("DROP TRIGGER refused")) };
}

const waiting = async (stub: Stub) => (await sql<{ n: number }>(stub, "SELECT COUNT(*) AS n FROM outbox WHERE failed_at IS NULL"))[0]!.n;

describe("what the object remembers after a rolled-back transaction", () => {
  it("reads the zone again: a zone change whose job update failed leaves the zone and the job as they were", async () => {
    const { chatId, stub } = newChat();
    const job = await createPrompt(chatId, stub, { cron: "0 9 * * *" });
    expect((await must(stub.getSettings(chatId))).timeZone).toBe("UTC");
    // The zone is written (and read again for the jobs' next runs) before the job's row is; that write fails.
    const refused = await refuse(stub, "BEFORE UPDATE ON jobs");
    expect(await thrown(stub, (chat) => chat.setTimeZone(chatId, "Asia/Tokyo"))).toBe(REFUSAL);
    await refused.drop();
    expect((await must(stub.getSettings(chatId))).timeZone).toBe("UTC");
    expect((await must(stub.getJob(chatId, job.id))).nextRunAt).toBe(job.nextRunAt);
  });

  it("reads the gate's holder again: an offer that failed after clearing an expired holder leaves it to be put back", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "message 1");
    const m2 = userMessage(chatId, "2", "message 2");
    await take(stub, m1);
    expect(await must(stub.gateOffer(m2))).toEqual({ result: "queued" });
    await stub.testAdvanceClock(GATE_LEASE_MS + 1);
    // The offer clears the holder whose lease ran out (m:1 back in line) and reads the gate free; taking m:2
    // from the line fails.
    const refused = await refuse(stub, "BEFORE DELETE ON pending WHEN OLD.key = 'm:2'");
    expect(await thrown(stub, (chat) => chat.gateOffer(m2))).toBe(REFUSAL);
    await refused.drop();
    // The holder is read again (lease run out), so the offer puts m:1 back in line before it takes m:2.
    const token = await take(stub, m2);
    expect((await must(stub.gateNext(token))).message?.key).toBe("m:1");
  });

  it("reads the outbox again: a dead letter that failed after clearing it leaves a clear that really clears", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub);
    await take(stub, message);
    // A message left waiting from when the chat had a bot (this one has none: nothing it writes is sent).
    await sql(stub, "INSERT INTO outbox (key, created_at, markdown, next_attempt_at) VALUES ('m:0', 0, 'Hello', 0)");
    await stub.testForget();
    expect(await waiting(stub)).toBe(1);
    // The dead letter settles the run, which clears the outbox; freeing the gate after it fails.
    const refused = await refuse(stub, "BEFORE DELETE ON gate");
    expect(await thrown(stub, (chat) => chat.deadLetter(message))).toBe(REFUSAL);
    await refused.drop();
    expect(await waiting(stub)).toBe(1);
    expect((await must(stub.jobRuns(chatId, job.id))).map((r) => [r.runId, r.state])).toEqual([[runId, "dispatched"]]);
    // The next delivery clears the outbox for real.
    await must(stub.deliver("m:later", "Later."));
    expect(await waiting(stub)).toBe(0);
  });

  it("forgets them when the chat is erased", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const m1 = userMessage(chatId, "1", "hello");
    await take(stub, m1);
    await must(stub.erase(chatId));
    expect((await must(stub.getSettings(chatId))).timeZone).toBe("UTC");
    // The erased holder holds nothing: the same prompt offered again runs.
    await take(stub, m1);
  });
});
