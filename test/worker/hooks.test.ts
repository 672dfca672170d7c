/**
 * Hooks (docs/hooks.md; issue 34) through the HTTP routes: a job's hook made, shown once and revoked; calls of
 * `POST /hooks/<token>` with and without `Idempotency-Key`, the answers of every refusal, calls that wait for the
 * run in flight, the hourly limit, a watcher's script given the input on stdin (against the fake runner), the
 * input cut, jobs only a hook runs, and the day's wake-ups. Chat ids 9800000 up.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { jsonBytes } from "../../src/contracts/runner";
import { HOOK_TOKEN } from "../../src/hooks/token";
import { call, chatIds, envWith, historyOf, jobOf, must, postJson, type Stub, setInstanceVars, spyQueue, transcript } from "./helpers";
import { runnerCalls, runnerEnv, settleWith, withRunner } from "./watcher-helpers";

const newChat = chatIds(9_800_000);
const NOW = Date.UTC(2030, 0, 7, 10, 0, 0);
const NO_HOOK = { error: { code: "not_found", message: "No hook at this address." } };

/** The chat's clock stopped at `at`, so that run ids are exact. */
const freeze = (stub: Stub, at = NOW) => stub.testFreezeClock(at);

/** A job made through the admin API, and its hook: the token from the URL the answer showed once. */
async function withHook(chatId: string, body: Record<string, unknown>, testEnv = envWith()): Promise<{ id: string; token: string; url: string }> {
  const created = await call(`/admin/chats/${chatId}/jobs`, postJson(body), testEnv);
  expect(created.status).toBe(201);
  const { job } = (await created.json()) as { job: { id: string } };
  const made = await call(`/admin/chats/${chatId}/jobs/${job.id}/hook`, postJson({}), testEnv);
  expect(made.status).toBe(201);
  const { url, email } = (await made.json()) as { url: string; email: string | null };
  expect(email).toBeNull();
  // On PUBLIC_URL when it is set (the runner's tests set it), else on the origin the request came to.
  const origin = testEnv.PUBLIC_URL ?? "http://localhost";
  const token = url.slice(`${origin}/hooks/`.length);
  expect(url.startsWith(`${origin}/hooks/`)).toBe(true);
  expect(token).toMatch(HOOK_TOKEN);
  return { id: job.id, token, url };
}

/** `POST /hooks/<token>` with a text body (or `init`'s). */
async function knock(token: string, body = "hello", headers: Record<string, string> = {}, testEnv = envWith()) {
  const res = await call(`/hooks/${token}`, { method: "POST", headers: { "Content-Type": "text/plain", ...headers }, body }, testEnv);
  return { status: res.status, retryAfter: res.headers.get("Retry-After"), body: res.status === 204 ? null : await res.json() };
}

const PROMPT = { name: "Deploys", kind: "prompt", cron: "0 9 1 1 *", text: "Tell me what was deployed." };

