/**
 * The real entry point, `node src/main.ts`, as `npm run runner` starts it: refusing to start without its
 * secret, then serving with one, and stopping cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";

const runnerDir = path.resolve(import.meta.dirname, "..");
// The runner needs a Node that strips types (22.18+); vitest may run on an older one, so fall back to the
// root's node devDependency.
const node =
  (process.features as { typescript?: unknown }).typescript ? process.execPath : path.resolve(runnerDir, "../node_modules/.bin/node");

let child: ChildProcess | undefined;
let root: string | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (root) rmSync(root, { recursive: true, force: true });
  child = root = undefined;
});

function start(env: Record<string, string>) {
  const started = spawn(node, ["src/main.ts"], {
    cwd: runnerDir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  started.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  started.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => started.on("close", (code) => resolve(code)));
  return { process: started, output: () => ({ stdout, stderr }), exited };
}

it("refuses to start without RUNNER_SECRET, saying so in one sentence", async () => {
  expect(existsSync(node)).toBe(true);
  const run = start({});
  child = run.process;
  expect(await run.exited).toBe(1);
  expect(run.output()).toEqual({
    stdout: "",
    stderr:
      "cuckoo-runner: RUNNER_SECRET is required: set it to the secret the Worker shares with the runner, such as RUNNER_SECRET=$(openssl rand -hex 32) npm run runner.\n",
  });
});

it("serves /healthz with a secret, prints one line without it, and stops on SIGTERM", async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "cuckoo-runner-main-"));
  const secret = "main-test-secret-4f1c";
  const run = start({ RUNNER_SECRET: secret, RUNNER_PORT: "0", WORKSPACE_ROOT: root });
  child = run.process;
  let url: string | undefined;
  for (let i = 0; i < 500 && !url; i++) {
    url = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(run.output().stdout)?.[1];
    if (!url) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(url).toBeDefined();
  expect(run.output().stdout).toMatch(/^cuckoo-runner listening on http:\/\/127\.0\.0\.1:\d+ \(workspaces in .+, at most 8 runs at once\)\n$/);
  expect(run.output().stdout).not.toContain(secret);
  const response = await fetch(`${url}/healthz`);
  expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { ok: true, active: 0 } });
  run.process.kill("SIGTERM");
  expect(await run.exited).toBe(0);
  expect(run.output().stdout).not.toContain(secret);
});
