/**
 * The end-to-end harness (docs/operations.md#checks): the real Worker under `wrangler dev` (local workerd, real queues,
 * alarms and D1), started the way `npm run dev` starts it: D1 migrations applied first, then `wrangler dev`
 * with CUCKOO_DEV=1. Each start gets a fresh state directory and free loopback ports, so runs never share
 * state with `npm run dev` or with each other. wrangler runs in its own process group on the Node running the
 * tests (Node 22 under npm, whatever the shell's node is), and the whole group is stopped by `stop()`, and on
 * SIGINT, SIGTERM, SIGHUP or exit, with its state directory, so nothing is left running or behind.
 *
 * Under `npm test` a tier's global setup (test/e2e/global-setup.ts, test/browser/global-setup.ts) migrates one
 * state directory that every start copies (`migratedState`), and starts the Workers the tier's files share
 * (`sharedWorker`) while the other tiers run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { freePort, HOST, root, wranglerBin, wranglerEnv } from "../../scripts/lib/local.mjs";

export { freePort };

/** A Worker a global setup started for a tier's files: the file its output goes to, which says where it answers. */
export type Shared = { logFile: string };

declare module "vitest" {
  export interface ProvidedContext {
    /** A state directory with the D1 migrations applied (complete once it holds `MIGRATED`), copied by each start. */
    migratedState: string;
    /** The Workers a tier's files share, by name. */
    sharedWorkers: Record<string, Shared>;
  }
}

/** The file a migrated state directory holds once it is complete, and the one that says why it never will be. */
const MIGRATED = ".migrated";
const NOT_MIGRATED = ".not-migrated";

const READY_WITHIN_MS = 60_000;
const MIGRATE_WITHIN_MS = 60_000;
/** How much of wrangler's output is kept for error messages. */
const LOG_KEPT = 64 * 1024;

export type Answer = { status: number; body: any };

/** A running Worker: its base URL, JSON requests against it, and `stop()`. */
export type Worker = {
  base: string;
  /** A JSON request (Content-Type application/json on every method, like the page), read back as JSON. */
  send(method: string, path: string, body?: unknown): Promise<Answer>;
  /** The tail of wrangler's output, for failure messages. */
  log(): string;
  /** Stops the whole process group and removes the state directory. Safe to call twice. */
  stop(): Promise<void>;
  /** Kills the whole process group with SIGKILL (a crash: nothing is flushed), keeping the state directory. */
  crash(): Promise<void>;
  /** Serves the same state on the same port again, after `crash`; resolves once `/healthz` answers. */
  restart(): Promise<void>;
};

/** Every process group started here and not yet stopped, and every state directory not yet removed. */
const running = new Set<Wrangler>();
const stateDirs = new Set<string>();
/** What else the test process started and must end with it (a runner, `npm run dev`, a folder of logs). */
const lastResorts = new Set<() => void>();

/** The last resort of the exit and signal handlers: synchronous, so it also runs in `exit`. */
function killAll(): void {
  for (const w of running) w.signal("SIGKILL");
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
  for (const kill of lastResorts) kill();
}

/**
 * Has `cleanup` (synchronous: a kill, a removal) run when the test process exits or is stopped by a signal
 * (Ctrl-C), as the Workers started here are stopped; for the other processes and folders a test makes. Returns
 * what takes it off again.
 */
export function atExit(cleanup: () => void): () => void {
  installHandlers();
  lastResorts.add(cleanup);
  return () => lastResorts.delete(cleanup);
}

/** Appends to a shared log; output that comes after the run removed its folder (a process's last words) is dropped. */
export function appendTo(logFile: string, chunk: Buffer | string): void {
  try {
    appendFileSync(logFile, chunk);
  } catch {
    // The folder is gone: nothing reads the log any more.
  }
}

/** A wait that does not keep the process alive by itself (a bound raced against a process's exit). */
const bound = (ms: number) => sleep(ms, undefined, { ref: false });

/** One wrangler process in its own process group, its output kept in memory. */
class Wrangler {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private output = "";
  private alive = true;

