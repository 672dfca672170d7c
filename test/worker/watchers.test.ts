/**
 * Watchers in the chat's Durable Object (docs/api.md, docs/watchers.md; issue 6), against the fake runner of
 * test/stub/runner-stub.ts: the signed start request, every outcome (silent, matched, failed), the failure
 * streak, redaction, cancel and erase, run now, one-offs, and the invariant that a silent tick costs one
 * runner call and nothing else. Starts, leases, callbacks and dry runs: watcher-runner.test.ts. Time moves
 * through the object's clock. Each test has its own chat (ids 6000000 up).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { STUB_RUNNER_SECRET } from "../stub/runner-stub";
import { feed } from "./agent-helpers";
import {
  advanceTo,
  alarmOf,
  chatIds,
  clockOf,
  expectSpyInPlace,
  jobOf,
  must,
  noJobResult,
  queued,
  type Stub,
  setInstanceVars,
  toAlarm,
  transcript,
} from "./helpers";
import { expectReply, TestBot, telegramChat } from "./telegram-helpers";
import {
  createWatcher,
  fireWatcher,
  PUBLIC_URL,
  promptOf,
  runnerCalls,
  runnerPosts,
  runnerVars,
  runOf,
  runState,
  runsOldestFirst,
  scriptRunner,
  settleWith,
  withRunner,
} from "./watcher-helpers";

const newChat = chatIds(6_000_000);

const entries = async (stub: Stub, chatId: string) =>
  (await transcript(stub, chatId)).map((e) => ({ role: e.role, source: e.source, text: e.text, jobId: e.jobId, runId: e.runId }));
const alertLines = async (stub: Stub, chatId: string) => (await entries(stub, chatId)).filter((e) => e.source === "alert").map((e) => e.text.split("\n")[0]);

describe("a due watcher", () => {
  it("calls the runner once, signed, with run id <chatId>:<jobId>:<dueAt>, its command, timeout, zone and callback", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const job = await createWatcher(chatId, stub, { command: "echo $TZ", timeoutSeconds: 30 });
    const due = Date.parse(job.nextRunAt!);
    const runId = await fireWatcher(chatId, stub, job);
    expect(runId).toBe(`${job.id}:${due}`);

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
    const run = (await runOf(chatId, stub, runId))!;
    expect(run.state).toBe("dispatched");
    // The lease is the timeout plus 60 s, from the moment the runner took it: the alarm the object armed.
    const started = Date.parse(run.startedAt!);
    expect(started).toBeGreaterThanOrEqual(due);
    expect(started).toBeLessThanOrEqual(await clockOf(stub));
    expect(await alarmOf(stub)).toBe(started + 30_000 + 60_000);
    expect((await jobOf(stub, chatId, job.id)).running).toBe(true);
    // No queue message, no transcript entry: the agent is not involved.
    expect(sent).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual([]);
  });

  it("uses DEFAULT_SCRIPT_TIMEOUT when the job sets none", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub, { DEFAULT_SCRIPT_TIMEOUT: "45" });
    const job = await createWatcher(chatId, stub);
    await fireWatcher(chatId, stub, job);
    const [call] = await runnerCalls(chatId);
    expect(call!.body!.timeoutSeconds).toBe(45);
  });
});

describe("the outcome", () => {
  it("silent: only lastResult and history change; nothing is left to wake for but the next run", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(chatId, stub, job);
    const fired = await jobOf(stub, chatId, job.id);

    const before = await clockOf(stub);
    await settleWith(chatId, runId, { status: "silent", stdout: "  \n" });
    const after = await jobOf(stub, chatId, job.id);
    expect(after).toEqual({ ...fired, running: false, lastResult: after.lastResult });
    expect(after.lastResult).toMatchObject({ status: "silent", exitCode: 0, timedOut: false });
    expect(Date.parse(after.lastResult!.at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(after.lastResult!.at)).toBeLessThanOrEqual(await clockOf(stub));
    expect(await runState(chatId, stub, runId)).toEqual({ state: "settled", status: "silent", exitCode: 0, timedOut: false, detail: null });
    expect(sent).toEqual([]);
    await expectSpyInPlace(stub, sent);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(await alarmOf(stub)).toBe(Date.parse(after.nextRunAt!));
  });

  it("output: matched, one prompt with the output, in flight until the agent settles it", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Price" });
    const due = Date.parse(job.nextRunAt!);
    const runId = await fireWatcher(chatId, stub, job);

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
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
    expect((await jobOf(stub, chatId, job.id)).running).toBe(true);

    // The agent (the echo consumer) takes it: one bot message, the run settled matched.
    await feed([message]);
    expect(await runState(chatId, stub, runId)).toEqual({ state: "settled", status: "matched", exitCode: 0, timedOut: false, detail: null });
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
    const runId = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, runId, { status: "output", stdout: "hit\n" });
    await settleWith(chatId, runId, { status: "output", stdout: "hit\n" });
    await settleWith(chatId, runId, { status: "failed", exitCode: 2, stderrTail: "x" });
    expect(sent).toHaveLength(1);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
  });

  it("failed: an alert straight to the chat with the stderr tail in a code block; history and lastResult keep it", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Disk" });
    const runId = await fireWatcher(chatId, stub, job);
    const tail = Array.from({ length: 20 }, (_, i) => `line ${i + 11}`).join("\n");

    await settleWith(chatId, runId, { status: "failed", exitCode: 3, stderrTail: `${tail}\n` });
    expect(await entries(stub, chatId)).toEqual([
      { role: "bot", source: "alert", text: `⚠️ Job "Disk" (${job.id}) failed (exit 3):\n\`\`\`\n${tail}\n\`\`\``, jobId: job.id, runId },
    ]);
    expect(await runState(chatId, stub, runId)).toEqual({ state: "settled", status: "failed", exitCode: 3, timedOut: false, detail: "exit 3" });
    const after = await jobOf(stub, chatId, job.id);
    expect(after.lastResult).toMatchObject({ status: "failed", exitCode: 3, timedOut: false, stderrTail: tail });
    expect(after.running).toBe(false);
    expect(sent).toEqual([]);
  });

  it("failed by the runner's timeout: `failed (timed out)`", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Slow" });
    const runId = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, runId, { status: "failed", exitCode: null, timedOut: true, stderrTail: "" });
    expect((await entries(stub, chatId)).map((e) => e.text)).toEqual([`⚠️ Job "Slow" (${job.id}) failed (timed out).`]);
    expect(await runState(chatId, stub, runId)).toEqual({ state: "settled", status: "failed", exitCode: null, timedOut: true, detail: "timed out" });
  });
});

describe("the failure streak", () => {
  it("alerts once per streak: the same exit code is silent, another code or a timeout is reported, a success resets", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Feed", cron: "*/10 * * * *" });
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
    for (const step of steps) {
      const runId = await fireWatcher(chatId, stub, job);
      await settleWith(chatId, runId, step.fields);
      // With a stderr tail the alert's first line ends in a colon, the tail below it; without one, in a full stop.
      if (step.alert) expected.push(`⚠️ Job "Feed" (${job.id}) ${step.alert}${step.fields.stderrTail ? ":" : "."}`);
      if (step.fields.status === "output") await feed([await promptOf(stub, runId)]);
    }
    expect(await alertLines(stub, chatId)).toEqual(expected);
    expect((await runsOldestFirst(chatId, stub, job.id)).map((r) => r.status)).toEqual([
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
      "silent",
      "failed",
      "matched",
    ]);
  });
});

