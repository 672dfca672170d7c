/**
 * @module The Mini App's session (docs/api.md `POST /app/session`; issue 18): `app1.<chatId>.<expiry>.<nonce>.<mac>`
 * (a signed token), the MAC an HMAC-SHA256 with a key derived from the bot token (HMAC-SHA256 of the token keyed with a label of
 * our own, so it is neither the token nor Telegram's "WebAppData" secret), so changing the token ends every
 * session. It names the one chat it may use: the signed-in user's private chat with the bot, or a group they
 * opened it from (`app2.<groupId>.<userId>.<read|change>.<expiry>.<nonce>.<mac>`: read-only for a member who is
 * neither an admin nor listed, changes re-checked with the group's rights on every request). It travels in an
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
/** What an app session's token holds before its expiry: the tag and the chat id (a group's: and the user, and what they may do). */
const FIELDS = /^app1\.([1-9]\d{0,15})$/;
const GROUP_FIELDS = /^app2\.(-[1-9]\d{0,15})\.([1-9]\d{0,15})\.(read|change)$/;

const encoder = new TextEncoder();

/** A bearer value or cookie that is a Mini App session (by its form; whether it is valid is `verifyAppSession`'s). */
export const isAppSession = (value: string): boolean => value.startsWith("app1.") || value.startsWith("app2.");

/** A checked session: its chat, its user (a private chat's is the chat), whether it may only read, and its end (epoch ms). */
export type AppSession = { chatId: string; userId: string; readOnly: boolean; expiresAt: number };

async function sessionKey(botToken: string): Promise<CryptoKey> {
  return tokenKey(await crypto.subtle.sign("HMAC", await tokenKey(KEY_LABEL), encoder.encode(botToken)));
}

/** A new session for `chatId` that ends at `expiresAt` (Unix seconds). */
export async function newAppSession(botToken: string, chatId: string, expiresAt: number): Promise<string> {
  return signToken(await sessionKey(botToken), `app1.${chatId}`, expiresAt);
}

/** A new session for group `chatId`, of `userId`, read-only or not, that ends at `expiresAt` (Unix seconds). */
export async function newGroupSession(botToken: string, session: AppSession): Promise<string> {
  const { chatId, userId, readOnly, expiresAt } = session;
  return signToken(await sessionKey(botToken), `app2.${chatId}.${userId}.${readOnly ? "read" : "change"}`, expiresAt);
}

/** The session, when `value` is one signed for `botToken` and not expired at `now`; else null. */
export async function verifyAppSession(value: string, botToken: string, now: number): Promise<AppSession | null> {
  const key = await sessionKey(botToken);
  const own = await openToken(key, value, FIELDS, now);
  if (own) return { chatId: own.fields[1]!, userId: own.fields[1]!, readOnly: false, expiresAt: own.expiresAt };
  const group = await openToken(key, value, GROUP_FIELDS, now);
  return group ? { chatId: group.fields[1]!, userId: group.fields[2]!, readOnly: group.fields[3] === "read", expiresAt: group.expiresAt } : null;
}

/** The Set-Cookie value that stores a Mini App session for `maxAge` seconds (0 clears it). */
export function appCookie(value: string, maxAge: number): string {
  return `${APP_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=None; Partitioned`;
}
