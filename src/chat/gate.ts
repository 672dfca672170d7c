/**
 * @module The agent run gate of one chat (DESIGN §7): at most one agent turn at a time; prompts that arrive
 * during a turn wait in the DO, in order, and are handed to the holder as follow-ups. Every call renews the
 * holder's 10-minute lease; when it runs out, the alarm clears the holder and re-sends one pending prompt to
 * the queue so a consumer takes over.
 */
import type { PromptMessage } from "../contracts/prompt-message";
import type { GateStore } from "./store/gate";

/** The tables the gate works on: the SQL store in the object, an in-memory one in unit tests. */
export type GateTables = Pick<GateStore, "gate" | "setGate" | "isPending" | "addPending" | "takePending" | "oldestPending">;

export const GATE_LEASE_MS = 10 * 60_000;

/** `run` also carries the chat's zone now, for the local-time header at handling time (DESIGN §7). */
export type GateAnswer = { result: "duplicate" } | { result: "queued" } | { result: "run"; token: string; timeZone?: string };

export class RunGate {
  constructor(
    private readonly store: GateTables,
    /** Whether a key's reply was delivered already (the transcript's record). */
    private readonly delivered: (key: string) => boolean,
    private readonly newToken: () => string = () => crypto.randomUUID(),
  ) {}

  private holder(now: number) {
    const gate = this.store.gate();
    return gate && gate.leaseUntil > now ? gate : null;
  }

  /**
   * A consumer offers a prompt. `duplicate`: its reply was delivered already (`onDuplicateActive` runs when it
   * was the holder's active prompt, whose consumer died after delivering). `run`: the gate was free and the
   * caller now holds it for this prompt. `queued`: stored; the holder will get it from `next`.
   */
  offer(message: PromptMessage, now: number, onDuplicateActive: () => void): GateAnswer {
    if (this.delivered(message.key)) {
      // Its reply went out: a copy waiting in line (put back after a lease ran out) must not be sent again.
      this.store.takePending(message.key);
      const gate = this.store.gate();
      if (gate?.activeKey === message.key) onDuplicateActive();
      return { result: "duplicate" };
    }
    this.expire(now);
    const held = this.holder(now);
    if (held) {
      if (held.activeKey !== message.key && !this.store.isPending(message.key)) {
        this.store.addPending(message.key, JSON.stringify(message), now);
      }
      return { result: "queued" };
    }
    // Free (or its lease ran out): this consumer takes it, for this prompt.
    this.store.takePending(message.key);
    const token = this.newToken();
    this.store.setGate({ token, leaseUntil: now + GATE_LEASE_MS, activeKey: message.key, activeMessage: JSON.stringify(message) });
    return { result: "run", token };
  }

  /** The holder asks for the next prompt: the oldest pending one, or null, which releases the gate. */
  next(token: string, now: number): string | null {
    const gate = this.store.gate();
    if (!gate || gate.token !== token) return null;
    const taken = this.store.takePending();
    if (!taken) {
      this.store.setGate(null);
      return null;
    }
    this.store.setGate({ token, leaseUntil: now + GATE_LEASE_MS, activeKey: taken.key, activeMessage: taken.message });
    return taken.message;
  }

  /** The holder finished `key`; renews the lease. False when the token no longer holds the gate. */
  settle(token: string, key: string, now: number): boolean {
    const gate = this.store.gate();
    if (!gate || gate.token !== token) return false;
    this.store.setGate({ token, leaseUntil: now + GATE_LEASE_MS, activeKey: gate.activeKey === key ? null : gate.activeKey, activeMessage: gate.activeKey === key ? null : gate.activeMessage });
    return true;
  }

  /**
   * The holder gives up after a transient error: its active prompt goes back to the front of the queue of
   * pending prompts and the gate is free, so the queue's retry (or another consumer) can take it.
   */
  release(token: string, now: number): void {
    const gate = this.store.gate();
    if (!gate || gate.token !== token) return;
    if (gate.activeKey !== null && gate.activeMessage !== null && !this.delivered(gate.activeKey)) {
      this.store.addPending(gate.activeKey, gate.activeMessage, now, true);
    }
    this.store.setGate(null);
  }

  /**
   * The alarm's part: when the holder's lease ran out, clear it, put its active prompt back first in line
   * and return the oldest pending prompt to re-send, so a consumer takes over.
   */
  expire(now: number): string | null {
    const gate = this.store.gate();
    if (!gate || gate.leaseUntil > now) return null;
    this.release(gate.token, now);
    return this.store.oldestPending()?.message ?? null;
  }

  /** Whether a job run's prompt is still waiting here (its lease is renewed rather than failed). */
  waiting(key: string): boolean {
    return this.store.isPending(key) || this.store.gate()?.activeKey === key;
  }
}
