/**
 * @module The runner's HTTP edge (docs/watchers.md): `GET /healthz`, `POST /runs` (`?wait=1` for a dry run) and
 * `DELETE /runs/:runId`, each but the first signed; the table of running and remembered run ids; the
 * concurrency limit; the callback once a run ends; and the two ways to stop, draining (no new runs, the
 * others finish and deliver their outcomes) or closing (everything killed). Checks run in this order, and a
 * request refused by any of them runs nothing: a request that cannot be parsed (400, and the connection
 * closed), size (413), signature (401), route (404), body (400), run id (409), draining (503), limit (429).
 * Every refusal is the `{ error: { code, message } }` envelope.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { type CallbackPolicy, DEFAULT_CALLBACK_POLICY, deliverCallback } from "./callback.ts";
import { HeadTailCapture } from "./capture.ts";
import type { ScriptUser } from "./config.ts";
import {
  DRY_RUN_MAX_SECONDS,
  FORGET_AFTER_SECONDS,
  KILL_GRACE_SECONDS,
  MAX_REQUEST_BYTES,
  parseRunRequest,
  parseWait,
  type RunnerOutcome,
  type RunRequest,
  SIGNATURE_HEADER,
  SIGNATURE_MESSAGES,
  verify,
} from "./contract.ts";
import { type ExecResult, type Execution, execute } from "./exec.ts";
import { toOutcome } from "./outcome.ts";
import { prepareWorkspace, prepareWorkspaceRoot, scriptEnv } from "./workspace.ts";

/** How long a drain waits beyond the longest remaining timeout: the kill grace, the pipes, a callback. */
export const DRAIN_GRACE_MS = 10_000;

/** The answer to a request whose target or HTTP framing cannot be parsed. */
const UNPARSABLE = "The request could not be parsed as HTTP/1.1 with a path such as /runs; nothing was run.";

export interface RunnerOptions {
  /** RUNNER_SECRET: verifies requests and signs callbacks. */
  secret: string;
  /** Where each chat's workspace directory is made; created if missing. */
  workspaceRoot: string;
  /** Runs at once before 429; default 8. */
  maxConcurrency?: number;
  /** Callback retries; any field left out keeps its default (see callback.ts). */
  callback?: Partial<CallbackPolicy>;
  /** Between SIGTERM and SIGKILL; default 5 s. */
  killGraceMs?: number;
  /** The user and group scripts run as (the runner must be root); default null, the runner's own. */
  scriptUser?: ScriptUser | null;
  /** How long `drain()` waits beyond the longest remaining timeout; default 10 s. */
  drainGraceMs?: number;
  /** The clock in epoch milliseconds: signature windows, `t` of callbacks, startedAt/finishedAt, forgetting. */
  now?: () => number;
  /** Where log lines go; default stdout. */
  log?: (line: string) => void;
}

export interface Runner {
  /** Starts serving; resolves with the bound address (port 0 picks a free one). */
  listen(port: number, host?: string): Promise<{ host: string; port: number; url: string }>;
  /**
   * Stops taking runs (`POST /runs` gets 503; `/healthz` says `draining: true`) and waits until every run
   * has ended and every outcome has been delivered, or given up on, but no longer than the longest remaining
   * timeout plus `drainGraceMs`. Resolves true when nothing was left, false when the bound ran out. Call
   * `close()` afterwards.
   */
  drain(): Promise<boolean>;
  /** Stops: no new requests, running runs' groups killed (their callbacks dropped), pending callbacks abandoned. */
  close(): Promise<void>;
  /** Sends every running run's group SIGKILL at once, for a process that exits right after. */
  killNow(): void;
  /** Runs running now. */
  readonly active: number;
  /** Outcomes still being delivered (a callback attempt in flight or waiting to be retried). */
  readonly callbacks: number;
  /** Whether `drain()` was called: no new runs are taken. */
  readonly draining: boolean;
  /** The workspace root as used: absolute, symbolic links resolved. */
  readonly workspaceRoot: string;
}

