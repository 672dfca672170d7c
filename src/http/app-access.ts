/**
 * @module What a Mini App session may do on the admin API (docs/api.md; issue 18). `appAccess` recognises the
 * session (a bearer `app1.…`/`app2.…` value, or the `__Host-cuckoo-app` cookie on a request without an
 * Authorization header and without the page's own cookie) and checks it: signed for this bot, not expired, its
 * user still in ALLOWED_USER_IDS (a group's session: its group still served), and, as a cookie, on a same-origin
 * JSON request (the page's CSRF rules). `scopeAppSession` then keeps it to its own chat: `/admin/chats/<own
 * id>/…`, `POST /admin/preview` and `GET /admin/zones` (and `GET /admin/session`); every other chat, the
 * directory, imports, the OpenAPI document and erasing the chat are 403 with a sentence. A group's session
 * changes nothing when it is read-only, and otherwise only while the group's rights still say its user may
 * (asked of the group's object, which remembers getChatMember's answer at most 10 minutes); and every request of
 * it, a read too, rests on an answer at most 10 minutes old that its user is in the group (`group-session.ts`).
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { isGroupId } from "../config";
import { ADMINS_ONLY } from "../schemas/tools";
import { APP_COOKIE, GROUP_SESSION_SECONDS, isAppSession, verifyAppSession } from "./app-session";
import { chatStub } from "./chat-rpc";
import type { Access, AppEnv } from "./context";
import { ApiError } from "./errors";
import { RECHECK_AFTER_MS, sendRenewed, signGroupSession } from "./group-session";
import { bearer } from "./request-parts";
import { servedGroup } from "./served";
import { checkSameOrigin, sessionOf } from "./session-cookie";

export const APP_SESSION_TEXT = {
  invalid: "The Mini App session has expired or is not valid; open the scheduler again from the bot in Telegram.",
  erase: "A Mini App session cannot erase its chat; erasing a chat needs ADMIN_TOKEN.",
} as const;

/** The 403 sentence for a Telegram user outside ALLOWED_USER_IDS. */
export const notAllowedText = (userId: string): string =>
  `Telegram user ${userId} may not use this bot; the operator lists the users it serves in ALLOWED_USER_IDS.`;

/** The 403 sentence for a group the bot does not serve. */
export const groupNotServedText = (chatId: string): string =>
  `Group ${chatId} is not served by this bot; the operator lists the groups it serves in ALLOWED_CHAT_IDS.`;

/** The Mini App session a request carries, checked; null when it carries none (then the other rules apply). */
export async function appAccess(c: Context<AppEnv>): Promise<Access | null> {
  const header = c.req.header("authorization");
  let value: string | undefined;
  if (header !== undefined) {
    value = bearer(header) ?? undefined;
    if (value === undefined || !isAppSession(value)) return null;
  } else {
    // An operator with the page's own cookie keeps the page's access where ADMIN_TOKEN can check it.
    if (c.var.config.adminToken !== null && sessionOf(c) !== undefined) return null;
    value = getCookie(c, APP_COOKIE);
    if (value === undefined) return null;
  }
  const { botToken, allowedUserIds } = c.var.config.telegram;
  const session = botToken === null ? null : await verifyAppSession(value, botToken, Date.now());
  if (session === null) throw new ApiError("unauthorized", APP_SESSION_TEXT.invalid, { "WWW-Authenticate": "Bearer" });
  // Checked on every request, so that a user taken off the list (a group off its list) loses access at once.
  if (isGroupId(session.chatId)) {
    if (!(await servedGroup(c.var.config, c.env.DB, session.chatId))) throw new ApiError("forbidden", groupNotServedText(session.chatId));
  } else if (!allowedUserIds.includes(session.chatId)) throw new ApiError("forbidden", notAllowedText(session.chatId));
  // A bearer value is not sent by the browser on its own; a cookie is, so it gets the page's CSRF rules.
  if (header === undefined) checkSameOrigin(c.req.raw);
  // A group's session rests on Telegram's word that its user is in the group: once that is half its life old, it is
  // asked again (a read as well as a change) and the session renewed, or the request refused.
  const checkedAt = session.expiresAt - GROUP_SESSION_SECONDS * 1000;
  if (session.endsAt !== undefined && Date.now() - checkedAt >= RECHECK_AFTER_MS) {
    const renewed = await signGroupSession(c, session.chatId, session.userId, session.endsAt / 1000, true);
    if (renewed !== null) {
      sendRenewed(c, renewed);
      return { via: "app", chatId: session.chatId, expiresAt: renewed.expiresAt * 1000, userId: session.userId, readOnly: renewed.readOnly };
    }
  }
  return { via: "app", chatId: session.chatId, expiresAt: session.expiresAt, userId: session.userId, readOnly: session.readOnly };
}

/** Whether a request only reads: GET and HEAD, and the preview of a schedule (which stores nothing). */
const reads = (method: string, path: string): boolean => method === "GET" || method === "HEAD" || path === "/admin/preview";

/**
 * Why a Mini App session of chat `own` may not make this request, or null when it may. `path` is the request's
 * path as routed (percent-escapes of reserved characters kept), so the chat segment is decoded as the route's
 * parameter is.
 */
function outOfScope(method: string, path: string, own: string): string | null {
  if (path === "/admin/session" && (method === "GET" || method === "HEAD")) return null;
  if (path === "/admin/preview" || (path === "/admin/zones" && method === "GET")) return null;
  const m = /^\/admin\/chats\/([^/]+)(\/.*)?$/.exec(path);
  if (m) {
    let chatId: string;
    try {
      chatId = decodeURIComponent(m[1]!);
    } catch {
      chatId = m[1]!;
    }
    if (chatId !== own) return `A Mini App session may use only its own chat (${own}); this request is for chat ${JSON.stringify(chatId.slice(0, 40))}.`;
    if ((m[2] === undefined || m[2] === "/") && method === "DELETE") return APP_SESSION_TEXT.erase;
    return null;
  }
  const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
  return `A Mini App session may use only /admin/chats/${own}/…, POST /admin/preview and GET /admin/zones; ${method} ${shown} needs ADMIN_TOKEN.`;
}

/**
 * Middleware after the admin guard: a Mini App session outside its scope is 403 with the sentence; a group's
 * session that changes something needs the right to (its admins and listed users have it), else 403
 * `Only the group's admins can change its jobs.`
 */
export const scopeAppSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const access = c.var.access;
  if (access?.via === "app") {
    const chatId = access.chatId ?? "";
    const problem = outOfScope(c.req.method, c.req.path, chatId);
    if (problem !== null) throw new ApiError("forbidden", problem);
    if (isGroupId(chatId) && !reads(c.req.method, c.req.path)) {
      if (access.readOnly === true) throw new ApiError("forbidden", ADMINS_ONLY);
      if (!c.var.config.telegram.allowedUserIds.includes(access.userId ?? "")) {
        const may = await chatStub(c.env, chatId).mayChange(chatId, access.userId ?? "");
        if (!may.ok) throw new ApiError(may.error.code, may.error.message);
        if (!may.value) throw new ApiError("forbidden", ADMINS_ONLY);
      }
    }
  }
  await next();
};
