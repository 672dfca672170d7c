/**
 * Callback runs (`POST /runs` → 202): the outcome POSTed to callbackUrl, signed afresh on every attempt and
 * retried on failure; none for a cancelled run or a dry run.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_CALLBACK_POLICY } from "../src/callback.ts";
import { parseOutcome, verify } from "../src/contract.ts";
import { type CallbackServer, eventually, runRequest, SECRET, startCallbackServer, startRunner, type TestRunner } from "./harness.ts";

let t: TestRunner | undefined;
let callbacks: CallbackServer | undefined;
afterEach(async () => {
  await t?.stop();
  await callbacks?.stop();
  t = callbacks = undefined;
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("callbacks", () => {
  it("retries a failing callback with a fresh signature on each attempt", async () => {
    // The clock moves 10 s each time the callback server is reached, so each attempt has its own t.
    let clock = 1_767_225_600_000;
    callbacks = await startCallbackServer((attempt) => {
      clock += 10_000;
      return attempt <= 2 ? 500 : 204;
    });
    t = await startRunner({ now: () => clock, callback: { baseDelayMs: 10 } });
    const request = runRequest({ runId: "r-callback", command: "echo found", callbackUrl: callbacks.url });
    expect(await t.send("POST", "/runs", request)).toEqual({ status: 202, body: { runId: "r-callback" } });
    expect(await eventually(() => callbacks!.received.length === 3)).toBe(true);
    await settle();
    expect(callbacks.received).toHaveLength(3);
    const start = 1_767_225_600;
    expect(callbacks.received.map((r) => r.signature.match(/^t=(\d+),/)?.[1])).toEqual([`${start}`, `${start + 10}`, `${start + 20}`]);
    for (const [i, { method, target, signature, body }] of callbacks.received.entries()) {
      // Signed for the request as it arrived: POST to the callback URL's path.
      expect([method, target]).toEqual(["POST", "/runner/callback/123456789"]);
      expect(await verify(SECRET, signature, { method, target, body }, start + 10 * i)).toEqual({ ok: true, t: start + 10 * i });
    }
    const outcome = JSON.parse(callbacks.received[0]!.body);
    expect(outcome).toEqual({
      runId: "r-callback",
      chatId: "123456789",
      status: "output",
      exitCode: 0,
      timedOut: false,
      stdout: "found\n",
      stderrTail: "",
      truncated: { stdout: false, stderr: false },
      startedAt: "2026-01-01T00:00:00.000Z",
      finishedAt: "2026-01-01T00:00:00.000Z",
    });
    expect(parseOutcome(outcome)).toEqual({ ok: true, value: outcome });
    expect(callbacks.received.every((r) => r.body === callbacks!.received[0]!.body)).toBe(true);
    expect(t.logs.filter((line) => line.startsWith("callback"))).toEqual([
      'callback for run "r-callback" failed (attempt 1 of 10): HTTP 500; retrying in 10 ms',
      'callback for run "r-callback" failed (attempt 2 of 10): HTTP 500; retrying in 20 ms',
    ]);
  });

  it("signs the callback URL's path and query as they are sent, percent-encoding kept", async () => {
    callbacks = await startCallbackServer();
    t = await startRunner();
    const callbackUrl = `${callbacks.url}?run=123%3Ak7m2q`;
    await t.send("POST", "/runs", runRequest({ runId: "r-target", callbackUrl }));
    expect(await eventually(() => callbacks!.received.length === 1)).toBe(true);
    const { method, target, signature, body } = callbacks.received[0]!;
    expect(target).toBe("/runner/callback/123456789?run=123%3Ak7m2q");
    const nowSeconds = Date.now() / 1000;
    expect(await verify(SECRET, signature, { method, target, body }, nowSeconds)).toMatchObject({ ok: true });
    // Not valid for another chat's path, nor without the query.
    expect(await verify(SECRET, signature, { method, target: "/runner/callback/987654321?run=123%3Ak7m2q", body }, nowSeconds)).toEqual({
      ok: false,
      problem: "mismatch",
    });
    expect(await verify(SECRET, signature, { method, target: "/runner/callback/123456789", body }, nowSeconds)).toEqual({ ok: false, problem: "mismatch" });
  });

  it("gives up after the last attempt", async () => {
    callbacks = await startCallbackServer(() => 503);
    t = await startRunner({ callback: { baseDelayMs: 1, maxAttempts: 3 } });
    await t.send("POST", "/runs", runRequest({ runId: "r-gives-up", callbackUrl: callbacks.url }));
    expect(await eventually(() => t!.logs.some((line) => line.includes("gave up")))).toBe(true);
    expect(callbacks.received).toHaveLength(3);
    expect(t.logs.at(-1)).toBe('callback for run "r-gives-up" gave up after 3 attempts: HTTP 503');
  });

  it("stops at an answer no retry can change (400, 404, 413) and keeps retrying a 401", async () => {
    callbacks = await startCallbackServer(() => 400);
    t = await startRunner({ callback: { baseDelayMs: 1, maxAttempts: 3 } });
    await t.send("POST", "/runs", runRequest({ runId: "r-refused", callbackUrl: callbacks.url }));
    expect(await eventually(() => t!.logs.some((line) => line.includes("not retried")))).toBe(true);
    await settle();
    expect(callbacks.received).toHaveLength(1);
    expect(t.logs.filter((line) => line.startsWith("callback"))).toEqual(['callback for run "r-refused" refused with HTTP 400; not retried']);
    expect(await t.send("GET", "/healthz")).toMatchObject({ status: 200, body: { callbacks: 0 } });
    await t.stop();
    await callbacks.stop();

    callbacks = await startCallbackServer((attempt) => (attempt === 1 ? 401 : 204));
    t = await startRunner({ callback: { baseDelayMs: 1, maxAttempts: 3 } });
    await t.send("POST", "/runs", runRequest({ runId: "r-rotating", callbackUrl: callbacks.url }));
    expect(await eventually(() => callbacks!.received.length === 2)).toBe(true);
  });

  it("retries when the callback host cannot be reached", async () => {
    callbacks = await startCallbackServer();
    const url = callbacks.url;
    await callbacks.stop();
    t = await startRunner({ callback: { baseDelayMs: 1, maxAttempts: 2 } });
    await t.send("POST", "/runs", runRequest({ runId: "r-unreachable", callbackUrl: url }));
    expect(await eventually(() => t!.logs.some((line) => line.includes("gave up")))).toBe(true);
    expect(t.logs.at(-1)).toMatch(/^callback for run "r-unreachable" gave up after 2 attempts: TypeError \(ECONNREFUSED\)$/);
    callbacks = undefined;
  });

  it("sends no callback for a cancelled run", async () => {
    callbacks = await startCallbackServer();
    t = await startRunner({ callback: { baseDelayMs: 1 }, killGraceMs: 200 });
    await t.send("POST", "/runs", runRequest({ runId: "r-cancelled", command: "sleep 30", callbackUrl: callbacks.url }));
    expect(t.runner.active).toBe(1);
    expect(await t.send("DELETE", "/runs/r-cancelled")).toEqual({ status: 204, body: null });
    expect(await eventually(() => t!.runner.active === 0)).toBe(true);
    await settle();
    expect(callbacks.received).toEqual([]);
    expect(t.logs.at(-1)).toMatch(/^run "r-cancelled" ended: failed, exit none, cancelled, \d+ ms$/);
    expect(await t.send("DELETE", "/runs/r-cancelled")).toMatchObject({ status: 404 });
  });

  it("answers a cancelled dry run with its outcome, marked cancelled", async () => {
    t = await startRunner({ killGraceMs: 200 });
    const answer = t.send("POST", "/runs?wait=1", runRequest({ runId: "r-dry-cancel", command: "echo started >&2; touch ready; sleep 30" }));
    expect(await eventually(() => existsSync(path.join(t!.root, "123456789", "ready")))).toBe(true);
    expect((await t.send("DELETE", "/runs/r-dry-cancel")).status).toBe(204);
    expect((await answer).body).toMatchObject({
      status: "failed",
      exitCode: null,
      timedOut: false,
      stderrTail: "started\nThe run was cancelled.",
    });
  });

  it("answers a dry run directly and calls nothing back", async () => {
    callbacks = await startCallbackServer();
    t = await startRunner({ callback: { baseDelayMs: 1 } });
    const { status, body } = await t.send("POST", "/runs?wait=1", runRequest({ runId: "r-dry", command: "echo dry", callbackUrl: callbacks.url }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ runId: "r-dry", status: "output", stdout: "dry\n" });
    await settle();
    expect(callbacks.received).toEqual([]);
  });

  it("counts an outcome still being delivered in /healthz until it is", async () => {
    callbacks = await startCallbackServer((attempt) => (attempt <= 3 ? 500 : 204));
    t = await startRunner({ callback: { baseDelayMs: 150 } });
    const health = async () => (await t!.send("GET", "/healthz", undefined, { signature: null })).body;
    await t.send("POST", "/runs", runRequest({ runId: "r-health", command: "echo found", callbackUrl: callbacks.url }));
    // Between the attempts (150, 300, 600 ms apart) the run is over but its outcome is not delivered.
    expect(await eventually(() => callbacks!.received.length === 1)).toBe(true);
    expect(await health()).toEqual({ ok: true, active: 0, callbacks: 1, draining: false });
    expect(t.runner.callbacks).toBe(1);
    expect(await eventually(() => callbacks!.received.length === 4)).toBe(true);
    expect(await eventually(async () => (await health()).callbacks === 0)).toBe(true);
    expect(await health()).toEqual({ ok: true, active: 0, callbacks: 0, draining: false });
  });

  it("counts a delivery that gave up as over", async () => {
    callbacks = await startCallbackServer(() => 500);
    t = await startRunner({ callback: { baseDelayMs: 1, maxAttempts: 2 } });
    await t.send("POST", "/runs", runRequest({ runId: "r-health-gives-up", callbackUrl: callbacks.url }));
    expect(await eventually(() => t!.logs.some((line) => line.includes("gave up")))).toBe(true);
    expect(t.runner.callbacks).toBe(0);
  });

  it("waits 1, 2, 4 … s between attempts, at most 60 s", () => {
    const delays = Array.from({ length: 9 }, (_, i) => backoffDelay(DEFAULT_CALLBACK_POLICY, i + 1) / 1000);
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });
});
