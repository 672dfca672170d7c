/**
 * Bench only: the Worker that bench/fire.mjs serves with `wrangler dev --config bench/wrangler.fire.toml`.
 * It re-exports the real Worker (fetch and the queue consumer) and runs the real ChatScheduler through a thin
 * subclass that only observes: its `env.PROMPTS` is wrapped by a producer that awaits the real `sendBatch` and
 * then notes `Date.now()` for each message (workerd advances the clock on I/O, so this is the instant the send
 * resolved), and on request the rows every SQL statement of an alarm wrote are summed (`cursor.rowsWritten`).
 * BareAlarm is the baseline of docs/operations.md: it only updates a row, sends its messages the same way, and re-arms;
 * asked for claims, it also writes the rows a claim-before-dispatch fire needs at the least, as plain SQL.
 * The queue consumer is the real Worker's, or on request one that only acknowledges. For the agent-path
 * figures every run the chat settles is noted (the object's `runEnded` hook, whatever path settles it), and
 * `/bench/agent` reads chats' transcripts through the real `messages` RPC, many chats per request. For the
 * watcher figures (bench/watchers.mjs) the isolate's `fetch` is wrapped to note each runner request and count
 * every other outbound call by origin, every queue message is counted per chat (`send` too, which `sends`
 * leaves out), the consumer counts the prompts it is handed per chat, `runnerOutcome` (the callback) is timed,
 * and a chat being ticked logs the rows every SQL statement wrote, whichever entry point ran it. For the turn
 * figures (bench/agent.mjs) the real consumer gets an `env` whose chat stubs count every RPC it makes (the
 * round trips of a turn, by method), and the queue handler counts its batches and their largest size.
 *
 * Samples live in module scope: every Durable Object of this Worker runs in the one isolate of `wrangler
 * dev`, so they survive an object's eviction, and `/bench/samples` reads them. Nothing here is deployed.
 */
import { DurableObject } from "cloudflare:workers";
import { ChatScheduler } from "../src/chat/ChatScheduler";
import { newJobId } from "../src/contracts/ids";

import type { RunnerOutcome } from "../src/contracts/runner";
import worker from "../src/index";

type BenchEnv = Omit<Env, "CHAT"> & { CHAT: DurableObjectNamespace<BenchChatScheduler>; BARE: DurableObjectNamespace<BareAlarm> };

/** One message whose `sendBatch` resolved. `dueAt` comes from the run id `<jobId>:<dueAt ms>`. */
type Send = { who: "ours" | "bare"; chatId: string; runId: string; dueAt: number; sentAt: number };
/** One alarm invocation. */
type Alarm = {
  who: "ours" | "bare";
  chatId: string;
  instance: number;
  /** The alarm was the first event this instance served: it ran in a freshly constructed object. */
  fresh: boolean;
  bornAt: number;
  entryAt: number;
  /** The earliest due instant among the chat's messages this alarm sent (null: it sent none). */
  dueAt: number | null;
  sends: number;
  /** With `mode.countRows`: the sum of `cursor.rowsWritten` over every SQL statement the alarm ran. */
  rowsWritten?: number;
  /** With `mode.countRows`: SQLite's `total_changes()` after minus before the alarm, on the object's connection. */
  changes?: number;
  statements?: [string, number][];
};

const sends: Send[] = [];
const alarms: Alarm[] = [];
/** Runs per state: the open ones by their state, the settled ones from their history. */
const RUN_STATES = "SELECT state, COUNT(*) AS n FROM runs GROUP BY state UNION ALL SELECT 'settled', COUNT(*) FROM run_history HAVING COUNT(*) > 0";

/** Every run settled, as the settler ended it (inside the settling transaction). */
type Settle = { chatId: string; runId: string; status: string; at: number };
const settles: Settle[] = [];
/** Messages handed to the queue handler, per queue (a retried message counts again). */
const received: Record<string, number> = {};
let instances = 0;

