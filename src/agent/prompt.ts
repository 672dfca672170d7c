/**
 * @module What the model reads (docs/agent.md `AGENT=llm`): the system prompt (fixed guidelines, the owner's
 * `LLM_INSTRUCTIONS`, the chat's language, today's date and the chat's zone, not the time of day: each prompt's
 * header carries that), the chat's recent conversation, then the prompt under its local-time header. Pure.
 */
import type { HistoryEntry } from "../contracts/turn";
import { formatLongDate, formatOffset } from "../time";
import type { ChatMessage } from "./model";

/** The guidelines every model turn starts with. */
const GUIDELINES = [
  "You are the assistant of a Telegram chat, and you can act on a clock: you schedule prompts for yourself, recurring work and watchers with the tools.",
  "Times the user gives are in the chat's time zone. " +
    "Each message starts with a header in brackets giving the local date and time it was sent, such as [Tue 2026-12-01 14:03 Europe/Berlin]; use it as now.",
  'To remind the user of something, create a one-off prompt (schedule_create with kind "prompt" and `at` or `delay`) whose text says what to tell them then; ' +
    "to do something regularly, use `cron`. Use schedule_preview when a schedule is not plain.",
  "A watcher runs a shell script on a schedule without you and wakes you only when its condition holds; try its script with schedule_test first.",
  "To change or remove a job, find its id with schedule_list first. " +
    "To change a job (move it, change its text), use schedule_update: " +
    "never cancel it and create it again, which loses its id, history and memory references. " +
    "To leave out one run of a recurring job, use schedule_skip. Never invent ids or times; ask when the request is unclear.",
  'A user\'s message that starts with quoted lines ("> …") replies to that earlier message: read it as the context of what they ask.',
  'A message that starts with [Scheduled job "…" (id)] is a job that has come due: do now what its text asks. ' +
    "In such a turn you may list and preview, use memory, and create at most one follow-up one-off prompt.",
  "Memory records (memory_* tools) keep what is worth remembering across runs. " +
    "A job's prompt shows the current content of the records it refers to (memoryRefs); " +
    "to note what you did for its next run, use memory_update with the revision shown.",
  "Answer in the user's language, briefly. Telegram shows Markdown: bold, italic, code, links and lists.",
].join("\n");

/**
 * The system prompt: the guidelines, the owner's instructions when set, the chat's language (docs/telegram.md#language:
 * its replies follow it; the tools' answers stay English), and today in the chat's zone.
 */
export function systemPrompt(zone: string, now: number, instructions: string | null, language = "en"): string {
  const name = new Intl.DisplayNames("en", { type: "language" }).of(language) ?? language;
  const speaks = `The chat's language is ${name} (${language}): write your replies in it, unless the user writes to you in another.`;
  const today = `Today is ${formatLongDate(now, zone)} in the chat's time zone, ${zone} (${formatOffset(zone, now)}).`;
  return [GUIDELINES, ...(instructions ? [`About you, from the bot's owner:\n${instructions}`] : []), speaks, today].join("\n\n");
}

/** The conversation for the model: system, the history (user and bot entries, newest last), the prompt. */
export function conversation(system: string, history: readonly HistoryEntry[], prompt: string): ChatMessage[] {
  return [
    { role: "system", content: system },
    ...history.map((e): ChatMessage => (e.role === "user" ? { role: "user", content: e.text } : { role: "assistant", content: e.text })),
    { role: "user", content: prompt },
  ];
}
