/**
 * @module The chat's firing engine (DESIGN §5): the alarm, claims and dispatch, leases, settling runs and the
 * one alarm kept at the soonest pending time. The Durable Object class is the RPC shell around it; this is
 * where the chat's state changes over time without a caller.
 */
import { loadConfig, type Config } from "../config";
import { decideFire, endsOneOff, PROMPT_LEASE_MS } from "../jobs/fire";
import { decodeWatcherCall } from "../jobs/watcher";
import { parseZone } from "../time";
import type { ConversationStore } from "./conversation-store";
import { dispatchPrompts, retryDelay } from "./dispatch";
import { sendOutbox } from "./outbox";
import type { RunGate } from "./gate";
import type { ChatStore, RunRecord } from "./store";
import { Watchers } from "./watchers";

/** After an error inside `alarm()`, try again this soon. */
const ERROR_BACKOFF_MS = 30_000;

export type SettleStatus = "delivered" | "failed" | "silent" | "matched";

export class ChatEngine {
  /** Runs whose send is in flight in this isolate, so a concurrent entry does not send them twice. */
  private readonly sending = new Set<string>();
  readonly watchers: Watchers;

  constructor(
    readonly ctx: DurableObjectState,
    /** Read on each use, not kept: the object's `env` is the one source (tests wrap its queue binding). */
    private readonly currentEnv: () => Env,
    readonly store: ChatStore,
    readonly talk: ConversationStore,
    readonly gate: RunGate,
  ) {
    this.watchers = new Watchers(this);
  }

  get env(): Env {
    return this.currentEnv();
  }

  get config(): Config {
    return loadConfig(this.env).config;
  }

  /** The chat's zone: its own, else DEFAULT_TIMEZONE. */
  zone(): { zone: string; isDefault: boolean } {
    const own = this.store.setting("time_zone");
    if (own !== null && parseZone(own).ok) return { zone: own, isDefault: false };
    return { zone: this.config.defaultTimeZone, isDefault: true };
  }

  deliverable(chatId: string): boolean {
    const t = this.config.telegram;
    if (t.mode === "off") return true;
    if (this.store.setting("blocked") === "1") return false;
    return t.allowedUserIds.includes(chatId);
  }

  settle(runId: string, status: SettleStatus, detail: string | null, now: number): boolean {
    const run = this.store.run(runId);
    if (!run || run.state === "settled") return false;
    this.ctx.storage.transactionSync(() => {
      const row = this.store.jobRow(run.jobId);
      const job = row?.ok ? row.job : null;
      // A watcher's run reaches the agent only when its script matched: that is what its result says.
      const matched = job?.kind === "watcher" && status === "delivered";
      const result = matched ? "matched" : status;
      this.store.settleRun(runId, { status: result, finishedAt: now, detail, ...(matched ? { exitCode: 0 } : {}) });
      if (!job) return;
      if (endsOneOff(job, run)) {
        this.store.deleteJob(job.id);
        return;
      }
      const at = new Date(now).toISOString();
      this.store.markSettled(job.id, runId, matched ? { status: result, exitCode: 0, timedOut: false, at } : { status: result, at });
      this.store.pruneRuns(job.id);
    });
    return true;
  }

  /**
   * Whenever the gate is free (its lease ran out, its holder released it or died after delivering) while
   * prompts wait, re-send the oldest so a consumer takes over; nothing else would ever hand it out.
   */
  async resendPending(now: number): Promise<void> {
    const json = this.ctx.storage.transactionSync(() => {
      this.gate.expire(now);
      return this.talk.gate() === null ? (this.talk.oldestPending()?.message ?? null) : null;
    });
    if (json !== null) await this.env.PROMPTS.send(JSON.parse(json), { contentType: "json" });
  }

