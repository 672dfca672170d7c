/**
 * The real runner for end-to-end tests: `node runner/src/main.ts` in its own process group on a free loopback
 * port (RUNNER_PORT=0; the port is read from its "listening on" line), with a fresh secret and a temporary
 * WORKSPACE_ROOT, both removed by `stop()` and on exit, so nothing is left running or behind.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type Runner = { url: string; secret: string; log(): string; stop(): Promise<void> };

export async function startRunner(): Promise<Runner> {
  const secret = randomBytes(24).toString("hex");
  const workspaces = mkdtempSync(path.join(tmpdir(), "cuckoo-e2e-runner-"));
  const child = spawn(process.execPath, [path.join(root, "runner", "src", "main.ts")], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", RUNNER_SECRET: secret, RUNNER_PORT: "0", RUNNER_HOST: "127.0.0.1", WORKSPACE_ROOT: workspaces },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-32 * 1024);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // gone already
    }
  };
  const onExit = () => {
    kill("SIGKILL");
    rmSync(workspaces, { recursive: true, force: true });
  };
  process.once("exit", onExit);
  const stop = async () => {
    // SIGINT stops at once, killing its scripts' groups (SIGTERM would drain: wait for running scripts).
    kill("SIGINT");
    await Promise.race([exited, sleep(5_000)]);
    kill("SIGKILL");
    rmSync(workspaces, { recursive: true, force: true });
    process.removeListener("exit", onExit);
  };

  const started = Date.now();
  for (;;) {
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (m) return { url: m[1]!, secret, log: () => output, stop };
    if (child.exitCode !== null || Date.now() - started > 15_000) {
      await stop();
      throw new Error(`the runner did not start:\n${output}`);
    }
    await sleep(50);
  }
}
