/**
 * @module The worker tier's shared helpers: the app called with a modified env (and the admin API's requests
 * and answers); a chat's object through its RPCs (chats by id range, results, jobs, runs, the transcript); a
 * spy on its `PROMPTS` binding and its instance vars; its clock moved forward and its alarm run at its time;
 * and console lines a test expects. The agent path (run gate, consumers, model), Telegram and watchers have
 * their own file beside this one.
 *
 * In the worker project the real `prompts` consumer runs whenever a Durable Object sends to the queue, so a
 * chat that sends gets its spy (`spyQueue`) first, and the tests feed the consumer themselves.
 */
import { listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, onTestFinished, vi } from "vitest";
import * as z from "zod";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { app } from "../../src/http/app";
import type { Result } from "../../src/result";
import type { TranscriptEntry } from "../../src/schemas/chats";
import { type Job, jobReply, type Run } from "../../src/schemas/jobs";
import { type ToolReply, toolReplySchema } from "../../src/schemas/tools";
import { nextOccurrence, parseCron } from "../../src/time";
import type { TestChatScheduler } from "./chat-scheduler";

// ── The app ─────────────────────────────────────────────────────────────────────────────────────────────

/** The test env (CUCKOO_DEV=1, as under `npm run dev`) with some vars replaced; `undefined` unsets one. */
export function envWith(overrides: Record<string, string | undefined> = {}): Env {
  const copy: Record<string, unknown> = { ...env };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  }
  return copy as unknown as Env;
}

/** Deployed mode: CUCKOO_DEV=0. */
export const deployed = (overrides: Record<string, string | undefined> = {}) => envWith({ CUCKOO_DEV: "0", ...overrides });

/** The app answering `path` directly (no server), with `testEnv`. */
export function call(path: string, init: RequestInit = {}, testEnv: Env = envWith()): Promise<Response> {
  return Promise.resolve(app.request(path, init, testEnv));
}

/** A POST with a JSON body and the JSON content type. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** An answer of the app read as JSON (`null` for an empty body); `body` is typed once a schema checked it (`as`). */
export type Answer<T = unknown> = { status: number; body: T };

/** An answer on its way; `.as(schema)` reads its body as the route's reply schema from src/schemas. */
export type Sending = Promise<Answer> & { as<S extends z.ZodType>(schema: S): Promise<Answer<z.output<S>>> };

/**
 * The answer with its body checked against `schema` (a reply schema of src/schemas, as the OpenAPI document
 * gives it): a body that does not fit fails the test, naming the route, status and zod's issues. The body
 * returned is the one the app sent, not zod's copy, so an assertion on it still sees every field.
 */
export function answerAs<S extends z.ZodType>(answer: Answer, schema: S, what = "the answer"): Answer<z.output<S>> {
  return { status: answer.status, body: fits(answer.body, schema, `${what} (${answer.status})`) };
}

/** `value` once it fits `schema` (else the test fails with zod's issues): the value itself, typed. */
export function fits<S extends z.ZodType>(value: unknown, schema: S, what: string): z.output<S> {
  const checked = schema.safeParse(value);
  if (!checked.success) throw new Error(`${what} ${JSON.stringify(value)} does not fit its schema: ${z.prettifyError(checked.error)}`);
  // The reply schemas transform nothing, so what fits is already of the output type; the value is kept (not zod's copy).
  return value as z.output<S>;
}

/** An MCP tool call's structured content, which is the tools' reply `{ ok, text, data }`. */
export const toolReplyOf = (result: Record<string, unknown>): ToolReply => fits(result.structuredContent, toolReplySchema(), "the structured content");

/** A request as the page or an agent sends it (JSON content type on every method), read back as JSON. */
export const send = (method: string, path: string, body?: unknown, testEnv: Env = envWith()): Sending => sendWith(method, path, {}, body, testEnv);

/** `send` with more headers (a cookie, an origin, a bearer token). */
export function sendWith(method: string, path: string, headers: Record<string, string>, body?: unknown, testEnv: Env = envWith()): Sending {
  const answer = (async (): Promise<Answer> => {
    const init: RequestInit = { method, headers: { "Content-Type": "application/json", ...headers } };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const res = await call(path, init, testEnv);
    const text = await res.text();
    return { status: res.status, body: text === "" ? null : JSON.parse(text) };
  })();
  return Object.assign(answer, { as: <S extends z.ZodType>(schema: S) => answer.then((a) => answerAs(a, schema, `${method} ${path}`)) });
}

export const badRequest = (message: string): Answer => ({ status: 400, body: { error: { code: "bad_request", message } } });
/** What a job route answers for a job that is not in the chat. */
export const noJob = (id: string): Answer => ({ status: 404, body: { error: { code: "not_found", message: `No job ${id} in this chat.` } } });
/** What a job RPC answers for a job that is not in the chat. */
export const noJobResult = (id: string) => ({ ok: false, error: { code: "not_found", message: `No job ${id} in this chat.` } });

