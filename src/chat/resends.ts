/**
 * @module Prompts sent to the queue again (docs/agent.md#the-lease), the alarm's two parts for what nothing else
 * would hand out: the run gate's next prompt once the gate is free (its lease ran out, its holder released it or
 * died after delivering) or its waiting turn's next try has come; and a user's message that never reached the
 * gate, sent again at most 3 times before the chat is told it went unanswered.
 */
import { leaseText } from "../config";
import { MAX_RESENDS } from "../jobs/fire";
import { type Deliveries, originOfKey } from "./deliveries";
import type { RunGate } from "./gate";
import { parseMessage } from "./prompts";
import type { GateStore } from "./store/gate";
import type { UserPromptStore } from "./store/user-prompts";

/** The one sentence a user message that never reached the run gate leaves in the chat (docs/agent.md#the-lease). */
export const LOST_TEXT = "⚠️ I could not answer your message after several tries; please send it again.";

export type ResendDeps = {
  gate: RunGate;
  gateStore: GateStore;
  userPrompts: UserPromptStore;
  deliveries: Deliveries;
  env: () => Env;
  /** The 2 minutes a user's message has to reach the gate (shortened by a local test's speedup). */
  offerDeadlineMs: () => number;
  transaction: <T>(work: () => T) => T;
};

export class Resends {
  constructor(private readonly d: ResendDeps) {}

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
    const deadline = this.d.offerDeadlineMs();
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
}