  /** `logFile`: where its output also goes, for the files of a tier that share it (read by `sharedWorker`). */
  constructor(args: string[], logFile?: string) {
    // detached: its own process group, so stopping it also stops workerd and esbuild beneath it.
    this.child = spawn(process.execPath, [wranglerBin(), ...args], { cwd: root, env: wranglerEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString("utf8")).slice(-LOG_KEPT);
      if (logFile) appendTo(logFile, chunk);
    };
    this.child.stdout?.on("data", keep);
    this.child.stderr?.on("data", keep);
    this.exited = new Promise((resolve) => {
      this.child.once("error", (error) => {
        keep(Buffer.from(`\n${String(error)}\n`));
        this.alive = false;
        resolve({ code: null, signal: null });
      });
      this.child.once("exit", (code, signal) => {
        this.alive = false;
        resolve({ code, signal });
      });
    });
    running.add(this);
  }

  get isAlive(): boolean {
    return this.alive;
  }

  log(lines = 40): string {
    return this.output.split("\n").slice(-lines).join("\n");
  }

  /** Signals the whole group; a group that is gone already is not an error. */
  signal(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // ESRCH: the group is gone.
    }
  }

  /**
   * SIGTERM to wrangler alone, which shuts workerd down as Ctrl-C would, then SIGKILL to the group for anything
   * that outlived it (or everything, when wrangler did not exit within 5 s).
   */
  async stop(): Promise<void> {
    if (this.alive && this.child.pid !== undefined) {
      try {
        process.kill(this.child.pid, "SIGTERM");
      } catch {
        // Gone already.
      }
      await Promise.race([this.exited, bound(5_000)]);
    }
    this.signal("SIGKILL");
    await Promise.race([this.exited, bound(2_000)]);
    running.delete(this);
  }
}

let handlersInstalled = false;

/**
 * On exit, kill synchronously (no async work runs then). On a signal, kill, then let the signal do what it
 * would have done: re-raised when no one else listens, so Ctrl-C still ends the test process.
 */
function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** Runs a wrangler command to its end (bounded); throws with its output when it fails. */
async function runToEnd(args: string[], withinMs: number): Promise<void> {
  const w = new Wrangler(args);
  const result = await Promise.race([w.exited, bound(withinMs).then(() => null)]);
  // Also when it finished: the group may still hold a child that outlived wrangler itself.
  await w.stop();
  if (result === null) throw new Error(`wrangler ${args.join(" ")} did not finish within ${withinMs / 1000} s:\n${w.log()}`);
  if (result.code !== 0) throw new Error(`wrangler ${args.join(" ")} failed (${result.code ?? result.signal}):\n${w.log()}`);
}

/**
 * What a test may add to the Worker's vars (`--var`), such as a bot token and a Bot API stub's URL; a function
 * gets the Worker's base URL first (for PUBLIC_URL).
 */
export type StartOptions = {
  vars?: Record<string, string> | ((base: string) => Record<string, string>);
  /** Wrangler configurations to serve together (`-c` each; the first is the one on the port), instead of wrangler.toml. */
  configs?: string[];
  /** A migrated state directory to copy (`migrateState`); by default the tier's (`migratedState`), else a fresh migration. */
  from?: string;
  /** Where wrangler's output also goes. */
  logFile?: string;
};

/** Applies the D1 migrations to a state directory, where `wrangler dev --persist-to` reads them (stdin is not a TTY: no prompt). */
async function migrate(persist: string): Promise<void> {
  await runToEnd(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], MIGRATE_WITHIN_MS);
}

/**
 * A global setup's one migration for its tier: a new state directory, returned at once and migrated in the
 * background; each start copies it once it is complete (`MIGRATED`). `dispose()` removes it.
 */
export function migrateState(): { dir: string; done: Promise<void>; dispose(): void } {
  installHandlers();
  const dir = mkdtempSync(path.join(tmpdir(), "cuckoo-e2e-migrated-"));
  stateDirs.add(dir);
  const done = migrate(dir).then(
    () => writeFileSync(path.join(dir, MIGRATED), ""),
    (error: unknown) => writeFileSync(path.join(dir, NOT_MIGRATED), String(error)),
  );
  return {
    dir,
    done,
    dispose() {
      rmSync(dir, { recursive: true, force: true });
      stateDirs.delete(dir);
    },
  };
}

