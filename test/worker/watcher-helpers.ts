/**
 * Helpers of the watcher tests (issue 6): a chat whose object talks to the fake runner (test/stub/
 * runner-stub.ts), the calls the runner saw, scripted runner answers, watchers fired by the alarm, and the
 * runner's callback played by the test, signed like the runner signs it.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { expect, inject } from "vitest";
import { signatureHeader, type RunnerOutcome } from "../../src/contracts/runner";
import { STUB_RUNNER_SECRET, type RunnerCall, type StubAnswer } from "../stub/runner-stub";
import { must, runRow, setInstanceVars, spyQueue, sql, type JobView, type Sent, type Stub } from "./agent-helpers";
import { call, envWith } from "./helpers";

export { STUB_RUNNER_SECRET };
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

/** The next answers of the fake runner for this chat's calls, in order. */
export async function scriptRunner(chatId: string, answers: StubAnswer[]): Promise<void> {
  const res = await fetch(`${inject("runnerStub")}/__stub/script`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ chatId, answers }),
  });
  expect(res.status).toBe(200);
}

export async function createWatcher(
  chatId: string,
  stub: Stub,
  options: { name?: string; command?: string; cron?: string; delay?: string; timeoutSeconds?: number } = {},
): Promise<JobView> {
  const when = options.delay ? { delay: options.delay } : { cron: options.cron ?? "0 0 1 1 *" };
  return must<JobView>(
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

/** Makes a watcher due at `dueAt` (a cron job's next run, or a one-off's time) and runs the alarm. */
export async function fireWatcher(stub: Stub, job: JobView, dueAt: number): Promise<string> {
  if ("at" in job.schedule) await sql(stub, "UPDATE jobs SET at_ms = ?, next_run_at = ? WHERE id = ?", dueAt, dueAt, job.id);
  else await sql(stub, "UPDATE jobs SET next_run_at = ? WHERE id = ?", dueAt, job.id);
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
 * header, or none.
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
      : await signatureHeader(options.secret ?? STUB_RUNNER_SECRET, { method: "POST", target: path, body, ...options.signFor }, (options.nowMs ?? Date.now()) / 1000);
  return call(
    path,
    { method: "POST", headers: { "Content-Type": "application/json", ...(header !== null ? { "X-Cuckoo-Signature": header } : {}) }, body },
    options.env ?? runnerEnv(),
  );
}

/** Calls back and expects 204. */
export async function settleWith(chatId: string, runId: string, fields: Partial<RunnerOutcome>): Promise<void> {
  const res = await callback(chatId, outcomeOf(chatId, runId, fields));
  expect(res.status).toBe(204);
}

export const runState = async (stub: Stub, runId: string) => {
  const run = await runRow(stub, runId);
  return run ? { state: run.state, status: run.status, exit_code: run.exit_code, timed_out: run.timed_out, detail: run.detail } : undefined;
};
