/**
 * @module Helpers of the watcher tests (issue 6): a chat whose object talks to the fake runner (test/stub/
 * runner-stub.ts), the calls the runner saw, scripted runner answers, watchers fired by moving the object's
 * clock to their due time, the runner's callback played by the test (signed like the runner signs it), and
 * what a client reads back: runs through `jobRuns` and prompts through the queue spy.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { expect, inject } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { type RunnerOutcome, signatureHeader } from "../../src/contracts/runner";
import type { Job, Run } from "../../src/schemas/jobs";
import { type RunnerCall, STUB_RUNNER_SECRET, type StubAnswer } from "../stub/runner-stub";
import { advanceTo, call, envWith, must, type Sent, type Stub, sentFor, setInstanceVars, spyQueue } from "./helpers";

export const PUBLIC_URL = "http://127.0.0.1:8787";

/** The runner vars of a chat whose runner is the fake one. */
export const runnerVars = () => ({ RUNNER_URL: inject("runnerStub"), RUNNER_SECRET: STUB_RUNNER_SECRET, PUBLIC_URL });

/** The test env with the fake runner configured, for calls to the app. */
export const runnerEnv = (extra: Record<string, string | undefined> = {}) => envWith({ ...runnerVars(), ...extra });

/** A chat object that uses the fake runner, with its queue spy in place (nothing reaches the real queue). */
export async function withRunner(stub: Stub, extra: Record<string, string> = {}): Promise<Sent> {
  const sent = await spyQueue(stub);
  await setInstanceVars(stub, { ...runnerVars(), ...extra });
  return sent;
}

export async function runnerCalls(chatId: string): Promise<RunnerCall[]> {
  const res = await fetch(`${inject("runnerStub")}/__stub/calls?chatId=${chatId}`);
  return ((await res.json()) as { calls: RunnerCall[] }).calls;
}

/** How many runs the chat asked the runner to start (`POST /runs`). */
export const runnerPosts = async (chatId: string) => (await runnerCalls(chatId)).filter((c) => c.method === "POST").length;

/** The next answers of the fake runner for this chat's calls, in order. */
export async function scriptRunner(chatId: string, answers: StubAnswer[]): Promise<void> {
  const res = await fetch(`${inject("runnerStub")}/__stub/script`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ chatId, answers }),
  });
  expect(res.status).toBe(200);
}

/**
 * A runner that cannot be reached, as the Worker's `fetch` sees it: the request is rejected (a redirect
 * whose Location is no URL) though no connection fails. A refused or dropped connection would do the same,
 * but workerd prints every such failure as an "uncaught exception" that no test can capture.
 */
export const UNREACHABLE: StubAnswer = { status: 307, headers: { Location: "http://[::1" } };

export async function createWatcher(
  chatId: string,
  stub: Stub,
  options: { name?: string; command?: string; cron?: string; delay?: string; timeoutSeconds?: number } = {},
): Promise<Job> {
  const when = options.delay ? { delay: options.delay } : { cron: options.cron ?? "0 0 1 1 *" };
  return must(
    stub.createJob(
      chatId,
      {
        name: options.name ?? "Price check",
        kind: "watcher",
        command: options.command ?? "curl -s https://example.com/price",
        ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
        ...when,
      },
      "admin",
    ),
  );
}

/**
 * Fires a watcher's next occurrence (its `nextRunAt` now, so a cron job's next one each time): the object's
 * clock moved to it (plus `lateMs`) and the alarm run. Returns the run id `<jobId>:<dueAt>`.
 */
export async function fireWatcher(chatId: string, stub: Stub, job: Pick<Job, "id">, options: { lateMs?: number } = {}): Promise<string> {
  const { nextRunAt } = await must(stub.getJob(chatId, job.id));
  expect(nextRunAt).not.toBeNull();
  const dueAt = Date.parse(nextRunAt!);
  await advanceTo(stub, dueAt + (options.lateMs ?? 0));
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return `${job.id}:${dueAt}`;
}

/** An outcome as the runner sends it, for the runner run id `<chatId>:<runId>`. */
export function outcomeOf(chatId: string, runId: string, fields: Partial<RunnerOutcome> = {}): RunnerOutcome {
  const now = new Date().toISOString();
  return {
    runId: `${chatId}:${runId}`,
    chatId,
    status: "silent",
    exitCode: 0,
    timedOut: false,
    stdout: "",
    stderrTail: "",
    truncated: { stdout: false, stderr: false },
    startedAt: now,
    finishedAt: now,
    ...fields,
  };
}

/**
 * POSTs the callback for `chatId`, signed (v2) with `secret` at `nowMs` for this very request, or for the
 * method and target of `signFor` (a header made for one request, replayed on another); or with the given
 * header, or none. The Worker checks the signature's age on its own clock, the machine's.
 */
export async function callback(
  chatId: string,
  outcome: unknown,
  options: { secret?: string; nowMs?: number; header?: string | null; env?: Env; signFor?: { method?: string; target?: string } } = {},
): Promise<Response> {
  const body = JSON.stringify(outcome);
  const path = `/runner/callback/${chatId}`;
  const header =
    options.header !== undefined
      ? options.header
      : await signatureHeader(
          options.secret ?? STUB_RUNNER_SECRET,
          { method: "POST", target: path, body, ...options.signFor },
          (options.nowMs ?? Date.now()) / 1000,
        );
  return call(
    path,
    { method: "POST", headers: { "Content-Type": "application/json", ...(header !== null ? { "X-Cuckoo-Signature": header } : {}) }, body },
    options.env ?? runnerEnv(),
  );
}

/** A v1 header, the HMAC of "<t>.<body>" alone with the right secret: what a runner before v2 sent. */
export async function v1Header(body: string): Promise<string> {
  const t = Math.floor(Date.now() / 1000);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(STUB_RUNNER_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${body}`)));
  return `t=${t},v1=${[...mac].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** Calls back and expects 204. */
export async function settleWith(chatId: string, runId: string, fields: Partial<RunnerOutcome>): Promise<void> {
  const res = await callback(chatId, outcomeOf(chatId, runId, fields));
  expect(res.status).toBe(204);
}

/** A run as `jobRuns` answers it (the job's history), or undefined when the job or the run is gone. */
export async function runOf(chatId: string, stub: Stub, runId: string): Promise<Run | undefined> {
  const jobId = runId.slice(0, runId.indexOf(":"));
  const result = await stub.jobRuns(chatId, jobId);
  return result.ok ? result.value.find((r) => r.runId === runId) : undefined;
}

/** What a run's history entry says of its end. */
export async function runState(chatId: string, stub: Stub, runId: string) {
  const run = await runOf(chatId, stub, runId);
  return run ? { state: run.state, status: run.status, exitCode: run.exitCode, timedOut: run.timedOut, detail: run.detail } : undefined;
}

/** A job's runs, oldest first. */
export const runsOldestFirst = async (chatId: string, stub: Stub, jobId: string): Promise<Run[]> => (await must(stub.jobRuns(chatId, jobId))).reverse();

/** The one prompt the chat sent for a run that matched. */
export async function promptOf(stub: Stub, runId: string): Promise<PromptMessage> {
  const prompts = await sentFor(stub, runId);
  expect(prompts).toHaveLength(1);
  return prompts[0]!;
}
