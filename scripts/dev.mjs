#!/usr/bin/env node
import { spawn, spawnSync } from "node:child_process";
/**
 * `npm run dev`: everything Cuckoo needs locally, with no configuration and no network. Applies the D1
 * migrations to the local database, starts the watcher runner (runner/) on 127.0.0.1:8788 with a secret made
 * for this session, then serves the Worker with `wrangler dev` on http://localhost:8787 with CUCKOO_DEV=1
 * (open admin and tools routes for localhost pages; see docs/api.md#access) and the runner's URL, secret and callback
 * base. Ctrl-C stops everything; the exit code is wrangler's.
 *
 * With RUNNER_URL set in the environment, no runner is started: put RUNNER_URL, RUNNER_SECRET and PUBLIC_URL
 * for your own runner in .dev.vars. RUNNER_PORT and WORKSPACE_ROOT choose the started runner's port and
 * scripts' directory.
 *
 * The session's runner secret never goes on a command line (where `ps` shows it to every user): the runner
 * gets it in its environment, and wrangler in a dotenv file of a private temporary directory (mode 0700, the
 * file 0600), passed with `--env-file` after the project's own .dev.vars (or .env files) and removed on exit.
 *
 * What it prints is what a person acts on (docs/operations.md#locally): the migrations as one line (wrangler's
 * own tables only when they fail), a warning once in one line, wrangler's "Ready on" line, then the page's
 * address, the runner's, the zone and the agent in use (scripts/lib/dev-summary.mjs, the agent from /healthz).
 * Until then wrangler's and the runner's start-up output is filtered line by line (scripts/lib/dev-output.mjs:
 * no tables, no containers, no file outside the project); after it everything passes as wrangler prints it.
 * `npm run dev -- --verbose` shows wrangler's banner, bindings and modules tables and start-up lines as well.
 * Colour codes stay only when the output is a terminal. Wrangler's dev registry is off (it would reprint the
 * bindings whenever any local wrangler starts or stops; Cuckoo binds nothing of another local Worker): set
 * WRANGLER_REGISTRY_PATH to a directory to have it back.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { stripVTControlCharacters } from "node:util";
import { runnerLine, wranglerFilter } from "./lib/dev-output.mjs";
import { configuredZone, summaryLines } from "./lib/dev-summary.mjs";
import { RUNNER_MAIN, root, runnerEnv, untilHealthy, wranglerBin, wranglerEnv } from "./lib/local.mjs";

const verbose = process.argv.includes("--verbose");
const color = Boolean(process.stdout.isTTY);

// An empty registry path turns wrangler's dev registry off (see above), unless the shell chose one. Without
// --verbose, no banner (and so no update check against the npm registry). wrangler writes to a pipe here, so
// it is asked for colours when this script's output is a terminal.
const env = wranglerEnv({
  WRANGLER_REGISTRY_PATH: "",
  ...(verbose ? {} : { WRANGLER_HIDE_BANNER: "true" }),
  ...(color && process.env.NO_COLOR === undefined ? { FORCE_COLOR: "1" } : {}),
  ...process.env,
});

/** @type {Set<import("node:child_process").ChildProcess>} */
const children = new Set();
let stopping = false;
/** @type {import("node:child_process").ChildProcess | null} */
let runnerChild = null;
/** Settles when the started runner has exited and its output is all read (at once when none was started). */
let runnerClosed = Promise.resolve();

/**
 * Runs `wrangler dev` with `args` in the project root, on the same Node as this script, its output through
 * the filter; once it is ready, prints the summary.
 * @param {string[]} args
 * @param {{ url: string; started: boolean }} runner
 * @returns {import("node:child_process").ChildProcess}
 */
function wranglerDev(args, runner) {
  const child = spawn(process.execPath, [wranglerBin(), "dev", ...args], { cwd: root, env, stdio: ["inherit", "pipe", "pipe"] });
  children.add(child);
  child.on("exit", () => children.delete(child));
  const filter = wranglerFilter({ root, verbose, color });
  let summarized = false;
  eachLine(child.stdout, process.stdout, (line) => {
    const out = filter.line(line);
    if (!summarized && filter.ready !== null) {
      summarized = true;
      // Printed after wrangler's own line (it waits for /healthz first): the page, the runner, the zone, the agent.
      void summarize(filter.ready, runner, args, () => filter.probe());
    }
    return out;
  });
  eachLine(child.stderr, process.stderr, (line) => filter.line(line));
  return child;
}

/**
 * Writes each line of `from` to `to` as `map` gives it (null: not at all); colour codes removed when `to` is
 * not a terminal.
 * @param {import("node:stream").Readable | null} from
 * @param {NodeJS.WriteStream} to
 * @param {(line: string) => string | null} map
 */
function eachLine(from, to, map) {
  if (!from) return;
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    const out = map(line);
    if (out !== null) to.write(`${to.isTTY ? out : stripVTControlCharacters(out)}\n`);
  });
}

