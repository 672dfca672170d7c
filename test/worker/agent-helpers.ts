/**
 * @module The agent path's helpers: the run gate taken, settled and probed through its own RPCs (as an agent
 * does), messages fed to the Worker's queue consumers directly, the texts a prompt carries (its local-time
 * header), and the fake OpenAI-compatible model (test/stub/model-stub.ts): a model of the test's own, its
 * script and the requests it got, a chat whose object reads its vars, what a user says and a cron job fired,
 * and a failed try's next one, which only the chat's alarm brings.
 */
import { createExecutionContext, createMessageBatch, getQueueResult, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, inject } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import worker from "../../src/index";
import type { GateOfferReply } from "../../src/schemas/agent";
import type { Job } from "../../src/schemas/jobs";
import type { ModelAnswer } from "../stub/model-stub";
import {
  type Answer,
  advanceTo,
  alarmOf,
  type chatIds,
  createPrompt,
  envWith,
  type Fired,
  must,
  queued,
  type Stub,
  sentFor,
  setInstanceVars,
  spyQueue,
} from "./helpers";

// ── The run gate ────────────────────────────────────────────────────────────────────────────────────────

/** Takes the gate for `message`, failing the test when it does not answer `run`; returns the token. */
export async function take(stub: Stub, message: PromptMessage): Promise<string> {
  const offer = await must(stub.gateOffer(message));
  if (offer.result !== "run") throw new Error(`expected run, got ${offer.result}`);
  expect(offer.token).toMatch(/^\S{8,}$/);
  return offer.token;
}

let probes = 0;

/**
 * The run gate is free and nothing waits in it, as a consumer finds out: a fresh prompt takes the gate at
 * once (a held gate would answer `queued`), and the holder's next prompt is none (a waiting one would be
 * handed over), which frees the gate again. Writes nothing to the transcript.
 */
export async function expectGateFree(stub: Stub, chatId: string): Promise<void> {
  const probe = userMessage(chatId, `probe-${++probes}`, "probe");
  const offer = await must(stub.gateOffer(probe));
  expect(offer.result, "the run gate is held").toBe("run");
  const token = (offer as { token: string }).token;
  await must(stub.gateSettle(token, probe.key, "delivered"));
  expect(await must(stub.gateNext(token)), "a prompt was waiting in the run gate").toEqual({ message: null });
}

/**
 * Prompt one-offs (due 5 minutes after creation) fired together by one alarm: the object's clock is moved
 * to the last one's due time and the alarm run once. Returns each job with the message the chat sent for it.
 */
export async function fireTogether<const Names extends readonly string[]>(chatId: string, stub: Stub, names: Names): Promise<{ [K in keyof Names]: Fired }> {
  const jobs = [];
  for (const name of names) jobs.push(await createPrompt(chatId, stub, { delay: "PT5M" }, name, `${name}.`));
  const dues = jobs.map((job) => Date.parse(job.nextRunAt!));
  await advanceTo(stub, Math.max(...dues));
  const before = (await queued(stub)).length;
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  const sent = (await queued(stub)).slice(before).map((s) => s.body as PromptMessage);
  const fired = jobs.map((job, i): Fired => {
    const runId = `${job.id}:${dues[i]}`;
    const mine = sent.filter((m) => m.key === runId);
    expect(mine, runId).toHaveLength(1);
    return { job, runId, dueAt: dues[i]!, message: mine[0]! };
  });
  return fired as { [K in keyof Names]: Fired };
}

/**
 * Settles a prompt as an agent does: offered to the run gate, settled there, and the gate released. False
 * when the gate does not run it (its run is settled or gone, or another chat's).
 */
export async function settle(stub: Stub, message: PromptMessage, status: "delivered" | "failed", detail: string | null = null): Promise<boolean> {
  const offer = await must(stub.gateOffer(message));
  if (offer.result !== "run") return false;
  await must(stub.gateSettle(offer.token, message.key, status, detail));
  await must(stub.gateNext(offer.token));
  return true;
}

/** Settles the run `runId` with the prompt the chat last sent for it (the queue spy's record); false when none was sent. */
export async function settleSent(stub: Stub, runId: string, status: "delivered" | "failed", detail: string | null = null): Promise<boolean> {
  const message = (await sentFor(stub, runId)).at(-1);
  return message ? settle(stub, message, status, detail) : false;
}

// ── The queue consumers and the prompt's text ───────────────────────────────────────────────────────────

/** A user message as the DO builds it for the admin API (`m:<messageId>`), built by hand. */
/** The token of a gate offer that must have answered `run`. */
export function runToken(offer: Answer<GateOfferReply>): string {
  if (offer.body.result !== "run") throw new Error(`expected the offer to answer run, got ${JSON.stringify(offer.body)}`);
  return offer.body.token;
}

