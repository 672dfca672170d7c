/**
 * @module Firing (docs/api.md#how-a-job-fires): what the alarm does with the chat's jobs. Due jobs are decided by the pure core
 * (`decideFire`) and their runs claimed in one transaction before anything is sent; then every claimed run is
 * dispatched (prompts to the queue in batches, watchers' calls to the runner), and runs whose lease ran out
 * are sent again, renewed or failed. A watcher's outcome enters here too, since a match is a prompt to send.
 */

import { backoffMs } from "../backoff";
import { type LoadedConfig, leaseMs, leaseText } from "../config";
import { runIdOf } from "../contracts/run-id";
import { chatRunId, runnerOutcome } from "../contracts/runner";
import {
  decideFire,
  type FireContext,
  type FireDecision,
  MAX_RESENDS,
  type MemoryLookup,
  manualRun,
  missedRun,
  OFFER_DEADLINE_MS,
  PROMPT_LEASE_MS,
  type Skipped,
  skippedByHand,
  skippedRun,
} from "../jobs/fire";
import { MISSED_DETAIL } from "../jobs/missed";
import type { JobRecord, RunRecord } from "../jobs/records";
import { ok, type Result } from "../result";
import { parseArgs } from "../sentence";
import { loadedTexts } from "../texts";
import type { Deliveries } from "./deliveries";
import { type Outgoing, sendPrompts } from "./dispatch";
import type { RunGate } from "./gate";
import type { ChatInfo } from "./info";
import { missedNotice, noteMissed } from "./missed-notice";
import type { RunSettler } from "./settle";
import type { JobStore, ParsedJobRow } from "./store/jobs";
import type { MemoryStore } from "./store/memory";
import type { RunStore } from "./store/runs";
import type { Watchers } from "./watchers";

/** Waits before sending a prompt again after a failed `sendBatch`: 5 s, 10 s, 20 s … at most 5 minutes. */
const SEND_BACKOFF = { baseMs: 5_000, maxMs: 300_000 };

