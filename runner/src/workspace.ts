/**
 * @module Where a script runs and what it sees: its chat's directory under WORKSPACE_ROOT (never outside
 * it) and an environment reduced to the six variables of DESIGN §8, with nothing of the runner's own.
 */
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";

/** The PATH every script gets, whatever the runner's own is. */
export const SCRIPT_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * The chat's directory, `<root>/<chatId>`, created if needed. `root` must be an absolute, real path (no
 * symbolic links). Beside the chat id pattern checked at the edge, this refuses any id that is not one plain
 * path segment, and a directory that resolves elsewhere (a symbolic link a script left there).
 */
export async function prepareWorkspace(root: string, chatId: string): Promise<string> {
  const dir = path.resolve(root, chatId);
  if (path.dirname(dir) !== root || path.basename(dir) !== chatId) {
    throw new Error(`the chat id ${JSON.stringify(chatId)} does not name a directory inside the workspace root`);
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if ((await realpath(dir)) !== dir) throw new Error(`the workspace ${dir} resolves outside the workspace root`);
  return dir;
}

export interface ScriptIdentity {
  home: string;
  timeZone: string;
  chatId: string;
  jobId: string;
}

/** The complete environment of a script: exactly these six variables. */
export function scriptEnv({ home, timeZone, chatId, jobId }: ScriptIdentity): Record<string, string> {
  return {
    PATH: SCRIPT_PATH,
    HOME: home,
    LANG: "C.UTF-8",
    TZ: timeZone,
    CUCKOO_CHAT_ID: chatId,
    CUCKOO_JOB_ID: jobId,
  };
}
