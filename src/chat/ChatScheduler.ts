/**
 * @module The ChatScheduler Durable Object, one per chat (DESIGN §1, §5, §7): a table of contents. Each RPC
 * method hands off to one part — `jobs` (create, edit, cancel, pause, resume, run now, the zone), `firing`
 * (the alarm's claims and dispatch, watcher outcomes), `conversation` (run gate, deliver, transcript, dead
 * letters), `turns` (whose turn a gate token stands for), `inbox` (what the user writes) and `outbox` (Telegram) — and then self-heals the one alarm.
 * Parts get what they use through their constructors; none holds the object. Methods return results for
 * expected failures and never throw for input; `alarm()` never throws.
 */
import { DurableObject } from "cloudflare:workers";
import { loadConfig } from "../config";
import { CHAT_ID } from "../contracts/ids";
import type { PromptMessage } from "../contracts/prompt-message";
import type { CreateJobInput, EditJobInput, Job, JobFilter, JobList, Run } from "../schemas/jobs";
import type { CreatedBy } from "../schemas/jobs";
import { err, ok, type Result } from "../result";
import { chatRunId, runnerOutcome, type RunnerOutcome } from "../contracts/runner";
import { firstSentence, sentenceFor } from "../sentence";
import { deliverArgs, gateSettleArgs, turnAnswerArgs, turnFailureArgs, turnStepArgs } from "../schemas/agent";
import type { ChatSettings, QuietAnswer, TranscriptEntry, ZoneChange } from "../schemas/chats";
import type { MemoryCreateInput, MemoryRecord, MemoryUpdateInput } from "../schemas/memory";
import type { ImportBatch, ImportReply } from "../schemas/import";
import { NOT_THE_TURN, type TurnPolicy } from "../schemas/tools";
import { Inbox, type Handled } from "./inbox";
import { TelegramOutbox } from "./outbox";
import { AlarmClock } from "./alarm";
import { Conversation, type OfferOptions, type OfferResult } from "./conversation";
import type { NextPrompt, StepRecord, TurnAnswer, TurnFailure } from "../contracts/turn";
import { Deliveries } from "./deliveries";
import { Directory } from "./directory";
import { Firing } from "./firing";
import { RunGate } from "./gate";
import { ChatInfo } from "./info";
import { JobOps } from "./jobs";
import { MemoryOps, type Deleted } from "./memory";
import { Imports } from "./imports";
import { RunSettler } from "./settle";
import type { Db } from "./store/db";
import { GateStore } from "./store/gate";
import { JobStore } from "./store/jobs";
import { MemoryStore } from "./store/memory";
import { ImportStore } from "./store/imports";
import { JobSourceStore } from "./store/job-sources";
import { OfferStore } from "./store/offers";
import { OutboxStore } from "./store/outbox";
import { RunStore } from "./store/runs";
import { migrate } from "./store/schema";
import { SettingsStore } from "./store/settings";
import { TranscriptStore } from "./store/transcript";
import { TurnStepStore } from "./store/turn-steps";
import { UserPromptStore } from "./store/user-prompts";
import { UsageStore } from "./store/usage";
import { DirectoryStore } from "./store/directory";
import { TurnRights } from "./turns";
import { ModelTurns } from "./model-turns";
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
  private readonly memory: MemoryOps;
  private readonly imports: Imports;
  protected readonly directory: Directory;
  private readonly turns: TurnRights;

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
        for (const store of this.remembering) store.forget();
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
    const deliveries = new Deliveries(transcript, outboxStore, info);
    const directory = new Directory({ db: () => this.env.DB, store: new DirectoryStore(this.db), jobs: jobStore, info, now, transaction });
    this.directory = directory;
    this.remembering = [...this.remembering, directory];
    const settler = new RunSettler(jobStore, runs, deliveries, transaction);
    settler.onEnded((runId, status) => this.runEnded(runId, status));
    const gate = new RunGate(gateStore, (key) => transcript.delivered(key));
    this.alarms = new AlarmClock({ storage: ctx.storage, jobs: jobStore, runs, gate: gateStore, outbox: outboxStore, userPrompts, info, directory });
    this.watchers = new Watchers({ jobs: jobStore, runs, info, deliveries, usage, settler, env: currentEnv, config: loaded, now, transaction, waitUntil: (p) => ctx.waitUntil(p) });
    this.firing = new Firing({ jobs: jobStore, runs, info, gate, delivered: (key) => transcript.delivered(key), watchers: this.watchers, settler, memory: memoryStore, deliveries, env: currentEnv, config: loaded, now, transaction });
    this.turns = new TurnRights({ gate: gateStore, jobs: jobStore, settings, info, now });
    this.jobs = new JobOps({ jobs: jobStore, memory: memoryStore, runs, settings, info, firing: this.firing, watchers: this.watchers, turns: this.turns, config, now, transaction });
    this.memory = new MemoryOps({ memory: memoryStore, jobs: jobStore, info, now, transaction });
    this.imports = new Imports({ imports: new ImportStore(this.db), jobOps: this.jobs, info, now });
    const modelTurns = new ModelTurns({ gate, steps: new TurnStepStore(this.db), runs, now, transaction });
    this.conversation = new Conversation({ jobs: jobStore, usage, config, userPrompts, runs, gateStore, gate, transcript, deliveries, settler, turns: modelTurns, info, env: currentEnv, now, transaction });
    this.inbox = new Inbox({ transcript, userPrompts, offers: new OfferStore(this.db), jobSources: new JobSourceStore(this.db), info, deliveries, jobs: this.jobs, env: currentEnv, config, now, transaction });
    this.outbox = new TelegramOutbox({ outbox: outboxStore, transcript, info, config, now });
  }

  /**
   * Each run that ends, whatever ends it (the gate's settle, a duplicate offer, a lease that ran out, a dead
   * letter, a watcher's outcome), inside the transaction that ends it: nothing here; the bench's subclass
   * (bench/fire-worker.ts) counts them.
   */
  protected runEnded(_runId: string, _status: string): void {}

  /** Every RPC entry self-heals: work pending and no alarm set → arm it (DESIGN §5). */
  private async healed<T>(result: T | Promise<T>): Promise<T> {
    const value = await result;
    // The directory after the object's own write; a failed D1 write marks a retry that the alarm comes back for.
    await this.directory.sync();
    await this.alarms.sync();
    return value;
  }

  /** Fires due jobs, expires leases, dispatches claimed runs, re-sends a waiting or lost prompt, sends the outbox; re-arms. */
  override async alarm(): Promise<void> {
    await this.alarms.run(this.now(), [
      { name: "firing", run: (now) => this.firing.tick(now) },
      { name: "the run gate", run: (now) => this.conversation.resendPending(now) },
      { name: "lost user messages", run: (now) => this.conversation.resendLost(now) },
      { name: "the outbox", run: () => this.outbox.tick() },
      { name: "the directory", run: async () => (await this.directory.sync(), false) },
    ]);
  }

  /** Liveness: answers "pong" and touches nothing. */
  async ping(): Promise<"pong"> {
    return "pong";
  }

  // ── Jobs and settings (DESIGN §3–§5) ──────────────────────────────────────────────────────────────

  getSettings(chatId: string): Promise<Result<ChatSettings>> {
    return this.healed(this.jobs.getSettings(chatId));
  }

  setTimeZone(chatId: string, zone: string | null): Promise<Result<ZoneChange>> {
    return this.healed(this.jobs.setTimeZone(chatId, zone));
  }

  /** The chat's quiet hours (DESIGN §6), or null. */
  getQuiet(chatId: string): Promise<Result<QuietAnswer>> {
    return this.healed(this.jobs.getQuiet(chatId));
  }

  /** Sets (`{ quiet: { from, to } }`) or clears (`{ quiet: null }`) the chat's quiet hours. */
  setQuiet(chatId: string, body: QuietAnswer): Promise<Result<QuietAnswer>> {
    return this.healed(this.jobs.setQuiet(chatId, body));
  }

  listJobs(chatId: string, filter: JobFilter = {}): Promise<Result<JobList>> {
    return this.healed(this.jobs.list(chatId, filter));
  }

  getJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.healed(this.jobs.get(chatId, id));
  }

  /** `followUpOf`: the run gate token of the job's or watcher's turn whose one follow-up this is (over HTTP or MCP). */
  createJob(chatId: string, input: CreateJobInput, createdBy: CreatedBy, options: { followUpOf?: string } = {}): Promise<Result<Job>> {
    const followUpOf = typeof options?.followUpOf === "string" ? options.followUpOf : undefined;
    return this.healed(this.jobs.create(chatId, input, createdBy, followUpOf === undefined ? {} : { followUpOf }));
  }

  editJob(chatId: string, id: string, input: EditJobInput): Promise<Result<Job>> {
    return this.healed(this.jobs.edit(chatId, id, input));
  }

  cancelJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.healed(this.jobs.cancel(chatId, id));
  }

  pauseJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.healed(this.jobs.pause(chatId, id));
  }

  resumeJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.healed(this.jobs.resume(chatId, id));
  }

  /** Skip (DESIGN §3): a recurring job's next occurrence passed over; `skipped` is that occurrence. */
  skipJob(chatId: string, id: string): Promise<Result<{ job: Job; skipped: string }>> {
    return this.healed(this.jobs.skip(chatId, id));
  }

  runJobNow(chatId: string, id: string): Promise<Result<Job>> {
    return this.healed(this.jobs.runNow(chatId, id));
  }

  jobRuns(chatId: string, id: string): Promise<Result<Run[]>> {
    return this.healed(this.jobs.runs(chatId, id));
  }

  /** Jobs read from a store Cuckoo replaces (DESIGN §10 `POST /admin/import`), created once per source id. */
  importJobs(chatId: string, batch: ImportBatch): Promise<Result<ImportReply>> {
    return this.healed(this.imports.importJobs(chatId, batch));
  }

  // ── Memory records (DESIGN §9, §10) ───────────────────────────────────────────────────────────────

  listMemory(chatId: string): Promise<Result<MemoryRecord[]>> {
    return this.healed(this.memory.list(chatId));
  }

  getMemory(chatId: string, id: string): Promise<Result<MemoryRecord>> {
    return this.healed(this.memory.get(chatId, id));
  }

  createMemory(chatId: string, input: MemoryCreateInput): Promise<Result<MemoryRecord>> {
    return this.healed(this.memory.create(chatId, input));
  }

  updateMemory(chatId: string, id: string, input: MemoryUpdateInput): Promise<Result<MemoryRecord>> {
    return this.healed(this.memory.update(chatId, id, input));
  }

  deleteMemory(chatId: string, id: string): Promise<Result<Deleted>> {
    return this.healed(this.memory.delete(chatId, id));
  }

  /**
   * The runner's outcome of one of this chat's runs (DESIGN §8 callback). Taken only by a run still waiting
   * for the runner; anything else (unknown, settled, cancelled, a dry run) is ignored: `{ taken: false }`.
   */
  async runnerOutcome(chatId: string, input: RunnerOutcome): Promise<Result<{ taken: boolean }>> {
    // Only an object bound to this chat has runs; an erased or never-used one writes nothing.
    if (this.info.chatId() !== chatId) return ok({ taken: false });
    const parsed = runnerOutcome().safeParse(input, { error: sentenceFor });
    if (!parsed.success) return err("bad_request", firstSentence(parsed.error));
    const runId = chatRunId(chatId, parsed.data.runId);
    return this.healed(ok({ taken: runId !== null && (await this.firing.outcome(runId, parsed.data, this.now())) }));
  }

  /** Erases the chat: running watchers killed, every table, the alarm (DESIGN §10 `DELETE /admin/chats/:chatId`). */
  async erase(chatId: string): Promise<Result<null>> {
    if (!CHAT_ID.test(chatId)) return err("bad_request", `"${chatId.slice(0, 40)}" is not a Telegram chat id.`);
    await this.watchers.kill(this.watchers.running());
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    for (const store of this.remembering) store.forget();
    migrate(this.ctx.storage.sql);
    return ok(null);
  }

  /** Writes this chat's rows in the D1 directory again from scratch (after a restore); false when D1 did not take them. */
  rebuildDirectory(chatId: string): Promise<boolean> {
    // Healed: a rebuild that did not land arms the alarm for its retry.
    return this.healed(this.directory.rebuild(chatId));
  }

  // ── Conversation: run gate, deliver, transcript (DESIGN §7) ────────────────────────────────────────

  /**
   * A consumer offers a queue message: `duplicate`, `queued` (stored for the holder), or `run` with a token
   * (and a model turn's context when asked); with an answer already known, `done` and the next prompt.
   */
  gateOffer(message: unknown, options: OfferOptions = {}): Promise<Result<OfferResult>> {
    if (options.answer !== undefined) {
      const answer = turnAnswerArgs().safeParse(options.answer, { error: sentenceFor });
      if (!answer.success) return Promise.resolve(err("bad_request", firstSentence(answer.error)));
    }
    return this.healed(this.conversation.offer(message, options));
  }

  /** The holder is done with `key`: reply, tool calls, settle and the next prompt, in one call (DESIGN §7). */
  gateFinish(token: string, key: string, answer: TurnAnswer, model = false): Promise<Result<{ delivered: boolean; next: NextPrompt | null }>> {
    const args = gateSettleArgs().safeParse({ token, key, status: answer?.status, detail: answer?.detail ?? null }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    const parsed = turnAnswerArgs().safeParse(answer, { error: sentenceFor });
    if (!parsed.success) return Promise.resolve(err("bad_request", firstSentence(parsed.error)));
    return this.healed(this.conversation.finish(token, key, answer, model));
  }

  /** The holder records a step of its model turn: the model's answer before its tools run, or their results. */
  gateStep(token: string, key: string, record: StepRecord): Promise<Result<null>> {
    const args = gateSettleArgs().pick({ token: true, key: true }).safeParse({ token, key }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    const parsed = turnStepArgs().safeParse(record, { error: sentenceFor });
    if (!parsed.success) return Promise.resolve(err("bad_request", firstSentence(parsed.error)));
    return this.healed(this.conversation.step(token, key, parsed.data));
  }

  /** The holder's try of its model turn failed: the turn waits for its next try, or after the fifth the chat is told. */
  gateRetry(token: string, key: string, failure: TurnFailure): Promise<Result<{ retryAt: number | null; next: NextPrompt | null }>> {
    const args = gateSettleArgs().pick({ token: true, key: true }).safeParse({ token, key }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    const parsed = turnFailureArgs().safeParse(failure, { error: sentenceFor });
    if (!parsed.success) return Promise.resolve(err("bad_request", firstSentence(parsed.error)));
    return this.healed(this.conversation.retry(token, key, parsed.data));
  }

  /** The holder's next prompt (the oldest pending one), or null, which releases the gate. */
  gateNext(token: string): Promise<Result<{ message: PromptMessage | null }>> {
    return this.healed(this.conversation.next(token));
  }

  /** The holder is done with `key`: a job's key settles its run; a user's key only renews the lease. */
  gateSettle(token: string, key: string, status: "delivered" | "failed", detail: string | null = null): Promise<Result<null>> {
    const args = gateSettleArgs().safeParse({ token, key, status, detail }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    return this.healed(this.conversation.settle(token, key, status, detail));
  }

  /** The holder gives up after a transient error: its prompt goes back first in line and the gate is free. */
  gateRelease(token: string): Promise<Result<null>> {
    return this.healed(this.conversation.release(token));
  }

  /**
   * Whose turn a run gate token stands for (DESIGN §9 `X-Cuckoo-Turn`): a user's, or a job's or watcher's with
   * the follow-ups it may still create; a token that does not hold the gate now is the one sentence.
   */
  turnRights(chatId: string, token: string): Promise<Result<TurnPolicy>> {
    if (typeof token !== "string") return Promise.resolve(err("bad_request", NOT_THE_TURN));
    return this.healed(this.turns.rights(chatId, token));
  }

  /** Delivers a message to the chat: transcript entry and outbox row, once per key (DESIGN §1). */
  deliver(key: string, markdown: string, options: { prompt?: string | null; chatId?: string } = {}): Promise<Result<{ delivered: boolean }>> {
    const args = deliverArgs().safeParse({ key, markdown, prompt: options.prompt ?? null }, { error: sentenceFor });
    if (!args.success) return Promise.resolve(err("bad_request", firstSentence(args.error)));
    return this.healed(this.conversation.deliver(key, markdown, options.prompt ?? null, options.chatId ?? null));
  }

  /** The transcript, oldest first (DESIGN §7). */
  messages(chatId: string, limit = 50): Promise<Result<{ chatId: string; messages: TranscriptEntry[] }>> {
    return this.healed(this.conversation.messages(chatId, limit));
  }

  /** A prompt the queue gave up on: settle it failed and tell the chat in one sentence. */
  deadLetter(message: unknown): Promise<Result<null>> {
    return this.healed(this.conversation.deadLetter(message));
  }

  // ── What the user writes (DESIGN §6) ───────────────────────────────────────────────────────────────

  /** Transcript mode: a message written through the admin API, as the chat's user (in reply to entry `replyTo`). */
  postUserMessage(chatId: string, text: string, replyTo: string | null = null): Promise<Result<{ messageId: string }>> {
    return this.healed(this.inbox.postUserMessage(chatId, text, replyTo));
  }

  /** Transcript mode: a button of a bot entry pressed, as the chat's user; the notice Telegram would show. */
  pressButton(chatId: string, data: string): Promise<Result<{ answer: string }>> {
    return this.healed(this.inbox.pressButton(chatId, data));
  }

  /** A Telegram update for this chat, checked at the edge. */
  handleUpdate(update: unknown): Promise<Result<Handled>> {
    return this.healed(this.inbox.handleUpdate(update));
  }

  // ── Tests ──────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Moves this object's clock forward by `ms` (only where the test binding `CUCKOO_TEST_CLOCK=1` exists, so
   * never in production): the alarm and every part then see that time.
   */
  async testAdvanceClock(ms: number): Promise<number> {
    if ((this.env as { CUCKOO_TEST_CLOCK?: string }).CUCKOO_TEST_CLOCK !== "1") throw new Error("testAdvanceClock exists only in tests");
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.clockOffsetMs += ms;
    return this.now();
  }

  /**
   * Stops this object's clock at `at` (not before its now; tests only, as `testAdvanceClock`), so that a test can
   * assert the exact instants a press or a command computes from now; `testAdvanceClock` still moves it.
   */
  async testFreezeClock(at: number): Promise<number> {
    if ((this.env as { CUCKOO_TEST_CLOCK?: string }).CUCKOO_TEST_CLOCK !== "1") throw new Error("testFreezeClock exists only in tests");
    if (at < this.now()) throw new Error("the clock only moves forward");
    this.frozenAt = at;
    return at;
  }

}
