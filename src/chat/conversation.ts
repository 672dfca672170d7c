/**
 * @module The chat's conversation with its agent (docs/design/0008-layout.md, docs/agent.md): the run gate (offer, next, settle, release),
 * a model turn's steps and failed tries (`model-turns.ts`), `deliver`, the transcript, and the prompts the queue gave
 * up on. A job's key settles its run through the settler; a user's key only moves the gate.
 */

import { type Config, leaseMs, leaseText } from "../config";
import { type PromptMessage, promptMessageSchema } from "../contracts/prompt-message";
import type { NextPrompt, StepRecord, ToolCallRecord, TurnAnswer, TurnContext, TurnFailure } from "../contracts/turn";
import { MAX_RESENDS, OFFER_DEADLINE_MS } from "../jobs/fire";
import { followUpsOf } from "../jobs/records";
import { copyOf } from "../jobs/snooze";
import { err, ok, type Result } from "../result";
import type { TranscriptEntry } from "../schemas/chats";
import { jobButtons, messageButtons } from "../telegram/buttons";
import { formatHeader, formatLocalDay } from "../time";
import { type Deliveries, type Delivery, originOfKey } from "./deliveries";
import type { GateAnswer, RunGate } from "./gate";
import type { ChatInfo } from "./info";
import { GIVE_UP_TEXT, MAX_TRIES, type ModelTurns } from "./model-turns";
import type { AgentStatus, RunSettler } from "./settle";
import type { GateStore, TurnState } from "./store/gate";
import type { JobStore, MessageFacts } from "./store/jobs";
import type { RunStore } from "./store/runs";
import type { TranscriptStore } from "./store/transcript";
import type { UsageStore } from "./store/usage";
import type { UserPromptStore } from "./store/user-prompts";

