/**
 * @module What the chat's object and the built-in agent exchange for one turn (docs/agent.md, issues 13 and 22): the
 * context a model turn starts from (the recent conversation, the day's turn budget, what the turn may do with
 * the schedule, the prompt it saw first and the steps earlier tries recorded), each step as it is recorded,
 * and the answer the agent hands back in one call (the reply, what it saw, how the run ended). Beneath both,
 * so neither imports the other.
 */
import type { PromptMessage } from "./prompt-message";

/** One earlier message of the chat, as a model reads it. */
export type HistoryEntry = { role: "user" | "assistant"; text: string };

/**
 * One tool call of a step, as the model made it and the turn keeps it: the model's call id, the tool's name
 * and its arguments as JSON text. A call refused for its size keeps a name cut to 100 characters and `{}`.
 */
export type StepCall = { id: string; name: string; args: string };

/** The model's answer in a step: its text beside the calls, and the tool calls it asked for. */
export type StepAnswer = { content: string | null; calls: StepCall[] };

/**
 * What a tool answered: `ok` and its sentence (what the transcript keeps), and its data as JSON text, when it
 * had any. The model reads the three as one JSON object, `{ ok, text, data }`.
 */
export type StepResult = { ok: boolean; text: string; data?: string };

/**
 * A step an earlier try of the turn recorded (docs/agent.md#the-model-agent-agentllm): the model's answer, recorded before
 * its tools ran, and their results, recorded before the next model call. `results` null: the try ended while
 * the tools ran, so each may or may not have run; none runs again.
 */
export type TurnStep = { answer: StepAnswer; results: StepResult[] | null };

/** What one record of a step carries: the model's answer (before its tools run), or their results. */
export type StepRecord = { step: number; answer: StepAnswer } | { step: number; results: StepResult[] };

/**
 * A model turn's starting point. `budget`: `ok` (counted, once however often the turn is tried), `notice`
 * (over today's budget: answer with the one notice of the day), `over` (over, noticed already: no answer).
 * `followUps`: null for a user's turn (every tool); for a turn a job started, how many one-off prompts it may
 * create (1, or 0 when the job was itself created by such a turn), before the recorded steps spent any.
 * `prompt`: what the model sees as the prompt, under the local-time header of its first try. `steps`: what
 * earlier tries recorded, to resume after; `tries`: how many tries failed before this one. `member`: in a group,
 * the user whose message the turn answers (its tools act with their rights); `threadId`: the forum topic it came
 * from (the jobs it makes post there).
 */
export type TurnContext = {
  timeZone: string;
  /** The chat's language (docs/telegram.md#language: `en`, `de`, …), which the model is asked to reply in. */
  language: string;
  history: HistoryEntry[];
  budget: "ok" | "notice" | "over";
  followUps: number | null;
  prompt: string;
  steps: TurnStep[];
  tries: number;
  member?: string;
  threadId?: number;
  /** The model the turn runs on (docs/agent.md#models): the job's, else the chat's, else LLM_MODEL. */
  model?: string;
  /** The reply's first line when the job's own model is no longer offered and the turn runs on another. */
  modelNote?: string;
};

/** A tool the agent called during a turn, and what it answered, as its `tool` entry in the transcript keeps it. */
export type ToolCallRecord = { name: string; args: string; ok: boolean; text: string };

/**
 * How a turn ended: the reply (none when over budget), the prompt the agent saw (`prompt` whole, or
 * `promptBody` under the local-time header the chat's object writes at handling time), and the run's status.
 * The tools a model turn called are its recorded steps, which the chat's object holds. `told`: the reply
 * already tells the chat why it failed, so a failed one-off needs no second sentence.
 */
export type TurnAnswer = {
  markdown: string | null;
  prompt?: string | null;
  promptBody?: string;
  status: "delivered" | "failed";
  detail: string | null;
  told?: boolean;
};

/** A try that failed for a reason that may pass (docs/agent.md): what happened, and the model's Retry-After (s). */
export type TurnFailure = { detail: string; retryAfter: number | null };

/** The next prompt the gate hands its holder, with its context when the holder runs a model. */
export type NextPrompt = { message: PromptMessage; context: TurnContext | null };
