/**
 * @module The page's login routes (docs/api.md): `POST /admin/session` trades ADMIN_TOKEN for the signed session
 * cookie of `session-cookie.ts` (throttled per address, `sign-in-limit.ts`), `DELETE /admin/session` clears it,
 * `GET /admin/session` says how a request got in.
 */
import type { Context } from "hono";
import { loginBody, type SessionReply, type SessionStatus } from "../schemas/session";
import { checkOpenDevRequest, sameSecret } from "./auth";
import { readJson } from "./body";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";
import { checkSameOrigin, newSession, SESSION_SECONDS, sessionCookie } from "./session-cookie";
import { countFailedSignIn, refuseWhileOver, SIGN_IN_LIMITED } from "./sign-in-limit";

/**
 * `POST /admin/session` `{ token }`: a right token gets the cookie and `{ expiresAt }`, a wrong one 401; past 10
 * wrong ones from an address in a minute, both are 429. Without ADMIN_TOKEN the page needs no login under `npm run
 * dev` (`{ expiresAt: null }`, no cookie) and deployed it answers 503.
 */
export async function login(c: Context<AppEnv>) {
  const { config } = c.var;
  if (config.adminToken === null) {
    if (!config.dev) throw new ApiError("not_configured", "Set the ADMIN_TOKEN secret (wrangler secret put ADMIN_TOKEN) to use the admin API.");
    // Nothing to check the body against: the open dev guard (localhost page, JSON) is the whole rule.
    checkOpenDevRequest(c.req.raw);
    const open: SessionReply = { expiresAt: null };
    return c.json(open, 200);
  }
  checkSameOrigin(c.req.raw);
  const { token } = await readJson(c, loginBody());
  if (!(await sameSecret(token, config.adminToken))) {
    await countFailedSignIn(c);
    throw new ApiError("unauthorized", "The token does not match ADMIN_TOKEN.");
  }
  await refuseWhileOver(c);
  const session = await newSession(config.adminToken, Date.now());
  c.header("Set-Cookie", sessionCookie(session.value, SESSION_SECONDS));
  c.header("Cache-Control", "no-store");
  const reply: SessionReply = { expiresAt: new Date(session.expiresAt).toISOString() };
  return c.json(reply, 200);
}

/** `DELETE /admin/session`: the cookie is cleared (204), logged in or not. */
export async function logout(c: Context<AppEnv>) {
  if (c.var.config.adminToken === null && c.var.config.dev) checkOpenDevRequest(c.req.raw);
  else checkSameOrigin(c.req.raw);
  c.header("Set-Cookie", sessionCookie("", 0));
  return c.body(null, 204);
}

/** `GET /admin/session` (behind the admin guard): how this request got in, and when its session ends. */
export function sessionStatus(c: Context<AppEnv>) {
  const access = c.var.access ?? { via: "open", expiresAt: null };
  const reply: SessionStatus = {
    via: access.via,
    expiresAt: access.expiresAt === null ? null : new Date(access.expiresAt).toISOString(),
    ...(access.chatId !== undefined ? { chatId: access.chatId } : {}),
    ...(access.readOnly === true ? { readOnly: true } : {}),
  };
  return c.json(reply, 200);
}

/** What the OpenAPI document says of the session routes: `openapi.ts` builds it, a test checks it against the app. */
export const sessionOperations = (): Operation[] => [
  {
    method: "post",
    path: "/admin/session",
    summary: "The page's login: ADMIN_TOKEN for a signed session cookie (HttpOnly, Secure, SameSite=Strict, 12 hours), never the token itself.",
    description:
      "The cookie `__Host-cuckoo-session` then stands for the bearer token on every /admin route. " +
      "A request it lets in that changes something (POST, PUT, PATCH, DELETE) must carry an `Origin` naming this site, " +
      "and a body `Content-Type: application/json`, else 403 `forbidden`. Changing ADMIN_TOKEN ends every session. " +
      "In open dev mode (CUCKOO_DEV=1, no token) nothing is needed: the answer is `expiresAt: null` and no cookie.",
    access: "public",
    body: "SessionRequest",
    answers: [[200, "Signed in; the Set-Cookie header carries the session.", "SessionReply"]],
    errors: {
      unauthorized: "`The token does not match ADMIN_TOKEN.`",
      forbidden: "not a JSON request from this site's page (in open dev mode: from a localhost page)",
      rate_limited: SIGN_IN_LIMITED,
      not_configured: "deployed without ADMIN_TOKEN",
    },
  },
  {
    method: "delete",
    path: "/admin/session",
    summary: "The page's logout: the session cookie is cleared.",
    access: "public",
    answers: [[204, "Signed out (also when no one was signed in)."]],
    errors: { forbidden: "not a request from this site's page" },
  },
  {
    method: "get",
    path: "/admin/session",
    summary: "How this request got in (open dev mode, the session cookie, a bearer token or a Mini App session) and when its session ends.",
    access: "admin",
    answers: [[200, "The access.", "SessionStatus"]],
  },
];
