/**
 * Helpers of the model-agent tests (agent-llm.test.ts, faults.test.ts, issues 13 and 22): a model of the test's
 * own on the fake OpenAI-compatible model (test/stub/model-stub.ts), its script and the requests it got; a chat
 * whose object reads that model's vars; what a user says and a cron job fired, as the queue messages the chat
 * sent; and a failed try's next one, which only the chat's alarm brings (its clock moved to it).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { expect, inject } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { alarmOf, advanceTo, chatIds, must, queued, setInstanceVars, spyQueue, type JobView, type Stub } from "./agent-helpers";
import { envWith } from "./helpers";

export const KEY = "sk-test-model-key-123";

/** What the model was sent, as the tests read it. */
export type ModelRequest = {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools: { type: string; function: { name: string; description: string; parameters: { type: string; properties: Record<string, unknown> } } }[];
};
export type ModelAnswer =
  | { kind: "text"; content: string }
  | { kind: "tools"; calls: { name: string; arguments: unknown }[] }
  | { kind: "error"; status: number; message?: string; retryAfter?: number }
  | { kind: "hang"; ms: number };

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
      const res = await fetch(`${base}/__stub/script`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ model: name, answers }) });
      expect(res.status).toBe(200);
    },
    requests: async (): Promise<ModelRequest[]> => ((await (await fetch(`${base}/__stub/requests?model=${name}`)).json()) as { requests: ModelRequest[] }).requests,
  };
}

export type Model = ReturnType<typeof model>;

/** The chat's object with the model's vars (its config reads them) and a queue spy. */
export async function chatWith(newChat: ReturnType<typeof chatIds>, vars: Record<string, string>, zone = "Europe/Berlin"): Promise<{ chatId: string; stub: Stub }> {
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
export async function fireCron(stub: Stub, chatId: string, text: string, createdBy: "admin" | "job" = "admin"): Promise<{ job: JobView; message: PromptMessage }> {
  const job = await must<JobView>(stub.createJob(chatId, { name: "Daily", kind: "prompt", cron: "0 8 * * *", text }, createdBy));
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
