/**
 * @module The ChatScheduler Durable Object, one per chat (docs/design/0008-layout.md, docs/api.md, docs/agent.md): a
 * table of contents. Each RPC method hands off in one line to one part — `jobs` (create, edit, cancel, pause,
 * resume, skip, run now), `settings` (the zone, quiet hours), `firing` (watcher outcomes), `conversation` (the run
 * gate), `replies` (deliver, the transcript), `deadLetters`, `turns` (whose turn a gate token stands for), `inbox`
 * (what the user writes), `members` (who may change what in a group) and `moves` (a group becoming a supergroup) —
 * then self-heals the one alarm. The parts are built by the composition root (`compose.ts`) from the object's state,
 * env and clock; none holds the object. Once the chat moved to a supergroup, a call naming it is the supergroup's
 * object's (`routes.ts`). Methods return results for expected failures and never throw for input; `alarm()` never
 * throws.
 */
import { DurableObject } from "cloudflare:workers";
import { loadConfig } from "../config";
import type { PromptMessage } from "../contracts/prompt-message";
import type { RunnerOutcome } from "../contracts/runner";
import type { NextPrompt, StepRecord, TurnAnswer, TurnFailure } from "../contracts/turn";
import type { HookAnswer, HookCallInput } from "../hooks/answer";
import { ok, type Result } from "../result";
import type { AgendaAnswer, ChatSettings, ModelAnswer, QuietAnswer, TranscriptEntry, ZoneChange } from "../schemas/chats";
import type { ImportBatch, ImportReply } from "../schemas/import";
import type { CreatedBy, CreateJobInput, EditJobInput, Job, JobFilter, JobList, Run } from "../schemas/jobs";
import type { MemoryCreateInput, MemoryRecord, MemoryUpdateInput } from "../schemas/memory";
import type { TurnPolicy } from "../schemas/tools";
import { type ChatParts, composeChat } from "./compose";
import type { OfferOptions, OfferResult } from "./conversation";
import type { Handled, UpdateOptions } from "./inbox";
import type { CreateOptions } from "./jobs";
import type { MemberCheck } from "./members";
import type { Deleted } from "./memory";
import type { Unconfirmed } from "./moves";
import type { DeliverOptions } from "./replies";
import { answered, byChat, byDeliverOptions, byMessage, byToken, keepingChat, type Route } from "./routes";
import type { MoveChunk } from "./store/moves";

/**
 * An RPC's answer handed on as this object's own: a plain copy, and the original's disposer run. Returned as it
 * came, the answer would carry that disposer to the caller, whose runtime then asks for it to be disposed and
 * warns when the garbage collector finds it was not ("An RPC result was not disposed properly").
 */
function byValue<T>(answer: T): T {
  const key = (Symbol as { dispose?: symbol }).dispose;
  const dispose = key !== undefined && answer !== null && typeof answer === "object" ? (answer as Record<symbol, unknown>)[key] : undefined;
  if (typeof dispose !== "function") return answer;
  const copy = structuredClone(answer);
  dispose.call(answer);
  return copy;
}