/** Creates a job through the admin API and returns it (the create must succeed). */
export async function createJob(chatId: string, input: Record<string, unknown>): Promise<Job> {
  const res = await send("POST", `/admin/chats/${chatId}/jobs`, input);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return answerAs(res, jobReply()).body.job;
}

/** The next occurrence of `cron` in `zone` strictly after `after`, as RFC 3339 UTC. */
export function nextRun(cron: string, zone: string, after = Date.now()): string {
  const parsed = parseCron(cron);
  if (!parsed.ok) throw new Error(parsed.error);
  const next = nextOccurrence(parsed.value, zone, after);
  if (!next) throw new Error(`${cron} never fires`);
  return new Date(next.at).toISOString();
}

/** Whether a ChatScheduler object has ever been created (and stored anything) for this chat id. */
export async function objectExists(chatId: string): Promise<boolean> {
  const wanted = env.CHAT.idFromName(chatId);
  return (await listDurableObjectIds(env.CHAT)).some((id) => id.equals(wanted));
}

/** `yyyy-MM-dd HH:mm` of an instant in UTC, the form of the time rules' sentences. */
export const utcWall = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const JOB_ID = /^[abcdefghjkmnpqrstuvwxyz23456789]{5}$/;
export const UTC_NOW_LINE = /^Now: (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC, UTC\+00:00\)$/;

/**
 * The next three 1 January 00:00 UTC after `now` (the machine's, or a chat's clock), as stored and as a job
 * line shows them: the yearly cron `0 0 1 1 *` that tests use for stable texts.
 */
export function newYears(now = Date.now()): { iso: string[]; shown: string[] } {
  const first = new Date(now).getUTCFullYear() + 1;
  const years = [first, first + 1, first + 2];
  return { iso: years.map((y) => `${y}-01-01T00:00:00.000Z`), shown: years.map((y) => `1 Jan ${y} 00:00`) };
}

// ── A chat's object ─────────────────────────────────────────────────────────────────────────────────────

/** A chat's object as the worker tests have it: the tests' subclass (test/worker/entry.ts binds `CHAT` to it). */
export type Stub = DurableObjectStub<TestChatScheduler>;

/** The object of chat `chatId` (`env.CHAT` is typed by the Worker's own class, which has no test-only RPCs). */
export const chatStub = (chatId: string): Stub => env.CHAT.getByName(chatId) as Stub;

/** A chat id counter per file: each test takes its own chat. */
export function chatIds(start: number): () => { chatId: string; stub: Stub } {
  let next = start;
  return () => {
    const chatId = String(next++);
    return { chatId, stub: chatStub(chatId) };
  };
}

/** The value of an RPC result, failing the test with the error when there is none. */
export async function must<T>(call: Promise<Result<T>>): Promise<T> {
  const result = await call;
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}

/** One job of the chat, as `getJob` answers it. */
export const jobOf = (stub: Stub, chatId: string, id: string): Promise<Job> => must(stub.getJob(chatId, id));

/** The chat's jobs, as `listJobs` answers them. */
export const jobsOf = async (chat: { chatId: string; stub: Stub }): Promise<Job[]> => (await must(chat.stub.listJobs(chat.chatId, {}))).jobs;

/** A job's runs as `jobRuns` answers them: newest due first. */
export const historyOf = (stub: Stub, chatId: string, jobId: string): Promise<Run[]> => must(stub.jobRuns(chatId, jobId));

/** The whole transcript (up to 500), oldest first, as the RPC answers it. */
export async function transcript(stub: Stub, chatId: string, limit = 500): Promise<TranscriptEntry[]> {
  return (await must(stub.messages(chatId, limit))).messages;
}

/** Entries reduced to what most tests compare. */
export const brief = (entries: TranscriptEntry[]) =>
  entries.map((e) => ({ role: e.role, source: e.source, text: e.text, ...(e.jobId ? { jobId: e.jobId } : {}), ...(e.runId ? { runId: e.runId } : {}) }));

/**
 * A query on the chat's own SQLite storage (the runtime's `state.storage.sql`), for the few facts no RPC
 * answers: rows a migration leaves, counts of a table.
 */
export function sql<T extends Record<string, SqlStorageValue>>(stub: Stub, query: string, ...bindings: SqlStorageValue[]): Promise<T[]> {
  return runInDurableObject(stub, (_instance, state) => state.storage.sql.exec<T>(query, ...bindings).toArray());
}

/** How many entries the chat's transcript table holds (beyond what one `messages` call answers). */
export const transcriptCount = async (stub: Stub) => (await sql<{ n: number }>(stub, "SELECT COUNT(*) AS n FROM transcript"))[0]!.n;