describe("after the agent failed on a match", () => {
  it("the next failure of the script is reported: the agent's failure is not the script's streak", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Agent" });
    const first = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, first, { status: "output", stdout: "hit\n" });
    await feed([await promptOf(stub, first)], "prompts-dlq");
    expect((await jobOf(stub, chatId, job.id)).lastResult).toMatchObject({ status: "failed" });
    await scriptRunner(chatId, [{ status: 401, body: { error: { code: "unauthorized", message: "x" } } }]);
    await fireWatcher(chatId, stub, job);
    expect(await alertLines(stub, chatId)).toEqual([
      `⚠️ The watcher "Agent" (${job.id}) could not be handled: the agent failed after several tries.`,
      `⚠️ Job "Agent" (${job.id}) failed (did not start):`,
    ]);
  });
});

describe("redaction", () => {
  it("replaces every secret the Worker holds with [REDACTED] in output, alerts and what the chat keeps", async () => {
    const { chatId, stub } = newChat();
    const admin = "admin-token-9d8c7b6a";
    const tools = "tools-token-1a2b3c4d";
    const sent = await withRunner(stub, { ADMIN_TOKEN: admin, TOOLS_TOKEN: tools });
    const job = await createWatcher(chatId, stub, { name: "Leaky" });
    const first = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, first, { status: "output", stdout: `secret=${STUB_RUNNER_SECRET} admin=${admin}\n` });
    const message = sent[0]!.body as { text: string; body: string };
    expect(message.body).toBe("secret=[REDACTED] admin=[REDACTED]\n");
    expect(message.text).toBe(`[Scheduled job "Leaky" (${job.id})] The watcher script printed:\nsecret=[REDACTED] admin=[REDACTED]\n`);
    await feed([message]);

    const second = await fireWatcher(chatId, stub, job);
    await settleWith(chatId, second, { status: "failed", exitCode: 1, stderrTail: `curl: token ${tools} rejected` });
    const alert = (await entries(stub, chatId)).find((e) => e.source === "alert")!;
    expect(alert.text).toBe(`⚠️ Job "Leaky" (${job.id}) failed (exit 1):\n\`\`\`\ncurl: token [REDACTED] rejected\n\`\`\``);
    expect(((await jobOf(stub, chatId, job.id)).lastResult as { stderrTail?: string }).stderrTail).toBe("curl: token [REDACTED] rejected");
    // Everything a client or the agent can read of the chat: its transcript, jobs, runs and queued prompts.
    const everything = JSON.stringify([await transcript(stub, chatId), await stub.listJobs(chatId), await stub.jobRuns(chatId, job.id), await queued(stub)]);
    expect(everything).toContain("[REDACTED]");
    for (const secret of [admin, tools, STUB_RUNNER_SECRET]) expect(everything).not.toContain(secret);
  });
});

