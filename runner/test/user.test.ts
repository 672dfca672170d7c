/**
 * Scripts as another user (RUNNER_SCRIPT_UID, RUNNER_SCRIPT_GID), as the image runs them: a script cannot
 * read the runner's environment (where RUNNER_SECRET is), signal the runner or write its files, and its
 * workspace is its own (owner and group, mode 0700). Switching users needs a runner running as root, so
 * these tests run only as root. CI runs as root, so there they always run and a failure shows; a developer
 * who is not root sees them listed as skipped. The refusals of a bad configuration are unit tests
 * (units.test.ts), which run everywhere.
 */
import { rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, isAlive, runRequest, startRunner, type TestRunner } from "./harness.ts";

const isRoot = process.getuid?.() === 0;
/** nobody and nogroup: ids that exist everywhere and own nothing. */
const NOBODY = 65534;
const runnerSource = path.resolve(import.meta.dirname, "../src");

let t: TestRunner | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
  // Only there if a script could write the runner's files, which the first test must show it cannot.
  rmSync(path.join(runnerSource, "written-by-a-script"), { force: true });
});

describe("scripts as another user", () => {
  it.runIf(isRoot)("run as that user and group, without the runner's environment, files or process", async () => {
    t = await startRunner({ scriptUser: { uid: NOBODY, gid: NOBODY }, killGraceMs: 200 });
    // The shell's parent is the runner itself (it spawns /bin/sh -c directly), here this test process.
    const command = [
      "id -u; id -g; id -G",
      'echo "$PPID"',
      "cat /proc/$PPID/environ > /dev/null || echo 'environ refused'",
      "kill -0 $PPID || echo 'signal refused'",
      `touch '${runnerSource}/written-by-a-script' || echo 'runner files refused'`,
      "ls .. > /dev/null || echo 'root listing refused'",
      "echo mine > note && cat note",
    ].join("; ");
    const { status, body } = await t.send("POST", "/runs?wait=1", runRequest({ command }));
    expect(status).toBe(200);
    expect(body.stdout.split("\n")).toEqual([
      `${NOBODY}`,
      `${NOBODY}`,
      `${NOBODY}`, // no supplementary group of the runner's is kept
      `${process.pid}`,
      "environ refused",
      "signal refused",
      "runner files refused",
      "root listing refused",
      "mine",
      "",
    ]);
    expect(body.stderrTail).toMatch(new RegExp(`^cat: /proc/${process.pid}/environ: Permission denied$`, "m"));
    expect(body.stderrTail).toMatch(/kill: .*Operation not permitted$/m);

    const workspace = statSync(path.join(t.root, "123456789"));
    expect({ uid: workspace.uid, gid: workspace.gid, mode: workspace.mode & 0o7777 }).toEqual({ uid: NOBODY, gid: NOBODY, mode: 0o700 });
    expect(statSync(t.root).mode & 0o777).toBe(0o711);
  });

  it.runIf(isRoot)("get a workspace made by someone else back as theirs, 0700", async () => {
    t = await startRunner({ killGraceMs: 200 });
    // First as the runner's own user (root, 0700), then as nobody: the directory changes hands.
    await t.send("POST", "/runs?wait=1", runRequest({ command: "true" }));
    expect(statSync(path.join(t.root, "123456789")).uid).toBe(0);
    const root = t.root;
    await t.runner.close();
    t = await startRunner({ workspaceRoot: root, scriptUser: { uid: NOBODY, gid: NOBODY } });
    expect((await t.send("POST", "/runs?wait=1", runRequest({ command: "echo ok > note" }))).body).toMatchObject({ status: "silent" });
    const workspace = statSync(path.join(root, "123456789"));
    expect({ uid: workspace.uid, gid: workspace.gid, mode: workspace.mode & 0o7777 }).toEqual({ uid: NOBODY, gid: NOBODY, mode: 0o700 });
  });

  it.runIf(isRoot)("are killed, group and all, on timeout", async () => {
    t = await startRunner({ scriptUser: { uid: NOBODY, gid: NOBODY }, killGraceMs: 200 });
    const { body } = await t.send("POST", "/runs?wait=1", runRequest({ command: "sleep 600 & echo $!; sleep 600", timeoutSeconds: 1 }));
    expect(body).toMatchObject({ status: "failed", exitCode: null, timedOut: true });
    const pid = Number(body.stdout.trim());
    expect(pid).toBeGreaterThan(1);
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });
});
