/**
 * Runs through the HTTP edge as the Worker would make them (`?wait=1` answers with the outcome), against
 * real /bin/sh processes: statuses, exit codes, stderr tails, timeouts, the environment and the workspace.
 */
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventually, isAlive, runRequest, startRunner, type TestRunner } from "./harness.ts";

let t: TestRunner;
beforeEach(async () => {
  t = await startRunner({ killGraceMs: 200 });
});
afterEach(async () => {
  await t.stop();
});

const dryRun = (fields: Record<string, unknown>) => t.send("POST", "/runs?wait=1", runRequest(fields));

describe("outcomes", () => {
  it("reports a script that prints as output, stdout kept as printed", async () => {
    const { status, body } = await dryRun({ runId: "r-output", command: "echo hi" });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      runId: "r-output",
      chatId: "123456789",
      status: "output",
      exitCode: 0,
      timedOut: false,
      stdout: "hi\n",
      stderrTail: "",
      truncated: { stdout: false, stderr: false },
    });
    expect(Date.parse(body.finishedAt)).toBeGreaterThanOrEqual(Date.parse(body.startedAt));
    expect(new Date(body.startedAt).toISOString()).toBe(body.startedAt);
  });

  it("reports exit 0 with nothing printed as silent", async () => {
    expect((await dryRun({ command: "true" })).body).toMatchObject({ status: "silent", exitCode: 0, stdout: "" });
  });

  it("reports exit 0 with only white space printed as silent, the white space kept", async () => {
    expect((await dryRun({ command: "printf '  \\n'" })).body).toMatchObject({ status: "silent", exitCode: 0, stdout: "  \n" });
  });

  it("reports a non-zero exit as failed with the last 20 stderr lines", async () => {
    const command = 'for i in $(seq 1 30); do echo "line $i" >&2; done; exit 3';
    const { body } = await dryRun({ command });
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 11}`);
    expect(body).toMatchObject({ status: "failed", exitCode: 3, timedOut: false, stdout: "", stderrTail: lines.join("\n") });
  });

  it("reports exit 1 with output as failed, the output kept", async () => {
    expect((await dryRun({ command: "echo partial; exit 1" })).body).toMatchObject({ status: "failed", exitCode: 1, stdout: "partial\n" });
  });

  it("reports a script killed by a signal as a shell would: 128 + the signal's number", async () => {
    expect((await dryRun({ command: "kill -KILL $$" })).body).toMatchObject({ status: "failed", exitCode: 137, timedOut: false });
    expect((await dryRun({ command: "kill -TERM $$" })).body).toMatchObject({ status: "failed", exitCode: 143, timedOut: false });
  });

  it("kills the whole group on timeout, a background grandchild included", async () => {
    const { body } = await dryRun({ command: "sleep 600 & echo $!; sleep 600", timeoutSeconds: 1 });
    expect(body).toMatchObject({ status: "failed", exitCode: null, timedOut: true });
    const pid = Number(body.stdout.trim());
    expect(pid).toBeGreaterThan(1);
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it("escalates to SIGKILL when the script ignores SIGTERM", async () => {
    // An ignored signal stays ignored across exec, so the sleep ignores SIGTERM too.
    const { body } = await dryRun({ command: "trap '' TERM; sleep 600 & echo $!; sleep 600", timeoutSeconds: 1 });
    expect(body).toMatchObject({ status: "failed", exitCode: null, timedOut: true });
    const pid = Number(body.stdout.trim());
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it("kills what the script left running in the background once it exits", async () => {
    const { body } = await dryRun({ command: "sleep 600 > /dev/null 2>&1 & echo $!" });
    expect(body).toMatchObject({ status: "output", exitCode: 0 });
    const pid = Number(body.stdout.trim());
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it("finishes when a background child keeps the pipes open after the shell exits", async () => {
    expect((await dryRun({ command: "sleep 600 & true" })).body).toMatchObject({ status: "silent", exitCode: 0 });
  });

  it("reports a shell that could not start as failed with no exit code and the reason", async () => {
    // A regular file where the chat's workspace directory should be.
    writeFileSync(path.join(t.root, "555"), "");
    const { body } = await dryRun({ chatId: "555", command: "echo never" });
    expect(body).toMatchObject({ status: "failed", exitCode: null, timedOut: false, stdout: "" });
    expect(body.stderrTail).toMatch(/^could not prepare the workspace: /);
  });

  it("caps a dry run's timeout at 60 s and logs neither the command nor the secret", async () => {
    await dryRun({ runId: "r-logged", command: "echo secret-command-text", timeoutSeconds: 3600 });
    expect(t.logs).toEqual([
      'run "r-logged" started (chat 123456789, job k7m2q, timeout 60 s)',
      expect.stringMatching(/^run "r-logged" ended: output, exit 0, \d+ ms$/),
    ]);
  });
});

describe("what a script sees", () => {
  it("gets exactly the six variables (plus the PWD dash sets), its zone and its workspace", async () => {
    process.env.CUCKOO_RUNNER_TEST_CANARY = "must not leak";
    const { body } = await dryRun({
      chatId: "-1001234567890",
      jobId: "k7m2q",
      timeZone: "Asia/Tokyo",
      command: "pwd; date +%z; env",
    });
    delete process.env.CUCKOO_RUNNER_TEST_CANARY;
    expect(body.status).toBe("output");
    const [pwd, offset, ...envLines] = body.stdout.trimEnd().split("\n");
    const workspace = path.join(t.root, "-1001234567890");
    expect(pwd).toBe(workspace);
    expect(offset).toBe("+0900");
    const env = Object.fromEntries(envLines.map((line: string) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
    // dash (Debian's /bin/sh) adds PWD and nothing else; bash, were /bin/sh bash, would add SHLVL and _ too.
    const shellAdds = realpathSync("/bin/sh").endsWith("dash") ? ["PWD"] : ["PWD", "SHLVL", "_"];
    expect(Object.keys(env).sort()).toEqual(["PATH", "HOME", "LANG", "TZ", "CUCKOO_CHAT_ID", "CUCKOO_JOB_ID", ...shellAdds].sort());
    expect(env).toMatchObject({
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: workspace,
      LANG: "C.UTF-8",
      TZ: "Asia/Tokyo",
      CUCKOO_CHAT_ID: "-1001234567890",
      CUCKOO_JOB_ID: "k7m2q",
      PWD: workspace,
    });
  });

  it("has stdin closed", async () => {
    expect((await dryRun({ command: "cat" })).body).toMatchObject({ status: "silent", exitCode: 0 });
  });

  it("keeps files in its chat's workspace between runs of that chat", async () => {
    await dryRun({ command: "echo kept > note.txt" });
    expect((await dryRun({ command: "cat note.txt" })).body.stdout).toBe("kept\n");
    expect(existsSync(path.join(t.root, "123456789", "note.txt"))).toBe(true);
  });

  it("spells a zone given in another case as the zone files do", async () => {
    expect((await dryRun({ timeZone: "asia/tokyo", command: 'printf %s "$TZ"' })).body.stdout).toBe("Asia/Tokyo");
  });
});
