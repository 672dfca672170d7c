/**
 * @module What the benches share (bench/fire.mjs, agent.mjs, watchers.mjs, startup.mjs): figures (percentiles,
 * formatting), a Node script in its own process group with its output in a log file, the workerd processes of
 * wrangler's group and their CPU time from /proc, and the bench Worker (bench/fire-worker.ts) bundled once and
 * served with `wrangler dev --no-bundle` on free loopback ports. wrangler's path, its offline environment and
 * free ports are scripts/lib/local.mjs's, shared with `npm run dev` and the end-to-end tests.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, HOST, root, wranglerBin, wranglerEnv } from "../scripts/lib/local.mjs";

/** Nearest-rank percentile of sorted numbers. */
export function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: pct(sorted, 0.5), p99: pct(sorted, 0.99), max: sorted.at(-1) ?? NaN };
}

export const fmt = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "–");
export const pad = (s, n) => String(s).padStart(n);

/**
 * A Node script (wrangler; the runner) in its own process group with its output in `logFile`, so the whole
 * group (wrangler and workerd; the runner and its scripts) can be stopped. Until `stop()`, the group is
 * killed when this process exits or gets SIGINT or SIGTERM.
 */
export class Group {
  constructor(script, args, logFile, env) {
    this.logFile = logFile;
    const log = openSync(logFile, "w");
    this.child = spawn(process.execPath, [script, ...args], { cwd: root, detached: true, stdio: ["ignore", log, log], env });
    closeSync(log);
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
    this.alive = true;
    this.exited.then(() => (this.alive = false));
    this.onSignal = (sig) => {
      this.signal("SIGKILL");
      process.exit(sig === "SIGINT" ? 130 : 143);
    };
    this.onExit = () => this.signal("SIGKILL");
    process.once("SIGINT", this.onSignal);
    process.once("SIGTERM", this.onSignal);
    process.once("exit", this.onExit);
  }

  signal(sig) {
    try {
      process.kill(-this.child.pid, sig);
    } catch {
      // The group is gone already.
    }
  }

  /** SIGTERM to the group, SIGKILL after 5 s; resolves when the script has exited. */
  async stop() {
    process.removeListener("SIGINT", this.onSignal);
    process.removeListener("SIGTERM", this.onSignal);
    process.removeListener("exit", this.onExit);
    if (!this.alive) return this.signal("SIGKILL");
    this.signal("SIGTERM");
    const done = await Promise.race([this.exited, sleep(5000).then(() => null)]);
    // workerd children can outlive wrangler's exit by a moment: make sure the group is gone.
    this.signal("SIGKILL");
    if (done === null) await Promise.race([this.exited, sleep(2000)]);
  }

  tail(lines = 30) {
    try {
      return readFileSync(this.logFile, "utf8").split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  }
}

/** The workerd processes in wrangler's process group, with their arguments, found through /proc (Linux); none elsewhere. */
export function workerdProcesses(pgid) {
  const found = [];
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[2]) !== pgid) continue;
        const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
        if (path.basename(args[0] ?? "") === "workerd") found.push({ pid: Number(entry), args });
      } catch {
        // The process ended while we looked.
      }
    }
  } catch {
    // No /proc.
  }
  return found;
}

/** Nanoseconds every thread of the process has run on a CPU (/proc/<pid>/task/<tid>/schedstat); null elsewhere. */
export function threadsCpu(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    return ns;
  } catch {
    return null;
  }
}

/** One bundle of bench/fire-worker.ts (the real Worker inside), as wrangler builds it for deploy; its directory. */
export function bundleFireWorker(out) {
  const dist = path.join(out, "fire-dist");
  rmSync(dist, { recursive: true, force: true });
  const built = spawnSync(process.execPath, [wranglerBin(), "deploy", "--dry-run", "--config", "bench/wrangler.fire.toml", "--outdir", dist], {
    cwd: root,
    encoding: "utf8",
    env: wranglerEnv(),
    timeout: 120_000,
  });
  if (built.status !== 0) throw new Error(`bundling bench/fire-worker.ts failed:\n${built.stdout}\n${built.stderr}`);
  return dist;
}

/**
 * `wrangler dev --no-bundle` serving the bundle in `dist` with bench/wrangler.fire.toml on free loopback ports,
 * its state under `persist` (emptied first), CUCKOO_DEV=1 and `vars(base URL)` as --var. Resolves when the
 * bench route answers (at most 60 s); its process group is stopped by `stop()` (and on exit or a signal).
 * `call(path, body?)` is a JSON request to it (POST with a body, else GET), failing on a non-2xx answer.
 */
export async function serveFireWorker({ dist, persist, log, vars = () => ({}) }) {
  rmSync(persist, { recursive: true, force: true });
  // The D1 directory's tables, as `npm run dev` has them: each chat's object writes its rows after a change.
  const migrated = spawnSync(
    process.execPath,
    [wranglerBin(), "d1", "migrations", "apply", "DB", "--local", "--config", "bench/wrangler.fire.toml", "--persist-to", persist],
    {
      cwd: root,
      encoding: "utf8",
      env: wranglerEnv(),
      timeout: 120_000,
    },
  );
  if (migrated.status !== 0) throw new Error(`applying the D1 migrations failed:\n${migrated.stdout}\n${migrated.stderr}`);
  const port = await freePort();
  const inspectorPort = await freePort();
  const base = `http://${HOST}:${port}`;
  const extra = Object.entries({ CUCKOO_DEV: "1", ...vars(base) }).flatMap(([key, value]) => ["--var", `${key}:${value}`]);
  const wrangler = new Group(
    wranglerBin(),
    [
      "dev",
      path.join(dist, "fire-worker.js"),
      "--no-bundle",
      "--config",
      "bench/wrangler.fire.toml",
      "--ip",
      HOST,
      "--port",
      String(port),
      "--inspector-ip",
      HOST,
      "--inspector-port",
      String(inspectorPort),
      ...extra,
      "--persist-to",
      persist,
      "--show-interactive-dev-session=false",
    ],
    log,
    wranglerEnv(),
  );
  const stop = () => wrangler.stop();

  async function call(pathname, body) {
    const response = await fetch(base + pathname, {
      method: body === undefined ? "GET" : "POST",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  const started = Date.now();
  try {
    for (;;) {
      if (!wrangler.alive) throw new Error(`wrangler dev exited:\n${wrangler.tail()}`);
      if (Date.now() - started > 60_000) throw new Error(`wrangler dev not ready within 60 s:\n${wrangler.tail()}`);
      try {
        await call("/bench/ping");
        break;
      } catch {
        await sleep(250);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { wrangler, port, inspectorPort, base, call, stop, readyMs: Date.now() - started };
}
