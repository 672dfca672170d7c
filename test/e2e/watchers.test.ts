/**
 * Watchers end to end (issue 6): the real Worker under `wrangler dev` and the real runner process, wired as
 * `npm run dev` wires them (RUNNER_URL, RUNNER_SECRET, PUBLIC_URL): the tier's shared ones. A silent, a matching and a failing watcher,
 * each run through run now, leave exactly 0, 1 and 1 bot messages; exit 75 and onlyOnChange wake no one;
 * `npm run import` brings acpbot's schedules in once, and nothing a link points to outside the repo; a dry run
 * answers the runner's outcome.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker, waitFor } from "./harness.js";
import { type Runner, sharedRunner } from "./runner.js";

type Entry = { role: string; source: string; text: string; jobId?: string; runId?: string };
type Job = { id: string; running: boolean; lastResult: { status: string; exitCode?: number | null } | null };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let runner: Runner;
let worker: Worker;

beforeAll(async () => {
  runner = sharedRunner();
  worker = await sharedWorker("dev");
});

const logs = () => `wrangler:\n${worker.log()}\nrunner:\n${runner.log()}`;

async function watcher(chatId: string, name: string, command: string): Promise<Job> {
  const res = await worker.send("POST", `/admin/chats/${chatId}/jobs`, { name, kind: "watcher", cron: "0 9 1 1 *", command, timeoutSeconds: 20 });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.job as Job;
}

/** Runs the job now and waits until its run settled; returns the job as it is then. */
async function runNow(chatId: string, job: Job): Promise<Job> {
  const res = await worker.send("POST", `/admin/chats/${chatId}/jobs/${job.id}/run`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return waitFor(
    () => `job ${job.id} did not settle\n${logs()}`,
    async () => {
      const got = await worker.send("GET", `/admin/chats/${chatId}/jobs/${job.id}`);
      const current = got.body.job as Job;
      return !current.running && current.lastResult !== null ? current : undefined;
    },
  );
}

async function botMessages(chatId: string, jobId: string): Promise<Entry[]> {
  const res = await worker.send("GET", `/admin/chats/${chatId}/messages?limit=500`);
  expect(res.status).toBe(200);
  return (res.body.messages as Entry[]).filter((e) => e.role === "bot" && e.jobId === jobId);
}

describe("watchers with the real runner", () => {
  it("silent, matching and failing watchers leave exactly 0, 1 and 1 bot messages", async () => {
    const chatId = "7100001";
    const silent = await watcher(chatId, "Quiet", "if [ 1 -gt 2 ]; then echo never; fi");
    const matching = await watcher(chatId, "Price", 'echo "price is 42 in $TZ"');
    const failing = await watcher(chatId, "Broken", "echo first >&2; echo oops >&2; exit 3");
    await worker.send("PUT", `/admin/chats/${chatId}/settings`, { timeZone: "Europe/Berlin" });

    const quiet = await runNow(chatId, silent);
    expect(quiet.lastResult).toMatchObject({ status: "silent", exitCode: 0 });

    const failed = await runNow(chatId, failing);
    expect(failed.lastResult).toMatchObject({ status: "failed", exitCode: 3 });

    // A match settles once the agent (echo) has answered.
    const matched = await runNow(chatId, matching);
    expect(matched.lastResult).toMatchObject({ status: "matched", exitCode: 0 });

    expect(await botMessages(chatId, silent.id)).toEqual([]);
    const [alert, ...moreAlerts] = await botMessages(chatId, failing.id);
    expect(moreAlerts).toEqual([]);
    expect(alert).toMatchObject({ role: "bot", source: "alert", text: `⚠️ Job "Broken" (${failing.id}) failed (exit 3):\n\`\`\`\nfirst\noops\n\`\`\`` });
    const [reply, ...moreReplies] = await botMessages(chatId, matching.id);
    expect(moreReplies).toEqual([]);
    expect(reply).toMatchObject({ role: "bot", source: "watcher", text: "price is 42 in Europe/Berlin\n" });

    // The same failure again is not reported a second time.
    await runNow(chatId, failing);
    expect(await botMessages(chatId, failing.id)).toHaveLength(1);
  });

  it("exit 75 is transient (no alert), and onlyOnChange keeps a repeated output from waking the agent (issue 16)", async () => {
    const chatId = "7100004";
    const busy = await watcher(chatId, "Busy", "echo 'rate limited' >&2; exit 75");
    expect((await runNow(chatId, busy)).lastResult).toMatchObject({ status: "transient", exitCode: 75 });
    expect(await botMessages(chatId, busy.id)).toEqual([]);

    const res = await worker.send("POST", `/admin/chats/${chatId}/jobs`, {
      name: "Same",
      kind: "watcher",
      cron: "0 9 1 1 *",
      command: "echo 'version 1.2.3'",
      onlyOnChange: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const same = res.body.job as Job;
    expect((await runNow(chatId, same)).lastResult).toMatchObject({ status: "matched" });
    expect((await runNow(chatId, same)).lastResult).toMatchObject({ status: "silent", exitCode: 0 });
    expect((await botMessages(chatId, same.id)).map((e) => e.text)).toEqual(["version 1.2.3\n"]);
    const runs = (await worker.send("GET", `/admin/chats/${chatId}/jobs/${same.id}/runs`)).body.runs as { status: string; detail: string | null }[];
    expect(runs.map((r) => [r.status, r.detail])).toEqual([
      ["silent", "unchanged"],
      ["matched", null],
    ]);
  });

  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        ["scripts/import.mjs", ...args],
        { cwd: root, env: { ...process.env, CUCKOO_URL: worker.base, ADMIN_TOKEN: "" } },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      ),
    );

  it("npm run import reads acpbot's schedules folder into a chat, once (issue 16)", async () => {
    const chatId = "7100005";
    const folder = path.join(root, "test/fixtures/acpbot/.acpbot/schedules");
    const first = await cli(["--format", "acpbot", "--chat", chatId, folder]);
    expect(first, logs()).toEqual({
      code: 0,
      stdout:
        'Created 5 jobs; skipped 0 entries imported before.\n- acpbot schedule "dentist" is a one-off that already fired or was cancelled (enabled: false); it was left out.\n',
    });
    // The disk watcher's script came from the repo (scripts/disk.sh): it runs on the real runner.
    const jobs = (await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs as (Job & { name: string; importedFrom: string })[];
    const disk = jobs.find((j) => j.importedFrom === "acpbot:disk")!;
    expect((await runNow(chatId, disk)).lastResult).toMatchObject({ exitCode: 0 });
    expect(await cli(["--format", "acpbot", "--chat", chatId, folder])).toEqual({
      code: 0,
      stdout:
        'Created 0 jobs; skipped 5 entries imported before.\n- acpbot schedule "dentist" is a one-off that already fired or was cancelled (enabled: false); it was left out.\n',
    });
  });

  it("npm run import stores no script that links outside the repo (issue 22)", async () => {
    const chatId = "7100006";
    const repo = mkdtempSync(path.join(os.tmpdir(), "cuckoo-e2e-acpbot-"));
    try {
      cpSync(path.join(root, "test/fixtures/acpbot"), repo, { recursive: true });
      const folder = path.join(repo, ".acpbot/schedules");
      symlinkSync("/etc/passwd", path.join(folder, "scripts/p.sh"));
      writeFileSync(
        path.join(folder, "p.json"),
        JSON.stringify({ id: "p", prompt: "Watch p.", script: ".acpbot/schedules/scripts/p.sh", cron: "0 * * * *", enabled: true }),
      );
      const { code, stdout } = await cli(["--format", "acpbot", "--chat", chatId, folder]);
      expect({ code, stdout }, logs()).toEqual({
        code: 0,
        stdout:
          "Created 5 jobs; skipped 0 entries imported before.\n" +
          '- p.json runs the script ".acpbot/schedules/scripts/p.sh", which is outside the repo (".acpbot/schedules/scripts/p.sh" links to /etc/passwd); it was left out.\n' +
          '- acpbot schedule "dentist" is a one-off that already fired or was cancelled (enabled: false); it was left out.\n',
      });
      const jobs = (await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs as (Job & { importedFrom: string; command?: string })[];
      expect(jobs.map((j) => j.importedFrom).sort()).toEqual(["acpbot:disk", "acpbot:inbox", "acpbot:mum", "acpbot:price", "acpbot:standup"]);
      expect(jobs.some((j) => j.command?.includes("root:"))).toBe(false);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it("cancel kills a running script through the runner; its outcome is discarded", async () => {
    const chatId = "7100003";
    const slow = await watcher(chatId, "Slow", "sleep 15; echo too late");
    expect((await worker.send("POST", `/admin/chats/${chatId}/jobs/${slow.id}/run`)).status).toBe(200);
    const active = async () => ((await (await fetch(`${runner.url}/healthz`)).json()) as { active: number }).active;
    await waitFor(
      () => `the script never started\n${logs()}`,
      async () => ((await active()) === 1 ? true : undefined),
    );
    expect((await worker.send("DELETE", `/admin/chats/${chatId}/jobs/${slow.id}`)).status).toBe(204);
    // Killed at once, not after its 15 s: the runner reports nothing running, and nothing reached the chat.
    await waitFor(
      () => `the script was not killed\n${logs()}`,
      async () => ((await active()) === 0 ? true : undefined),
      5_000,
    );
    expect(runner.log()).toContain(`run "${chatId}:${slow.id}:`);
    expect((await worker.send("GET", `/admin/chats/${chatId}/messages`)).body.messages).toEqual([]);
    expect((await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs).toEqual([]);
  });

  it("a dry run answers the runner's outcome and stores nothing", async () => {
    const chatId = "7100002";
    const res = await worker.send("POST", `/admin/chats/${chatId}/test`, { command: 'echo "$CUCKOO_CHAT_ID $CUCKOO_JOB_ID"; pwd' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ chatId, status: "output", exitCode: 0, timedOut: false, stderrTail: "", truncated: { stdout: false, stderr: false } });
    const [ids, cwd] = String(res.body.stdout).trimEnd().split("\n");
    expect(ids).toBe(`${chatId} test`);
    expect(cwd!.endsWith(`/${chatId}`)).toBe(true);
    expect((await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs).toEqual([]);
    expect((await worker.send("GET", `/admin/chats/${chatId}/messages`)).body.messages).toEqual([]);
  });
});
