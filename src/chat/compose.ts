/**
 * @module The chat object's composition root (docs/design/0008-layout.md "The chat object's parts"): its stores and
 * parts built once from the object's state, its env and its clock, each part handed what it uses and none the
 * object; and the few steps made of several parts: the self-healing after every call, the alarm's ticks in
 * their order, the erase, and what the remembering stores forget.
 */
import { leaseMs, loadConfig } from "../config";
import { badChatIdText, CHAT_ID } from "../contracts/ids";
import { OFFER_DEADLINE_MS, PROMPT_LEASE_MS } from "../jobs/fire";
import { err, ok, type Result } from "../result";
import type { CommandHost } from "../telegram/host";
import { textsOf } from "../texts";
import { Agenda } from "./agenda";
import { AlarmClock } from "./alarm";
import { Calendar } from "./calendar";
import { Conversation } from "./conversation";
import { DeadLetters } from "./dead-letters";
import { Deliveries } from "./deliveries";
import { Directory } from "./directory";
import { Firing } from "./firing";
import { GATE_LEASE_MS, RunGate } from "./gate";
import { Hooks } from "./hooks";
import { Imports } from "./imports";
import { Inbox } from "./inbox";
import { ChatInfo } from "./info";
import { JobOps } from "./jobs";
import { MemberRights } from "./members";
import { MemoryOps } from "./memory";
import { ModelTurns } from "./model-turns";
import { ChatMoves } from "./moves";
import { Nags } from "./nags";
import { Notices } from "./notices";
import { TelegramOutbox } from "./outbox";
import { Replies } from "./replies";
import { Resends } from "./resends";
import { SettingsOps } from "./settings";
import { type RunEnded, RunSettler } from "./settle";
import type { Db } from "./store/db";
import { DirectoryStore } from "./store/directory";
import { GateStore } from "./store/gate";
import { HookStore } from "./store/hooks";
import { ImportStore } from "./store/imports";
import { JobSourceStore } from "./store/job-sources";
import { JobStore } from "./store/jobs";
import { MemberStore } from "./store/members";
import { MemoryStore } from "./store/memory";
import { MoveStore } from "./store/moves";
import { NagStore } from "./store/nags";
import { OfferStore } from "./store/offers";
import { OutboxStore } from "./store/outbox";
import { RunStore } from "./store/runs";
import { MIGRATIONS, migrate } from "./store/schema";
import { SettingsStore } from "./store/settings";
import { TranscriptStore } from "./store/transcript";
import { TurnStepStore } from "./store/turn-steps";
import { UsageStore } from "./store/usage";
import { UserPromptStore } from "./store/user-prompts";
import { TurnContexts } from "./turn-context";
import { TurnRights } from "./turns";
import { Watchers } from "./watchers";

/** What the parts are built from: the object's state, its env and clock (read on each use), and its hook for ended runs. */
export type ChatRoot = {
  ctx: DurableObjectState;
  /** The env is read on each use, never kept: tests replace vars and the queue binding on the live instance. */
  env: () => Env;
  now: () => number;
  /** Told of every run that ends, inside the transaction that ends it. */
  runEnded: RunEnded;
};

/** The chat object's parts, and the steps made of several. */
export type ChatParts = {
  info: ChatInfo;
  agenda: Agenda;
  calendar: Calendar;
  jobs: JobOps;
  settings: SettingsOps;
  imports: Imports;
  memory: MemoryOps;
  hooks: Hooks;
  firing: Firing;
  conversation: Conversation;
  replies: Replies;
  deadLetters: DeadLetters;
  turns: TurnRights;
  inbox: Inbox;
  members: MemberRights;
  moves: ChatMoves;
  directory: Directory;
  alarms: AlarmClock;
  /** Every RPC entry self-heals (docs/api.md#how-a-job-fires): the D1 directory and the alarm brought up to date after `value`. */
  heal<T>(value: T | Promise<T>): Promise<T>;
  /**
   * `work` once the chat's replies' table is loaded: for what writes a job's message (its buttons) inside a
   * synchronous step. English's is always there; another's is loaded on its first use.
   */
  speaking<T>(work: () => T | Promise<T>): Promise<T>;
  /** The alarm at `now`: every part's tick in its order, or an unfinished move alone. */
  alarm(now: number): Promise<void>;
  /** Erases the chat: running watchers killed, every table, the alarm (docs/api.md `DELETE /admin/chats/:chatId`). */
  erase(chatId: string): Promise<Result<null>>;
  /** What the remembering stores keep is read again (after a rolled-back transaction, an erase, a move). */
  forget(): void;
};

