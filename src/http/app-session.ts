/**
 * @module The Mini App's session (DESIGN §10 `POST /app/session`; issue 18): `app1.<chatId>.<expiry>.<nonce>.<mac>`
 * (a signed token), the MAC an HMAC-SHA256 with a key derived from the bot token (HMAC-SHA256 of the token keyed with a label of
 * our own, so it is neither the token nor Telegram's "WebAppData" secret), so changing the token ends every
 * session. It names the one chat it may use: the signed-in user's private chat with the bot. It travels in an
 * HttpOnly, Secure, SameSite=None, Partitioned cookie (a Mini App runs in Telegram's web view, an iframe in
 * Telegram Web) or, where cookies are blocked, as a bearer token. Nothing is stored.
 */
import { openToken, signToken, tokenKey } from "./signed-token";

/** The cookie's name: `__Host-` makes the browser require Secure, Path=/ and no Domain. */
export const APP_COOKIE = "__Host-cuckoo-app";
/** The longest a Mini App session lasts; never past its initData's 24 hours either. */
export const APP_SESSION_SECONDS = 12 * 60 * 60;
/** What the key is derived with: a label of ours, so no other HMAC of the token can stand for a session. */
const KEY_LABEL = "Cuckoo Mini App session v1";
/** What an app session's token holds before its expiry: the tag and the chat id. */
const FIELDS = /^app1\.([1-9]\d{0,15})$/;

const encoder = new TextEncoder();

/** A bearer value or cookie that is a Mini App session (by its form; whether it is valid is `verifyAppSession`'s). */
export const isAppSession = (value: string): boolean => value.startsWith("app1.");

async function sessionKey(botToken: string): Promise<CryptoKey> {
  return tokenKey(await crypto.subtle.sign("HMAC", await tokenKey(KEY_LABEL), encoder.encode(botToken)));
}

/** A new session for `chatId` that ends at `expiresAt` (Unix seconds). */
export async function newAppSession(botToken: string, chatId: string, expiresAt: number): Promise<string> {
  return signToken(await sessionKey(botToken), `app1.${chatId}`, expiresAt);
}

/** The chat and expiry (epoch ms) of a session signed for `botToken` and not expired at `now`, else null. */
export async function verifyAppSession(value: string, botToken: string, now: number): Promise<{ chatId: string; expiresAt: number } | null> {
  const opened = await openToken(await sessionKey(botToken), value, FIELDS, now);
  return opened ? { chatId: opened.fields[1]!, expiresAt: opened.expiresAt } : null;
}

/** The Set-Cookie value that stores a Mini App session for `maxAge` seconds (0 clears it). */
export function appCookie(value: string, maxAge: number): string {
  return `${APP_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=None; Partitioned`;
}
