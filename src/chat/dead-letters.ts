/**
 * @module Prompts the queue gave up on (docs/agent.md): the `prompts-dlq` consumer hands each to the chat's object,
 * which settles its run failed, tells the chat in one sentence, and frees the run gate when the dead prompt held
 * it, so the prompts waiting behind it are sent.
 */
import type { Config } from "../config";
import { printable } from "../contracts/ids";
import type { PromptMessage } from "../contracts/prompt-message";
import { err, ok, type Result } from "../result";
import { type Deliveries, originOfKey } from "./deliveries";
import type { RunGate } from "./gate";
import type { ChatInfo } from "./info";
import { GIVE_UP_TEXT, type ModelTurns } from "./model-turns";
import { NOT_A_MESSAGE, parseMessage } from "./prompts";
import { LOST_TEXT, type Resends } from "./resends";
import type { RunSettler } from "./settle";
import type { GateStore } from "./store/gate";
import type { JobStore } from "./store/jobs";
import type { RunStore } from "./store/runs";

export type DeadLetterDeps = {
  info: ChatInfo;
  runs: RunStore;
  jobs: JobStore;
  deliveries: Deliveries;
  settler: RunSettler;
  gate: RunGate;
  gateStore: GateStore;
  turns: Pick<ModelTurns, "drop">;
  resends: Pick<Resends, "resendPending">;
  config: () => Config;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/**
 * The one sentence a dead prompt leaves in the chat (docs/agent.md): with a model, the one a turn that had its tries
 * leaves; with the echo agent (no model to reach), that the agent failed.
 */
function deadLetterText(message: PromptMessage, model: boolean): string {
  if (model) return GIVE_UP_TEXT;
  if (message.source === "user") return LOST_TEXT;
  const what = message.source === "watcher" ? "watcher" : "scheduled job";
  return `⚠️ The ${what} "${printable(message.jobName ?? message.jobId ?? "?")}" (${message.jobId ?? "?"}) could not be handled: the agent failed after several tries.`;
}

export class DeadLetters {
  constructor(private readonly d: DeadLetterDeps) {}

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
    await this.d.resends.resendPending(now);
    return ok(null);
  }
}
