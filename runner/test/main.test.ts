/**
 * The real entry point, `node src/main.ts`, as `npm run runner` starts it: refusing to start without its
 * secret, then serving with one; SIGTERM drains (no new runs, the running ones finish and call back, exit
 * 0), SIGINT kills and exits, and a second signal kills the groups and exits at once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { signatureHeader } from "../src/contract.ts";
import { type CallbackServer, eventually, isAlive, runRequest, startCallbackServer } from "./harness.ts";

const runnerDir = path.resolve(import.meta.dirname, "..");
// The runner needs a Node that strips types (22.18+); vitest may run on an older one, so fall back to the
// root's node devDependency.
const node = (process.features as { typescript?: unknown }).typescript ? process.execPath : path.resolve(runnerDir, "../node_modules/.bin/node");

const isRoot = process.getuid?.() === 0;
const SECRET = "main-test-secret-4f1c";

let child: ChildProcess | undefined;
let root: string | undefined;
let callbacks: CallbackServer | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (root) rmSync(root, { recursive: true, force: true });
  await callbacks?.stop();
  child = root = callbacks = undefined;
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

/** Starts a runner with a secret on a free port over a fresh root; resolves once it is listening. */
async function serve(env: Record<string, string> = {}) {
  root = mkdtempSync(path.join(os.tmpdir(), "cuckoo-runner-main-"));
  const run = start({ RUNNER_SECRET: SECRET, RUNNER_PORT: "0", WORKSPACE_ROOT: root, ...env });
  child = run.process;
  let url: string | undefined;
  for (let i = 0; i < 500 && !url; i++) {
    url = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(run.output().stdout)?.[1];
    if (!url) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!url) throw new Error(`the runner did not start: ${JSON.stringify(run.output())}`);
  const base = url;
  const post = async (pathname: string, body: unknown) => {
    const raw = JSON.stringify(body);
    const response = await fetch(base + pathname, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-cuckoo-signature": await signatureHeader(SECRET, { method: "POST", target: pathname, body: raw }, Date.now() / 1000),
      },
      body: raw,
    });
    return { status: response.status, body: await response.json() };
  };
  const health = async () => (await fetch(`${base}/healthz`)).json();
  return { ...run, url: base, root, post, health };
}

const ROOT_WARNING =
  "cuckoo-runner: it runs as root without RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID, so scripts run as root too and can read its secret; set both to an unprivileged user's ids, such as RUNNER_SCRIPT_UID=65534 RUNNER_SCRIPT_GID=65534 (nobody) with a WORKSPACE_ROOT that user can reach, or run the runner as another user.\n";

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
  const run = await serve();
  expect(run.output().stdout).toMatch(/^cuckoo-runner listening on http:\/\/127\.0\.0\.1:\d+ \(workspaces in .+, at most 8 runs at once\)\n$/);
  expect(run.output().stdout).not.toContain(SECRET);
  // As root without a script user, it warns (on stderr) that scripts run as root.
  expect(run.output().stderr).toBe(isRoot ? ROOT_WARNING : "");
  const response = await fetch(`${run.url}/healthz`);
  expect({ status: response.status, body: await response.json() }).toEqual({
    status: 200,
    body: { ok: true, active: 0, callbacks: 0, draining: false },
  });
  run.process.kill("SIGTERM");
  expect(await run.exited).toBe(0);
  expect(run.output().stdout).not.toContain(SECRET);
});

it("drains on SIGTERM: refuses new runs with 503, lets the running one call back, then exits 0", async () => {
  callbacks = await startCallbackServer();
  const run = await serve();
  expect(await run.post("/runs", runRequest({ runId: "r-rollout", command: "sleep 1; echo done", callbackUrl: callbacks.url }))).toEqual({
    status: 202,
    body: { runId: "r-rollout" },
  });
  run.process.kill("SIGTERM");
  expect(await eventually(() => run.output().stdout.includes("SIGTERM, draining"))).toBe(true);
  expect(await run.post("/runs", runRequest({ runId: "r-after-sigterm" }))).toEqual({
    status: 503,
    body: { error: { code: "unavailable", message: "The runner is shutting down and takes no new runs; send the run again in a moment." } },
  });
  expect(await run.health()).toEqual({ ok: true, active: 1, callbacks: 0, draining: true });
  expect(await run.exited).toBe(0);
  expect(callbacks.received).toHaveLength(1);
  expect(JSON.parse(callbacks.received[0]!.body)).toMatchObject({ runId: "r-rollout", status: "output", exitCode: 0, stdout: "done\n" });
  expect(run.output().stdout).toContain(
    "cuckoo-runner: SIGTERM, draining: no new runs; waiting for 1 running run(s) and 0 outcome(s) being delivered (a second SIGTERM or SIGINT stops at once)\n",
  );
  expect(run.output().stdout).not.toContain("r-after-sigterm");
});

it("stops at once on SIGINT: the running script is killed and calls nothing back", async () => {
  callbacks = await startCallbackServer();
  const run = await serve();
  await run.post("/runs", runRequest({ command: "echo $$ > pid; sleep 600", callbackUrl: callbacks.url }));
  const shell = await shellPid(run.root);
  const started = Date.now();
  run.process.kill("SIGINT");
  expect(await run.exited).toBe(0);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(await eventually(() => !isAlive(shell))).toBe(true);
  expect(callbacks.received).toEqual([]);
});

it("kills the groups and exits at once on a second signal while draining", async () => {
  const run = await serve();
  // A script that ignores SIGTERM, with an hour to go: only the second signal ends this drain early.
  await run.post("/runs", runRequest({ command: "trap '' TERM; echo $$ > pid; sleep 600", timeoutSeconds: 3600 }));
  const shell = await shellPid(run.root);
  run.process.kill("SIGTERM");
  expect(await eventually(() => run.output().stdout.includes("SIGTERM, draining"))).toBe(true);
  expect(isAlive(shell)).toBe(true);
  const started = Date.now();
  run.process.kill("SIGINT");
  expect(await run.exited).toBe(1);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(run.output().stdout).toContain("cuckoo-runner: SIGINT while stopping: killing 1 running run(s) and exiting now\n");
  expect(await eventually(() => !isAlive(shell), 2_000)).toBe(true);
});

// Switching users needs root; CI runs as root, so this runs (and can fail) there. The refusal of a runner
// that is not root is a unit test (units.test.ts).
it.runIf(isRoot)("starts scripts as RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID, and says so", async () => {
  const run = await serve({ RUNNER_SCRIPT_UID: "65534", RUNNER_SCRIPT_GID: "65534" });
  expect(run.output().stdout).toMatch(/\(workspaces in .+, at most 8 runs at once, scripts as uid 65534 gid 65534\)\n$/);
  expect(run.output().stderr).toBe("");
  const { body } = await run.post("/runs?wait=1", runRequest({ command: "id -u; id -g" }));
  expect(body).toMatchObject({ status: "output", stdout: "65534\n65534\n" });
  run.process.kill("SIGTERM");
  expect(await run.exited).toBe(0);
});

/** The pid of the shell of the chat's one running script, which writes it to `pid` in its workspace. */
async function shellPid(workspaceRoot: string): Promise<number> {
  const file = path.join(workspaceRoot, "123456789", "pid");
  let pid = 0;
  await eventually(() => {
    pid = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0;
    return pid > 0;
  });
  expect(pid).toBeGreaterThan(1);
  return pid;
}
