/**
 * Watchers in the chat's Durable Object (DESIGN §5, §8; issue 6), against the fake runner of
 * test/stub/runner-stub.ts: the signed start request, every outcome (silent, matched, failed), the failure
 * streak, redaction, leases, cancel during a run, forged callbacks, run now, one-offs, and the invariant that a
 * silent tick costs one runner call and nothing else. Each test has its own chat (ids 6000000 up).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { alarmOf, chatIds, expectSpyInPlace, feed, must, runRow, runsOf, setInstanceVars, sql, transcript, type JobView, type Stub } from "./agent-helpers";
import { delivered, expectReply, telegramChat, TestBot } from "./telegram-helpers";
import { call, envWith } from "./helpers";
import { callback, createWatcher, fireWatcher, outcomeOf, PUBLIC_URL, runnerCalls, runnerEnv, runnerVars, runState, scriptRunner, settleWith, STUB_RUNNER_SECRET, withRunner } from "./watcher-helpers";

const newChat = chatIds(6_000_000);
const MINUTE = 60_000;
const justDue = () => Math.floor(Date.now() / 1000) * 1000 - 5_000;

/** A v1 header, the HMAC of "<t>.<body>" alone with the right secret: what a runner before v2 sent. */
async function v1Header(body: string): Promise<string> {
  const t = Math.floor(Date.now() / 1000);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(STUB_RUNNER_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${body}`)));
  return `t=${t},v1=${[...mac].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

const entries = async (stub: Stub, chatId: string) =>
  (await transcript(stub, chatId)).map((e) => ({ role: e.role, source: e.source, text: e.text, jobId: e.jobId, runId: e.runId }));
const outboxCount = async (stub: Stub) => (await sql<{ n: number }>(stub, "SELECT COUNT(*) AS n FROM outbox"))[0]!.n;
const jobOf = (stub: Stub, chatId: string, id: string) => must<JobView>(stub.getJob(chatId, id));

describe("a due watcher", () => {
  it("calls the runner once, signed, with run id <chatId>:<jobId>:<dueAt>, its command, timeout, zone and callback", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const job = await createWatcher(chatId, stub, { command: "echo $TZ", timeoutSeconds: 30 });
    const due = justDue();
    const t0 = Date.now();
    const runId = await fireWatcher(stub, job, due);

    const calls = await runnerCalls(chatId);
    expect(calls).toEqual([
      {
        method: "POST",
        path: "/runs",
        wait: false,
        chatId,
        signed: true,
        body: {
          runId: `${chatId}:${runId}`,
          chatId,
          jobId: job.id,
          command: "echo $TZ",
          timeoutSeconds: 30,
          timeZone: "Europe/Berlin",
          callbackUrl: `${PUBLIC_URL}/runner/callback/${chatId}`,
        },
      },
    ]);
    const run = (await runRow(stub, runId))!;
    expect(run.state).toBe("dispatched");
    // The lease is the timeout plus 60 s, from the moment the runner took it.
    expect(run.started_at).toBeGreaterThanOrEqual(t0);
    expect(run.lease_until).toBe(run.started_at! + 30_000 + 60_000);
    expect(await alarmOf(stub)).toBe(run.lease_until);
    expect((await jobOf(stub, chatId, job.id)).running).toBe(true);
    // No queue message, no transcript entry: the agent is not involved.
    expect(sent).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual([]);
  });

  it("uses DEFAULT_SCRIPT_TIMEOUT when the job sets none", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub, { DEFAULT_SCRIPT_TIMEOUT: "45" });
    const job = await createWatcher(chatId, stub);
    await fireWatcher(stub, job, justDue());
    const [call] = await runnerCalls(chatId);
    expect(call!.body!.timeoutSeconds).toBe(45);
  });
});