/** One `POST /runs` the Worker made to the runner, seen through the wrapped `fetch` (workerd's clock). */
type RunnerCall = { chatId: string; runId: string; sentAt: number; answeredAt: number; status: number };
/** One runner outcome as the chat took it (`runnerOutcome`, the callback's RPC); startedAt/finishedAt are the runner's clock. */
type OutcomeSample = {
  chatId: string;
  runId: string;
  status: string;
  startedAt: number;
  finishedAt: number;
  enteredAt: number;
  doneAt: number;
  taken: boolean;
};
const runnerCalls: RunnerCall[] = [];
const outcomes: OutcomeSample[] = [];
/** Outbound fetches that are not runner requests, by origin (the Bot API, a model's API, anything else). */
const fetches: Record<string, number> = {};
/** Queue messages sent, per chat, by `send` and `sendBatch` alike. */
const queued: Record<string, number> = {};
/** Prompt messages handed to the queue handler, per chat. */
const consumed: Record<string, number> = {};
/** RPCs the real consumer made to chat objects, by method; and the `prompts` batches it was handed. */
const rpc: Record<string, number> = {};
const batches = { count: 0, largest: 0 };

/**
 * `env` for the real consumer, with chat stubs that count each RPC call by method before making it. One
 * wrapper per env object, as `recordingEnv`, so the Worker's per-env config cache behaves as in production.
 */
const counting = new WeakMap<object, Env>();
function countingEnv(env: Env): Env {
  const known = counting.get(env);
  if (known) return known;
  const real = env.CHAT;
  const countCalls = (stub: object) =>
    new Proxy(stub, {
      get(target, key) {
        const member = Reflect.get(target, key);
        if (typeof member !== "function" || typeof key !== "string") return member;
        return (...args: unknown[]) => {
          rpc[key] = (rpc[key] ?? 0) + 1;
          // Reflect.apply, not member.apply: any property of a stub is an RPC method, "apply" included.
          return Reflect.apply(member, target, args);
        };
      },
    });
  const chat = new Proxy(real, {
    get(target, key) {
      if (key === "getByName") return (name: string) => countCalls(target.getByName(name));
      if (key === "get") return (id: DurableObjectId) => countCalls(target.get(id));
      const member = Reflect.get(target, key);
      return typeof member === "function" ? (...args: unknown[]) => Reflect.apply(member, target, args) : member;
    },
  });
  const proxy = new Proxy(env, { get: (target, key, receiver) => (key === "CHAT" ? chat : Reflect.get(target, key, receiver)) });
  counting.set(env, proxy);
  return proxy;
}

/**
 * The isolate's `fetch`, observed: a `POST /runs` with a run request body is noted as a runner call, anything
 * else counted by origin. Installed once, on the first request (nothing runs at module scope).
 */
let fetchWrapped = false;
function observeFetch(): void {
  if (fetchWrapped) return;
  fetchWrapped = true;
  const real = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    let run: { chatId?: unknown; runId?: unknown } | null = null;
    if (url.pathname === "/runs" && typeof init?.body === "string") {
      try {
        run = JSON.parse(init.body) as { chatId?: unknown; runId?: unknown };
      } catch {
        run = null;
      }
    }
    if (typeof run?.runId !== "string" || typeof run.chatId !== "string") fetches[url.origin] = (fetches[url.origin] ?? 0) + 1;
    const sentAt = Date.now();
    const response = await real(input, init);
    if (typeof run?.runId === "string" && typeof run.chatId === "string") {
      runnerCalls.push({ chatId: run.chatId, runId: run.runId, sentAt, answeredAt: Date.now(), status: response.status });
    }
    return response;
  };
}
/**
 * What the bench asks for: row counting (off while timing), and whether the queue consumer is the real one
 * (the agent) or one that only acknowledges.
 */
const mode = { countRows: false, ackOnly: false };

type Meta = { instance: number; bornAt: number; events: number };

function newMeta(): Meta {
  return { instance: ++instances, bornAt: Date.now(), events: 0 };
}

/** The chat's own messages sent since index `from` (other objects' sends interleave with an alarm's). */
function ownSends(from: number, chatId: string): { dueAt: number | null; sends: number } {
  let dueAt: number | null = null;
  let count = 0;
  for (let i = from; i < sends.length; i++) {
    const s = sends[i]!;
    if (s.chatId !== chatId) continue;
    count++;
    dueAt = dueAt === null ? s.dueAt : Math.min(dueAt, s.dueAt);
  }
  return { dueAt, sends: count };
}