/** The tier's migrated state directory, when a global setup made one (none outside a test file, or without one). */
function providedState(): string | undefined {
  try {
    return inject("migratedState");
  } catch {
    return undefined; // not in a test file (a global setup passes `from` itself)
  }
}

/** Copies the migrated state `from` into `persist` once it is complete (at most 60 s); throws when it failed. */
async function copyMigrated(from: string, persist: string): Promise<void> {
  const started = Date.now();
  while (!existsSync(path.join(from, MIGRATED))) {
    if (existsSync(path.join(from, NOT_MIGRATED))) throw new Error(`the tier's D1 migration failed: ${readFileSync(path.join(from, NOT_MIGRATED), "utf8")}`);
    if (Date.now() - started > MIGRATE_WITHIN_MS) throw new Error(`the tier's D1 migration did not finish within ${MIGRATE_WITHIN_MS / 1000} s`);
    await sleep(100);
  }
  cpSync(from, persist, { recursive: true, filter: (source) => path.basename(source) !== MIGRATED });
}

/** What wrangler says when another process took the port between `freePort` choosing it and wrangler binding it. */
const PORT_TAKEN = /Address already in use/;
/** How often a start tries other ports when its own were taken meanwhile. */
const PORT_TRIES = 3;

/**
 * Starts the Worker: migrates the D1 database of a fresh state directory (or copies the tier's migrated one),
 * serves it with `wrangler dev` on a free loopback port (devtools too; other free ports when another process
 * took those meanwhile) and resolves once `GET /healthz` answers 200 (at most 60 s). `vars` are passed as
 * `--var NAME:value` after CUCKOO_DEV=1 (a value may hold colons, as a bot token does).
 */