/** Builds the chat object's parts (the object's constructor calls it once). */
export function composeChat({ ctx, env, now, runEnded }: ChatRoot): ChatParts {
  const db: Db = { sql: ctx.storage.sql };
  const loaded = () => loadConfig(env());
  const config = () => loaded().config;
  ctx.blockConcurrencyWhile(async () => {
    migrate(ctx.storage.sql, MIGRATIONS.length, config().defaultTimeZone);
  });
  const settings = new SettingsStore(db);
  const outboxStore = new OutboxStore(db);
  const gateStore = new GateStore(db);
  const jobStore = new JobStore(db, now, settings.flag("has_notices"));
  const runs = new RunStore(db);
  const transcript = new TranscriptStore(db);
  const userPrompts = new UserPromptStore(db);
  const usage = new UsageStore(db);
  const memoryStore = new MemoryStore(db);
  const hookStore = new HookStore(db);
  const info = new ChatInfo(settings, config);
  // The stores that keep what they read in memory (the object is the database's only writer), and the directory.
  const nagStore = new NagStore(db, settings.flag("has_nags"));
  const remembering: { forget(): void }[] = [settings, outboxStore, gateStore];
  const forget = (): void => {
    for (const store of remembering) store.forget();
  };
  // A transaction that throws is rolled back: what it read or wrote is read again afterwards.
  const transaction = <T>(work: () => T): T => {
    try {
      return ctx.storage.transactionSync(work);
    } catch (error) {
      forget();
      throw error;
    }
  };
  const deliveries = new Deliveries(transcript, outboxStore, info, (jobId) => jobStore.threadOf(jobId));
  const directory = new Directory({ db: () => env().DB, store: new DirectoryStore(db), jobs: jobStore, info, now, transaction });
  remembering.push(directory);
  const settler = new RunSettler(jobStore, runs, deliveries, transaction);
  settler.onEnded(runEnded);
  const gate = new RunGate(gateStore, (key) => transcript.delivered(key), { leaseMs: () => leaseMs(GATE_LEASE_MS, config().speedup) });
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => ctx.blockConcurrencyWhile(work);
  // The supergroup a basic group's state moves to is that chat's object.
  const peer = (chatId: string) => env().CHAT.getByName(chatId);
  const moves = new ChatMoves({ store: new MoveStore(db), settings, info, peer, config, exclusive, transaction, forget, now });
  const agenda = new Agenda({ settings, info, jobs: jobStore, runs, deliveries, now, transaction });
  const calendar = new Calendar({ settings, info, jobs: jobStore, runs, now });
  const notices = new Notices({ jobs: jobStore, info, deliveries, transaction });
  const nags = new Nags({ nags: nagStore, transcript, outbox: outboxStore, deliveries, info, transaction });
  const alarms = new AlarmClock({
    storage: ctx.storage,
    jobs: jobStore,
    runs,
    gate: gateStore,
    outbox: outboxStore,
    userPrompts,
    info,
    directory,
    move: moves,
    hooks: hookStore,
    agenda,
    nags,
    ahead: () => config().clockOffsetMs,
  });
  const waitUntil = (promise: Promise<unknown>) => ctx.waitUntil(promise);
  const watchers = new Watchers({ jobs: jobStore, runs, info, deliveries, usage, settler, env, config: loaded, now, transaction, waitUntil });
  const delivered = (key: string) => transcript.delivered(key);
  const firing = new Firing({
    jobs: jobStore,
    runs,
    info,
    gate,
    delivered,
    watchers,
    settler,
    memory: memoryStore,
    deliveries,
    env,
    config: loaded,
    now,
    transaction,
  });
  const hooks = new Hooks({ jobs: jobStore, runs, hooks: hookStore, usage, memory: memoryStore, info, firing, deliveries, config, now, transaction });
  const turns = new TurnRights({ gate: gateStore, jobs: jobStore, settings, info, now });
  const jobs = new JobOps({ jobs: jobStore, memory: memoryStore, runs, info, firing, watchers, turns, config, now, transaction });
  const chatSettings = new SettingsOps({ settings, jobs: jobStore, runs, info, firing, agenda, config, now, transaction });
  const memory = new MemoryOps({ memory: memoryStore, jobs: jobStore, info, now, transaction });
  const imports = new Imports({ imports: new ImportStore(db), jobOps: jobs, settings: chatSettings, info, now });
  const promptLeaseMs = () => leaseMs(PROMPT_LEASE_MS, config().speedup);
  const modelTurns = new ModelTurns({ gate, steps: new TurnStepStore(db), runs, promptLeaseMs, now, transaction });
  const offerDeadlineMs = () => leaseMs(OFFER_DEADLINE_MS, config().speedup);
  const resends = new Resends({ gate, gateStore, userPrompts, deliveries, env, offerDeadlineMs, transaction });
  const replies = new Replies({ info, runs, jobs: jobStore, gateStore, transcript, deliveries, nags, now, transaction });
  const context = new TurnContexts({ transcript, jobs: jobStore, usage, turns: modelTurns, info, config });
  const conversation = new Conversation({
    runs,
    userPrompts,
    gateStore,
    gate,
    deliveries,
    settler,
    turns: modelTurns,
    info,
    context,
    replies,
    resends,
    now,
    transaction,
  });
  const deadLetters = new DeadLetters({
    info,
    runs,
    jobs: jobStore,
    deliveries,
    settler,
    gate,
    gateStore,
    turns: modelTurns,
    resends,
    config,
    now,
    transaction,
  });
  const members = new MemberRights({ store: new MemberStore(db), info, config, now });
  const inbox = new Inbox({
    transcript,
    userPrompts,
    offers: new OfferStore(db),
    jobSources: new JobSourceStore(db),
    info,
    deliveries,
    jobs: commandHost(jobs, chatSettings, hooks, agenda, calendar),
    rights: members,
    nags,
    env,
    config,
    now,
    transaction,
  });
  const outbox = new TelegramOutbox({
    outbox: outboxStore,
    transcript,
    info,
    config,
    now,
    leaveThread: (threadId) => jobStore.leaveThread(threadId),
    migrated: async (to) => {
      const from = info.chatId();
      if (from === null) return false;
      const moved = await moves.moveTo(from, to, "answered");
      if (!moved.ok) console.error(`chat ${from}: the move to ${to} a send was answered with was refused: ${moved.error.message}`);
      // A move that did not finish is tried again by the alarm, the message with it.
      return moved.ok || moves.moving() === to;
    },
  });

  return {
    info,
    agenda,
    calendar,
    jobs,
    settings: chatSettings,
    imports,
    memory,
    hooks,
    firing,
    conversation,
    replies,
    deadLetters,
    turns,
    inbox,
    members,
    moves,
    directory,
    alarms,
    async speaking<T>(work: () => T | Promise<T>): Promise<T> {
      await textsOf(info.language());
      return work();
    },
    async heal<T>(value: T | Promise<T>): Promise<T> {
      const result = await value;
      // The directory after the object's own write; a failed D1 write marks a retry that the alarm comes back for.
      await directory.sync();
      await alarms.sync();
      return result;
    },
    async alarm(at: number): Promise<void> {
      // A move that did not finish comes first, and alone: the state is on its way to the supergroup.
      if (moves.moving() !== null) return alarms.run(at, [{ name: "the move to a supergroup", run: (t) => moves.tick(t) }]);
      // What the alarm writes for the chat (the agenda, notices, copies, a message about missed runs) is written with
      // the rest of its transaction, in the chat's language: its table is loaded once, first (should that fail, the
      // alarm still runs, in English, and re-arms).
      await textsOf(info.language()).catch(() => undefined);
      await alarms.run(at, [
        // Before the firing: a job due at the agenda's own minute is still on it.
        { name: "the daily agenda", run: (t) => agenda.tick(t) },
        { name: "notices ahead of runs", run: (t) => notices.tick(t) },
        { name: "messages that nag", run: (t) => nags.tick(t) },
        { name: "firing", run: (t) => firing.tick(t) },
        { name: "hook calls waiting", run: (t) => hooks.tick(t) },
        { name: "the run gate", run: (t) => resends.resendPending(t) },
        { name: "lost user messages", run: (t) => resends.resendLost(t) },
        { name: "the outbox", run: () => outbox.tick() },
        {
          name: "the directory",
          run: async () => {
            await directory.sync();
            return false;
          },
        },
      ]);
    },
    async erase(chatId: string): Promise<Result<null>> {
      if (!CHAT_ID.test(chatId)) return err("bad_request", badChatIdText(chatId));
      await watchers.kill(watchers.running());
      await ctx.storage.deleteAlarm();
      await ctx.storage.deleteAll();
      forget();
      migrate(ctx.storage.sql, MIGRATIONS.length, config().defaultTimeZone);
      return ok(null);
    },
    forget,
  };
}

