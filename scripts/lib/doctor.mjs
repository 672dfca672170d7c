/**
 * @module `npm run doctor` (docs/doctor.md), also the last step of `npm run deploy`: checks a running Cuckoo from the
 * outside, part by part, one line each: `/healthz`; with a bot token, the webhook (`getWebhookInfo`), the command menu
 * in each language and the menu button; and through `GET /admin/doctor` the runner, the model (one short call) and the
 * D1 migrations, against the files of migrations/. A line is `ok`, `off` (off by configuration: how to turn it on),
 * `skip` (not checked, and why) or `fail` (what to do); any `fail` makes the exit status 1.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { root } from "./local.mjs";
import { readSecrets, readState, secretsFile, shown } from "./production.mjs";
import {
  BotApiRefused,
  botApi,
  buttonMatches,
  explainWebhookError,
  LANGUAGES,
  LISTED_COUNT,
  menuButton,
  menusOff,
  webhookUrl,
  whyUnreachable,
} from "./telegram.mjs";

const TIMEOUT_MS = 15_000;
/** The model's call inside the Worker may take 20 s. */
const ADMIN_TIMEOUT_MS = 30_000;

/** @typedef {"ok" | "off" | "skip" | "fail"} Status */
/** @typedef {(line: string) => void} Print */

/**
 * Where `npm run doctor [url]` looks: the argument, else CUCKOO_URL, else `npm run dev`'s address.
 * @param {string[]} argv @param {NodeJS.ProcessEnv} env
 */
export function doctorUrl(argv, env) {
  return (argv[0]?.trim() || env.CUCKOO_URL?.trim() || "http://localhost:8787").replace(/\/+$/, "");
}

/**
 * ADMIN_TOKEN from the environment, else the one `npm run deploy` keeps, when `url` is the Worker it deployed.
 * @param {string} url @param {NodeJS.ProcessEnv} env
 */
export function adminTokenFor(url, env) {
  const given = env.ADMIN_TOKEN?.trim();
  if (given) return given;
  return readState().publicUrl === url ? (readSecrets().ADMIN_TOKEN ?? null) : null;
}

/**
 * One GET with a time limit: its status and JSON body, or why nothing answered.
 * @param {string} url @param {Record<string, string>} headers @param {number} timeoutMs
 * @returns {Promise<{ status: number, body: any } | { error: string }>}
 */
async function get(url, headers, timeoutMs) {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the status says enough.
    }
    return { status: response.status, body };
  } catch (error) {
    return { error: whyUnreachable(error, timeoutMs) };
  }
}

/** The migration files of migrations/, in order. */
function migrationFiles() {
  return readdirSync(path.join(root, "migrations"))
    .filter((name) => name.endsWith(".sql"))
    .sort();
}

/** What /healthz says of the Worker's modes, in a few words. @param {any} h */
function modes(h) {
  const agent = h.agentProvider && h.agent === "llm" ? `${h.agent} (${h.agentProvider})` : h.agent;
  return `telegram ${h.telegram}, runner ${h.runner}, agent ${agent}`;
}

/**
 * Checks the Cuckoo at `url`; prints one line per part and returns the exit status (1 when a part failed).
 * @param {{ url: string, adminToken: string | null, botToken: string | null, apiBase?: string, print?: Print }} options
 */
export async function runDoctor({ url, adminToken, botToken, apiBase = "https://api.telegram.org", print = console.log }) {
  let failed = false;
  /** @param {Status} status @param {string} part @param {string} text */
  const line = (status, part, text) => {
    if (status === "fail") failed = true;
    print(`${status.padEnd(4)} ${part.padEnd(11)} ${text}`);
  };

  const health = await get(`${url}/healthz`, {}, TIMEOUT_MS);
  /** @type {any} */
  let h = null;
  if ("error" in health) {
    line("fail", "healthz", `Nothing answers at ${url} (${health.error}): start it with npm run dev, or name the deployed Worker (npm run doctor https://…).`);
  } else if (health.status === 200 && health.body?.ok === true) {
    h = health.body;
    line("ok", "healthz", `Cuckoo ${h.version} answers at ${url}: ${modes(h)}.`);
  } else if (health.status === 503 && Array.isArray(health.body?.errors)) {
    line("fail", "healthz", `${health.body.errors.length} invalid var(s): ${health.body.errors.join(" ")} Fix them, then npm run deploy.`);
  } else {
    line("fail", "healthz", `${url}/healthz answered HTTP ${health.status}, not Cuckoo's answer: is this Cuckoo's address?`);
  }

  await checkBot(line, { url, h, botToken, apiBase });
  if (h === null) {
    line("skip", "worker", "The runner, the model and the D1 migrations are checked once /healthz answers.");
    return failed ? 1 : 0;
  }
  await checkWorker(line, { url, h, adminToken });
  return failed ? 1 : 0;
}

/**
 * The webhook, the command menu and the menu button, as the Bot API reports them.
 * @param {(status: Status, part: string, text: string) => void} line
 * @param {{ url: string, h: any, botToken: string | null, apiBase: string }} options
 */
