/**
 * @module A watcher command run once, for `test` (docs/api.md#tools-for-agents) and `POST /admin/chats/:chatId/test` (docs/api.md): the
 * runner's dry run (`?wait=1`, at most 60 s) in the chat's zone, reported with its output redacted. Nothing is
 * stored, scheduled, queued or delivered.
 */
import * as z from "zod";
import { errorsFor, loadConfig } from "../config";
import { DRY_RUN_MAX_SECONDS, MAX_COMMAND_LENGTH, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS, type RunnerOutcome } from "../contracts/runner";
import { lazy } from "../lazy";
import { RUNNER_SETUP, runnerFetcher, testRun } from "./client";
import { redact, secretsOf } from "./redact";

const COMMAND = `"command" must be a /bin/sh script of 1 to ${MAX_COMMAND_LENGTH} characters, such as "curl -s https://example.com/price".`;
const TIMEOUT =
  `"timeoutSeconds" must be a whole number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}; ` +
  `a test stops after at most ${DRY_RUN_MAX_SECONDS} s.`;

export const dryRunBody = lazy(() =>
  z.strictObject({
    command: z.string({ error: COMMAND }).min(1, { error: COMMAND }).max(MAX_COMMAND_LENGTH, { error: COMMAND }),
    timeoutSeconds: z
      .number({ error: TIMEOUT })
      .int({ error: TIMEOUT })
      .min(MIN_TIMEOUT_SECONDS, { error: TIMEOUT })
      .max(MAX_TIMEOUT_SECONDS, { error: TIMEOUT })
      .optional(),
  }),
);
export type DryRunInput = z.infer<ReturnType<typeof dryRunBody>>;

const NO_RUNNER_TEXT = `Testing a watcher needs the runner: ${RUNNER_SETUP} (npm run dev starts one). Nothing was run.`;

/** `not_configured`: no runner; `config_error`: a runner var is invalid (the sentence says which). */
export type DryRun = { ok: true; outcome: RunnerOutcome } | { ok: false; code: "not_configured" | "config_error"; message: string };

/**
 * Runs `input.command` once for `chatId` in `timeZone`. A runner that cannot be reached or refuses gives a
 * `failed` outcome with no exit code and the reason as its stderr tail, as a watcher's "did not start" would.
 */
export async function dryRun(env: Env, chatId: string, timeZone: string, input: DryRunInput): Promise<DryRun> {
  const loaded = loadConfig(env);
  const misconfigured = errorsFor(loaded, "watchers");
  if (misconfigured.length > 0) return { ok: false, code: "config_error", message: misconfigured.join(" ") };
  const config = loaded.config;
  const fetcher = runnerFetcher(env, config, chatId);
  const secret = config.runner.secret;
  if (fetcher === null || secret === null) return { ok: false, code: "not_configured", message: NO_RUNNER_TEXT };
  const timeoutSeconds = Math.min(input.timeoutSeconds ?? config.defaultScriptTimeout, DRY_RUN_MAX_SECONDS);
  const runId = `${chatId}:test:${Date.now()}:${crypto.randomUUID().slice(0, 8)}`;
  const started = new Date().toISOString();
  const result = await testRun(fetcher, secret, { runId, chatId, jobId: "test", command: input.command, timeoutSeconds, timeZone });
  const secrets = secretsOf(config);
  if (!result.ok) {
    return {
      ok: true,
      outcome: {
        runId,
        chatId,
        status: "failed",
        exitCode: null,
        timedOut: false,
        stdout: "",
        stderrTail: redact(`did not start: ${result.reason}`, secrets),
        truncated: { stdout: false, stderr: false },
        startedAt: started,
        finishedAt: new Date().toISOString(),
      },
    };
  }
  const { outcome } = result;
  return { ok: true, outcome: { ...outcome, stdout: redact(outcome.stdout, secrets), stderrTail: redact(outcome.stderrTail, secrets) } };
}