/** A prompt job created by the admin: a one-off (`delay`, `at`) or a cron job. */
export async function createPrompt(
  chatId: string,
  stub: Stub,
  when: { delay: string } | { cron: string } | { at: string },
  name = "Call the dentist",
  text = "Remind me to call the dentist.",
): Promise<Job> {
  return must(stub.createJob(chatId, { name, kind: "prompt", text, ...when }, "admin"));
}

/**
 * Runs `work` inside the chat's object, with the object itself: a test that makes many calls to set a chat up
 * (hundreds of deliveries, fifty jobs) makes them in one round trip, since as many RPCs can take longer than a
 * test may on a busy machine. The calls are the object's own methods, as an RPC would call them.
 */
export function inObject<R>(stub: Stub, work: (chat: TestChatScheduler, state: DurableObjectState) => Promise<R>): Promise<R> {
  return runInDurableObject(stub, work);
}

// ── The object's env: the queue spy and instance vars ───────────────────────────────────────────────────

export type Sent = { body: unknown; contentType: string | undefined }[];

/**
 * A spy on the instance's `PROMPTS` binding: `send` and `sendBatch` record every message (with its content
 * type). By default nothing is forwarded, so no prompt reaches the real queue (and its auto-run consumer):
 * runs stay in flight until a test settles them or feeds the consumer itself. With `forward`, each call goes
 * on to the real queue first and is recorded only once the queue took it.
 */
export async function spyQueue(stub: Stub, forward = false): Promise<Sent> {
  const sent: Sent = [];
  await runInDurableObject(stub, (instance) => {
    const holder = instance as unknown as { env: Env };
    const real = holder.env.PROMPTS;
    const spy = {
      __spy: sent,
      /** While set (`refuseSends`), every send rejects with this error message and nothing is recorded. */
      __refuse: null as string | null,
      send: async (body: unknown, options?: QueueSendOptions) => {
        if (spy.__refuse !== null) throw new Error(spy.__refuse);
        if (forward) await real.send(body, options);
        sent.push({ body, contentType: options?.contentType });
      },
      sendBatch: async (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
        if (spy.__refuse !== null) throw new Error(spy.__refuse);
        const batch = [...messages];
        if (forward) await real.sendBatch(batch, options);
        sent.push(...batch.map((m) => ({ body: m.body, contentType: m.contentType })));
      },
    };
    holder.env = { ...holder.env, PROMPTS: spy as unknown as Queue };
  });
  return sent;
}

/** Replaces some vars of the instance's env (after `spyQueue`, so the spy stays). */
export async function setInstanceVars(stub: Stub, vars: Record<string, string>): Promise<void> {
  await runInDurableObject(stub, (instance) => {
    const holder = instance as unknown as { env: Env };
    holder.env = { ...holder.env, ...vars } as Env;
  });
}

/** The spy is still the instance's binding (the object was not evicted), so "nothing sent" means it. */
export async function expectSpyInPlace(stub: Stub, sent: Sent): Promise<void> {
  const same = await runInDurableObject(stub, (instance) => (instance as unknown as { env: { PROMPTS: { __spy?: Sent } } }).env.PROMPTS.__spy === sent);
  expect(same).toBe(true);
}

/** What the chat's queue spy (`spyQueue`) recorded so far, read off the live instance. */
export async function queued(stub: Stub): Promise<Sent> {
  const sent = await runInDurableObject(stub, (instance) => (instance as unknown as { env: { PROMPTS: { __spy?: Sent } } }).env.PROMPTS.__spy);
  if (!sent) throw new Error("the chat has no queue spy; call spyQueue first");
  return sent;
}

/** Makes the chat's queue spy refuse every send with `error` (a failed `sendBatch`), or take them again (null). */
export async function refuseSends(stub: Stub, error: string | null): Promise<void> {
  await runInDurableObject(stub, (instance) => {
    const spy = (instance as unknown as { env: { PROMPTS: { __refuse?: string | null } } }).env.PROMPTS;
    if (!("__refuse" in spy)) throw new Error("the chat has no queue spy; call spyQueue first");
    spy.__refuse = error;
  });
}

/** The prompts the chat sent for `key` so far (the queue spy's record), oldest first. */
export const sentFor = async (stub: Stub, key: string): Promise<PromptMessage[]> =>
  (await queued(stub)).map((s) => s.body as PromptMessage).filter((m) => m.key === key);

// ── The object's clock and alarm ────────────────────────────────────────────────────────────────────────

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The chat object's own clock (tests move it forward with `testAdvanceClock`, never back). */
export const clockOf = (stub: Stub): Promise<number> => stub.testAdvanceClock(0);