async function checkBot(line, { url, h, botToken, apiBase }) {
  if (h !== null && h.telegram === "off") {
    line("off", "telegram", "No bot: the Worker runs in transcript mode. To connect one: TELEGRAM_BOT_TOKEN=… npm run deploy (docs/telegram.md).");
    return;
  }
  if (botToken === null) {
    line("skip", "telegram", "Give TELEGRAM_BOT_TOKEN to check the webhook, the commands and the menu button.");
    return;
  }
  const api = botApi({ base: apiBase, token: botToken, rerun: "npm run doctor" });
  try {
    const me = await api.call("getMe");
    const info = await api.call("getWebhookInfo");
    const want = webhookUrl(url);
    const pending = `${info.pending_update_count ?? 0} pending update(s)`;
    if (info.url !== want) {
      const now = info.url ? `points to ${info.url}` : "is not set";
      line("fail", "webhook", `@${me.username}'s webhook ${now}, not ${want}: run npm run deploy (or npm run telegram:setup).`);
    } else if (info.last_error_message && (info.pending_update_count ?? 0) > 0) {
      line("fail", "webhook", `${want}, ${pending}: ${explainWebhookError(info.last_error_message)}`);
    } else {
      const last = info.last_error_message ? `, the last error (${new Date(info.last_error_date * 1000).toISOString()}) behind it` : ", no error";
      line("ok", "webhook", `@${me.username} gets its updates at ${want}, ${pending}${last}.`);
    }
    const off = await menusOff(api);
    if (off.length === 0) line("ok", "commands", `${LISTED_COUNT} commands in the menu in ${LANGUAGES.join(", ")}.`);
    else line("fail", "commands", `The menu differs from this version's in ${off.join(", ")}: run npm run deploy (or npm run telegram:setup).`);
    const button = menuButton(url);
    if (button === null) line("off", "menu button", `None: the Mini App needs an https address, and ${url} is not one.`);
    else if (await buttonMatches(api, url)) line("ok", "menu button", `It opens ${button.web_app.url}.`);
    else line("fail", "menu button", `It does not open ${button.web_app.url}: run npm run deploy (or npm run telegram:setup).`);
  } catch (error) {
    if (error instanceof BotApiRefused && (error.code === 401 || error.code === 404)) {
      line("fail", "telegram", `Telegram does not know this TELEGRAM_BOT_TOKEN (${error.code}): copy it again from @BotFather (/mybots, API Token).`);
    } else line("fail", "telegram", error instanceof Error ? error.message : String(error));
  }
}

/**
 * The runner, the model and the migrations, from `GET /admin/doctor`.
 * @param {(status: Status, part: string, text: string) => void} line
 * @param {{ url: string, h: any, adminToken: string | null }} options
 */
async function checkWorker(line, { url, h, adminToken }) {
  const answer = await get(`${url}/admin/doctor`, adminToken ? { Authorization: `Bearer ${adminToken}` } : {}, ADMIN_TIMEOUT_MS);
  if ("error" in answer) return line("fail", "worker", `GET /admin/doctor got no answer (${answer.error}).`);
  if (answer.status === 401 || answer.status === 403) {
    const where = adminToken ? "ADMIN_TOKEN is not the Worker's" : `set ADMIN_TOKEN (npm run deploy keeps it in ${shown(secretsFile())})`;
    return line("fail", "worker", `GET /admin/doctor answered ${answer.status}: ${where}, to check the runner, the model and the D1 migrations.`);
  }
  if (answer.status === 503) return line("fail", "worker", "ADMIN_TOKEN is not set on the Worker: npm run deploy sets one.");
  if (answer.status === 404) return line("fail", "worker", "The Worker has no GET /admin/doctor (an older version): npm run deploy.");
  if (answer.status !== 200 || !answer.body?.runner) return line("fail", "worker", `GET /admin/doctor answered HTTP ${answer.status}.`);
  const { runner, model, migrations } = answer.body;

  if (runner.status === "off")
    line(
      "off",
      "runner",
      `${runner.says} To run them: npm run deploy where Docker runs (the runner container), or a runner of your own at RUNNER_URL (docs/runner.md).`,
    );
  else if (runner.status === "ok") line("ok", "runner", runner.says);
  else line("fail", "runner", `${runner.says} Check that the runner runs and that RUNNER_URL reaches it (docs/runner.md).`);

  if (model.status === "off") {
    const how = h.agentNote ? "" : " To use a model: npm run deploy (Workers AI, no key), or LLM_BASE_URL and LLM_MODEL (docs/agent.md).";
    line("off", "model", `${model.says}${how}`);
  } else if (model.status === "ok") line("ok", "model", model.says);
  else line("fail", "model", model.says);

  if ("error" in migrations) return line("fail", "migrations", `The D1 database could not be read: ${migrations.error}`);
  const files = migrationFiles();
  const missing = files.filter((name) => !migrations.applied.includes(name));
  if (missing.length === 0) line("ok", "migrations", `${files.length} of ${files.length} applied, the last ${files.at(-1)}.`);
  else {
    const how = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(`${url}/`) ? "npm run dev applies them" : "npm run deploy applies them";
    line("fail", "migrations", `${missing.join(", ")} not applied: ${how} (npx wrangler d1 migrations apply DB).`);
  }
}