/**
 * `env` with PROMPTS replaced by a producer that records when each send resolved. One wrapper per env object,
 * shared by every instance as the env itself is, so `loadConfig`'s per-env cache behaves as in production.
 */
const wrapped = new WeakMap<object, Env>();
function recordingEnv<E extends Env>(env: E): E {
  const known = wrapped.get(env);
  if (known) return known as E;
  const real = env.PROMPTS;
  const producer: Queue = {
    metrics: () => real.metrics(),
    send(body, options) {
      countQueued([body]);
      return real.send(body, options);
    },
    async sendBatch(messages, options) {
      const list = [...messages];
      countQueued(list.map((m) => m.body));
      const response = await real.sendBatch(list, options);
      // Taken after the await: workerd's clock stands still during synchronous work and moves on I/O.
      const sentAt = Date.now();
      for (const m of list) {
        const body = m.body as { runId?: unknown; chatId?: unknown };
        if (typeof body?.runId !== "string" || typeof body.chatId !== "string") continue;
        const dueAt = Number(body.runId.slice(body.runId.lastIndexOf(":") + 1));
        sends.push({ who: body.runId.startsWith("bare-") ? "bare" : "ours", chatId: body.chatId, runId: body.runId, dueAt, sentAt });
      }
      return response;
    },
  };
  const proxy = new Proxy(env, { get: (target, key, receiver) => (key === "PROMPTS" ? producer : Reflect.get(target, key, receiver)) });
  wrapped.set(env, proxy);
  return proxy;
}

function countQueued(bodies: unknown[]): void {
  for (const body of bodies) {
    const chatId = (body as { chatId?: unknown })?.chatId;
    const key = typeof chatId === "string" ? chatId : "?";
    queued[key] = (queued[key] ?? 0) + 1;
  }
}

const totalChanges = (sql: SqlStorage): number => sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;

type Cursor = SqlStorageCursor<Record<string, SqlStorageValue>>;

/** What an object's SQL wrapper collects: an alarm's cursors (`mode.countRows`), and a tick's (`benchDue` on). */
type Seen = {
  cursors: [string, Cursor][] | null;
  /** While a watcher tick runs: every statement, labelled with the entry points running (`alarm`, `callback`). */
  tick: { log: [string, string, Cursor][]; base: number } | null;
  active: string[];
};

/** The real ChatScheduler, observed: nothing in its behaviour changes. */
export class BenchChatScheduler extends ChatScheduler {
  declare private meta: Meta;
  declare private seen: Seen;

  constructor(ctx: DurableObjectState, env: Env) {
    // Every SQL statement of the object goes through ctx.storage.sql.exec (the stores keep that object):
    // with `mode.countRows`, an alarm keeps each cursor to read its `rowsWritten` when it is done, and a chat
    // being ticked keeps every cursor until the bench reads them (`benchTick`).
    const sql = ctx.storage.sql;
    const exec = sql.exec;
    const seen: Seen = { cursors: null, tick: null, active: [] };
    sql.exec = ((query: string, ...bindings: SqlStorageValue[]) => {
      const cursor = exec.call(sql, query, ...bindings) as Cursor;
      seen.cursors?.push([query, cursor]);
      seen.tick?.log.push([seen.active.join("+") || "other", query, cursor]);
      return cursor;
    }) as SqlStorage["exec"];
    observeFetch();
    super(ctx, recordingEnv(env));
    this.meta = newMeta();
    this.seen = seen;
  }

  /** Every run the chat ends, whether it moves to the history or goes with its finished one-off. */
  protected override runEnded(runId: string, status: string): void {
    settles.push({ chatId: this.ctx.id.name ?? "", runId, status, at: Date.now() });
  }

