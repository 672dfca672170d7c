/** `GET /healthz` (docs/api.md): the modes when configured, every config error as a sentence otherwise. */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { version } from "../../package.json";
import { call, deployed, envWith } from "./helpers";

describe("GET /healthz", () => {
  it("answers ok with the modes of the embedded default (no configuration)", async () => {
    const res = await exports.default.fetch("http://localhost/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({ ok: true, version, telegram: "off", runner: "off", agent: "echo", agentProvider: "openai" });
  });

  it("answers 503 with the sentence of an invalid DEFAULT_TIMEZONE", async () => {
    const res = await call("/healthz", {}, envWith({ DEFAULT_TIMEZONE: "Mars/Olympus" }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ok: false,
      errors: ['DEFAULT_TIMEZONE "Mars/Olympus" is not a time zone; use an IANA name such as Europe/Berlin.'],
    });
  });

  it("lists every invalid var, in a fixed order", async () => {
    const res = await call(
      "/healthz",
      {},
      deployed({
        DEFAULT_SCRIPT_TIMEOUT: "0",
        TELEGRAM_BOT_TOKEN: "123456789:AAEabcdefghijklmnopqrstuvwxyz012345",
        RUNNER_URL: "http://127.0.0.1:8788",
        RUNNER_SECRET: "runner-secret",
      }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ok: false,
      errors: [
        'DEFAULT_SCRIPT_TIMEOUT must be a whole number of seconds from 1 to 3600; got "0".',
        "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_BOT_TOKEN; set one with wrangler secret put TELEGRAM_WEBHOOK_SECRET (1–256 characters of A–Z, a–z, 0–9, _ and -).",
        "PUBLIC_URL is required with RUNNER_URL outside dev; set it to this Worker's base URL, such as https://cuckoo.example.workers.dev.",
      ],
    });
  });

  it("reports the webhook, URL runner and llm modes without showing any secret", async () => {
    const secrets = {
      TELEGRAM_BOT_TOKEN: "123456789:AAEabcdefghijklmnopqrstuvwxyz012345",
      TELEGRAM_WEBHOOK_SECRET: "hook-secret_1",
      RUNNER_SECRET: "runner-secret",
      LLM_API_KEY: "sk-test-key",
      ADMIN_TOKEN: "admin-token",
    };
    const res = await call(
      "/healthz",
      {},
      deployed({
        ...secrets,
        RUNNER_URL: "http://127.0.0.1:8788",
        PUBLIC_URL: "https://cuckoo.example.workers.dev",
        LLM_BASE_URL: "http://127.0.0.1:9999/v1",
        LLM_MODEL: "gpt-4o-mini",
      }),
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      ok: true,
      version,
      telegram: "webhook",
      runner: "url",
      agent: "llm",
      agentProvider: "openai",
      blockedChats: expect.any(Number),
    });
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
  });
});
