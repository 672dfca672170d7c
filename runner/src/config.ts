/**
 * @module The runner's environment variables, read and checked once into one config object. A problem is
 * one sentence naming the variable and an accepted form, and the runner does not start.
 */
import os from "node:os";
import path from "node:path";

export interface RunnerConfig {
  secret: string;
  host: string;
  port: number;
  workspaceRoot: string;
  maxConcurrency: number;
}

export type LoadedConfig = { ok: true; config: RunnerConfig } | { ok: false; error: string };

export const DEFAULT_PORT = 8788;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_MAX_CONCURRENCY = 8;

/** Reads RUNNER_SECRET (required), RUNNER_PORT, RUNNER_HOST, WORKSPACE_ROOT and RUNNER_MAX_CONCURRENCY. */
export function loadConfig(env: Record<string, string | undefined>): LoadedConfig {
  const secret = env.RUNNER_SECRET ?? "";
  if (secret === "") {
    return {
      ok: false,
      error:
        "RUNNER_SECRET is required: set it to the secret the Worker shares with the runner, such as RUNNER_SECRET=$(openssl rand -hex 32) npm run runner.",
    };
  }
  const port = wholeNumber(env.RUNNER_PORT, DEFAULT_PORT, 0, 65535);
  if (port === null) return { ok: false, error: "RUNNER_PORT must be a port number from 0 to 65535, such as 8788." };
  const maxConcurrency = wholeNumber(env.RUNNER_MAX_CONCURRENCY, DEFAULT_MAX_CONCURRENCY, 1, 1000);
  if (maxConcurrency === null) {
    return { ok: false, error: "RUNNER_MAX_CONCURRENCY must be a whole number from 1 to 1000, such as 8." };
  }
  const host = env.RUNNER_HOST || DEFAULT_HOST;
  const workspaceRoot = path.resolve(env.WORKSPACE_ROOT || path.join(os.tmpdir(), "cuckoo-workspaces"));
  return { ok: true, config: { secret, host, port, workspaceRoot, maxConcurrency } };
}

/** `text` as a whole number within [min, max], `fallback` when unset or empty, null when it is not one. */
function wholeNumber(text: string | undefined, fallback: number, min: number, max: number): number | null {
  if (text === undefined || text.trim() === "") return fallback;
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value >= min && value <= max ? value : null;
}
