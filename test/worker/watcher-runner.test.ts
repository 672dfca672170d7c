/**
 * A watcher's exchanges with the runner (docs/api.md, docs/watchers.md; issue 6), against the fake runner of
 * test/stub/runner-stub.ts: starting a run (refused, failing, busy, already started), the lease that turns a
 * lost run into "timed out", an outcome that overtakes the start's acknowledgement, the signed callback
 * route, an invalid runner var, and dry runs. Outcomes, cancel and erase: watchers.test.ts. Time
 * moves through the object's clock. Each test has its own chat (ids 6200000 up).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { STUB_RUNNER_SECRET } from "../stub/runner-stub";
import { advanceTo, alarmOf, call, captureLog, chatIds, clockOf, envWith, jobOf, MINUTE, must, noJobResult, type Stub, toAlarm, transcript } from "./helpers";
import {
  callback,
  createWatcher,
  fireWatcher,
  outcomeOf,
  runnerCalls,
  runnerEnv,
  runnerPosts,
  runOf,
  runState,
  scriptRunner,
  settleWith,
  UNREACHABLE,
  v1Header,
  withRunner,
} from "./watcher-helpers";

const newChat = chatIds(6_200_000);

const alertTexts = async (stub: Stub, chatId: string) => (await transcript(stub, chatId)).map((e) => e.text);
/** The runner's run id of a chat's run, as the first call to the runner carried it, less the chat. */
const firstRunId = async (chatId: string) => String((await runnerCalls(chatId))[0]!.body!.runId).slice(chatId.length + 1);

describe("leases and failures to start", () => {
  it("a run whose lease runs out with no outcome fails `timed out`, alerts, and the runner is told to stop it", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub, { name: "Lost", timeoutSeconds: 5 });
    const runId = await fireWatcher(chatId, stub, job);
    const lease = Date.parse((await runOf(chatId, stub, runId))!.startedAt!) + 5_000 + 60_000;
    expect(await alarmOf(stub)).toBe(lease);
    // A second before the lease runs out, the alarm leaves the run alone.
    await advanceTo(stub, lease - 1_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
    expect(await alarmOf(stub)).toBe(lease);

    await toAlarm(stub);
    expect(await runState(chatId, stub, runId)).toEqual({
      state: "settled",
      status: "failed",
      exitCode: null,
      timedOut: true,
      detail: "timed out: no outcome within 5 s + 60 s",
    });
    expect(await alertTexts(stub, chatId)).toEqual([`⚠️ Job "Lost" (${job.id}) failed (timed out).`]);
    await expect
      .poll(async () => (await runnerCalls(chatId)).filter((c) => c.method === "DELETE").map((c) => [c.path, c.signed]))
      .toEqual([[`/runs/${encodeURIComponent(`${chatId}:${runId}`)}`, true]]);
    // A late outcome changes nothing.
    await settleWith(chatId, runId, { status: "output", stdout: "late\n" });
    expect(await runState(chatId, stub, runId)).toMatchObject({ status: "failed" });
  });

  it("a runner that refuses the signature: `did not start` at once, with the reason", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [{ status: 401, body: { error: { code: "unauthorized", message: "bad signature" } } }]);
    const job = await createWatcher(chatId, stub, { name: "Keys" });
    const runId = await fireWatcher(chatId, stub, job);
    expect(await runState(chatId, stub, runId)).toEqual({
      state: "settled",
      status: "failed",
      exitCode: null,
      timedOut: false,
      detail: "did not start: the runner refused the signature; RUNNER_SECRET must be the same on both sides",
    });
    expect(await alertTexts(stub, chatId)).toEqual([
      `⚠️ Job "Keys" (${job.id}) failed (did not start):\n\`\`\`\nthe runner refused the signature; RUNNER_SECRET must be the same on both sides\n\`\`\``,
    ]);
    expect((await jobOf(stub, chatId, job.id)).lastResult).toMatchObject({ status: "failed", exitCode: null, timedOut: false });
  });

  it("an unreachable or failing runner is tried three times, then the run fails `did not start`", async () => {
    const { chatId, stub } = newChat();
    const logged = captureLog("error");
    await withRunner(stub);
    await scriptRunner(chatId, [
      { status: 503, body: { error: { code: "internal", message: "starting" } } },
      { status: 502, body: { error: { code: "internal", message: "bad gateway" } } },
      { status: 500, body: { error: { code: "internal", message: "it broke" } } },
    ]);
    const job = await createWatcher(chatId, stub, { name: "Down" });
    const due = Date.parse(job.nextRunAt!);
    const runId = await fireWatcher(chatId, stub, job);
    expect((await runState(chatId, stub, runId))!.state).toBe("claimed");
    expect(await runnerPosts(chatId)).toBe(1);
    // The retry waits 2.5–5 s (jittered) after the try, then 5–10 s: the alarm is armed for it.
    const retry = (await alarmOf(stub))!;
    expect(retry).toBeGreaterThanOrEqual(due + 2_500);
    expect(retry).toBeLessThanOrEqual((await clockOf(stub)) + 5_000);
    await toAlarm(stub);
    expect((await runState(chatId, stub, runId))!.state).toBe("claimed");
    expect(await runnerPosts(chatId)).toBe(2);
    const second = (await alarmOf(stub))!;
    expect(second).toBeGreaterThanOrEqual(retry + 5_000);
    expect(second).toBeLessThanOrEqual((await clockOf(stub)) + 10_000);
    await toAlarm(stub);
    expect(await runState(chatId, stub, runId)).toEqual({
      state: "settled",
      status: "failed",
      exitCode: null,
      timedOut: false,
      detail: "did not start: the runner answered 500: it broke",
    });
    expect(await runnerPosts(chatId)).toBe(3);
    expect((await alertTexts(stub, chatId)).map((text) => text.split("\n")[0])).toEqual([`⚠️ Job "Down" (${job.id}) failed (did not start):`]);
    expect(logged()).toEqual([
      `watcher run ${runId} did not start yet: the runner answered 503: starting`,
      `watcher run ${runId} did not start yet: the runner answered 502: bad gateway`,
    ]);
  });

  it("a busy runner (429) is waited for, beyond three tries, while the run can still finish within its lease", async () => {
    const { chatId, stub } = newChat();
    const logged = captureLog("error");
    await withRunner(stub);
    const busy = { status: 429, body: { error: { code: "too_many_requests", message: "8 runs are active." } } };
    await scriptRunner(chatId, [busy, busy, busy, busy]);
    const job = await createWatcher(chatId, stub, { name: "Busy", timeoutSeconds: 60 });
    const runId = await fireWatcher(chatId, stub, job);
    for (let i = 1; i <= 4; i++) {
      expect((await runState(chatId, stub, runId))!.state).toBe("claimed");
      expect(await runnerPosts(chatId)).toBe(i);
      await toAlarm(stub);
    }
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
    expect(await runnerPosts(chatId)).toBe(5);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(logged()).toEqual(Array<string>(4).fill(`watcher run ${runId} did not start yet: the runner answered 429: 8 runs are active.`));
  });

  it("a busy runner fails the run `did not start` once it could no longer finish within its lease", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [{ status: 429, body: { error: { code: "too_many_requests", message: "8 runs are active." } } }]);
    const job = await createWatcher(chatId, stub, { name: "Late", timeoutSeconds: 60 });
    // Fired 2 minutes after it was due: timeout 60 s + 60 s of grace are over.
    const runId = await fireWatcher(chatId, stub, job, { lateMs: 2 * MINUTE });
    expect(await runState(chatId, stub, runId)).toMatchObject({ status: "failed", detail: "did not start: the runner answered 429: 8 runs are active." });
  });

  it("a runner that already has the run (409, after a crash) counts as started", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await scriptRunner(chatId, [{ status: 409, body: { error: { code: "conflict", message: "already started" } } }]);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(chatId, stub, job);
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
  });
});

