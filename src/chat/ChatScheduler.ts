/**
 * @module The ChatScheduler Durable Object, one per chat (docs/design/0008-layout.md, docs/api.md, docs/agent.md): a table of contents. Each RPC
 * method hands off to one part — `jobs` (create, edit, cancel, pause, resume, run now, the zone), `firing`
 * (the alarm's claims and dispatch, watcher outcomes), `conversation` (run gate, deliver, transcript, dead
 * letters), `turns` (whose turn a gate token stands for), `inbox` (what the user writes), `outbox` (Telegram),
 * `members` (who may change what in a group) and `moves` (a group becoming a supergroup) — and then self-heals
 * the one alarm. Once the chat moved to a supergroup, a call naming it is the supergroup's object's (`via`).
 * Parts get what they use through their constructors; none holds the object. Methods return results for
 * expected failures and never throw for input; `alarm()` never throws.
 */
import { DurableObject } from "cloudflare:workers";
import { leaseMs, loadConfig } from "../config";
import { CHAT_ID } from "../contracts/ids";
import type { PromptMessage } from "../contracts/prompt-message";
import { chatRunId, type RunnerOutcome, runnerOutcome } from "../contracts/runner";
import type { NextPrompt, StepRecord, TurnAnswer, TurnFailure } from "../contracts/turn";
import { PROMPT_LEASE_MS } from "../jobs/fire";
import { err, ok, type Result } from "../result";
import { deliverArgs, gateSettleArgs, turnAnswerArgs, turnFailureArgs, turnStepArgs } from "../schemas/agent";
import type { ChatSettings, QuietAnswer, TranscriptEntry, ZoneChange } from "../schemas/chats";
import type { ImportBatch, ImportReply } from "../schemas/import";
import type { CreatedBy, CreateJobInput, EditJobInput, Job, JobFilter, JobList, Run } from "../schemas/jobs";
import type { MemoryCreateInput, MemoryRecord, MemoryUpdateInput } from "../schemas/memory";
import { NOT_THE_TURN, type TurnPolicy } from "../schemas/tools";
import { firstSentence, sentenceFor } from "../sentence";
import { AlarmClock } from "./alarm";
import { Conversation, type OfferOptions, type OfferResult } from "./conversation";
import { Deliveries } from "./deliveries";
import { Directory } from "./directory";
import { Firing } from "./firing";
import { GATE_LEASE_MS, RunGate } from "./gate";
import { Imports } from "./imports";
import { type Handled, Inbox, type UpdateOptions } from "./inbox";
import { ChatInfo } from "./info";
import { JobOps } from "./jobs";
import { MemberRights, type MemberRole } from "./members";
import { type Deleted, MemoryOps } from "./memory";
import { ModelTurns } from "./model-turns";
import { ChatMoves } from "./moves";
import { TelegramOutbox } from "./outbox";
import { RunSettler } from "./settle";
import type { Db } from "./store/db";
import { DirectoryStore } from "./store/directory";
import { GateStore } from "./store/gate";
import { ImportStore } from "./store/imports";
import { JobSourceStore } from "./store/job-sources";
import { JobStore } from "./store/jobs";
import { MemberStore } from "./store/members";
import { MemoryStore } from "./store/memory";
import type { MoveChunk } from "./store/moves";
import { MoveStore } from "./store/moves";
import { OfferStore } from "./store/offers";
import { OutboxStore } from "./store/outbox";
import { RunStore } from "./store/runs";
import { migrate } from "./store/schema";
import { SettingsStore } from "./store/settings";
import { TranscriptStore } from "./store/transcript";
import { TurnStepStore } from "./store/turn-steps";
import { UsageStore } from "./store/usage";
import { UserPromptStore } from "./store/user-prompts";
import { TurnRights } from "./turns";
import { Watchers } from "./watchers";