describe("the outcome", () => {
  it("silent: only lastRunAt, lastResult and history change", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const due = justDue();
    const runId = await fireWatcher(stub, job, due);
    const fired = await jobOf(stub, chatId, job.id);

    const before = Date.now();
    await settleWith(chatId, runId, { status: "silent", stdout: "  \n" });
    const after = await jobOf(stub, chatId, job.id);
    expect(after.running).toBe(false);
    expect(after.lastRunAt).toBe(fired.lastRunAt);
    expect(after.lastResult).toMatchObject({ status: "silent", exitCode: 0, timedOut: false });
    expect(Date.parse(after.lastResult!.at)).toBeGreaterThanOrEqual(before);
    expect(await runState(stub, runId)).toEqual({ state: "settled", status: "silent", exit_code: 0, timed_out: 0, detail: null });
    expect(sent).toEqual([]);
    await expectSpyInPlace(stub, sent);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(await outboxCount(stub)).toBe(0);
  });

  it("output: matched, one prompt with the output, in flight until the agent settles it", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Price" });
    const due = justDue();
    const runId = await fireWatcher(stub, job, due);

    await settleWith(chatId, runId, { status: "output", stdout: "price 42\n" });
    expect(sent).toHaveLength(1);
    const message = sent[0]!.body as Record<string, unknown>;
    expect(message).toStrictEqual({
      v: 1,
      key: runId,
      chatId,
      timeZone: "UTC",
      source: "watcher",
      jobId: job.id,
      jobName: "Price",
      runId,
      text: `[Scheduled job "Price" (${job.id})] The watcher script printed:\nprice 42\n`,
      body: "price 42\n",
      firedAt: message.firedAt,
      dueAt: new Date(due).toISOString(),
    });
    expect((await runRow(stub, runId))!.state).toBe("dispatched");
    expect((await jobOf(stub, chatId, job.id)).running).toBe(true);

    // The agent (the echo consumer) takes it: one bot message, the run settled matched.
    await feed([message]);
    expect(await runState(stub, runId)).toEqual({ state: "settled", status: "matched", exit_code: 0, timed_out: 0, detail: null });
    const after = await jobOf(stub, chatId, job.id);
    expect(after.running).toBe(false);
    expect(after.lastResult).toMatchObject({ status: "matched", exitCode: 0, timedOut: false });
    const bot = (await entries(stub, chatId)).filter((e) => e.role === "bot");
    // The echo agent delivers exactly the body: the output.
    expect(bot).toEqual([{ role: "bot", source: "watcher", text: "price 42\n", jobId: job.id, runId }]);
  });

  it("a second callback for the same run changes nothing (answered 204)", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(stub, job, justDue());
    await settleWith(chatId, runId, { status: "output", stdout: "hit\n" });
    await settleWith(chatId, runId, { status: "output", stdout: "hit\n" });
    await settleWith(chatId, runId, { status: "failed", exitCode: 2, stderrTail: "x" });
    expect(sent).toHaveLength(1);
    expect(await transcript(stub, chatId)).toEqual([]);
  });

  it("failed: an alert straight to the chat with the stderr tail in a code block; history and lastResult keep it", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Disk" });
    const runId = await fireWatcher(stub, job, justDue());
    const tail = Array.from({ length: 20 }, (_, i) => `line ${i + 11}`).join("\n");

    await settleWith(chatId, runId, { status: "failed", exitCode: 3, stderrTail: `${tail}\n` });
    expect(await entries(stub, chatId)).toEqual([
      { role: "bot", source: "alert", text: `⚠️ Job "Disk" (${job.id}) failed (exit 3):\n\`\`\`\n${tail}\n\`\`\``, jobId: job.id, runId },
    ]);
    expect(await runState(stub, runId)).toEqual({ state: "settled", status: "failed", exit_code: 3, timed_out: 0, detail: "exit 3" });
    const after = await jobOf(stub, chatId, job.id);
    expect(after.lastResult).toMatchObject({ status: "failed", exitCode: 3, timedOut: false, stderrTail: tail });
    expect(after.running).toBe(false);
    expect(sent).toEqual([]);
  });

  it("failed by the runner's timeout: `failed (timed out)`", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Slow" });
    const runId = await fireWatcher(stub, job, justDue());
    await settleWith(chatId, runId, { status: "failed", exitCode: null, timedOut: true, stderrTail: "" });
    expect((await entries(stub, chatId)).map((e) => e.text)).toEqual([`⚠️ Job "Slow" (${job.id}) failed (timed out):`]);
    expect(await runState(stub, runId)).toEqual({ state: "settled", status: "failed", exit_code: null, timed_out: 1, detail: "timed out" });
  });
});

describe("the failure streak", () => {
  it("alerts once per streak: the same exit code is silent, another code or a timeout is reported, a success resets", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Feed" });
    const base = justDue() - 100 * MINUTE;
    const steps: { fields: Parameters<typeof settleWith>[2]; alert: string | null }[] = [
      { fields: { status: "failed", exitCode: 3, stderrTail: "a" }, alert: "failed (exit 3)" },
      { fields: { status: "failed", exitCode: 3, stderrTail: "b" }, alert: null },
      { fields: { status: "failed", exitCode: 3, stderrTail: "c" }, alert: null },
      { fields: { status: "failed", exitCode: 4, stderrTail: "d" }, alert: "failed (exit 4)" },
      { fields: { status: "failed", exitCode: null, timedOut: true, stderrTail: "" }, alert: "failed (timed out)" },
      { fields: { status: "failed", exitCode: null, timedOut: true, stderrTail: "" }, alert: null },
      { fields: { status: "silent" }, alert: null },
      { fields: { status: "failed", exitCode: 4, stderrTail: "e" }, alert: "failed (exit 4)" },
      { fields: { status: "output", stdout: "ok\n" }, alert: null },
    ];
    const expected: string[] = [];
    for (const [i, step] of steps.entries()) {
      const runId = await fireWatcher(stub, job, base + i * MINUTE);
      await settleWith(chatId, runId, step.fields);
      if (step.alert) expected.push(`⚠️ Job "Feed" (${job.id}) ${step.alert}:`);
      if (step.fields.status === "output") await feed([JSON.parse((await runRow(stub, runId))!.message!)]);
    }
    const alerts = (await entries(stub, chatId)).filter((e) => e.source === "alert").map((e) => e.text.split("\n")[0]);
    expect(alerts).toEqual(expected);
    expect((await runsOf(stub, job.id)).map((r) => r.status)).toEqual(["failed", "failed", "failed", "failed", "failed", "failed", "silent", "failed", "matched"]);
  });
});

