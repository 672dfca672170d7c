/**
 * @module The Workers AI client (docs/agent.md#workers-ai, `LLM_PROVIDER=workers-ai`): one `env.AI.run(model, { messages,
 * tools, max_tokens })` per model call, bounded by a time limit, its answer read in either shape Workers AI gives (the
 * traditional `{ response, tool_calls: [{ name, arguments }] }`, its tool calls possibly `{ function: { name,
 * arguments } }`, or a newer model's OpenAI-shaped `choices`). Workers AI's tool calls carry no id the turn can rely
 * on: each is named `<step>-<n>` (the turn's step, then its place in the answer from 1), so a turn's ids are unique
 * and the same on every try. A thrown error is one of the two failures of the OpenAI-compatible client (model.ts):
 * unavailable now (capacity, the day's free allocation, a time-out, anything unknown) or refused (an unknown model,
 * a request Workers AI will never take), read from the internal code the binding puts first in its message.
 */

import * as z from "zod";
import { DEFAULT_WORKERS_AI_MODEL } from "../config";
import { lazy } from "../lazy";
import { type ChatMessage, type Completion, type FunctionTool, ModelRefused, ModelUnavailable } from "./model";

/** The model `LLM_PROVIDER=workers-ai` runs without `LLM_MODEL`: Llama 4 Scout, which takes tools (docs/agent.md#workers-ai). */

/**
 * The longest answer asked for: Workers AI's own default (256 tokens for most models) would cut a reply or a tool
 * call's arguments short.
 */
export const MAX_TOKENS = 4096;

/** What the agent uses of the `AI` binding (`Ai` in production; a test's fake records its calls). */
export type WorkersAi = {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
};

/**
 * Workers AI's internal codes (developers.cloudflare.com/workers-ai/platform/errors) that a later try cannot change,
 * with the HTTP status each stands for. Every other code (3007 and 3008 time-outs, 3036 the day's free allocation,
 * 3040 out of capacity) and an error with none is worth trying again.
 */
const REFUSALS: Readonly<Record<string, number>> = {
  "3003": 400,
  "3039": 400,
  "5004": 400,
  "3023": 403,
  "3041": 403,
  "5016": 403,
  "5018": 403,
  "3042": 404,
  "5007": 404,
  "5005": 405,
  "5019": 405,
  "3006": 413,
};

/**
 * The request of one call: the conversation in the chat-completions form both kinds of model read (content always
 * text, a tool's answer with its call's id and its tool's name) and the tools as functions.
 */
export function workersAiRequest(messages: readonly ChatMessage[], tools: readonly FunctionTool[]): Record<string, unknown> {
  const names = new Map<string, string>();
  const sent = messages.map((message) => {
    if (message.role === "assistant") {
      const calls = message.tool_calls ?? [];
      for (const call of calls) names.set(call.id, call.function.name);
      return calls.length > 0
        ? { role: "assistant", content: message.content ?? "", tool_calls: calls }
        : { role: "assistant", content: message.content ?? "" };
    }
    if (message.role === "tool")
      return { role: "tool", tool_call_id: message.tool_call_id, name: names.get(message.tool_call_id) ?? "", content: message.content };
    return message;
  });
  return { messages: sent, ...(tools.length > 0 ? { tools } : {}), max_tokens: MAX_TOKENS };
}

const answers = lazy(() => {
  // Arguments come as an object, or as its JSON text (OpenAI's form).
  const args = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();
  const nested = z.object({ function: z.object({ name: z.string().min(1), arguments: args }) });
  const flat = z.object({ name: z.string().min(1), arguments: args });
  return {
    chat: z.object({
      choices: z.array(z.object({ message: z.object({ content: z.string().nullish(), tool_calls: z.array(nested).nullish() }) })).min(1),
    }),
    traditional: z.object({ response: z.unknown(), tool_calls: z.array(z.union([nested, flat])).nullish() }),
  };
});