export type FiringDeps = {
  jobs: JobStore;
  runs: RunStore;
  info: ChatInfo;
  gate: RunGate;
  /** Whether a key's reply was delivered already. */
  delivered: (key: string) => boolean;
  watchers: Watchers;
  settler: RunSettler;
  /** The memory records a prompt refers to, read at claim time (docs/api.md#tools-for-agents). */
  memory: MemoryStore;
  deliveries: Deliveries;
  env: () => Env;
  config: () => LoadedConfig;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

export class Firing {
  /** Runs whose send is in flight in this isolate, so a concurrent entry does not send them twice. */
  private readonly sending = new Set<string>();

  constructor(private readonly d: FiringDeps) {}

  /**
   * The alarm's part: fire what is due, expire leases (a lost prompt is claimed again), then dispatch every
   * claimed run. True when something failed.
   */
  async tick(now: number): Promise<boolean> {
    // Nothing awaits before the claims: they are written in the alarm's own synchronous run, where a CPU
    // profile finds them too.
    const { failed, claimed } = this.claimDue(now, this.d.jobs.due(now));
    this.expireLeases(now);
    const sendFailed = await this.dispatch(now, new Map(claimed.map((run) => [run.runId, run])));
    return failed || sendFailed;
  }

  private context(chatId: string, now: number): FireContext {
    return {
      chatId,
      zone: this.d.info.zone().zone,
      now,
      deliverable: this.d.info.deliverable(chatId),
      defaultTimeout: this.d.config().config.defaultScriptTimeout,
      speedup: this.d.config().config.speedup,
      language: this.d.info.language(),
    };
  }

  /** The current content of the memory records a prompt job refers to, read now (a fire never uses a snapshot). */
  private memoryOf(job: JobRecord): MemoryLookup {
    return job.kind === "prompt" && job.memoryRefs.length > 0 ? this.d.memory.some(job.memoryRefs) : new Map();
  }

  /**
   * Claims a run for every due job; a row that does not parse is quarantined, and one job that cannot be
   * decided does not stop the others. The claims are written together (one transaction, the runs a few to a
   * statement: every statement costs the alarm tens of microseconds); should that write fail, each decision is
   * written on its own, so that one bad write does not hold back the rest. Returns whether something failed,
   * and the runs it claimed, as written.
   */
  claimDue(now: number, due: readonly ParsedJobRow[] = this.d.jobs.due(now)): { failed: boolean; claimed: RunRecord[] } {
    const chatId = this.d.info.chatId();
    if (chatId === null) return { failed: false, claimed: [] };
    const ctx = this.context(chatId, now);
    let failed = false;
    const decided: [JobRecord, FireDecision][] = [];
    for (const row of due) {
      try {
        if (!row.ok) {
          console.error(`job ${row.id} quarantined: ${row.reason}`);
          this.d.jobs.quarantine(row.id, row.reason, now);
          continue;
        }
        decided.push([row.job, decideFire(row.job, ctx, this.memoryOf(row.job))]);
      } catch (error) {
        failed = true;
        console.error(`job ${row.ok ? row.job.id : row.id} could not fire`, error);
      }
    }
    const decisions = this.pastSkips(decided, ctx);
    let single = decisions;
    // Claims with missed occurrences to record or ask about are written one by one, below.
    const plain = (d: FireDecision): d is Extract<FireDecision, { action: "claim" }> => d.action === "claim" && !d.skipped && !d.ask;
    const claims = decisions.filter(plain);
    const claimed: RunRecord[] = [];
    if (claims.length > 1) {
      try {
        this.d.transaction(() => {
          this.d.runs.insertMany(claims.map((c) => c.run));
          this.d.jobs.markClaimedMany(claims.map((c) => c.job));
        });
        claims.forEach(noteMissed);
        claimed.push(...claims.map((c) => c.run));
        single = decisions.filter((d) => !plain(d));
      } catch {
        // Nothing of the batch was written; the decisions one by one below say which one fails, and why.
      }
    }
    for (const decision of single) {
      try {
        this.apply(decision, now);
        if (decision.action === "claim") claimed.push(decision.run);
      } catch (error) {
        failed = true;
        console.error(`job ${decision.job.id} could not fire`, error);
      }
    }
    return { failed, claimed };
  }

  /**
   * The decisions whose job's next run would be an occurrence skipped by hand, decided again past it. A zone change
   * or an edit can leave a skip after a job's next run (a zone to the west brings today's run back before the day
   * skipped); one statement per 50 jobs asks whether any next run is a skip, and it seldom is.
   */
  private pastSkips(decided: readonly [JobRecord, FireDecision][], ctx: FireContext): FireDecision[] {
    const nextOf = (d: FireDecision): string | null =>
      d.action !== "end" && d.job.schedule.type !== "at" && d.job.nextRunAt !== null ? runIdOf(d.job.id, d.job.nextRunAt) : null;
    const next = decided.map(([, d]) => nextOf(d)).filter((id): id is string => id !== null);
    const skips = new Set(
      next.length === 0
        ? []
        : this.d.runs
            .skippedAmong(next)
            .filter(skippedByHand)
            .map((run) => run.runId),
    );
    return decided.map(([job, d]) => {
      const id = nextOf(d);
      return id !== null && skips.has(id) ? decideFire(job, ctx, this.memoryOf(job), this.skipped(job.id, ctx.now)) : d;
    });
  }

  /** A job's occurrences skipped by hand that have not come yet (its history holds them), by due instant. */
  skipped(jobId: string, now: number): Skipped {
    return new Set(
      this.d.runs
        .skippedAfter(now, jobId)
        .filter(skippedByHand)
        .map((run) => run.dueAt),
    );
  }

  /**
   * Run now (docs/api.md#how-a-job-fires): a manual run claimed (for the caller to dispatch) or, when a memory record it refers
   * to is gone, failed at once with the sentence to the chat. Null when a run of this instant exists already.
   */
  claimManual(job: JobRecord, chatId: string, now: number): RunRecord | null {
    const decision = manualRun(job, this.context(chatId, now), this.memoryOf(job));
    if (this.d.runs.exists(decision.run.runId)) return null;
    this.apply(decision, now);
    return decision.run;
  }

  /**
   * Run now under a message about missed runs: the latest, `last`, claimed late (for the caller to dispatch), or
   * failed at once when a memory record it refers to is gone. Null when that run exists already (it was answered).
   */
  claimMissed(job: JobRecord, chatId: string, last: number, count: number, now: number): RunRecord | null {
    const decision = missedRun(job, this.context(chatId, now), last, count, this.memoryOf(job));
    if (this.d.runs.exists(decision.run.runId)) return null;
    this.apply(decision, now);
    return decision.run;
  }

  /** Skip under a message about missed runs: each recorded skipped (`missed`); a one-off, paused while asked, is deleted. */
  skipMissed(job: JobRecord, dues: readonly number[], now: number): void {
    this.d.transaction(() => {
      if (job.schedule.type === "at") {
        this.d.jobs.delete(job.id);
        this.d.runs.deleteOf(job.id);
        return;
      }
      this.recordSkipped(
        job.id,
        dues.map((t) => skippedRun(job, t, now, MISSED_DETAIL)),
      );
    });
  }

  /** Occurrences recorded skipped, each once (one that has a run already keeps it), the history pruned after. */
  private recordSkipped(jobId: string, skipped: readonly RunRecord[]): void {
    if (skipped.length === 0) return;
    for (const run of skipped) if (!this.d.runs.exists(run.runId)) this.d.runs.insert(run);
    this.d.runs.prune(jobId);
  }

  /**
   * Writes one decision of the firing core (`jobs/fire.ts`) in one transaction: the alarm's, run now's, a skip by
   * hand's or a zone change's. The claim is written before anything is sent.
   */
  apply(decision: FireDecision, now: number): void {
    this.d.transaction(() => {
      switch (decision.action) {
        case "claim":
          this.d.runs.insert(decision.run);
          this.d.jobs.markClaimed(decision.job);
          if (decision.skipped || decision.ask) this.missed(decision, now);
          break;
        case "missed":
          if (decision.drop) {
            this.d.jobs.delete(decision.job.id);
            this.d.runs.deleteOf(decision.job.id);
          } else this.d.jobs.save(decision.job);
          this.missed(decision, now);
          break;
        case "skip":
          // An occurrence already claimed (its time came while a skip by hand was asked) is a run of its own: only the job moves.
          if (!this.d.runs.exists(decision.run.runId)) this.d.runs.insert(decision.run);
          this.d.jobs.save(decision.job);
          this.d.runs.prune(decision.job.id);
          break;
        case "hold":
          this.d.jobs.save(decision.job);
          break;
        case "move":
          this.d.jobs.save(decision.job);
          for (const { was, run } of decision.skips) {
            this.d.runs.deleteSettled(was);
            if (!this.d.runs.exists(run.runId)) this.d.runs.insert(run);
          }
          break;
        case "end":
          this.d.jobs.delete(decision.job.id);
          this.d.runs.deleteOf(decision.job.id);
          break;
        case "fail":
          if (decision.end === "delete") {
            // A recurring job's last run: the job goes with its runs, as after any last run (RunSettler.finish).
            this.d.jobs.delete(decision.job.id);
            this.d.runs.deleteOf(decision.job.id);
          } else {
            this.d.runs.insert(decision.run);
            this.d.jobs.save(decision.job);
            this.d.runs.prune(decision.job.id);
          }
          this.d.deliveries.write(decision.run.runId, decision.alert, {
            origin: { source: "alert", jobId: decision.job.id, runId: decision.run.runId },
            now,
            silent: decision.job.silent,
          });
          break;
      }
    });
    if (decision.action === "claim" || decision.action === "missed") noteMissed(decision);
    if (decision.action === "fail" || decision.action === "missed" || (decision.action === "claim" && decision.ask)) this.d.deliveries.flush();
  }

  /**
   * What missed occurrences leave, inside the decision's transaction (docs/time.md#missed-runs): each recorded
   * skipped, the chat asked about them (Run now, Skip), or told that a one-off was dropped.
   */
  private missed(decision: Extract<FireDecision, { action: "claim" | "missed" }>, now: number): void {
    const { job } = decision;
    this.recordSkipped(job.id, decision.skipped ?? []);
    const notice = missedNotice(decision, this.d.info.zone().zone, now, loadedTexts(this.d.info.language()));
    if (notice === null) return;
    const runId = runIdOf(job.id, notice.dueAt);
    const origin = { source: "alert" as const, jobId: notice.drop ? null : job.id, runId: notice.drop ? null : runId };
    this.d.deliveries.write(`missed:${runId}`, notice.markdown, { origin, now, silent: job.silent, buttons: notice.buttons, threadId: job.threadId });
  }

  /**
   * Sends every claimed run not already being sent: prompts to the queue in batches, watchers' calls to the
   * runner. `known`: runs just claimed, in this synchronous run, as written. True when a send failed and must
   * be tried again.
   */
  async dispatch(now: number, known?: ReadonlyMap<string, RunRecord>): Promise<boolean> {
    const claimed = this.d.runs.claimed(now, known).filter((r) => !this.sending.has(r.runId));
    if (claimed.length === 0) return false;
    for (const r of claimed) this.sending.add(r.runId);
    const prompts: Outgoing[] = [];
    const calls: RunRecord[] = [];
    for (const run of claimed) {
      if (run.payload?.kind === "prompt") prompts.push({ runId: run.runId, message: run.payload.message });
      else calls.push(run);
    }
    try {
      const [promptsFailed, watchersFailed] = await Promise.all([this.sendPrompts(prompts, claimed, now), this.d.watchers.start(calls, now)]);
      return promptsFailed || watchersFailed;
    } finally {
      for (const r of claimed) this.sending.delete(r.runId);
      // A script that matched while its start was still being acknowledged became a prompt that the
      // outcome's own dispatch had to skip (the run was being sent then): send it now.
      if (calls.length > 0) {
        const started = new Set(calls.map((r) => r.runId));
        if (this.d.runs.claimed(now).some((r) => started.has(r.runId) && r.kind === "prompt")) await this.dispatch(now);
      }
    }
  }

  private async sendPrompts(prompts: Outgoing[], claimed: readonly RunRecord[], now: number): Promise<boolean> {
    if (prompts.length === 0) return false;
    const outcome = await sendPrompts(this.d.env().PROMPTS, prompts);
    if (outcome.sent.length > 0) {
      // The run gate must see each of them within 2 minutes, or it is sent again (expireLeases).
      const at = this.d.now();
      this.d.runs.markDispatched(outcome.sent, at, at + leaseMs(OFFER_DEADLINE_MS, this.d.config().config.speedup));
    }
    if (outcome.failed.length === 0) return false;
    const attempts = Math.max(...outcome.failed.map((id) => claimed.find((r) => r.runId === id)?.attempts ?? 0));
    this.d.runs.deferClaimed(outcome.failed, now + backoffMs(attempts, SEND_BACKOFF));
    console.error(`sendBatch failed for ${outcome.failed.length} run(s): ${outcome.error}`);
    return true;
  }

  /**
   * Runs whose lease ran out (docs/agent.md#the-lease): a watcher's with no outcome from the runner is "timed out".
   * A dispatched prompt still in the run gate (being handled, or waiting its turn) gets a new lease; one whose
   * reply was delivered but whose settle was lost is settled; one the gate never saw was lost on its way (a
   * crash, a lost queue message) and is sent again, at most 3 times, then it has failed.
   */
  private expireLeases(now: number): void {
    const { speedup } = this.d.config().config;
    for (const run of this.d.runs.expired(now)) {
      if (run.kind === "watcher") this.d.watchers.expire(run, now);
      else if (this.d.gate.waiting(run.runId)) this.d.runs.renewLease(run.runId, now + leaseMs(PROMPT_LEASE_MS, speedup));
      else if (this.d.delivered(run.runId)) this.d.settler.agentOutcome(run.runId, "delivered", null, now);
      else if (run.resends < MAX_RESENDS) {
        console.log(`run ${run.runId} did not reach the run gate within ${leaseText(leaseMs(OFFER_DEADLINE_MS, speedup))}; sending it again`);
        this.d.runs.resend(run.runId, now);
      } else {
        this.d.settler.agentOutcome(run.runId, "failed", `no agent took it: sent ${MAX_RESENDS + 1} times, it never reached the run gate`, now);
      }
    }
  }

  /**
   * The runner's outcome of one of this chat's runs (docs/watchers.md callback), as the callback's RPC hands it over.
   * Taken only by a run still waiting for the runner; anything else (unknown, settled, cancelled, a dry run) is
   * ignored: `{ taken: false }`. A supergroup takes the outcomes of the runs its basic group started (their run ids
   * name the old chat). A match is sent to the agent at once.
   */
  async outcome(chatId: string, input: unknown): Promise<Result<{ taken: boolean }>> {
    // Only an object bound to this chat has runs; an erased or never-used one writes nothing.
    if (this.d.info.chatId() !== chatId && this.d.info.movedFrom() !== chatId) return ok({ taken: false });
    const parsed = parseArgs(runnerOutcome(), input);
    if (!parsed.ok) return parsed;
    const runId = chatRunId(chatId, parsed.value.runId);
    if (runId === null) return ok({ taken: false });
    const now = this.d.now();
    const taken = await this.d.watchers.outcome(runId, parsed.value, now);
    if (taken && parsed.value.status === "output") await this.dispatch(now);
    return ok({ taken });
  }
}
