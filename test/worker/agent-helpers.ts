/**
 * Shared helpers of the chat object's tests (chat-*.test.ts, issue 3), the agent-path tests (agent-*.test.ts,
 * issue 4) and the Telegram tests: chats (each file its own id range) and RPC results, a spy on a chat
 * object's `PROMPTS` binding (non-forwarding unless asked, refusing sends when told), the object's clock moved
 * forward and its alarm run at its time, jobs fired by the clock, runs read through `jobRuns` and settled
 * through the run gate, the queue consumers called directly, and captured console lines.
 *
 * The helpers that read or write the chat's tables with SQL (`sql`, `runRow`, `gateRow`,
 * `pendingKeys`, `transcriptCount`, `justDue`, `settleRun`) are kept for the files not yet moved to the
 * clock; new tests use the clock and RPC helpers instead.
 *
 * In the worker project the real `prompts` consumer runs whenever a Durable Object sends to the queue, so
 * every chat here gets its spy before it sends anything, and the tests feed the consumer themselves.
 */
import { createExecutionContext, createMessageBatch, getQueueResult, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, onTestFinished, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { ChatScheduler } from "../../src/chat/ChatScheduler";
import worker from "../../src/index";

export type Stub = DurableObjectStub<ChatScheduler>;

/** A chat id counter per file: each test takes its own chat. */
export function chatIds(start: number): () => { chatId: string; stub: Stub } {
  let next = start;
  return () => {
    const chatId = String(next++);
    return { chatId, stub: env.CHAT.getByName(chatId) };
  };
}

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** One job of the chat, as `getJob` answers it. */
export const jobOf = <T = JobView>(stub: Stub, chatId: string, id: string): Promise<T> => must<T>(stub.getJob(chatId, id));

/** The chat's jobs, as `listJobs` answers them. */
export const jobsOf = async <T = JobView>(chat: { chatId: string; stub: Stub }): Promise<T[]> => (await must<{ jobs: T[] }>(chat.stub.listJobs(chat.chatId, {}))).jobs;

/** The value of an RPC result, failing the test with the error when there is none. */
export async function must<T>(call: Promise<unknown>): Promise<T> {
  const result = (await call) as Result<T>;
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}

export type JobView = {
  id: string;
  name: string;
  schedule: { at: string } | { cron: string } | { rrule: string; start: string };
  enabled: boolean;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastResult: null | { status: string; at: string };
  running: boolean;
};

export type Entry = { id: string; at: string; role: string; source: string; text: string; jobId?: string; runId?: string; buttons?: { text: string; data: string }[][] };

export type RunRow = {
  run_id: string;
  job_id: string;
  manual: number;
  due_at: number;
  started_at: number | null;
  finished_at: number | null;
  state: string;
  status: string | null;
  exit_code: number | null;
  timed_out: number;
  late: number;
  detail: string | null;
  lease_until: number | null;
  attempts: number;
  resends: number;
  message: string | null;
};

export function sql<T extends Record<string, SqlStorageValue>>(stub: Stub, query: string, ...bindings: SqlStorageValue[]): Promise<T[]> {
  return runInDurableObject(stub, (_instance, state) => state.storage.sql.exec<T>(query, ...bindings).toArray());
}

export const runRow = async (stub: Stub, runId: string): Promise<RunRow | undefined> =>
  (await sql<RunRow>(stub, "SELECT * FROM runs WHERE run_id = ?", runId))[0];
export const alarmOf = (stub: Stub) => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
export const gateRow = async (stub: Stub) =>
  (await sql<{ token: string; lease_until: number; active_key: string | null }>(stub, "SELECT token, lease_until, active_key FROM gate"))[0] ?? null;
export const pendingKeys = async (stub: Stub) => (await sql<{ key: string }>(stub, "SELECT key FROM pending ORDER BY seq")).map((r) => r.key);
export const transcriptCount = async (stub: Stub) => (await sql<{ n: number }>(stub, "SELECT COUNT(*) AS n FROM transcript"))[0]!.n;

/** The whole transcript (up to 500), oldest first, as the RPC answers it. */
export async function transcript(stub: Stub, chatId: string, limit = 500): Promise<Entry[]> {
  return (await must<{ chatId: string; messages: Entry[] }>(stub.messages(chatId, limit))).messages;
}

/** Entries reduced to what most tests compare. */
export const brief = (entries: Entry[]) =>
  entries.map((e) => ({ role: e.role, source: e.source, text: e.text, ...(e.jobId ? { jobId: e.jobId } : {}), ...(e.runId ? { runId: e.runId } : {}) }));

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

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The lease of a job's run and of the chat's gate. */
export const LEASE_MS = 10 * MINUTE;
/** A whole second a little in the past: due now, not late. */
export const justDue = () => Math.floor(Date.now() / 1000) * 1000 - 5_000;

export async function createPrompt(
  chatId: string,
  stub: Stub,
  when: { delay: string } | { cron: string } | { at: string },
  name = "Call the dentist",
  text = "Remind me to call the dentist.",
): Promise<JobView> {
  return must<JobView>(stub.createJob(chatId, { name, kind: "prompt", text, ...when }, "admin"));
}

export type Fired = { job: JobView; runId: string; dueAt: number; message: PromptMessage };

/** The chat object's own clock (tests move it forward with `testAdvanceClock`, never back). */
export const clockOf = (stub: Stub): Promise<number> => stub.testAdvanceClock(0);

/** Moves the object's clock forward to `at` (no move when it is there already); returns its now. */
export async function advanceTo(stub: Stub, at: number): Promise<number> {
  const now = await clockOf(stub);
  return at > now ? stub.testAdvanceClock(at - now) : now;
}

/** What the chat's queue spy (`spyQueue`) recorded so far, read off the live instance. */
export async function queued(stub: Stub): Promise<Sent> {
  const sent = await runInDurableObject(stub, (instance) => (instance as unknown as { env: { PROMPTS: { __spy?: Sent } } }).env.PROMPTS.__spy);
  if (!sent) throw new Error("the chat has no queue spy; call spyQueue first");
  return sent;
}

/**
 * A prompt job fired by the alarm (the chat's spy must be in place): a one-off due 5 minutes after its
 * creation, or a yearly cron job; the object's clock is moved to its due time (plus `lateMs`, to fire it
 * late) and the alarm run. Returns the queue message exactly as the DO sent it.
 */
export async function fireJob(
  chatId: string,
  stub: Stub,
  options: { cron?: boolean; lateMs?: number; name?: string; text?: string } = {},
): Promise<Fired> {
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

/**
 * Moves the object's clock to the alarm it armed and runs that alarm (the runtime never runs it by itself
 * once the clock is ahead). Returns the alarm's time.
 */
export async function toAlarm(stub: Stub): Promise<number> {
  const at = await alarmOf(stub);
  if (at === null) throw new Error("the chat has no alarm armed");
  await advanceTo(stub, at);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return at;
}

/**
 * The alarm's claim of every due job at the object's now, without its dispatch: what a crash between the
 * claim and the send leaves behind. The alarm armed before stays armed (the runtime retries a crashed alarm).
 * Returns the now of the claim.
 */
export async function claimOnly(stub: Stub): Promise<number> {
  const now = await clockOf(stub);
  await runInDurableObject(stub, (instance) => {
    (instance as unknown as { firing: { fireDue(now: number): boolean } }).firing.fireDue(now);
  });
  return now;
}

/** A run as `jobRuns` answers it. */
export type RunView = {
  runId: string;
  manual: boolean;
  dueAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  state: string;
  status: string | null;
  exitCode: number | null;
  timedOut: boolean;
  late: boolean;
  detail: string | null;
};

/** A job's runs as `jobRuns` answers them: newest due first. */
export const historyOf = (stub: Stub, chatId: string, jobId: string): Promise<RunView[]> => must<RunView[]>(stub.jobRuns(chatId, jobId));

/**
 * Settles a prompt as an agent does: offered to the run gate, settled there, and the gate released. False
 * when the gate does not run it (its run is settled or gone, or another chat's).
 */
export async function settle(stub: Stub, message: PromptMessage, status: "delivered" | "failed", detail: string | null = null): Promise<boolean> {
  const offer = await must<{ result: string; token?: string }>(stub.gateOffer(message));
  if (offer.result !== "run" || offer.token === undefined) return false;
  await must(stub.gateSettle(offer.token, message.key, status, detail));
  await must(stub.gateNext(offer.token));
  return true;
}

/** Settles the run `runId` with the prompt the chat last sent for it (the queue spy's record); false when none was sent. */
export async function settleSent(stub: Stub, runId: string, status: "delivered" | "failed", detail: string | null = null): Promise<boolean> {
  const message = (await sentFor(stub, runId)).at(-1);
  return message ? settle(stub, message, status, detail) : false;
}

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
 * Settles a job's run as an agent does: its stored message offered to the run gate, settled, and the gate
 * released. False when the gate does not run it (the run is settled or gone).
 */
export async function settleRun(stub: Stub, runId: string, status: "delivered" | "failed", detail: string | null = null): Promise<boolean> {
  const row = await runRow(stub, runId);
  if (!row?.message) return false;
  const offer = await must<{ result: string; token?: string }>(stub.gateOffer(JSON.parse(row.message)));
  if (offer.result !== "run" || offer.token === undefined) return false;
  await must(stub.gateSettle(offer.token, runId, status, detail));
  await must(stub.gateNext(offer.token));
  return true;
}

/** A user message as the DO builds it for the admin API (`m:<messageId>`), built by hand. */
export function userMessage(chatId: string, messageId: string, text: string, timeZone = "UTC"): PromptMessage {
  return { v: 1, key: `m:${messageId}`, chatId, timeZone, source: "user", text, body: text, firedAt: new Date().toISOString(), messageId };
}

let nextQueueId = 0;
export type Fed = { ids: string[]; explicitAcks: string[]; retryMessages: { msgId: string; delaySeconds?: number }[] };

/** Feeds messages to a consumer of the Worker (`prompts` or `prompts-dlq`) directly, as one batch. */
export async function feed(bodies: unknown[], queue: "prompts" | "prompts-dlq" = "prompts", testEnv: Env = env, attempts = 1): Promise<Fed> {
  const ids = bodies.map(() => `q${++nextQueueId}`);
  const batch = createMessageBatch<unknown>(
    queue,
    bodies.map((body, i) => ({ id: ids[i]!, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, testEnv, ctx);
  const result = await getQueueResult(batch, ctx);
  return { ids, explicitAcks: [...result.explicitAcks].sort(), retryMessages: result.retryMessages };
}

/** `[Ddd yyyy-MM-dd HH:mm <zone>]` at an instant, built with Intl (not the time module). */
export function header(instant: number, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    weekday: "short",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const p = (type: string) => parts.find((x) => x.type === type)?.value;
  return `[${p("weekday")} ${p("year")}-${p("month")}-${p("day")} ${p("hour")}:${p("minute")} ${zone}]`;
}

/** `d MMM HH:mm` in a zone, built with Intl. */
export function dayMonthTime(instant: number, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(instant);
  const p = (type: string) => parts.find((x) => x.type === type)?.value;
  return `${p("day")} ${p("month")} ${p("hour")}:${p("minute")}`;
}

/**
 * Checks a `prompt` entry: its first line is the local-time header of `zone` at handling time (between `t0`
 * and `t1`), and the rest is exactly `rest`.
 */
export function expectPromptText(text: string, zone: string, t0: number, t1: number, rest: string): void {
  const newline = text.indexOf("\n");
  const first = text.slice(0, newline);
  const zoneRe = zone.replace(/[/+]/g, (c) => `\\${c}`);
  expect(first).toMatch(new RegExp(`^\\[(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} ${zoneRe}\\]$`));
  expect([header(t0, zone), header(t1, zone)]).toContain(first);
  expect(text.slice(newline + 1)).toBe(rest);
}

export const NO_MODEL = "No model is configured, so I can only run your scheduled jobs. Send /help for the commands. For a reminder: /remind tomorrow 9:00 call mum";
export const jobHeader = (name: string, id: string) => `[Scheduled job "${name}" (${id})]`;
