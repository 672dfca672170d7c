/**
 * @module The agent run gate of one chat (docs/agent.md): at most one agent turn at a time; prompts that arrive
 * during a turn wait in the DO, in order, and are handed to the holder as follow-ups. Every call renews the
 * holder's 10-minute lease; when it runs out, the alarm clears the holder and re-sends one pending prompt to
 * the queue so a consumer takes over. A model turn whose try failed keeps the gate while it waits for its next
 * try (issue 22): nothing re-sends it but the alarm, at that try's time, and the prompts behind it wait.
 */
import type { PromptMessage } from "../contracts/prompt-message";
import type { GateState, GateStore, TurnState } from "./store/gate";

/** The tables the gate works on: the SQL store in the object, an in-memory one in unit tests. */
export type GateTables = Pick<GateStore, "gate" | "setGate" | "isPending" | "addPending" | "takePending" | "oldestPending">;

export const GATE_LEASE_MS = 10 * 60_000;

/**
 * `run` also carries the chat's zone now, for the local-time header at handling time (docs/agent.md), and the turn
 * as the gate holds it (`resumed`: an earlier try of it ran, so it was counted and may have recorded steps).
 */
export type GateAnswer =
  | { result: "duplicate" }
  | { result: "queued" }
  | { result: "run"; token: string; timeZone?: string; turn?: TurnState & { resumed: boolean } };

/** Whether `token` holds the gate (the empty token is the waiting turn's own, which no consumer has). */
const holds = (gate: GateState | null, token: string): gate is GateState => gate !== null && token !== "" && gate.token === token;

/** `leaseMs`: the holder's lease, GATE_LEASE_MS or shorter in a local test (`leaseMs` of config.ts). */
export type GateOptions = { leaseMs?: () => number; newToken?: () => string };

export class RunGate {
  private readonly leaseMs: () => number;
  private readonly newToken: () => string;

  constructor(
    private readonly store: GateTables,
    /** Whether a key's reply was delivered already (the transcript's record). */
    private readonly delivered: (key: string) => boolean,
    options: GateOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? (() => GATE_LEASE_MS);
    this.newToken = options.newToken ?? (() => crypto.randomUUID());
  }

  private holder(now: number) {
    const gate = this.store.gate();
    return gate && gate.leaseUntil > now ? gate : null;
  }

