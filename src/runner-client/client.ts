/**
 * @module How the Worker and the chat's Durable Object reach the runner (docs/watchers.md): through the container
 * binding `RUNNER` (one instance per chat, `getByName(chatId)`) or at `RUNNER_URL`; every request signed
 * (v2: the method, the path and query as sent, and the body). Each call returns what happened as a value and
 * never throws: the caller decides what a refusal means.
 */
import type { Config } from "../config";
import { type RunnerOutcome, type RunRequest, runnerOutcome, SIGNATURE_HEADER, signatureHeader, signingTarget } from "../contracts/runner";

/** One HTTP exchange with the chat's runner: `path` is `/runs…`; headers carry the JSON type and signature. */
export type RunnerFetch = (path: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>;

/**
 * The host the runner's container calls back on: not a real name; the Container class's outbound handler
 * routes it to the chat's Durable Object, so production needs no public callback URL.
 */
export const CONTAINER_CALLBACK_HOST = "callback.cuckoo.internal";

/** What to set for a runner, as the "did not start" reason and the dry run's refusal say it. */
export const RUNNER_SETUP = "set RUNNER_SECRET to use the runner container, or RUNNER_URL and RUNNER_SECRET for a runner elsewhere";

const BAD_SECRET = "the runner refused the signature; RUNNER_SECRET must be the same on both sides";

/** How long starting a run may take to be acknowledged (a container's cold start included). */
const START_TIMEOUT_MS = 30_000;
/** A dry run is capped at 60 s by the runner; this leaves it room to answer. */
const TEST_TIMEOUT_MS = 75_000;
const CANCEL_TIMEOUT_MS = 10_000;

type ContainerNamespace = { getByName(name: string): { fetch(request: Request): Promise<Response> } };

/**
 * The chat's runner, or null when no runner is configured. `RUNNER_URL` wins when set (dev, tests, a runner
 * on any host); otherwise the container binding, one instance per chat.
 */
export function runnerFetcher(env: Env, config: Config, chatId: string): RunnerFetch | null {
  const { mode, url } = config.runner;
  if (mode === "url" && url !== null) return (path, init) => fetch(`${url}${path}`, init);
  if (mode === "container") {
    const namespace = (env as unknown as { RUNNER?: ContainerNamespace }).RUNNER;
    if (!namespace) return null;
    return (path, init) => namespace.getByName(chatId).fetch(new Request(`http://runner${path}`, init));
  }
  return null;
}

/** Where the runner posts a run's outcome for `chatId`. */
export function callbackUrl(config: Config, chatId: string): string {
  if (config.runner.mode === "container") return `http://${CONTAINER_CALLBACK_HOST}/runner/callback/${chatId}`;
  // In dev without PUBLIC_URL (allowed there), the Worker is at wrangler dev's default address.
  return `${config.runner.publicUrl ?? "http://localhost:8787"}/runner/callback/${chatId}`;
}

type Exchange = { ok: true; response: Response } | { ok: false; reason: string };

/** One request to the runner, signed with `secret`: `body` "" sends none; past `timeoutMs` it is given up. */
type RunnerRequest = { method: "POST" | "DELETE"; path: string; body: string; timeoutMs: number };

async function signedFetch(fetcher: RunnerFetch, secret: string, request: RunnerRequest): Promise<Exchange> {
  const { method, path, body, timeoutMs } = request;
  try {
    // Signed as fetch sends it: the runner serves at its root, and `path` is already in the form the URL
    // parser keeps (encodeURIComponent's), so this is `path` itself. (A proxy in front of the runner that
    // rewrites the path would make every signature fail: docs/runner.md says so.)
    const target = signingTarget(new URL(path, "http://runner"));
    const signature = await signatureHeader(secret, { method, target, body }, Date.now() / 1000);
    const response = await fetcher(path, {
      method,
      headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: signature },
      ...(body !== "" ? { body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { ok: true, response };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      ok: false,
      reason: timedOut ? `the runner did not answer within ${Math.round(timeoutMs / 1000)} s` : `the runner could not be reached (${errorText(error)})`,
    };
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

/** The runner's error sentence, when its body is the `{ error: { message } }` envelope. */
async function refusal(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message.slice(0, 300);
  } catch {
    // not JSON: the status says enough
  }
  return `HTTP ${response.status}`;
}

type StartResult =
  /** 202: the run started (or 409: it had already, after a crash between the call and the write). */
  | { kind: "started" }
  /** Worth trying again soon: unreachable or a 5xx. */
  | { kind: "retry"; reason: string }
  /** 429: the runner runs as many scripts as it may; the start waits for a free slot. */
  | { kind: "busy"; reason: string }
  /** Will not work by trying again: 400 or 401 (a wrong secret, a request the runner refuses). */
  | { kind: "refused"; reason: string };

/** `POST /runs`: starts a run whose outcome comes to the callback. */
export async function startRun(fetcher: RunnerFetch, secret: string, request: RunRequest): Promise<StartResult> {
  const exchange = await signedFetch(fetcher, secret, { method: "POST", path: "/runs", body: JSON.stringify(request), timeoutMs: START_TIMEOUT_MS });
  if (!exchange.ok) return { kind: "retry", reason: exchange.reason };
  const { response } = exchange;
  if (response.status === 202 || response.status === 409) {
    await response.body?.cancel();
    return { kind: "started" };
  }
  const reason = await refusal(response);
  if (response.status === 401) return { kind: "refused", reason: BAD_SECRET };
  if (response.status === 429) return { kind: "busy", reason: `the runner answered 429: ${reason}` };
  if (response.status >= 500) return { kind: "retry", reason: `the runner answered ${response.status}: ${reason}` };
  return { kind: "refused", reason: `the runner answered ${response.status}: ${reason}` };
}

/** `DELETE /runs/:runId`, best effort: a run that is gone already is fine. */
export async function cancelRun(fetcher: RunnerFetch, secret: string, runnerRunId: string): Promise<void> {
  const exchange = await signedFetch(fetcher, secret, {
    method: "DELETE",
    path: `/runs/${encodeURIComponent(runnerRunId)}`,
    body: "",
    timeoutMs: CANCEL_TIMEOUT_MS,
  });
  if (!exchange.ok) {
    console.error(`could not cancel run ${runnerRunId}: ${exchange.reason}`);
    return;
  }
  await exchange.response.body?.cancel();
}

type TestResult = { ok: true; outcome: RunnerOutcome } | { ok: false; reason: string };

/** `POST /runs?wait=1`: a dry run, answered with its outcome (at most 60 s). */
export async function testRun(fetcher: RunnerFetch, secret: string, request: RunRequest): Promise<TestResult> {
  const exchange = await signedFetch(fetcher, secret, { method: "POST", path: "/runs?wait=1", body: JSON.stringify(request), timeoutMs: TEST_TIMEOUT_MS });
  if (!exchange.ok) return exchange;
  const { response } = exchange;
  if (response.status === 401) return { ok: false, reason: BAD_SECRET };
  if (response.status !== 200) return { ok: false, reason: `the runner answered ${response.status}: ${await refusal(response)}` };
  const parsed = runnerOutcome().safeParse(await response.json().catch(() => null));
  if (!parsed.success) return { ok: false, reason: "the runner's answer is not an outcome" };
  return { ok: true, outcome: parsed.data };
}
