/** The access rule of docs/api.md#access on the admin routes: tokens, the open-dev guard, not_configured when deployed. */
import { describe, expect, it } from "vitest";
import { sameSecret } from "../../src/http/auth";
import { call, deployed, envWith, postJson } from "./helpers";

const TOKEN = "admin-token-7f3a";
const body = { cron: "0 9 * * *", from: "2026-03-28T12:00:00Z", count: 1 };

async function result(res: Response) {
  return { status: res.status, body: await res.json() };
}

describe("a set ADMIN_TOKEN", () => {
  const withToken = deployed({ ADMIN_TOKEN: TOKEN });

  it("refuses a request without a bearer token with 401 and a challenge", async () => {
    const res = await call("/admin/preview", postJson(body), withToken);
    expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect(await result(res)).toEqual({
      status: 401,
      body: { error: { code: "unauthorized", message: 'Send ADMIN_TOKEN as "Authorization: Bearer <token>".' } },
    });
  });

  it("treats another scheme as no bearer token", async () => {
    const res = await call("/admin/preview", postJson(body, { Authorization: `Basic ${TOKEN}` }), withToken);
    expect(res.status).toBe(401);
    expect((await res.json()) as unknown).toEqual({
      error: { code: "unauthorized", message: 'Send ADMIN_TOKEN as "Authorization: Bearer <token>".' },
    });
  });

  it("refuses a wrong token with 401", async () => {
    for (const wrong of ["admin-token-7f3b", "admin-token-7f3a0", "x"]) {
      const res = await call("/admin/preview", postJson(body, { Authorization: `Bearer ${wrong}` }), withToken);
      expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
      expect(await result(res)).toEqual({
        status: 401,
        body: { error: { code: "unauthorized", message: "The bearer token does not match ADMIN_TOKEN." } },
      });
    }
  });

  it("lets the right token through", async () => {
    const res = await call("/admin/preview", postJson(body, { Authorization: `Bearer ${TOKEN}` }), withToken);
    expect(res.status).toBe(200);
  });

  it("is required in dev too, and then the dev guard does not apply", async () => {
    const devWithToken = envWith({ ADMIN_TOKEN: TOKEN });
    expect((await call("/admin/preview", postJson(body), devWithToken)).status).toBe(401);
    const res = await call(
      "/admin/preview",
      { method: "POST", headers: { Authorization: `bearer ${TOKEN}`, Origin: "https://elsewhere.example" }, body: JSON.stringify(body) },
      devWithToken,
    );
    expect(res.status).toBe(200);
  });

  it("guards unknown admin paths too, so routes cannot be probed", async () => {
    expect((await call("/admin/nope", {}, withToken)).status).toBe(401);
    const res = await call("/admin/nope", { headers: { Authorization: `Bearer ${TOKEN}` } }, withToken);
    expect(await result(res)).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: "No route GET /admin/nope; see GET /admin/openapi.json." } },
    });
  });
});

describe("open dev mode (CUCKOO_DEV=1, no token)", () => {
  it("answers requests without Origin or Referer (curl, scripts)", async () => {
    expect((await call("/admin/preview", postJson(body))).status).toBe(200);
  });

  it("answers localhost, 127.0.0.1 and [::1] pages on any port", async () => {
    for (const origin of ["http://localhost:8787", "http://127.0.0.1:5173", "http://[::1]:8787", "https://localhost"]) {
      const res = await call("/admin/preview", postJson(body, { Origin: origin, Referer: `${origin}/` }));
      expect(res.status, origin).toBe(200);
    }
  });

  it("answers requests addressed to localhost, 127.0.0.1 or [::1] on any port", async () => {
    for (const host of ["http://localhost:8787", "http://127.0.0.1:9999", "http://[::1]:8787", "https://localhost"]) {
      expect((await call(`${host}/admin/chats/123456789/jobs`)).status, host).toBe(200);
    }
  });

  it("refuses a request addressed to another host (DNS rebinding: a page whose name now points at 127.0.0.1)", async () => {
    for (const host of ["attacker.example:8787", "localhost.evil.example", "127.0.0.1.nip.io:8787", "10.0.0.5"]) {
      const res = await call(`http://${host}/admin/chats/123456789/jobs`);
      const hostname = new URL(`http://${host}`).hostname;
      expect(await result(res), host).toEqual({
        status: 403,
        body: {
          error: {
            code: "forbidden",
            message: `The open dev API answers only requests to localhost, 127.0.0.1 or [::1]; this one is addressed to "${hostname}".`,
          },
        },
      });
    }
  });

  it("refuses a foreign Origin with 403 forbidden", async () => {
    expect(await result(await call("/admin/preview", postJson(body, { Origin: "https://evil.example" })))).toEqual({
      status: 403,
      body: {
        error: {
          code: "forbidden",
          message: 'The open dev API answers only pages on localhost, 127.0.0.1 or [::1]; the Origin header is "https://evil.example".',
        },
      },
    });
  });

  it("refuses a foreign Referer, a null Origin and a look-alike host", async () => {
    const cases: Record<string, string>[] = [
      { Referer: "https://evil.example/page" },
      { Origin: "null" },
      { Origin: "http://localhost.evil.example" },
      { Origin: "http://localhost:8787", Referer: "http://evil.example/" },
    ];
    for (const headers of cases) {
      const res = await call("/admin/preview", postJson(body, headers));
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
  });

  it("refuses a POST without Content-Type: application/json, with or without a body", async () => {
    const expected = {
      status: 403,
      body: {
        error: { code: "forbidden", message: 'The open dev API needs "Content-Type: application/json" on POST requests.' },
      },
    };
    expect(await result(await call("/admin/preview", { method: "POST", body: JSON.stringify(body) }))).toEqual(expected);
    expect(await result(await call("/admin/preview", { method: "POST" }))).toEqual(expected);
    const plain = { method: "POST", headers: { "Content-Type": "text/plain" }, body: JSON.stringify(body) };
    expect(await result(await call("/admin/preview", plain))).toEqual(expected);
  });

  it("accepts application/json with parameters and any case", async () => {
    const init = { method: "POST", headers: { "Content-Type": "Application/JSON; charset=utf-8" }, body: JSON.stringify(body) };
    expect((await call("/admin/preview", init)).status).toBe(200);
  });

  it("needs no content type on GET", async () => {
    expect((await call("/admin/openapi.json", { headers: { Origin: "http://localhost:8787" } })).status).toBe(200);
  });
});

describe("deployed (CUCKOO_DEV=0) without ADMIN_TOKEN", () => {
  it("answers 503 not_configured naming the secret to set", async () => {
    expect(await result(await call("/admin/preview", postJson(body), deployed()))).toEqual({
      status: 503,
      body: {
        error: {
          code: "not_configured",
          message: "Set the ADMIN_TOKEN secret (wrangler secret put ADMIN_TOKEN) to use the admin API.",
        },
      },
    });
  });

  it("still serves /healthz, which needs no token", async () => {
    expect((await call("/healthz", {}, deployed())).status).toBe(200);
  });
});

describe("sameSecret", () => {
  it("compares by value, whatever the lengths", async () => {
    expect(await sameSecret("abc", "abc")).toBe(true);
    expect(await sameSecret("abc", "abd")).toBe(false);
    expect(await sameSecret("abc", "abcd")).toBe(false);
    expect(await sameSecret("", "a")).toBe(false);
  });
});
