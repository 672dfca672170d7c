/**
 * @module Where a script runs and what it sees: its chat's directory under WORKSPACE_ROOT (never outside
 * it, owned by the script user when there is one) and an environment reduced to the six variables of
 * docs/watchers.md, with nothing of the runner's own.
 */
import { chmodSync, constants, mkdirSync, realpathSync, statSync } from "node:fs";
import { mkdir, open, realpath } from "node:fs/promises";
import path from "node:path";
import type { ScriptUser } from "./config.ts";

/** The PATH every script gets, whatever the runner's own is. */
export const SCRIPT_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * Makes the workspace root (created if missing) and returns its real path. With a script user, others may
 * enter it but not list it (at least `--x` for group and others, 0711 when the runner creates it), so a
 * script can reach its own chat's directory without learning which other chats have one.
 */
export function prepareWorkspaceRoot(root: string, scriptUser: ScriptUser | null): string {
  mkdirSync(root, { recursive: true, mode: scriptUser === null ? 0o700 : 0o711 });
  const real = realpathSync(root);
  if (scriptUser !== null) {
    const mode = statSync(real).mode & 0o7777;
    if ((mode & 0o011) !== 0o011) chmodSync(real, mode | 0o011);
  }
  return real;
}

/**
 * The chat's directory, `<root>/<chatId>`, created if needed, mode 0700. `root` must be an absolute, real
 * path (no symbolic links). Beside the chat id pattern checked at the edge, this refuses any id that is not
 * one plain path segment, and a directory that resolves elsewhere (a symbolic link a script left there).
 * With a script user the directory is made theirs (owner and group) and set to 0700 again on every run.
 */
export async function prepareWorkspace(root: string, chatId: string, scriptUser: ScriptUser | null = null): Promise<string> {
  const dir = path.resolve(root, chatId);
  if (path.dirname(dir) !== root || path.basename(dir) !== chatId) {
    throw new Error(`the chat id ${JSON.stringify(chatId)} does not name a directory inside the workspace root`);
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if ((await realpath(dir)) !== dir) throw new Error(`the workspace ${dir} resolves outside the workspace root`);
  if (scriptUser !== null) {
    // Through a handle opened without following a link: were the directory swapped for one since the check,
    // this fails rather than hand the link's target to the script user.
    const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      await handle.chown(scriptUser.uid, scriptUser.gid);
      await handle.chmod(0o700);
    } finally {
      await handle.close();
    }
  }
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