describe("an outcome that overtakes the runner's acknowledgement", () => {
  it("a match that arrives while the start is still being acknowledged is sent to the agent once", async () => {
    const { chatId, stub } = newChat();
    const logged = captureLog("log");
    const sent = await withRunner(stub);
    await scriptRunner(chatId, [{ status: 202, body: {}, delayMs: 400 }]);
    const job = await createWatcher(chatId, stub, { name: "Fast" });
    const running = stub.runJobNow(chatId, job.id);
    await expect.poll(() => runnerCalls(chatId)).toHaveLength(1);
    const runId = await firstRunId(chatId);
    await settleWith(chatId, runId, { status: "output", stdout: "fast\n" });
    await must(running);
    expect(sent.map((s) => (s.body as { key: string }).key)).toEqual([runId]);
    expect(sent[0]!.body).toMatchObject({ key: runId, source: "watcher", body: "fast\n" });
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
    // A prompt's deadline to reach the run gate (2 minutes), not the watcher's lease (300 s + 60 s): when it
    // passes, the prompt is sent again.
    const deadline = (await alarmOf(stub))! - (await clockOf(stub));
    expect(deadline).toBeGreaterThan(MINUTE);
    expect(deadline).toBeLessThanOrEqual(2 * MINUTE);
    await toAlarm(stub);
    expect(sent.map((s) => s.body)).toEqual([sent[0]!.body, sent[0]!.body]);
    expect(logged()).toEqual([`run ${runId} did not reach the run gate within 2 min; sending it again`]);
  });

  it("a match that arrives before the runner's refusal is kept: no `did not start`, no alert", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    await scriptRunner(chatId, [{ status: 401, body: { error: { code: "unauthorized", message: "x" } }, delayMs: 400 }]);
    const job = await createWatcher(chatId, stub);
    const running = stub.runJobNow(chatId, job.id);
    await expect.poll(() => runnerCalls(chatId)).toHaveLength(1);
    const runId = await firstRunId(chatId);
    await settleWith(chatId, runId, { status: "output", stdout: "first\n" });
    await must(running);
    expect(sent.map((s) => (s.body as { key: string }).key)).toEqual([runId]);
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
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
    // The job and its runs are gone: nothing is left to wake for.
    expect(await stub.jobRuns(chatId, job.id)).toEqual(noJobResult(job.id));
    expect(await alarmOf(stub)).toBeNull();
  });

  it("a silent outcome that arrives first settles the run, and the late acknowledgement changes nothing", async () => {
    const { chatId, stub } = newChat();
    const sent = await withRunner(stub);
    await scriptRunner(chatId, [{ status: 202, body: {}, delayMs: 400 }]);
    const job = await createWatcher(chatId, stub);
    const running = stub.runJobNow(chatId, job.id);
    await expect.poll(() => runnerCalls(chatId)).toHaveLength(1);
    const runId = await firstRunId(chatId);
    await settleWith(chatId, runId, { status: "silent" });
    await must(running);
    expect(await runState(chatId, stub, runId)).toEqual({ state: "settled", status: "silent", exitCode: 0, timedOut: false, detail: null });
    expect((await jobOf(stub, chatId, job.id)).running).toBe(false);
    expect(sent).toEqual([]);
  });
});