describe("after the agent failed on a match", () => {
  it("the next failure of the script is reported: the agent's failure is not the script's streak", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Agent" });
    const first = await fireWatcher(stub, job, justDue() - 10 * MINUTE);
    await settleWith(chatId, first, { status: "output", stdout: "hit\n" });
    await feed([JSON.parse((await runRow(stub, first))!.message!)], "prompts-dlq");
    expect((await jobOf(stub, chatId, job.id)).lastResult).toMatchObject({ status: "failed" });
    await scriptRunner(chatId, [{ status: 401, body: { error: { code: "unauthorized", message: "x" } } }]);
    await fireWatcher(stub, job, justDue());
    const alerts = (await entries(stub, chatId)).filter((e) => e.source === "alert").map((e) => e.text.split("\n")[0]);
    expect(alerts).toEqual([`⚠️ The watcher "Agent" (${job.id}) could not be handled: the agent failed after several tries.`, `⚠️ Job "Agent" (${job.id}) failed (did not start):`]);
  });
});

describe("redaction", () => {
  it("replaces every secret the Worker holds with [REDACTED] in output, alerts and stored tails", async () => {
    const { chatId, stub } = newChat();
    const admin = "admin-token-9d8c7b6a";
    const tools = "tools-token-1a2b3c4d";
    const sent = await withRunner(stub, { ADMIN_TOKEN: admin, TOOLS_TOKEN: tools });
    const job = await createWatcher(chatId, stub, { name: "Leaky" });
    const first = await fireWatcher(stub, job, justDue() - 10 * MINUTE);
    await settleWith(chatId, first, { status: "output", stdout: `secret=${STUB_RUNNER_SECRET} admin=${admin}\n` });
    const message = sent[0]!.body as { text: string; body: string };
    expect(message.body).toBe("secret=[REDACTED] admin=[REDACTED]\n");
    expect(message.text).toBe(`[Scheduled job "Leaky" (${job.id})] The watcher script printed:\nsecret=[REDACTED] admin=[REDACTED]\n`);
    expect((await runRow(stub, first))!.message).not.toContain(STUB_RUNNER_SECRET);
    await feed([message]);

    const second = await fireWatcher(stub, job, justDue());
    await settleWith(chatId, second, { status: "failed", exitCode: 1, stderrTail: `curl: token ${tools} rejected` });
    const alert = (await entries(stub, chatId)).find((e) => e.source === "alert")!;
    expect(alert.text).toBe(`⚠️ Job "Leaky" (${job.id}) failed (exit 1):\n\`\`\`\ncurl: token [REDACTED] rejected\n\`\`\``);
    expect(((await jobOf(stub, chatId, job.id)).lastResult as { stderrTail?: string }).stderrTail).toBe("curl: token [REDACTED] rejected");
    const everything = JSON.stringify(await sql(stub, "SELECT * FROM transcript")) + JSON.stringify(await sql(stub, "SELECT * FROM jobs")) + JSON.stringify(await sql(stub, "SELECT * FROM runs"));
    for (const secret of [admin, tools, STUB_RUNNER_SECRET]) expect(everything).not.toContain(secret);
  });
});

