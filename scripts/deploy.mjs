#!/usr/bin/env node
/**
 * `npm run deploy` (docs/operations.md#npm-run-deploy): Cuckoo on Cloudflare in one command after `npx wrangler login`,
 * and the same command again changes nothing. In order, each step one line of what it did or that it had nothing to
 * change: the bot's token (TELEGRAM_BOT_TOKEN, or asked for on a terminal) checked with getMe before anything changes;
 * the D1 database and the two queues, found or created; the configuration to deploy, generated from wrangler.toml
 * (scripts/lib/deploy-config.mjs); the D1 migrations; the secrets the Worker needs, generated when missing, kept on
 * this machine and stored with `wrangler secret bulk` on stdin; the deploy itself (with the runner container when
 * Docker answers); the webhook, the menus and the menu button; then `npm run doctor`'s checks and how to sign in.
 * Vars it is given (ALLOWED_USER_IDS, ALLOWED_CHAT_IDS, LLM_BASE_URL, LLM_MODEL, PUBLIC_URL) are kept for the next
 * run. `--force` deploys even when nothing changed. Never prints a secret it did not just generate (and prints none).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { botToken, checkToken, setUpBotForDeploy } from "./lib/deploy-bot.mjs";
import { deployConfig, deployHash, fingerprint } from "./lib/deploy-config.mjs";
import { runDoctor } from "./lib/doctor.mjs";
import { root } from "./lib/local.mjs";
import { configFile, productionDir, readSecrets, readState, secretsFile, shown, writeConfig, writeSecrets, writeState } from "./lib/production.mjs";
import { cloudflareError, wrangler } from "./lib/wrangler.mjs";

/** The secrets the Worker needs that a deploy can make up, all kept in the local file. */
const GENERATED = ["ADMIN_TOKEN", "TOOLS_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "RUNNER_SECRET"];
/** Vars a run may be given and the next keeps. */
const KEPT_VARS = ["ALLOWED_USER_IDS", "ALLOWED_CHAT_IDS", "LLM_BASE_URL", "LLM_MODEL", "PUBLIC_URL"];
const QUEUES = ["prompts", "prompts-dlq"];
const DEPLOY_TIMEOUT_MS = 15 * 60_000;

/** @param {string} line */
const say = (line) => console.log(line);

/** Stops with one sentence; exit 1. @param {string} sentence @returns {never} */
function stop(sentence) {
  console.error(sentence);
  process.exit(1);
}

/**
 * wrangler, or the one sentence that stops the deploy.
 * @param {string[]} args @param {string} what @param {{ stdin?: string, timeoutMs?: number }} [options]
 */
async function must(args, what, options = {}) {
  const run = await wrangler(args, { cwd: root, ...options });
  if (run.code !== 0) stop(cloudflareError(what, run.out));
  return run.out;
}

const force = process.argv.includes("--force");
const apiBase = process.env.TELEGRAM_API_BASE?.trim() || "https://api.telegram.org";
const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
const dbName = /database_name = "([^"]+)"/.exec(toml)?.[1] ?? "cuckoo";
const state = readState();

// 1. The bot's token first: a wrong one is one sentence before anything on Cloudflare changes.
const token = await botToken();
if (token === null) say("Telegram: no TELEGRAM_BOT_TOKEN given, so the bot is left as it is (none on a first deploy: transcript mode).");
else {
  const checked = await checkToken(token, apiBase);
  if (!checked.ok) stop(checked.sentence);
  say(`Telegram: the token is @${checked.username}'s.`);
}

// 2. The D1 database, by name.
/** @returns {Promise<string | undefined>} */
const databaseId = async () => {
  const out = await must(["d1", "list", "--json"], "listing the D1 databases");
  /** @type {{ name: string, uuid: string }[]} */
  let list;
  try {
    list = JSON.parse(out.slice(out.indexOf("[")));
  } catch {
    return stop(`wrangler d1 list --json printed no list: ${out.trim().slice(0, 200)}`);
  }
  return list.find((db) => db.name === dbName)?.uuid;
};
let dbId = await databaseId();
if (dbId !== undefined) say(`D1 database ${dbName}: exists (${dbId}), nothing to change.`);
else {
  await must(["d1", "create", dbName], `creating the D1 database ${dbName}`);
  dbId = await databaseId();
  if (dbId === undefined) stop(`wrangler d1 create ${dbName} succeeded, but wrangler d1 list does not show it; run npm run deploy again.`);
  say(`D1 database ${dbName}: created (${dbId}).`);
}

