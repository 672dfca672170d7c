/**
 * The agent run gate's rules (docs/agent.md) over an in-memory store: one holder at a time with a 10-minute lease,
 * prompts waiting in order behind it, duplicates of a delivered key dropped, a released prompt first in line,
 * and an expired holder replaced; a model turn whose try failed keeps the gate until its next try (issue 22),
 * re-sent once when that try is due, and keeps its prompt and failed tries when it is put back in line. The
 * object's SQL store is the same interface (test/worker covers it).
 */
import { describe, expect, it } from "vitest";
import { GATE_LEASE_MS, type GateTables, RunGate } from "../../src/chat/gate";
import type { GateState, Pending, TurnState } from "../../src/chat/store/gate";
import type { PromptMessage } from "../../src/contracts/prompt-message";

/** The gate's tables in memory: the holder row and the pending queue, ordered by sequence number. */
class MemoryTables implements GateTables {
  holder: GateState | null = null;
  pending: (Pending & { seq: number })[] = [];
  private seq = 0;

  gate(): GateState | null {
    return this.holder ? { ...this.holder } : null;
  }
  setGate(state: GateState | null): void {
    this.holder = state ? { ...state } : null;
  }
  isPending(key: string): boolean {
    return this.pending.some((p) => p.key === key);
  }
  addPending(key: string, message: string, place: { at: number; first?: TurnState }): void {
    const seq = place.first && this.pending.length > 0 ? Math.min(...this.pending.map((p) => p.seq)) - 1 : ++this.seq;
    this.pending.push({ seq, key, message, ...(place.first ?? { prompt: null, tries: 0 }) });
    this.pending.sort((a, b) => a.seq - b.seq);
  }
  takePending(key?: string): Pending | null {
    const i = key === undefined ? 0 : this.pending.findIndex((p) => p.key === key);
    const [taken] = i >= 0 && i < this.pending.length ? this.pending.splice(i, 1) : [];
    return taken ? { key: taken.key, message: taken.message, prompt: taken.prompt, tries: taken.tries } : null;
  }
  oldestPending(): { key: string; message: string } | null {
    const p = this.pending[0];
    return p ? { key: p.key, message: p.message } : null;
  }
  keys(): string[] {
    return this.pending.map((p) => p.key);
  }
}

const T0 = Date.parse("2026-12-01T09:00:00Z");

function message(key: string): PromptMessage {
  return { v: 1, key, chatId: "111", timeZone: "UTC", source: "user", text: key, body: key, firedAt: new Date(T0).toISOString() };
}

function gateWith(delivered: string[] = []) {
  const tables = new MemoryTables();
  let n = 0;
  const gate = new RunGate(tables, (key) => delivered.includes(key), { newToken: () => `token-${++n}` });
  return { tables, gate, delivered };
}

const noop = () => {
  throw new Error("onDuplicateActive must not run here");
};