describe("leases and failures to start", () => {
  it("a run whose lease runs out with no outcome fails `timed out`, alerts, and the runner is told to stop it", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Lost", timeoutSeconds: 5 });
    const runId = await fireWatcher(stub, job, justDue());
    await sql(stub, "UPDATE runs SET lease_until = ? WHERE run_id = ?", Date.now() - 1, runId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runState(stub, runId)).toEqual({ state: "settled", status: "failed", exit_code: null, timed_out: 1, detail: "timed out: no outcome within 5 s + 60 s" });
    expect((await entries(stub, chatId)).map((e) => e.text)).toEqual([`⚠️ Job "Lost" (${job.id}) failed (timed out):`]);
    await expect.poll(async () => (await runnerCalls(chatId)).filter((c) => c.method === "DELETE").map((c) => [c.path, c.signed])).toEqual([
      [`/runs/${encodeURIComponent(`${chatId}:${runId}`)}`, true],
    ]);
    // A late outcome changes nothing.
    await settleWith(chatId, runId, { status: "output", stdout: "late\n" });
    expect(await runState(stub, runId)).toMatchObject({ status: "failed" });
  });

  it("a runner that refuses the signature: `did not start` at once, with the reason", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [{ status: 401, body: { error: { code: "unauthorized", message: "bad signature" } } }]);
    const job = await createWatcher(chatId, stub, { name: "Keys" });
    const runId = await fireWatcher(stub, job, justDue());
    expect(await runState(stub, runId)).toEqual({
      state: "settled",
      status: "failed",
      exit_code: null,
      timed_out: 0,
      detail: "did not start: the runner refused the signature; RUNNER_SECRET must be the same on both sides",
    });
    expect((await entries(stub, chatId)).map((e) => e.text)).toEqual([
      `⚠️ Job "Keys" (${job.id}) failed (did not start):\n\`\`\`\nthe runner refused the signature; RUNNER_SECRET must be the same on both sides\n\`\`\``,
    ]);
    expect((await jobOf(stub, chatId, job.id)).lastResult).toMatchObject({ status: "failed", exitCode: null, timedOut: false });
  });

  it("an unreachable or failing runner is tried three times, then the run fails `did not start`", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [
      { status: 503, body: { error: { code: "internal", message: "starting" } } },
      { status: 502, body: { error: { code: "internal", message: "bad gateway" } } },
      { status: 500, body: { error: { code: "internal", message: "it broke" } } },
    ]);
    const job = await createWatcher(chatId, stub, { name: "Down" });
    const runId = await fireWatcher(stub, job, justDue());
    const first = (await runRow(stub, runId))!;
    expect(first).toMatchObject({ state: "claimed", attempts: 1 });
    // The retry waits 2.5–5 s (jittered), and the alarm is armed for it.
    expect(first.lease_until! - Date.now()).toBeGreaterThan(1_000);
    expect(await alarmOf(stub)).toBe(first.lease_until);
    for (const attempts of [2, 3]) {
      await sql(stub, "UPDATE runs SET lease_until = ? WHERE run_id = ?", Date.now() - 1, runId);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      if (attempts === 2) expect(await runRow(stub, runId)).toMatchObject({ state: "claimed", attempts: 2 });
    }
    expect(await runState(stub, runId)).toEqual({ state: "settled", status: "failed", exit_code: null, timed_out: 0, detail: "did not start: the runner answered 500: it broke" });
    expect((await runnerCalls(chatId)).filter((c) => c.method === "POST")).toHaveLength(3);
    expect((await entries(stub, chatId)).map((e) => e.text.split("\n")[0])).toEqual([`⚠️ Job "Down" (${job.id}) failed (did not start):`]);
  });

  it("a busy runner (429) is waited for, beyond three tries, while the run can still finish within its lease", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const busy = { status: 429, body: { error: { code: "too_many_requests", message: "8 runs are active." } } };
    await scriptRunner(chatId, [busy, busy, busy, busy]);
    const job = await createWatcher(chatId, stub, { name: "Busy", timeoutSeconds: 60 });
    const runId = await fireWatcher(stub, job, justDue());
    for (let i = 0; i < 4; i++) {
      expect(await runRow(stub, runId)).toMatchObject({ state: "claimed", attempts: i + 1 });
      await sql(stub, "UPDATE runs SET lease_until = ? WHERE run_id = ?", Date.now() - 1, runId);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    }
    expect((await runRow(stub, runId))!.state).toBe("dispatched");
    expect((await runnerCalls(chatId)).filter((c) => c.method === "POST")).toHaveLength(5);
    expect(await transcript(stub, chatId)).toEqual([]);
  });

  it("a busy runner fails the run `did not start` once it could no longer finish within its lease", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [{ status: 429, body: { error: { code: "too_many_requests", message: "8 runs are active." } } }]);
    const job = await createWatcher(chatId, stub, { name: "Late", timeoutSeconds: 60 });
    // Due 2 minutes ago: timeout 60 s + 60 s of grace are over.
    const runId = await fireWatcher(stub, job, justDue() - 2 * MINUTE);
    expect(await runState(stub, runId)).toMatchObject({ status: "failed", detail: "did not start: the runner answered 429: 8 runs are active." });
  });

  it("a runner that already has the run (409, after a crash) counts as started", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [{ status: 409, body: { error: { code: "conflict", message: "already started" } } }]);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(stub, job, justDue());
    expect((await runRow(stub, runId))!.state).toBe("dispatched");
  });
});

