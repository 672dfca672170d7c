/**
 * `npm run deploy` (docs/operations.md#npm-run-deploy) as an operator runs it, with no network: wrangler is the recording
 * stand-in of test/stub/wrangler-stub.ts (its account kept in a temporary folder; its deploy "publishes" the tier's
 * shared Worker with a bot, whose address it prints), the Bot API is the local stub, and Docker does not answer.
 * The real wrangler checks what it can offline: the generated configuration builds (`deploy --dry-run`), and without a
 * login the deploy stops in one sentence. Pinned: each step's line, the exact wrangler calls, secrets only on stdin and
 * never printed, a second run that changes nothing, a wrong token that changes nothing, Telegram's last error explained.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LISTED } from "../../src/telegram/menu.js";
import { sharedWorker, type Worker } from "./harness.js";
import { scriptBotApi } from "./telegram-chat.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** A bot of this file's own on the shared stub. */
const TOKEN = "123456789:AAE_e2e-deploy_abcdefghijklmnopqrstuv";
const DB = "d1d1d1d1-0000-4000-8000-000000000001";
const files = readdirSync(path.join(root, "migrations"))
  .filter((name) => name.endsWith(".sql"))
  .sort();

type Run = { code: number; stdout: string; stderr: string };

let worker: Worker;
let scratch: string;
let account: string;
let production: string;