describe("cancel", () => {
  it("kills a running watcher through the runner and discards its outcome", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(chatId, stub, job);
    await must(stub.cancelJob(chatId, job.id));
    const deletes = (await runnerCalls(chatId)).filter((c) => c.method === "DELETE");
    expect(deletes.map((c) => [c.path, c.signed])).toEqual([[`/runs/${encodeURIComponent(`${chatId}:${runId}`)}`, true]]);

    await settleWith(chatId, runId, { status: "output", stdout: "too late\n" });
    await settleWith(chatId, runId, { status: "failed", exitCode: 143, stderrTail: "Terminated" });
    expect(sent).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(await stub.jobRuns(chatId, job.id)).toEqual(noJobResult(job.id));
    expect((await must(stub.listJobs(chatId))).jobs).toEqual([]);
    expect(await alarmOf(stub)).toBeNull();
  });

  it("erasing the chat kills its running watchers", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const a = await createWatcher(chatId, stub, { name: "A" });
    const b = await createWatcher(chatId, stub, { name: "B" });
    // Both are due at the same instant: one alarm starts both.
    const due = Date.parse(a.nextRunAt!);
    expect(b.nextRunAt).toBe(a.nextRunAt);
    await advanceTo(stub, due);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runnerPosts(chatId)).toBe(2);
    await must(stub.erase(chatId));
    const deleted = (await runnerCalls(chatId))
      .filter((c) => c.method === "DELETE")
      .map((c) => decodeURIComponent(c.path))
      .sort();
    expect(deleted).toEqual([`/runs/${chatId}:${a.id}:${due}`, `/runs/${chatId}:${b.id}:${due}`].sort());
  });
});

describe("the watcher invariant", () => {
  it("N silent ticks: N runner calls and nothing else", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    const job = await createWatcher(chatId, stub, { cron: "*/10 * * * *" });
    const N = 5;
    for (let i = 0; i < N; i++) {
      const runId = await fireWatcher(chatId, stub, job);
      await settleWith(chatId, runId, { status: "silent" });
    }
    const calls = await runnerCalls(chatId);
    expect(calls.map((c) => [c.method, c.path, c.wait])).toEqual(Array.from({ length: N }, () => ["POST", "/runs", false]));
    expect(new Set(calls.map((c) => c.body!.runId)).size).toBe(N);
    expect(sent).toEqual([]);
    await expectSpyInPlace(stub, sent);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect((await runsOldestFirst(chatId, stub, job.id)).map((r) => r.status)).toEqual(Array.from({ length: N }, () => "silent"));
    // Nothing is pending but the next tick (no lease, no send).
    expect(await alarmOf(stub)).toBe(Date.parse((await jobOf(stub, chatId, job.id)).nextRunAt!));
  });
});