describe("an outcome that overtakes the runner's acknowledgement", () => {
  it("a match that arrives while the start is still being acknowledged is sent to the agent once", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    await scriptRunner(chatId, [{ status: 202, body: {}, delayMs: 400 }]);
    const job = await createWatcher(chatId, stub, { name: "Fast" });
    const running = stub.runJobNow(chatId, job.id);
    const [call] = await expect.poll(() => runnerCalls(chatId)).toHaveLength(1).then(() => runnerCalls(chatId));
    const runId = String(call!.body!.runId).slice(chatId.length + 1);
    await settleWith(chatId, runId, { status: "output", stdout: "fast\n" });
    await must(running);
    expect(sent.map((s) => (s.body as { key: string }).key)).toEqual([runId]);
    const run = (await runRow(stub, runId))!;
    expect(run.state).toBe("dispatched");
    // A prompt's deadline to reach the run gate (2 minutes), not the watcher's lease.
    expect(run.lease_until).toBeGreaterThan(Date.now() + MINUTE);
    expect(run.lease_until).toBeLessThanOrEqual(Date.now() + 2 * MINUTE);
    expect(JSON.parse(run.message!)).toMatchObject({ key: runId, source: "watcher", body: "fast\n" });
  });

  it("a match that arrives before the runner's refusal is kept: no `did not start`, no alert", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    await scriptRunner(chatId, [{ status: 401, body: { error: { code: "unauthorized", message: "x" } }, delayMs: 400 }]);
    const job = await createWatcher(chatId, stub);
    const running = stub.runJobNow(chatId, job.id);
    await expect.poll(() => runnerCalls(chatId)).toHaveLength(1);
    const runId = String((await runnerCalls(chatId))[0]!.body!.runId).slice(chatId.length + 1);
    await settleWith(chatId, runId, { status: "output", stdout: "first\n" });
    await must(running);
    expect(sent.map((s) => (s.body as { key: string }).key)).toEqual([runId]);
    expect((await runRow(stub, runId))!.state).toBe("dispatched");
    expect(await transcript(stub, chatId)).toEqual([]);
  });

  it("a start that lands after its job was cancelled is stopped again", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [{ status: 202, body: {}, delayMs: 400 }]);
    const job = await createWatcher(chatId, stub);
    const running = stub.runJobNow(chatId, job.id);
    await expect.poll(() => runnerCalls(chatId)).toHaveLength(1);
    await must(stub.cancelJob(chatId, job.id));
    await running;
    const calls = await runnerCalls(chatId);
    const runnerRunId = String(calls[0]!.body!.runId);
    // One DELETE from the cancel (it may reach the runner first) and one when the start's 202 came back.
    expect(calls.map((c) => [c.method, c.method === "DELETE" ? decodeURIComponent(c.path) : c.path])).toEqual([
      ["POST", "/runs"],
      ["DELETE", `/runs/${runnerRunId}`],
      ["DELETE", `/runs/${runnerRunId}`],
    ]);
    expect(await sql(stub, "SELECT run_id FROM runs")).toEqual([]);
  });

  it("a silent outcome that arrives first settles the run, and the late acknowledgement changes nothing", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    await scriptRunner(chatId, [{ status: 202, body: {}, delayMs: 400 }]);
    const job = await createWatcher(chatId, stub);
    const running = stub.runJobNow(chatId, job.id);
    await expect.poll(() => runnerCalls(chatId)).toHaveLength(1);
    const runId = String((await runnerCalls(chatId))[0]!.body!.runId).slice(chatId.length + 1);
    await settleWith(chatId, runId, { status: "silent" });
    await must(running);
    expect(await runState(stub, runId)).toEqual({ state: "settled", status: "silent", exit_code: 0, timed_out: 0, detail: null });
    expect((await jobOf(stub, chatId, job.id)).running).toBe(false);
    expect(sent).toEqual([]);
  });
});

describe("cancel", () => {
  it("kills a running watcher through the runner and discards its outcome", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(stub, job, justDue());
    await must(stub.cancelJob(chatId, job.id));
    const deletes = (await runnerCalls(chatId)).filter((c) => c.method === "DELETE");
    expect(deletes.map((c) => [c.path, c.signed])).toEqual([[`/runs/${encodeURIComponent(`${chatId}:${runId}`)}`, true]]);

    await settleWith(chatId, runId, { status: "output", stdout: "too late\n" });
    await settleWith(chatId, runId, { status: "failed", exitCode: 143, stderrTail: "Terminated" });
    expect(sent).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(await sql(stub, "SELECT run_id FROM runs")).toEqual([]);
    expect(await sql(stub, "SELECT id FROM jobs")).toEqual([]);
  });

  it("erasing the chat kills its running watchers", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const a = await createWatcher(chatId, stub, { name: "A" });
    const b = await createWatcher(chatId, stub, { name: "B" });
    const due = justDue();
    await sql(stub, "UPDATE jobs SET next_run_at = ?", due);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await must(stub.erase(chatId));
    const deleted = (await runnerCalls(chatId)).filter((c) => c.method === "DELETE").map((c) => decodeURIComponent(c.path)).sort();
    expect(deleted).toEqual([`/runs/${chatId}:${a.id}:${due}`, `/runs/${chatId}:${b.id}:${due}`].sort());
  });
});

