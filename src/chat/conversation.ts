/**
 * @module The chat's conversation with its agent (DESIGN §1, §7): the run gate (offer, next, settle, release),
 * `deliver`, the transcript, and the prompts the queue gave up on. A job's key settles its run through the
 * settler; a user's key only moves the gate.
 */
import { promptMessageSchema, type PromptMessage } from "../contracts/prompt-message";
import { err, ok, type Result } from "../result";
import { originOfKey, type Deliveries } from "./deliveries";
import type { GateAnswer, RunGate } from "./gate";
import type { ChatInfo } from "./info";
import type { AgentStatus, RunSettler } from "./settle";
import type { GateStore } from "./store/gate";
import type { JobStore } from "./store/jobs";
import type { RunStore } from "./store/runs";
import type { TranscriptEntry } from "../schemas/chats";
import type { TranscriptStore } from "./store/transcript";
import type { UserPromptStore } from "./store/user-prompts";
import type { UsageStore } from "./store/usage";
import type { Config } from "../config";
import type { NextPrompt, TurnAnswer, TurnContext } from "../contracts/turn";
import { formatHeader, formatLocalDay } from "../time";
import { MAX_RESENDS, OFFER_DEADLINE_MS } from "../jobs/fire";
import { followUpsOf } from "../jobs/records";
import { jobButtons } from "../telegram/buttons";

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
  info: ChatInfo;
  env: () => Env;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

const NOT_A_MESSAGE = "The body must be a v1 prompt message: { v: 1, key, chatId, timeZone, source, text, body, firedAt, … }.";

/** The conversation a model turn starts from: at most this many earlier messages and characters (DESIGN §7). */
export const HISTORY_MAX_ENTRIES = 30;
export const HISTORY_MAX_CHARS = 8_000;

/**
 * What the built-in agent asks of `offer`: `model`, the context a model turn needs (counted against the day's
 * budget); `answer`, a reply already known (the echo agent's), delivered and settled in the same call.
 */
export type OfferOptions = { model?: boolean; answer?: TurnAnswer };

/** `offer`'s answer: the gate's, with the model's context when asked, or `done` when the answer was handed in. */
export type OfferResult =
  | GateAnswer
  | { result: "run"; token: string; timeZone?: string; context?: TurnContext }
  | { result: "done"; token: string; next: NextPrompt | null };

/** The one sentence a dead prompt leaves in the chat (DESIGN §7). */
function deadLetterText(message: PromptMessage): string {
  if (message.source === "user") return "⚠️ I could not answer your message after several tries; please send it again.";
  const what = message.source === "watcher" ? "watcher" : "scheduled job";
  return `⚠️ The ${what} "${message.jobName ?? message.jobId ?? "?"}" (${message.jobId ?? "?"}) could not be handled: the agent failed after several tries.`;
}

export class Conversation {
  constructor(private readonly d: ConversationDeps) {}

  /** A consumer offers a queue message: `duplicate`, `queued` (stored for the holder), or `run` with a token. */
  async offer(input: unknown, options: OfferOptions = {}): Promise<Result<OfferResult>> {
    const message = parseMessage(input);
    if (!message) return err("bad_request", NOT_A_MESSAGE);
    // A job's prompt whose run is gone (its job cancelled before the agent took it, or the chat erased) is
    // stale: nothing runs and nothing is written.
    if (message.source !== "user" && !this.openRun(message.key)) return ok({ result: "duplicate" });
    const bound = this.d.info.bind(message.chatId);
    if (!bound.ok) return bound;
    const now = this.d.now();
    const offer = this.d.transaction(() => {
      // A user's message reached the gate: from here the gate's own lease keeps it (DESIGN §5 Leases).
      if (message.source === "user") this.d.userPrompts.remove(message.key);
      const answer = this.d.gate.offer(message, now, () => {
        // The holder delivered this prompt's reply and died before settling it: free the gate.
        const held = this.d.gateStore.gate();
        if (held) this.d.gate.release(held.token, now);
      });
      // Its reply went out but its settle did not (a crash, a failed call): the run is finished, say so.
      if (answer.result === "duplicate" && this.openRun(message.key)) this.d.settler.agentOutcome(message.key, "delivered", null, now);
      return answer.result === "run" ? { ...answer, timeZone: this.d.info.zone().zone } : answer;
    });
    await this.resendPending(now);
    if (offer.result !== "run") return ok(offer);
    if (options.answer) {
      const finished = this.finish(offer.token, message.key, options.answer, options.model === true);
      return finished.ok ? ok({ result: "done", token: offer.token, next: finished.value.next }) : finished;
    }
    return ok(options.model ? { ...offer, context: this.context(message, now) } : offer);
  }

  /**
   * The holder is done with `key`, in one call (DESIGN §7, issue 13: a model turn costs two calls, the offer
   * and this): the reply delivered with the prompt it saw and the tools it called, the run settled, and the
   * next prompt handed over (with its context for a model), or null, which releases the gate.
   */
  finish(token: string, key: string, answer: TurnAnswer, model: boolean): Result<{ delivered: boolean; next: NextPrompt | null }> {
    const now = this.d.now();
    let delivered = false;
    let outcome = { status: answer.status, detail: answer.detail, told: answer.told === true };
    if (answer.markdown !== null) {
      const prompt = answer.promptBody !== undefined ? `${formatHeader(now, this.d.info.zone().zone)}\n${answer.promptBody}` : (answer.prompt ?? null);
      const delivery = this.deliver(key, answer.markdown, prompt, null, answer.tools);
      // Refused for good (the chat is not allowed to use the bot): the run has failed, and nothing can tell
      // the chat; trying again would only loop.
      if (delivery.ok) delivered = delivery.value.delivered;
      else outcome = { status: "failed", detail: delivery.error.message, told: true };
    }
    const settled = this.settle(token, key, outcome.status, outcome.detail, outcome.told);
    if (!settled.ok) return settled;
    const next = this.next(token);
    if (!next.ok) return next;
    const message = next.value.message;
    return ok({ delivered, next: message ? { message, context: model ? this.context(message, now) : null } : null });
  }

