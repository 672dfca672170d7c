/**
 * @module A model turn (docs/agent.md `AGENT=llm`, issues 13 and 22): the model (LLM_BASE_URL's, or Workers AI's
 * through the `AI` binding with `LLM_PROVIDER=workers-ai`) called with the chat's tools, each
 * tool call run in-process through the same code as `/tools` and answered with the tool's JSON, at most 8 model
 * calls, then the final text as the reply. The turn is durable: each model answer is recorded in the chat's
 * object before its tools run, and their results before the next model call, so a try that failed or died is
 * resumed after its last recorded step and no tool call runs twice. Over the day's budget, the one notice (or
 * nothing); a refusal from the model (a wrong key, an unknown model) is one sentence to the chat; anything
 * transient is thrown, for the chat's object to schedule the next try.
 */
import type { Config } from "../config";
import type { StepAnswer, StepRecord, StepResult, TurnAnswer, TurnContext } from "../contracts/turn";
import type { TurnPolicy } from "../schemas/tools";
import { callTool, toolSchemas } from "../tools/catalog";
import type { ToolContext } from "../tools/schedule";
import { keptAnswer, keptReply, keptResult, resultContent } from "./keep";
import { type ChatMessage, type Completion, complete as completeWithFetch, type FunctionTool, ModelRefused, ModelUnavailable } from "./model";
import { conversation, systemPrompt } from "./prompt";
import { completeWithAi, type WorkersAi } from "./workers-ai";

/** At most this many model calls in one turn (tool rounds included), over all its tries. */
const MAX_MODEL_CALLS = 8;
/** A whole try stays well inside the run gate's 10-minute lease. */
const TURN_TIMEOUT_MS = 5 * 60_000;

const NO_MODEL = "⚠️ No model is configured, so I cannot answer: the bot's owner sets LLM_MODEL (see /healthz).";

const TOO_MANY_STEPS = "I could not finish this within 8 steps. Please ask again, perhaps in smaller parts.";

/** What the model is told of a call whose try ended while the tools ran (it is never run again). */
export const IN_DOUBT =
  "This call's result was not recorded: the turn was interrupted while its tools ran, so it may or may not have happened. " +
  "Check (for example with schedule_list or memory_list) before you do it again.";

/** The day's one notice when the chat used up its model turns (docs/api.md#access `LLM_MAX_TURNS_PER_DAY`). */
const overBudgetText = (max: number) =>
  `⚠️ This chat has used its ${max} model turns for today, so I will answer again tomorrow. ` +
  "Your scheduled jobs keep running. (The bot's owner can raise LLM_MAX_TURNS_PER_DAY.)";

/** The turn no longer holds the chat's run gate (its lease ran out and another consumer took it): stop, run nothing. */
export class GateLost extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GateLost";
  }
}

type TurnDeps = {
  config: Config;
  /** The tools' context for this chat and turn (its policy is set here from the context). */
  tools: Omit<ToolContext, "policy" | "createdBy">;
  now: () => number;
  /** Records one step in the chat's object; throws `GateLost` when the turn no longer holds the gate. */
  record: (record: StepRecord) => Promise<void>;
  /** The `AI` binding (`env.AI`), which `LLM_PROVIDER=workers-ai` calls. */
  ai?: WorkersAi;
  /** The model call, when not the provider's (a test's). */
  complete?: Complete;
};

/** One model call of a turn: the model, the conversation so far, the tools, its time limit and the turn's step it is. */
export type Complete = (
  model: string,
  messages: readonly ChatMessage[],
  tools: readonly FunctionTool[],
  timeoutMs: number,
  step: number,
) => Promise<Completion>;

/**
 * The provider's model call (docs/agent.md): `${LLM_BASE_URL}/chat/completions`, or Workers AI through the binding,
 * which names its calls by the step; null when the provider has no endpoint or no binding. `npm run doctor`'s model
 * check (`GET /admin/doctor`) calls the same.
 */
export function completer(agent: Config["agent"], ai: WorkersAi | undefined): Complete | null {
  if (agent.provider === "workers-ai")
    return ai ? (model, messages, tools, timeoutMs, step) => completeWithAi(ai, model, messages, tools, timeoutMs, step) : null;
  const { baseUrl, apiKey } = agent;
  return baseUrl === null ? null : (model, messages, tools, timeoutMs) => completeWithFetch({ baseUrl, apiKey, model }, messages, tools, timeoutMs);
}

/** The tools as the model's functions, their JSON Schemas from the one zod source. */
const functionTools = (): FunctionTool[] =>
  toolSchemas().map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));

/** A step as the conversation holds it: the model's answer, then one tool message per call. */
function replay(messages: ChatMessage[], answer: StepAnswer, results: readonly StepResult[]): void {
  messages.push({
    role: "assistant",
    content: answer.content,
    tool_calls: answer.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
  });
  for (const [i, call] of answer.calls.entries())
    messages.push({ role: "tool", tool_call_id: call.id, content: resultContent(results[i] ?? { ok: false, text: IN_DOUBT }) });
}