  /**
   * Hands the outbox to Telegram (DESIGN §6, a later part). In transcript mode there is no bot: the
   * transcript entry written with the row is the delivery, so the rows are done at once.
   */
  /**
   * The D1 directory's blocked flag, so /healthz can count blocked chats across chats (the rest of the
   * directory is fed by a later part). A failure here is logged; the object's own flag is the truth.
   */
  async markBlockedInDirectory(chatId: string, blocked: boolean, now: number): Promise<void> {
    try {
      await this.env.DB.prepare(
        "INSERT INTO chats (chat_id, blocked, updated_at) VALUES (?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET blocked = excluded.blocked, updated_at = excluded.updated_at",
      )
        .bind(chatId, blocked ? 1 : 0, now)
        .run();
    } catch (error) {
      console.error(`could not record chat ${chatId} as ${blocked ? "blocked" : "unblocked"} in the directory`, error);
    }
  }

  /** Whether outbox rows can go anywhere: a bot with a usable token, a chat id, and the chat not blocked. */
  canSend(): boolean {
    const t = this.config.telegram;
    return t.mode !== "off" && t.botToken !== null && this.store.setting("chat_id") !== null && this.store.setting("blocked") === null;
  }

  /**
   * Drops rows that cannot be sent: in transcript mode the transcript entry is the delivery; a blocked chat
   * costs nothing until the user writes again; a chat with no bound id or no usable token could only loop.
   */
  flushOutbox(): void {
    if (!this.canSend()) this.talk.clearOutbox();
  }

  /** Sends the due outbox rows to the Bot API (the alarm's part; `syncAlarm` arms it when rows are due). */
  async sendTelegram(now: number): Promise<void> {
    const t = this.config.telegram;
    const chatId = this.store.setting("chat_id");
    if (!this.canSend() || t.botToken === null || chatId === null) {
      this.flushOutbox();
      return;
    }
    await sendOutbox(this.talk, { base: t.apiBase, token: t.botToken }, chatId, now, async () => {
      this.store.setSetting("blocked", "1");
      console.log(`chat ${chatId} is blocked: Telegram says it cannot be reached; it stays so until the user writes`);
      await this.markBlockedInDirectory(chatId, true, now);
    });
  }

  // ── Firing ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * Fires every due job, dispatches every claimed run, expires leases, and always re-arms. Never throws:
   * each job is handled in its own try/catch, and the `finally` re-arms (after an error, with a backoff).
   */
  async alarm(): Promise<void> {
    const now = Date.now();
    let failed = false;
    try {
      failed = await this.fire(now);
    } catch (error) {
      failed = true;
      console.error("alarm failed", error);
    } finally {
      try {
        const soonest = this.soonest();
        const retry = failed ? now + ERROR_BACKOFF_MS : null;
        const next = soonest === null ? retry : retry === null ? soonest : Math.min(soonest, retry);
        if (next !== null) await this.ctx.storage.setAlarm(next);
      } catch (error) {
        console.error("alarm could not re-arm", error);
      }
    }
  }

  /** Returns true when something failed and the alarm should come back soon. */
  async fire(now: number): Promise<boolean> {
    const chatId = this.store.setting("chat_id");
    let failed = false;
    if (chatId !== null) {
      const zone = this.zone().zone;
      const deliverable = this.deliverable(chatId);
      const defaultTimeout = this.config.defaultScriptTimeout;
      for (const row of this.store.dueJobRows(now)) {
        try {
          if (!row.ok) {
            console.error(`job ${row.id} quarantined: ${row.reason}`);
            this.store.quarantineJob(row.id, row.reason, now);
            continue;
          }
          this.apply(decideFire(row.job, { chatId, zone, now, deliverable, defaultTimeout }));
        } catch (error) {
          failed = true;
          console.error(`job ${row.ok ? row.job.id : row.id} could not fire`, error);
        }
      }
    }
    failed = (await this.dispatch(now)) || failed;
    this.expireLeases(now);
    try {
      await this.resendPending(now);
    } catch (error) {
      failed = true;
      console.error("could not re-send a pending prompt", error);
    }
    try {
      await this.sendTelegram(now);
    } catch (error) {
      failed = true;
      console.error("could not send the outbox", error);
    }
    return failed;
  }

