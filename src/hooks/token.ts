/**
 * @module A secret address's token: a hook's (docs/hooks.md), and a calendar feed's (docs/calendar.md), made the same way.
 * A hook's token (docs/hooks.md): 32 characters of lowercase letters and digits (160 random bits, so that it
 * survives an email address's local part, which mail may lower-case), kept only as its SHA-256. The URL and the
 * address carry it; whoever holds it may run the job, so it is shown once, never logged, and replaced by
 * `[shown once]` wherever a reply that showed it is kept.
 */
import { sha256Hex } from "../bytes";

/** Base32's lowercase alphabet: 32 symbols, 5 bits each. */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** A token's length: 32 × 5 = 160 bits. */
export const TOKEN_LENGTH = 32;
/** What a token looks like; anything else names no hook and is not looked up. */
export const HOOK_TOKEN = new RegExp(`^[${ALPHABET}]{${TOKEN_LENGTH}}$`);
/** Where a token stood in a reply that is kept (the transcript, a model's context). */
export const SHOWN_ONCE = "[shown once]";

/** A new token from the platform's cryptographic random source. */
export function newHookToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_LENGTH));
  // 256 is a multiple of 32: each byte's low 5 bits are uniform.
  return Array.from(bytes, (b) => ALPHABET[b & 31]).join("");
}

/** The token's SHA-256 in hex: what is stored and looked up. */
export function hookHash(token: string): Promise<string> {
  return sha256Hex(token);
}

/** `text` with every hook token in it replaced by `[shown once]` (a URL's path, an address's local part). */
export function withoutTokens(text: string): string {
  return text.replace(new RegExp(`(?<![a-z0-9])[${ALPHABET}]{${TOKEN_LENGTH}}(?![a-z0-9])`, "g"), SHOWN_ONCE);
}

/** The hook's URL and address (null without an email domain) for a token. */
export function hookAddresses(token: string, origin: string, emailDomain: string | null): { url: string; email: string | null } {
  return { url: `${origin.replace(/\/+$/, "")}/hooks/${token}`, email: emailDomain === null ? null : `${token}@${emailDomain}` };
}

/** A chat's calendar feed address for a token (docs/calendar.md). */
export function calendarAddress(token: string, origin: string): string {
  return `${origin.replace(/\/+$/, "")}/calendar/${token}.ics`;
}