/** Moves the object's clock forward to `at` (no move when it is there already); returns its now. */
export async function advanceTo(stub: Stub, at: number): Promise<number> {
  const now = await clockOf(stub);
  return at > now ? stub.testAdvanceClock(at - now) : now;
}

/**
 * The next 12:00 UTC after `now`: where a test whose counts are per local day (the model's turns) puts the
 * chat's clock, half a day from midnight in UTC and Europe/Berlin, so that the minutes it runs on never
 * cross into the next day whatever the hour the suite runs at.
 */
export const nextNoonUtc = (now: number): number => {
  const noon = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate(), 12);
  return noon > now ? noon : noon + DAY;
};

/** The object's clock around `work`: its now before and after (for instants the object stamps). */
export async function clockAround<T>(stub: Stub, work: () => Promise<T>): Promise<{ value: T; t0: number; t1: number }> {
  const t0 = await clockOf(stub);
  const value = await work();
  const t1 = await clockOf(stub);
  return { value, t0, t1 };
}

/** The instant of the alarm the chat armed, or null. */
export const alarmOf = (stub: Stub) => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());

/**
 * Moves the object's clock to the alarm it armed, unless it is there already (an alarm due now), and runs
 * that alarm (the runtime never runs it by itself once the clock is ahead). Returns the alarm's time.
 * `alarmComes` is the stricter one, for an alarm that must still be in the future.
 */
export async function toAlarm(stub: Stub): Promise<number> {
  const at = await alarmOf(stub);
  if (at === null) throw new Error("the chat has no alarm armed");
  await advanceTo(stub, at);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return at;
}

/**
 * How much earlier than its time `alarmComes(stub, EARLY_MS)` runs an alarm: the object's clock runs on with
 * the machine's between the move and the run, so "early" must be more than those few ms.
 */
export const EARLY_MS = 500;

/**
 * Moves the chat's clock to the alarm it armed (a wait: it must be in the future), runs it and returns its
 * time. With `early`, runs it that many ms before its time instead, which the runtime never does: a test
 * shows that what waits is held back by the clock, not only by when the alarm was armed.
 */
export async function alarmComes(stub: Stub, early = 0): Promise<number> {
  const alarm = await alarmOf(stub);
  expect(alarm, "an armed alarm").not.toBeNull();
  expect(alarm!, "an alarm in the future").toBeGreaterThan(await clockOf(stub));
  await advanceTo(stub, alarm! - early);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return alarm!;
}

/**
 * The alarm's claim of every due job at the object's now, without its dispatch: what a crash between the
 * claim and the send leaves behind. The alarm armed before stays armed (the runtime retries a crashed alarm).
 * Returns the now of the claim.
 */
export function claimOnly(stub: Stub): Promise<number> {
  return stub.testClaimDue();
}

export type Fired = { job: Job; runId: string; dueAt: number; message: PromptMessage };

/**
 * A prompt job fired by the alarm (the chat's spy must be in place): a one-off due 5 minutes after its
 * creation, or a yearly cron job; the object's clock is moved to its due time (plus `lateMs`, to fire it
 * late) and the alarm run. Returns the queue message exactly as the DO sent it.
 */
export async function fireJob(chatId: string, stub: Stub, options: { cron?: boolean; lateMs?: number; name?: string; text?: string } = {}): Promise<Fired> {
  const job = await createPrompt(chatId, stub, options.cron ? { cron: "0 0 1 1 *" } : { delay: "PT5M" }, options.name, options.text);
  const dueAt = Date.parse(job.nextRunAt!);
  await advanceTo(stub, dueAt + (options.lateMs ?? 0));
  const before = (await queued(stub)).length;
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  const runId = `${job.id}:${dueAt}`;
  const sent = (await queued(stub)).slice(before).filter((s) => (s.body as PromptMessage).key === runId);
  expect(sent).toHaveLength(1);
  return { job, runId, dueAt, message: sent[0]!.body as PromptMessage };
}

// ── Console lines ───────────────────────────────────────────────────────────────────────────────────────

/**
 * Silences `console[kind]` for this test (restored when it ends, failed or not) and returns the spy; `lines`
 * reads what was logged.
 */
export function quietConsole(kind: "log" | "error") {
  const spy = vi.spyOn(console, kind).mockImplementation(() => {});
  onTestFinished(() => spy.mockRestore());
  return spy;
}

/** What a console spy recorded, one string per call. */
export const lines = (spy: { mock: { calls: unknown[][] } }): string[] => spy.mock.calls.map((args) => args.map(String).join(" "));

/**
 * Captures what the code logs to `console[level]` during this test (restored when it ends): a test that
 * expects a log line asserts it, and a green run prints nothing. Returns the lines logged so far.
 */
export function captureLog(level: "log" | "error"): () => string[] {
  const spy = quietConsole(level);
  return () => lines(spy);
}
