/**
 * @module Whose turn a run gate token stands for (docs/api.md#tools-for-agents `X-Cuckoo-Turn`): an agent of its own sends the
 * token the gate gave it with the tool calls it makes while it handles a prompt, and the chat's object answers
 * with that turn's rights: a user's (every tool), a group member's (what they may change is asked when a tool
 * would change something), or a job's or a watcher's (what each tool's definition allows it, and the follow-ups
 * it may still create), with the forum topic of the prompt. A token that does not hold the gate now, or holds
 * no prompt, is refused. The follow-up such a turn creates is recorded in the creating transaction, so that the
 * turn's calls, however many and however concurrent, create one.
 */
import { promptMessageSchema } from "../contracts/prompt-message";
import { followUpsOf } from "../jobs/records";
import { err, ok, type Result } from "../result";
import { NO_MORE_FOLLOW_UPS, NOT_THE_TURN, type TurnPolicy } from "../schemas/tools";
import { originOfKey } from "./deliveries";
import type { ChatInfo } from "./info";
import type { GateStore } from "./store/gate";
import type { JobStore } from "./store/jobs";
import type { SettingsStore } from "./store/settings";

export type TurnDeps = { gate: GateStore; jobs: JobStore; settings: SettingsStore; info: ChatInfo; now: () => number };

export class TurnRights {
  constructor(private readonly d: TurnDeps) {}

  /** The rights of the turn `token` holds, or the sentence when it holds none. */
  rights(chatId: string, token: string): Result<TurnPolicy> {
    if (typeof token !== "string") return err("bad_request", NOT_THE_TURN);
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const key = this.heldKey(token);
    if (key === null) return err("bad_request", NOT_THE_TURN);
    const { userId, threadId } = this.heldPrompt();
    const topic = threadId === undefined ? {} : { threadId };
    const left = this.followUpsLeft(key);
    if (left !== null) return ok({ kind: "job", followUps: left, token, ...topic });
    return ok(userId === undefined ? { kind: "user", ...topic } : { kind: "member", userId, ...topic });
  }

  /** Who wrote the prompt the gate's holder works on (a group's member) and the topic it came from. */
  private heldPrompt(): { userId?: string; threadId?: number } {
    const json = this.d.gate.gate()?.activeMessage;
    if (typeof json !== "string") return {};
    let message: ReturnType<ReturnType<typeof promptMessageSchema>["safeParse"]>;
    try {
      message = promptMessageSchema().safeParse(JSON.parse(json));
    } catch {
      return {};
    }
    if (!message.success) return {};
    return {
      ...(message.data.userId !== undefined ? { userId: message.data.userId } : {}),
      ...(message.data.threadId !== undefined ? { threadId: message.data.threadId } : {}),
    };
  }

  /**
   * Why the turn of `token` may not create a follow-up now (it holds no turn, a user's turn makes none, or it
   * made its one), or null. Asked in the create itself, after its last wait.
   */
  followUpRefusal(token: string): string | null {
    const key = this.heldKey(token);
    if (key === null) return NOT_THE_TURN;
    return (this.followUpsLeft(key) ?? 0) > 0 ? null : NO_MORE_FOLLOW_UPS;
  }

  /** Records that the turn of `token` made its follow-up (inside the transaction that creates it). */
  spendFollowUp(token: string): void {
    const key = this.heldKey(token);
    // One turn holds the gate at a time, and a turn makes at most one follow-up: the last one's key is enough.
    if (key !== null) this.d.settings.set("follow_up_of", key);
  }

  /**
   * The prompt `token` holds the gate for, or null: another holder's token, a lease run out, no prompt, or the
   * empty token, which is a turn's own while it waits for its next try (no consumer holds it then).
   */
  private heldKey(token: string): string | null {
    const gate = this.d.gate.gate();
    if (token === "" || gate === null || gate.token !== token || gate.leaseUntil <= this.d.now()) return null;
    return gate.activeKey;
  }

  /** A job's or watcher's run (its key names the job): the follow-ups it may still create; null for a user's. */
  private followUpsLeft(key: string): number | null {
    const jobId = originOfKey(key, null).jobId;
    if (jobId === null) return null;
    const made = this.d.settings.get("follow_up_of") === key ? 1 : 0;
    return Math.max(0, followUpsOf(this.d.jobs.get(jobId)) - made);
  }
}
