/**
 * @module The Mini App's session (DESIGN §10 `POST /app/session`; issue 18): `app1.<chatId>.<expiry>.<nonce>.<mac>`,
 * the MAC an HMAC-SHA256 with a key derived from the bot token (HMAC-SHA256 of the token keyed with a label of
 * our own, so it is neither the token nor Telegram's "WebAppData" secret), so changing the token ends every
 * session. It names the one chat it may use: the signed-in user's private chat with the bot. It travels in an
 * HttpOnly, Secure, SameSite=None, Partitioned cookie (a Mini App runs in Telegram's web view, an iframe in
 * Telegram Web) or, where cookies are blocked, as a bearer token. Nothing is stored.
 */
import { b64url, fromB64url } from "./session-cookie";

/** The cookie's name: `__Host-` makes the browser require Secure, Path=/ and no Domain. */
export const APP_COOKIE = "__Host-cuckoo-app";
/** The longest a Mini App session lasts; never past its initData's 24 hours either. */
export const APP_SESSION_SECONDS = 12 * 60 * 60;
/** What the key is derived with: a label of ours, so no other HMAC of the token can stand for a session. */
const KEY_LABEL = "Cuckoo Mini App session v1";
const VALUE = /^app1\.([1-9]\d{0,15})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const encoder = new TextEncoder();

/** A bearer value or cookie that is a Mini App session (by its form; whether it is valid is `verifyAppSession`'s). */
export const isAppSession = (value: string): boolean => value.startsWith("app1.");

async function sessionKey(botToken: string): Promise<CryptoKey> {
  const label = await crypto.subtle.importKey("raw", encoder.encode(KEY_LABEL), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const derived = await crypto.subtle.sign("HMAC", label, encoder.encode(botToken));
  return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** A new session for `chatId` that ends at `expiresAt` (Unix seconds). */
export async function newAppSession(botToken: string, chatId: string, expiresAt: number): Promise<string> {
  const payload = `app1.${chatId}.${expiresAt}.${b64url(crypto.getRandomValues(new Uint8Array(16)))}`;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await sessionKey(botToken), encoder.encode(payload)));
  return `${payload}.${b64url(mac)}`;
}

/** The chat and expiry (epoch ms) of a session signed for `botToken` and not expired at `now`, else null. */
export async function verifyAppSession(value: string, botToken: string, now: number): Promise<{ chatId: string; expiresAt: number } | null> {
  const m = VALUE.exec(value);
  if (!m) return null;
  const mac = fromB64url(m[4]!);
  if (mac === null) return null;
  const valid = await crypto.subtle.verify("HMAC", await sessionKey(botToken), mac, encoder.encode(`app1.${m[1]}.${m[2]}.${m[3]}`));
  const expiresAt = Number(m[2]) * 1000;
  return valid && expiresAt > now ? { chatId: m[1]!, expiresAt } : null;
}

/** The Set-Cookie value that stores a Mini App session for `maxAge` seconds (0 clears it). */
export function appCookie(value: string, maxAge: number): string {
  return `${APP_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=None; Partitioned`;
}
