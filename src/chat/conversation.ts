/**
 * @module The run gate's protocol (docs/design/0008-layout.md, docs/agent.md): a consumer offers a prompt, the holder
 * records a model turn's steps and failed tries (`model-turns.ts`), finishes or settles its key, asks for the next
 * prompt, or releases the gate. Each RPC's arguments are read here first (`parseArgs`). A job's key settles its
 * run through the settler; a user's key only moves the gate. The turn's context (`turn-context.ts`), the reply
 * (`replies.ts`) and the re-sends of a freed gate (`resends.ts`) are parts of their own.
 */
import type { PromptMessage } from "../contracts/prompt-message";
import type { NextPrompt, StepRecord, TurnAnswer, TurnContext, TurnFailure } from "../contracts/turn";
import { err, ok, type Result } from "../result";
import { gateSettleArgs, turnAnswerArgs, turnFailureArgs, turnStepArgs } from "../schemas/agent";
import { parseArgs } from "../sentence";
import { formatHeader } from "../time";
import type { Deliveries } from "./deliveries";
import type { GateAnswer, RunGate } from "./gate";
import type { ChatInfo } from "./info";
import { GIVE_UP_TEXT, MAX_TRIES, type ModelTurns } from "./model-turns";
import { NOT_A_MESSAGE, parseMessage } from "./prompts";
import type { Replies } from "./replies";
import type { Resends } from "./resends";
import type { AgentStatus, RunSettler } from "./settle";
import type { GateStore } from "./store/gate";
import type { RunStore } from "./store/runs";
import type { UserPromptStore } from "./store/user-prompts";
import type { HeldTurn, TurnContexts } from "./turn-context";