describe("the callback route", () => {
  it("refuses a forged callback with 401 and changes nothing", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(stub, job, justDue());
    const outcome = outcomeOf(chatId, runId, { status: "output", stdout: "forged\n" });
    const forged = [
      await callback(chatId, outcome, { header: null }),
      await callback(chatId, outcome, { secret: "not-the-runner-secret" }),
      await callback(chatId, outcome, { nowMs: Date.now() - 301_000 }),
      await callback(chatId, outcome, { header: "t=1,v2=zz" }),
      // v1, which signed the body alone, is refused even when its MAC is right.
      await callback(chatId, outcome, { header: await v1Header(JSON.stringify(outcome)) }),
      // Signed for another method, or for another chat's path.
      await callback(chatId, outcome, { signFor: { method: "PUT" } }),
      await callback(chatId, outcome, { signFor: { target: "/runner/callback/6999999" } }),
      await callback(chatId, outcome, { signFor: { target: `/runner/callback/${chatId}?again=1` } }),
    ];
    for (const res of forged) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: {
          code: "unauthorized",
          message: `The X-Cuckoo-Signature header is missing, wrong or older than 300 s; sign "<t>.<METHOD> <target>.<body>" as v2 with RUNNER_SECRET.`,
        },
      });
    }
    expect((await runRow(stub, runId))!.state).toBe("dispatched");
    expect(await transcript(stub, chatId)).toEqual([]);
    // A signature within the window is taken.
    const fresh = await callback(chatId, outcomeOf(chatId, runId), { nowMs: Date.now() - 290_000 });
    expect(fresh.status).toBe(204);
  });

  it("refuses a callback signed for chat A's path on chat B's path, though the outcome is B's", async () => {
    const a = newChat();
    const b = newChat();
    await withRunner(b.stub);
    const job = await createWatcher(b.chatId, b.stub);
    const runId = await fireWatcher(b.stub, job, justDue());
    const outcome = outcomeOf(b.chatId, runId, { status: "output", stdout: "replayed\n" });
    const replayed = await callback(b.chatId, outcome, { signFor: { target: `/runner/callback/${a.chatId}` } });
    expect(replayed.status).toBe(401);
    expect((await runRow(b.stub, runId))!.state).toBe("dispatched");
    expect(await transcript(b.stub, b.chatId)).toEqual([]);
    expect((await callback(b.chatId, outcome)).status).toBe(204);
  });

  it("does not exist with the runner container: callbacks come through its outbound handler only", async () => {
    const { chatId } = newChat();
    const res = await callback(chatId, outcomeOf(chatId, "zzzzz:1"), { env: envWith({ RUNNER_SECRET: STUB_RUNNER_SECRET }) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: `No route POST /runner/callback/${chatId}; see GET /admin/openapi.json.` } });
  });

  it("answers 204 for an unknown run id, and 400 for a body that is not an outcome or is another chat's", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    expect((await callback(chatId, outcomeOf(chatId, "zzzzz:123"))).status).toBe(204);
    expect((await callback(chatId, outcomeOf(chatId, "test:1:abc"))).status).toBe(204);
    const other = await callback(chatId, outcomeOf("6999999", "zzzzz:1"));
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { message: string } }).error.message).toBe(`The outcome is for chat 6999999, not ${chatId}.`);
    const huge = await callback(chatId, outcomeOf(chatId, "zzzzz:1", { stdout: "x".repeat(1100 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ error: { code: "payload_too_large", message: "The body is larger than 1 MiB." } });
    const bad = await callback(chatId, { runId: "x" });
    expect(bad.status).toBe(400);
    expect((await callback("12ab", outcomeOf(chatId, "x"))).status).toBe(400);
  });
});

describe("a runner var that is invalid", () => {
  const sentence = "RUNNER_URL must be an http(s) URL such as http://127.0.0.1:8788.";

  it("fails a due watcher `did not start` with the config sentence, and refuses callbacks and dry runs with 500 config_error", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub, { RUNNER_URL: "runner:8788" });
    const job = await createWatcher(chatId, stub, { name: "Cfg" });
    const runId = await fireWatcher(stub, job, justDue());
    expect(await runState(stub, runId)).toMatchObject({ status: "failed", detail: `did not start: ${sentence}` });
    expect(await runnerCalls(chatId)).toEqual([]);

    const bad = runnerEnv({ RUNNER_URL: "runner:8788" });
    const res = await callback(chatId, outcomeOf(chatId, runId), { env: bad });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: "config_error", message: sentence } });
    const dry = await call(`/admin/chats/${chatId}/test`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"command":"true"}' }, bad);
    expect(dry.status).toBe(500);
    expect(await dry.json()).toEqual({ error: { code: "config_error", message: sentence } });
  });
});

