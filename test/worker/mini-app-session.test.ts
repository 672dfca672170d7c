/**
 * The Mini App's sign-in and page (docs/api.md `GET /app` · `POST /app/session`; issue 18): initData signed by
 * this bot for an allowed user gets a session as an HttpOnly, Secure, SameSite=None, Partitioned cookie and in
 * the body, never the bot token; a bad, missing or old signature is 401 with its sentence, a user not allowed
 * 403, another site's request 403, no bot 503; `GET /app` is the page in its one-chat mode with Telegram's script
 * and a policy that allows exactly that. Users 5180001 (allowed) and 5180009 (not).
 */
import { describe, expect, it } from "vitest";
import { APP_SESSION_SECONDS } from "../../src/http/app-session";
import { APP_CSP, NO_BOT_TEXT, TELEGRAM_WEB_APP_JS } from "../../src/http/mini-app";
import { INIT_DATA_TEXT } from "../../src/telegram/init-data";
import { signInitData } from "../stub/init-data";
import { call, deployed, postJson } from "./helpers";

const BOT = "7000005180:AAE_mini-app-session-tests_abcdefgh";
const OTHER_BOT = "7000005181:AAE_some-other-bot_abcdefghijklmn";
const ADMIN = "admin-token-of-the-mini-app-tests";
const SITE = "http://localhost";
const USER = 5_180_001;
const withBot = deployed({ ADMIN_TOKEN: ADMIN, TELEGRAM_BOT_TOKEN: BOT, TELEGRAM_WEBHOOK_SECRET: "hook-secret", ALLOWED_USER_IDS: `${USER},5180002` });
const COOKIE =
  /^__Host-cuckoo-app=(app1\.5180001\.(\d+)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}); Path=\/; Max-Age=(\d+); HttpOnly; Secure; SameSite=None; Partitioned$/;

const error = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });
async function answer(res: Response) {
  const text = await res.text();
  return { status: res.status, body: text === "" ? null : JSON.parse(text) };
}
/** The client address of these sign-ins: their failures are this file's own (test/worker/sign-in-limit.test.ts). */
const ADDRESS = "192.0.2.18";
const signIn = (initData: unknown, testEnv = withBot, headers: Record<string, string> = { Origin: SITE }) =>
  call("/app/session", postJson({ initData }, { "CF-Connecting-IP": ADDRESS, ...headers }), testEnv);

