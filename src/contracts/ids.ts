/**
 * @module The ids every part exchanges (docs/api.md): Telegram chat ids, job and memory record ids, and
 * how a value a client sent is quoted back in a sentence. Pure; the lowest layer, imported by the edge, the
 * object and the core.
 */

/**
 * Decimal Telegram chat ids (docs/api.md#access); anything else is refused before a Durable Object exists. The pattern
 * is the runner's wire contract's, which the runner checks too: one definition for both.
 */
export { CHAT_ID } from "./runner";

/** A supergroup's chat id: `-100` and the channel's id. Telegram moves a basic group only to one of these. */
export const isSupergroupId = (chatId: string): boolean => chatId.startsWith("-100");

/** A basic group's chat id: negative, and not a supergroup's. Only a basic group is ever moved to a supergroup. */
export const isBasicGroupId = (chatId: string): boolean => chatId.startsWith("-") && !isSupergroupId(chatId);

export const JOB_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/** One job id, for building the patterns that contain one (run keys, button data). */
export const JOB_ID_PATTERN = `[${JOB_ID_ALPHABET}]{5}`;
export const JOB_ID = new RegExp(`^${JOB_ID_PATTERN}$`);

/**
 * A memory record's id (docs/api.md#tools-for-agents): 6 characters of the same alphabet, so that it is never taken for a job id
 * (5) by a person or a model that mixes them up.
 */
export const MEMORY_ID = new RegExp(`^[${JOB_ID_ALPHABET}]{6}$`);

type Random = (n: number) => Uint8Array;
const cryptoRandom: Random = (n) => crypto.getRandomValues(new Uint8Array(n));

/** A fresh 5-character id; the caller retries on the (rare) clash within its chat. */
export function newJobId(random: Random = cryptoRandom): string {
  return randomId(5, random);
}

/** A fresh 6-character memory record id; the caller retries on a clash within its chat. */
export function newMemoryId(random: Random = cryptoRandom): string {
  return randomId(6, random);
}

/** `length` random characters of the job id alphabet. */
export function randomId(length: number, random: Random = cryptoRandom): string {
  let id = "";
  // 248 = 8 × 31: bytes at or above it are discarded so every character is equally likely.
  while (id.length < length) {
    for (const byte of random(8)) {
      if (byte < 248 && id.length < length) id += JOB_ID_ALPHABET[byte % 31];
    }
  }
  return id;
}

/** Shows at most 40 characters of what a client sent, so an echoed value cannot flood a sentence. */
export function shown(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** The sentence for a path segment that is not a Telegram chat id. */
export function badChatIdText(chatId: string): string {
  return `${JSON.stringify(shown(chatId))} is not a Telegram chat id; use a decimal id such as 123456789 or -1001234567890.`;
}
