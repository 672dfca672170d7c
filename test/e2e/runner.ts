/**
 * The real runner for end-to-end tests: `node runner/src/main.ts` in its own process group on a free loopback
 * port (RUNNER_PORT=0 at first; the port is read from its "listening on" line), with a fresh secret and a
 * temporary WORKSPACE_ROOT, both removed by `stop()` and on exit, so nothing is left running or behind.
 * `crash()` kills it with SIGKILL; `restart()` starts it again on the same port, secret and workspaces. The e2e
 * tier's global setup starts one for its files to share (`sharedRunner`), its output in a file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { RUNNER_MAIN, root, runnerEnv } from "../../scripts/lib/local.mjs";
import { appendTo, atExit, tailOf } from "./harness.js";

export type Runner = { url: string; secret: string; log(): string; stop(): Promise<void>; crash(): Promise<void>; restart(): Promise<void> };

/** The runner a global setup started for the tier's files: its URL, its secret, and the file its output goes to. */
export type SharedRunner = { url: string; secret: string; logFile: string };

declare module "vitest" {
  export interface ProvidedContext {
    sharedRunner: SharedRunner;
  }
}

/** `logFile`: where its output also goes. */
export async function startRunner(options: { logFile?: string } = {}): Promise<Runner> {
  const secret = randomBytes(24).toString("hex");
  const workspaces = mkdtempSync(path.join(tmpdir(), "cuckoo-e2e-runner-"));
  let output = "";
  let child: ChildProcess;
  let exited: Promise<void>;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-32 * 1024);
    if (options.logFile) appendTo(options.logFile, chunk);
  };
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // gone already
    }
  };
  // Ended with the test process, also when Ctrl-C stops it.
  const forget = atExit(() => {
    kill("SIGKILL");
    rmSync(workspaces, { recursive: true, force: true });
  });

  /** Spawns the runner on `port` (0: any) and resolves with its URL once it listens. */
  const launch = async (port: number): Promise<string> => {
    const from = output.length;
    child = spawn(process.execPath, [RUNNER_MAIN], {
      cwd: root,
      env: runnerEnv({ secret, port, workspaceRoot: workspaces }),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const current = child;
    exited = new Promise<void>((resolve) => current.once("exit", () => resolve()));
    const started = Date.now();
    for (;;) {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.slice(from));
      if (m) return m[1]!;
      if (current.exitCode !== null || Date.now() - started > 15_000) {
        kill("SIGKILL");
        throw new Error(`the runner did not start:\n${output}`);
      }
      await sleep(50);
    }
  };

  const stop = async () => {
    // SIGINT stops at once, killing its scripts' groups (SIGTERM would drain: wait for running scripts).
    kill("SIGINT");
    await Promise.race([exited, sleep(5_000, undefined, { ref: false })]);
    kill("SIGKILL");
    rmSync(workspaces, { recursive: true, force: true });
    forget();
  };

  try {
    const url = await launch(0);
    return {
      url,
      secret,
      log: () => output,
      stop,
      async crash() {
        kill("SIGKILL");
        await Promise.race([exited, sleep(5_000, undefined, { ref: false })]);
      },
      async restart() {
        await launch(Number(new URL(url).port));
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The runner the tier's global setup started for its files to share (scripts of each file's own chats). It is
 * stopped after the run: `stop()` does nothing, and it cannot be crashed or restarted.
 */
export function sharedRunner(): Runner {
  const { url, secret, logFile } = inject("sharedRunner");
  const refuse = async () => {
    throw new Error("the shared runner is not this file's to crash or restart: start one with startRunner()");
  };
  return { url, secret, log: () => tailOf(logFile, 400), stop: async () => {}, crash: refuse, restart: refuse };
}
