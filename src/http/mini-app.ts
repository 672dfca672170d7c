/**
 * @module The Scheduler as a Telegram Mini App (docs/api.md `GET /app` · `POST /app/session`; issue 18). `GET /app`
 * is the page's own `index.html` (read through the `ASSETS` binding, so nothing of the page is in the bundle) in
 * the one-chat mode, with Telegram's `telegram-web-app.js` and a Content-Security-Policy that allows exactly that
 * script and framing by Telegram Web. `POST /app/session { initData }` checks Telegram's signature
 * (`telegram/init-data.ts`) and the allow-list, and answers the session of `app-session.ts` as a cookie and in
 * the body. Opened from a group (docs/api.md: its direct link names the group), the group must be served and the
 * user in it, as getChatMember says (the link's `startapp` is the user's to write): its admins and listed users
 * get a session that changes its jobs, other members one that reads them. Without a bot (transcript mode) there
 * is no Telegram to sign anything: 503 `not_configured`.
 */
import { type Context, Hono } from "hono";
import { type AppSessionReply, appLoginBody } from "../schemas/app";
import { checkInitData, INIT_DATA_MAX_AGE_SECONDS } from "../telegram/init-data";
import { groupNotServedText, notAllowedText } from "./app-access";
import { APP_SESSION_SECONDS, appCookie, newAppSession } from "./app-session";
import { limitBody, readJson } from "./body";
import { type AppEnv, requireConfigured } from "./context";
import { ApiError } from "./errors";
import { signGroupSession } from "./group-session";
import type { Operation } from "./openapi-components";
import { servedGroup } from "./served";
import { checkSameOrigin } from "./session-cookie";
import { countFailedSignIn, refuseWhileOver, SIGN_IN_LIMITED } from "./sign-in-limit";

/** Where Telegram's docs say to load the Mini App script from. */
export const TELEGRAM_WEB_APP_JS = "https://telegram.org/js/telegram-web-app.js";

/** The sentence of `POST /app/session` in transcript mode. */
export const NO_BOT_TEXT =
  "The Mini App signs in through the bot, and no bot is connected: set TELEGRAM_BOT_TOKEN (wrangler secret put TELEGRAM_BOT_TOKEN), " +
  "then open the scheduler from the bot in Telegram.";

/**
 * The page's policy (page/_headers) with two differences: Telegram's script, by its exact URL, and framing by
 * Telegram Web, which shows a Mini App in an iframe (the apps use a web view, which is not framing).
 */
export const APP_CSP = [
  "default-src 'self'",
  `script-src 'self' ${TELEGRAM_WEB_APP_JS}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors https://web.telegram.org",
].join("; ");

export const miniApp = new Hono<AppEnv>();

/** `GET /app`: the page, marked `data-mode="chat"`, with Telegram's script before the page's module. */
miniApp.get("/", async (c) => {
  const page = await c.env.ASSETS.fetch(new URL("/", c.req.url));
  if (!page.ok) throw new Error(`the page's index.html answered ${page.status} through ASSETS`);
  const html = new HTMLRewriter()
    .on("html", {
      element(el) {
        el.setAttribute("data-mode", "chat");
      },
    })
    .on('script[type="module"]', {
      element(el) {
        // Deferred: it runs before the (deferred) module, in document order, and never blocks the page's first paint.
        el.before(`<script src="${TELEGRAM_WEB_APP_JS}" defer></script>`, { html: true });
      },
    })
    .transform(page);
  return new Response(html.body, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": APP_CSP,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "Cache-Control": "no-cache",
    },
  });
});

/** Transcript mode has no bot, hence no Telegram to sign `initData`: 503 with the sentence. */
async function needBot(c: Context<AppEnv>, next: () => Promise<void>) {
  if (c.var.config.telegram.mode === "off") throw new ApiError("not_configured", NO_BOT_TEXT);
  await next();
}

/**
 * `POST /app/session { initData }`: 200 with the cookie and `{ chatId, expiresAt, session }` for an allowed user's
 * initData signed by this bot within 24 hours; 401 with the check's sentence, 403 for a user not allowed; 429 past
 * 10 failed checks from the address in a minute (`sign-in-limit.ts`). The session ends after 12 hours, or when the
 * initData turns 24 hours old, whichever comes first; a group's 10 minutes after Telegram's answer that its user is
 * in the group, and is renewed up to that end while they stay (`group-session.ts`).
 */
