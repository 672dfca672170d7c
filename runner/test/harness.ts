/**
 * @module What the runner tests share: a runner on 127.0.0.1 (port 0) over a fresh temporary workspace
 * root, signed requests to it, a callback server that records what it gets, and a liveness check for pids.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { signatureHeader } from "../src/contract.ts";
import { createRunner, type Runner, type RunnerOptions } from "../src/server.ts";

export const SECRET = "test-secret-0123456789";

export interface TestRunner {
  runner: Runner;
  url: string;
  root: string;
  logs: string[];
  /**
   * Sends a request signed with the runner's clock (or `t` given) for its own method, target and body, or
   * for those of `signFor` (a header made for one request, replayed on another); JSON body when an object
   * is given; `signature` replaces the header (null: none).
   */
  send(method: string, pathname: string, body?: unknown, init?: SendInit): Promise<Answer>;
  stop(): Promise<void>;
}

export interface SendInit {
  t?: number;
  signature?: string | null;
  signFor?: { method?: string; target?: string; body?: string };
}

export interface Answer {
  status: number;
  body: any;
}

/** Starts a runner; stop it with `stop()` (which also removes the workspace root, the one given included). */
export async function startRunner(options: Partial<RunnerOptions> = {}): Promise<TestRunner> {
  const root = mkdtempSync(path.join(os.tmpdir(), "cuckoo-runner-test-"));
  const logs: string[] = [];
  const now = options.now ?? Date.now;
  const runner = createRunner({ secret: SECRET, workspaceRoot: root, log: (line) => logs.push(line), ...options });
  const { url } = await runner.listen(0, "127.0.0.1");
  return {
    runner,
    url,
    root: runner.workspaceRoot,
    logs,
    async send(method, pathname, body, init = {}) {
      const raw = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
      const headers: Record<string, string> = { "content-type": "application/json" };
      const signed = { method, target: pathname, body: raw, ...init.signFor };
      const signature = init.signature === undefined ? await signatureHeader(SECRET, signed, init.t ?? now() / 1000) : init.signature;
      if (signature !== null) headers["x-cuckoo-signature"] = signature;
      const response = await fetch(url + pathname, { method, headers, body: method === "GET" || method === "HEAD" ? undefined : raw });
      const text = await response.text();
      return { status: response.status, body: text === "" ? null : JSON.parse(text) };
    },
    async stop() {
      await runner.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(runner.workspaceRoot, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A valid run request, with a fresh run id; `fields` override. */
export function runRequest(fields: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    runId: `123456789:k7m2q:${Date.now()}-${counter}`,
    chatId: "123456789",
    jobId: "k7m2q",
    command: "true",
    timeoutSeconds: 30,
    timeZone: "Europe/Berlin",
    ...fields,
  };
}

export interface Received {
  method: string;
  /** The request target as it arrived (`req.url`). */
  target: string;
  signature: string;
  body: string;
}

export interface CallbackServer {
  url: string;
  received: Received[];
  stop(): Promise<void>;
}

/** A callback endpoint that records each request and answers with `answer(attempt)` (1-based). */
export async function startCallbackServer(answer: (attempt: number, req: IncomingMessage) => number = () => 204): Promise<CallbackServer> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        target: req.url ?? "",
        signature: String(req.headers["x-cuckoo-signature"]),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(answer(received.length, req)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/runner/callback/123456789`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Whether `pid` is a live process. A zombie counts as dead: it has exited and only waits for its parent to
 * reap it, which an orphan's new parent (PID 1) may never do on a machine whose init does not reap.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it holds or `ms` pass; returns whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
