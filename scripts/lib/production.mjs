/**
 * @module What `npm run deploy` keeps on this machine, in one git-ignored folder (`.wrangler/production/`, or
 * `CUCKOO_DEPLOY_DIR`), mode 0700: the configuration it deploys (`wrangler.toml`, generated from the project's), the
 * secrets it generated (`secrets.env`, mode 0600: the operator signs in with ADMIN_TOKEN, and a later run sets the
 * webhook again with TELEGRAM_WEBHOOK_SECRET) and what it last did (`state.json`: the Worker's address, a hash of
 * what was deployed, hashes of the secrets it was given, never a secret). `npm run doctor` reads ADMIN_TOKEN here.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./local.mjs";

/** The folder, as a path relative to the project when it is inside it (for the lines that name it). */
export function productionDir() {
  return path.resolve(root, process.env.CUCKOO_DEPLOY_DIR?.trim() || ".wrangler/production");
}

/** A path as the lines say it: relative to the project's root when inside it. @param {string} file */
export const shown = (file) => {
  const relative = path.relative(root, file);
  return relative.startsWith("..") ? file : relative;
};

/** The folder, made with mode 0700 when missing. */
function ensureDir() {
  const dir = productionDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

export const secretsFile = () => path.join(productionDir(), "secrets.env");
export const configFile = () => path.join(productionDir(), "wrangler.toml");
const stateFile = () => path.join(productionDir(), "state.json");

/**
 * The secrets kept here, by name (`NAME=value` lines).
 * @returns {Record<string, string>}
 */
export function readSecrets() {
  if (!existsSync(secretsFile())) return {};
  /** @type {Record<string, string>} */
  const secrets = {};
  for (const line of readFileSync(secretsFile(), "utf8").split("\n")) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) secrets[m[1] ?? ""] = m[2] ?? "";
  }
  return secrets;
}

/** Keeps `secrets` (all of them, replacing the file), mode 0600. @param {Record<string, string>} secrets */
export function writeSecrets(secrets) {
  ensureDir();
  const text = `# Kept by npm run deploy (docs/operations.md). Never commit or share this file.\n${Object.entries(secrets)
    .map(([name, value]) => `${name}=${value}\n`)
    .join("")}`;
  writeFileSync(secretsFile(), text, { mode: 0o600 });
  chmodSync(secretsFile(), 0o600);
}

/**
 * @typedef {{ publicUrl?: string, deployed?: string, given?: Record<string, string>, webhook?: string, vars?: Record<string, string> }} State
 * `deployed`: the hash of the last configuration and sources deployed; `given`: a hash of each secret the operator
 * gave (TELEGRAM_BOT_TOKEN, LLM_API_KEY) as last stored; `webhook`: a hash of the webhook last set (address and
 * secret); `vars`: vars given on an earlier run (ALLOWED_USER_IDS …), kept for the next.
 */

/** @returns {State} */
export function readState() {
  try {
    return JSON.parse(readFileSync(stateFile(), "utf8"));
  } catch {
    return {};
  }
}

/** @param {State} state */
export function writeState(state) {
  ensureDir();
  writeFileSync(stateFile(), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/** Writes the generated configuration. @param {string} text */
export function writeConfig(text) {
  ensureDir();
  writeFileSync(configFile(), text);
}