export function userMessage(chatId: string, messageId: string, text: string, timeZone = "UTC"): PromptMessage {
  return { v: 1, key: `m:${messageId}`, chatId, timeZone, source: "user", text, body: text, firedAt: new Date().toISOString(), messageId };
}

let nextQueueId = 0;
type Fed = { ids: string[]; explicitAcks: string[]; retryMessages: { msgId: string; delaySeconds?: number }[] };

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
  // Acks come in the order the messages' turns ended; they are listed in the batch's order (a repeated ack kept).
  const order = (id: string) => ids.indexOf(id);
  return { ids, explicitAcks: [...result.explicitAcks].sort((a, b) => order(a) - order(b)), retryMessages: result.retryMessages };
}

/** `[Ddd yyyy-MM-dd HH:mm <zone>]` at an instant, built with Intl (not the time module). */
function header(instant: number, zone: string): string {
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
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
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

export const NO_MODEL =
  "No model is configured, so I can only run your scheduled jobs. Send /help for the commands. For a reminder: /remind tomorrow 9:00 call mum";
export const jobHeader = (name: string, id: string) => `[Scheduled job "${name}" (${id})]`;

// ── The fake model ──────────────────────────────────────────────────────────────────────────────────────

export const KEY = "sk-test-model-key-123";

/** What the model was sent, as the tests read it. */
type ModelRequest = {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools: { type: string; function: { name: string; description: string; parameters: { type: string; properties: Record<string, unknown> } } }[];
};

let modelCount = 0;
/** Test files share one stub and each has its own copy of this module: its model names carry a tag of its own. */
const tag = crypto.randomUUID().slice(0, 8);

/** A model of this test's own on the stub, the env that selects it, and its script and requests. */
export function model(extra: Record<string, string> = {}) {
  const name = `stub-model-${tag}-${++modelCount}`;
  const base = inject("modelStub");
  const vars = { LLM_BASE_URL: `${base}/v1`, LLM_MODEL: name, LLM_API_KEY: KEY, ...extra };
  return {
    name,
    vars,
    env: envWith(vars),
    script: async (...answers: ModelAnswer[]) => {
      const res = await fetch(`${base}/__stub/script`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ model: name, answers }),
      });
      expect(res.status).toBe(200);
    },
    requests: async (): Promise<ModelRequest[]> =>
      ((await (await fetch(`${base}/__stub/requests?model=${name}`)).json()) as { requests: ModelRequest[] }).requests,
  };
}

/** The chat's object with the model's vars (its config reads them) and a queue spy. */
export async function chatWith(
  newChat: ReturnType<typeof chatIds>,
  vars: Record<string, string>,
  zone = "Europe/Berlin",
): Promise<{ chatId: string; stub: Stub }> {
  const chat = newChat();
  await spyQueue(chat.stub);
  await setInstanceVars(chat.stub, vars);
  await must(chat.stub.setTimeZone(chat.chatId, zone));
  return chat;
}

/** The user writes `text` (transcript mode); returns the queue message the chat sent. */
export async function userSays(stub: Stub, chatId: string, text: string): Promise<PromptMessage> {
  const before = (await queued(stub)).length;
  await must(stub.postUserMessage(chatId, text));
  return (await queued(stub))[before]!.body as PromptMessage;
}

/** Fires a cron prompt job of the chat by moving its clock to the job's next run; returns its queue message. */
export async function fireCron(stub: Stub, chatId: string, text: string, createdBy: "admin" | "job" = "admin"): Promise<{ job: Job; message: PromptMessage }> {
  const job = await must(stub.createJob(chatId, { name: "Daily", kind: "prompt", cron: "0 8 * * *", text }, createdBy));
  await advanceTo(stub, Date.parse(job.nextRunAt!));
  const before = (await queued(stub)).length;
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return { job, message: (await queued(stub))[before]!.body as PromptMessage };
}

/**
 * A failed try's next one: the chat's alarm is armed at it (nothing else brings it); the object's clock is
 * moved there and the alarm run, which sends the turn's prompt once. Returns the instant and what it sent.
 */
export async function nextTry(stub: Stub): Promise<{ at: number; sent: PromptMessage[] }> {
  const at = await alarmOf(stub);
  if (at === null) throw new Error("the chat has no alarm armed for the next try");
  await advanceTo(stub, at);
  const before = (await queued(stub)).length;
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return { at, sent: (await queued(stub)).slice(before).map((s) => s.body as PromptMessage) };
}