export type ConversationDeps = {
  runs: RunStore;
  userPrompts: UserPromptStore;
  gateStore: GateStore;
  gate: RunGate;
  deliveries: Pick<Deliveries, "delivered">;
  settler: RunSettler;
  turns: ModelTurns;
  info: ChatInfo;
  context: TurnContexts;
  replies: Pick<Replies, "write">;
  resends: Pick<Resends, "resendPending">;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/**
 * `model`: a model turn, which gets its context; `answer`: the echo's answer, known before the turn;
 * `redelivered`: the queue delivered this message before (a consumer that had it did not finish), see `RunGate.offer`.
 */
export type OfferOptions = { model?: boolean; answer?: TurnAnswer; redelivered?: boolean };

/** `offer`'s answer: the gate's, with the model's context when asked, or `done` when the answer was handed in. */
export type OfferResult =
  | GateAnswer
  | { result: "run"; token: string; timeZone?: string; context?: TurnContext }
  | { result: "done"; token: string; next: NextPrompt | null };

/** The gate's token and the key it works on, as every call of the holder names them. */
const tokenAndKey = () => gateSettleArgs().pick({ token: true, key: true });

export class Conversation {
  constructor(private readonly d: ConversationDeps) {}

  /**
   * A consumer offers a queue message: `duplicate`, `queued` (stored for the holder, or waiting for its next
   * try), or `run` with a token. A model turn starts with its prompt under the local-time header (kept for its
   * later tries); one whose consumers died in all its tries is given up here. With an answer already known,
   * `done` and the next prompt.
   */
  async offer(input: unknown, options: OfferOptions = {}): Promise<Result<OfferResult>> {
    if (options.answer !== undefined) {
      const answer = parseArgs(turnAnswerArgs(), options.answer);
      if (!answer.ok) return answer;
    }
    const message = parseMessage(input);
    if (!message) return err("bad_request", NOT_A_MESSAGE);
    // A job's prompt whose run is gone (its job cancelled before the agent took it, or the chat erased) is
    // stale: nothing runs, and nothing is written but a gate freed that its turn kept while waiting.
    if (message.source !== "user" && !this.openRun(message.key)) {
      if (this.d.gateStore.gate()?.activeKey === message.key && this.d.transaction(() => this.d.gate.dropWaiting(message.key))) {
        this.d.turns.drop(message.key);
        await this.d.resends.resendPending(this.d.now());
      }
      return ok({ result: "duplicate" });
    }
    const bound = this.d.info.bind(message.chatId);
    if (!bound.ok) return bound;
    const now = this.d.now();
    const zone = this.d.info.zone().zone;
    const prompt = options.model === true && !options.answer ? `${formatHeader(now, zone)}\n${message.text}` : null;
    const offer = this.d.transaction(() => {
      // A user's message reached the gate: from here the gate's own lease keeps it (docs/agent.md#the-lease).
      if (message.source === "user") this.d.userPrompts.remove(message.key);
      const answer = this.d.gate.offer(
        message,
        now,
        () => {
          // The holder delivered this prompt's reply and died before settling it: free the gate.
          const held = this.d.gateStore.gate();
          if (held) this.d.gate.release(held.token, now);
          this.d.turns.drop(message.key);
        },
        prompt,
        options.redelivered === true,
      );
      // Its reply went out but its settle did not (a crash, a failed call): the run is finished, say so.
      if (answer.result === "duplicate" && this.openRun(message.key)) this.d.settler.agentOutcome(message.key, "delivered", null, now);
      return answer;
    });
    await this.d.resends.resendPending(now);
    if (offer.result !== "run") return ok(offer);
    const { turn, ...run } = { ...offer, timeZone: zone };
    if (options.answer) {
      const finished = this.done(run.token, message.key, options.answer, options.model === true);
      return finished.ok ? ok({ result: "done", token: run.token, next: finished.value.next }) : finished;
    }
    if (options.model !== true) return ok(run);
    if (turn && turn.tries >= MAX_TRIES) return this.giveUp(run.token, message.key, turn.prompt, "its consumer died in each try");
    return ok({ ...run, context: this.d.context.of(message, now, turn) });
  }

  /**
   * The holder records a step of `key`'s turn (docs/agent.md#the-model-agent-agentllm): the model's answer before its tools
   * run, their results before the next model call. `conflict` when the token no longer holds the gate for it.
   */
  step(token: string, key: string, record: StepRecord): Result<null> {
    const args = parseArgs(tokenAndKey(), { token, key });
    if (!args.ok) return args;
    const step = parseArgs(turnStepArgs(), record);
    if (!step.ok) return step;
    return this.d.turns.record(token, key, step.value)
      ? ok(null)
      : err("conflict", "This token does not hold the chat's run gate for this turn; it runs nothing more.");
  }

  /**
   * The holder's try of `key`'s turn failed for a reason that may pass (docs/agent.md): before the fifth, the turn
   * waits in the gate for its next try (`retryAt`) and the holder gets nothing more; after the fifth, the chat
   * is told in one sentence, the run fails, and the holder gets the next prompt.
   */
  retry(token: string, key: string, failure: TurnFailure): Result<{ retryAt: number | null; next: NextPrompt | null }> {
    const args = parseArgs(tokenAndKey(), { token, key });
    if (!args.ok) return args;
    const failed = parseArgs(turnFailureArgs(), failure);
    if (!failed.ok) return failed;
    const deferred = this.d.turns.defer(token, key, failed.value);
    if (deferred === null) return err("conflict", "This token does not hold the chat's run gate for this turn; offer the prompt again.");
    if ("retryAt" in deferred) return ok({ retryAt: deferred.retryAt, next: null });
    const given = this.giveUp(token, key, this.d.gateStore.gate()?.prompt ?? null, failed.value.detail);
    return given.ok ? ok({ retryAt: null, next: given.value.next }) : given;
  }

  /** The turn had its tries: one sentence to the chat, the run failed, the next prompt for the holder. */
  private giveUp(token: string, key: string, prompt: string | null, why: string): Result<{ result: "done"; token: string; next: NextPrompt | null }> {
    const detail = `the model could not be reached in ${MAX_TRIES} tries: ${why}`.slice(0, 2000);
    const finished = this.done(token, key, { markdown: GIVE_UP_TEXT, prompt, status: "failed", detail, told: true }, true);
    return finished.ok ? ok({ result: "done", token, next: finished.value.next }) : finished;
  }

  /** `finish` as an RPC hands it over: the token, key, status and detail read first, then the answer. */
  finish(token: string, key: string, answer: TurnAnswer, model: boolean): Result<{ delivered: boolean; next: NextPrompt | null }> {
    const args = parseArgs(gateSettleArgs(), { token, key, status: answer?.status, detail: answer?.detail ?? null });
    if (!args.ok) return args;
    const parsed = parseArgs(turnAnswerArgs(), answer);
    if (!parsed.ok) return parsed;
    return this.done(token, key, answer, model);
  }

  /**
   * The holder is done with `key`, in one call (docs/agent.md, issue 13: a model turn costs two calls, the offer
   * and this, and two more for each step that calls tools): the reply delivered with the prompt it saw and the
   * tools its steps called, the run settled, and the next prompt handed over (with its context for a model), or
   * null, which releases the gate.
   */
  private done(token: string, key: string, answer: TurnAnswer, model: boolean): Result<{ delivered: boolean; next: NextPrompt | null }> {
    const now = this.d.now();
    let delivered = false;
    let outcome = { status: answer.status, detail: answer.detail, told: answer.told === true };
    if (answer.markdown !== null) {
      const prompt = answer.promptBody !== undefined ? `${formatHeader(now, this.d.info.zone().zone)}\n${answer.promptBody}` : (answer.prompt ?? null);
      const delivery = this.d.replies.write(key, answer.markdown, prompt, null, model ? this.d.turns.toolEntries(key) : []);
      // Refused for good (the chat is not allowed to use the bot): the run has failed, and nothing can tell
      // the chat; trying again would only loop.
      if (delivery.ok) delivered = delivery.value.delivered;
      else outcome = { status: "failed", detail: delivery.error.message, told: true };
    }
    const settled = this.settleRun(token, key, outcome.status, outcome.detail, outcome.told);
    if (!settled.ok) return settled;
    const next = this.handOver(token, model);
    const message = next.message;
    return ok({ delivered, next: message ? { message, context: model ? this.d.context.of(message, now, next.turn) : null } : null });
  }

  /** The holder's next prompt (the oldest pending one), or null, which releases the gate. */
  next(token: string): Result<{ message: PromptMessage | null }> {
    if (typeof token !== "string") return err("bad_request", `"token" must be the string that "offer" returned.`);
    return ok({ message: this.handOver(token, false).message });
  }

  /**
   * The next prompt for the holder, and its turn as the gate keeps it; for a model, a turn that starts here
   * keeps its prompt under the header of now.
   */
  private handOver(token: string, model: boolean): { message: PromptMessage | null; turn?: HeldTurn } {
    const now = this.d.now();
    const zone = () => this.d.info.zone().zone;
    return this.d.transaction(() => {
      for (;;) {
        // Parsed once, by the gate's call for a turn's prompt or after it (a turn put back keeps its own).
        let parsed: { message: PromptMessage | null } | undefined;
        const parse = (json: string) => {
          parsed ??= { message: parseMessage(JSON.parse(json)) };
          return parsed.message;
        };
        const handed = this.d.gate.next(token, now, (json) => {
          const next = parse(json);
          return model && next ? `${formatHeader(now, zone())}\n${next.text}` : null;
        });
        if (handed === null) return { message: null };
        const message = parse(handed.message);
        // A job prompt whose run went while it waited (its job was cancelled) is stale, as in `offer`.
        if (message && (message.source === "user" || this.openRun(message.key))) return { message: { ...message, timeZone: zone() }, turn: handed.turn };
        this.d.gate.settle(token, message?.key ?? "", now);
        if (message) this.d.turns.drop(message.key);
      }
    });
  }

  /** `settle` as an RPC hands it over: its arguments read first. */
  settle(token: string, key: string, status: AgentStatus, detail: string | null): Result<null> {
    const args = parseArgs(gateSettleArgs(), { token, key, status, detail });
    return args.ok ? this.settleRun(token, key, status, detail) : args;
  }

  /**
   * The holder is done with `key`: a job's key settles its run (`delivered` or `failed`; a finished one-off is
   * deleted); a user's key only renews the lease.
   */
  private settleRun(token: string, key: string, status: AgentStatus, detail: string | null, told = false): Result<null> {
    const now = this.d.now();
    const settled = this.d.transaction(() => {
      // A token that no longer holds the gate may still settle a run whose reply it delivered (its lease ran
      // out mid-turn); anything else it says is not taken.
      const held = this.d.gate.settle(token, key, now);
      if (held) this.d.turns.drop(key);
      if (!this.d.runs.exists(key)) return true; // a user's key only releases
      if (!held && !this.d.deliveries.delivered(key)) return false;
      this.d.settler.agentOutcome(key, status, detail, now, told);
      return true;
    });
    return settled ? ok(null) : err("conflict", "This token does not hold the chat's run gate; offer the prompt again.");
  }

  /** The holder gives up: its prompt goes back first in line, with its turn, and the gate is free. */
  async release(token: string): Promise<Result<null>> {
    if (typeof token !== "string" || token === "") return err("bad_request", `"token" must be the string that "offer" returned.`);
    const now = this.d.now();
    this.d.transaction(() => this.d.gate.release(token, now));
    await this.d.resends.resendPending(now);
    return ok(null);
  }

  /** Whether a job's run is still open (claimed or dispatched, not settled). */
  private openRun(key: string): boolean {
    return this.d.runs.isOpen(key);
  }
}