describe("POST /app/session", () => {
  it("answers a session bound to the user's chat as a cookie and in the body, for 12 hours", async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await signIn(await signInitData(BOT, USER));
    const after = Math.floor(Date.now() / 1000);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const cookie = COOKIE.exec(res.headers.get("Set-Cookie") ?? "");
    expect(cookie, res.headers.get("Set-Cookie") ?? "no Set-Cookie").not.toBeNull();
    expect(Number(cookie![3])).toBe(APP_SESSION_SECONDS);
    const expires = Number(cookie![2]);
    expect(expires).toBeGreaterThanOrEqual(before + APP_SESSION_SECONDS);
    expect(expires).toBeLessThanOrEqual(after + APP_SESSION_SECONDS);
    expect(await res.json()).toEqual({ chatId: "5180001", expiresAt: new Date(expires * 1000).toISOString(), session: cookie![1] });
  });

  it("never outlives the initData's 24 hours: signed 23 hours ago, the session lasts the hour left", async () => {
    const now = Math.floor(Date.now() / 1000);
    const authDate = now - 23 * 3600;
    const res = await signIn(await signInitData(BOT, USER, { authDate }));
    const cookie = COOKIE.exec(res.headers.get("Set-Cookie") ?? "");
    expect(Number(cookie![2])).toBe(authDate + 24 * 3600);
    expect(Number(cookie![3])).toBeGreaterThanOrEqual(3600 - 2);
    expect(Number(cookie![3])).toBeLessThanOrEqual(3600);
  });

  it("leaks neither the bot token nor the admin token, in the body or any header", async () => {
    const res = await signIn(await signInitData(BOT, USER));
    const everything = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${await res.text()}`;
    for (const secret of [BOT, BOT.split(":")[1]!, ADMIN]) expect(everything).not.toContain(secret);
  });

  it("refuses initData signed by another bot, changed, without a hash, older than 24 hours or not naming a user, with 401 and the sentence", async () => {
    const good = await signInitData(BOT, USER);
    const cases: [string, string][] = [
      [await signInitData(OTHER_BOT, USER), INIT_DATA_TEXT.badHash],
      [good.replace(`%22id%22%3A${USER}`, "%22id%22%3A5180002"), INIT_DATA_TEXT.badHash],
      [good.replace(/&hash=[0-9a-f]+$/, ""), INIT_DATA_TEXT.noHash],
      [await signInitData(BOT, USER, { authDate: Math.floor(Date.now() / 1000) - 24 * 3600 - 5 }), INIT_DATA_TEXT.old],
      [await signInitData(BOT, USER, { authDate: Math.floor(Date.now() / 1000) + 3600 }), INIT_DATA_TEXT.ahead],
      [`${good}&user=x`, INIT_DATA_TEXT.malformed],
    ];
    for (const [initData, sentence] of cases) {
      const res = await signIn(initData);
      expect(res.headers.get("Set-Cookie"), initData).toBeNull();
      expect(await answer(res), initData).toEqual(error(401, "unauthorized", sentence));
    }
  });

  it("refuses a user outside ALLOWED_USER_IDS with 403 and the sentence", async () => {
    const res = await signIn(await signInitData(BOT, 5_180_009));
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await answer(res)).toEqual(
      error(403, "forbidden", "Telegram user 5180009 may not use this bot; the operator lists the users it serves in ALLOWED_USER_IDS."),
    );
  });

  it("refuses a body without initData, and requests that are not JSON from this site", async () => {
    const initData = await signInitData(BOT, USER);
    expect(await answer(await signIn(undefined))).toEqual(
      error(
        400,
        "bad_request",
        '"initData" must be Telegram.WebApp.initData, the query string Telegram hands the Mini App, such as "query_id=AAH…&user=%7B%22id%22%3A111…%7D&auth_date=1767225600&hash=…".',
      ),
    );
    expect(await answer(await signIn(initData, withBot, {}))).toEqual(
      error(403, "forbidden", "A POST with the session cookie must carry an Origin header naming this site (http://localhost)."),
    );
    expect(await answer(await signIn(initData, withBot, { Origin: "https://evil.example" }))).toEqual(
      error(403, "forbidden", 'A POST with the session cookie must come from this site (http://localhost); the Origin header is "https://evil.example".'),
    );
    const form = await call(
      "/app/session",
      { method: "POST", headers: { Origin: SITE, "Content-Type": "text/plain" }, body: JSON.stringify({ initData }) },
      withBot,
    );
    expect(await answer(form)).toEqual(error(403, "forbidden", 'A POST with the session cookie needs "Content-Type: application/json".'));
  });

  it("says without a bot that the Mini App needs TELEGRAM_BOT_TOKEN (503), and names an invalid Telegram var (500)", async () => {
    const initData = await signInitData(BOT, USER);
    expect(await answer(await signIn(initData, deployed({ ADMIN_TOKEN: ADMIN })))).toEqual(error(503, "not_configured", NO_BOT_TEXT));
    expect(await answer(await signIn(initData, deployed({ TELEGRAM_BOT_TOKEN: BOT, ALLOWED_USER_IDS: String(USER) })))).toEqual(
      error(
        500,
        "config_error",
        "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_BOT_TOKEN; set one with wrangler secret put TELEGRAM_WEBHOOK_SECRET (1–256 characters of A–Z, a–z, 0–9, _ and -).",
      ),
    );
  });
});

describe("GET /app", () => {
  it("is the page in its one-chat mode, with Telegram's script before the page's module", async () => {
    const res = await call("/app", {}, withBot);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain('<html lang="en" data-mode="chat">');
    expect(html).toContain(`<script src="${TELEGRAM_WEB_APP_JS}" defer></script><script type="module" src="/js/main.js"></script>`);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain('<section id="scheduler" hidden aria-label="Jobs" data-t-aria-label="jobs">');
  });

  it("allows exactly Telegram's script and framing by Telegram Web, and nothing else of another site", async () => {
    const res = await call("/app", {}, deployed());
    expect(res.headers.get("Content-Security-Policy")).toBe(APP_CSP);
    expect(APP_CSP).toBe(
      "default-src 'self'; script-src 'self' https://telegram.org/js/telegram-web-app.js; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors https://web.telegram.org",
    );
    expect(res.headers.get("X-Frame-Options")).toBeNull();
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
