/**
 * @module A model turn (DESIGN §7 `AGENT=llm`, issue 13): the model called with the chat's tools, each tool
 * call run in-process through the same code as `/tools` and answered with the tool's JSON, at most 8 model
 * calls, then the final text as the reply. Over the day's budget, the one notice (or nothing); a refusal from
 * the model (a wrong key, an unknown model) is one sentence to the chat and not retried; anything transient
 * is thrown for the queue to retry.
 */
import type { Config } from "../config";
import type { PromptMessage } from "../contracts/prompt-message";
import type { ToolCallRecord, TurnAnswer, TurnContext } from "../contracts/turn";
import { callTool, toolSchemas } from "../tools/catalog";
import type { ToolContext } from "../tools/schedule";
import { formatHeader } from "../time";
import { complete as completeWithFetch, ModelRefused, ModelUnavailable, type ChatMessage, type Completion, type FunctionTool, type ModelEndpoint } from "./model";
import { conversation, systemPrompt } from "./prompt";

/** At most this many model calls in one turn (tool rounds included). */
const MAX_MODEL_CALLS = 8;
/** A whole turn stays well inside the run gate's 10-minute lease. */
const TURN_TIMEOUT_MS = 5 * 60_000;

const NO_MODEL = "⚠️ No model is configured, so I cannot answer: the bot's owner sets LLM_MODEL (see /healthz).";

const TOO_MANY_STEPS = "I could not finish this within 8 steps. Please ask again, perhaps in smaller parts.";

/** The day's one notice when the chat used up its model turns (DESIGN §2 `LLM_MAX_TURNS_PER_DAY`). */
const overBudgetText = (max: number) =>
  `⚠️ This chat has used its ${max} model turns for today, so I will answer again tomorrow. Your scheduled jobs keep running. (The bot's owner can raise LLM_MAX_TURNS_PER_DAY.)`;

type TurnDeps = {
  config: Config;
  /** The tools' context for this chat and turn (its policy is set here from the context). */
  tools: Omit<ToolContext, "policy" | "createdBy">;
  now: () => number;
  complete?: (endpoint: ModelEndpoint, messages: readonly ChatMessage[], tools: readonly FunctionTool[], timeoutMs: number) => Promise<Completion>;
};

/** The tools as the model's functions, their JSON Schemas from the one zod source. */
const functionTools = (): FunctionTool[] =>
  toolSchemas().map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));

/** Runs one model turn for `message`; throws `ModelUnavailable` for the queue to retry. */
export async function modelTurn(deps: TurnDeps, message: PromptMessage, context: TurnContext): Promise<TurnAnswer> {
  const { config, now } = deps;
  const agent = config.agent;
  const max = agent.maxTurnsPerDay;
  if (context.budget === "over") return { markdown: null, tools: [], status: "failed", detail: `over the day's ${max} model turns`, told: true };
  if (context.budget === "notice") return { markdown: overBudgetText(max), tools: [], status: "failed", detail: `over the day's ${max} model turns`, told: true };
  // A missing LLM_MODEL is the owner's to fix (/healthz names it): one sentence, not a retry that cannot help.
  if (agent.baseUrl === null || agent.model === null) return { markdown: NO_MODEL, tools: [], status: "failed", detail: NO_MODEL.replace(/^⚠️ /, ""), told: true };
  const endpoint: ModelEndpoint = { baseUrl: agent.baseUrl, apiKey: agent.apiKey, model: agent.model };
  const complete = deps.complete ?? completeWithFetch;
  const started = now();
  const prompt = `${formatHeader(started, context.timeZone)}\n${message.text}`;
  const messages = conversation(systemPrompt(context.timeZone, started, agent.instructions), context.history, prompt);
  const functions = functionTools();
  // A group member's message: the tools act with their rights (they may read; a change asks the chat).
  const topic = message.threadId === undefined ? {} : { threadId: message.threadId };
  const policy: ToolContext["policy"] =
    context.followUps !== null
      ? { kind: "job", followUps: context.followUps, ...topic }
      : message.userId !== undefined
        ? { kind: "member", userId: message.userId, ...topic }
        : { kind: "user", ...topic };
  const ctx: ToolContext = { ...deps.tools, createdBy: context.followUps === null ? "agent" : "job", policy };
  const calls: ToolCallRecord[] = [];
  try {
    for (let round = 0; round < MAX_MODEL_CALLS; round++) {
      const left = started + TURN_TIMEOUT_MS - now();
      if (left <= 0) throw new ModelUnavailable(`the turn took longer than ${TURN_TIMEOUT_MS / 60_000} min`);
      const reply = await complete(endpoint, messages, functions, Math.min(agent.timeoutSeconds * 1000, left));
      if (reply.toolCalls.length === 0) {
        const text = (reply.content ?? "").trim();
        return { markdown: text === "" ? "…" : text, prompt, tools: calls, status: "delivered", detail: null };
      }
      messages.push({ role: "assistant", content: reply.content, tool_calls: reply.toolCalls });
      for (const call of reply.toolCalls) {
        let args: unknown;
        let result;
        try {
          args = JSON.parse(call.function.arguments || "{}");
          result = await callTool(ctx, call.function.name, args);
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          args = call.function.arguments;
          result = { ok: false, text: "The arguments are not valid JSON; send a JSON object." };
        }
        calls.push({ name: call.function.name, args, ok: result.ok, text: result.text });
        messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
      }
    }
    return { markdown: TOO_MANY_STEPS, prompt, tools: calls, status: "delivered", detail: `stopped after ${MAX_MODEL_CALLS} model calls` };
  } catch (error) {
    if (error instanceof ModelRefused) return { markdown: error.sentence, prompt, tools: calls, status: "failed", detail: error.sentence.replace(/^⚠️ /, ""), told: true };
    throw error;
  }
}
