/**
 * @module The page's session cookie (docs/api.md): `v1.<expiry>.<nonce>.<mac>` (a signed token), the MAC an
 * HMAC-SHA256 keyed with ADMIN_TOKEN (so changing the token ends every session), in an HttpOnly, Secure, SameSite=Strict cookie with an
 * expiry; never the token itself. And the rule for requests the cookie lets in: a state-changing method needs an
 * `Origin` naming this site, and a body the JSON content type (which a cross-site form cannot send).
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError } from "./errors";
import { BODY_METHODS, mediaType } from "./request-parts";
import { openToken, signToken, tokenKey } from "./signed-token";

/** The cookie's name: `__Host-` makes the browser require Secure, Path=/ and no Domain. */
export const SESSION_COOKIE = "__Host-cuckoo-session";
/** How long a session lasts: a working day. */
export const SESSION_SECONDS = 12 * 60 * 60;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A new session value expiring `SESSION_SECONDS` after `now` (epoch ms). */
export async function newSession(adminToken: string, now: number): Promise<{ value: string; expiresAt: number }> {
  const expires = Math.floor(now / 1000) + SESSION_SECONDS;
  return { value: await signToken(await tokenKey(adminToken), "v1", expires), expiresAt: expires * 1000 };
}

/** The expiry (epoch ms) of a session value signed with `adminToken` and not expired at `now`, else null. */
export async function verifySession(value: string, adminToken: string, now: number): Promise<number | null> {
  return (await openToken(await tokenKey(adminToken), value, /^v1$/, now))?.expiresAt ?? null;
}

/** The session cookie of the request, when it has one. */
export const sessionOf = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE);

/**
 * The guard of a request that a cookie lets in (the existing rules of docs/api.md#access for pages): a state-changing
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
