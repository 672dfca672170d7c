/**
 * @module What the Node side shares to run Cuckoo on this machine: `npm run dev` (scripts/dev.mjs), the
 * end-to-end harness (test/e2e) and the benches (bench/) all start wrangler and the runner the same way. Here:
 * the project's root, wrangler's entry point and its offline environment, a free loopback port, and the
 * runner's command, environment and readiness wait. Each caller keeps its own process handling (dev in the
 * foreground, the tests and benches in process groups they kill).
 */
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

/** The project's root (where package.json and wrangler.toml are). */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Everything local listens on loopback only. */
export const HOST = "127.0.0.1";

/** wrangler's own entry point, to run with this Node (`process.execPath`: Node 22 under npm, whatever the shell's is). */
export function wranglerBin() {
  return path.join(path.dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");
}

/**
 * `env` for wrangler with no network: no telemetry or error reports, and a placeholder `Request.cf` instead of
 * fetching one (without this, wrangler dev warns twice at start-up that it could not fetch it).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {NodeJS.ProcessEnv}
 */
export function wranglerEnv(env = process.env) {
  return { ...env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
}

/**
 * A free TCP port on loopback (bound and released; the server that wants it takes it a moment later).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The runner's entry point, to run with this Node. */
export const RUNNER_MAIN = path.join(root, "runner", "src", "main.ts");

/**
 * The runner's environment on loopback: `base` (what its scripts may see; by default only PATH), then its
 * secret, its port (0: any; it prints the one it took) and its scripts' directory.
 * @param {{ secret: string; port: number; workspaceRoot: string; base?: Record<string, string> }} options
 * @returns {Record<string, string>}
 */
export function runnerEnv({ secret, port, workspaceRoot, base = { PATH: process.env.PATH ?? "/usr/bin:/bin" } }) {
  return { ...base, RUNNER_SECRET: secret, RUNNER_PORT: String(port), RUNNER_HOST: HOST, WORKSPACE_ROOT: workspaceRoot };
}

/**
 * Waits until `url`/healthz answers 200, asking every 100 ms: `ready`, or `gone` as soon as `gone()` is true (the
 * process exited), or `late` after `withinMs`.
 * @param {string} url
 * @param {{ withinMs?: number; gone?: () => boolean }} [options]
 * @returns {Promise<"ready" | "gone" | "late">}
 */
export async function untilHealthy(url, { withinMs = 15_000, gone = () => false } = {}) {
  const started = Date.now();
  for (;;) {
    if (gone()) return "gone";
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return "ready";
    } catch {
      // Not listening yet.
    }
    if (Date.now() - started > withinMs) return "late";
    await sleep(100);
  }
}