  override async alarm(): Promise<void> {
    const entryAt = Date.now();
    const meta = this.meta;
    const fresh = meta.events++ === 0;
    const sent = sends.length;
    const count = mode.countRows;
    const before = count ? totalChanges(this.ctx.storage.sql) : 0;
    if (count) this.seen.cursors = [];
    this.seen.active.push("alarm");
    try {
      await super.alarm();
    } finally {
      this.seen.active.splice(this.seen.active.indexOf("alarm"), 1);
      // Named stubs keep their name on the id (workerd), so no query is needed to know the chat.
      const chatId = this.ctx.id.name ?? "";
      const alarm: Alarm = { who: "ours", chatId, instance: meta.instance, fresh, bornAt: meta.bornAt, entryAt, ...ownSends(sent, chatId) };
      const cursors = this.seen.cursors;
      this.seen.cursors = null;
      if (count && cursors) {
        const statements = cursors.map(([q, c]) => [q.replace(/\s+/g, " ").trim(), c.rowsWritten] as [string, number]);
        alarm.rowsWritten = statements.reduce((n, [, w]) => n + w, 0);
        alarm.changes = totalChanges(this.ctx.storage.sql) - before;
        alarm.statements = statements.filter(([, w]) => w > 0);
      }
      alarms.push(alarm);
    }
  }

  /** The runner's callback, timed (entry, the outcome's own instants, when it was taken) and labelled for a tick's rows. */
  override async runnerOutcome(chatId: string, input: RunnerOutcome): ReturnType<ChatScheduler["runnerOutcome"]> {
    const enteredAt = Date.now();
    this.seen.active.push("callback");
    let taken = false;
    try {
      const result = await super.runnerOutcome(chatId, input);
      taken = result.ok && result.value.taken;
      return result;
    } finally {
      this.seen.active.splice(this.seen.active.indexOf("callback"), 1);
      outcomes.push({
        chatId,
        runId: input.runId,
        status: input.status,
        startedAt: Date.parse(input.startedAt),
        finishedAt: Date.parse(input.finishedAt),
        enteredAt,
        doneAt: Date.now(),
        taken,
      });
    }
  }

  /**
   * Makes the chat's cron jobs due at `at` (a row update, as the tests do) and arms the alarm there; from then
   * on every statement the object runs is logged for `benchTick`, whichever entry point runs it.
   */
  async benchDue(at: number): Promise<number> {
    this.meta.events++;
    const sql = this.ctx.storage.sql;
    sql.exec("UPDATE jobs SET next_run_at = ? WHERE cron IS NOT NULL", at);
    await this.ctx.storage.setAlarm(at);
    this.seen.tick = { log: [], base: totalChanges(sql) };
    return this.meta.instance;
  }

  /**
   * From now on every statement the object runs is logged for `benchTick`, whichever entry point runs it
   * (bench/agent.mjs: the rows a model turn writes, its RPCs apart from the alarm that fired it).
   */
  async benchWatch(): Promise<number> {
    this.meta.events++;
    this.seen.tick = { log: [], base: totalChanges(this.ctx.storage.sql) };
    return this.meta.instance;
  }

  /**
   * Gives each of the chat's jobs `count` settled silent runs due before now, oldest first an hour apart, as
   * a watcher that has ticked for a while has: from then on every settle prunes one (docs/api.md#how-a-job-fires keeps 50).
   */
  async benchHistory(count: number): Promise<number> {
    this.meta.events++;
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    const jobs = sql.exec<{ id: string }>("SELECT id FROM jobs").toArray();
    this.ctx.storage.transactionSync(() => {
      for (const { id } of jobs) {
        for (let k = 0; k < count; k++) {
          const dueAt = now - (count - k) * 3_600_000;
          sql.exec(
            "INSERT INTO run_history (run_id, job_id, kind, manual, due_at, started_at, finished_at, status, exit_code) VALUES (?, ?, 'watcher', 0, ?, ?, ?, 'silent', 0)",
            `${id}:${dueAt}`,
            id,
            dueAt,
            dueAt,
            dueAt + 5,
          );
        }
      }
    });
    return this.meta.instance;
  }

  /**
   * What the chat wrote since `benchDue`: each statement that wrote rows as `[entry point, statement, rows]`,
   * their sum, and SQLite's `total_changes()` over the same span (it also counts workerd's alarm row). Stops
   * logging.
   */
  async benchTick(): Promise<{ rowsWritten: number; changes: number; statements: [string, string, number][] }> {
    this.meta.events++;
    const tick = this.seen.tick;
    this.seen.tick = null;
    if (!tick) return { rowsWritten: 0, changes: 0, statements: [] };
    const statements = tick.log.map(([label, q, c]) => [label, q.replace(/\s+/g, " ").trim(), c.rowsWritten] as [string, string, number]);
    return {
      rowsWritten: statements.reduce((n, [, , w]) => n + w, 0),
      changes: totalChanges(this.ctx.storage.sql) - tick.base,
      statements: statements.filter(([, , w]) => w > 0),
    };
  }