type ErrorCode = "unauthorized" | "bad_request" | "conflict" | "too_many_requests" | "not_found" | "payload_too_large" | "unavailable";

interface RunEntry {
  execution: Execution | null;
  cancelled: boolean;
  /** When its timeout runs out, on the runner's clock. */
  deadlineMs: number;
}

interface Ended {
  outcome: RunnerOutcome;
  cancelled: boolean;
}

export function createRunner(options: RunnerOptions): Runner {
  const scriptUser = options.scriptUser ?? null;
  const root = prepareWorkspaceRoot(options.workspaceRoot, scriptUser);
  const maxConcurrency = options.maxConcurrency ?? 8;
  const policy: CallbackPolicy = { ...DEFAULT_CALLBACK_POLICY, ...options.callback };
  const killGraceMs = options.killGraceMs ?? KILL_GRACE_SECONDS * 1000;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.log(line));
  const drainGraceMs = options.drainGraceMs ?? DRAIN_GRACE_MS;

  const running = new Map<string, RunEntry>();
  /** Outcomes being delivered. */
  const deliveries = new Set<Promise<boolean>>();
  /** Runs and deliveries; each settles (never rejects) when it is over. */
  const runDone = new Set<Promise<unknown>>();
  let draining = false;
  /** Every run id not yet forgotten: Infinity while it runs, else when it may be used again. */
  const seen = new Map<string, number>();
  /** Ended run ids in the order they ended, which is the order they are forgotten in. */
  const forgetQueue: Array<{ runId: string; at: number }> = [];
  const shutdown = new AbortController();

  const forgetOld = (): void => {
    const current = now();
    while (forgetQueue.length > 0 && (forgetQueue[0]?.at ?? Infinity) <= current) {
      const { runId, at } = forgetQueue.shift()!;
      if (seen.get(runId) === at) seen.delete(runId);
    }
  };

  /**
   * Runs one request to its outcome and, given a `callbackUrl`, starts delivering it before the run leaves
   * the table, so that `active + callbacks` never reads 0 in between. The entry is registered before the
   * first await.
   */
  const run = (request: RunRequest, timeoutSeconds: number, callbackUrl: string | undefined): Promise<Ended> => {
    const startedAtMs = now();
    const entry: RunEntry = { execution: null, cancelled: false, deadlineMs: startedAtMs + timeoutSeconds * 1000 };
    running.set(request.runId, entry);
    seen.set(request.runId, Infinity);
    const label = JSON.stringify(request.runId);
    log(`run ${label} started (chat ${request.chatId}, job ${request.jobId}, timeout ${timeoutSeconds} s)`);
    const done = (async (): Promise<Ended> => {
      let result: ExecResult;
      try {
        const home = await prepareWorkspace(root, request.chatId, scriptUser);
        const env = scriptEnv({ home, timeZone: request.timeZone, chatId: request.chatId, jobId: request.jobId });
        const execution = execute({
          command: request.command,
          cwd: home,
          env,
          timeoutMs: timeoutSeconds * 1000,
          killGraceMs,
          user: scriptUser,
          stdin: request.stdin,
        });
        entry.execution = execution;
        if (entry.cancelled) execution.cancel();
        result = await execution.result;
      } catch (error) {
        result = notStarted(`could not prepare the workspace: ${(error as Error).message}`, entry.cancelled);
      }
      const finishedAtMs = now();
      const outcome = toOutcome({ runId: request.runId, chatId: request.chatId, startedAtMs, finishedAtMs }, result);
      const forgetAt = finishedAtMs + FORGET_AFTER_SECONDS * 1000;
      seen.set(request.runId, forgetAt);
      forgetQueue.push({ runId: request.runId, at: forgetAt });
      const flags = `${outcome.timedOut ? ", timed out" : ""}${entry.cancelled ? ", cancelled" : ""}`;
      log(`run ${label} ended: ${outcome.status}, exit ${outcome.exitCode ?? "none"}${flags}, ${finishedAtMs - startedAtMs} ms`);
      const ended = { outcome, cancelled: entry.cancelled };
      if (callbackUrl !== undefined) callBack(callbackUrl, ended);
      running.delete(request.runId);
      return ended;
    })();
    runDone.add(done);
    void done.finally(() => runDone.delete(done));
    return done;
  };

  const callBack = (url: string, ended: Ended): void => {
    if (ended.cancelled || shutdown.signal.aborted) return;
    const delivery = deliverCallback({
      url,
      body: JSON.stringify(ended.outcome),
      secret: options.secret,
      now,
      policy,
      signal: shutdown.signal,
      log,
      label: `run ${JSON.stringify(ended.outcome.runId)}`,
    });
    deliveries.add(delivery);
    runDone.add(delivery);
    void delivery.finally(() => {
      deliveries.delete(delivery);
      runDone.delete(delivery);
    });
  };

  const startRun = async (res: ServerResponse, url: URL, body: Buffer): Promise<void> => {
    const wait = parseWait(url.searchParams.get("wait"));
    if (!wait.ok) return sendError(res, 400, "bad_request", wait.message);
    const parsed = parseRunRequest(body.toString("utf8"));
    if (!parsed.ok) return sendError(res, 400, "bad_request", parsed.message);
    const request = parsed.value;
    forgetOld();
    if (seen.has(request.runId)) return sendError(res, 409, "conflict", `Run ${request.runId} already started.`);
    if (draining) {
      return sendError(res, 503, "unavailable", "The runner is shutting down and takes no new runs; send the run again in a moment.");
    }
    if (running.size >= maxConcurrency) {
      return sendError(
        res,
        429,
        "too_many_requests",
        `The runner is already running ${running.size} runs, its limit (RUNNER_MAX_CONCURRENCY); try again when one ends.`,
      );
    }
    if (wait.value) {
      const ended = await run(request, Math.min(request.timeoutSeconds, DRY_RUN_MAX_SECONDS), undefined);
      return sendJson(res, 200, ended.outcome);
    }
    void run(request, request.timeoutSeconds, request.callbackUrl);
    sendJson(res, 202, { runId: request.runId });
  };

  const cancelRun = (res: ServerResponse, runId: string): void => {
    const entry = running.get(runId);
    if (entry === undefined) {
      sendError(res, 404, "not_found", `Run ${runId} is not running.`);
      return;
    }
    entry.cancelled = true;
    entry.execution?.cancel();
    res.writeHead(204).end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? "/";
    const url = parseTarget(target);
    if (url === null) {
      // Such as `GET http://[::1 HTTP/1.1`: a request line Node's parser lets through, but no URL.
      res.setHeader("connection", "close");
      return sendError(res, 400, "bad_request", UNPARSABLE);
    }
    if (req.method === "GET" && url.pathname === "/healthz") {
      return sendJson(res, 200, { ok: true, active: running.size, callbacks: deliveries.size, draining });
    }
    const body = await readBody(req);
    if (body === null) {
      res.setHeader("connection", "close");
      return sendError(res, 413, "payload_too_large", `The body is over ${MAX_REQUEST_BYTES / 1024} KiB; send at most ${MAX_REQUEST_BYTES} bytes.`);
    }
    // The signature covers the method and the target exactly as they came (req.url keeps percent-encoding),
    // so a header seen on one request is worth nothing on another.
    const header = req.headers[SIGNATURE_HEADER.toLowerCase()];
    const verification = await verify(
      options.secret,
      typeof header === "string" ? header : undefined,
      { method: req.method ?? "", target, body },
      now() / 1000,
    );
    if (!verification.ok) return sendError(res, 401, "unauthorized", SIGNATURE_MESSAGES[verification.problem]);
    if (req.method === "POST" && url.pathname === "/runs") return startRun(res, url, body);
    const runPath = /^\/runs\/([^/]+)$/.exec(url.pathname);
    if (req.method === "DELETE" && runPath) {
      const runId = decodePathSegment(runPath[1] ?? "");
      if (runId !== null) return cancelRun(res, runId);
    }
    sendError(res, 404, "not_found", `No route ${req.method} ${url.pathname}; the runner serves GET /healthz, POST /runs and DELETE /runs/:runId.`);
  };

  /** Settle once each response has been sent (or its connection lost), so close() can let them finish. */
  const responses = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const sent = new Promise<void>((resolve) => res.once("close", resolve));
    responses.add(sent);
    void sent.then(() => responses.delete(sent));
    handle(req, res).catch((error: unknown) => {
      log(`request ${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { error: { code: "internal", message: "The runner failed on this request; see its log." } });
      else res.end();
    });
  });
  server.on("clientError", answerClientError);

  return {
    listen(port, host = "127.0.0.1") {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
          resolve({ host: address.address, port: address.port, url: `http://${shown}:${address.port}` });
        });
      });
    },
    async drain() {
      draining = true;
      const current = now();
      let longestMs = 0;
      for (const entry of running.values()) longestMs = Math.max(longestMs, entry.deadlineMs - current);
      const boundMs = longestMs + drainGraceMs;
      const bound = new AbortController();
      const outOfTime = sleep(boundMs, "out of time" as const, { signal: bound.signal }).catch(() => "cancelled" as const);
      try {
        while (running.size + deliveries.size > 0) {
          const over = Promise.race(
            [...runDone].map((done) =>
              done.then(
                () => "one over" as const,
                () => "one over" as const,
              ),
            ),
          );
          if ((await Promise.race([over, outOfTime])) === "out of time") {
            log(`draining gave up after ${boundMs} ms: ${running.size} run(s) still running, ${deliveries.size} outcome(s) still being delivered`);
            return false;
          }
        }
        return true;
      } finally {
        bound.abort();
      }
    },
    async close() {
      draining = true;
      shutdown.abort();
      const closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
      for (const entry of running.values()) {
        entry.cancelled = true;
        entry.execution?.cancel();
      }
      await Promise.allSettled([...runDone]);
      // Dry runs answer their callers (as cancelled) before the connections go; a request still uploading
      // its body gets a second.
      await Promise.race([Promise.allSettled([...responses]), sleep(1_000, undefined, { ref: false })]);
      server.closeAllConnections();
      await closed;
    },
    killNow() {
      for (const entry of running.values()) {
        entry.cancelled = true;
        entry.execution?.kill();
      }
    },
    get active() {
      return running.size;
    },
    get callbacks() {
      return deliveries.size;
    },
    get draining() {
      return draining;
    },
    workspaceRoot: root,
  };
}