describe("the callback route", () => {
  it("refuses a forged callback with 401 and changes nothing", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(chatId, stub, job);
    const outcome = outcomeOf(chatId, runId, { status: "output", stdout: "forged\n" });
    // The Worker checks a signature's age on its own clock (the machine's), not on the chat's.
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
    expect((await runState(chatId, stub, runId))!.state).toBe("dispatched");
    expect(await transcript(stub, chatId)).toEqual([]);
    // A signature within the window is taken.
    const fresh = await callback(chatId, outcomeOf(chatId, runId), { nowMs: Date.now() - 290_000 });
    expect(fresh.status).toBe(204);
    expect((await runState(chatId, stub, runId))!.state).toBe("settled");
  });

  it("refuses a callback signed for chat A's path on chat B's path, though the outcome is B's", async () => {
    const a = newChat();
    const b = newChat();
    await withRunner(b.stub);
    const job = await createWatcher(b.chatId, b.stub);
    const runId = await fireWatcher(b.chatId, b.stub, job);
    const outcome = outcomeOf(b.chatId, runId, { status: "output", stdout: "replayed\n" });
    const replayed = await callback(b.chatId, outcome, { signFor: { target: `/runner/callback/${a.chatId}` } });
    expect(replayed.status).toBe(401);
    expect((await runState(b.chatId, b.stub, runId))!.state).toBe("dispatched");
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
    const runId = await fireWatcher(chatId, stub, job);
    expect(await runState(chatId, stub, runId)).toMatchObject({ status: "failed", detail: `did not start: ${sentence}` });
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

describe("dry runs: the tool action `test` and POST /admin/chats/:chatId/test", () => {
  const adminTest = (chatId: string, body: unknown, testEnv = runnerEnv()) =>
    call(`/admin/chats/${chatId}/test`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }, testEnv);
  const toolTest = async (chatId: string, body: Record<string, unknown>, testEnv = runnerEnv()) =>
    (
      await call(
        `/tools/${chatId}/schedule`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action: "test", ...body }) },
        testEnv,
      )
    ).json();

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
    // No job, no transcript entry, nothing to wake for.
    expect((await must(stub.listJobs(chatId))).jobs).toEqual([]);
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(await alarmOf(stub)).toBeNull();
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
    await scriptRunner(
      chatId,
      [silent, output, failed].map((body) => ({ status: 200, body })),
    );
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
    await scriptRunner(chatId, [UNREACHABLE]);
    const res = await adminTest(chatId, { command: "true" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; exitCode: number | null; timedOut: boolean; stdout: string; stderrTail: string };
    expect(body).toMatchObject({ status: "failed", exitCode: null, timedOut: false, stdout: "" });
    expect(body.stderrTail).toMatch(/^did not start: the runner could not be reached \(.+\)$/);
    expect(await runnerCalls(chatId)).toHaveLength(1);
  });

  it("refuses a bad body with one sentence, and answers 503 without a runner", async () => {
    const { chatId } = newChat();
    const bad = await adminTest(chatId, { command: "" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: "bad_request", message: '"command" must be a /bin/sh script of 1 to 8000 characters, such as "curl -s https://example.com/price".' },
    });
    const extra = await adminTest(chatId, { command: "true", name: "x" });
    expect(extra.status).toBe(400);
    const off = await adminTest(chatId, { command: "true" }, envWith());
    expect(off.status).toBe(503);
    expect(await off.json()).toEqual({
      error: {
        code: "not_configured",
        message:
          "Testing a watcher needs the runner: set RUNNER_SECRET to use the runner container, or RUNNER_URL and RUNNER_SECRET for a runner elsewhere (npm run dev starts one). Nothing was run.",
      },
    });
    expect(await toolTest(chatId, { command: "true", timeoutSeconds: 0 })).toEqual({
      ok: false,
      text: '"timeoutSeconds" must be a whole number of seconds from 1 to 3600; a test stops after at most 60 s.',
    });
    expect(await runnerCalls(chatId)).toEqual([]);
  });
});
