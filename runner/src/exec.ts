/**
 * @module One script as one process group: `/bin/sh -c <command>` with stdin closed (`/dev/null`), or, when
 * the request carries a stdin text, a pipe that the text is written to (UTF-8) and then closed; its own group
 * (`detached`), both streams captured within bounds, and the whole group killed on timeout or cancel
 * (SIGTERM, SIGKILL after a grace period) and when the shell exits, so no background child outlives it.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { type Captured, HeadTailCapture } from "./capture.ts";
import type { ScriptUser } from "./config.ts";

export interface ExecRequest {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL to the group. */
  killGraceMs: number;
  /** The user and group the shell runs as (needs a runner running as root); null or absent: the runner's. */
  user?: ScriptUser | null;
  /** Written (UTF-8) to the shell's stdin, which is then closed; absent: stdin is `/dev/null` from the start. */
  stdin?: string;
}

export interface ExecResult {
  /** The shell's exit status; null when it was killed by a signal or never started. */
  code: number | null;
  /** The signal that ended the shell, such as "SIGKILL". */
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Why the shell could not be started; null when it ran. */
  spawnError: string | null;
  stdout: Captured;
  stderr: Captured;
}

export interface Execution {
  /** Settles once the shell has exited and its streams are closed; never rejects. */
  readonly result: Promise<ExecResult>;
  /** Kills the group (SIGTERM, then SIGKILL after the grace period); nothing once it has exited. */
  cancel(): void;
  /** Sends the group SIGKILL now, without a grace period: for a runner that is about to exit. */
  kill(): void;
}

/**
 * After the shell exits and its group is killed, how long to wait for the pipes to close before letting go
 * of them: a process that left the group (setsid) could otherwise hold them open for ever.
 */
const PIPE_DRAIN_MS = 2_000;

/**
 * Sends `signal` to the process group led by `pid`. A group already gone (ESRCH) is the usual reason this
 * fails, and no failure may throw out of the timers that call it and bring the runner down.
 */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Gone already, or (after a pid was reused) not ours to signal: either way nothing is left to do.
  }
}

export function execute(request: ExecRequest): Execution {
  const stdout = new HeadTailCapture();
  const stderr = new HeadTailCapture();
  let timedOut = false;
  let cancelled = false;
  let exited = false;
  let killTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  let timeoutTimer: NodeJS.Timeout | undefined;
  let pid: number | undefined;

  const terminate = (): void => {
    if (exited || pid === undefined || killTimer !== undefined) return;
    const group = pid;
    killGroup(group, "SIGTERM");
    killTimer = setTimeout(() => killGroup(group, "SIGKILL"), request.killGraceMs);
  };

  const result = new Promise<ExecResult>((resolve) => {
    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      resolve({
        code,
        signal,
        timedOut,
        cancelled,
        spawnError,
        stdout: stdout.result(),
        stderr: stderr.result(),
      });
    };

    let child: ChildProcessByStdio<Writable | null, Readable, Readable>;
    try {
      const options = {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        // Node (libuv) drops the supplementary groups too when it switches.
        ...(request.user ? { uid: request.user.uid, gid: request.user.gid } : {}),
      };
      const args = ["-c", request.command];
      child =
        request.stdin === undefined
          ? spawn("/bin/sh", args, { ...options, stdio: ["ignore", "pipe", "pipe"] })
          : spawn("/bin/sh", args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      finish(null, null, `could not start /bin/sh: ${(error as Error).message}`);
      return;
    }
    pid = child.pid;
    child.stdout.on("data", (chunk: Buffer) => stdout.write(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.write(chunk));
    // 'error' without a pid: the shell never started (a missing cwd or /bin/sh, too many processes).
    child.on("error", (error) => {
      if (child.pid === undefined) finish(null, null, `could not start /bin/sh: ${error.message}`);
    });
    child.on("exit", () => {
      exited = true;
      // What the script left running in its group is killed with it, so it can neither survive the run nor
      // keep the pipes (and so this run) open.
      if (pid !== undefined) killGroup(pid, "SIGKILL");
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_DRAIN_MS);
    });
    child.on("close", (code, signal) => {
      // What is still unwritten can only be for a process that left the group and holds the pipe unread.
      child.stdin?.destroy();
      finish(code, signal, null);
    });
    if (child.stdin) {
      // A script need not read its input: writing to a pipe whose reader exited or closed it fails (EPIPE),
      // which is no fault of the run, and an unhandled 'error' would bring the runner down.
      child.stdin.on("error", () => {});
      // Written as the pipe takes it, while stdout and stderr are read: neither a large text nor a script
      // that prints a lot before it reads holds up the event loop or the script.
      if (pid !== undefined) child.stdin.end(request.stdin ?? "", "utf8");
      else child.stdin.destroy();
    }
    if (pid !== undefined) {
      timeoutTimer = setTimeout(() => {
        if (exited) return;
        timedOut = true;
        terminate();
      }, request.timeoutMs);
    }
  });

  return {
    result,
    cancel() {
      if (exited || pid === undefined) return;
      cancelled = true;
      terminate();
    },
    kill() {
      if (exited || pid === undefined) return;
      cancelled = true;
      killGroup(pid, "SIGKILL");
    },
  };
}
