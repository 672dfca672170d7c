/**
 * `npm run doctor` (docs/doctor.md) as an operator runs it, against the real Worker under `wrangler dev`: the tier's
 * shared Worker in open dev mode with its runner (no bot), and the one with a bot whose Bot API is the local stub, where
 * the bot is first set up with `npm run telegram:setup` as a deploy sets it. Each line is checked as documented.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { LISTED } from "../../src/telegram/menu.js";
import { freePort, sharedWorker, type Worker } from "./harness.js";
import { sharedRunner } from "./runner.js";
import { scriptBotApi } from "./telegram-chat.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** A bot of this file's own on the shared stub (the Worker's own token is the telegram files'). */
const TOKEN = "123456789:AAE_e2e-doctor_abcdefghijklmnopqrstu";

type Run = { code: number; stdout: string; stderr: string };

/** Runs a script of scripts/ with these vars (none of the machine's tokens). */
function script(name: string, args: string[], vars: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CUCKOO_DEPLOY_DIR: path.join(root, ".wrangler", "doctor-test-none"),
      ...vars,
    };
    execFile(process.execPath, [path.join(root, "scripts", name), ...args], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** What the migrations line says once every file of migrations/ is applied. */
const files = readdirSync(path.join(root, "migrations")).filter((name) => name.endsWith(".sql"));
const MIGRATIONS = `${files.length} of ${files.length} applied, the last ${files.sort().at(-1)}.`;

describe("npm run doctor", () => {
  let dev: Worker;
  let bot: Worker;
  beforeAll(async () => {
    [dev, bot] = await Promise.all([sharedWorker("dev"), sharedWorker("telegram")]);
    // The bot set up as npm run deploy sets it, at the Worker's address.
    const setup = await script("telegram-setup.mjs", [], {
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_BASE: inject("telegramStub"),
      TELEGRAM_WEBHOOK_SECRET: "doctor-secret",
      PUBLIC_URL: bot.base,
    });
    expect(setup.code).toBe(0);
  });

  it("checks npm run dev's Worker: healthz, no bot, the runner with its secret, the echo agent, the migrations", async () => {
    const runner = sharedRunner();
    const run = await script("doctor.mjs", [dev.base], {});
    expect(run).toEqual({
      code: 0,
      stdout: [
        `ok   healthz     Cuckoo 0.1.0 answers at ${dev.base}: telegram off, runner url, agent echo.`,
        "off  telegram    No bot: the Worker runs in transcript mode. To connect one: TELEGRAM_BOT_TOKEN=… npm run deploy (docs/telegram.md).",
        `ok   runner      The runner at ${runner.url} answers and takes RUNNER_SECRET.`,
        "off  model       The echo agent answers; no model is called. To use a model: npm run deploy (Workers AI, no key), or LLM_BASE_URL and LLM_MODEL (docs/agent.md).",
        `ok   migrations  ${MIGRATIONS}`,
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("reads the address from CUCKOO_URL, and says in one line that nothing answers there", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await script("doctor.mjs", [], { CUCKOO_URL: closed });
    expect(run).toEqual({
      code: 1,
      stdout: [
        `fail healthz     Nothing answers at ${closed} (the connection was refused): start it with npm run dev, or name the deployed Worker (npm run doctor https://…).`,
        "skip telegram    Give TELEGRAM_BOT_TOKEN to check the webhook, the commands and the menu button.",
        "skip worker      The runner, the model and the D1 migrations are checked once /healthz answers.",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("with a bot: the webhook, the menu in each language and, over http, no menu button; then Telegram's last error explained", async () => {
    const stub = inject("telegramStub");
    const vars = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_BASE: stub };
    const lines = (webhook: string) =>
      [
        `ok   healthz     Cuckoo 0.1.0 answers at ${bot.base}: telegram webhook, runner off, agent echo.`,
        webhook,
        `ok   commands    ${LISTED.length} commands in the menu in en, de, fr, es, pt, it, nl, ru.`,
        `off  menu button None: the Mini App needs an https address, and ${bot.base} is not one.`,
        'off  runner      No runner is configured, so watchers fail "did not start". To run them: npm run deploy where Docker runs (the runner container), or a runner of your own at RUNNER_URL (docs/runner.md).',
        "off  model       The echo agent answers; no model is called. To use a model: npm run deploy (Workers AI, no key), or LLM_BASE_URL and LLM_MODEL (docs/agent.md).",
        `ok   migrations  ${MIGRATIONS}`,
        "",
      ].join("\n");
    expect(await script("doctor.mjs", [bot.base], vars)).toEqual({
      code: 0,
      stdout: lines(`ok   webhook     @CuckooTestBot gets its updates at ${bot.base}/telegram/webhook, 0 pending update(s), no error.`),
      stderr: "",
    });

    const res = await fetch(`${stub}/__stub/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        token: TOKEN,
        pending_update_count: 3,
        last_error_message: "Wrong response from the webhook: 403 Forbidden",
        last_error_date: 1767225600,
      }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(200);
    expect(await script("doctor.mjs", [bot.base], vars)).toEqual({
      code: 1,
      stdout: lines(
        `fail webhook     ${bot.base}/telegram/webhook, 3 pending update(s): Telegram says "Wrong response from the webhook: 403 Forbidden": something in front of the Worker refused Telegram (Cuckoo answers a wrong secret with 401, not 403), most likely a Cloudflare WAF rule, Bot Fight Mode or Under Attack Mode on the zone; let POST /telegram/webhook through (a WAF skip rule for that path) or turn Bot Fight Mode off.`,
      ),
      stderr: "",
    });
  });

  it("says a webhook that points elsewhere, and a token Telegram does not know", async () => {
    const stub = inject("telegramStub");
    const vars = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_BASE: stub };
    const other = `http://127.0.0.1:${await freePort()}`;
    const elsewhere = await script("doctor.mjs", [`${other}/`], vars);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout.split("\n").slice(1, 2)).toEqual([
      `fail webhook     @CuckooTestBot's webhook points to ${bot.base}/telegram/webhook, not ${other}/telegram/webhook: run npm run deploy (or npm run telegram:setup).`,
    ]);
    await scriptBotApi(stub, "getMe", TOKEN, [{ kind: "raw", status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } }]);
    const run = await script("doctor.mjs", [bot.base], vars);
    expect(run.code).toBe(1);
    expect(run.stdout.split("\n")[1]).toBe(
      "fail telegram    Telegram does not know this TELEGRAM_BOT_TOKEN (401): copy it again from @BotFather (/mybots, API Token).",
    );
    expect(run.stdout).not.toContain(TOKEN);
  });
});
