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

/**
 * What never shows and can change how the text around it reads, each a code point: C0 controls (line breaks and
 * tabs are spaces by then, `SPACING`), DEL and the C1 controls, the soft hyphen, the Arabic letter mark, the Mongolian vowel
 * separator, zero-width spaces, joiners and marks (a joiner inside an emoji sequence such as 👩‍💻 stays), the bidi
 * embeddings, overrides and isolates, the word joiner and invisible operators, the byte order mark, interlinear
 * annotations.
 */
const HIDDEN =
  /[\p{Cc}\u00AD\u061C\u180E\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]|(?<!\p{Extended_Pictographic}|\u{FE0F}|[\u{1F3FB}-\u{1F3FF}])\u200D|\u200D(?!\p{Extended_Pictographic})/gu;
/** Line breaks of every kind (CR LF as one) and tabs: each a space in an echo, which is one line. */
const SPACING = /\r\n?|[\n\t\v\f\u2028\u2029]/g;

/**
 * A text as it may be echoed back (in a sentence, a job line, on the page): on one line, and without the characters
 * that never show and can reorder or hide what is around them (U+202E turns the rest of a reply around), so what a
 * person reads is what the text says. The one function every echo of what a person or a client wrote goes through.
 */
export function printable(value: string): string {
  return value.replace(SPACING, " ").replace(HIDDEN, "");
}

/**
 * What a client sent, as a sentence quotes it: printable, and at most 40 characters (code points, so an emoji is
 * never cut in two), so an echoed value can neither flood nor turn a sentence around.
 */
export function shown(value: string): string {
  const chars = [...printable(value)];
  return chars.length > 40 ? `${chars.slice(0, 40).join("")}…` : chars.join("");
}

/** The sentence for a path segment that is not a Telegram chat id. */
export function badChatIdText(chatId: string): string {
  return `${JSON.stringify(shown(chatId))} is not a Telegram chat id; use a decimal id such as 123456789 or -1001234567890.`;
}
