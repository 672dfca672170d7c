/**
 * `npm run deploy` (docs/operations.md#npm-run-deploy) with the real wrangler, pointed at a local stand-in of the
 * Cloudflare API (`CLOUDFLARE_API_BASE_URL`, test/stub/cloudflare-stub.ts), with no network: what wrangler prints is
 * what the deploy reads, so its reading of each answer (a database listed as JSON, a queue that does not exist, a Worker
 * whose secrets cannot be listed before its first deploy, the address a deploy prints) is checked against wrangler
 * itself, and the API calls it makes are pinned: created once, migrated once, the secrets in one bulk call, the upload
 * with the bindings the generated configuration declares (Workers AI, D1, the queues), and a second run that changes
 * nothing. The Worker it "deploys" to is the tier's shared one (PUBLIC_URL), which the doctor then checks.
 * test/e2e/deploy.test.ts covers the bot's steps with a recording stand-in for wrangler.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiRequest, DATABASE_ID, startCloudflareStub } from "../stub/cloudflare-stub.js";
import { sharedWorker, type Worker } from "./harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const migrations = readdirSync(path.join(root, "migrations"))
  .filter((name) => name.endsWith(".sql"))
  .sort();

let worker: Worker;
let api: Awaited<ReturnType<typeof startCloudflareStub>>;
let scratch: string;

beforeAll(async () => {
  worker = await sharedWorker("telegram");
  api = await startCloudflareStub();
  scratch = mkdtempSync(path.join(tmpdir(), "cuckoo-deploy-api-"));
});

afterAll(async () => {
  await api?.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };

/** `npm run deploy` with the real wrangler, signed in by an API token to the stand-in's account, no bot token. */
function deploy(): Promise<Run> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: path.join(scratch, "home"),
      CLOUDFLARE_API_BASE_URL: api.url,
      CLOUDFLARE_API_TOKEN: "stand-in-token",
      CLOUDFLARE_ACCOUNT_ID: "acc",
      CUCKOO_DEPLOY_DIR: path.join(scratch, "production"),
      CUCKOO_DOCKER: "false",
      PUBLIC_URL: worker.base,
    };
    execFile(process.execPath, [path.join(root, "scripts", "deploy.mjs")], { cwd: root, env, timeout: 150_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The requests that change the account, as `METHOD path`. */
const changes = (requests: readonly ApiRequest[]) =>
  requests.filter((r) => r.method !== "GET" && !/\/query$/.test(r.path) && !r.path.endsWith("/assets-upload-session")).map((r) => `${r.method} ${r.path}`);

/** The migrations the deploy's SQL recorded as applied, in order (wrangler runs each with its `d1_migrations` row). */
const migrationSql = (requests: readonly ApiRequest[]) =>
  requests
    .filter((r) => r.path.endsWith("/query"))
    .flatMap((r) =>
      [...(JSON.parse(r.body) as { sql: string }).sql.matchAll(/INSERT INTO "?d1_migrations"?\s*\(name\)\s*values\s*\('([^']+)'\)/gi)].map((m) => m[1]),
    );

describe("npm run deploy with the real wrangler against the Cloudflare API's stand-in", () => {
  it("creates, migrates, stores the secrets and deploys once; a second run changes nothing", async () => {
    const first = await deploy();
    const production = path.join(scratch, "production");
    expect(first.stdout.split("\n").slice(0, 10)).toEqual([
      "Telegram: no TELEGRAM_BOT_TOKEN given, so the bot is left as it is (none on a first deploy: transcript mode).",
      `D1 database cuckoo: created (${DATABASE_ID}).`,
      "Queue prompts: created.",
      "Queue prompts-dlq: created.",
      'Runner: Docker does not answer here, so the Worker is deployed without the runner container, and watchers fail "did not start" until you run npm run deploy where Docker runs or run a runner of your own (docs/runner.md).',
      `Configuration: wrote ${path.join(production, "wrangler.toml")} from wrangler.toml: D1 ${DATABASE_ID}, Workers AI as the model (no key), no runner container, PUBLIC_URL ${worker.base}.`,
      `D1 migrations: applied ${migrations.join(", ")}.`,
      `Secrets: generated ADMIN_TOKEN, TOOLS_TOKEN, TELEGRAM_WEBHOOK_SECRET, RUNNER_SECRET and kept them in ${path.join(production, "secrets.env")} (mode 0600).`,
      "Worker: deployed to https://cuckoo.cuckoo-test.workers.dev.",
      `Doctor (npm run doctor ${worker.base}):`,
    ]);
    expect(first.stderr).toBe("");
    expect(changes(api.requests)).toEqual([
      "POST /accounts/acc/d1/database",
      "POST /accounts/acc/queues",
      "POST /accounts/acc/queues",
      // The first bulk finds no Worker: wrangler uploads a placeholder and tries again.
      "PATCH /accounts/acc/workers/scripts/cuckoo/secrets-bulk",
      "PUT /accounts/acc/workers/scripts/cuckoo",
      "PATCH /accounts/acc/workers/scripts/cuckoo/secrets-bulk",
      "PUT /accounts/acc/workers/scripts/cuckoo",
      "POST /accounts/acc/workers/scripts/cuckoo/subdomain",
      "POST /accounts/acc/queues/q1/consumers",
      "POST /accounts/acc/queues/q2/consumers",
    ]);
    expect(migrationSql(api.requests)).toEqual(migrations);
    const bulk = api.requests.find((r) => r.path.endsWith("/secrets-bulk"))!;
    expect(Object.keys((JSON.parse(bulk.body) as { secrets: object }).secrets)).toEqual([
      "ADMIN_TOKEN",
      "TOOLS_TOKEN",
      "TELEGRAM_WEBHOOK_SECRET",
      "RUNNER_SECRET",
    ]);
    // The upload: the bindings of the configuration the deploy generated.
    const upload = api.requests.filter((r) => r.method === "PUT" && r.path.endsWith("/scripts/cuckoo")).at(-1)!;
    const metadata = JSON.parse(/name="metadata"\r\n(?:[^\r\n]*\r\n)*\r\n(\{.*\})\r\n/.exec(upload.body)![1]!) as {
      bindings: { type: string; name: string }[];
    };
    const bindings = Object.fromEntries(metadata.bindings.map((b) => [b.name, b]));
    expect(bindings.AI).toEqual({ type: "ai", name: "AI" });
    expect(bindings.DB).toMatchObject({ type: "d1", id: DATABASE_ID });
    expect(bindings.PROMPTS).toMatchObject({ type: "queue", queue_name: "prompts" });
    expect(bindings.LLM_PROVIDER).toEqual({ type: "plain_text", name: "LLM_PROVIDER", text: "workers-ai" });
    expect(bindings.RUNNER).toBeUndefined();

    const before = api.requests.length;
    const second = await deploy();
    expect(second.stdout.split("\n").slice(0, 9)).toEqual([
      "Telegram: no TELEGRAM_BOT_TOKEN given, so the bot is left as it is (none on a first deploy: transcript mode).",
      `D1 database cuckoo: exists (${DATABASE_ID}), nothing to change.`,
      "Queue prompts: exists, nothing to change.",
      "Queue prompts-dlq: exists, nothing to change.",
      'Runner: Docker does not answer here, so the Worker is deployed without the runner container, and watchers fail "did not start" until you run npm run deploy where Docker runs or run a runner of your own (docs/runner.md).',
      `Configuration: ${path.join(production, "wrangler.toml")} is up to date, nothing to change.`,
      "D1 migrations: all applied, nothing to change.",
      "Secrets: ADMIN_TOKEN, TOOLS_TOKEN, TELEGRAM_WEBHOOK_SECRET, RUNNER_SECRET are set, nothing to change.",
      `Worker: ${worker.base} runs what this tree builds, nothing to change (--force deploys anyway).`,
    ]);
    expect(changes(api.requests.slice(before))).toEqual([]);
    expect(migrationSql(api.requests.slice(before))).toEqual([]);
  });
});
