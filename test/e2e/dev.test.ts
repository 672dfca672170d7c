/**
 * `npm run dev` as a new user runs it (issue 14, item 7): scripts/dev.mjs starts the runner and `wrangler dev`,
 * and hands the session's runner secret to wrangler without a command line showing it (`ps` lists every
 * process's arguments to every user): no process's arguments hold it, yet the Worker signs with it (a dry run
 * through the runner answers), and its file is gone when the session ends. Until it is ready it prints only
 * what a person acts on (issue 38, item 3): the page, the runner, the zone and the agent, a warning in a line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT_WARNING } from "../../scripts/lib/dev-output.mjs";
import { atExit, freePort, waitFor } from "./harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let dev: ChildProcess;
let base: string;
let output = "";
let scratch: string;
let runnerPort: number;
/** What npm run dev printed up to its summary's last line (stdout and stderr, as they came). */
let startup: string[];

/** The pids of every process, with their command lines and environments where readable. */
function processes(): { pid: number; cmdline: string; environ: string }[] {
  const out: { pid: number; cmdline: string; environ: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const read = (file: string) => {
      try {
        return readFileSync(`/proc/${entry}/${file}`, "utf8").replaceAll("\0", " ");
      } catch {
        return "";
      }
    };
    out.push({ pid: Number(entry), cmdline: read("cmdline"), environ: read("environ") });
  }
  return out;
}

/** A secret exported in the shell that starts npm run dev: the runner, whose scripts could read it, never gets it. */
const SHELL_SECRET = "shell-secret-5f2c";

/** The runner secret's file, named on wrangler's command line (`--env-file`). */
function secretsFileOf(): string | undefined {
  const wrangler = processes().find((p) => p.cmdline.includes(`--port ${new URL(base).port}`) && p.cmdline.includes("--env-file"));
  return /--env-file (\S+runner\.env)/.exec(wrangler?.cmdline ?? "")?.[1];
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "cuckoo-e2e-dev-"));
  const [port, inspector] = [await freePort(), await freePort()];
  runnerPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  dev = spawn(
    process.execPath,
    [
      path.join(root, "scripts", "dev.mjs"),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspector),
      "--persist-to",
      path.join(scratch, "state"),
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: root,
      env: { ...process.env, RUNNER_PORT: String(runnerPort), WORKSPACE_ROOT: path.join(scratch, "ws"), CUCKOO_E2E_SHELL_SECRET: SHELL_SECRET },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // Ended with the test process, also when Ctrl-C stops it.
  atExit(killDev);
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-32_000));
  dev.stdout?.on("data", keep);
  dev.stderr?.on("data", keep);
  await waitFor(
    () => `npm run dev did not serve /healthz:\n${output}`,
    async () => {
      // The body is read under the same 2 s limit, inside the catch: a slow answer is a try that failed, not an error.
      return fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) })
        .then(async (res) => (res.status === 200 ? ((await res.json()) as { runner: string }) : undefined))
        .catch(() => undefined);
    },
    90_000,
    250,
  );
  // The summary's last line comes once the Worker answered npm run dev's own /healthz.
  const last = "cuckoo: Telegram: ";
  await waitFor(
    () => `npm run dev printed no summary:\n${output}`,
    async () => (output.includes(last) ? true : undefined),
    30_000,
  );
  const lines = output.split("\n");
  startup = lines.slice(0, lines.findIndex((line) => line.startsWith(last)) + 1);
}, 120_000);

/** Kills `npm run dev`'s whole group (the runner and wrangler beneath it) and removes the scratch folder. */
function killDev(): void {
  if (dev?.pid !== undefined && dev.exitCode === null) {
    try {
      process.kill(-dev.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}

afterAll(killDev);

describe("npm run dev", () => {
  it("prints until ready only the page, the runner, the zone, the agent and each warning in a line", () => {
    expect(startup.length, output).toBeLessThanOrEqual(25);
    const got = startup.filter((line) => line.startsWith("cuckoo: ") || line.includes("Ready on"));
    expect(got[0]).toMatch(/^cuckoo: the local D1 directory is migrated: 0001_directory\.sql, /);
    expect(got.slice(1)).toEqual([
      // The runner starts before wrangler: its warning, when it runs as root.
      ...(process.getuid?.() === 0 ? [ROOT_WARNING] : []),
      `[wrangler:info] Ready on ${base}`,
      `cuckoo: the page: ${base}/`,
      `cuckoo: the runner: http://127.0.0.1:${runnerPort}`,
      "cuckoo: the zone: UTC (DEFAULT_TIMEZONE, wrangler.toml)",
      "cuckoo: the agent: echo, it answers without a model (docs/agent.md says how to give it one)",
      "cuckoo: Telegram: off, no bot token: each chat's replies go to its transcript (docs/operations.md#trying-it)",
    ]);
    const text = startup.join("\n");
    for (const never of ["containers", "/tmp/", "additional modules", "Your Worker has access", "env.", "\u001b"]) expect(text, output).not.toContain(never);
  });

  it("serves the Worker with its runner, and no process's command line holds the runner secret", async () => {
    const health = await (await fetch(`${base}/healthz`)).json();
    expect(health).toMatchObject({ ok: true, telegram: "off", runner: "url", agent: "echo" });
    // The runner got the secret in its environment: read it there.
    const runner = processes().find(
      (p) => p.cmdline.includes(path.join("runner", "src", "main.ts")) && p.environ.includes(`WORKSPACE_ROOT=${path.join(scratch, "ws")}`),
    );
    expect(runner, output).toBeDefined();
    const secret = /RUNNER_SECRET=([0-9a-f]{64})/.exec(runner!.environ)?.[1];
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(runner!.environ).not.toContain(SHELL_SECRET);
    expect(
      processes()
        .filter((p) => p.cmdline.includes(secret!))
        .map((p) => p.cmdline),
    ).toEqual([]);
    // wrangler reads it from a file only its user may read, named on its command line (the name, not the secret).
    const secretsFile = secretsFileOf();
    expect(secretsFile, output).toMatch(/cuckoo-dev-[^/]+\/runner\.env$/);
    expect(statSync(secretsFile!).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(secretsFile!)).mode & 0o777).toBe(0o700);
    expect(readFileSync(secretsFile!, "utf8")).toBe(`RUNNER_SECRET=${secret}\n`);
    // The Worker has it too: its signed dry run is accepted by the runner.
    const res = await fetch(`${base}/admin/chats/123456789/test`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ command: "echo signed" }),
      signal: AbortSignal.timeout(30_000),
    });
    expect(await res.json()).toMatchObject({ status: "output", exitCode: 0, stdout: "signed\n" });
  });

  it("removes the secret's file when the session ends (Ctrl-C)", async () => {
    const secretsFile = secretsFileOf();
    expect(existsSync(secretsFile!)).toBe(true);
    process.kill(-dev.pid!, "SIGINT");
    await waitFor(
      () => `npm run dev did not stop:\n${output}`,
      async () => (dev.exitCode !== null || dev.signalCode !== null ? true : undefined),
      30_000,
    );
    await waitFor(
      () => `the secret's folder is still there:\n${output}`,
      async () => (existsSync(path.dirname(secretsFile!)) ? undefined : true),
      5_000,
    );
  });
});