describe("a prompt job's hook", () => {
  it("runs the job with the body under the hook's line, once per Idempotency-Key, as a run `via: hook`", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await freeze(stub);
    const { id, token } = await withHook(chatId, PROMPT);
    expect(await jobOf(stub, chatId, id)).toMatchObject({ hook: true, category: "recurring" });

    expect(await knock(token, "v1.4 to production", { "Idempotency-Key": "d-1" })).toEqual({
      status: 202,
      retryAfter: null,
      body: { accepted: true, runId: `${id}:${NOW}` },
    });
    expect(sent).toHaveLength(1);
    const message = sent[0]!.body as { text: string; runId: string }[] | { text: string; runId: string } as { text: string; runId: string };
    expect(message.runId).toBe(`${id}:${NOW}`);
    expect(message.text).toBe(
      `[Scheduled job "Deploys" (${id})]\nTell me what was deployed.\n\nWoken by its hook (a call of its URL); the input:\nv1.4 to production`,
    );
    // The same key again: the first call's run, nothing sent.
    expect(await knock(token, "v1.4 to production", { "Idempotency-Key": "d-1" })).toEqual({
      status: 202,
      retryAfter: null,
      body: { accepted: true, runId: `${id}:${NOW}` },
    });
    expect(sent).toHaveLength(1);
    const [run] = await historyOf(stub, chatId, id);
    expect(run).toMatchObject({ runId: `${id}:${NOW}`, manual: false, via: "hook", state: "dispatched", late: false });
  });

  it("refuses what it cannot take: 404 for every unknown address, 409 paused, 415, 413, 400, and a revoked hook", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await freeze(stub);
    const { id, token } = await withHook(chatId, PROMPT);
    const unknown = "a".repeat(32);
    expect(await knock(unknown)).toEqual({ status: 404, retryAfter: null, body: NO_HOOK });
    expect(await knock("not-a-token")).toEqual({ status: 404, retryAfter: null, body: NO_HOOK });
    const get = await call(`/hooks/${token}`);
    expect([get.status, await get.json()]).toEqual([404, NO_HOOK]);
    const bare = await call("/hooks", { method: "POST" });
    expect([bare.status, await bare.json()]).toEqual([404, NO_HOOK]);
    const form = await call(`/hooks/${token}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect([form.status, await form.json()]).toEqual([
      415,
      {
        error: {
          code: "unsupported_media_type",
          message: "A hook takes JSON or text: send the body with Content-Type application/json or text/plain.",
        },
      },
    ]);
    expect(await knock(token, "x".repeat(64 * 1024 + 1))).toEqual({
      status: 413,
      retryAfter: null,
      body: { error: { code: "payload_too_large", message: "The body is larger than 64 KiB, the most a hook takes." } },
    });
    const notJson = await call(`/hooks/${token}`, postJson("{oops"));
    expect([notJson.status, await notJson.json()]).toEqual([
      400,
      {
        error: {
          code: "bad_request",
          message: "The body is not valid JSON; send JSON with Content-Type application/json, or text with text/plain.",
        },
      },
    ]);
    await must(stub.pauseJob(chatId, id));
    expect(await knock(token)).toEqual({ status: 409, retryAfter: null, body: { error: { code: "conflict", message: `Job ${id} is paused.` } } });
    await must(stub.resumeJob(chatId, id));
    const revoked = await call(`/admin/chats/${chatId}/jobs/${id}/hook`, { method: "DELETE" });
    expect(revoked.status).toBe(204);
    expect(await knock(token)).toEqual({ status: 404, retryAfter: null, body: NO_HOOK });
    expect(await jobOf(stub, chatId, id)).toMatchObject({ hook: false });
    expect(await historyOf(stub, chatId, id)).toEqual([]);
  });

  it("replaces the hook: the old address finds nothing, the new one runs the job", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await freeze(stub);
    const { id, token } = await withHook(chatId, PROMPT);
    const again = await call(`/admin/chats/${chatId}/jobs/${id}/hook`, postJson({}));
    const { url } = (await again.json()) as { url: string };
    const fresh = url.split("/").pop()!;
    expect(fresh).not.toBe(token);
    expect((await knock(token)).status).toBe(404);
    expect((await knock(fresh)).body).toEqual({ accepted: true, runId: `${id}:${NOW}` });
    expect(sent).toHaveLength(1);
  });

  it("counts against the day's wake-ups: past MAX_WAKEUPS_PER_DAY a call is recorded over budget, with one notice", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await setInstanceVars(stub, { MAX_WAKEUPS_PER_DAY: "1" });
    await freeze(stub);
    const a = await withHook(chatId, PROMPT);
    const b = await withHook(chatId, { ...PROMPT, name: "Builds" });
    expect((await knock(a.token)).status).toBe(202);
    expect((await knock(b.token)).body).toEqual({ accepted: true, runId: `${b.id}:${NOW}` });
    expect((await knock(b.token, "again", { "Idempotency-Key": "k2" })).status).toBe(202);
    expect(sent).toHaveLength(1);
    const runs = await historyOf(stub, chatId, b.id);
    expect(runs.map((r) => [r.status, r.detail])).toEqual([
      ["over_budget", "over the day's 1 wake-ups"],
      ["over_budget", "over the day's 1 wake-ups"],
    ]);
    const alerts = (await transcript(stub, chatId)).filter((e) => e.source === "alert").map((e) => e.text);
    expect(alerts).toEqual([
      `⚠️ Job "Builds" (${b.id}) was called by its hook, but this chat's jobs have already woken the agent 1 time today, the daily limit: such runs are recorded "over budget" and wake no one until tomorrow. The bot's owner can raise MAX_WAKEUPS_PER_DAY.`,
    ]);
  });
});

describe("a job only its hook runs", () => {
  it('is made with "trigger": "hook": no time of its own, category triggered, its hook in the create answer', async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await freeze(stub);
    const testEnv = envWith({ EMAIL_DOMAIN: "Hooks.Example.com" });
    const res = await call(`/admin/chats/${chatId}/jobs`, postJson({ name: "CI", kind: "prompt", text: "Look at the build.", trigger: "hook" }), testEnv);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { job: Record<string, unknown>; hook: { url: string; email: string } };
    expect(body.job).toMatchObject({ schedule: { trigger: "hook" }, category: "triggered", nextRunAt: null, hook: true, enabled: true });
    const token = body.hook.url.split("/").pop()!;
    expect(body.hook).toEqual({ url: `http://localhost/hooks/${token}`, email: `${token}@hooks.example.com` });
    const listed = await call(`/admin/chats/${chatId}/jobs?category=triggered`);
    expect(((await listed.json()) as { jobs: { id: string }[] }).jobs.map((j) => j.id)).toEqual([body.job.id]);
    const both = await call(`/admin/chats/${chatId}/jobs`, postJson({ name: "CI", kind: "prompt", text: "x", trigger: "hook", cron: "0 9 * * *" }));
    expect([both.status, await both.json()]).toEqual([
      400,
      {
        error: {
          code: "bad_request",
          message: '"trigger": "hook" takes the place of "at", "cron", "delay" and "rrule": give it alone, or give a time.',
        },
      },
    ]);
    const skip = await call(`/admin/chats/${chatId}/jobs/${body.job.id}/skip`, postJson({}));
    expect(await skip.json()).toEqual({
      error: { code: "bad_request", message: `${body.job.id} runs only when its hook is called, so it has no next run to skip.` },
    });
  });
});