/**
 * Asks the Worker's /healthz (within 30 s; the first request builds the Worker) and prints the summary.
 * @param {string} page wrangler's address
 * @param {{ url: string; started: boolean }} runner
 * @param {string[]} args wrangler dev's arguments, for a `--var DEFAULT_TIMEZONE:…`
 * @param {() => void} probing tells the filter a request of dev's own is on its way
 */
async function summarize(page, runner, args, probing) {
  /** @type {import("./lib/dev-summary.mjs").Health | null} */
  let health = null;
  const until = Date.now() + 30_000;
  while (health === null && Date.now() < until && !stopping) {
    probing();
    try {
      const res = await fetch(`${page}/healthz`, { signal: AbortSignal.timeout(10_000) });
      if (res.status === 200 || res.status === 503) health = /** @type {import("./lib/dev-summary.mjs").Health} */ (await res.json());
      else await res.arrayBuffer();
    } catch {
      // Not answering yet.
    }
    if (health === null) await sleep(200);
  }
  if (stopping) return;
  const files = envFiles(args).map((name) => ({ name, text: readFileSync(path.join(root, name), "utf8") }));
  const zone = configuredZone({ args, envFiles: files, toml: readFileSync(path.join(root, "wrangler.toml"), "utf8") });
  for (const line of summaryLines({ page, runner, zone, health })) console.log(line);
}

/**
 * The project's env files wrangler dev reads, in order: those named with `--env-file` inside the project, else
 * .dev.vars, else .env and .env.local.
 * @param {string[]} args
 * @returns {string[]}
 */
function envFiles(args) {
  const named = args.flatMap((arg, i) => (args[i - 1] === "--env-file" ? [arg] : arg.startsWith("--env-file=") ? [arg.slice(11)] : []));
  const own = named.length > 0 ? named : existsSync(path.join(root, ".dev.vars")) ? [".dev.vars"] : [".env", ".env.local"];
  return own.filter((f) => !path.relative(root, path.resolve(root, f)).startsWith("..") && existsSync(path.resolve(root, f)));
}

/**
 * Resolves with the exit code (128 + signal number when killed by a signal), once its output is all read.
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<number>}
 */
function exitCode(child) {
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1)));
  });
}

/** @param {NodeJS.Signals} signal */
function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[/** @type {string} */ (signal)];
}

/** The private directory of the session's secrets file, removed on exit however the script ends. */
/** @type {string | null} */
let secretsDir = null;
process.on("exit", () => {
  if (secretsDir) rmSync(secretsDir, { recursive: true, force: true });
});

