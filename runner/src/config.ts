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
  /** The user and group scripts run as (RUNNER_SCRIPT_UID, RUNNER_SCRIPT_GID); null: the runner's own. */
  scriptUser: ScriptUser | null;
}

export interface ScriptUser {
  uid: number;
  gid: number;
}

export type LoadedConfig = { ok: true; config: RunnerConfig } | { ok: false; error: string };

export const DEFAULT_PORT = 8788;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_MAX_CONCURRENCY = 8;

/** The largest id Node's spawn takes (an int32); 0, root, is refused: scripts must not run as root. */
const MAX_ID = 2 ** 31 - 1;

/**
 * Reads RUNNER_SECRET (required), RUNNER_PORT, RUNNER_HOST, WORKSPACE_ROOT, RUNNER_MAX_CONCURRENCY and
 * RUNNER_SCRIPT_UID with RUNNER_SCRIPT_GID (both or neither, and only for a runner running as root:
 * `runnerUid` is the runner's own uid, null where the platform has none).
 */
export function loadConfig(env: Record<string, string | undefined>, runnerUid: number | null = process.getuid?.() ?? null): LoadedConfig {
  const secret = env.RUNNER_SECRET ?? "";
  if (secret === "") {
    return {
      ok: false,
      error: "RUNNER_SECRET is required: set it to the secret the Worker shares with the runner, such as RUNNER_SECRET=$(openssl rand -hex 32) npm run runner.",
    };
  }
  const port = wholeNumber(env.RUNNER_PORT, DEFAULT_PORT, 0, 65535);
  if (port === null) return { ok: false, error: "RUNNER_PORT must be a port number from 0 to 65535, such as 8788." };
  const maxConcurrency = wholeNumber(env.RUNNER_MAX_CONCURRENCY, DEFAULT_MAX_CONCURRENCY, 1, 1000);
  if (maxConcurrency === null) {
    return { ok: false, error: "RUNNER_MAX_CONCURRENCY must be a whole number from 1 to 1000, such as 8." };
  }
  const scriptUser = loadScriptUser(env, runnerUid);
  if (typeof scriptUser === "string") return { ok: false, error: scriptUser };
  const host = env.RUNNER_HOST || DEFAULT_HOST;
  const workspaceRoot = path.resolve(env.WORKSPACE_ROOT || path.join(os.tmpdir(), "cuckoo-workspaces"));
  return { ok: true, config: { secret, host, port, workspaceRoot, maxConcurrency, scriptUser } };
}

/** RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID as a ScriptUser, null when neither is set, or the sentence. */
function loadScriptUser(env: Record<string, string | undefined>, runnerUid: number | null): ScriptUser | null | string {
  const uidText = env.RUNNER_SCRIPT_UID?.trim() ?? "";
  const gidText = env.RUNNER_SCRIPT_GID?.trim() ?? "";
  if (uidText === "" && gidText === "") return null;
  if (uidText === "" || gidText === "") {
    return "RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID go together: set both, such as RUNNER_SCRIPT_UID=10001 RUNNER_SCRIPT_GID=10001, or neither.";
  }
  const uid = wholeNumber(uidText, 0, 1, MAX_ID);
  if (uid === null) return `RUNNER_SCRIPT_UID must be a user id from 1 to ${MAX_ID} (not 0, root), such as 10001.`;
  const gid = wholeNumber(gidText, 0, 1, MAX_ID);
  if (gid === null) return `RUNNER_SCRIPT_GID must be a group id from 1 to ${MAX_ID} (not 0, root), such as 10001.`;
  if (runnerUid !== 0) {
    const who = runnerUid === null ? "it does not run as root" : `it runs as uid ${runnerUid}, not root`;
    return `RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID need a runner running as root to start scripts as that user, but ${who}; start it as root, or unset both to run scripts as the runner's own user.`;
  }
  return { uid, gid };
}

/** `text` as a whole number within [min, max], `fallback` when unset or empty, null when it is not one. */
function wholeNumber(text: string | undefined, fallback: number, min: number, max: number): number | null {
  if (text === undefined || text.trim() === "") return fallback;
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value >= min && value <= max ? value : null;
}