describe("a watcher's hook", () => {
  it("hands the input to the script on stdin, and calls while a run is in flight wait their turn", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await freeze(stub);
    const testEnv = runnerEnv();
    const { id, token } = await withHook(chatId, { name: "Build", kind: "watcher", trigger: "hook", command: "grep FAIL || true" }, testEnv);
    expect((await knock(token, "build 7: ok", {}, testEnv)).body).toEqual({ accepted: true, runId: `${id}:${NOW}` });
    expect((await knock(token, "build 8: FAIL", {}, testEnv)).body).toEqual({ accepted: true, runId: `${id}:${NOW + 1}` });
    let posts = (await runnerCalls(chatId)).filter((c) => c.method === "POST");
    expect(posts.map((c) => c.body?.stdin)).toEqual(["build 7: ok"]);
    // The first run ends silent: the waiting call is started by the alarm that comes at once.
    await settleWith(chatId, `${id}:${NOW}`, { status: "silent", stdout: "" });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    posts = (await runnerCalls(chatId)).filter((c) => c.method === "POST");
    expect(posts.map((c) => c.body?.stdin)).toEqual(["build 7: ok", "build 8: FAIL"]);
    const runs = await historyOf(stub, chatId, id);
    expect(runs.map((r) => [r.runId, r.via, r.status])).toEqual([
      [`${id}:${NOW + 1}`, "hook", null],
      [`${id}:${NOW}`, "hook", "silent"],
    ]);
  });

  it("takes at most 20 waiting calls, then 429 with Retry-After; and at most 60 an hour", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await freeze(stub);
    const testEnv = runnerEnv();
    const { id, token } = await withHook(chatId, { name: "Build", kind: "watcher", trigger: "hook", command: "cat" }, testEnv);
    for (let i = 0; i <= 20; i++) expect((await knock(token, `call ${i}`, {}, testEnv)).status).toBe(202);
    expect(await knock(token, "one more", {}, testEnv)).toEqual({
      status: 429,
      retryAfter: "60",
      body: { error: { code: "rate_limited", message: `Job ${id} already has 20 calls waiting for its run in flight; try again later.` } },
    });
    // The hour: 21 accepted at NOW; 39 more remembered behind the object's back, the oldest 20 minutes before.
    await runInDurableObject(stub, (_instance, state) => {
      for (let i = 0; i < 39; i++) state.storage.sql.exec("INSERT INTO hook_calls (job_id, at, run_id) VALUES (?, ?, ?)", id, NOW - 20 * 60_000, `${id}:x${i}`);
    });
    expect(await knock(token, "sixty-first", {}, testEnv)).toEqual({
      status: 429,
      retryAfter: String(40 * 60),
      body: { error: { code: "rate_limited", message: `Job ${id}'s hook took 60 calls in the last hour, its limit; try again later.` } },
    });
    // A replayed key is not a new call: it is answered under the limit too.
    expect(await stub.testAdvanceClock(0)).toBe(NOW);
  });

  it("cuts an input over 48 KiB (as JSON encodes it) at a line end and says how large it was", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await freeze(stub);
    const testEnv = runnerEnv();
    const { token } = await withHook(chatId, { name: "Logs", kind: "watcher", trigger: "hook", command: "tail -n 1" }, testEnv);
    // 1,000 lines of 60 bytes, each with a quote JSON writes as two bytes: 60,000 bytes, 61,000 once encoded.
    const line = `${"x".repeat(50)}"${"y".repeat(8)}`;
    const body = Array.from({ length: 1000 }, () => line).join("\n");
    expect((await knock(token, body, {}, testEnv)).status).toBe(202);
    const [post] = (await runnerCalls(chatId)).filter((c) => c.method === "POST");
    const stdin = String(post!.body?.stdin);
    const lines = stdin.split("\n");
    expect(lines.at(-1)).toBe("[input cut: 59 KB in all]");
    expect(lines.slice(0, -1).every((l) => l === line)).toBe(true);
    // Measured as the runner measures stdin: JSON, quotes included.
    const encoded = jsonBytes(stdin);
    expect(encoded).toBeLessThanOrEqual(48 * 1024);
    // Every whole line that fits is kept: one more would not.
    expect(encoded + 62).toBeGreaterThan(48 * 1024);
  });
});