describe("the watcher invariant", () => {
  it("N silent ticks: N runner calls and nothing else", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub, { cron: "*/10 * * * *" });
    const base = justDue() - 60 * MINUTE;
    const N = 5;
    for (let i = 0; i < N; i++) {
      const runId = await fireWatcher(stub, job, base + i * 10 * MINUTE);
      await settleWith(chatId, runId, { status: "silent" });
    }
    const calls = await runnerCalls(chatId);
    expect(calls.map((c) => [c.method, c.path, c.wait])).toEqual(Array.from({ length: N }, () => ["POST", "/runs", false]));
    expect(new Set(calls.map((c) => c.body!.runId)).size).toBe(N);
    expect(sent).toEqual([]);
    await expectSpyInPlace(stub, sent);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(await outboxCount(stub)).toBe(0);
    expect((await runsOf(stub, job.id)).map((r) => r.status)).toEqual(Array.from({ length: N }, () => "silent"));
  });
});

describe("run now and one-offs", () => {
  it("runs a watcher now as a manual run <jobId>:<now>; a second run now while it runs is refused", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const t0 = Date.now();
    const ran = await must<JobView>(stub.runJobNow(chatId, job.id));
    expect(ran.running).toBe(true);
    const [call] = await runnerCalls(chatId);
    const runnerRunId = String(call!.body!.runId);
    const at = Number(runnerRunId.split(":")[2]);
    expect(runnerRunId).toBe(`${chatId}:${job.id}:${at}`);
    expect(at).toBeGreaterThanOrEqual(t0);
    expect(await stub.runJobNow(chatId, job.id)).toEqual({ ok: false, error: { code: "conflict", message: `Job ${job.id} is still running.` } });
    await settleWith(chatId, `${job.id}:${at}`, { status: "silent" });
    const after = await jobOf(stub, chatId, job.id);
    expect(after).toMatchObject({ running: false, nextRunAt: job.nextRunAt, lastResult: { status: "silent" } });
    expect((await runsOf(stub, job.id)).map((r) => [r.manual, r.status])).toEqual([[1, "silent"]]);
  });

  it("deletes a one-off watcher after its run", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { delay: "PT5M" });
    const runId = await fireWatcher(stub, job, justDue());
    expect((await jobOf(stub, chatId, job.id)).running).toBe(true);
    await settleWith(chatId, runId, { status: "silent" });
    expect(await stub.getJob(chatId, job.id)).toEqual({ ok: false, error: { code: "not_found", message: `No job ${job.id} in this chat.` } });
  });
});