  /**
   * Creates one prompt job per instant through the real `createJob` (which only takes times ≥ 1 minute
   * ahead), then moves each to its instant as the tests do (a row update) and lets `listJobs` self-heal the
   * alarm. With `cron`, the jobs are cron jobs whose next run is moved. With `clone`, only the first job goes
   * through `createJob` and the others are copies of its row under fresh ids (seeding 10,000 jobs one by one
   * takes half a minute). With `command`, the jobs are watchers running it. Returns the instance that served it.
   */
  async benchSeed(chatId: string, due: number[], cron?: string, clone = false, command?: string): Promise<number> {
    this.meta.events++;
    const sql = this.ctx.storage.sql;
    let first: Record<string, SqlStorageValue> | null = null;
    for (const [i, at] of due.entries()) {
      if (clone && first) {
        let id = newJobId();
        while (sql.exec("SELECT 1 FROM jobs WHERE id = ?", id).toArray().length > 0) id = newJobId();
        const row: Record<string, SqlStorageValue> = { ...first, id, next_run_at: at, ...(first.at_ms === null ? {} : { at_ms: at }) };
        const columns = Object.keys(row);
        sql.exec(`INSERT INTO jobs (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, ...columns.map((c) => row[c]!));
        continue;
      }
      const input = cron ? { cron } : { delay: "PT10M" };
      const what = command === undefined ? { kind: "prompt" as const, text: "Say hi." } : { kind: "watcher" as const, command };
      const made = await this.createJob(chatId, { name: `bench ${i + 1}`, ...what, ...input }, "admin");
      if (!made.ok) throw new Error(made.error.message);
      if (cron) sql.exec("UPDATE jobs SET next_run_at = ? WHERE id = ?", at, made.value.id);
      else sql.exec("UPDATE jobs SET at_ms = ?, next_run_at = ? WHERE id = ?", at, at, made.value.id);
      first = sql.exec("SELECT * FROM jobs WHERE id = ?", made.value.id).one();
    }
    const listed = await this.listJobs(chatId);
    if (!listed.ok) throw new Error(listed.error.message);
    return this.meta.instance;
  }

  /**
   * The D1 directory brought up to date after a row update behind the object's back, as the real edit path
   * does after its own write (not measured): otherwise the next alarm would find every moved one-off changed
   * and write them all to D1, which no alarm does in production.
   */
  private async benchDirectory(): Promise<void> {
    await this.parts.directory.sync();
  }

  /** Moves every one-off of the chat to `at` and arms the alarm there (what syncAlarm would set). */
  async benchRetime(at: number): Promise<number> {
    this.meta.events++;
    this.ctx.storage.sql.exec("UPDATE jobs SET at_ms = ?, next_run_at = ? WHERE at_ms IS NOT NULL", at, at);
    await this.benchDirectory();
    await this.ctx.storage.setAlarm(at);
    return this.meta.instance;
  }

  /**
   * Clears the chat's runs and moves its one-offs to `at` as if they had never fired (the ack-only burst
   * leaves them claimed with a run dispatched), and arms the alarm there.
   */
  async benchRearm(at: number): Promise<number> {
    this.meta.events++;
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM runs");
      sql.exec("DELETE FROM run_history");
      sql.exec("UPDATE jobs SET at_ms = ?, next_run_at = ?, running_run_id = NULL, last_run_at = NULL, last_result = NULL WHERE at_ms IS NOT NULL", at, at);
    });
    await this.benchDirectory();
    await this.ctx.storage.setAlarm(at);
    return this.meta.instance;
  }

  /**
   * The agent path's outcome in this chat: its bot entries through the real `messages` RPC (as `[runId,
   * at ms, source]`), and what is left: one-offs, runs per state, pending prompts, whether the gate is held.
   */
  async benchAgent(chatId: string): Promise<{
    bots: [string | null, number, string][];
    entries: number;
    oneOffs: number;
    runs: Record<string, number>;
    pending: number;
    gateHeld: boolean;
  }> {
    this.meta.events++;
    const listed = await this.messages(chatId, 500);
    if (!listed.ok) throw new Error(listed.error.message);
    const sql = this.ctx.storage.sql;
    const runs: Record<string, number> = {};
    for (const r of sql.exec<{ state: string; n: number }>(RUN_STATES)) runs[r.state] = r.n;
    return {
      bots: listed.value.messages.filter((m) => m.role === "bot").map((m) => [m.runId ?? null, Date.parse(m.at), m.source]),
      entries: listed.value.messages.length,
      oneOffs: sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE at_ms IS NOT NULL").one().n,
      runs,
      pending: sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM pending").one().n,
      gateHeld: sql.exec("SELECT 1 FROM gate").toArray().length > 0,
    };
  }

  /** Runs per state, from the chat's own table. */
  async benchRunStates(): Promise<Record<string, number>> {
    this.meta.events++;
    const out: Record<string, number> = {};
    for (const r of this.ctx.storage.sql.exec<{ state: string; n: number }>(RUN_STATES)) out[r.state] = r.n;
    return out;
  }

  async benchPing(): Promise<number> {
    this.meta.events++;
    return this.meta.instance;
  }
}

/**
 * The baseline of docs/operations.md: an alarm that updates one row and re-arms. It also sends its messages (one, or
 * as many as a chat's burst) through the same recording producer, so its lateness is observed at the same
 * point as ChatScheduler's.
 */
export class BareAlarm extends DurableObject<Env> {
  declare private meta: Meta;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, recordingEnv(env));
    this.meta = newMeta();
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS state (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER NOT NULL, messages INTEGER NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS plan (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL)");
    // The claims variant's own rows: as many jobs as messages, and their open runs (no secondary index, as ours).
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, name TEXT NOT NULL, text TEXT NOT NULL, next_run_at INTEGER, running_run_id TEXT, last_run_at INTEGER)",
    );
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, due_at INTEGER NOT NULL, state TEXT NOT NULL, lease_until INTEGER, message TEXT) WITHOUT ROWID",
    );
  }

  /**
   * Plans one firing per instant, each sending `messages` messages in one batch, and arms the first. With
   * `claims`, each firing also writes what claim-before-dispatch needs at the least, as plain SQL: a run row
   * per message holding it and the job's update, in one transaction before the send, then the dispatch mark.
   */
  async arm(name: string, due: number[], messages = 1, claims = false): Promise<number> {
    this.meta.events++;
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM plan");
    sql.exec("DELETE FROM runs");
    sql.exec("DELETE FROM jobs");
    sql.exec(
      "INSERT INTO state (id, name, n, messages) VALUES (1, ?, 0, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, n = 0, messages = excluded.messages",
      name,
      claims ? -messages : messages,
    );
    for (const [seq, at] of due.entries()) sql.exec("INSERT INTO plan (seq, at) VALUES (?, ?)", seq, at);
    if (claims)
      for (let k = 0; k < messages; k++)
        sql.exec("INSERT INTO jobs (id, name, text, next_run_at) VALUES (?, ?, 'Say hi.', ?)", `j${k}`, `bench ${k + 1}`, due[0]!);
    await this.ctx.storage.setAlarm(due[0]!);
    return this.meta.instance;
  }

  override async alarm(): Promise<void> {
    return this.bareAlarm();
  }

  /**
   * The floor of a fire with claim-before-dispatch, under its own name for the CPU profile: the due jobs read,
   * their runs inserted holding the message (one statement) and the jobs marked (one statement) in one
   * transaction, one sendBatch, the runs marked dispatched (one statement): the 3 rows per job ours writes,
   * without validating, parsing or anything else of a chat.
   */
  private async bareClaimsAlarm(entryAt: number, fresh: boolean, sent: number, n: number, name: string): Promise<void> {
    const meta = this.meta;
    const sql = this.ctx.storage.sql;
    const due = sql.exec<{ at: number }>("SELECT at FROM plan WHERE seq = ?", n - 1).one().at;
    const jobs = sql
      .exec<{ id: string; name: string; text: string }>("SELECT id, name, text FROM jobs WHERE next_run_at <= ? ORDER BY next_run_at, id", due)
      .toArray();
    const runs = jobs.map((job) => {
      const runId = `bare-${job.id}:${due}`;
      const body = {
        v: 1,
        key: runId,
        runId,
        chatId: name,
        timeZone: "UTC",
        source: "job",
        text: `[Scheduled job "${job.name}" (${job.id})]\n${job.text}`,
        body: job.text,
        firedAt: new Date(due).toISOString(),
      };
      return { runId, jobId: job.id, body };
    });
    this.ctx.storage.transactionSync(() => {
      sql.exec(
        `INSERT INTO runs (run_id, job_id, due_at, state, message) VALUES ${runs.map(() => "(?, ?, ?, 'claimed', ?)").join(", ")}`,
        ...runs.flatMap((r) => [r.runId, r.jobId, due, JSON.stringify(r.body)]),
      );
      sql.exec(
        `UPDATE jobs SET next_run_at = NULL, running_run_id = v.column2, last_run_at = v.column3 FROM (VALUES ${runs.map(() => "(?, ?, ?)").join(", ")}) AS v WHERE jobs.id = v.column1`,
        ...runs.flatMap((r) => [r.jobId, r.runId, due]),
      );
    });
    await this.env.PROMPTS.sendBatch(runs.map((r) => ({ body: r.body, contentType: "json" as const })));
    const at = Date.now();
    sql.exec(
      `UPDATE runs SET state = 'dispatched', lease_until = ? WHERE run_id IN (${runs.map(() => "?").join(", ")})`,
      at + 120_000,
      ...runs.map((r) => r.runId),
    );
    const next = sql.exec<{ at: number }>("SELECT at FROM plan WHERE seq = ?", n).toArray()[0];
    if (next) await this.ctx.storage.setAlarm(next.at);
    alarms.push({ who: "bare", chatId: name, instance: meta.instance, fresh, bornAt: meta.bornAt, entryAt, ...ownSends(sent, name) });
  }

  /** The alarm's body, under its own name so a CPU profile tells it from ChatScheduler's `alarm`. */
  private async bareAlarm(): Promise<void> {
    const entryAt = Date.now();
    const meta = this.meta;
    const fresh = meta.events++ === 0;
    const sql = this.ctx.storage.sql;
    const count = mode.countRows;
    const before = count ? totalChanges(sql) : 0;
    const sent = sends.length;
    const update = sql.exec<{ n: number; name: string; messages: number }>("UPDATE state SET n = n + 1 WHERE id = 1 RETURNING n, name, messages");
    const { n, name, messages } = update.one();
    if (messages < 0) return this.bareClaimsAlarm(entryAt, fresh, sent, n, name);
    const due = sql.exec<{ at: number }>("SELECT at FROM plan WHERE seq = ?", n - 1).one().at;
    const batch = Array.from({ length: messages }, (_, k) => ({ body: { runId: `bare-${k}:${due}`, chatId: name }, contentType: "json" as const }));
    await this.env.PROMPTS.sendBatch(batch);
    const next = sql.exec<{ at: number }>("SELECT at FROM plan WHERE seq = ?", n).toArray()[0];
    if (next) await this.ctx.storage.setAlarm(next.at);
    const alarm: Alarm = { who: "bare", chatId: name, instance: meta.instance, fresh, bornAt: meta.bornAt, entryAt, ...ownSends(sent, name) };
    if (count) {
      alarm.rowsWritten = update.rowsWritten;
      alarm.changes = totalChanges(sql) - before;
      alarm.statements = [["UPDATE state", update.rowsWritten]];
    }
    alarms.push(alarm);
  }
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return out;
}

async function bench(request: Request, env: BenchEnv): Promise<Response> {
  const url = new URL(request.url);
  const body = request.method === "POST" ? ((await request.json()) as Record<string, unknown>) : {};
  const chatIds = (body.chatIds ?? []) as string[];
  switch (url.pathname) {
    case "/bench/ping":
      return Response.json({ ok: true, instances });
    case "/bench/mode":
      mode.countRows = body.countRows === true;
      mode.ackOnly = body.ackOnly === true;
      return Response.json({ ok: true });
    case "/bench/seed": {
      const chats = body.chats as { chatId: string; due: number[]; cron?: string; clone?: boolean; command?: string }[];
      return Response.json(await pool(chats, 50, (c) => env.CHAT.getByName(c.chatId).benchSeed(c.chatId, c.due, c.cron, c.clone, c.command)));
    }
    case "/bench/due": {
      const chats = body.chats as { chatId: string; at: number }[];
      return Response.json(await pool(chats, 50, (c) => env.CHAT.getByName(c.chatId).benchDue(c.at)));
    }
    case "/bench/watch-rows":
      return Response.json(await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchWatch()));
    case "/bench/history":
      return Response.json(await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchHistory(body.count as number)));
    case "/bench/ticks":
      return Response.json(await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchTick()));
    case "/bench/watch": {
      const prefix = url.searchParams.get("prefix") ?? "";
      const mine = <T extends { chatId: string }>(xs: T[]) => xs.filter((x) => x.chatId.startsWith(prefix));
      const own = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([chatId]) => chatId.startsWith(prefix)));
      return Response.json({ runnerCalls: mine(runnerCalls), outcomes: mine(outcomes), queued: own(queued), consumed: own(consumed), fetches });
    }
    case "/bench/retime":
      return Response.json(await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchRetime(body.at as number)));
    case "/bench/rearm":
      return Response.json(await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchRearm(body.at as number)));
    case "/bench/agent": {
      const wanted = new Set(chatIds);
      const settled = new Map<string, [string, string, number][]>();
      for (const s of settles) if (wanted.has(s.chatId)) settled.set(s.chatId, [...(settled.get(s.chatId) ?? []), [s.runId, s.status, s.at]]);
      const states = await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchAgent(id));
      return Response.json(states.map((state, i) => ({ chatId: chatIds[i], ...state, settles: settled.get(chatIds[i]!) ?? [] })));
    }
    case "/bench/states":
      return Response.json(await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchRunStates()));
    case "/bench/ping-chats":
      return Response.json(await pool(chatIds, 50, (id) => env.CHAT.getByName(id).benchPing()));
    case "/bench/bare": {
      const chats = body.chats as { name: string; due: number[]; messages?: number; claims?: boolean }[];
      return Response.json(await pool(chats, 50, (c) => env.BARE.getByName(c.name).arm(c.name, c.due, c.messages, c.claims === true)));
    }
    case "/bench/rpc": {
      const out = { rpc: { ...rpc }, batches: { ...batches } };
      if (url.searchParams.get("reset") === "1") {
        for (const key of Object.keys(rpc)) delete rpc[key];
        Object.assign(batches, { count: 0, largest: 0 });
      }
      return Response.json(out);
    }
    case "/bench/count": {
      const prefix = url.searchParams.get("prefix") ?? "";
      const settled = prefix ? settles.filter((s) => s.chatId.startsWith(prefix)).length : settles.length;
      return Response.json({ sends: sends.length, alarms: alarms.length, instances, settles: settled, received });
    }
    case "/bench/samples": {
      const prefix = url.searchParams.get("prefix") ?? "";
      return Response.json({
        sends: sends.filter((s) => s.chatId.startsWith(prefix)),
        alarms: alarms.filter((a) => a.chatId.startsWith(prefix)),
        instances,
      });
    }
  }
  return new Response("not found", { status: 404 });
}

/** The real consumer, or (with `mode.ackOnly`) one that acknowledges every message and does nothing else. */
async function queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  received[batch.queue] = (received[batch.queue] ?? 0) + batch.messages.length;
  if (batch.queue === "prompts") {
    batches.count++;
    batches.largest = Math.max(batches.largest, batch.messages.length);
  }
  for (const m of batch.messages) {
    const chatId = (m.body as { chatId?: unknown })?.chatId;
    const key = typeof chatId === "string" ? chatId : "?";
    consumed[key] = (consumed[key] ?? 0) + 1;
  }
  if (mode.ackOnly) batch.ackAll();
  else await worker.queue(batch, countingEnv(env), ctx);
}

export default {
  fetch(request, env, ctx) {
    observeFetch();
    if (new URL(request.url).pathname.startsWith("/bench/")) return bench(request, env as unknown as BenchEnv);
    return worker.fetch(request, env, ctx);
  },
  queue,
} satisfies ExportedHandler<Env>;
