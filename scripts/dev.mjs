#!/usr/bin/env node
/**
 * `npm run dev`: everything Cuckoo needs locally, with no configuration and no network. Applies the D1
 * migrations to the local database, then serves the Worker with `wrangler dev` on http://localhost:8787 with
 * CUCKOO_DEV=1 (open admin and tools routes for localhost pages; see DESIGN §2). Ctrl-C stops everything;
 * the exit code is wrangler's.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const wranglerBin = path.join(path.dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

const env = {
  ...process.env,
  // No network: no telemetry or error reports, and a placeholder Request.cf instead of fetching one.
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/** @type {Set<import("node:child_process").ChildProcess>} */
const children = new Set();
let stopping = false;

/**
 * Runs wrangler with `args` in the project root, on the same Node as this script.
 * @param {string[]} args
 * @param {{ stdin?: "ignore" | "inherit" }} [options]
 * @returns {import("node:child_process").ChildProcess}
 */
function wrangler(args, options = {}) {
  const child = spawn(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    env,
    stdio: [options.stdin ?? "inherit", "inherit", "inherit"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

/**
 * Resolves with the exit code (128 + signal number when killed by a signal).
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<number>}
 */
function exitCode(child) {
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1)));
  });
}

/** @param {NodeJS.Signals} signal */
function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[/** @type {string} */ (signal)];
}

for (const signal of /** @type {NodeJS.Signals[]} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
  process.on(signal, () => {
    stopping = true;
    for (const child of children) child.kill(signal);
  });
}

// 1. The D1 directory, migrated in .wrangler/state (where `wrangler dev` keeps it). stdin is not a TTY, so
//    wrangler applies without asking.
const migrate = await exitCode(wrangler(["d1", "migrations", "apply", "DB", "--local"], { stdin: "ignore" }));
if (migrate !== 0 || stopping) process.exit(migrate || 130);

// 2. The runner (issue 6) starts here: spawn `npm run runner` with a RUNNER_SECRET generated per session,
//    wait for its /healthz, and pass RUNNER_URL, RUNNER_SECRET and PUBLIC_URL to wrangler below with --var.

// 3. The Worker, on loopback port 8787 (wrangler.toml [dev]). Extra arguments go to wrangler dev.
const code = await exitCode(wrangler(["dev", "--var", "CUCKOO_DEV:1", ...process.argv.slice(2)]));
process.exit(code);
