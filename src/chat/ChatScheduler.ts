/**
 * @module The ChatScheduler Durable Object, one per chat (DESIGN §1, §5, §7): the RPC shell. Each method
 * reads state through the stores, asks the pure core (`jobs/`, `time/`) what to do and writes the result;
 * firing over time lives in `ChatEngine`. Methods return results for expected failures and never throw for
 * input; `alarm()` never throws.
 */
import { DurableObject } from "cloudflare:workers";
import type { Config } from "../config";
import type { JobRecord } from "../jobs/model";
import { createJobInput, editJobInput, jobFilter, type CreateJobInput, type CreatedBy, type EditJobInput, type Job, type JobFilter, type Run } from "../schemas/jobs";
import { firstSentence, sentenceFor } from "../sentence";
import { manualRun, nextCronRun } from "../jobs/fire";
import { chatRunId, runnerOutcome, type RunnerOutcome } from "../runner/outcome";
import { noJobText, stillRunningText, tooManyJobsText, zoneChangedText } from "../jobs/texts";
import { validateCreate, validateEdit } from "../jobs/validate";
import { parseZone } from "../time";
import { ChatEngine, type SettleStatus } from "./engine";
import { Inbox } from "./inbox";
import { ConversationStore, type TranscriptEntry } from "./conversation-store";
import { deadLetterText, parseMessage, sourceOfKey, writeDelivery, type DeliverOptions } from "./conversation";
import { RunGate, type Offer } from "./gate";
import type { PromptMessage } from "../contracts/prompt-message";
import { migrate } from "./schema";
import { ChatStore, type RunRecord } from "./store";
import { toJob, toRun } from "./views";
import { err, ok, type Result } from "../result";
import * as z from "zod";
import { lazy } from "../lazy";
import { CHAT_ID, newJobId } from "../contracts/ids";

export type ChatSettings = { chatId: string; timeZone: string; isDefault: boolean };
export type ZoneChange = ChatSettings & { cronJobs: number; oneOffs: number; message: string };
export type JobList = { chatId: string; timeZone: string; now: string; jobs: Job[] };
export type { SettleStatus };

const gateSettleArgs = lazy(() =>
  z.strictObject({
    token: z.string().min(1).max(100),
    key: z.string().min(1).max(200),
    status: z.enum(["delivered", "failed"]),
    detail: z.string().max(2000).nullable(),
  }),
);

const deliverArgs = lazy(() =>
  z.strictObject({
    key: z.string().min(1).max(200),
    markdown: z.string().min(1).max(64_000),
    prompt: z.string().max(128_000).nullable(),
  }),
);

const settleArgs = lazy(() =>
  z.strictObject({
    runId: z.string().min(1).max(200),
    status: z.enum(["delivered", "failed", "silent", "matched"]),
    detail: z.string().max(2000).nullable(),
  }),
);