export type ConversationDeps = {
  jobs: JobStore;
  usage: UsageStore;
  config: () => Config;
  userPrompts: UserPromptStore;
  runs: RunStore;
  gateStore: GateStore;
  gate: RunGate;
  transcript: TranscriptStore;
  deliveries: Deliveries;
  settler: RunSettler;
  turns: ModelTurns;
  info: ChatInfo;
  env: () => Env;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

const NOT_A_MESSAGE = "The body must be a v1 prompt message: { v: 1, key, chatId, timeZone, source, text, body, firedAt, … }.";

/** The conversation a model turn starts from: at most this many earlier messages and characters (docs/agent.md). */
export const HISTORY_MAX_ENTRIES = 30;
export const HISTORY_MAX_CHARS = 8_000;

/**
 * What the built-in agent asks of `offer`: `model`, the context a model turn needs (counted against the day's
 * budget); `answer`, a reply already known (the echo agent's), delivered and settled in the same call.
 */
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

/** The one sentence a user message that never reached the run gate leaves in the chat (docs/agent.md#the-lease). */
const LOST_TEXT = "⚠️ I could not answer your message after several tries; please send it again.";

/**
 * The one sentence a dead prompt leaves in the chat (docs/agent.md): with a model, the one a turn that had its tries
 * leaves; with the echo agent (no model to reach), that the agent failed.
 */
function deadLetterText(message: PromptMessage, model: boolean): string {
  if (model) return GIVE_UP_TEXT;
  if (message.source === "user") return LOST_TEXT;
  const what = message.source === "watcher" ? "watcher" : "scheduled job";
  return `⚠️ The ${what} "${message.jobName ?? message.jobId ?? "?"}" (${message.jobId ?? "?"}) could not be handled: the agent failed after several tries.`;
}

export class Conversation {
  constructor(private readonly d: ConversationDeps) {}

  /**
   * A consumer offers a queue message: `duplicate`, `queued` (stored for the holder, or waiting for its next
   * try), or `run` with a token. A model turn starts with its prompt under the local-time header (kept for its
   * later tries); one whose consumers died in all its tries is given up here.
   */
  async offer(input: unknown, options: OfferOptions = {}): Promise<Result<OfferResult>> {
    const message = parseMessage(input);
    if (!message) return err("bad_request", NOT_A_MESSAGE);
    // A job's prompt whose run is gone (its job cancelled before the agent took it, or the chat erased) is
    // stale: nothing runs, and nothing is written but a gate freed that its turn kept while waiting.
    if (message.source !== "user" && !this.openRun(message.key)) {
      if (this.d.gateStore.gate()?.activeKey === message.key && this.d.transaction(() => this.d.gate.dropWaiting(message.key))) {
        this.d.turns.drop(message.key);
        await this.resendPending(this.d.now());
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
    await this.resendPending(now);
    if (offer.result !== "run") return ok(offer);
    const { turn, ...run } = { ...offer, timeZone: zone };
    if (options.answer) {
      const finished = this.finish(run.token, message.key, options.answer, options.model === true);
      return finished.ok ? ok({ result: "done", token: run.token, next: finished.value.next }) : finished;
    }
    if (options.model !== true) return ok(run);
    if (turn && turn.tries >= MAX_TRIES) return this.giveUp(run.token, message.key, turn.prompt, "its consumer died in each try");
    return ok({ ...run, context: this.context(message, now, turn) });
  }

  /**
   * The holder records a step of `key`'s turn (docs/agent.md#the-model-agent-agentllm): the model's answer before its tools
   * run, their results before the next model call. `conflict` when the token no longer holds the gate for it.
   */
  step(token: string, key: string, record: StepRecord): Result<null> {
    return this.d.turns.record(token, key, record)
      ? ok(null)
      : err("conflict", "This token does not hold the chat's run gate for this turn; it runs nothing more.");
  }

  /**
   * The holder's try of `key`'s turn failed for a reason that may pass (docs/agent.md): before the fifth, the turn
   * waits in the gate for its next try (`retryAt`) and the holder gets nothing more; after the fifth, the chat
   * is told in one sentence, the run fails, and the holder gets the next prompt.
   */
  retry(token: string, key: string, failure: TurnFailure): Result<{ retryAt: number | null; next: NextPrompt | null }> {
    const deferred = this.d.turns.defer(token, key, failure);
    if (deferred === null) return err("conflict", "This token does not hold the chat's run gate for this turn; offer the prompt again.");
    if ("retryAt" in deferred) return ok({ retryAt: deferred.retryAt, next: null });
    const given = this.giveUp(token, key, this.d.gateStore.gate()?.prompt ?? null, failure.detail);
    return given.ok ? ok({ retryAt: null, next: given.value.next }) : given;
  }

  /** The turn had its tries: one sentence to the chat, the run failed, the next prompt for the holder. */
  private giveUp(token: string, key: string, prompt: string | null, why: string): Result<{ result: "done"; token: string; next: NextPrompt | null }> {
    const detail = `the model could not be reached in ${MAX_TRIES} tries: ${why}`.slice(0, 2000);
    const finished = this.finish(token, key, { markdown: GIVE_UP_TEXT, prompt, status: "failed", detail, told: true }, true);
    return finished.ok ? ok({ result: "done", token, next: finished.value.next }) : finished;
  }

  /**
   * The holder is done with `key`, in one call (docs/agent.md, issue 13: a model turn costs two calls, the offer
   * and this, and two more for each step that calls tools): the reply delivered with the prompt it saw and the
   * tools its steps called, the run settled, and the next prompt handed over (with its context for a model), or
   * null, which releases the gate.
   */
  finish(token: string, key: string, answer: TurnAnswer, model: boolean): Result<{ delivered: boolean; next: NextPrompt | null }> {
    const now = this.d.now();
    let delivered = false;
    let outcome = { status: answer.status, detail: answer.detail, told: answer.told === true };
    if (answer.markdown !== null) {
      const prompt = answer.promptBody !== undefined ? `${formatHeader(now, this.d.info.zone().zone)}\n${answer.promptBody}` : (answer.prompt ?? null);
      const delivery = this.deliver(key, answer.markdown, prompt, null, model ? this.d.turns.toolEntries(key) : []);
      // Refused for good (the chat is not allowed to use the bot): the run has failed, and nothing can tell
      // the chat; trying again would only loop.
      if (delivery.ok) delivered = delivery.value.delivered;
      else outcome = { status: "failed", detail: delivery.error.message, told: true };
    }
    const settled = this.settle(token, key, outcome.status, outcome.detail, outcome.told);
    if (!settled.ok) return settled;
    const next = this.handOver(token, model);
    const message = next.message;
    return ok({ delivered, next: message ? { message, context: model ? this.context(message, now, next.turn) : null } : null });
  }

  /**
   * A model turn's context (docs/agent.md): the conversation before the prompt, the day's budget (counted here, in
   * the chat's local day, once: a turn tried before was counted then), for a job's prompt how many follow-ups
   * it may create, and the prompt and the steps its earlier tries reached.
   */
  private context(message: PromptMessage, now: number, turn: (TurnState & { resumed: boolean }) | undefined): TurnContext {
    const zone = this.d.info.zone().zone;
    const before = Date.parse(message.firedAt);
    const history = this.d.transcript
      .conversation(Number.isFinite(before) ? before : now, HISTORY_MAX_ENTRIES, HISTORY_MAX_CHARS)
      .map((e) => ({ role: e.role === "bot" ? ("assistant" as const) : ("user" as const), text: e.text }));
    let followUps: number | null = null;
    if (message.source !== "user") {
      // The job's id is in the run's key; the run itself (open, as the offer checked) need not be read.
      const jobId = originOfKey(message.key, null).jobId;
      const job = jobId === null ? null : this.d.jobs.get(jobId);
      followUps = followUpsOf(job);
    }
    const resumed = turn?.resumed === true;
    return {
      timeZone: zone,
      history,
      budget: resumed ? "ok" : this.countTurn(zone, now),
      followUps,
      prompt: turn?.prompt ?? `${formatHeader(now, zone)}\n${message.text}`,
      steps: resumed ? this.d.turns.steps(message.key) : [],
      tries: turn?.tries ?? 0,
      ...(message.source === "user" && message.userId !== undefined ? { member: message.userId } : {}),
      ...(message.threadId !== undefined ? { threadId: message.threadId } : {}),
    };
  }

  /** Counts a model turn against `LLM_MAX_TURNS_PER_DAY`; past it, the day's one notice, then nothing. */
  private countTurn(zone: string, now: number): TurnContext["budget"] {
    const day = formatLocalDay(now, zone);
    const max = this.d.config().agent.maxTurnsPerDay;
    const used = this.d.usage.get(day, "model_turns");
    if (used.n < max) {
      this.d.usage.increment(day, "model_turns");
      return "ok";
    }
    if (used.noticed) return "over";
    this.d.usage.markNoticed(day, "model_turns");
    return "notice";
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
  private handOver(token: string, model: boolean): { message: PromptMessage | null; turn?: TurnState & { resumed: boolean } } {
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

  /**
   * The holder is done with `key`: a job's key settles its run (`delivered` or `failed`; a finished one-off is
   * deleted); a user's key only renews the lease.
   */
  settle(token: string, key: string, status: AgentStatus, detail: string | null, told = false): Result<null> {
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
    await this.resendPending(now);
    return ok(null);
  }

  /**
   * Delivers a message to the chat (docs/design/0008-layout.md): the transcript entry (and the prompt the agent saw, when
   * given) and, with a bot connected, an outbox row, in one transaction. A key seen before is a no-op.
   * `chatId` binds an object that has never seen its chat (an agent of your own delivering first).
   */
  deliver(key: string, markdown: string, prompt: string | null, chatId: string | null, tools: readonly ToolCallRecord[] = []): Result<{ delivered: boolean }> {
    if (chatId !== null) {
      const bound = this.d.info.bind(chatId);
      if (!bound.ok) return bound;
    }
    const bound = this.d.info.chatId();
    if (bound !== null && !this.d.info.allowed(bound)) {
      return err("bad_request", `Chat ${bound} is not allowed to use this bot (ALLOWED_USER_IDS); nothing was delivered.`);
    }
    const now = this.d.now();
    // A run's reply comes from a watcher when its job is one (a match runs as a prompt); a prompt job's message
    // carries what a person does with it (docs/telegram.md#scheduled-messages-and-buttons): the run's key read, then the few columns needed.
    const jobId = this.d.runs.exists(key) ? originOfKey(key, null).jobId : null;
    const job = jobId === null ? null : this.d.jobs.messageFacts(jobId);
    const origin = originOfKey(key, job?.kind ?? null);
    const threadId = this.threadOf(key);
    const topic = threadId === undefined ? {} : { threadId };
    const delivered = this.d.transaction(() => this.d.deliveries.write(key, markdown, { origin, now, prompt, tools, ...jobMessage(job, key), ...topic }));
    this.d.deliveries.flush();
    return ok({ delivered });
  }

  /**
   * The forum topic a reply under `key` goes to: a user's message's own, while the gate's holder works on it
   * (the reply comes before the settle); undefined for anything else (a job's reply goes to the job's topic).
   */
  private threadOf(key: string): number | null | undefined {
    const held = this.d.gateStore.gate();
    if (held?.activeKey !== key || held.activeMessage === null) return undefined;
    const message = parseMessage(JSON.parse(held.activeMessage));
    return message?.source === "user" ? (message.threadId ?? null) : undefined;
  }

  /** The last `limit` transcript entries, oldest first (docs/agent.md). */
  messages(chatId: string, limit: number): Result<{ chatId: string; messages: TranscriptEntry[] }> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const n = Number.isInteger(limit) && limit >= 1 && limit <= 500 ? limit : 50;
    return ok({ chatId, messages: this.d.transcript.entries(n, jobButtons) });
  }

  /** A prompt the queue gave up on: settle it failed and tell the chat in one sentence. */
  async deadLetter(input: unknown): Promise<Result<null>> {
    const message = parseMessage(input);
    if (!message) return err("bad_request", NOT_A_MESSAGE);
    const bound = this.d.info.bind(message.chatId);
    if (!bound.ok) return bound;
    const now = this.d.now();
    const run = this.d.runs.get(message.key);
    const origin = originOfKey(message.key, message.source === "watcher" ? "watcher" : null);
    this.d.transaction(() => {
      const alert = { ...origin, source: origin.jobId !== null ? ("alert" as const) : origin.source };
      const silent = origin.jobId !== null && this.d.jobs.messageFacts(origin.jobId)?.silent === true;
      const topic = message.source === "user" ? { threadId: message.threadId ?? null } : {};
      if (!this.d.deliveries.write(message.key, deadLetterText(message, this.d.config().agent.kind === "llm"), { origin: alert, now, silent, ...topic }))
        return;
      if (run) this.d.settler.agentOutcome(message.key, "failed", "the agent failed after several tries (dead-lettered)", now, true);
      this.d.gateStore.takePending(message.key);
      this.d.turns.drop(message.key);
      const held = this.d.gateStore.gate();
      // The holder is gone (the queue gave up on it): free the gate for the prompts waiting behind it.
      if (held?.activeKey === message.key) this.d.gate.release(held.token, now);
    });
    this.d.deliveries.flush();
    await this.resendPending(now);
    return ok(null);
  }

  /**
   * The alarm's part, and after any call that may free the gate: whenever the gate is free (its lease ran out,
   * its holder released it or died after delivering) while prompts wait, re-send the oldest so a consumer
   * takes over; nothing else would ever hand it out. And when the turn that keeps the gate while it waits has
   * its next try due, re-send its prompt, once: the one way a failed try is tried again (docs/agent.md).
   */
  async resendPending(now: number): Promise<boolean> {
    const json = this.d.transaction(() => {
      this.d.gate.expire(now);
      return this.d.gateStore.gate() === null ? (this.d.gateStore.oldestPending()?.message ?? null) : this.d.gate.due(now);
    });
    if (json !== null) await this.d.env().PROMPTS.send(JSON.parse(json), { contentType: "json" });
    return false;
  }

  /**
   * The alarm's part: a user's message the run gate has not seen within 2 minutes was lost on its way (a
   * crash, a lost queue message) and is sent again, at most 3 times; then the chat is told it went unanswered.
   */
  async resendLost(now: number): Promise<boolean> {
    const resend: unknown[] = [];
    let told = false;
    const deadline = leaseMs(OFFER_DEADLINE_MS, this.d.config().speedup);
    this.d.transaction(() => {
      for (const lost of this.d.userPrompts.due(now)) {
        if (this.d.deliveries.delivered(lost.key) || this.d.gate.waiting(lost.key)) {
          this.d.userPrompts.remove(lost.key);
        } else if (lost.resends < MAX_RESENDS) {
          this.d.userPrompts.resent(lost.key, now + deadline);
          resend.push(JSON.parse(lost.message));
        } else {
          this.d.userPrompts.remove(lost.key);
          const message = parseMessage(JSON.parse(lost.message));
          if (message)
            told = this.d.deliveries.write(lost.key, LOST_TEXT, { origin: originOfKey(lost.key, null), now, threadId: message.threadId ?? null }) || told;
        }
      }
    });
    if (told) this.d.deliveries.flush();
    if (resend.length === 0) return false;
    console.log(`${resend.length} user message(s) did not reach the run gate within ${leaseText(deadline)}; sending again`);
    await this.d.env().PROMPTS.sendBatch(resend.map((body) => ({ body, contentType: "json" as const })));
    return false;
  }

  /** Whether a job's run is still open (claimed or dispatched, not settled). */
  private openRun(key: string): boolean {
    return this.d.runs.isOpen(key);
  }
}

/**
 * What goes with a job's message (docs/telegram.md): a prompt job's gets Done and the snoozes (a one-off's) or Done,
 * Snooze 1 h, Skip next and Pause (a recurring job's), and keeps what a snooze copies; a watcher's keeps the
 * job's Run now, Pause and Cancel; either is silent when its job is.
 */
function jobMessage(job: MessageFacts | null, runId: string): Pick<Delivery, "buttons" | "jobCopy" | "silent"> {
  if (job === null) return {};
  if (job.kind === "watcher") return { silent: job.silent };
  return { buttons: messageButtons(job.schedule.type === "at", runId), jobCopy: copyOf(job), silent: job.silent };
}

/** Parses a queue message handed over RPC or HTTP. */
function parseMessage(input: unknown): PromptMessage | null {
  const parsed = promptMessageSchema().safeParse(input);
  return parsed.success ? parsed.data : null;
}