// 3. The queues the Worker sends prompts to and consumes.
for (const queue of QUEUES) {
  const info = await wrangler(["queues", "info", queue], { cwd: root });
  if (info.code === 0) say(`Queue ${queue}: exists, nothing to change.`);
  else if (/does not exist/.test(info.out)) {
    await must(["queues", "create", queue], `creating the queue ${queue}`);
    say(`Queue ${queue}: created.`);
  } else stop(cloudflareError(`looking up the queue ${queue}`, info.out));
}

// 4. The runner container needs Docker to build its image.
const docker = spawnSync(process.env.CUCKOO_DOCKER?.trim() || "docker", ["info"], { stdio: "ignore", timeout: 20_000 });
const containers = docker.status === 0;
if (containers) say("Runner: Docker answers, so the runner container is built and deployed (Workers Paid); watchers run in a container per chat.");
else
  say(
    'Runner: Docker does not answer here, so the Worker is deployed without the runner container, and watchers fail "did not start" until you run npm run deploy where Docker runs or run a runner of your own (docs/runner.md).',
  );

// 5. The configuration to deploy.
/** @type {Record<string, string>} */
const vars = { ...state.vars };
for (const name of KEPT_VARS) {
  const value = process.env[name]?.trim();
  if (value) vars[name] = name === "PUBLIC_URL" ? value.replace(/\/+$/, "") : value;
}
const ai = !vars.LLM_BASE_URL;
const configVars = () => {
  /** @type {Record<string, string>} */
  const all = { ...vars };
  if (!all.PUBLIC_URL && state.publicUrl) all.PUBLIC_URL = state.publicUrl;
  if (ai) all.LLM_PROVIDER = "workers-ai";
  return all;
};
const dir = productionDir();
/** Writes the configuration when it changed; true when it did. */
const writeConfigFor = () => {
  const text = deployConfig(toml, { dir, databaseId: dbId, vars: configVars(), ai, containers });
  const same = existsSync(configFile()) && readFileSync(configFile(), "utf8") === text;
  if (!same) writeConfig(text);
  return { text, same };
};
let config = writeConfigFor();
const model = ai ? "Workers AI as the model (no key)" : `the model at ${vars.LLM_BASE_URL}`;
say(
  config.same
    ? `Configuration: ${shown(configFile())} is up to date, nothing to change.`
    : `Configuration: wrote ${shown(configFile())} from wrangler.toml: D1 ${dbId}, ${model}, ${containers ? "the runner container" : "no runner container"}${configVars().PUBLIC_URL ? `, PUBLIC_URL ${configVars().PUBLIC_URL}` : ""}.`,
);
const configArgs = ["--config", configFile()];

// 6. The D1 migrations, applied only when some are not.
const pending = (await must(["d1", "migrations", "list", "DB", "--remote", ...configArgs], "listing the D1 migrations")).match(/\b\d{4}_[\w-]+\.sql\b/g) ?? [];
if (pending.length === 0) say("D1 migrations: all applied, nothing to change.");
else {
  await must(["d1", "migrations", "apply", "DB", "--remote", ...configArgs], "applying the D1 migrations", { timeoutMs: 5 * 60_000 });
  say(`D1 migrations: applied ${[...new Set(pending)].join(", ")}.`);
}