  /**
   * A model turn's context (DESIGN §7): the conversation before the prompt, the day's budget (counted here, in
   * the chat's local day), and for a job's prompt how many follow-ups it may still create.
   */
  private context(message: PromptMessage, now: number): TurnContext {
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
    return { timeZone: zone, history, budget: this.countTurn(zone, now), followUps };
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
    const now = this.d.now();
    const message = this.d.transaction(() => {
      for (;;) {
        const json = this.d.gate.next(token, now);
        if (json === null) return null;
        const next = parseMessage(JSON.parse(json));
        // A job prompt whose run went while it waited (its job was cancelled) is stale, as in `offer`.
        if (next && (next.source === "user" || this.openRun(next.key))) return { ...next, timeZone: this.d.info.zone().zone };
        this.d.gate.settle(token, next?.key ?? "", now);
      }
    });
    return ok({ message });
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
      if (!this.d.runs.exists(key)) return true; // a user's key only releases
      if (!held && !this.d.deliveries.delivered(key)) return false;
      this.d.settler.agentOutcome(key, status, detail, now, told);
      return true;
    });
    return settled ? ok(null) : err("conflict", "This token does not hold the chat's run gate; offer the prompt again.");
  }

  /** The holder gives up after a transient error: its prompt goes back first in line and the gate is free. */
  async release(token: string): Promise<Result<null>> {
    if (typeof token !== "string") return err("bad_request", `"token" must be the string that "offer" returned.`);
    const now = this.d.now();
    this.d.transaction(() => this.d.gate.release(token, now));
    await this.resendPending(now);
    return ok(null);
  }

  /**
   * Delivers a message to the chat (DESIGN §1): the transcript entry (and the prompt the agent saw, when
   * given) and, with a bot connected, an outbox row, in one transaction. A key seen before is a no-op.
   * `chatId` binds an object that has never seen its chat (an agent of your own delivering first).
   */
  deliver(key: string, markdown: string, prompt: string | null, chatId: string | null, tools: TurnAnswer["tools"] = []): Result<{ delivered: boolean }> {
    if (chatId !== null) {
      const bound = this.d.info.bind(chatId);
      if (!bound.ok) return bound;
    }
    const bound = this.d.info.chatId();
    if (bound !== null && !this.d.info.allowed(bound)) {
      return err("bad_request", `Chat ${bound} is not allowed to use this bot (ALLOWED_USER_IDS); nothing was delivered.`);
    }
    const now = this.d.now();
    // A run's reply comes from a watcher when its job is one (a match runs as a prompt): two key reads, no parse.
    const jobId = this.d.runs.exists(key) ? originOfKey(key, null).jobId : null;
    const origin = originOfKey(key, jobId === null ? null : this.d.jobs.kindOf(jobId));
    const threadId = this.threadOf(key);
    const delivered = this.d.transaction(() => this.d.deliveries.write(key, markdown, { origin, now, prompt, tools, ...(threadId === undefined ? {} : { threadId }) }));
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

  /** The last `limit` transcript entries, oldest first (DESIGN §7). */
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
      const topic = message.source === "user" ? { threadId: message.threadId ?? null } : {};
      if (!this.d.deliveries.write(message.key, deadLetterText(message), { origin: alert, now, ...topic })) return;
      if (run) this.d.settler.agentOutcome(message.key, "failed", "the agent failed after several tries (dead-lettered)", now, true);
      this.d.gateStore.takePending(message.key);
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
   * takes over; nothing else would ever hand it out.
   */
  async resendPending(now: number): Promise<boolean> {
    const json = this.d.transaction(() => {
      this.d.gate.expire(now);
      return this.d.gateStore.gate() === null ? (this.d.gateStore.oldestPending()?.message ?? null) : null;
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
    this.d.transaction(() => {
      for (const lost of this.d.userPrompts.due(now)) {
        if (this.d.deliveries.delivered(lost.key) || this.d.gate.waiting(lost.key)) {
          this.d.userPrompts.remove(lost.key);
        } else if (lost.resends < MAX_RESENDS) {
          this.d.userPrompts.resent(lost.key, now + OFFER_DEADLINE_MS);
          resend.push(JSON.parse(lost.message));
        } else {
          this.d.userPrompts.remove(lost.key);
          const message = parseMessage(JSON.parse(lost.message));
          if (message) told = this.d.deliveries.write(lost.key, deadLetterText(message), { origin: originOfKey(lost.key, null), now, threadId: message.threadId ?? null }) || told;
        }
      }
    });
    if (told) this.d.deliveries.flush();
    if (resend.length === 0) return false;
    console.log(`${resend.length} user message(s) did not reach the run gate within ${OFFER_DEADLINE_MS / 60_000} min; sending again`);
    await this.d.env().PROMPTS.sendBatch(resend.map((body) => ({ body, contentType: "json" as const })));
    return false;
  }

  /** Whether a job's run is still open (claimed or dispatched, not settled). */
  private openRun(key: string): boolean {
    return this.d.runs.isOpen(key);
  }
}

/** Parses a queue message handed over RPC or HTTP. */
function parseMessage(input: unknown): PromptMessage | null {
  const parsed = promptMessageSchema().safeParse(input);
  return parsed.success ? parsed.data : null;
}