miniApp.post("/session", needBot, requireConfigured("telegram"), limitBody(), async (c) => {
  const { botToken, allowedUserIds } = c.var.config.telegram;
  // Same-origin JSON only, as the page's login: another site cannot sign a visitor in (login CSRF).
  checkSameOrigin(c.req.raw);
  const { initData } = await readJson(c, appLoginBody());
  const checked = await checkInitData(initData, botToken!, Date.now());
  if (!checked.ok) {
    await countFailedSignIn(c);
    throw new ApiError("unauthorized", checked.error);
  }
  await refuseWhileOver(c);
  const { userId, authDate, groupId } = checked.value;
  const now = Math.floor(Date.now() / 1000);
  // A private chat's session lasts this long; a group's is renewed up to it while its user stays in the group.
  const ends = Math.min(now + APP_SESSION_SECONDS, authDate + INIT_DATA_MAX_AGE_SECONDS);
  let chatId = userId;
  let readOnly = false;
  let expires = ends;
  let session: string;
  if (groupId === null) {
    if (!allowedUserIds.includes(userId)) throw new ApiError("forbidden", notAllowedText(userId));
    session = await newAppSession(botToken!, userId, expires);
  } else {
    if (!(await servedGroup(c.var.config, c.env.DB, groupId))) throw new ApiError("forbidden", groupNotServedText(groupId));
    // Telegram's word, not the link's: the user is in the group, and as what (remembered by the group's object).
    const signed = await signGroupSession(c, groupId, userId, ends, false);
    chatId = groupId;
    ({ readOnly, expiresAt: expires, value: session } = signed);
  }
  c.header("Set-Cookie", appCookie(session, expires - now));
  c.header("Cache-Control", "no-store");
  const reply: AppSessionReply = { chatId, expiresAt: new Date(expires * 1000).toISOString(), session, ...(readOnly ? { readOnly: true as const } : {}) };
  return c.json(reply, 200);
});

/** What the OpenAPI document says of the Mini App's routes: `openapi.ts` builds it, a test checks it against the app. */
export const miniAppOperations = (): Operation[] => [
  {
    method: "get",
    path: "/app",
    summary: "The Scheduler page as a Telegram Mini App: one chat, the signed-in user's own, in Telegram's theme.",
    description:
      'The page of `/` in its one-chat mode (`<html data-mode="chat">`), with Telegram\'s `telegram-web-app.js` and a Content-Security-Policy that ' +
      "allows exactly that script and framing by https://web.telegram.org. The page signs in with `POST /app/session`.",
    access: "public",
    html: true,
    answers: [[200, "The page."]],
  },
  {
    method: "post",
    path: "/app/session",
    summary:
      "The Mini App's sign-in: Telegram's signed initData for a session of the user's own chat, or of the group it was opened from " +
      "(HttpOnly, Secure, SameSite=None, Partitioned cookie, and in the body).",
    description:
      "`initData` is checked as Telegram documents it: `hash` must be the hex HMAC-SHA256 of the data-check-string " +
      '(every other field, sorted, `key=value` lines) keyed with HMAC-SHA256("WebAppData", bot token), compared in constant time; ' +
      "`auth_date` at most 24 hours old and not ahead of the server's clock; the user in ALLOWED_USER_IDS. " +
      "Opened from a group (the init data's `chat`, or the direct link's `start_param` naming the group's id), the group must be in ALLOWED_CHAT_IDS " +
      "(or be the supergroup a listed group became) and the user in it, as getChatMember says: " +
      "its admins and the users in ALLOWED_USER_IDS get a session that changes its jobs, other members a read-only one " +
      "(`readOnly: true`; anything but a read is 403 `Only the group's admins can change its jobs.`, " +
      "and changes are checked against the group's admins again, at most 10 minutes old). " +
      "The session (`__Host-cuckoo-app`, also as `session` for an `Authorization: Bearer` header where cookies are blocked) " +
      "opens `/admin/chats/<own id>/…` and `POST /admin/preview` only; " +
      "other chats, `GET /admin/chats`, `GET /admin/jobs`, imports, the directory rebuild and erasing are 403. " +
      "As a cookie it follows the page's rules (same-origin JSON requests). " +
      "A private chat's session lasts 12 hours (never past the initData's 24). " +
      "A group's ends 10 minutes after Telegram's answer that its user is in the group; " +
      "on a request (a read too) once that answer is 5 minutes old, getChatMember is asked again: " +
      "while the user stays the session is renewed (a new cookie, and the value in the `X-Cuckoo-Session` response header for a bearer client), " +
      "up to the 12 hours; a user who left is refused with 403, and an ended session is 401. " +
      "It is signed with a key derived from the bot token, and never holds the token.",
    access: "public",
    body: "AppSessionRequest",
    answers: [[200, "Signed in; the Set-Cookie header carries the session too.", "AppSessionReply"]],
    errors: {
      unauthorized:
        "initData not signed by this bot, without a hash, malformed, more than 24 hours old or ahead of the clock, or naming no user (the message says which)",
      forbidden:
        "the user is not in ALLOWED_USER_IDS (for a group: the group is not served, or the user is not in it), " +
        "or the request is not a JSON request from this site",
      conflict: "Telegram could not be asked whether the user is in the group (getChatMember); try again",
      rate_limited: SIGN_IN_LIMITED,
      not_configured: "no TELEGRAM_BOT_TOKEN (transcript mode): there is no bot to sign initData",
      config_error: "a Telegram var is invalid; the message says which",
    },
  },
];
