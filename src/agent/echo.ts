/**
 * @module The built-in `echo` agent (docs/agent.md): no model. A job's prompt is answered with exactly its own
 * text, preceded by the late note when it fired late; a user's message gets one fixed sentence and a `/remind`
 * example (a reminder written in words is offered by the chat itself, before it reaches the queue).
 */

import type { PromptMessage } from "../contracts/prompt-message";
import { lateNote } from "../jobs/texts";

export const NO_MODEL_REPLY =
  "No model is configured, so I can only run your scheduled jobs. Send /help for the commands. For a reminder: /remind tomorrow 9:00 call mum";

export function echoReply(message: PromptMessage): string {
  if (message.source === "user") return NO_MODEL_REPLY;
  if (message.late && message.dueAt) return `${lateNote(Date.parse(message.dueAt), message.timeZone)}\n${message.body}`;
  return message.body;
}