/**
 * A job's turn creates at most its follow-ups (docs/api.md#tools-for-agents), over all its tries: each one-off a recorded step
 * created, or may have created (its result lost), is spent.
 */
function spend(policy: TurnPolicy, answer: StepAnswer, results: readonly StepResult[]): void {
  if (policy.kind !== "job") return;
  answer.calls.forEach((call, i) => {
    const result = results[i];
    if (call.name === "schedule_create" && (result?.ok === true || result?.text === IN_DOUBT)) policy.followUps--;
  });
}

/** Runs one kept call: its arguments parsed, the tool called; an RPC that fails throws (the try failed). */
async function run(ctx: ToolContext, call: StepAnswer["calls"][number]): Promise<StepResult> {
  let args: unknown;
  try {
    args = JSON.parse(call.args || "{}");
  } catch {
    return { ok: false, text: "The arguments are not valid JSON; send a JSON object." };
  }
  return keptResult(await callTool(ctx, call.name, args));
}

/**
 * Runs one model turn, resuming after the steps earlier tries recorded; throws for a retry. It runs on the model the
 * context names (the job's, the chat's, else LLM_MODEL); a reply of a job whose own model is gone says so first.
 */
export async function modelTurn(deps: TurnDeps, context: TurnContext): Promise<TurnAnswer> {
  const answer = await turn(deps, context);
  if (context.modelNote === undefined || answer.markdown === null || answer.told) return answer;
  return { ...answer, markdown: `${context.modelNote}\n\n${answer.markdown}` };
}

async function turn(deps: TurnDeps, context: TurnContext): Promise<TurnAnswer> {
  const { config, now } = deps;
  const agent = config.agent;
  const max = agent.maxTurnsPerDay;
  if (context.budget === "over") return { markdown: null, status: "failed", detail: `over the day's ${max} model turns`, told: true };
  if (context.budget === "notice") return { markdown: overBudgetText(max), status: "failed", detail: `over the day's ${max} model turns`, told: true };
  // A missing LLM_MODEL is the owner's to fix (/healthz names it): one sentence, not a retry that cannot help.
  const complete = deps.complete ?? completer(agent, deps.ai);
  const model = context.model ?? agent.model;
  if (complete === null || model === null) return { markdown: NO_MODEL, status: "failed", detail: NO_MODEL.replace(/^⚠️ /, ""), told: true };
  const started = now();
  const { prompt } = context;
  const messages = conversation(systemPrompt(context.timeZone, started, agent.instructions, context.language), context.history, prompt);
  const functions = functionTools();
  // A group member's message: the tools act with their rights (they may read; a change asks the chat).
  const topic = context.threadId === undefined ? {} : { threadId: context.threadId };
  const policy: TurnPolicy =
    context.followUps !== null
      ? { kind: "job", followUps: context.followUps, ...topic }
      : context.member !== undefined
        ? { kind: "member", userId: context.member, ...topic }
        : { kind: "user", ...topic };
  const ctx: ToolContext = { ...deps.tools, createdBy: context.followUps === null ? "agent" : "job", policy };
  // Every call id the turn has used: a model that repeats one (in one answer or a later step) has that call not run.
  const used = new Set<string>();
  try {
    // The conversation the turn had reached in its earlier tries (docs/agent.md#the-model-agent-agentllm).
    for (const [step, recorded] of context.steps.entries()) {
      for (const call of recorded.answer.calls) used.add(call.id);
      let results = recorded.results;
      if (results === null) {
        // The try ended while these tools ran: none runs again, and the model is told so, for good.
        results = recorded.answer.calls.map(() => ({ ok: false, text: IN_DOUBT }));
        await deps.record({ step, results });
      }
      spend(policy, recorded.answer, results);
      replay(messages, recorded.answer, results);
    }
    for (let step = context.steps.length; step < MAX_MODEL_CALLS; step++) {
      const left = started + TURN_TIMEOUT_MS - now();
      if (left <= 0) throw new ModelUnavailable(`the turn took longer than ${TURN_TIMEOUT_MS / 60_000} min`);
      const reply = await complete(model, messages, functions, Math.min(agent.timeoutSeconds * 1000, left), step);
      if (reply.toolCalls.length === 0) {
        const text = (reply.content ?? "").trim();
        return { markdown: keptReply(text === "" ? "…" : text), prompt, status: "delivered", detail: null };
      }
      const { answer, refused } = keptAnswer(reply, used);
      for (const call of answer.calls) used.add(call.id);
      // Recorded before any of its tools runs: a later try never runs them again.
      await deps.record({ step, answer });
      const results: StepResult[] = [];
      for (const [i, call] of answer.calls.entries()) {
        const why = refused[i];
        results.push(why ? { ok: false, text: why } : await run(ctx, call));
      }
      await deps.record({ step, results });
      replay(messages, answer, results);
    }
    return { markdown: TOO_MANY_STEPS, prompt, status: "delivered", detail: `stopped after ${MAX_MODEL_CALLS} model calls` };
  } catch (error) {
    if (error instanceof ModelRefused) return { markdown: error.sentence, prompt, status: "failed", detail: error.sentence.replace(/^⚠️ /, ""), told: true };
    throw error;
  }
}