for (const signal of /** @type {NodeJS.Signals[]} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
  process.on(signal, () => {
    stopping = true;
    // The runner drains on SIGTERM (it waits for its scripts, as a deploy wants); here it stops at once.
    for (const child of children) child.kill(child === runnerChild ? "SIGINT" : signal);
  });
}

// 1. The D1 directory, migrated where `wrangler dev` keeps it (.wrangler/state, or --persist-to's directory).
const extra = process.argv.slice(2).filter((arg) => arg !== "--verbose");
migrateDirectory(persistTo(extra));
if (stopping) process.exit(130);

// 2. The runner, on loopback, with a secret that lives as long as this session (never written to disk).
const runnerVars = process.env.RUNNER_URL ? [] : await startRunner(workerPort(extra));
if (stopping) process.exit(130);
const runner = { url: process.env.RUNNER_URL || `http://127.0.0.1:${runnerPort()}`, started: !process.env.RUNNER_URL };

// 3. The Worker, on loopback port 8787 (wrangler.toml [dev]). Extra arguments go to wrangler dev.
const code = await exitCode(wranglerDev(["--var", "CUCKOO_DEV:1", ...runnerVars, ...extra], runner));
stopping = true;
for (const child of children) child.kill("SIGINT");
// The runner's last lines come through this script: wait for them (it stops at once on SIGINT).
await Promise.race([runnerClosed, sleep(5_000)]);
process.exit(code);

/**
 * The value of `--<name> V` / `--<name>=V` among the extra arguments, or undefined.
 * @param {string[]} args
 * @param {string} name
 * @returns {string | undefined}
 */
function option(args, name) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === `--${name}`) return args[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/**
 * The port wrangler dev will serve on: `--port` among the extra arguments, else 8787.
 * @param {string[]} args
 */
function workerPort(args) {
  return Number(option(args, "port") ?? 8787);
}

/**
 * `--persist-to` among the extra arguments, as wrangler's arguments for the migrations too.
 * @param {string[]} args
 * @returns {string[]}
 */
function persistTo(args) {
  const dir = option(args, "persist-to");
  return dir === undefined ? [] : ["--persist-to", dir];
}

/**
 * Applies the D1 migrations to the local database and says so in one line: which were applied, or that
 * there were none. Wrangler's own output (its tables, its question, answered yes since stdin is not a TTY)
 * is shown only when it fails, and then `npm run dev` stops.
 * @param {string[]} persist
 */
function migrateDirectory(persist) {
  const run = spawnSync(process.execPath, [wranglerBin(), "d1", "migrations", "apply", "DB", "--local", ...persist], {
    cwd: root,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  if (run.signal) process.exit(128 + (signalNumber(run.signal) ?? 1)); // Ctrl-C reached wrangler too
  const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  if (run.status !== 0) {
    process.stderr.write(output);
    console.error(`cuckoo: the D1 migrations failed (${run.error?.message ?? `exit ${run.status ?? run.signal}`}); nothing was started.`);
    process.exit(run.status || 1);
  }
  const applied = [...new Set(output.match(/\b\d{4}_[\w-]+\.sql\b/g) ?? [])];
  console.log(`cuckoo: the local D1 directory ${applied.length === 0 ? "is up to date" : `is migrated: ${applied.join(", ")}`}`);
}

/**
 * The part of the shell's environment the runner gets: its own settings (RUNNER_*, WORKSPACE_ROOT) and what
 * scripts need to run (PATH, HOME, locale, TMPDIR).
 * @param {NodeJS.ProcessEnv} env
 * @returns {Record<string, string>}
 */
function shellEnv(env) {
  /** @param {string} key */
  const keep = (key) => /^RUNNER_/.test(key) || ["WORKSPACE_ROOT", "PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"].includes(key);
  /** @type {Record<string, string>} */
  const out = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && keep(key)) out[key] = value;
  return out;
}

/**
 * Starts `node runner/src/main.ts` on RUNNER_PORT (8788), waits for its /healthz, and returns the --var
 * arguments that point the Worker at it. A runner that cannot start stops `npm run dev` with its reason.
 * @param {number} port the Worker's port, for the callback base
 * @returns {Promise<string[]>}
 */
async function startRunner(port) {
  const secret = randomBytes(32).toString("hex");
  const runner = spawn(process.execPath, [RUNNER_MAIN], {
    cwd: root,
    // Only what the runner reads, and what a shell needs: the scripts it starts run as this user and could
    // read its environment (/proc), so the shell's own secrets (a bot token, an API key) stay out of it.
    env: runnerEnv({
      secret,
      port: runnerPort(),
      workspaceRoot: process.env.WORKSPACE_ROOT || path.join(root, ".wrangler", "runner-workspaces"),
      base: shellEnv(process.env),
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  eachLine(runner.stdout, process.stdout, (line) => runnerLine(line, { verbose }));
  eachLine(runner.stderr, process.stderr, (line) => runnerLine(line, { verbose }));
  children.add(runner);
  runnerChild = runner;
  runnerClosed = new Promise((resolve) => runner.on("close", () => resolve(undefined)));
  let exited = false;
  runner.on("exit", (code) => {
    exited = true;
    children.delete(runner);
    if (!stopping) console.error(`cuckoo: the runner stopped (exit ${code}); watchers fail "did not start" until npm run dev is restarted.`);
  });
  const url = `http://127.0.0.1:${runnerPort()}`;
  const ready = await untilHealthy(url, { withinMs: 15_000, gone: () => exited || stopping });
  if (ready === "gone") {
    for (const child of children) child.kill("SIGINT");
    console.error(`cuckoo: the runner did not start on ${url}; is the port taken? Set RUNNER_PORT to use another.`);
    process.exit(1);
  }
  if (ready === "late") {
    runner.kill("SIGINT");
    console.error(`cuckoo: the runner did not answer on ${url}/healthz within 15 s.`);
    process.exit(1);
  }
  return ["--var", `RUNNER_URL:${url}`, "--var", `PUBLIC_URL:http://localhost:${port}`, ...secretFiles(secret)];
}

/** The started runner's port: RUNNER_PORT, else 8788. */
function runnerPort() {
  return Number(process.env.RUNNER_PORT || 8788);
}

/**
 * `--env-file` arguments that hand RUNNER_SECRET to wrangler without a command line showing it: the project's
 * own local secrets first (given any --env-file, wrangler reads only those, so .dev.vars, or else .env and
 * .env.local, are named too), then a file of this session's, which wins.
 * @param {string} secret
 * @returns {string[]}
 */
function secretFiles(secret) {
  secretsDir = mkdtempSync(path.join(tmpdir(), "cuckoo-dev-"));
  const file = path.join(secretsDir, "runner.env");
  writeFileSync(file, `RUNNER_SECRET=${secret}\n`, { mode: 0o600 });
  const own = existsSync(path.join(root, ".dev.vars")) ? [".dev.vars"] : [".env", ".env.local"].filter((f) => existsSync(path.join(root, f)));
  return [...own, file].flatMap((f) => ["--env-file", f]);
}
