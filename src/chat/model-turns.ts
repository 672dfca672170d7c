/**
 * @module Durable model turns and their tries (docs/agent.md, issue 22), the chat object's side: a step recorded
 * under the turn's key by the consumer that holds the gate for it (a token that lost the gate records
 * nothing, so it runs nothing more); a failed try scheduled again after about 15 s, 1 min, 3 min and 6 min
 * (±10%; a longer Retry-After wins, up to 15 min), the gate and the run kept for the turn until then plus their
 * lease, and after the fifth the turn given up; and the transcript's tool entries made from the steps, each
 * keeping at most 4 KB of arguments and of result. The delays are pure (`nextTryDelayMs`).
 */
import { cutToBytes } from "../bytes";
import type { StepRecord, ToolCallRecord, TurnFailure, TurnStep } from "../contracts/turn";
import type { RunGate } from "./gate";
import type { RunStore } from "./store/runs";
import type { TurnStepStore } from "./store/turn-steps";

/** A turn is tried at most this often; then it settles `failed` and the chat is told. */
export const MAX_TRIES = 5;
/** The waits after the 1st, 2nd, 3rd and 4th failed try. */
export const TRY_DELAYS_MS: readonly number[] = [15_000, 60_000, 180_000, 360_000];
/** A server's Retry-After is taken up to this. */
export const RETRY_AFTER_CAP_MS = 15 * 60_000;
const JITTER = 0.1;

/** What the chat is told when the model could not be reached in its tries, and for a dead prompt (docs/agent.md). */
export const GIVE_UP_TEXT = "I couldn't reach the model; please try again later.";

/** A tool entry of the transcript keeps at most this much of the arguments and of the result. */
export const TOOL_ENTRY_BYTES = 4 * 1024;
const ENTRY_CUT = "…(cut here: over 4 KB)";

/**
 * The wait before the next try after `failed` tries failed (1–4): the table's, ±10% at random, or the server's
 * Retry-After (seconds) when longer, at most 15 minutes.
 */
export function nextTryDelayMs(failed: number, retryAfterSeconds: number | null, random: () => number = Math.random): number {
  const base = TRY_DELAYS_MS[Math.min(Math.max(failed, 1), TRY_DELAYS_MS.length) - 1]!;
  const ours = Math.round(base * (1 + JITTER * (2 * random() - 1)));
  const theirs = retryAfterSeconds !== null && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0 ? Math.ceil(retryAfterSeconds * 1000) : 0;
  return theirs > ours ? Math.min(theirs, RETRY_AFTER_CAP_MS) : ours;
}

/** The transcript's tool entries of a turn, from its recorded steps (a call whose result was never recorded says so). */
export function toolRecords(steps: readonly TurnStep[]): ToolCallRecord[] {
  return steps.flatMap(({ answer, results }) =>
    answer.calls.map((call, i) => {
      const result = results?.[i] ?? { ok: false, text: "(no result was recorded)" };
      return {
        name: call.name,
        args: cutToBytes(call.args || "{}", TOOL_ENTRY_BYTES, ENTRY_CUT),
        ok: result.ok,
        text: cutToBytes(result.text, TOOL_ENTRY_BYTES, ENTRY_CUT),
      };
    }),
  );
}

export type ModelTurnsDeps = {
  gate: RunGate;
  steps: TurnStepStore;
  runs: RunStore;
  /** A prompt run's lease: PROMPT_LEASE_MS, or shorter in a local test (`leaseMs` of config.ts). */
  promptLeaseMs: () => number;
  now: () => number;
  transaction: <T>(work: () => T) => T;
  random?: () => number;
};

/** A failed try, as the gate took it: the turn waits for its next try, or it has had its last. */
export type Deferred = { retryAt: number } | { exhausted: true };

export class ModelTurns {
  constructor(private readonly d: ModelTurnsDeps) {}

  /**
   * Records one step of `key`'s turn for the consumer holding the gate with `token`; its results also renew
   * the gate's lease. False when the token no longer holds the gate for that turn, or the results have no
   * recorded answer to go with.
   */
  record(token: string, key: string, record: StepRecord): boolean {
    const now = this.d.now();
    return this.d.transaction(() => {
      if ("answer" in record) {
        if (!this.d.gate.holding(token, key)) return false;
        this.d.steps.recordAnswer(key, record.step, record.answer, now);
        return true;
      }
      return this.d.gate.renew(token, key, now) && this.d.steps.recordResults(key, record.step, record.results);
    });
  }

  /**
   * A try of `key`'s turn failed: before the fifth, the turn keeps the gate, and its run its lease, until its
   * next try plus the lease (docs/agent.md), and nothing else re-sends it meanwhile; the fifth is the last. Null
   * when the token does not hold the gate for that turn.
   */
  defer(token: string, key: string, failure: TurnFailure): Deferred | null {
    const now = this.d.now();
    return this.d.transaction(() => {
      if (!this.d.gate.holding(token, key)) return null;
      const failed = this.d.gate.tries(token, key) + 1;
      if (failed >= MAX_TRIES) return { exhausted: true };
      const retryAt = now + nextTryDelayMs(failed, failure.retryAfter, this.d.random);
      this.d.gate.defer(token, key, retryAt);
      if (this.d.runs.isOpen(key)) this.d.runs.renewLease(key, retryAt + this.d.promptLeaseMs());
      return { retryAt };
    });
  }

  /** The steps recorded for `key`'s turn, to resume after. */
  steps(key: string): TurnStep[] {
    return this.d.steps.steps(key);
  }

  /** The transcript's tool entries of `key`'s turn. */
  toolEntries(key: string): ToolCallRecord[] {
    return toolRecords(this.d.steps.steps(key));
  }

  /** The turn of `key` is over: its steps go. */
  drop(key: string): void {
    this.d.steps.drop(key);
  }
}