export class ChatScheduler extends DurableObject<Env> {
  private readonly store: ChatStore;
  private readonly talk: ConversationStore;
  private readonly gate: RunGate;
  private readonly engine: ChatEngine;
  private readonly inbox: Inbox;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new ChatStore(ctx.storage.sql);
    this.talk = new ConversationStore(ctx.storage.sql);
    this.gate = new RunGate(this.talk);
    this.engine = new ChatEngine(ctx, () => this.env, this.store, this.talk, this.gate);
    this.inbox = new Inbox({
      ctx,
      env: () => this.env,
      store: this.store,
      talk: this.talk,
      engine: this.engine,
      zone: () => this.zone().zone,
      bind: (chatId) => this.bind(chatId),
      commands: this,
    });
    ctx.blockConcurrencyWhile(async () => {
      migrate(ctx.storage.sql);
    });
  }

  private get config(): Config {
    return this.engine.config;
  }

  private zone(): { zone: string; isDefault: boolean } {
    return this.engine.zone();
  }

  /** Fires due jobs, dispatches claimed runs, expires leases, re-arms; never throws (see ChatEngine). */
  override async alarm(): Promise<void> {
    await this.engine.alarm();
  }

  /** Liveness: answers "pong" and touches nothing. */
  async ping(): Promise<"pong"> {
    return "pong";
  }

  // ── Settings ─────────────────────────────────────────────────────────────────────────────────────


  /** Remembers the chat id (the alarm has no caller to tell it). */
  private bind(chatId: string): Result<string> {
    if (typeof chatId !== "string" || !CHAT_ID.test(chatId)) {
      return err("bad_request", `"${String(chatId)}" is not a Telegram chat id; use a number such as 123456789.`);
    }
    const bound = this.store.setting("chat_id");
    if (bound === null) this.store.setSetting("chat_id", chatId);
    else if (bound !== chatId) return err("bad_request", `This scheduler belongs to chat ${bound}, not ${chatId}.`);
    return ok(chatId);
  }


  async getSettings(chatId: string): Promise<Result<ChatSettings>> {
    const bound = this.bind(chatId);
    if (!bound.ok) return bound;
    const { zone, isDefault } = this.zone();
    await this.engine.syncAlarm();
    return ok({ chatId, timeZone: zone, isDefault });
  }

  /**
   * Sets (or with null, resets) the chat's zone: every cron job's next run is recomputed in the new zone
   * strictly after now, with no catch-up; one-offs keep their instant (DESIGN §4).
   */
  async setTimeZone(chatId: string, input: string | null): Promise<Result<ZoneChange>> {
    const bound = this.bind(chatId);
    if (!bound.ok) return bound;
    let zone: string | null = null;
    if (input !== null) {
      const parsed = parseZone(input);
      if (!parsed.ok) return err("bad_request", parsed.error);
      zone = parsed.value;
    }
    const now = Date.now();
    let cronJobs = 0;
    const oneOffs: number[] = [];
    this.ctx.storage.transactionSync(() => {
      this.store.setSetting("time_zone", zone);
      const effective = this.zone().zone;
      for (const row of this.store.jobRows()) {
        if (!row.ok) continue;
        const job = row.job;
        if (job.schedule.type === "at") {
          oneOffs.push(job.schedule.at);
          continue;
        }
        cronJobs++;
        if (!job.enabled || job.quarantined !== null) continue;
        this.store.saveJob({ ...job, nextRunAt: nextCronRun(job.schedule.cron, effective, now) });
      }
    });
    await this.engine.syncAlarm();
    const { zone: effective, isDefault } = this.zone();
    return ok({
      chatId,
      timeZone: effective,
      isDefault,
      cronJobs,
      oneOffs: oneOffs.length,
      message: zoneChangedText(effective, isDefault, now, cronJobs, oneOffs),
    });
  }

  // ── Jobs ─────────────────────────────────────────────────────────────────────────────────────────

  private view(job: JobRecord, chatId: string): Job {
    return toJob(job, chatId, this.config.defaultScriptTimeout);
  }

  /** The object bound to `chatId` and its job `id`, or why not (another chat's object, no such job). */
  private locate(chatId: string, id: string): Result<JobRecord> {
    const bound = this.bind(chatId);
    return bound.ok ? this.find(id) : bound;
  }

  private find(id: string): Result<JobRecord> {
    const row = typeof id === "string" ? this.store.jobRow(id) : null;
    if (!row || !row.ok) return err("not_found", noJobText(id));
    return ok(row.job);
  }

  async listJobs(chatId: string, filter: JobFilter = {}): Promise<Result<JobList>> {
    const bound = this.bind(chatId);
    if (!bound.ok) return bound;
    const parsedFilter = jobFilter().safeParse(filter, { error: sentenceFor });
    if (!parsedFilter.success) return err("bad_request", firstSentence(parsedFilter.error));
    const { category, q } = parsedFilter.data;
    const needle = q?.trim().toLowerCase() ?? "";
    const jobs = this.store
      .jobRows()
      .flatMap((row) => (row.ok ? [this.view(row.job, chatId)] : []))
      .filter((job) => !category || job.category === category)
      .filter((job) => !needle || [job.id, job.name, job.text ?? "", job.command ?? ""].some((s) => s.toLowerCase().includes(needle)));
    await this.engine.syncAlarm();
    return ok({ chatId, timeZone: this.zone().zone, now: new Date().toISOString(), jobs });
  }

  async getJob(chatId: string, id: string): Promise<Result<Job>> {
    const job = this.locate(chatId, id);
    await this.engine.syncAlarm();
    return job.ok ? ok(this.view(job.value, chatId)) : job;
  }

  async createJob(chatId: string, input: CreateJobInput, createdBy: CreatedBy): Promise<Result<Job>> {
    const bound = this.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = createJobInput().safeParse(input, { error: sentenceFor });
    if (!parsed.success) return err("bad_request", firstSentence(parsed.error));
    const t = this.config.telegram;
    if (t.mode !== "off" && !t.allowedUserIds.includes(chatId)) {
      return err("bad_request", `Chat ${chatId} is not allowed to use this bot; add its user id to ALLOWED_USER_IDS first.`);
    }
    const limit = this.config.maxJobsPerChat;
    if (this.store.jobCount() >= limit) return err("bad_request", tooManyJobsText(limit));
    const now = Date.now();
    const { zone } = this.zone();
    const valid = await validateCreate(parsed.data, { zone, now });
    if (!valid.ok) return err("bad_request", valid.error);
    // Between the await above and here another create may have landed: count again, and pick a fresh id.
    if (this.store.jobCount() >= limit) return err("bad_request", tooManyJobsText(limit));
    let id = newJobId();
    while (this.store.jobExists(id)) id = newJobId();
    const job: JobRecord = {
      ...valid.value.spec,
      id,
      enabled: true,
      createdAt: now,
      createdBy,
      nextRunAt: valid.value.nextRunAt,
      lastRunAt: null,
      lastResult: null,
      runningRunId: null,
      quarantined: null,
    };
    this.store.insertJob(job);
    await this.engine.syncAlarm();
    return ok(this.view(job, chatId));
  }

  /** Edits a job; it applies from the next occurrence and never touches a run in flight. */
  async editJob(chatId: string, id: string, input: EditJobInput): Promise<Result<Job>> {
    const bound = this.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = editJobInput().safeParse(input, { error: sentenceFor });
    if (!parsed.success) return err("bad_request", firstSentence(parsed.error));
    const found = this.find(id);
    if (!found.ok) return found;
    const now = Date.now();
    const edited = await validateEdit(found.value, parsed.data, { zone: this.zone().zone, now });
    if (!edited.ok) return err("bad_request", edited.error);
    const latest = this.find(id);
    if (!latest.ok) return latest;
    const job: JobRecord = { ...latest.value, ...edited.value.spec };
    if (edited.value.scheduleChanged && job.enabled) job.nextRunAt = edited.value.nextRunAt;
    this.store.saveJob(job);
    await this.engine.syncAlarm();
    return ok(this.view(job, chatId));
  }

  /**
   * Removes a job and its history. A running watcher is killed through the runner and its outcome discarded
   * (its run is gone); an agent run in progress is not aborted (its settle finds no job).
   */
  async cancelJob(chatId: string, id: string): Promise<Result<Job>> {
    const found = this.locate(chatId, id);
    if (!found.ok) {
      // A row that no longer parses can still be removed (it would otherwise count against the limit forever).
      const name = this.store.rawJobName(id);
      if (name === null) return found;
      this.store.deleteJob(id);
      await this.engine.syncAlarm();
      return ok(this.view(unreadableJob(id, name), chatId));
    }
    const running = this.engine.watchers.running().filter((run) => run.jobId === id);
    this.store.deleteJob(id);
    await this.engine.watchers.kill(running);
    await this.engine.syncAlarm();
    return ok(this.view(found.value, chatId));
  }

  async pauseJob(chatId: string, id: string): Promise<Result<Job>> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    const job: JobRecord = { ...found.value, enabled: false, nextRunAt: null };
    this.store.saveJob(job);
    await this.engine.syncAlarm();
    return ok(this.view(job, chatId));
  }

  /** Resumes: a cron job from now; a one-off at its time, at once (late) when that has passed. */
  async resumeJob(chatId: string, id: string): Promise<Result<Job>> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    const current = found.value;
    const now = Date.now();
    const nextRunAt =
      current.schedule.type === "cron" ? nextCronRun(current.schedule.cron, this.zone().zone, now) : current.schedule.at;
    const job: JobRecord = { ...current, enabled: true, nextRunAt, quarantined: null };
    this.store.saveJob(job);
    await this.engine.syncAlarm();
    return ok(this.view(job, chatId));
  }

  /** Run now (DESIGN §5): a manual run `<jobId>:<now>`, dispatched at once; nothing deleted or rescheduled. */
  async runJobNow(chatId: string, id: string): Promise<Result<Job>> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    if (found.value.runningRunId !== null) return err("conflict", stillRunningText(id));
    const now = Date.now();
    const ctx = { chatId, zone: this.zone().zone, now, deliverable: true, defaultTimeout: this.config.defaultScriptTimeout };
    const run = manualRun(found.value, ctx);
    if (this.store.runExists(run.runId)) return err("conflict", stillRunningText(id));
    const job: JobRecord = { ...found.value, runningRunId: run.runId, lastRunAt: now };
    this.ctx.storage.transactionSync(() => {
      this.store.insertRun(run);
      this.store.saveJob(job);
      this.store.pruneRuns(id);
    });
    await this.engine.dispatch(now);
    await this.engine.syncAlarm();
    // A watcher may have finished (or failed to start) while it was being started: show the job as it is now.
    const latest = this.store.jobRow(id);
    return ok(this.view(latest?.ok ? latest.job : job, chatId));
  }

  async jobRuns(chatId: string, id: string): Promise<Result<Run[]>> {
    const found = this.locate(chatId, id);
    await this.engine.syncAlarm();
    if (!found.ok) return found;
    return ok(this.store.runsOf(id).map(toRun));
  }

  /**
   * Settles a run (the run gate calls this when an agent is done): records the status, ends the job's
   * in-flight state, updates `lastResult` and deletes a one-off whose scheduled run this was. A run that is
   * unknown or already settled is left alone (false).
   */
  async settleRun(runId: string, status: SettleStatus, detail: string | null = null): Promise<Result<boolean>> {
    const args = settleArgs().safeParse({ runId, status, detail }, { error: sentenceFor });
    if (!args.success) return err("bad_request", firstSentence(args.error));
    const settled = this.engine.settle(runId, status, detail, Date.now());
    await this.engine.syncAlarm();
    return ok(settled);
  }


  /**
   * The runner's outcome of one of this chat's runs (DESIGN §8 callback). Taken only by a run still waiting
   * for the runner; anything else (unknown, settled, cancelled, a dry run) is ignored: `{ taken: false }`.
   */
  async runnerOutcome(chatId: string, input: RunnerOutcome): Promise<Result<{ taken: boolean }>> {
    // Only an object bound to this chat has runs; an erased or never-used one writes nothing.
    if (this.store.setting("chat_id") !== chatId) return ok({ taken: false });
    const parsed = runnerOutcome().safeParse(input, { error: sentenceFor });
    if (!parsed.success) return err("bad_request", firstSentence(parsed.error));
    const runId = chatRunId(chatId, parsed.data.runId);
    const taken = runId !== null && (await this.engine.watchers.outcome(runId, parsed.data, Date.now()));
    await this.engine.syncAlarm();
    return ok({ taken });
  }

  /** Erases the chat: running watchers killed, every table, the alarm (DESIGN §10 `DELETE /admin/chats/:chatId`). */
  async erase(chatId: string): Promise<Result<null>> {
    if (!CHAT_ID.test(chatId)) return err("bad_request", `"${chatId}" is not a Telegram chat id.`);
    const running = this.engine.watchers.running();
    if (running.length > 0) await this.engine.watchers.kill(running);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    migrate(this.ctx.storage.sql);
    return ok(null);
  }

  // ── Conversation: run gate, deliver, transcript (DESIGN §7) ────────────────────────────────────────

  /** A consumer offers a queue message: `duplicate`, `queued` (stored for the holder), or `run` with a token. */
  async gateOffer(input: unknown): Promise<Result<Offer>> {
    const message = parseMessage(input);
    if (!message) return err("bad_request", "The body must be a v1 prompt message: { v: 1, key, chatId, timeZone, source, text, body, firedAt, … }.");
    // A job's prompt whose run is gone (its job cancelled before the agent took it, or the chat erased) is
    // stale: nothing runs and nothing is written.
    if (message.source !== "user") {
      const run = this.store.run(message.key);
      if (!run || run.state === "settled") return ok({ result: "duplicate" });
    }
    const bound = this.bind(message.chatId);
    if (!bound.ok) return bound;
    const now = Date.now();
    const offer = this.ctx.storage.transactionSync(() => {
      const answer = this.gate.offer(message, now, () => {
        // The holder delivered this prompt's reply and died before settling it: free the gate.
        const held = this.talk.gate();
        if (held) this.gate.release(held.token, now);
      });
      // Its reply went out but its settle did not (a crash, a failed call): the run is finished, say so.
      const run = answer.result === "duplicate" ? this.store.run(message.key) : null;
      if (run && run.state !== "settled") this.engine.settle(message.key, "delivered", null, now);
      return answer.result === "run" ? { ...answer, timeZone: this.zone().zone } : answer;
    });
    await this.engine.resendPending(now);
    await this.engine.syncAlarm();
    return ok(offer);
  }

  /** The kind of the job a run key belongs to, when the job still exists. */
  private kindOfRun(key: string): "prompt" | "watcher" | null {
    const run = this.store.run(key);
    const row = run ? this.store.jobRow(run.jobId) : null;
    return row?.ok ? row.job.kind : null;
  }

  /** The holder's next prompt (the oldest pending one), or null, which releases the gate. */
  async gateNext(token: string): Promise<Result<{ message: PromptMessage | null }>> {
    if (typeof token !== "string") return err("bad_request", `"token" must be the string that "offer" returned.`);
    const now = Date.now();
    const message = this.ctx.storage.transactionSync(() => {
      for (;;) {
        const json = this.gate.next(token, now);
        if (json === null) return null;
        const next = parseMessage(JSON.parse(json));
        // A job prompt whose run went while it waited (its job was cancelled) is stale, as in gateOffer.
        const run = next && next.source !== "user" ? this.store.run(next.key) : null;
        if (next && (next.source === "user" || (run && run.state !== "settled"))) return { ...next, timeZone: this.zone().zone };
        this.gate.settle(token, json === null ? "" : (next?.key ?? ""), now);
      }
    });
    await this.engine.syncAlarm();
    return ok({ message });
  }

  /**
   * The holder is done with `key`: a job's key settles its run (`delivered` or `failed`; a finished one-off is
   * deleted); a user's key only renews the lease.
   */
  async gateSettle(token: string, key: string, status: "delivered" | "failed", detail: string | null = null): Promise<Result<null>> {
    const args = gateSettleArgs().safeParse({ token, key, status, detail }, { error: sentenceFor });
    if (!args.success) return err("bad_request", firstSentence(args.error));
    const now = Date.now();
    const settled = this.ctx.storage.transactionSync(() => {
      // A token that no longer holds the gate may still settle a run whose reply it delivered (its lease ran
      // out mid-turn); anything else it says is not taken.
      const held = this.gate.settle(token, key, now);
      const run = this.store.run(key);
      if (!run) return true; // a user's key only releases
      if (!held && !this.talk.delivered(key)) return false;
      this.engine.settle(key, status, detail, now);
      return true;
    });
    if (!settled) return err("conflict", "This token does not hold the chat's run gate; offer the prompt again.");
    await this.engine.syncAlarm();
    return ok(null);
  }

  /** The holder gives up after a transient error: its prompt goes back first in line and the gate is free. */
  async gateRelease(token: string): Promise<Result<null>> {
    if (typeof token !== "string") return err("bad_request", `"token" must be the string that "offer" returned.`);
    const now = Date.now();
    this.ctx.storage.transactionSync(() => this.gate.release(token, now));
    await this.engine.resendPending(now);
    await this.engine.syncAlarm();
    return ok(null);
  }

  /**
   * Delivers a message to the chat (DESIGN §1): one transaction writes the transcript entry (and the prompt
   * the agent saw, when given) and, with a bot connected, an outbox row. A key seen before is a no-op.
   */
  async deliver(key: string, markdown: string, options: DeliverOptions = {}): Promise<Result<{ delivered: boolean }>> {
    const args = deliverArgs().safeParse({ key, markdown, prompt: options.prompt ?? null }, { error: sentenceFor });
    if (!args.success) return err("bad_request", firstSentence(args.error));
    if (options.chatId !== undefined) {
      const bound = this.bind(options.chatId);
      if (!bound.ok) return bound;
    }
    const chatId = this.store.setting("chat_id");
    const t = this.config.telegram;
    if (t.mode !== "off" && chatId !== null && !t.allowedUserIds.includes(chatId)) {
      return err("bad_request", `Chat ${chatId} is not allowed to use this bot (ALLOWED_USER_IDS); nothing was delivered.`);
    }
    const now = Date.now();
    const origin = sourceOfKey(key, this.kindOfRun(key));
    const delivered = this.ctx.storage.transactionSync(() => writeDelivery(this.talk, key, markdown, origin, options, now, this.engine.canSend()));
    this.engine.flushOutbox();
    await this.engine.syncAlarm();
    return ok({ delivered });
  }

  /**
   * Transcript mode: a message written through the admin API, as the chat's user (see Inbox): a command is
   * answered here, other text becomes a prompt with key `m:<messageId>`.
   */
  async postUserMessage(chatId: string, text: string): Promise<Result<{ messageId: string }>> {
    return this.inbox.postUserMessage(chatId, text);
  }

  /** A Telegram update for this chat, checked at the edge (see Inbox). */
  async handleUpdate(input: unknown): Promise<Result<{ handled: string; callbackText?: string }>> {
    return this.inbox.handleUpdate(input);
  }

  /** What /status shows of the chat's circumstances. */
  commandContext(chatId: string) {
    return this.inbox.commandContext(chatId);
  }

  /** The transcript, oldest first (DESIGN §7). */
  async messages(chatId: string, limit = 50): Promise<Result<{ chatId: string; messages: TranscriptEntry[] }>> {
    const bound = this.bind(chatId);
    if (!bound.ok) return bound;
    const n = Number.isInteger(limit) && limit >= 1 && limit <= 500 ? limit : 50;
    return ok({ chatId, messages: this.talk.entries(n) });
  }

  /** A prompt the queue gave up on: settle it failed and tell the chat in one sentence. */
  async deadLetter(input: unknown): Promise<Result<null>> {
    const message = parseMessage(input);
    if (!message) return err("bad_request", "The body must be a v1 prompt message: { v: 1, key, chatId, timeZone, source, text, body, firedAt, … }.");
    const bound = this.bind(message.chatId);
    if (!bound.ok) return bound;
    const now = Date.now();
    const run = this.store.run(message.key);
    const origin = sourceOfKey(message.key, message.source === "watcher" ? "watcher" : null);
    this.ctx.storage.transactionSync(() => {
      const alert = { ...origin, source: origin.jobId !== null ? ("alert" as const) : origin.source };
      if (!writeDelivery(this.talk, message.key, deadLetterText(message), alert, {}, now, this.engine.canSend())) return;
      if (run) this.engine.settle(message.key, "failed", "the agent failed after several tries (dead-lettered)", now);
      this.talk.takePending(message.key);
      const held = this.talk.gate();
      // The holder is gone (the queue gave up on it): free the gate for the prompts waiting behind it.
      if (held?.activeKey === message.key) this.gate.release(held.token, now);
    });
    this.engine.flushOutbox();
    await this.engine.resendPending(now);
    await this.engine.syncAlarm();
    return ok(null);
  }


}

/** A stand-in for a row that no longer parses, so that cancelling it can still say what went. */
function unreadableJob(id: string, name: string): JobRecord {
  return {
    id,
    name,
    kind: "prompt",
    schedule: { type: "at", at: 0 },
    text: "",
    command: null,
    timeoutSeconds: null,
    enabled: false,
    createdAt: 0,
    createdBy: "admin",
    nextRunAt: null,
    lastRunAt: null,
    lastResult: null,
    runningRunId: null,
    quarantined: "unreadable",
  };
}


export type { RunRecord };