describe("dry runs: the tool action `test` and POST /admin/chats/:chatId/test", () => {
  const adminTest = (chatId: string, body: unknown, testEnv = runnerEnv()) =>
    call(`/admin/chats/${chatId}/test`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }, testEnv);
  const toolTest = async (chatId: string, body: Record<string, unknown>, testEnv = runnerEnv()) =>
    (await call(`/tools/${chatId}/schedule`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action: "test", ...body }) }, testEnv)).json();

  it("runs the command once with ?wait=1 in the chat's zone, at most 60 s, and answers the outcome redacted; nothing is stored", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    const outcome = outcomeOf(chatId, "test:1:x", { status: "output", stdout: `price 42 ${STUB_RUNNER_SECRET}\n`, stderrTail: "" });
    await scriptRunner(chatId, [{ status: 200, body: outcome }]);
    const res = await adminTest(chatId, { command: "curl -s shop | jq .price", timeoutSeconds: 120 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...outcome, stdout: "price 42 [REDACTED]\n" });
    const [seen] = await runnerCalls(chatId);
    expect(seen).toMatchObject({ method: "POST", path: "/runs", wait: true, signed: true });
    expect(Object.keys(seen!.body!).sort()).toEqual(["chatId", "command", "jobId", "runId", "timeZone", "timeoutSeconds"]);
    expect(seen!.body).toMatchObject({ chatId, jobId: "test", command: "curl -s shop | jq .price", timeoutSeconds: 60, timeZone: "Asia/Tokyo" });
    expect(String(seen!.body!.runId)).toMatch(new RegExp(`^${chatId}:test:\\d+:[0-9a-f]{8}$`));
    expect(await sql(stub, "SELECT id FROM jobs")).toEqual([]);
    expect(await sql(stub, "SELECT run_id FROM runs")).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual([]);
  });

  it("uses DEFAULT_SCRIPT_TIMEOUT when shorter than 60 s", async () => {
    const { chatId } = newChat();
    await scriptRunner(chatId, [{ status: 200, body: outcomeOf(chatId, "test:1:x") }]);
    expect((await adminTest(chatId, { command: "true" }, runnerEnv({ DEFAULT_SCRIPT_TIMEOUT: "20" }))).status).toBe(200);
    expect((await runnerCalls(chatId))[0]!.body!.timeoutSeconds).toBe(20);
  });

  it("tells the model what a watcher with the script would do (tool action `test`)", async () => {
    const { chatId } = newChat();
    const silent = outcomeOf(chatId, "test:1:a", { status: "silent" });
    const output = outcomeOf(chatId, "test:1:b", { status: "output", stdout: "price 42\n" });
    const failed = outcomeOf(chatId, "test:1:c", { status: "failed", exitCode: 2, stderrTail: "jq: error\n" });
    await scriptRunner(chatId, [silent, output, failed].map((body) => ({ status: 200, body })));
    expect(await toolTest(chatId, { command: "true" })).toEqual({
      ok: true,
      text: "The script exited 0 and printed nothing: as a watcher it would stay silent. Nothing was scheduled.",
      data: { outcome: silent },
    });
    expect(await toolTest(chatId, { command: "echo price 42" })).toEqual({
      ok: true,
      text: "The script exited 0 and printed:\n```\nprice 42\n```\nAs a watcher it would wake the agent with this output. Nothing was scheduled.",
      data: { outcome: output },
    });
    expect(await toolTest(chatId, { command: "jq" })).toEqual({
      ok: true,
      text: "The script failed (exit 2); the end of its stderr:\n```\njq: error\n```\nAs a watcher it would alert the chat. Nothing was scheduled.",
      data: { outcome: failed },
    });
  });

  it("reports a runner that cannot be reached as a failed outcome that did not start", async () => {
    const { chatId } = newChat();
    const res = await adminTest(chatId, { command: "true" }, runnerEnv({ RUNNER_URL: "http://127.0.0.1:9" }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; exitCode: number | null; timedOut: boolean; stdout: string; stderrTail: string };
    expect(body).toMatchObject({ status: "failed", exitCode: null, timedOut: false, stdout: "" });
    expect(body.stderrTail).toMatch(/^did not start: the runner could not be reached \(.+\)$/);
  });

  it("refuses a bad body with one sentence, and answers 503 without a runner", async () => {
    const { chatId } = newChat();
    const bad = await adminTest(chatId, { command: "" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: "bad_request", message: '"command" must be a /bin/sh script of 1 to 8000 characters, such as "curl -s https://example.com/price".' } });
    const extra = await adminTest(chatId, { command: "true", name: "x" });
    expect(extra.status).toBe(400);
    const off = await adminTest(chatId, { command: "true" }, envWith());
    expect(off.status).toBe(503);
    expect(await off.json()).toEqual({
      error: { code: "not_configured", message: "Testing a watcher needs the runner: set RUNNER_SECRET to use the runner container, or RUNNER_URL and RUNNER_SECRET for a runner elsewhere (npm run dev starts one). Nothing was run." },
    });
    expect(await toolTest(chatId, { command: "true", timeoutSeconds: 0 })).toEqual({
      ok: false,
      text: '"timeoutSeconds" must be a whole number of seconds from 1 to 3600; a test stops after at most 60 s.',
    });
    expect(await runnerCalls(chatId)).toEqual([]);
  });
});

describe("with Telegram connected", () => {
  const bot = new TestBot("watchers");

  it("sends the alert to the chat once per streak, with the bot token redacted", async () => {
    const chat = await telegramChat(bot, "6100001");
    await setInstanceVars(chat.stub, runnerVars());
    const job = await createWatcher(chat.chatId, chat.stub, { name: "Bot" });
    const first = await fireWatcher(chat.stub, job, justDue() - 10 * MINUTE);
    await settleWith(chat.chatId, first, { status: "failed", exitCode: 2, stderrTail: `auth failed for ${bot.token}` });
    const calls = await delivered(bot, chat, 1);
    const text = `⚠️ Job "Bot" (${job.id}) failed (exit 2):\n\`\`\`\nauth failed for [REDACTED]\n\`\`\``;
    expect(calls).toHaveLength(1);
    expectReply(calls[0], chat.chatId, renderTelegramHtml(text));
    const second = await fireWatcher(chat.stub, job, justDue());
    await settleWith(chat.chatId, second, { status: "failed", exitCode: 2, stderrTail: "again" });
    expect(await delivered(bot, chat, 1)).toHaveLength(1);
    expect(chat.sent).toEqual([]);
  });

  it("N silent ticks make no Telegram call and send no prompt", async () => {
    const chat = await telegramChat(bot, "6100002");
    await setInstanceVars(chat.stub, runnerVars());
    const job = await createWatcher(chat.chatId, chat.stub, { cron: "*/10 * * * *" });
    const base = justDue() - 60 * MINUTE;
    for (let i = 0; i < 4; i++) await settleWith(chat.chatId, await fireWatcher(chat.stub, job, base + i * 10 * MINUTE), { status: "silent" });
    expect((await runnerCalls(chat.chatId)).filter((c) => c.method === "POST")).toHaveLength(4);
    expect(await bot.calls({ chatId: chat.chatId })).toEqual([]);
    expect(chat.sent).toEqual([]);
    expect(await transcript(chat.stub, chat.chatId)).toEqual([]);
  });
});
