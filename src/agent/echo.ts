/**
 * @module The built-in `echo` agent (docs/agent.md): no model. A job's prompt is answered with exactly its own
 * text, preceded by the late note when it fired late; a user's message gets one fixed sentence and a `/remind`
 * example (a reminder written in words is offered by the chat itself, before it reaches the queue).
 */

import type { PromptMessage } from "../contracts/prompt-message";
import { ENGLISH, voiceOf } from "../texts";
import { formatChatTime, formatDayMonthTime } from "../time";

export const NO_MODEL_REPLY = ENGLISH.t.agent.noModel;

/** The echo's answer, in the chat's language (the message's `language`). */
export async function echoReply(message: PromptMessage): Promise<string> {
  const { t } = await voiceOf(message.language);
  if (message.source === "user") return t.agent.noModel;
  if (message.late && message.dueAt) {
    const dueAt = Date.parse(message.dueAt);
    const line =
      message.missed !== undefined
        ? t.agent.lateMany(message.missed, formatChatTime(dueAt, message.timeZone, Date.parse(message.firedAt), t.dates))
        : t.agent.late(formatDayMonthTime(dueAt, message.timeZone, t.dates));
    return `${line}\n${message.body}`;
  }
  return message.body;
}