export async function startWorker(options: StartOptions = {}): Promise<Worker> {
  installHandlers();
  const persist = mkdtempSync(path.join(tmpdir(), "cuckoo-e2e-"));
  stateDirs.add(persist);
  let dev: Wrangler | null = null;
  let stopped = false;
  let port = 0;
  let inspectorPort = 0;
  const base = () => `http://${HOST}:${port}`;

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await dev?.stop();
    rmSync(persist, { recursive: true, force: true });
    stateDirs.delete(persist);
  };

  // The Worker on loopback only, with the open dev mode of `npm run dev`.
  const args = () => {
    const vars = typeof options.vars === "function" ? options.vars(base()) : (options.vars ?? {});
    return [
      "dev",
      ...(options.configs ?? []).flatMap((config) => ["-c", config]),
      "--ip",
      HOST,
      "--port",
      String(port),
      "--inspector-ip",
      HOST,
      "--inspector-port",
      String(inspectorPort),
      "--var",
      "CUCKOO_DEV:1",
      ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
      "--persist-to",
      persist,
      "--show-interactive-dev-session=false",
    ];
  };

  /**
   * Serves the state (on the ports it had when `samePort`) and resolves once `/healthz` answers 200, bounded;
   * a wrangler that exits early fails at once with its output, unless its port was taken: then on other ports.
   */
  const serve = async (samePort: boolean): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      if (!samePort || attempt > 1) [port, inspectorPort] = [await freePort(), await freePort()];
      const server = new Wrangler(args(), options.logFile);
      dev = server;
      const started = Date.now();
      for (;;) {
        if (!server.isAlive) {
          if (PORT_TAKEN.test(server.log()) && attempt < PORT_TRIES) break;
          throw new Error(`wrangler dev exited before it was ready:\n${server.log()}`);
        }
        if (Date.now() - started > READY_WITHIN_MS) throw new Error(`wrangler dev was not ready within ${READY_WITHIN_MS / 1000} s:\n${server.log()}`);
        const res = await fetch(`${base()}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
        if (res?.status === 200) return;
        await res?.body?.cancel();
        await sleep(200);
      }
      await server.stop();
    }
  };

  try {
    // The D1 directory, migrated where `wrangler dev --persist-to` reads it.
    const from = options.from ?? providedState();
    if (from) await copyMigrated(from, persist);
    else await migrate(persist);
    await serve(false);
    return {
      get base() {
        return base();
      },
      send: (method, route, body) => sender(base())(method, route, body),
      log: () => dev?.log() ?? "",
      stop,
      async crash() {
        const server = dev;
        if (!server) return;
        server.signal("SIGKILL");
        await Promise.race([server.exited, bound(5_000)]);
        running.delete(server);
      },
      async restart() {
        await serve(true);
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** What a global setup writes to a shared Worker's log once it answers (with its base URL), or when it did not start. */
const READY_AT = "[cuckoo e2e] ready at ";
const NOT_STARTED = "[cuckoo e2e] not started: ";

/**
 * `startWorker` for a global setup, in the background (the other tiers run meanwhile), its output in `logFile`,
 * where the files that share it (`sharedWorker`) read where it answers once it does, or why it did not start.
 * Resolves with the Worker, or null when it did not start.
 */
export function startShared(options: StartOptions & { logFile: string }): Promise<Worker | null> {
  return startWorker(options).then(
    (worker) => {
      appendTo(options.logFile, `\n${READY_AT}${worker.base}\n`);
      return worker;
    },
    (error: unknown) => {
      appendTo(options.logFile, `\n${NOT_STARTED}${error instanceof Error ? error.message : String(error)}\n`);
      return null;
    },
  );
}

/** A JSON request (Content-Type application/json on every method, like the page), read back as JSON. */
function sender(base: string): Worker["send"] {
  return async (method, route, body) => {
    const init: RequestInit = { method, headers: { "Content-Type": "application/json" } };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const res = await fetch(`${base}${route}`, { ...init, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    return { status: res.status, body: text === "" ? null : JSON.parse(text) };
  };
}

/** The last `lines` lines of a log file (empty while there is none). */
export function tailOf(logFile: string, lines = 40): string {
  return existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").slice(-lines).join("\n") : "";
}

/**
 * The Worker named `name` that the tier's global setup started for its files to share (each with chats of its
 * own), once it answers `/healthz`; failing at once with its output when the setup could not start it. It is
 * stopped after the run: `stop()` does nothing, and it cannot be crashed or restarted.
 */
export async function sharedWorker(name: string): Promise<Worker> {
  const shared = inject("sharedWorkers")[name];
  if (!shared) throw new Error(`the tier's global setup starts no shared Worker "${name}"`);
  const log = (lines?: number) => tailOf(shared.logFile, lines);
  const base = await waitFor(
    () => `the shared Worker "${name}" did not answer /healthz:\n${log()}`,
    async () => {
      const text = existsSync(shared.logFile) ? readFileSync(shared.logFile, "utf8") : "";
      if (text.includes(NOT_STARTED)) throw new Error(`the shared Worker "${name}" did not start:\n${log()}`);
      const at = text.indexOf(READY_AT);
      return at === -1 ? undefined : text.slice(at + READY_AT.length).split("\n", 1)[0];
    },
    2 * (MIGRATE_WITHIN_MS + READY_WITHIN_MS),
    200,
  );
  const refuse = async () => {
    throw new Error(`the shared Worker "${name}" is not this file's to crash or restart: start one with startWorker()`);
  };
  return { base, send: sender(base), log, stop: async () => {}, crash: refuse, restart: refuse };
}

/**
 * Polls `probe` until it returns something other than undefined, every `everyMs`, for at most `withinMs`;
 * throws naming `what` (a function is called then, so it can show the server's latest output) when it never does.
 */
export async function waitFor<T>(what: string | (() => string), probe: () => Promise<T | undefined>, withinMs = 20_000, everyMs = 100): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > withinMs) throw new Error(`${typeof what === "string" ? what : what()}: not within ${withinMs / 1000} s`);
    await sleep(everyMs);
  }
}