  /** Writes one firing decision in one transaction (the claim is written before anything is sent). */
  apply(decision: ReturnType<typeof decideFire>): void {
    this.ctx.storage.transactionSync(() => {
      switch (decision.action) {
        case "claim":
          this.store.insertRun(decision.run);
          this.store.markClaimed(decision.job);
          if (decision.missed > 0) {
            console.log(`job ${decision.job.id}: ${decision.missed} missed occurrence(s) dropped (cron does not catch up)`);
          }
          break;
        case "skip":
          this.store.insertRun(decision.run);
          this.store.saveJob(decision.job);
          this.store.pruneRuns(decision.job.id);
          break;
        case "hold":
          this.store.saveJob(decision.job);
          break;
      }
    });
  }

  /**
   * Sends every claimed run not already being sent: prompts to the queue in batches, watchers' calls to the
   * runner. True when a send failed and must be tried again.
   */
  async dispatch(now: number): Promise<boolean> {
    const claimed = this.store.claimedRuns(now).filter((r) => !this.sending.has(r.runId));
    if (claimed.length === 0) return false;
    for (const r of claimed) this.sending.add(r.runId);
    const watcherRuns = claimed.filter((r) => decodeWatcherCall(r.message) !== null);
    try {
      const prompts = watcherRuns.length === 0 ? claimed : claimed.filter((r) => !watcherRuns.includes(r));
      const [promptsFailed, watchersFailed] = await Promise.all([this.dispatchPrompts(prompts, now), this.watchers.start(watcherRuns, now)]);
      return promptsFailed || watchersFailed;
    } finally {
      for (const r of claimed) this.sending.delete(r.runId);
      // A script that matched while its start was still being acknowledged became a prompt that the
      // outcome's own dispatch had to skip (the run was being sent then): send it now.
      if (watcherRuns.length > 0) {
        const started = new Set(watcherRuns.map((r) => r.runId));
        if (this.store.claimedRuns(now).some((r) => started.has(r.runId) && decodeWatcherCall(r.message) === null)) await this.dispatch(now);
      }
    }
  }

  private async dispatchPrompts(claimed: RunRecord[], now: number): Promise<boolean> {
    if (claimed.length === 0) return false;
    const outcome = await dispatchPrompts(this.env.PROMPTS, claimed);
    if (outcome.sent.length > 0) this.store.markDispatched(outcome.sent, Date.now(), Date.now() + PROMPT_LEASE_MS);
    if (outcome.failed.length > 0) {
      const attempts = Math.max(...outcome.failed.map((id) => claimed.find((r) => r.runId === id)?.attempts ?? 0));
      this.store.deferClaimed(outcome.failed, now + retryDelay(attempts, 300_000));
      console.error(`sendBatch failed for ${outcome.failed.length} run(s): ${outcome.error}`);
      return true;
    }
    return false;
  }

  /**
   * Runs whose lease ran out: a watcher's with no outcome from the runner is "timed out"; a dispatched
   * prompt that no agent settled within 10 minutes fails, unless it is still waiting in the run gate.
   */
  expireLeases(now: number): void {
    for (const run of this.store.expiredDispatched(now)) {
      if (decodeWatcherCall(run.message) !== null) this.watchers.expire(run, now);
      // A prompt still waiting in the run gate is not lost: it gets a new lease.
      else if (this.gate.waiting(run.runId)) this.store.renewLease(run.runId, now + PROMPT_LEASE_MS);
      else this.settle(run.runId, "failed", "no agent settled it within 10 min", now);
    }
  }

  /** The soonest of: a due job, an open run's lease or retry, the run gate's lease. */
  soonest(): number | null {
    const outbox = this.canSend() ? this.talk.outboxDeadline() : null;
    const times = [this.store.soonest(), this.talk.gateDeadline(), outbox].filter((t): t is number => t !== null);
    return times.length ? Math.min(...times) : null;
  }

  /**
   * Self-healing: work pending and no alarm set (or set at another time) → arm it. Outside `alarm()` this
   * is the only place `setAlarm` is called, and only when the soonest time changed.
   */
  async syncAlarm(): Promise<void> {
    const soonest = this.soonest();
    const current = await this.ctx.storage.getAlarm();
    if (soonest === null) {
      if (current !== null) await this.ctx.storage.deleteAlarm();
      return;
    }
    if (current !== soonest) await this.ctx.storage.setAlarm(soonest);
  }
}