/** An ExecResult for a run whose shell never started. */
function notStarted(reason: string, cancelled: boolean): ExecResult {
  const empty = new HeadTailCapture().result();
  return { code: null, signal: null, timedOut: false, cancelled, spawnError: reason, stdout: empty, stderr: empty };
}

/** The request target as a URL, or null when it is not one (`new URL` would throw). */
function parseTarget(target: string): URL | null {
  try {
    return new URL(target, "http://runner");
  } catch {
    return null;
  }
}

/**
 * Node's `clientError`: a request its HTTP parser refused (a malformed request line or header, headers too
 * large, a request too slow to arrive). It gets the error envelope, as every other refusal does, and the
 * connection is closed: what follows on it cannot be framed. As Node's own handler does, nothing is written
 * when the socket cannot take it or a response on it has begun.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, reason, code, message } =
    error.code === "HPE_HEADER_OVERFLOW"
      ? { status: 431, reason: "Request Header Fields Too Large", code: "headers_too_large", message: "The request's headers are too large; nothing was run." }
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? { status: 408, reason: "Request Timeout", code: "request_timeout", message: "The request did not arrive in time; nothing was run." }
        : { status: 400, reason: "Bad Request", code: "bad_request", message: UNPARSABLE };
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** The whole body, or null once it is over MAX_REQUEST_BYTES (the rest is read and dropped, never kept). */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const declared = Number(req.headers["content-length"] ?? 0);
  return new Promise((resolve, reject) => {
    if (declared > MAX_REQUEST_BYTES) {
      req.resume();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.off("data", onData);
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  sendJson(res, status, { error: { code, message } });
}
