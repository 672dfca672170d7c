/**
 * The runner's container (src/runner-client/container.ts; docs/watchers.md "Production container", issue 7), without
 * Docker: the callback's outbound handler (a signed outcome from a chat's own container reaches that chat's
 * Durable Object; another chat, path or method is refused), the same handler reached through the library's
 * ContainerProxy as the container's requests are, the lifecycle decision (stay up while runs are active), and
 * the internet setting. Each test that touches a chat has its own (ids 7000000 up).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signatureHeader, signingTarget } from "../../src/contracts/runner";
import { CONTAINER_CALLBACK_HOST } from "../../src/runner-client/client";
import {
  answerWithoutStarting,
  internetAccess,
  type LifecycleInput,
  LONGEST_RUN_MS,
  lifecycleDecision,
  RunnerContainer,
  type RunnerHealth,
  routeCallback,
} from "../../src/runner-client/container";
import type { Job } from "../../src/schemas/jobs";
import { STUB_RUNNER_SECRET } from "../stub/runner-stub";
import { chatIds, envWith } from "./helpers";
import { createWatcher, fireWatcher, outcomeOf, runState, withRunner } from "./watcher-helpers";

const newChat = chatIds(7_000_000);
const SECRET = STUB_RUNNER_SECRET;
/** The Worker's env in container mode's callback path: the runner secret set. */
const workerEnv = () => envWith({ RUNNER_SECRET: SECRET });
/** The outbound handler's context for the container of `chatId`: its Durable Object's id. */
const containerOf = (chatId: string) => ({ containerId: env.RUNNER.idFromName(chatId).toString() });

/** A callback POST to `url` as the runner signs it (v2, for `url`'s path), or signed for `signedUrl`'s path. */
async function signedPost(url: string, outcome: unknown, secret = SECRET, signedUrl = url): Promise<Request> {
  const body = JSON.stringify(outcome);
  const signature = await signatureHeader(secret, { method: "POST", target: signingTarget(signedUrl), body }, Date.now() / 1000);
  return new Request(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Cuckoo-Signature": signature }, body });
}
const callbackUrl = (chatId: string) => `http://${CONTAINER_CALLBACK_HOST}/runner/callback/${chatId}`;

/** An accept function that records what reached it and answers 204. */
function recorder() {
  const seen: { chatId: string; body: string }[] = [];
  const accept = async (_env: Env, chatId: string, request: Request) => {
    seen.push({ chatId, body: await request.text() });
    return new Response(null, { status: 204 });
  };
  return { seen, accept };
}

describe("the callback's outbound handler", () => {
  it("takes a signed outcome from the chat's own container to the chat's Durable Object, which settles the run", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job: Job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(chatId, stub, job);
    expect((await runState(chatId, stub, runId))?.state).toBe("dispatched");

    const request = await signedPost(callbackUrl(chatId), outcomeOf(chatId, runId, { status: "silent" }));
    const res = await routeCallback(request, workerEnv(), containerOf(chatId));
    expect(res.status).toBe(204);
    expect(await runState(chatId, stub, runId)).toEqual({ state: "settled", status: "silent", exitCode: 0, timedOut: false, detail: null });
  });

  it("hands the chat id of the path and the request, untouched, to the Worker's callback", async () => {
    const { seen, accept } = recorder();
    const outcome = outcomeOf("7000901", "job1:1");
    const res = await routeCallback(await signedPost(callbackUrl("7000901"), outcome), workerEnv(), containerOf("7000901"), accept);
    expect(res.status).toBe(204);
    expect(seen).toEqual([{ chatId: "7000901", body: JSON.stringify(outcome) }]);
  });

  it("refuses with 403 a callback for another chat than the container's, even signed, and nothing reaches the Worker", async () => {
    const { seen, accept } = recorder();
    const request = await signedPost(callbackUrl("7000902"), outcomeOf("7000902", "job1:1"));
    const res = await routeCallback(request, workerEnv(), containerOf("7000903"), accept);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: { code: "forbidden", message: "This container may only call back for its own chat, not for 7000902." },
    });
    expect(seen).toEqual([]);
  });

  it("refuses with 403 when the Worker has no container binding to check the container against", async () => {
    const { seen, accept } = recorder();
    const request = await signedPost(callbackUrl("7000904"), outcomeOf("7000904", "job1:1"));
    const res = await routeCallback(request, envWith({ RUNNER_SECRET: SECRET, RUNNER: undefined }), containerOf("7000904"), accept);
    expect(res.status).toBe(403);
    expect(seen).toEqual([]);
  });

  for (const path of ["/", "/healthz", "/runner/callback", "/runner/callback/", "/runner/callback/7000905/extra", "/admin/chats/7000905/jobs"]) {
    it(`answers 404 for ${path}`, async () => {
      const { seen, accept } = recorder();
      const res = await routeCallback(await signedPost(`http://${CONTAINER_CALLBACK_HOST}${path}`, {}), workerEnv(), containerOf("7000905"), accept);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: "not_found", message: "Only POST /runner/callback/:chatId is served on callback.cuckoo.internal." } });
      expect(seen).toEqual([]);
    });
  }

  for (const method of ["GET", "PUT", "DELETE"]) {
    it(`answers 405 with Allow: POST for ${method}`, async () => {
      const { seen, accept } = recorder();
      const res = await routeCallback(new Request(callbackUrl("7000906"), { method }), workerEnv(), containerOf("7000906"), accept);
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
      expect(seen).toEqual([]);
    });
  }

  it("passes on the Worker's refusals: 401 for a wrong signature, 400 for another chat's outcome, and the run stays open", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    const job = await createWatcher(chatId, stub);
    const runId = await fireWatcher(chatId, stub, job);

    const forged = await routeCallback(await signedPost(callbackUrl(chatId), outcomeOf(chatId, runId), "not-the-secret"), workerEnv(), containerOf(chatId));
    expect(forged.status).toBe(401);
    const other = await routeCallback(await signedPost(callbackUrl(chatId), outcomeOf("7000999", runId)), workerEnv(), containerOf(chatId));
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { message: string } }).error.message).toBe(`The outcome is for chat 7000999, not ${chatId}.`);
    // An outcome of this chat, signed for another chat's path: the signature names its path.
    const replayed = await routeCallback(
      await signedPost(callbackUrl(chatId), outcomeOf(chatId, runId), SECRET, callbackUrl("7000999")),
      workerEnv(),
      containerOf(chatId),
    );
    expect(replayed.status).toBe(401);
    expect((await runState(chatId, stub, runId))?.state).toBe("dispatched");
  });

  it("is the handler the library routes the callback host to (registered, not shadowed by a static field)", () => {
    expect(Object.getOwnPropertyDescriptor(RunnerContainer, "outboundByHost")).toBeUndefined();
    expect(Object.keys(RunnerContainer.outboundByHost ?? {})).toEqual([CONTAINER_CALLBACK_HOST]);
  });
});