  /**
   * A consumer offers a prompt. `duplicate`: its reply was delivered already (`onDuplicateActive` runs when it
   * was the holder's active prompt, whose consumer died after delivering). `run`: the gate was free (or held
   * for this very turn, whose next try has come) and the caller now holds it for this prompt. `queued`:
   * stored; the holder will get it from `next`. `prompt`: what a model turn sees, kept with a turn that starts
   * here (a turn tried before keeps its own). `redelivered`: the queue gave this message to a consumer before
   * (its `attempts` > 1), so a holder handling this very prompt is gone and this consumer takes its turn over.
   */
  offer(message: PromptMessage, now: number, onDuplicateActive: () => void, prompt: string | null = null, redelivered = false): GateAnswer {
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
      if (held.activeKey === message.key && held.token === "" && (held.retryAt === null || held.retryAt <= now)) {
        // The turn's next try has come: this consumer takes it up where it was.
        const token = this.newToken();
        this.store.setGate({ ...held, token, leaseUntil: now + this.leaseMs(), retryAt: null });
        return { result: "run", token, turn: { prompt: held.prompt, tries: held.tries, resumed: true } };
      }
      if (held.activeKey === message.key && held.token !== "" && redelivered) {
        // The queue delivers a message again only when the consumer it gave it to did not finish with it (its
        // isolate died, or it gave the message back): this one takes the turn over now, not after the lease.
        // The old token holds nothing from here, so a consumer still alive records nothing more and stops. A
        // model turn's death counts as a failed try, as when its lease runs out.
        const tries = held.prompt !== null ? held.tries + 1 : held.tries;
        const token = this.newToken();
        this.store.setGate({ ...held, token, tries, leaseUntil: now + this.leaseMs(), retryAt: null });
        return { result: "run", token, turn: { prompt: held.prompt, tries, resumed: held.prompt !== null } };
      }
      // Waiting for its next try, being handled, or behind the holder: nothing runs now.
      if (held.activeKey !== message.key && !this.store.isPending(message.key)) {
        this.store.addPending(message.key, JSON.stringify(message), { at: now });
      }
      return { result: "queued" };
    }
    // Free (or its lease ran out): this consumer takes it, for this prompt.
    const taken = this.store.takePending(message.key);
    const resumed = taken !== null && taken.prompt !== null;
    const turn: TurnState = resumed ? { prompt: taken.prompt, tries: taken.tries } : { prompt, tries: 0 };
    const token = this.newToken();
    this.store.setGate({ token, leaseUntil: now + this.leaseMs(), activeKey: message.key, activeMessage: JSON.stringify(message), ...turn, retryAt: null });
    return { result: "run", token, turn: { ...turn, resumed } };
  }

  /**
   * The holder asks for the next prompt: the oldest pending one (its JSON, and its turn), or null, which
   * releases the gate. `promptOf` gives the prompt of a turn that starts here (null: not a model's).
   */
  next(
    token: string,
    now: number,
    promptOf: (message: string) => string | null = () => null,
  ): { message: string; turn: TurnState & { resumed: boolean } } | null {
    const gate = this.store.gate();
    if (!holds(gate, token)) return null;
    const taken = this.store.takePending();
    if (!taken) {
      this.store.setGate(null);
      return null;
    }
    const resumed = taken.prompt !== null;
    const turn: TurnState = resumed ? { prompt: taken.prompt, tries: taken.tries } : { prompt: promptOf(taken.message), tries: 0 };
    this.store.setGate({ token, leaseUntil: now + this.leaseMs(), activeKey: taken.key, activeMessage: taken.message, ...turn, retryAt: null });
    return { message: taken.message, turn: { ...turn, resumed } };
  }

  /** The holder finished `key`; renews the lease. False when the token no longer holds the gate. */
  settle(token: string, key: string, now: number): boolean {
    const gate = this.store.gate();
    if (!holds(gate, token)) return false;
    const done = gate.activeKey === key;
    this.store.setGate({ ...gate, leaseUntil: now + this.leaseMs(), ...(done ? { activeKey: null, activeMessage: null, prompt: null, tries: 0 } : {}) });
    return true;
  }

  /** The holder of `key`'s turn makes progress (a recorded step): renews the lease. False when it lost the gate. */
  renew(token: string, key: string, now: number): boolean {
    const gate = this.store.gate();
    if (!holds(gate, token) || gate.activeKey !== key) return false;
    this.store.setGate({ ...gate, leaseUntil: now + this.leaseMs() });
    return true;
  }

  /**
   * The holder's try of `key` failed and the turn is tried again at `retryAt` (docs/agent.md): the gate stays with
   * the turn, not with this holder, until that try plus the lease, so neither a release nor a lease re-sends
   * it before. Returns the turn's failed tries, or null when the token does not hold the gate for `key`.
   */
  defer(token: string, key: string, retryAt: number): number | null {
    const gate = this.store.gate();
    if (!holds(gate, token) || gate.activeKey !== key) return null;
    const tries = gate.tries + 1;
    this.store.setGate({ ...gate, token: "", tries, retryAt, leaseUntil: retryAt + this.leaseMs() });
    return tries;
  }

  /** Whether `token` holds the gate for `key`'s turn. */
  holding(token: string, key: string): boolean {
    const gate = this.store.gate();
    return holds(gate, token) && gate.activeKey === key;
  }

  /** How many tries of `key`'s turn failed so far (0 when the token does not hold it). */
  tries(token: string, key: string): number {
    const gate = this.store.gate();
    return holds(gate, token) && gate.activeKey === key ? gate.tries : 0;
  }

  /**
   * A waiting turn of `key` that nothing will answer (its job's run went while it waited): the gate is free for
   * the prompts behind it. A consumer's turn is never taken from it (an agent run in progress is not aborted).
   */
  dropWaiting(key: string): boolean {
    const gate = this.store.gate();
    if (gate?.token !== "" || gate.activeKey !== key) return false;
    this.store.setGate(null);
    return true;
  }

  /**
   * The alarm's part: the waiting turn's next try has come. Its prompt is to be sent again, once; the gate
   * stays with it until a consumer offers it (or the lease runs out).
   */
  due(now: number): string | null {
    const gate = this.store.gate();
    if (gate?.token !== "" || gate.retryAt === null || gate.retryAt > now) return null;
    this.store.setGate({ ...gate, retryAt: null });
    return gate.activeMessage;
  }

  /**
   * The holder gives up: its active prompt goes back to the front of the queue of pending prompts, with its
   * turn, and the gate is free, so another consumer can take it.
   */
  release(token: string, now: number): void {
    const gate = this.store.gate();
    if (!gate || gate.token !== token) return;
    this.putBack(gate, now, gate.tries);
  }

  private putBack(gate: GateState, now: number, tries: number): void {
    if (gate.activeKey !== null && gate.activeMessage !== null && !this.delivered(gate.activeKey)) {
      this.store.addPending(gate.activeKey, gate.activeMessage, { at: now, first: { prompt: gate.prompt, tries } });
    }
    this.store.setGate(null);
  }

  /**
   * The alarm's part: when the holder's lease ran out, clear it, put its active prompt back first in line
   * and return the oldest pending prompt to re-send, so a consumer takes over. A model turn whose consumer
   * held it that long died in its try: that try counts as failed.
   */
  expire(now: number): string | null {
    const gate = this.store.gate();
    if (!gate || gate.leaseUntil > now) return null;
    this.putBack(gate, now, gate.token !== "" && gate.prompt !== null ? gate.tries + 1 : gate.tries);
    return this.store.oldestPending()?.message ?? null;
  }

  /** Whether a job run's prompt is still waiting here (its lease is renewed rather than failed). */
  waiting(key: string): boolean {
    return this.store.isPending(key) || this.store.gate()?.activeKey === key;
  }
}