// 7. The secrets: generated when the Worker has none, kept here; the ones given stored when they changed.
const listed = await wrangler(["secret", "list", "--format", "json", ...configArgs], { cwd: root });
/** @type {Set<string>} */
let set = new Set();
if (listed.code === 0) set = new Set(JSON.parse(listed.out.slice(listed.out.indexOf("["))).map((/** @type {{ name: string }} */ s) => s.name));
else if (!/does not exist|Worker "[^"]+" not found|\[code: 10007\]/.test(listed.out)) stop(cloudflareError("listing the Worker's secrets", listed.out));
const kept = readSecrets();
/** @type {Record<string, string>} */
const put = {};
const generated = [];
for (const name of GENERATED) {
  // The webhook is set with its secret, so one the Worker has but this machine does not know is replaced.
  const unknown = name === "TELEGRAM_WEBHOOK_SECRET" && token !== null && set.has(name) && !kept[name];
  if (set.has(name) && !unknown) continue;
  kept[name] = kept[name] && !set.has(name) ? kept[name] : randomBytes(32).toString("hex");
  put[name] = kept[name];
  generated.push(name);
}
/** @type {Record<string, string>} */
const given = { ...state.given };
const changedGiven = [];
for (const [name, value] of [
  ["TELEGRAM_BOT_TOKEN", token],
  ["LLM_API_KEY", process.env.LLM_API_KEY?.trim() || null],
]) {
  if (!name || !value) continue;
  if (set.has(name) && given[name] === fingerprint(value)) continue;
  put[name] = value;
  given[name] = fingerprint(value);
  changedGiven.push(name);
}
if (Object.keys(put).length === 0) say(`Secrets: ${[...set].filter((n) => GENERATED.includes(n) || n in given).join(", ")} are set, nothing to change.`);
else {
  if (generated.length > 0) writeSecrets(kept);
  await must(["secret", "bulk", ...configArgs], "storing the Worker's secrets", { stdin: JSON.stringify(put) });
  const parts = [];
  if (generated.length > 0) parts.push(`generated ${generated.join(", ")} and kept them in ${shown(secretsFile())} (mode 0600)`);
  if (changedGiven.length > 0) parts.push(`stored ${changedGiven.join(", ")} as given (kept only on Cloudflare)`);
  say(`Secrets: ${parts.join("; ")}.`);
}
writeState({ ...state, given, vars });

// 8. The deploy, when what it uploads changed; a first deploy learns the Worker's address and deploys again with it.
/** The address wrangler deploy printed (the first one under "Deployed … triggers"). @param {string} out */
const addressIn = (out) => /^\s+(https?:\/\/[^\s/]+)\/?\s*$/m.exec(out.slice(Math.max(0, out.search(/^Deployed /m))))?.[1];
const deploy = async () => {
  const out = await must(["deploy", ...configArgs], "deploying the Worker", { timeoutMs: DEPLOY_TIMEOUT_MS });
  return addressIn(out) ?? stop("wrangler deploy printed no address for the Worker: set PUBLIC_URL to it and run npm run deploy again.");
};
let hash = deployHash(config.text, containers);
let publicUrl = configVars().PUBLIC_URL;
if (!force && state.deployed === hash && publicUrl) say(`Worker: ${publicUrl} runs what this tree builds, nothing to change (--force deploys anyway).`);
else {
  const url = await deploy();
  writeState({ ...readState(), publicUrl: publicUrl ?? url, deployed: hash });
  say(`Worker: deployed to ${url}.`);
  if (publicUrl === undefined) {
    // PUBLIC_URL (the address hooks, the calendar and the Mini App give out) is known only now.
    state.publicUrl = url;
    publicUrl = url;
    config = writeConfigFor();
    hash = deployHash(config.text, containers);
    await deploy();
    writeState({ ...readState(), publicUrl: url, deployed: hash });
    say(`Worker: deployed again with PUBLIC_URL ${url}, the address it gives out.`);
  }
}

// 9. The bot, pointed at the Worker.
if (token !== null) {
  const secret = readSecrets().TELEGRAM_WEBHOOK_SECRET;
  if (!secret)
    stop(
      `TELEGRAM_WEBHOOK_SECRET is not in ${shown(secretsFile())}; remove the Worker's (npx wrangler secret delete TELEGRAM_WEBHOOK_SECRET) and run npm run deploy again.`,
    );
  const webhook = await setUpBotForDeploy({ token, apiBase, publicUrl, secret, lastWebhook: readState().webhook, say });
  writeState({ ...readState(), webhook });
}

// 10. The doctor's checks, and how to sign in.
say(`Doctor (npm run doctor ${publicUrl}):`);
const status = await runDoctor({
  url: publicUrl,
  adminToken: process.env.ADMIN_TOKEN?.trim() || readSecrets().ADMIN_TOKEN || null,
  botToken: token,
  apiBase,
  print: (line) => say(`  ${line}`),
});
if (token !== null && !vars.ALLOWED_USER_IDS)
  say("Nobody may use the bot yet: ALLOWED_USER_IDS=<your Telegram user id> npm run deploy (docs/telegram.md#setting-up-a-bot).");
say(`Done: the page is ${publicUrl}/; sign in with the ADMIN_TOKEN in ${shown(secretsFile())}.`);
process.exitCode = status;