describe("a container's requests through ContainerProxy (the Worker's entrypoint for them)", () => {
  /** The entrypoint as the container of `chatId` gets it: per-host interception, internet on. */
  const proxyOf = (chatId: string) =>
    (exports as unknown as { ContainerProxy: (options: { props: Record<string, unknown> }) => Fetcher }).ContainerProxy({
      props: { className: "RunnerContainer", containerId: env.RUNNER.idFromName(chatId).toString(), enableInternet: true, interceptAll: false },
    });

  it("routes POST http://callback.cuckoo.internal/runner/callback/<own chat> to the Worker's callback", async () => {
    // The test Worker has no RUNNER_SECRET, so the callback's own 401 shows the request got that far.
    const request = await signedPost(callbackUrl("7000910"), outcomeOf("7000910", "job1:1"));
    const res = await proxyOf("7000910").fetch(request);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("refuses another chat's callback and any other path on the callback host", async () => {
    const other = await proxyOf("7000911").fetch(await signedPost(callbackUrl("7000912"), outcomeOf("7000912", "job1:1")));
    expect(other.status).toBe(403);
    const elsewhere = await proxyOf("7000911").fetch(`http://${CONTAINER_CALLBACK_HOST}/admin/chats`);
    expect(elsewhere.status).toBe(404);
  });
});

describe("the lifecycle decision, when the instance's activity timeout expires", () => {
  const NOW = Date.parse("2026-03-29T01:30:00Z");
  const MINUTE = 60_000;
  const answered = (active: number, callbacks = 0): RunnerHealth => ({ reached: true, active, callbacks });
  const silent: RunnerHealth = { reached: false, reason: "The operation was aborted due to timeout" };
  const at = (input: Partial<LifecycleInput> & { health: RunnerHealth }) =>
    lifecycleDecision({ nowMs: NOW, askedMs: NOW - 1_000, lastRequestMs: NOW - 5 * MINUTE, lastActiveMs: null, stopSentMs: null, ...input });

  it("stays up while the runner reports active runs", () => {
    expect(at({ health: answered(1) })).toEqual({ action: "stay", reason: "1 run(s) active" });
    expect(at({ health: answered(8), lastRequestMs: NOW - 55 * MINUTE })).toEqual({ action: "stay", reason: "8 run(s) active" });
  });

  it("stays up while outcomes are still being delivered, when the runner reports them", () => {
    expect(at({ health: answered(0, 2) })).toEqual({ action: "stay", reason: "2 outcome(s) still being delivered" });
  });

  it("stops (SIGTERM) when the runner reports no active run", () => {
    expect(at({ health: answered(0) })).toEqual({ action: "stop", reason: "no run active" });
  });

  it("stays up when a request reached the runner while it was being asked (a run may have started)", () => {
    expect(at({ health: answered(0), lastRequestMs: NOW - 1_000 })).toEqual({ action: "stay", reason: "a request reached the runner while it was asked" });
    expect(at({ health: answered(0), lastRequestMs: NOW - 500 }).action).toBe("stay");
  });

  it("stays up while the runner cannot be asked, until the longest run since the last sign of activity is over", () => {
    const lastRequestMs = NOW - 30 * MINUTE;
    const until = new Date(lastRequestMs + LONGEST_RUN_MS).toISOString();
    expect(at({ health: silent, lastRequestMs })).toEqual({
      action: "stay",
      reason: `the runner did not answer (The operation was aborted due to timeout); a run may last until ${until}`,
    });
    expect(at({ health: silent, lastRequestMs: NOW - LONGEST_RUN_MS + 1 }).action).toBe("stay");
    // A later report of active runs counts as the last sign of activity.
    expect(at({ health: silent, lastRequestMs: NOW - 2 * LONGEST_RUN_MS, lastActiveMs: NOW - 10 * MINUTE }).action).toBe("stay");
  });

  it("stops when the runner cannot be asked and no run can be going any more", () => {
    expect(at({ health: silent, lastRequestMs: NOW - LONGEST_RUN_MS, lastActiveMs: NOW - LONGEST_RUN_MS - MINUTE })).toEqual({
      action: "stop",
      reason: "the runner did not answer (The operation was aborted due to timeout) and no run can be going any more",
    });
  });

  it("kills (SIGKILL) a container that is idle and still running after it was asked to stop", () => {
    expect(at({ health: answered(0), stopSentMs: NOW - 5 * MINUTE })).toEqual({ action: "kill", reason: "no run active; still running after SIGTERM" });
    expect(at({ health: silent, lastRequestMs: NOW - 2 * LONGEST_RUN_MS, stopSentMs: NOW - 5 * MINUTE }).action).toBe("kill");
  });

  it("does not kill a container that reports active runs after it was asked to stop", () => {
    expect(at({ health: answered(2), stopSentMs: NOW - 5 * MINUTE })).toEqual({ action: "stay", reason: "2 run(s) active" });
  });
});

describe("internet access for scripts (RUNNER_INTERNET)", () => {
  it("is on by default and with 1, off only with 0", () => {
    expect(internetAccess(envWith({ RUNNER_INTERNET: undefined }))).toBe(true);
    expect(internetAccess(envWith({ RUNNER_INTERNET: "1" }))).toBe(true);
    expect(internetAccess(envWith({ RUNNER_INTERNET: "0" }))).toBe(false);
    expect(internetAccess(envWith({ RUNNER_INTERNET: " 0 " }))).toBe(false);
  });

  it("is declared on in wrangler.toml", () => {
    expect(env.RUNNER_INTERNET).toBe("1");
  });
});

describe("a request that must not start a sleeping instance", () => {
  it("answers a cancel 404 when the instance is not running, and proxies everything else", async () => {
    const del = (path: string) => new Request(`http://runner${path}`, { method: "DELETE" });
    const answer = answerWithoutStarting(del("/runs/1%3Aabcde%3A1"), false);
    expect(answer?.status).toBe(404);
    expect(await answer?.json()).toEqual({ error: { code: "not_found", message: "The runner is not running, so no run of it is." } });
    expect(answerWithoutStarting(del("/runs/1%3Aabcde%3A1"), true)).toBeNull();
    expect(answerWithoutStarting(new Request("http://runner/runs", { method: "POST", body: "{}" }), false)).toBeNull();
    expect(answerWithoutStarting(new Request("http://runner/runs?wait=1", { method: "POST", body: "{}" }), false)).toBeNull();
  });
});
