/**
 * Draining (what SIGTERM does, see main.test.ts for the real process): no new runs (503), `/healthz` says
 * so, the running runs finish and their outcomes are delivered, within the longest remaining timeout plus a
 * grace; and `killNow()`, for a second signal.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { type CallbackServer, eventually, isAlive, runRequest, startCallbackServer, startRunner, type TestRunner } from "./harness.ts";

let t: TestRunner | undefined;
let callbacks: CallbackServer | undefined;
afterEach(async () => {
  await t?.stop();
  await callbacks?.stop();
  t = callbacks = undefined;
});

const health = async () => (await t!.send("GET", "/healthz", undefined, { signature: null })).body;

it("refuses new runs with 503, lets the running one finish and delivers its outcome", async () => {
  callbacks = await startCallbackServer((attempt) => (attempt === 1 ? 500 : 204));
  t = await startRunner({ callback: { baseDelayMs: 100 } });
  await t.send("POST", "/runs", runRequest({ runId: "r-drained", command: "sleep 1; echo done", callbackUrl: callbacks.url }));
  let drained: boolean | undefined;
  const draining = t.runner.drain().then((result) => (drained = result));
  expect(t.runner.draining).toBe(true);
  expect(await health()).toEqual({ ok: true, active: 1, callbacks: 0, draining: true });
  const refused = {
    status: 503,
    body: { error: { code: "unavailable", message: "The runner is shutting down and takes no new runs; send the run again in a moment." } },
  };
  expect(await t.send("POST", "/runs", runRequest({ runId: "r-too-late" }))).toEqual(refused);
  expect(await t.send("POST", "/runs?wait=1", runRequest({ runId: "r-too-late-dry" }))).toEqual(refused);
  // A run id already seen is still answered as such: the Worker takes 409 as "started".
  expect((await t.send("POST", "/runs", runRequest({ runId: "r-drained" }))).status).toBe(409);
  // The first attempt fails; draining waits for the retry.
  expect(await eventually(() => callbacks!.received.length === 1)).toBe(true);
  expect(drained).toBeUndefined();
  expect(await draining).toBe(true);
  expect(callbacks.received).toHaveLength(2);
  expect(JSON.parse(callbacks.received[1]!.body)).toMatchObject({ runId: "r-drained", status: "output", stdout: "done\n" });
  expect(await health()).toEqual({ ok: true, active: 0, callbacks: 0, draining: true });
  expect(t.logs.some((line) => line.includes("r-too-late"))).toBe(false);
});

it("resolves at once when nothing is running", async () => {
  t = await startRunner();
  const started = Date.now();
  expect(await t.runner.drain()).toBe(true);
  expect(Date.now() - started).toBeLessThan(500);
});

it("gives up after the longest remaining timeout plus the grace, saying what was left", async () => {
  // An outcome that cannot be delivered within the bound: the first retry would come after 60 s.
  callbacks = await startCallbackServer(() => 500);
  t = await startRunner({ callback: { baseDelayMs: 60_000 }, drainGraceMs: 300 });
  await t.send("POST", "/runs", runRequest({ runId: "r-stuck", command: "true", timeoutSeconds: 1, callbackUrl: callbacks.url }));
  const started = Date.now();
  expect(await t.runner.drain()).toBe(false);
  // Bound: the run's timeout (1 s, from its start) + 300 ms.
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(t.logs.at(-1)).toMatch(/^draining gave up after \d+ ms: 0 run\(s\) still running, 1 outcome\(s\) still being delivered$/);
  expect(callbacks.received).toHaveLength(1);
});

it("kills every running group at once with killNow, without a grace period", async () => {
  t = await startRunner({ killGraceMs: 60_000 });
  // The shell ignores SIGTERM: only SIGKILL ends it within the test.
  await t.send("POST", "/runs", runRequest({ command: "trap '' TERM; echo $$ > pid; sleep 600" }));
  const pidFile = path.join(t.root, "123456789", "pid");
  let pid = 0;
  const readPid = () => {
    pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").trim()) : 0;
    return pid > 0;
  };
  expect(await eventually(readPid)).toBe(true);
  t.runner.killNow();
  expect(await eventually(() => !isAlive(pid), 2_000)).toBe(true);
  expect(await eventually(() => t!.runner.active === 0, 2_000)).toBe(true);
});