beforeAll(async () => {
  worker = await sharedWorker("telegram");
  scratch = mkdtempSync(path.join(tmpdir(), "cuckoo-deploy-"));
  account = path.join(scratch, "account");
  production = path.join(scratch, "production");
  mkdirSync(account);
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** `npm run deploy` with the stand-ins, these vars, and no terminal. */
function deploy(vars: Record<string, string> = {}, args: string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CUCKOO_WRANGLER: path.join(root, "test", "stub", "wrangler-stub.ts"),
      WRANGLER_STUB_DIR: account,
      WRANGLER_STUB_URL: worker.base,
      CUCKOO_DEPLOY_DIR: production,
      CUCKOO_DOCKER: "false",
      TELEGRAM_API_BASE: inject("telegramStub"),
      TELEGRAM_BOT_TOKEN: TOKEN,
      ...vars,
    };
    execFile(process.execPath, [path.join(root, "scripts", "deploy.mjs"), ...args], { cwd: root, env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The wrangler calls so far: argv and stdin. */
function calls(): { argv: string[]; stdin: string }[] {
  const file = path.join(account, "calls.jsonl");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
    : [];
}

/** Bot API calls of this file's token, by method. */
async function botCalls(): Promise<string[]> {
  const res = await fetch(`${inject("telegramStub")}/__stub/calls?token=${encodeURIComponent(TOKEN)}`, { signal: AbortSignal.timeout(5_000) });
  return ((await res.json()) as { calls: { method: string }[] }).calls.map((c) => c.method);
}

const clearBotCalls = () =>
  fetch(`${inject("telegramStub")}/__stub/calls?token=${encodeURIComponent(TOKEN)}`, { method: "DELETE", signal: AbortSignal.timeout(5_000) });

const NO_DOCKER =
  'Runner: Docker does not answer here, so the Worker is deployed without the runner container, and watchers fail "did not start" until you run npm run deploy where Docker runs or run a runner of your own (docs/runner.md).';
const LANGS = "en, de, fr, es, pt, it, nl, ru";

/** The doctor's lines at the end of a deploy, with this webhook line. */
const doctor = (webhook: string) => [
  `Doctor (npm run doctor ${worker.base}):`,
  `  ok   healthz     Cuckoo 0.1.0 answers at ${worker.base}: telegram webhook, runner off, agent echo.`,
  `  ${webhook}`,
  `  ok   commands    ${LISTED.length} commands in the menu in ${LANGS}.`,
  `  off  menu button None: the Mini App needs an https address, and ${worker.base} is not one.`,
  '  off  runner      No runner is configured, so watchers fail "did not start". To run them: npm run deploy where Docker runs (the runner container), or a runner of your own at RUNNER_URL (docs/runner.md).',
  "  off  model       The echo agent answers; no model is called. To use a model: npm run deploy (Workers AI, no key), or LLM_BASE_URL and LLM_MODEL (docs/agent.md).",
  `  ok   migrations  ${files.length} of ${files.length} applied, the last ${files.at(-1)}.`,
];

const MUTATING = /^(d1 create|queues create|d1 migrations apply|secret bulk|secret put|deploy)/;
const config = () => path.join(production, "wrangler.toml");

describe("npm run deploy", () => {
  it("stops at a token that is not a bot token, or that Telegram does not know, before any wrangler call", async () => {
    const malformed = await deploy({ TELEGRAM_BOT_TOKEN: "not-a-token" });
    expect(malformed).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "TELEGRAM_BOT_TOKEN does not look like a bot token: @BotFather gives one such as 123456789:AAE… (the bot's id, a colon, 35 characters); nothing was changed.\n",
    });
    const unknown = "987654321:AAE_e2e-deploy-unknown_abcdefghijklmno";
    await scriptBotApi(inject("telegramStub"), "getMe", unknown, [
      { kind: "raw", status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } },
    ]);
    expect(await deploy({ TELEGRAM_BOT_TOKEN: unknown })).toEqual({
      code: 1,
      stdout: "",
      stderr: "Telegram does not know this TELEGRAM_BOT_TOKEN (401): copy it again from @BotFather (/mybots, API Token); nothing was changed.\n",
    });
    expect(calls()).toEqual([]);
    expect(existsSync(production)).toBe(false);
  });

  it("provisions, migrates, generates and stores the secrets, deploys, sets up the bot and ends with the doctor", async () => {
    await clearBotCalls();
    const run = await deploy({ ALLOWED_USER_IDS: "111222333" });
    const kept = path.join(production, "secrets.env");
    expect(run).toEqual({
      code: 0,
      stdout: [
        "Telegram: the token is @CuckooTestBot's.",
        `D1 database cuckoo: created (${DB}).`,
        "Queue prompts: created.",
        "Queue prompts-dlq: created.",
        NO_DOCKER,
        `Configuration: wrote ${config()} from wrangler.toml: D1 ${DB}, Workers AI as the model (no key), no runner container.`,
        `D1 migrations: applied ${files.join(", ")}.`,
        `Secrets: generated ADMIN_TOKEN, TOOLS_TOKEN, TELEGRAM_WEBHOOK_SECRET, RUNNER_SECRET and kept them in ${kept} (mode 0600); stored TELEGRAM_BOT_TOKEN as given (kept only on Cloudflare).`,
        `Worker: deployed to ${worker.base}.`,
        `Worker: deployed again with PUBLIC_URL ${worker.base}, the address it gives out.`,
        `Webhook: set to ${worker.base}/telegram/webhook, with its secret and the 4 update types the bot reads (message, edited_message, callback_query, my_chat_member).`,
        `Commands: set the menu of ${LISTED.length} commands in ${LANGS}.`,
        "Menu button: none, since the Mini App needs an https PUBLIC_URL, nothing to change.",
        "Webhook: Telegram reports 0 pending update(s) and no delivery error.",
        ...doctor(`ok   webhook     @CuckooTestBot gets its updates at ${worker.base}/telegram/webhook, 0 pending update(s), no error.`),
        `Done: the page is ${worker.base}/; sign in with the ADMIN_TOKEN in ${kept}.`,
        "",
      ].join("\n"),
      stderr: "",
    });
    const cfg = ["--config", config()];
    expect(calls().map((c) => c.argv)).toEqual([
      ["d1", "list", "--json"],
      ["d1", "create", "cuckoo"],
      ["d1", "list", "--json"],
      ["queues", "info", "prompts"],
      ["queues", "create", "prompts"],
      ["queues", "info", "prompts-dlq"],
      ["queues", "create", "prompts-dlq"],
      ["d1", "migrations", "list", "DB", "--remote", ...cfg],
      ["d1", "migrations", "apply", "DB", "--remote", ...cfg],
      ["secret", "list", "--format", "json", ...cfg],
      ["secret", "bulk", ...cfg],
      ["deploy", ...cfg],
      ["deploy", ...cfg],
    ]);
    // The secrets went on stdin, all in one call, and are kept with mode 0600; none is printed or on a command line.
    const secrets = Object.fromEntries(
      readFileSync(kept, "utf8")
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split("=") as [string, string]),
    );
    expect(Object.keys(secrets)).toEqual(["ADMIN_TOKEN", "TOOLS_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "RUNNER_SECRET"]);
    for (const value of Object.values(secrets)) expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(statSync(production).mode & 0o777).toBe(0o700);
    expect(JSON.parse(calls().find((c) => c.argv[1] === "bulk")!.stdin)).toEqual({ ...secrets, TELEGRAM_BOT_TOKEN: TOKEN });
    for (const value of [...Object.values(secrets), TOKEN]) {
      expect(run.stdout).not.toContain(value);
      for (const call of calls()) expect(call.argv.join(" ")).not.toContain(value);
    }
    // The generated configuration: the database's id, the vars, Workers AI; wrangler.toml itself never has the binding.
    const text = readFileSync(config(), "utf8");
    expect(text).toContain(`database_id = "${DB}"`);
    expect(text).toContain(`[vars]\nALLOWED_USER_IDS = "111222333"\nPUBLIC_URL = "${worker.base}"\nLLM_PROVIDER = "workers-ai"\n`);
    expect(text.endsWith('[ai]\nbinding = "AI"\n')).toBe(true);
    expect(text).not.toContain("[[containers]]");
    expect(readFileSync(path.join(root, "wrangler.toml"), "utf8")).not.toContain("[ai]");
    const methods = await botCalls();
    expect(methods.filter((m) => m.startsWith("set"))).toEqual(["setWebhook", ...LANGS.split(", ").map(() => "setMyCommands")]);
  });

  it("runs again with nothing to change, and says so for each step", async () => {
    const before = calls().length;
    await clearBotCalls();
    const run = await deploy();
    expect(run).toEqual({
      code: 0,
      stdout: [
        "Telegram: the token is @CuckooTestBot's.",
        `D1 database cuckoo: exists (${DB}), nothing to change.`,
        "Queue prompts: exists, nothing to change.",
        "Queue prompts-dlq: exists, nothing to change.",
        NO_DOCKER,
        `Configuration: ${config()} is up to date, nothing to change.`,
        "D1 migrations: all applied, nothing to change.",
        "Secrets: ADMIN_TOKEN, TOOLS_TOKEN, TELEGRAM_WEBHOOK_SECRET, RUNNER_SECRET, TELEGRAM_BOT_TOKEN are set, nothing to change.",
        `Worker: ${worker.base} runs what this tree builds, nothing to change (--force deploys anyway).`,
        `Webhook: ${worker.base}/telegram/webhook, nothing to change.`,
        `Commands: ${LISTED.length} in the menu in ${LANGS}, nothing to change.`,
        "Menu button: none, since the Mini App needs an https PUBLIC_URL, nothing to change.",
        "Webhook: Telegram reports 0 pending update(s) and no delivery error.",
        ...doctor(`ok   webhook     @CuckooTestBot gets its updates at ${worker.base}/telegram/webhook, 0 pending update(s), no error.`),
        `Done: the page is ${worker.base}/; sign in with the ADMIN_TOKEN in ${path.join(production, "secrets.env")}.`,
        "",
      ].join("\n"),
      stderr: "",
    });
    const later = calls().slice(before);
    expect(later.filter((c) => MUTATING.test(c.argv.join(" ")))).toEqual([]);
    expect(later.map((c) => c.argv.slice(0, 2).join(" "))).toEqual(["d1 list", "queues info", "queues info", "d1 migrations", "secret list"]);
    expect((await botCalls()).filter((m) => m.startsWith("set"))).toEqual([]);
  });

  it("explains getWebhookInfo's last error, and the doctor fails on it", async () => {
    const res = await fetch(`${inject("telegramStub")}/__stub/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        token: TOKEN,
        pending_update_count: 2,
        last_error_message: "Wrong response from the webhook: 401 Unauthorized",
        last_error_date: 1767225600,
      }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(200);
    const run = await deploy();
    const said =
      'Telegram says "Wrong response from the webhook: 401 Unauthorized": the Worker refused the webhook\'s secret (it answers 401 when X-Telegram-Bot-Api-Secret-Token differs from TELEGRAM_WEBHOOK_SECRET); run npm run deploy again, which sets both to the one in .wrangler/production/secrets.env.';
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines).toContain(`Webhook: 2 pending update(s); ${said}`);
    expect(lines).toContain(`  fail webhook     ${worker.base}/telegram/webhook, 2 pending update(s): ${said}`);
  });

  it("writes a configuration the real wrangler builds", async () => {
    const out = await new Promise<Run>((resolve) =>
      execFile(
        process.execPath,
        [
          path.join(root, "node_modules", "wrangler", "bin", "wrangler.js"),
          "deploy",
          "--dry-run",
          "--config",
          config(),
          "--outdir",
          path.join(scratch, "dry-run"),
        ],
        { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true" }, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("env.AI                  ");
    expect(out.stdout).toContain(`env.DB (cuckoo)`);
    expect(out.stdout).toContain("--dry-run: exiting now.");
  });

  it("says in one sentence that wrangler has no login, with the real wrangler, and changes nothing", async () => {
    const home = path.join(scratch, "home");
    const run = await deploy({
      CUCKOO_WRANGLER: "",
      TELEGRAM_BOT_TOKEN: "",
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      CUCKOO_DEPLOY_DIR: path.join(scratch, "none"),
    });
    expect(run).toEqual({
      code: 1,
      stdout: "Telegram: no TELEGRAM_BOT_TOKEN given, so the bot is left as it is (none on a first deploy: transcript mode).\n",
      stderr: "Cloudflare did not accept wrangler's login while listing the D1 databases: run npx wrangler login, then npm run deploy again.\n",
    });
    expect(existsSync(path.join(scratch, "none"))).toBe(false);
  });
});
