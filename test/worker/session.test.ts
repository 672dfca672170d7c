/**
 * The page's login (docs/api.md; issue 15): `POST /admin/session` trades ADMIN_TOKEN for a signed, expiring
 * session cookie (HttpOnly, Secure, SameSite=Strict), never the token; the cookie opens the admin API only for
 * same-origin requests (Origin naming this site, JSON bodies); `DELETE` clears it; changing the token ends it.
 */
import { describe, expect, it } from "vitest";
import { newSession, SESSION_SECONDS } from "../../src/http/session-cookie";
import { call, deployed, envWith, postJson } from "./helpers";

const TOKEN = "admin-token-of-the-session-tests";
const withToken = deployed({ ADMIN_TOKEN: TOKEN });
const SITE = "http://localhost";

async function signIn(): Promise<{ cookie: string; setCookie: string; body: { expiresAt: string } }> {
  const res = await call("/admin/session", postJson({ token: TOKEN }, { Origin: SITE }), withToken);
  expect(res.status).toBe(200);
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  return { cookie: setCookie.split(";")[0]!, setCookie, body: (await res.json()) as { expiresAt: string } };
}

const error = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });
async function answer(res: Response) {
  const text = await res.text();
  return { status: res.status, body: text === "" ? null : JSON.parse(text) };
}

describe("POST /admin/session", () => {
  it("sets a signed session cookie with an expiry, never the token, for the right token", async () => {
    const before = Date.now();
    const { setCookie, body } = await signIn();
    expect(setCookie).toMatch(
      /^__Host-cuckoo-session=v1\.\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect(setCookie).not.toContain(TOKEN);
    const expires = Date.parse(body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + SESSION_SECONDS * 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + SESSION_SECONDS * 1000);
  });

  it("refuses a wrong token, a missing one and a request from another site, setting nothing", async () => {
    for (const [init, expected] of [
      [postJson({ token: "nope" }, { Origin: SITE }), error(401, "unauthorized", "The token does not match ADMIN_TOKEN.")],
      [postJson({}, { Origin: SITE }), error(400, "bad_request", '"token" must be the ADMIN_TOKEN, a string such as "s3cret-token".')],
      [
        postJson({ token: TOKEN }, { Origin: "https://evil.example" }),
        error(403, "forbidden", 'A POST with the session cookie must come from this site (http://localhost); the Origin header is "https://evil.example".'),
      ],
      [
        { method: "POST", headers: { Origin: SITE, "Content-Type": "text/plain" }, body: JSON.stringify({ token: TOKEN }) },
        error(403, "forbidden", 'A POST with the session cookie needs "Content-Type: application/json".'),
      ],
    ] as const) {
      const res = await call("/admin/session", init, withToken);
      expect(res.headers.get("Set-Cookie")).toBeNull();
      expect(await answer(res)).toEqual(expected);
    }
  });

  it("needs no login in open dev mode, and answers 503 deployed without a token", async () => {
    expect(await answer(await call("/admin/session", postJson({}, { Origin: SITE }), envWith()))).toEqual({ status: 200, body: { expiresAt: null } });
    expect(await answer(await call("/admin/session", { method: "GET", headers: { Origin: SITE } }, envWith()))).toEqual({
      status: 200,
      body: { via: "open", expiresAt: null },
    });
    expect(await answer(await call("/admin/session", postJson({ token: "x" }), deployed()))).toEqual(
      error(503, "not_configured", "Set the ADMIN_TOKEN secret (wrangler secret put ADMIN_TOKEN) to use the admin API."),
    );
  });
});

describe("the session cookie on the admin API", () => {
  it("reads with the cookie, and says how the request got in", async () => {
    const { cookie, body } = await signIn();
    expect((await call("/admin/chats", { headers: { Cookie: cookie } }, withToken)).status).toBe(200);
    expect(await answer(await call("/admin/session", { headers: { Cookie: cookie } }, withToken))).toEqual({
      status: 200,
      body: { via: "cookie", expiresAt: body.expiresAt },
    });
    expect(await answer(await call("/admin/session", { headers: { Authorization: `Bearer ${TOKEN}` } }, withToken))).toEqual({
      status: 200,
      body: { via: "bearer", expiresAt: null },
    });
  });

  it("changes things only for JSON requests from this site", async () => {
    const { cookie } = await signIn();
    const preview = (headers: Record<string, string>) =>
      call("/admin/preview", { method: "POST", headers: { Cookie: cookie, ...headers }, body: JSON.stringify({ cron: "0 8 * * *" }) }, withToken);
    expect((await preview({ Origin: SITE, "Content-Type": "application/json" })).status).toBe(200);
    expect(await answer(await preview({ "Content-Type": "application/json" }))).toEqual(
      error(403, "forbidden", "A POST with the session cookie must carry an Origin header naming this site (http://localhost)."),
    );
    expect(await answer(await preview({ Origin: "http://localhost:9999", "Content-Type": "application/json" }))).toEqual(
      error(403, "forbidden", 'A POST with the session cookie must come from this site (http://localhost); the Origin header is "http://localhost:9999".'),
    );
    expect(await answer(await preview({ Origin: SITE, "Content-Type": "text/plain" }))).toEqual(
      error(403, "forbidden", 'A POST with the session cookie needs "Content-Type: application/json".'),
    );
  });

  it("refuses a tampered cookie, an expired one, and one signed before the token changed", async () => {
    const { cookie } = await signIn();
    const expired = await newSession(TOKEN, Date.now() - (SESSION_SECONDS + 60) * 1000);
    const rotated = await newSession("the-old-admin-token", Date.now());
    const refused = error(401, "unauthorized", "The session has expired or is not valid; sign in again with ADMIN_TOKEN.");
    for (const value of [`${cookie.slice(0, -2)}AA`, `__Host-cuckoo-session=${expired.value}`, `__Host-cuckoo-session=${rotated.value}`]) {
      expect(await answer(await call("/admin/chats", { headers: { Cookie: value } }, withToken))).toEqual(refused);
    }
  });

  it("is cleared by DELETE /admin/session", async () => {
    const res = await call("/admin/session", { method: "DELETE", headers: { Origin: SITE } }, withToken);
    expect(res.status).toBe(204);
    expect(res.headers.get("Set-Cookie")).toBe("__Host-cuckoo-session=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict");
  });
});