describe("run now and one-offs", () => {
  it("runs a watcher now as a manual run <jobId>:<now>; a second run now while it runs is refused", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const t0 = await clockOf(stub);
    const ran = await must(stub.runJobNow(chatId, job.id));
    expect(ran.running).toBe(true);
    const [call] = await runnerCalls(chatId);
    const runnerRunId = String(call!.body!.runId);
    const at = Number(runnerRunId.split(":")[2]);
    expect(runnerRunId).toBe(`${chatId}:${job.id}:${at}`);
    expect(at).toBeGreaterThanOrEqual(t0);
    expect(at).toBeLessThanOrEqual(await clockOf(stub));
    expect(await stub.runJobNow(chatId, job.id)).toEqual({
      ok: false,
      error: { code: "conflict", message: `Job ${job.id} is still running.`, said: { key: "stillRunning", args: [job.id] } },
    });
    await settleWith(chatId, `${job.id}:${at}`, { status: "silent" });
    const after = await jobOf(stub, chatId, job.id);
    expect(after).toMatchObject({ running: false, nextRunAt: job.nextRunAt, lastResult: { status: "silent" } });
    expect((await runsOldestFirst(chatId, stub, job.id)).map((r) => [r.manual, r.status])).toEqual([[true, "silent"]]);
  });

  it("deletes a one-off watcher after its run", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { delay: "PT5M" });
    const runId = await fireWatcher(chatId, stub, job);
    expect((await jobOf(stub, chatId, job.id)).running).toBe(true);
    await settleWith(chatId, runId, { status: "silent" });
    expect(await stub.getJob(chatId, job.id)).toEqual(noJobResult(job.id));
  });
});

describe("with Telegram connected", () => {
  const bot = new TestBot("watchers");

  it("sends the alert to the chat once per streak, with the bot token redacted", async () => {
    const chat = await telegramChat(bot, "6100001");
    await setInstanceVars(chat.stub, runnerVars());
    const job = await createWatcher(chat.chatId, chat.stub, { name: "Bot" });
    const first = await fireWatcher(chat.chatId, chat.stub, job);
    await settleWith(chat.chatId, first, { status: "failed", exitCode: 2, stderrTail: `auth failed for ${bot.token}` });
    // The alert waits in the outbox for the alarm the delivery armed.
    await toAlarm(chat.stub);
    const calls = await bot.sends(chat.chatId);
    expect(calls).toHaveLength(1);
    expectReply(calls[0], chat.chatId, renderTelegramHtml(`⚠️ Job "Bot" (${job.id}) failed (exit 2):\n\`\`\`\nauth failed for [REDACTED]\n\`\`\``));
    // The same exit code again sends nothing: the next message the chat gets is the alert of a new streak.
    await settleWith(chat.chatId, await fireWatcher(chat.chatId, chat.stub, job), { status: "failed", exitCode: 2, stderrTail: "again" });
    await settleWith(chat.chatId, await fireWatcher(chat.chatId, chat.stub, job), { status: "failed", exitCode: null, timedOut: true, stderrTail: "" });
    await toAlarm(chat.stub);
    const later = await bot.sends(chat.chatId);
    expect(later).toHaveLength(2);
    expectReply(later[1], chat.chatId, renderTelegramHtml(`⚠️ Job "Bot" (${job.id}) failed (timed out).`));
    expect(chat.sent).toEqual([]);
  });

  it("N silent ticks make no Telegram call and send no prompt: the chat's first call is a later failure's alert", async () => {
    const chat = await telegramChat(bot, "6100002");
    await setInstanceVars(chat.stub, runnerVars());
    const job = await createWatcher(chat.chatId, chat.stub, { name: "Tick", cron: "*/10 * * * *" });
    for (let i = 0; i < 4; i++) await settleWith(chat.chatId, await fireWatcher(chat.chatId, chat.stub, job), { status: "silent" });
    expect((await runnerCalls(chat.chatId)).filter((c) => c.method === "POST")).toHaveLength(4);
    expect(chat.sent).toEqual([]);
    expect(await transcript(chat.stub, chat.chatId)).toEqual([]);
    await settleWith(chat.chatId, await fireWatcher(chat.chatId, chat.stub, job), { status: "failed", exitCode: 1, stderrTail: "" });
    await toAlarm(chat.stub);
    const calls = await bot.calls({ chatId: chat.chatId });
    expect(calls.map((c) => c.method)).toEqual(["sendMessage"]);
    expectReply(calls[0], chat.chatId, renderTelegramHtml(`⚠️ Job "Tick" (${job.id}) failed (exit 1).`));
  });
});