/** What the chat's commands are given (telegram/host.ts): its job operations and its settings, as the admin API has them. */
function commandHost(jobs: JobOps, settings: SettingsOps, hooks: Hooks, agenda: Agenda, calendar: Calendar): CommandHost {
  return {
    createWithHook: (chatId, input, createdBy, options) => jobs.createWithHook(chatId, input, createdBy, options),
    makeHook: (chatId, id) => hooks.make(chatId, id),
    revokeHook: (chatId, id) => hooks.revoke(chatId, id),
    makeCalendar: (chatId) => calendar.make(chatId),
    revokeCalendar: (chatId) => calendar.revoke(chatId),
    hasCalendar: (chatId) => calendar.has(chatId),
    list: (chatId, filter) => jobs.list(chatId, filter),
    get: (chatId, id) => jobs.get(chatId, id),
    create: (chatId, input, createdBy, options) => jobs.create(chatId, input, createdBy, options),
    edit: (chatId, id, input, options) => jobs.edit(chatId, id, input, options),
    cancel: (chatId, id) => jobs.cancel(chatId, id),
    pause: (chatId, id) => jobs.pause(chatId, id),
    resume: (chatId, id) => jobs.resume(chatId, id),
    skip: (chatId, id) => jobs.skip(chatId, id),
    runNow: (chatId, id) => jobs.runNow(chatId, id),
    answerMissed: (chatId, id, choice) => jobs.answerMissed(chatId, id, choice),
    getSettings: (chatId) => settings.getSettings(chatId),
    setTimeZone: (chatId, zone, language) => settings.setTimeZone(chatId, zone, language),
    getLanguage: (chatId) => settings.getLanguage(chatId),
    setLanguage: (chatId, language) => settings.setLanguage(chatId, language),
    getModel: (chatId) => settings.getModel(chatId),
    getAgenda: (chatId) => agenda.get(chatId),
    setAgenda: (chatId, at) => agenda.set(chatId, at),
    setModel: (chatId, model) => settings.setModel(chatId, model),
    getQuiet: (chatId) => settings.getQuiet(chatId),
    setQuiet: (chatId, body) => settings.setQuiet(chatId, body),
    zoneNotice: (chatId) => settings.zoneNotice(chatId),
  };
}