/** The object's RPC methods, by name, and their arguments. */
type Rpc = { [K in keyof ChatScheduler]-?: ChatScheduler[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof ChatScheduler];
type ArgsOf<K extends Rpc> = ChatScheduler[K] extends (...args: infer A) => unknown ? A : never;

export class ChatScheduler extends DurableObject<Env> {
  /** The object's parts (compose.ts); a subclass (the worker tests', the bench's) reaches them here. */
  protected readonly parts: ChatParts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The env is read on each use, never kept: tests replace vars and the queue binding on the live instance.
    this.parts = composeChat({ ctx, env: () => this.env, now: () => this.now(), runEnded: (runId, status) => this.runEnded(runId, status) });
  }

  /**
   * The one clock of the object and its parts: the machine's, ahead by CUCKOO_DEV_CLOCK_OFFSET in local dev (the
   * worker tests' subclass moves its own).
   */
  protected now(): number {
    return Date.now() + loadConfig(this.env).config.clockOffsetMs;
  }

  /**
   * Each run that ends, whatever ends it (the gate's settle, a duplicate offer, a lease that ran out, a dead
   * letter, a watcher's outcome), inside the transaction that ends it: nothing here; the bench's subclass
   * (bench/fire-worker.ts) counts them.
   */
  protected runEnded(_runId: string, _status: string): void {}

  /**
   * A call of `method` with `args`, answered `here` and self-healed; or, once this chat moved to a supergroup, asked
   * of the supergroup's object as `route` says (docs/telegram.md#groups-and-topics). An unfinished move is finished first.
   */
  private async routed<K extends Rpc, T>(method: K, args: ArgsOf<K>, here: () => T | Promise<T>, route: Route = byChat): Promise<T> {
    const { chatId, there } = route(args);
    const to = await this.parts.moves.forwarding(chatId);
    if (to === null) return this.parts.heal(here());
    if (typeof there !== "function") return there.answer as T;
    // The supergroup's object answers the same method with the same result type (RPC hands it back by value).
    const next = this.env.CHAT.getByName(to) as unknown as Record<K, (...args: unknown[]) => Promise<T>>;
    return byValue(await next[method](...there(to)));
  }

  /** Fires due jobs, expires leases, dispatches claimed runs, re-sends a waiting or lost prompt, sends the outbox; re-arms. */
  override async alarm(): Promise<void> {
    await this.parts.alarm(this.now());
  }

  /** Liveness: answers "pong" and touches nothing. */
  async ping(): Promise<"pong"> {
    return "pong";
  }

  // ── Jobs and settings (docs/api.md, docs/time.md) ──────────────────────────────────────────────────────────────

  getSettings(chatId: string): Promise<Result<ChatSettings>> {
    return this.routed("getSettings", [chatId], () => this.parts.settings.getSettings(chatId));
  }

  setTimeZone(chatId: string, zone: string | null): Promise<Result<ZoneChange>> {
    return this.routed("setTimeZone", [chatId, zone], () => this.parts.settings.setTimeZone(chatId, zone));
  }

  /** The chat's model (docs/agent.md#models): its own, the one its turns run on, the choices. */
  getModel(chatId: string): Promise<Result<ModelAnswer>> {
    return this.routed("getModel", [chatId], () => this.parts.settings.getModel(chatId));
  }

  /** Sets the chat's model (one of the bot's), or with null goes back to the bot's default. */
  setModel(chatId: string, model: string | null): Promise<Result<ModelAnswer>> {
    return this.routed("setModel", [chatId, model], () => this.parts.settings.setModel(chatId, model));
  }

  /** The chat's daily agenda (docs/telegram.md#agenda): its time of day, or null, and when the next is sent. */
  getAgenda(chatId: string): Promise<Result<AgendaAnswer>> {
    return this.routed("getAgenda", [chatId], () => this.parts.agenda.get(chatId));
  }

  /** Sets the daily agenda's time of day (`HH:mm`), or with null stops it. */
  setAgenda(chatId: string, agenda: string | null): Promise<Result<AgendaAnswer>> {
    return this.routed("setAgenda", [chatId, agenda], () => this.parts.agenda.set(chatId, agenda));
  }

  /** The chat's quiet hours (docs/telegram.md), or null. */
  getQuiet(chatId: string): Promise<Result<QuietAnswer>> {
    return this.routed("getQuiet", [chatId], () => this.parts.settings.getQuiet(chatId));
  }

  /** Sets (`{ quiet: { from, to } }`) or clears (`{ quiet: null }`) the chat's quiet hours. */
  setQuiet(chatId: string, body: QuietAnswer): Promise<Result<QuietAnswer>> {
    return this.routed("setQuiet", [chatId, body], () => this.parts.settings.setQuiet(chatId, body));
  }

  listJobs(chatId: string, filter: JobFilter = {}): Promise<Result<JobList>> {
    return this.routed("listJobs", [chatId, filter], () => this.parts.jobs.list(chatId, filter));
  }

  getJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.routed("getJob", [chatId, id], () => this.parts.jobs.get(chatId, id));
  }

  /**
   * `followUpOf`: the run gate token of the job's or watcher's turn whose one follow-up this is (over HTTP or MCP);
   * `threadId`: the forum topic the job is made in (its messages go there).
   */
  createJob(chatId: string, input: CreateJobInput, createdBy: CreatedBy, options: CreateOptions = {}): Promise<Result<Job>> {
    const { followUpOf, threadId } = options ?? {};
    return this.routed("createJob", [chatId, input, createdBy, options], () => this.parts.jobs.create(chatId, input, createdBy, { followUpOf, threadId }));
  }

  /** `createJob`, and the token of the hook a job only its hook runs is made with (docs/hooks.md; null for any other). */
  createJobWithHook(
    chatId: string,
    input: CreateJobInput,
    createdBy: CreatedBy,
    options: CreateOptions = {},
  ): Promise<Result<{ job: Job; token: string | null }>> {
    const { followUpOf, threadId } = options ?? {};
    return this.routed("createJobWithHook", [chatId, input, createdBy, options], () =>
      this.parts.jobs.createWithHook(chatId, input, createdBy, { followUpOf, threadId }),
    );
  }

  /** Makes or replaces job `id`'s hook (docs/hooks.md); the token is answered once and never kept. */
  makeHook(chatId: string, id: string): Promise<Result<{ token: string }>> {
    return this.routed("makeHook", [chatId, id], () => this.parts.hooks.make(chatId, id));
  }

  /** Revokes job `id`'s hook; `had` says whether it had one. */
  revokeHook(chatId: string, id: string): Promise<Result<{ had: boolean }>> {
    return this.routed("revokeHook", [chatId, id], () => this.parts.hooks.revoke(chatId, id));
  }

  /** A call of the hook whose token hashes to `hash`, or a mail to it (docs/hooks.md): its run id, or why not. */
  hookCall(chatId: string, hash: string, input: HookCallInput): Promise<HookAnswer> {
    return this.routed("hookCall", [chatId, hash, input], () => this.parts.hooks.call(chatId, hash, input));
  }

  /** Makes or replaces the chat's calendar feed address (docs/calendar.md); the token is answered once and never kept. */
  makeCalendar(chatId: string): Promise<Result<{ token: string }>> {
    return this.routed("makeCalendar", [chatId], () => this.parts.calendar.make(chatId));
  }

  /** Revokes the chat's calendar feed address; `had` says whether it had one. */
  revokeCalendar(chatId: string): Promise<Result<{ had: boolean }>> {
    return this.routed("revokeCalendar", [chatId], () => this.parts.calendar.revoke(chatId));
  }

  /** Whether the chat has a calendar feed address. */
  hasCalendar(chatId: string): Promise<Result<{ calendar: boolean }>> {
    return this.routed("hasCalendar", [chatId], () => this.parts.calendar.has(chatId));
  }

  /** The chat's calendar feed, when its address hashes to `hash`; `host` makes its UIDs unique. */
  calendarFeed(chatId: string, hash: string, host: string): Promise<Result<{ ics: string }>> {
    return this.routed("calendarFeed", [chatId, hash, host], () => this.parts.calendar.feed(chatId, hash, host));
  }

  editJob(chatId: string, id: string, input: EditJobInput): Promise<Result<Job>> {
    return this.routed("editJob", [chatId, id, input], () => this.parts.jobs.edit(chatId, id, input));
  }

  cancelJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.routed("cancelJob", [chatId, id], () => this.parts.jobs.cancel(chatId, id));
  }

  pauseJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.routed("pauseJob", [chatId, id], () => this.parts.jobs.pause(chatId, id));
  }

  resumeJob(chatId: string, id: string): Promise<Result<Job>> {
    return this.routed("resumeJob", [chatId, id], () => this.parts.jobs.resume(chatId, id));
  }

  /** Skip (docs/api.md#jobs): a recurring job's next occurrence passed over; `skipped` is that occurrence. */
  skipJob(chatId: string, id: string): Promise<Result<{ job: Job; skipped: string }>> {
    return this.routed("skipJob", [chatId, id], () => this.parts.jobs.skip(chatId, id));
  }

  runJobNow(chatId: string, id: string): Promise<Result<Job>> {
    return this.routed("runJobNow", [chatId, id], () => this.parts.jobs.runNow(chatId, id));
  }

  jobRuns(chatId: string, id: string): Promise<Result<Run[]>> {
    return this.routed("jobRuns", [chatId, id], () => this.parts.jobs.runs(chatId, id));
  }

  /** Jobs read from a store Cuckoo replaces (docs/api.md `POST /admin/import`), created once per source id. */
  importJobs(chatId: string, batch: ImportBatch): Promise<Result<ImportReply>> {
    return this.routed("importJobs", [chatId, batch], () => this.parts.imports.importJobs(chatId, batch));
  }

  // ── Memory records (docs/api.md) ───────────────────────────────────────────────────────────────

  listMemory(chatId: string): Promise<Result<MemoryRecord[]>> {
    return this.routed("listMemory", [chatId], () => this.parts.memory.list(chatId));
  }

  getMemory(chatId: string, id: string): Promise<Result<MemoryRecord>> {
    return this.routed("getMemory", [chatId, id], () => this.parts.memory.get(chatId, id));
  }

  createMemory(chatId: string, input: MemoryCreateInput): Promise<Result<MemoryRecord>> {
    return this.routed("createMemory", [chatId, input], () => this.parts.memory.create(chatId, input));
  }

  updateMemory(chatId: string, id: string, input: MemoryUpdateInput): Promise<Result<MemoryRecord>> {
    return this.routed("updateMemory", [chatId, id, input], () => this.parts.memory.update(chatId, id, input));
  }

  deleteMemory(chatId: string, id: string): Promise<Result<Deleted>> {
    return this.routed("deleteMemory", [chatId, id], () => this.parts.memory.delete(chatId, id));
  }

  /**
   * The runner's outcome of one of this chat's runs (docs/watchers.md callback): `{ taken: false }` unless a run still
   * waiting for the runner took it. A supergroup takes the outcomes of the runs its basic group started.
   */
  runnerOutcome(chatId: string, input: RunnerOutcome): Promise<Result<{ taken: boolean }>> {
    return this.routed("runnerOutcome", [chatId, input], () => this.parts.firing.outcome(chatId, input), keepingChat);
  }

  /** Erases the chat: running watchers killed, every table, the alarm (docs/api.md `DELETE /admin/chats/:chatId`). */
  erase(chatId: string): Promise<Result<null>> {
    return this.parts.erase(chatId);
  }

  /** Writes this chat's rows in the D1 directory again from scratch (after a restore); false when D1 did not take them. */
  rebuildDirectory(chatId: string): Promise<boolean> {
    // Healed: a rebuild that did not land arms the alarm for its retry.
    return this.parts.heal(this.parts.directory.rebuild(chatId));
  }

  // ── Groups (docs/telegram.md#groups-and-topics) ──────────────────────────────────────────────────────────

  /** Whether `userId` may change this chat's jobs and settings (a group's admins and listed users). */
  mayChange(chatId: string, userId: string): Promise<Result<boolean>> {
    return this.routed("mayChange", [chatId, userId], () => this.parts.members.mayChangeIn(chatId, userId));
  }

  /** `userId`'s place in this chat (a group's: what getChatMember says, asked again when older than `maxAgeMs`, at most 10 minutes). */
  memberRole(chatId: string, userId: string, maxAgeMs?: number): Promise<Result<MemberCheck>> {
    return this.routed("memberRole", [chatId, userId, maxAgeMs], () => this.parts.members.roleIn(chatId, userId, maxAgeMs));
  }

  /** This basic group became supergroup `to`: its state moves there and this object keeps a forwarding note. */
  moveTo(chatId: string, to: string): Promise<Result<{ movedTo: string }> | Unconfirmed> {
    return this.parts.heal(this.parts.moves.moveTo(chatId, to));
  }

  /** The supergroup's side of a move: a chunk of the basic group's state (the last one takes them all). */
  acceptMove(chatId: string, from: string, chunk: MoveChunk): Promise<Result<{ done: boolean }>> {
    return this.parts.heal(this.parts.moves.accept(chatId, from, chunk));
  }

  // ── Conversation: run gate, deliver, transcript (docs/agent.md) ────────────────────────────────────────

  /**
   * A consumer offers a queue message: `duplicate`, `queued` (stored for the holder), or `run` with a token
   * (and a model turn's context when asked); with an answer already known, `done` and the next prompt.
   */
  gateOffer(message: unknown, options: OfferOptions = {}): Promise<Result<OfferResult>> {
    return this.routed("gateOffer", [message, options], () => this.parts.speaking(() => this.parts.conversation.offer(message, options)), byMessage);
  }

  /** The holder is done with `key`: reply, tool calls, settle and the next prompt, in one call (docs/agent.md). */
  gateFinish(token: string, key: string, answer: TurnAnswer, model = false): Promise<Result<{ delivered: boolean; next: NextPrompt | null }>> {
    return this.routed(
      "gateFinish",
      [token, key, answer, model],
      () => this.parts.speaking(() => this.parts.conversation.finish(token, key, answer, model)),
      byToken,
    );
  }

  /** The holder records a step of its model turn: the model's answer before its tools run, or their results. */
  gateStep(token: string, key: string, record: StepRecord): Promise<Result<null>> {
    return this.routed("gateStep", [token, key, record], () => this.parts.conversation.step(token, key, record), byToken);
  }

  /** The holder's try of its model turn failed: the turn waits for its next try, or after the fifth the chat is told. */
  gateRetry(token: string, key: string, failure: TurnFailure): Promise<Result<{ retryAt: number | null; next: NextPrompt | null }>> {
    return this.routed("gateRetry", [token, key, failure], () => this.parts.speaking(() => this.parts.conversation.retry(token, key, failure)), byToken);
  }

  /** The holder's next prompt (the oldest pending one), or null, which releases the gate. */
  gateNext(token: string): Promise<Result<{ message: PromptMessage | null }>> {
    return this.routed("gateNext", [token], () => this.parts.conversation.next(token), byToken);
  }

  /** The holder is done with `key`: a job's key settles its run; a user's key only renews the lease. */
  gateSettle(token: string, key: string, status: "delivered" | "failed", detail: string | null = null): Promise<Result<null>> {
    return this.routed("gateSettle", [token, key, status, detail], () => this.parts.conversation.settle(token, key, status, detail), byToken);
  }

  /** The holder gives up after a transient error: its prompt goes back first in line and the gate is free. */
  gateRelease(token: string): Promise<Result<null>> {
    return this.routed("gateRelease", [token], () => this.parts.conversation.release(token), byToken);
  }

  /**
   * Whose turn a run gate token stands for (docs/api.md#tools-for-agents `X-Cuckoo-Turn`): a user's, or a job's or watcher's with
   * the follow-ups it may still create; a token that does not hold the gate now is the one sentence.
   */
  turnRights(chatId: string, token: string): Promise<Result<TurnPolicy>> {
    return this.routed("turnRights", [chatId, token], () => this.parts.turns.rights(chatId, token));
  }

  /** Delivers a message to the chat: transcript entry and outbox row, once per key (docs/design/0008-layout.md). */
  deliver(key: string, markdown: string, options: DeliverOptions = {}): Promise<Result<{ delivered: boolean }>> {
    return this.routed(
      "deliver",
      [key, markdown, options],
      () => this.parts.speaking(() => this.parts.replies.deliver(key, markdown, options)),
      byDeliverOptions,
    );
  }

  /** The transcript, oldest first (docs/agent.md). */
  messages(chatId: string, limit = 50): Promise<Result<{ chatId: string; messages: TranscriptEntry[] }>> {
    return this.routed("messages", [chatId, limit], () => this.parts.speaking(() => this.parts.replies.messages(chatId, limit)));
  }

  /** A prompt the queue gave up on: settle it failed and tell the chat in one sentence. */
  deadLetter(message: unknown): Promise<Result<null>> {
    return this.routed("deadLetter", [message], () => this.parts.deadLetters.deadLetter(message), byMessage);
  }

  // ── What the user writes (docs/telegram.md) ───────────────────────────────────────────────────────────────

  /** Transcript mode: a message written through the admin API, as the chat's user (in reply to entry `replyTo`). */
  postUserMessage(chatId: string, text: string, replyTo: string | null = null): Promise<Result<{ messageId: string }>> {
    return this.routed("postUserMessage", [chatId, text, replyTo], () => this.parts.inbox.postUserMessage(chatId, text, replyTo));
  }

  /** Transcript mode: a button of a bot entry pressed, as the chat's user; the notice Telegram would show. */
  pressButton(chatId: string, data: string): Promise<Result<{ answer: string }>> {
    return this.routed("pressButton", [chatId, data], () => this.parts.inbox.pressButton(chatId, data));
  }

  /**
   * A Telegram update for this chat, checked at the edge (`botUsername`: the bot's, when the edge asked for it).
   * One for a basic group that has become a supergroup is late, and nothing.
   */
  handleUpdate(update: unknown, options: UpdateOptions = {}): Promise<Result<Handled>> {
    return this.routed("handleUpdate", [update, options], () => this.parts.inbox.handleUpdate(update, options), answered(ok({ handled: "moved" })));
  }
}
