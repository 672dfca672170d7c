/**
 * @module The chat's conversation (DESIGN §1, §7): `deliver` (transcript entry, and an outbox row when a bot
 * is connected, in one transaction; a key seen before is a no-op), user messages written through the admin
 * API, the dead-letter sentence, and how a bot entry's source follows from its key.
 */
import { promptMessageSchema, type PromptMessage } from "../contracts/prompt-message";

import { ConversationStore, type NewEntry, type Source } from "./conversation-store";
import { JOB_ID_PATTERN } from "../contracts/ids";

/** What a delivery records besides the markdown. */
/** `chatId` binds an object that has never seen its chat (an agent of your own delivering first). */
export type DeliverOptions = { prompt?: string | null; chatId?: string };

/** A job run's key: `<jobId>:<epoch ms>`. */
const RUN_KEY = new RegExp(`^(${JOB_ID_PATTERN}):(\\d{1,15})$`);

/**
 * Where a key came from: a job run (also when the run is gone, as after a cancel mid-turn: the key says so),
 * a Telegram update (`u:`) or an admin-API message (`m:`).
 */
export function sourceOfKey(key: string, kind: "prompt" | "watcher" | null): { source: Source; jobId: string | null; runId: string | null } {
  const run = RUN_KEY.exec(key);
  if (run) return { source: kind === "watcher" ? "watcher" : "job", jobId: run[1]!, runId: key };
  if (key.startsWith("u:")) return { source: "telegram", jobId: null, runId: null };
  return { source: "admin", jobId: null, runId: null };
}

/**
 * Writes a delivery: the `prompt` entry (what the agent saw) when given, the bot entry, the delivered key and,
 * when a bot can send it, the outbox row, all in the caller's transaction. False when the key was delivered
 * before (nothing written).
 */
export function writeDelivery(
  talk: ConversationStore,
  key: string,
  markdown: string,
  origin: { source: Source; jobId: string | null; runId: string | null },
  options: DeliverOptions,
  now: number,
  sendable: boolean,
): boolean {
  if (talk.delivered(key)) return false;
  talk.markDelivered(key, now);
  const meta: Omit<NewEntry, "role" | "text"> = { source: origin.source, jobId: origin.jobId, runId: origin.runId };
  if (options.prompt) talk.append({ ...meta, role: "prompt", text: options.prompt }, now);
  talk.append({ ...meta, role: "bot", text: markdown }, now);
  // With no bot to send it (transcript mode, a blocked chat), the transcript entry is the delivery.
  if (sendable) talk.enqueueOutbox({ key, markdown, jobId: origin.jobId, runId: origin.runId }, now);
  return true;
}

/** The one sentence a dead prompt leaves in the chat (DESIGN §7). */
export function deadLetterText(message: PromptMessage): string {
  if (message.source === "user") return "⚠️ I could not answer your message after several tries; please send it again.";
  const what = message.source === "watcher" ? "watcher" : "scheduled job";
  return `⚠️ The ${what} "${message.jobName ?? message.jobId ?? "?"}" (${message.jobId ?? "?"}) could not be handled: the agent failed after several tries.`;
}

/** Parses a queue message handed over RPC or HTTP. */
export function parseMessage(input: unknown): PromptMessage | null {
  const parsed = promptMessageSchema().safeParse(input);
  return parsed.success ? parsed.data : null;
}