export class ChatScheduler extends DurableObject<Env> {
  /** The one clock of the object and its parts; tests move it with `testAdvanceClock` and stop it with `testFreezeClock`. */
  private clockOffsetMs = 0;
  private frozenAt: number | null = null;
  private readonly now = (): number => this.frozenAt ?? Date.now() + this.clockOffsetMs;
  private readonly db: Db;
  private readonly alarms: AlarmClock;
  private readonly jobs: JobOps;
  private readonly firing: Firing;
  private readonly conversation: Conversation;
  private readonly inbox: Inbox;
  private readonly outbox: TelegramOutbox;
  private readonly watchers: Watchers;
  private readonly info: ChatInfo;
  private readonly remembering: readonly { forget(): void }[];
  /** What the remembering stores keep is read again (after a rolled-back transaction, an erase, a move). */
  private readonly forget = (): void => {
    for (const store of this.remembering) store.forget();
  };
  private readonly memory: MemoryOps;
  private readonly imports: Imports;
  protected readonly directory: Directory;
  private readonly turns: TurnRights;
  private readonly members: MemberRights;
  private readonly moves: ChatMoves;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = { sql: ctx.storage.sql };
    ctx.blockConcurrencyWhile(async () => {
      migrate(ctx.storage.sql);
    });
    // The env is read on each use, never kept: tests replace vars and the queue binding on the live instance.
    const currentEnv = () => this.env;
    const loaded = () => loadConfig(this.env);
    const config = () => loaded().config;
    const now = this.now;
    const settings = new SettingsStore(this.db);
    const outboxStore = new OutboxStore(this.db);
    const gateStore = new GateStore(this.db);
    // The stores that keep what they read in memory (the object is the database's only writer).
    this.remembering = [settings, outboxStore, gateStore];
    // A transaction that throws is rolled back: what it read or wrote is read again afterwards.
    const transaction = <T>(work: () => T): T => {
      try {
        return ctx.storage.transactionSync(work);
      } catch (error) {
        this.forget();
        throw error;
      }
    };
    const jobStore = new JobStore(this.db);
    const runs = new RunStore(this.db);
    const transcript = new TranscriptStore(this.db);
    const userPrompts = new UserPromptStore(this.db);
    const usage = new UsageStore(this.db);
    const memoryStore = new MemoryStore(this.db);
    const info = new ChatInfo(settings, config);
    this.info = info;
    const deliveries = new Deliveries(transcript, outboxStore, info, (jobId) => jobStore.threadOf(jobId));
    const directory = new Directory({ db: () => this.env.DB, store: new DirectoryStore(this.db), jobs: jobStore, info, now, transaction });
    this.directory = directory;
    this.remembering = [...this.remembering, directory];
    const settler = new RunSettler(jobStore, runs, deliveries, transaction);
    settler.onEnded((runId, status) => this.runEnded(runId, status));
    const gate = new RunGate(gateStore, (key) => transcript.delivered(key), { leaseMs: () => leaseMs(GATE_LEASE_MS, config().speedup) });
    this.moves = new ChatMoves({
      store: new MoveStore(this.db),
      settings,
      info,
      peer: (chatId) => this.env.CHAT.getByName(chatId),
      exclusive: (work) => ctx.blockConcurrencyWhile(work),
      transaction,
      forget: this.forget,
      now,
    });
    this.alarms = new AlarmClock({
      storage: ctx.storage,
      jobs: jobStore,
      runs,
      gate: gateStore,
      outbox: outboxStore,
      userPrompts,
      info,
      directory,
      move: this.moves,
    });
    this.watchers = new Watchers({
      jobs: jobStore,
      runs,
      info,
      deliveries,
      usage,
      settler,
      env: currentEnv,
      config: loaded,
      now,
      transaction,
      waitUntil: (p) => ctx.waitUntil(p),
    });
    this.firing = new Firing({
      jobs: jobStore,
      runs,
      info,
      gate,
      delivered: (key) => transcript.delivered(key),
      watchers: this.watchers,
      settler,
      memory: memoryStore,
      deliveries,
      env: currentEnv,
      config: loaded,
      now,
      transaction,
    });
    this.turns = new TurnRights({ gate: gateStore, jobs: jobStore, settings, info, now });
    this.jobs = new JobOps({
      jobs: jobStore,
      memory: memoryStore,
      runs,
      settings,
      info,
      firing: this.firing,
      watchers: this.watchers,
      turns: this.turns,
      config,
      now,
      transaction,
    });
    this.memory = new MemoryOps({ memory: memoryStore, jobs: jobStore, info, now, transaction });
    this.imports = new Imports({ imports: new ImportStore(this.db), jobOps: this.jobs, info, now });
    const promptLeaseMs = () => leaseMs(PROMPT_LEASE_MS, config().speedup);
    const modelTurns = new ModelTurns({ gate, steps: new TurnStepStore(this.db), runs, promptLeaseMs, now, transaction });
    this.conversation = new Conversation({
      jobs: jobStore,
      usage,
      config,
      userPrompts,
      runs,
      gateStore,
      gate,
      transcript,
      deliveries,
      settler,
      turns: modelTurns,
      info,
      env: currentEnv,
      now,
      transaction,
    });
    this.members = new MemberRights({ store: new MemberStore(this.db), info, config, now });
    this.inbox = new Inbox({
      transcript,
      userPrompts,
      offers: new OfferStore(this.db),
      jobSources: new JobSourceStore(this.db),
      info,
      deliveries,
      jobs: this.jobs,
      rights: this.members,
      env: currentEnv,
      config,
      now,
      transaction,
    });
    this.outbox = new TelegramOutbox({
      outbox: outboxStore,
      transcript,
      info,
      config,
      now,
      leaveThread: (threadId) => jobStore.leaveThread(threadId),
      migrated: async (to) => {
        const from = info.chatId();
        if (from !== null) await this.moves.moveTo(from, to);
      },
    });
  }

  /**
   * Each run that ends, whatever ends it (the gate's settle, a duplicate offer, a lease that ran out, a dead
   * letter, a watcher's outcome), inside the transaction that ends it: nothing here; the bench's subclass
   * (bench/fire-worker.ts) counts them.
   */
  protected runEnded(_runId: string, _status: string): void {}

  /** Every RPC entry self-heals: work pending and no alarm set → arm it (docs/api.md#how-a-job-fires). */
  private async healed<T>(result: T | Promise<T>): Promise<T> {
    const value = await result;
    // The directory after the object's own write; a failed D1 write marks a retry that the alarm comes back for.
    await this.directory.sync();
    await this.alarms.sync();
    return value;
  }

  /**
   * A call naming `chatId` (null: one that names no chat, such as a gate token's): answered `here`, or, once this
   * chat moved to a supergroup, by the supergroup's object with its id (`there`; docs/telegram.md). An unfinished move is
   * finished first.
   */
  private async via<T>(chatId: unknown, here: () => Promise<T>, there: (next: DurableObjectStub<ChatScheduler>, to: string) => Promise<unknown>): Promise<T> {
    const to = await this.moves.forwarding(typeof chatId === "string" ? chatId : null);
    // The supergroup's object answers the same method with the same result type (RPC hands it back by value).
    return to === null ? here() : ((await there(this.env.CHAT.getByName(to), to)) as T);
  }

  /** Fires due jobs, expires leases, dispatches claimed runs, re-sends a waiting or lost prompt, sends the outbox; re-arms. */
  override async alarm(): Promise<void> {
    // A move that did not finish comes first, and alone: the state is on its way to the supergroup.
    if (this.moves.moving() !== null) return this.alarms.run(this.now(), [{ name: "the move to a supergroup", run: (now) => this.moves.tick(now) }]);
    await this.alarms.run(this.now(), [
      { name: "firing", run: (now) => this.firing.tick(now) },
      { name: "the run gate", run: (now) => this.conversation.resendPending(now) },
      { name: "lost user messages", run: (now) => this.conversation.resendLost(now) },
      { name: "the outbox", run: () => this.outbox.tick() },
      {
        name: "the directory",
        run: async () => {
          await this.directory.sync();
          return false;
        },
      },
    ]);
  }

  /** Liveness: answers "pong" and touches nothing. */
  async ping(): Promise<"pong"> {
    return "pong";
  }

  // ── Jobs and settings (docs/api.md, docs/time.md) ──────────────────────────────────────────────────────────────

  getSettings(chatId: string): Promise<Result<ChatSettings>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.getSettings(chatId)),
      (n, to) => n.getSettings(to),
    );
  }

  setTimeZone(chatId: string, zone: string | null): Promise<Result<ZoneChange>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.setTimeZone(chatId, zone)),
      (n, to) => n.setTimeZone(to, zone),
    );
  }

  /** The chat's quiet hours (docs/telegram.md), or null. */
  getQuiet(chatId: string): Promise<Result<QuietAnswer>> {
    return this.healed(this.jobs.getQuiet(chatId));
  }

  /** Sets (`{ quiet: { from, to } }`) or clears (`{ quiet: null }`) the chat's quiet hours. */
  setQuiet(chatId: string, body: QuietAnswer): Promise<Result<QuietAnswer>> {
    return this.healed(this.jobs.setQuiet(chatId, body));
  }

  listJobs(chatId: string, filter: JobFilter = {}): Promise<Result<JobList>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.list(chatId, filter)),
      (n, to) => n.listJobs(to, filter),
    );
  }

  getJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.get(chatId, id)),
      (n, to) => n.getJob(to, id),
    );
  }

  /**
   * `followUpOf`: the run gate token of the job's or watcher's turn whose one follow-up this is (over HTTP or MCP);
   * `threadId`: the forum topic the job is made in (its messages go there).
   */
  createJob(
    chatId: string,
    input: CreateJobInput,
    createdBy: CreatedBy,
    options: { followUpOf?: string; threadId?: number | null } = {},
  ): Promise<Result<Job>> {
    const followUpOf = typeof options?.followUpOf === "string" ? options.followUpOf : undefined;
    const threadId = typeof options?.threadId === "number" ? options.threadId : null;
    const how = { ...(followUpOf === undefined ? {} : { followUpOf }), threadId };
    return this.via(
      chatId,
      () => this.healed(this.jobs.create(chatId, input, createdBy, how)),
      (n, to) => n.createJob(to, input, createdBy, how),
    );
  }

  editJob(chatId: string, id: string, input: EditJobInput): Promise<Result<Job>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.edit(chatId, id, input)),
      (n, to) => n.editJob(to, id, input),
    );
  }

  cancelJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.cancel(chatId, id)),
      (n, to) => n.cancelJob(to, id),
    );
  }

  pauseJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.pause(chatId, id)),
      (n, to) => n.pauseJob(to, id),
    );
  }

  resumeJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.resume(chatId, id)),
      (n, to) => n.resumeJob(to, id),
    );
  }

  /** Skip (docs/api.md#jobs): a recurring job's next occurrence passed over; `skipped` is that occurrence. */
  skipJob(chatId: string, id: string): Promise<Result<{ job: Job; skipped: string }>> {
    return this.healed(this.jobs.skip(chatId, id));
  }

  runJobNow(chatId: string, id: string): Promise<Result<Job>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.runNow(chatId, id)),
      (n, to) => n.runJobNow(to, id),
    );
  }

  jobRuns(chatId: string, id: string): Promise<Result<Run[]>> {
    return this.via(
      chatId,
      () => this.healed(this.jobs.runs(chatId, id)),
      (n, to) => n.jobRuns(to, id),
    );
  }

  /** Jobs read from a store Cuckoo replaces (docs/api.md `POST /admin/import`), created once per source id. */
  importJobs(chatId: string, batch: ImportBatch): Promise<Result<ImportReply>> {
    return this.via(
      chatId,
      () => this.healed(this.imports.importJobs(chatId, batch)),
      (n, to) => n.importJobs(to, batch),
    );
  }

  // ── Memory records (docs/api.md) ───────────────────────────────────────────────────────────────

  listMemory(chatId: string): Promise<Result<MemoryRecord[]>> {
    return this.via(
      chatId,
      () => this.healed(this.memory.list(chatId)),
      (n, to) => n.listMemory(to),
    );
  }

  getMemory(chatId: string, id: string): Promise<Result<MemoryRecord>> {
    return this.via(
      chatId,
      () => this.healed(this.memory.get(chatId, id)),
      (n, to) => n.getMemory(to, id),
    );
  }

  createMemory(chatId: string, input: MemoryCreateInput): Promise<Result<MemoryRecord>> {
    return this.via(
      chatId,
      () => this.healed(this.memory.create(chatId, input)),
      (n, to) => n.createMemory(to, input),
    );
  }

  updateMemory(chatId: string, id: string, input: MemoryUpdateInput): Promise<Result<MemoryRecord>> {
    return this.via(
      chatId,
      () => this.healed(this.memory.update(chatId, id, input)),
      (n, to) => n.updateMemory(to, id, input),
    );
  }

  deleteMemory(chatId: string, id: string): Promise<Result<Deleted>> {
    return this.via(
      chatId,
      () => this.healed(this.memory.delete(chatId, id)),
      (n, to) => n.deleteMemory(to, id),
    );
  }

  /**
   * The runner's outcome of one of this chat's runs (docs/watchers.md callback). Taken only by a run still waiting
   * for the runner; anything else (unknown, settled, cancelled, a dry run) is ignored: `{ taken: false }`. A
   * supergroup takes the outcomes of the runs its basic group started (their run ids name the old chat).
   */
  runnerOutcome(chatId: string, input: RunnerOutcome): Promise<Result<{ taken: boolean }>> {
    return this.via(
      chatId,
      async () => {
        // Only an object bound to this chat has runs; an erased or never-used one writes nothing.
        if (this.info.chatId() !== chatId && this.info.movedFrom() !== chatId) return ok({ taken: false });
        const parsed = runnerOutcome().safeParse(input, { error: sentenceFor });
        if (!parsed.success) return err("bad_request", firstSentence(parsed.error));
        const runId = chatRunId(chatId, parsed.data.runId);
        return this.healed(ok({ taken: runId !== null && (await this.firing.outcome(runId, parsed.data, this.now())) }));
      },
      (n) => n.runnerOutcome(chatId, input),
    );
  }

  /** Erases the chat: running watchers killed, every table, the alarm (docs/api.md `DELETE /admin/chats/:chatId`). */
  async erase(chatId: string): Promise<Result<null>> {
    if (!CHAT_ID.test(chatId)) return err("bad_request", `"${chatId.slice(0, 40)}" is not a Telegram chat id.`);
    await this.watchers.kill(this.watchers.running());
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.forget();
    migrate(this.ctx.storage.sql);
    return ok(null);
  }

  /** Writes this chat's rows in the D1 directory again from scratch (after a restore); false when D1 did not take them. */
  rebuildDirectory(chatId: string): Promise<boolean> {
    // Healed: a rebuild that did not land arms the alarm for its retry.
    return this.healed(this.directory.rebuild(chatId));
  }

  // ── Groups (docs/telegram.md#groups-and-topics) ──────────────────────────────────────────────────────────

  /** Whether `userId` may change this chat's jobs and settings (a group's admins and listed users). */
  mayChange(chatId: string, userId: string): Promise<Result<boolean>> {
    return this.via(
      chatId,
      () => this.asMember(chatId, userId, (user) => this.members.mayChange(user)),
      (n, to) => n.mayChange(to, userId),
    );
  }

  /** `userId`'s place in this chat (a group's: what getChatMember says, remembered 10 minutes). */
  memberRole(chatId: string, userId: string): Promise<Result<MemberRole>> {
    return this.via(
      chatId,
      () => this.asMember(chatId, userId, (user) => this.members.role(user)),
      (n, to) => n.memberRole(to, userId),
    );
  }

  /** `ask` of a Telegram user of this chat, once the object is bound to it and the id is a user id. */
  private async asMember<T>(chatId: string, userId: string, ask: (userId: string) => Promise<Result<T>>): Promise<Result<T>> {
    const bound = this.info.bind(chatId);
    if (!bound.ok) return bound;
    if (typeof userId !== "string" || !/^[1-9]\d{0,15}$/.test(userId)) return err("bad_request", `"${String(userId).slice(0, 20)}" is not a Telegram user id.`);
    return this.healed(ask(userId));
  }

  /** This basic group became supergroup `to`: its state moves there and this object keeps a forwarding note. */
  async moveTo(chatId: string, to: string): Promise<Result<{ movedTo: string }>> {
    return this.healed(this.moves.moveTo(chatId, to));
  }

  /** The supergroup's side of a move: a chunk of the basic group's state (the last one takes them all). */
  acceptMove(chatId: string, from: string, chunk: MoveChunk): Promise<Result<{ done: boolean }>> {
    return this.healed(this.moves.accept(chatId, from, chunk));
  }

  // ── Conversation: run gate, deliver, transcript (docs/agent.md) ────────────────────────────────────────

  /**
   * A consumer offers a queue message: `duplicate`, `queued` (stored for the holder), or `run` with a token
   * (and a model turn's context when asked); with an answer already known, `done` and the next prompt.
   */
  gateOffer(message: unknown, options: OfferOptions = {}): Promise<Result<OfferResult>> {
    if (options.answer !== undefined) {
      const answer = turnAnswerArgs().safeParse(options.answer, { error: sentenceFor });
      if (!answer.success) return Promise.resolve(err("bad_request", firstSentence(answer.error)));
    }
    return this.via(
      chatIdIn(message),
      () => this.healed(this.conversation.offer(message, options)),
      (n, to) => n.gateOffer(withChat(message, to), options),
    );
  }

  /** The holder is done with `key`: reply, tool calls, settle and the next prompt, in one call (docs/agent.md). */
  gateFinish(token: string, key: string, answer: TurnAnswer, model = false): Promise<Result<{ delivered: boolean; next: NextPrompt | null }>> {
    const args = gateSettleArgs().safeParse({ token, key, status: answer?.status, detail: answer?.detail ?? null }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    const parsed = turnAnswerArgs().safeParse(answer, { error: sentenceFor });
    if (!parsed.success) return Promise.resolve(err("bad_request", firstSentence(parsed.error)));
    return this.via(
      null,
      () => this.healed(this.conversation.finish(token, key, answer, model)),
      (n) => n.gateFinish(token, key, answer, model),
    );
  }

  /** The holder records a step of its model turn: the model's answer before its tools run, or their results. */
  gateStep(token: string, key: string, record: StepRecord): Promise<Result<null>> {
    const args = gateSettleArgs().pick({ token: true, key: true }).safeParse({ token, key }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    const parsed = turnStepArgs().safeParse(record, { error: sentenceFor });
    if (!parsed.success) return Promise.resolve(err("bad_request", firstSentence(parsed.error)));
    return this.via(
      null,
      () => this.healed(this.conversation.step(token, key, parsed.data)),
      (n) => n.gateStep(token, key, parsed.data),
    );
  }

  /** The holder's try of its model turn failed: the turn waits for its next try, or after the fifth the chat is told. */
  gateRetry(token: string, key: string, failure: TurnFailure): Promise<Result<{ retryAt: number | null; next: NextPrompt | null }>> {
    const args = gateSettleArgs().pick({ token: true, key: true }).safeParse({ token, key }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    const parsed = turnFailureArgs().safeParse(failure, { error: sentenceFor });
    if (!parsed.success) return Promise.resolve(err("bad_request", firstSentence(parsed.error)));
    return this.via(
      null,
      () => this.healed(this.conversation.retry(token, key, parsed.data)),
      (n) => n.gateRetry(token, key, parsed.data),
    );
  }

  /** The holder's next prompt (the oldest pending one), or null, which releases the gate. */
  gateNext(token: string): Promise<Result<{ message: PromptMessage | null }>> {
    return this.via(
      null,
      () => this.healed(this.conversation.next(token)),
      (n) => n.gateNext(token),
    );
  }

  /** The holder is done with `key`: a job's key settles its run; a user's key only renews the lease. */
  gateSettle(token: string, key: string, status: "delivered" | "failed", detail: string | null = null): Promise<Result<null>> {
    const args = gateSettleArgs().safeParse({ token, key, status, detail }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    return this.via(
      null,
      () => this.healed(this.conversation.settle(token, key, status, detail)),
      (n) => n.gateSettle(token, key, status, detail),
    );
  }

  /** The holder gives up after a transient error: its prompt goes back first in line and the gate is free. */
  gateRelease(token: string): Promise<Result<null>> {
    return this.via(
      null,
      () => this.healed(this.conversation.release(token)),
      (n) => n.gateRelease(token),
    );
  }

  /**
   * Whose turn a run gate token stands for (docs/api.md#tools-for-agents `X-Cuckoo-Turn`): a user's, or a job's or watcher's with
   * the follow-ups it may still create; a token that does not hold the gate now is the one sentence.
   */
  turnRights(chatId: string, token: string): Promise<Result<TurnPolicy>> {
    if (typeof token !== "string") return Promise.resolve(err("bad_request", NOT_THE_TURN));
    return this.via(
      chatId,
      () => this.healed(this.turns.rights(chatId, token)),
      (n, to) => n.turnRights(to, token),
    );
  }

  /** Delivers a message to the chat: transcript entry and outbox row, once per key (docs/design/0008-layout.md). */
  deliver(key: string, markdown: string, options: { prompt?: string | null; chatId?: string } = {}): Promise<Result<{ delivered: boolean }>> {
    const args = deliverArgs().safeParse({ key, markdown, prompt: options.prompt ?? null }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    return this.via(
      options.chatId ?? null,
      () => this.healed(this.conversation.deliver(key, markdown, options.prompt ?? null, options.chatId ?? null)),
      (n, to) => n.deliver(key, markdown, { prompt: options.prompt ?? null, ...(options.chatId !== undefined ? { chatId: to } : {}) }),
    );
  }

  /** The transcript, oldest first (docs/agent.md). */
  messages(chatId: string, limit = 50): Promise<Result<{ chatId: string; messages: TranscriptEntry[] }>> {
    return this.via(
      chatId,
      () => this.healed(this.conversation.messages(chatId, limit)),
      (n, to) => n.messages(to, limit),
    );
  }

  /** A prompt the queue gave up on: settle it failed and tell the chat in one sentence. */
  deadLetter(message: unknown): Promise<Result<null>> {
    return this.via(
      chatIdIn(message),
      () => this.healed(this.conversation.deadLetter(message)),
      (n, to) => n.deadLetter(withChat(message, to)),
    );
  }

  // ── What the user writes (docs/telegram.md) ───────────────────────────────────────────────────────────────

  /** Transcript mode: a message written through the admin API, as the chat's user (in reply to entry `replyTo`). */
  postUserMessage(chatId: string, text: string, replyTo: string | null = null): Promise<Result<{ messageId: string }>> {
    return this.via(
      chatId,
      () => this.healed(this.inbox.postUserMessage(chatId, text, replyTo)),
      (n, to) => n.postUserMessage(to, text, replyTo),
    );
  }

  /** Transcript mode: a button of a bot entry pressed, as the chat's user; the notice Telegram would show. */
  pressButton(chatId: string, data: string): Promise<Result<{ answer: string }>> {
    return this.via(
      chatId,
      () => this.healed(this.inbox.pressButton(chatId, data)),
      (n, to) => n.pressButton(to, data),
    );
  }

  /**
   * A Telegram update for this chat, checked at the edge (`botUsername`: the bot's, when the edge asked for it).
   * One for a basic group that has become a supergroup is late, and nothing.
   */
  handleUpdate(update: unknown, options: UpdateOptions = {}): Promise<Result<Handled>> {
    return this.via(
      null,
      () => this.healed(this.inbox.handleUpdate(update, options)),
      async () => ok({ handled: "moved" }),
    );
  }

  // ── Tests ──────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Moves this object's clock forward by `ms` (only where the test binding `CUCKOO_TEST_CLOCK=1` exists, so
   * never in production): the alarm and every part then see that time.
   */
  async testAdvanceClock(ms: number): Promise<number> {
    this.testOnly("testAdvanceClock");
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.clockOffsetMs += ms;
    return this.now();
  }

  /**
   * Stops this object's clock at `at` (not before its now; tests only, as `testAdvanceClock`), so that a test can
   * assert the exact instants a press or a command computes from now; `testAdvanceClock` still moves it.
   */
  async testFreezeClock(at: number): Promise<number> {
    this.testOnly("testFreezeClock");
    if (at < this.now()) throw new Error("the clock only moves forward");
    this.frozenAt = at;
    return at;
  }

  /**
   * The alarm's claims of every job due at this object's now, without their dispatch (tests only, as
   * `testAdvanceClock`): what a crash between the claim and the send leaves. Returns that now.
   */
  async testClaimDue(): Promise<number> {
    this.testOnly("testClaimDue");
    const now = this.now();
    this.firing.claimDue(now);
    return now;
  }

  /**
   * Step 1 of a move to supergroup `to` alone, the note `moving_to`, and the alarm armed for it (tests only, as
   * `testAdvanceClock`): what a crash right after that step leaves.
   */
  async testNoteMove(to: string): Promise<void> {
    this.testOnly("testNoteMove");
    this.moves.begin(to);
    await this.alarms.sync();
  }

  /**
   * Forgets what the stores keep in memory (tests only, as `testAdvanceClock`): the object is its database's only
   * writer, so a test that writes rows behind its back (a migration test) has it read them again.
   */
  async testForget(): Promise<void> {
    this.testOnly("testForget");
    this.forget();
  }

  /** The test RPCs exist only where the test binding `CUCKOO_TEST_CLOCK=1` does, so never in production. */
  private testOnly(name: string): void {
    if ((this.env as { CUCKOO_TEST_CLOCK?: string }).CUCKOO_TEST_CLOCK !== "1") throw new Error(`${name} exists only in tests`);
  }
}

/** The chat id a queue message names, if it is an object that names one. */
function chatIdIn(message: unknown): string | null {
  const chatId = typeof message === "object" && message !== null ? (message as { chatId?: unknown }).chatId : undefined;
  return typeof chatId === "string" ? chatId : null;
}

/** A queue message naming the supergroup its chat became. */
function withChat(message: unknown, chatId: string): unknown {
  return typeof message === "object" && message !== null ? { ...message, chatId } : message;
}