/** One call as the turn keeps it: its arguments as JSON text. */
type Call = { name: string; arguments?: string | Record<string, unknown> | null };

/**
 * What Workers AI answered, as a completion whose calls are named `<step>-<n>`; throws `ModelUnavailable` when it
 * is in neither shape.
 */
export function workersAiCompletion(output: unknown, step: number): Completion {
  if (typeof output === "string") return { content: output, toolCalls: [] };
  let content: string | null;
  let calls: Call[];
  if (typeof output === "object" && output !== null && "choices" in output) {
    const parsed = answers().chat.safeParse(output);
    if (!parsed.success) throw unreadable(parsed.error);
    const message = parsed.data.choices[0]!.message;
    content = message.content ?? null;
    calls = (message.tool_calls ?? []).map((call) => call.function);
  } else {
    const parsed = answers().traditional.safeParse(output);
    if (!parsed.success) throw unreadable(parsed.error);
    const { response } = parsed.data;
    content = typeof response === "string" ? response : response === null || response === undefined ? null : JSON.stringify(response);
    calls = (parsed.data.tool_calls ?? []).map((call) => ("function" in call ? call.function : call));
  }
  return {
    content,
    toolCalls: calls.map((call, i) => ({
      id: `${step}-${i + 1}`,
      type: "function",
      function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}) },
    })),
  };
}

function unreadable(error: z.ZodError): ModelUnavailable {
  return new ModelUnavailable(`the model's answer is not a chat completion: ${error.issues[0]?.message ?? "invalid"}`);
}

/**
 * A thrown error as the turn's failure: the binding's `<code>: <description>` a refusal when the code is one no
 * try can change (the sentence says what to fix), anything else unavailable now.
 */
export function workersAiFailure(error: unknown, model: string): ModelUnavailable | ModelRefused {
  if (error instanceof ModelUnavailable || error instanceof ModelRefused) return error;
  const text = error instanceof Error ? error.message : String(error);
  const coded = /^\s*(\d{4}):\s*([\s\S]*)$/.exec(text);
  if (coded === null) return new ModelUnavailable(`the model did not answer: ${text.trim().slice(0, 200) || "Workers AI failed"}`);
  const [, code, said] = coded as unknown as [string, string, string];
  const description = said.trim().slice(0, 200);
  const status = REFUSALS[code];
  if (status === undefined) return new ModelUnavailable(`Workers AI answered ${code}: ${description}`);
  if (status === 404)
    return new ModelRefused(status, `⚠️ The model was not found (Workers AI error ${code}): check LLM_MODEL (${JSON.stringify(model.slice(0, 80))}).`);
  const detail = description === "" ? "" : `: ${description}`;
  return new ModelRefused(status, `⚠️ Workers AI refused the request (error ${code})${detail}.`.replace(/\.\.$/, "."));
}

/** One call to `model` through the binding with the tools; throws `ModelUnavailable` or `ModelRefused`. */
export async function completeWithAi(
  ai: WorkersAi,
  model: string,
  messages: readonly ChatMessage[],
  tools: readonly FunctionTool[],
  timeoutMs: number,
  step: number,
): Promise<Completion> {
  const stop = new AbortController();
  const tooLate = () => new ModelUnavailable(`the model did not answer: no answer within ${Math.round(timeoutMs / 1000)} s`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The binding may not stop at the signal: the call is given up on all the same.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stop.abort();
      reject(tooLate());
    }, timeoutMs);
  });
  let output: unknown;
  try {
    output = await Promise.race([ai.run(model, workersAiRequest(messages, tools), { signal: stop.signal }), late]);
  } catch (error) {
    throw stop.signal.aborted ? tooLate() : workersAiFailure(error, model);
  } finally {
    clearTimeout(timer);
  }
  return workersAiCompletion(output, step);
}

export { DEFAULT_WORKERS_AI_MODEL };
