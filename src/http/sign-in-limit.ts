/**
 * @module Sign-in throttling (docs/api.md; issue 22): at most 10 failed `POST /admin/session` or `POST /app/session`
 * per client address in 60 s, counted by the Rate Limiting binding `SIGN_IN_LIMITER` (wrangler.toml). Past it,
 * every attempt from that address, a right one too, is 429 `rate_limited` with `Retry-After: 60`: a right token
 * honoured meanwhile would tell a guesser which of its guesses was right.
 *
 * The binding answers only `{ success }` and counts every call it allows, so nothing can ask it without being
 * counted. A right attempt has to ask (to be refused while its address is over), so a failure weighs
 * `FAILURE_WEIGHT` calls and a right attempt's question one, against a limit of 10 × `FAILURE_WEIGHT`: ten
 * failures reach it, and right sign-ins (many Mini App users behind one address) take a tenth of a failure each
 * instead of a whole one. (`limit({ key, delta })` would do it in one call; the test pool's Miniflare does not
 * take `delta` yet.)
 */
import type { Context } from "hono";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

/** How many of the binding's counts one failed attempt takes; wrangler.toml's limit is 10 times this. */
export const FAILURE_WEIGHT = 10;
/** The binding's period, seconds: an address over the limit waits at most this long. */
export const SIGN_IN_PERIOD_SECONDS = 60;

export const RATE_LIMITED_TEXT = "Too many failed sign-ins from this address (10 a minute at most); wait a minute, then try again.";

/**
 * The part of a client address that is one client's: an IPv4 address whole; an IPv6 address's /64, the network
 * one subscriber gets (each of its 2^64 addresses would otherwise have ten guesses of its own). Text that is not
 * an address is its own key.
 */
export function clientKey(address: string): string {
  const ip = address.trim().toLowerCase();
  if (!ip.includes(":")) return ip;
  // An IPv4 address written as IPv6 (::ffff:192.0.2.1) is that IPv4 client.
  const v4 = /^[0:]*:ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (v4) return v4[1]!;
  const halves = ip.split("::");
  if (halves.length > 2) return ip;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves[1] ? halves[1].split(":") : [];
  const groups = halves.length === 2 ? [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill("0"), ...tail] : head;
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return ip;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * The request's client key. Cloudflare's edge sets `CF-Connecting-IP` on every request it passes to the Worker (a
 * client cannot send its own) and `wrangler dev` sets it too; a request without one (a Transform Rule removed it,
 * or a test called the app directly) is counted under one key shared by all such requests, never let through
 * uncounted.
 */
function keyOf(c: Context<AppEnv>): string {
  const address = c.req.header("CF-Connecting-IP")?.trim();
  return address ? clientKey(address) : "no-address";
}

const refused = () => new ApiError("rate_limited", RATE_LIMITED_TEXT, { "Retry-After": String(SIGN_IN_PERIOD_SECONDS) });

/** Counts a failed sign-in; throws 429 when its address was over the limit already (the caller then answers 401). */
export async function countFailedSignIn(c: Context<AppEnv>): Promise<void> {
  const key = keyOf(c);
  const answers = await Promise.all(Array.from({ length: FAILURE_WEIGHT }, () => c.env.SIGN_IN_LIMITER.limit({ key })));
  if (!answers.some((a) => a.success)) throw refused();
}

/** Before a right sign-in is honoured: throws 429 while its address is over the limit. */
export async function refuseWhileOver(c: Context<AppEnv>): Promise<void> {
  const key = keyOf(c);
  if (!(await c.env.SIGN_IN_LIMITER.limit({ key })).success) throw refused();
}

/** Why a sign-in route answers 429, as the OpenAPI document says it. */
export const SIGN_IN_LIMITED =
  "more than 10 failed sign-ins from this client address (`CF-Connecting-IP`; an IPv6 address by its /64) within 60 s, then every attempt from it, " +
  "a right one too, until its minute is over; `Retry-After: 60`";
