/**
 * @module The page's session cookie (DESIGN §10): `v1.<expiry>.<nonce>.<mac>`, the MAC an HMAC-SHA256 keyed with
 * ADMIN_TOKEN (so changing the token ends every session), in an HttpOnly, Secure, SameSite=Strict cookie with an
 * expiry; never the token itself. And the rule for requests the cookie lets in: a state-changing method needs an
 * `Origin` naming this site, and a body the JSON content type (which a cross-site form cannot send).
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError } from "./errors";
import { BODY_METHODS, mediaType } from "./request-parts";

/** The cookie's name: `__Host-` makes the browser require Secure, Path=/ and no Domain. */
export const SESSION_COOKIE = "__Host-cuckoo-session";
/** How long a session lasts: a working day. */
export const SESSION_SECONDS = 12 * 60 * 60;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const encoder = new TextEncoder();
/** Bytes as base64url without padding (the sessions' nonce and MAC). */
export const b64url = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");

/** The bytes of a base64url text, or null. */
export function fromB64url(text: string): Uint8Array | null {
  try {
    const raw = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function key(adminToken: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(adminToken), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** A new session value expiring `SESSION_SECONDS` after `now` (epoch ms). */
export async function newSession(adminToken: string, now: number): Promise<{ value: string; expiresAt: number }> {
  const expires = Math.floor(now / 1000) + SESSION_SECONDS;
  const nonce = b64url(crypto.getRandomValues(new Uint8Array(16)));
  const payload = `v1.${expires}.${nonce}`;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await key(adminToken), encoder.encode(payload)));
  return { value: `${payload}.${b64url(mac)}`, expiresAt: expires * 1000 };
}

/** The expiry (epoch ms) of a session value signed with `adminToken` and not expired at `now`, else null. */
export async function verifySession(value: string, adminToken: string, now: number): Promise<number | null> {
  const m = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return null;
  const mac = fromB64url(m[3]!);
  if (mac === null) return null;
  const valid = await crypto.subtle.verify("HMAC", await key(adminToken), mac, encoder.encode(`v1.${m[1]}.${m[2]}`));
  const expiresAt = Number(m[1]) * 1000;
  return valid && expiresAt > now ? expiresAt : null;
}

/** The session cookie of the request, when it has one. */
export const sessionOf = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE);

/**
 * The guard of a request that a cookie lets in (the existing rules of DESIGN §2 for pages): a state-changing
 * method must come from this origin (`Origin` present and naming this scheme, host and port), and a body must be
 * `application/json`, which a page on another site cannot send without a CORS preflight nothing here answers.
 */
export function checkSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const own = new URL(request.url).origin;
  const origin = request.headers.get("Origin");
  if (origin !== own)
    throw new ApiError(
      "forbidden",
      origin === null
        ? `A ${request.method} with the session cookie must carry an Origin header naming this site (${own}).`
        : `A ${request.method} with the session cookie must come from this site (${own}); the Origin header is ${JSON.stringify(origin.slice(0, 100))}.`,
    );
  if (BODY_METHODS.has(request.method) && mediaType(request.headers.get("content-type")) !== "application/json")
    throw new ApiError("forbidden", `A ${request.method} with the session cookie needs "Content-Type: application/json".`);
}

/** The Set-Cookie value that stores `value` for `maxAge` seconds (0 clears it). */
export function sessionCookie(value: string, maxAge: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=Strict`;
}
