/**
 * The stores that keep what they read in memory (the settings, the run gate's holder, whether the outbox was
 * cleared: issue 17, each a statement saved per read) must never answer from memory what the database no
 * longer holds. The object is the database's only writer, so a value is stale only after a transaction that
 * threw (SQLite rolled it back) or an erase: both make the object forget. These tests reach the object's own
 * stores and its transaction (the one every part is given) on the live instance, since no input makes a
 * transaction throw on purpose. Chat ids 8600000 up.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { GateStore } from "../../src/chat/store/gate";
import type { OutboxStore } from "../../src/chat/store/outbox";
import type { SettingsStore } from "../../src/chat/store/settings";
import { chatIds, must } from "./helpers";

const newChat = chatIds(8_600_000);

type Insides = {
  remembering: readonly unknown[];
  firing: { d: { transaction: <T>(work: () => T) => T } };
};

/** The object's remembering stores and the transaction its parts run in. */
function insides(instance: unknown): { settings: SettingsStore; outbox: OutboxStore; gate: GateStore; transaction: <T>(work: () => T) => T } {
  const i = instance as Insides;
  const [settings, outbox, gate] = i.remembering as [SettingsStore, OutboxStore, GateStore];
  return { settings, outbox, gate, transaction: i.firing.d.transaction };
}

const rolledBack = (transaction: <T>(work: () => T) => T, work: () => void): string => {
  try {
    transaction(() => {
      work();
      throw new Error("rolled back on purpose");
    });
  } catch (error) {
    return (error as Error).message;
  }
  return "not thrown";
};

describe("what the object remembers after a rolled-back transaction", () => {
  it("reads the settings, the gate's holder and the outbox again, so none answers from the undone write", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId)); // bound to its chat
    const seen = await runInDurableObject(stub, (instance, state) => {
      const { settings, outbox, gate, transaction } = insides(instance);
      const rows = () => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE failed_at IS NULL").one().n;
      // One message waiting in the outbox, committed; the gate free; the chat in the default zone.
      outbox.enqueueOutbox({ key: "m:1", markdown: "Hello", jobId: null, runId: null }, 1_000);
      const before = { zone: settings.get("time_zone"), gate: gate.gate(), waiting: rows() };

      const thrown = rolledBack(transaction, () => {
        settings.set("time_zone", "Asia/Tokyo");
        gate.setGate({ token: "t1", leaseUntil: 5_000, activeKey: "m:1", activeMessage: null, prompt: null, tries: 0, retryAt: null });
        outbox.clearOutbox();
        // Read inside the transaction, so each store holds the value it is about to lose.
        expect([settings.get("time_zone"), gate.gate()?.token, rows()]).toEqual(["Asia/Tokyo", "t1", 0]);
      });

      const after = { zone: settings.get("time_zone"), gate: gate.gate(), waiting: rows() };
      // The outbox's message is back, and a clear after the rollback really clears it.
      outbox.clearOutbox();
      return { thrown, before, after, clearedAgain: rows() };
    });
    expect(seen).toEqual({
      thrown: "rolled back on purpose",
      before: { zone: null, gate: null, waiting: 1 },
      after: { zone: null, gate: null, waiting: 1 },
      clearedAgain: 0,
    });
  });

  it("forgets them when the chat is erased", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    await runInDurableObject(stub, (instance) => {
      const { gate } = insides(instance);
      gate.setGate({ token: "t2", leaseUntil: Date.now() + 60_000, activeKey: null, activeMessage: null, prompt: null, tries: 0, retryAt: null });
      expect(gate.gate()?.token).toBe("t2");
    });
    await must(stub.erase(chatId));
    const settings = await must(stub.getSettings(chatId));
    const held = await runInDurableObject(stub, (instance) => insides(instance).gate.gate());
    expect([settings.timeZone, held]).toEqual(["UTC", null]);
  });
});
