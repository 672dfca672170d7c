/**
 * @module What the chat's object and the built-in agent exchange for one turn (DESIGN §7, issue 13): the
 * context a model turn starts from (the recent conversation, the day's turn budget, what the turn may do with
 * the schedule), and the answer the agent hands back in one call (the reply, what it saw, the tools it called,
 * how the run ended). Beneath both, so neither imports the other.
 */
import type { PromptMessage } from "./prompt-message";

/** One earlier message of the chat, as a model reads it. */
export type HistoryEntry = { role: "user" | "assistant"; text: string };

/**
 * A model turn's starting point. `budget`: `ok` (counted), `notice` (over today's budget: answer with the one
 * notice of the day), `over` (over, noticed already: no answer). `followUps`: null for a user's turn (every
 * tool); for a turn a job started, how many one-off prompts it may still create (1, or 0 when the job was
 * itself created by such a turn).
 */
export type TurnContext = { timeZone: string; history: HistoryEntry[]; budget: "ok" | "notice" | "over"; followUps: number | null };

/** A tool the agent called during a turn, and what it answered (a `tool` entry of the transcript). */
export type ToolCallRecord = { name: string; args: unknown; ok: boolean; text: string };

/**
 * How a turn ended: the reply (none when over budget), the prompt the agent saw (`prompt` whole, or
 * `promptBody` under the local-time header the chat's object writes at handling time), its tool calls, and
 * the run's status. `told`: the reply already tells the chat why it failed, so a failed one-off needs no
 * second sentence.
 */
export type TurnAnswer = {
  markdown: string | null;
  prompt?: string | null;
  promptBody?: string;
  tools: ToolCallRecord[];
  status: "delivered" | "failed";
  detail: string | null;
  told?: boolean;
};

/** The next prompt the gate hands its holder, with its context when the holder runs a model. */
export type NextPrompt = { message: PromptMessage; context: TurnContext | null };
