/**
 * @module A prompt message as the chat object reads it back: handed over RPC (an offer, a dead letter) or kept in
 * a row (the run gate's, a lost user message's), parsed by the queue message's one schema
 * (`contracts/prompt-message.ts`).
 */
import { type PromptMessage, promptMessageSchema } from "../contracts/prompt-message";

/** The answer to an RPC handed something that is not a prompt message. */
export const NOT_A_MESSAGE = "The body must be a v1 prompt message: { v: 1, key, chatId, timeZone, source, text, body, firedAt, … }.";

/** `input` as a v1 prompt message, or null. */
export function parseMessage(input: unknown): PromptMessage | null {
  const parsed = promptMessageSchema().safeParse(input);
  return parsed.success ? parsed.data : null;
}