describe("the run gate", () => {
  it("lets the first offer run with a token and a 10-minute lease, and queues the next ones in order", () => {
    const { tables, gate } = gateWith();
    expect(gate.offer(message("m:1"), T0, noop)).toStrictEqual({ result: "run", token: "token-1", turn: { prompt: null, tries: 0, resumed: false } });
    expect(tables.holder).toStrictEqual({
      token: "token-1",
      leaseUntil: T0 + GATE_LEASE_MS,
      activeKey: "m:1",
      activeMessage: JSON.stringify(message("m:1")),
      prompt: null,
      tries: 0,
      retryAt: null,
    });
    expect(gate.offer(message("m:2"), T0 + 1, noop)).toStrictEqual({ result: "queued" });
    expect(gate.offer(message("m:3"), T0 + 2, noop)).toStrictEqual({ result: "queued" });
    // A redelivered copy of a queued or active prompt is not queued twice.
    expect(gate.offer(message("m:2"), T0 + 3, noop)).toStrictEqual({ result: "queued" });
    expect(gate.offer(message("m:1"), T0 + 4, noop)).toStrictEqual({ result: "queued" });
    expect(tables.keys()).toEqual(["m:2", "m:3"]);
  });

  it("hands the holder the oldest follow-up on next, renewing the lease, and releases when none is left", () => {
    const { tables, gate } = gateWith();
    gate.offer(message("m:1"), T0, noop);
    gate.offer(message("m:2"), T0, noop);
    expect(gate.settle("token-1", "m:1", T0 + 1000)).toBe(true);
    expect(tables.holder).toMatchObject({ activeKey: null, leaseUntil: T0 + 1000 + GATE_LEASE_MS });
    expect(gate.next("token-1", T0 + 2000)).toStrictEqual({ message: JSON.stringify(message("m:2")), turn: { prompt: null, tries: 0, resumed: false } });
    expect(tables.holder).toMatchObject({ token: "token-1", activeKey: "m:2", leaseUntil: T0 + 2000 + GATE_LEASE_MS });
    expect(gate.next("token-1", T0 + 3000)).toBeNull();
    expect(tables.holder).toBeNull();
  });

  it("answers a prompt whose reply was delivered as a duplicate and drops its waiting copy", () => {
    const { tables, gate, delivered } = gateWith();
    gate.offer(message("m:1"), T0, noop);
    gate.offer(message("m:2"), T0, noop);
    delivered.push("m:2");
    expect(gate.offer(message("m:2"), T0 + 1, noop)).toStrictEqual({ result: "duplicate" });
    expect(tables.keys()).toEqual([]);
  });

  it("tells the caller when the duplicate is the holder's own active prompt (its consumer died after delivering)", () => {
    const { gate, delivered } = gateWith();
    gate.offer(message("m:1"), T0, noop);
    delivered.push("m:1");
    let told = 0;
    expect(gate.offer(message("m:1"), T0 + 1, () => told++)).toStrictEqual({ result: "duplicate" });
    expect(told).toBe(1);
  });

  it("puts a released holder's prompt back first in line and frees the gate; a stale token changes nothing", () => {
    const { tables, gate } = gateWith();
    gate.offer(message("m:1"), T0, noop);
    gate.offer(message("m:2"), T0, noop);
    gate.release("token-9", T0);
    expect(tables.holder?.token).toBe("token-1");
    gate.release("token-1", T0 + 1);
    expect(tables.holder).toBeNull();
    expect(tables.keys()).toEqual(["m:1", "m:2"]);
    expect(gate.next("token-1", T0 + 2)).toBeNull();
    expect(gate.settle("token-1", "m:1", T0 + 2)).toBe(false);
  });

  it("replaces a holder whose lease ran out: expire puts its prompt first and names the oldest to re-send", () => {
    const { tables, gate } = gateWith();
    gate.offer(message("m:1"), T0, noop);
    gate.offer(message("m:2"), T0, noop);
    expect(gate.expire(T0 + GATE_LEASE_MS - 1)).toBeNull();
    expect(gate.expire(T0 + GATE_LEASE_MS)).toBe(JSON.stringify(message("m:1")));
    expect(tables.holder).toBeNull();
    expect(tables.keys()).toEqual(["m:1", "m:2"]);
    // The next offer runs, and takes its own copy out of the line.
    expect(gate.offer(message("m:1"), T0 + GATE_LEASE_MS + 1, noop)).toStrictEqual({
      result: "run",
      token: "token-2",
      turn: { prompt: null, tries: 0, resumed: false },
    });
    expect(tables.keys()).toEqual(["m:2"]);
  });

  it("knows which job runs still wait in it (active or queued), so their leases are renewed rather than failed", () => {
    const { gate } = gateWith();
    gate.offer(message("k7m2q:1"), T0, noop);
    gate.offer(message("k7m2q:2"), T0, noop);
    expect(gate.waiting("k7m2q:1")).toBe(true);
    expect(gate.waiting("k7m2q:2")).toBe(true);
    expect(gate.waiting("k7m2q:3")).toBe(false);
  });

  it("keeps the gate for a model turn whose try failed until its next try, re-sends it once then, and hands it to the next offer", () => {
    const { tables, gate } = gateWith();
    const prompt = "[Tue 2026-12-01 09:00 UTC]\nm:1";
    expect(gate.offer(message("m:1"), T0, noop, prompt)).toStrictEqual({ result: "run", token: "token-1", turn: { prompt, tries: 0, resumed: false } });
    expect(gate.offer(message("m:2"), T0 + 1, noop)).toStrictEqual({ result: "queued" });
    const retryAt = T0 + 15_000;
    expect(gate.defer("token-9", "m:1", retryAt)).toBeNull();
    expect(gate.defer("token-1", "m:1", retryAt)).toBe(1);
    // Held by the turn itself until its try plus the lease: the old token holds nothing any more.
    expect(tables.holder).toMatchObject({ token: "", activeKey: "m:1", prompt, tries: 1, retryAt, leaseUntil: retryAt + GATE_LEASE_MS });
    expect(gate.next("token-1", T0 + 2)).toBeNull();
    expect(gate.settle("token-1", "m:1", T0 + 2)).toBe(false);
    expect(gate.settle("", "m:1", T0 + 2)).toBe(false);
    // Before its try, neither an offer of it nor of anything else runs, and nothing is due.
    expect(gate.offer(message("m:1"), retryAt - 1, noop)).toStrictEqual({ result: "queued" });
    expect(gate.offer(message("m:3"), retryAt - 1, noop)).toStrictEqual({ result: "queued" });
    expect(gate.due(retryAt - 1)).toBeNull();
    expect(gate.expire(retryAt - 1)).toBeNull();
    // Its try has come: its message once, then the gate waits for the consumer that gets it.
    expect(gate.due(retryAt)).toBe(JSON.stringify(message("m:1")));
    expect(gate.due(retryAt + 1)).toBeNull();
    expect(tables.holder).toMatchObject({ token: "", retryAt: null, leaseUntil: retryAt + GATE_LEASE_MS });
    expect(gate.offer(message("m:1"), retryAt + 2, noop)).toStrictEqual({ result: "run", token: "token-2", turn: { prompt, tries: 1, resumed: true } });
    expect(tables.holder).toMatchObject({ token: "token-2", leaseUntil: retryAt + 2 + GATE_LEASE_MS, prompt, tries: 1, retryAt: null });
    expect(tables.keys()).toEqual(["m:2", "m:3"]);
  });

  it("counts a try whose consumer died (its lease ran out) and puts the turn back first with its prompt and tries", () => {
    const { tables, gate } = gateWith();
    gate.offer(message("m:1"), T0, noop, "P1");
    gate.offer(message("m:2"), T0, noop);
    expect(gate.expire(T0 + GATE_LEASE_MS)).toBe(JSON.stringify(message("m:1")));
    expect(tables.pending.map((p) => [p.key, p.prompt, p.tries])).toEqual([
      ["m:1", "P1", 1],
      ["m:2", null, 0],
    ]);
    // Taken again, it is the same turn: its prompt stays, not the new one offered.
    expect(gate.offer(message("m:1"), T0 + GATE_LEASE_MS + 1, noop, "P2")).toStrictEqual({
      result: "run",
      token: "token-2",
      turn: { prompt: "P1", tries: 1, resumed: true },
    });
    // A waiting turn whose re-sent message no consumer took is put back without a try counted.
    gate.defer("token-2", "m:1", T0 + GATE_LEASE_MS + 15_000);
    gate.due(T0 + GATE_LEASE_MS + 15_000);
    gate.expire(T0 + 2 * GATE_LEASE_MS + 15_000);
    expect(tables.pending.map((p) => [p.key, p.prompt, p.tries])).toEqual([
      ["m:1", "P1", 2],
      ["m:2", null, 0],
    ]);
  });

  it("hands a turn whose message the queue delivers again to that delivery at once, counting the try; the old token holds nothing", () => {
    const { tables, gate } = gateWith();
    gate.offer(message("m:1"), T0, noop, "P1");
    gate.offer(message("m:2"), T0, noop);
    // A copy delivered again while its holder may still be working: only a redelivery takes over.
    expect(gate.offer(message("m:1"), T0 + 1, noop, "P2")).toStrictEqual({ result: "queued" });
    expect(gate.offer(message("m:2"), T0 + 1, noop, "P2", true)).toStrictEqual({ result: "queued" });
    expect(gate.offer(message("m:1"), T0 + 2, noop, "P2", true)).toStrictEqual({
      result: "run",
      token: "token-2",
      turn: { prompt: "P1", tries: 1, resumed: true },
    });
    expect(tables.holder).toMatchObject({ token: "token-2", activeKey: "m:1", prompt: "P1", tries: 1, leaseUntil: T0 + 2 + GATE_LEASE_MS });
    expect(gate.renew("token-1", "m:1", T0 + 3)).toBe(false);
    expect(gate.settle("token-1", "m:1", T0 + 3)).toBe(false);
    expect(tables.keys()).toEqual(["m:2"]);
    // A turn that waits for its next try is no consumer's: a redelivered copy does not take it before its time.
    gate.defer("token-2", "m:1", T0 + 15_000);
    expect(gate.offer(message("m:1"), T0 + 4, noop, null, true)).toStrictEqual({ result: "queued" });
    // An echo turn (no prompt of a model) is taken over the same way, without a try counted.
    const echo = gateWith();
    echo.gate.offer(message("m:9"), T0, noop);
    expect(echo.gate.offer(message("m:9"), T0 + 1, noop, null, true)).toStrictEqual({
      result: "run",
      token: "token-2",
      turn: { prompt: null, tries: 0, resumed: false },
    });
  });

  it("hands over a follow-up with the prompt a model turn starts with, and a put-back turn with its own", () => {
    const { tables, gate } = gateWith();
    gate.offer(message("m:1"), T0, noop, "P1");
    gate.offer(message("m:2"), T0, noop);
    gate.settle("token-1", "m:1", T0 + 1);
    expect(gate.next("token-1", T0 + 2, (json) => `header\n${(JSON.parse(json) as PromptMessage).text}`)).toStrictEqual({
      message: JSON.stringify(message("m:2")),
      turn: { prompt: "header\nm:2", tries: 0, resumed: false },
    });
    expect(tables.holder).toMatchObject({ activeKey: "m:2", prompt: "header\nm:2", tries: 0 });
  });

  it("frees the gate of a waiting turn nothing will answer, but never takes a consumer's turn from it", () => {
    const { tables, gate } = gateWith();
    gate.offer(message("k7m2q:1"), T0, noop, "P");
    expect(gate.dropWaiting("k7m2q:1")).toBe(false);
    expect(tables.holder?.token).toBe("token-1");
    gate.defer("token-1", "k7m2q:1", T0 + 15_000);
    expect(gate.dropWaiting("k7m2q:2")).toBe(false);
    expect(gate.dropWaiting("k7m2q:1")).toBe(true);
    expect(tables.holder).toBeNull();
  });
});
