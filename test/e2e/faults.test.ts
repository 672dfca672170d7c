/**
 * The fault suite's end-to-end part (issues 12 and 22), with real processes: `wrangler dev` killed with SIGKILL
 * while prompts are in flight and served again on the same state (every due one-off and every user message
 * answered exactly once, within the re-send bounds); killed in the middle of a model turn, after a tool call
 * and during the next model call, and served again (the turn resumes after its recorded step when the gate's
 * lease runs out: the tool is not called again); the runner killed mid-script (one failure, the next run fine);
 * open dev mode refusing a request addressed to another host (DNS rebinding), through wrangler dev's own Host
 * handling; and a guesser of ADMIN_TOKEN stopped after 10 tries by the Rate Limiting binding as wrangler dev runs
 * it. The scenarios run side by side, each with its own Worker (the rebinding one on the tier's shared Worker);
 * those of crashes and leases divide their leases and re-send deadline by CUCKOO_DEV_SPEEDUP
 * (docs/agent.md#the-lease), so that they run in seconds: the gate's and a prompt's 10-minute lease is 20 s, the
 * 2 minutes to reach the gate 4 s, a watcher's 60 s of grace 2 s.
 */
import { request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startModelStub } from "../stub/model-stub.js";
import { sharedWorker, startWorker, type Worker, waitFor } from "./harness.js";
import { startRunner } from "./runner.js";

type Entry = { role: string; source: string; text: string; jobId?: string };

/** What the crash and lease scenarios divide their leases by (CUCKOO_DEV_SPEEDUP): the gate's and a prompt's lease, the offer deadline, a watcher's grace. */
const SPEEDUP = 30;
const LEASE_MS = (10 * 60_000) / SPEEDUP;
const OFFER_DEADLINE_MS = (2 * 60_000) / SPEEDUP;
const WATCHER_GRACE_S = 60 / SPEEDUP;

async function entries(worker: Worker, chatId: string): Promise<Entry[]> {
  const res = await worker.send("GET", `/admin/chats/${chatId}/messages?limit=500`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages as Entry[];
}

const botTexts = async (worker: Worker, chatId: string) => (await entries(worker, chatId)).filter((e) => e.role === "bot").map((e) => e.text);

/** Counts of each value. */
const tally = (values: string[]) => {
  const n: Record<string, number> = {};
  for (const v of values) n[v] = (n[v] ?? 0) + 1;
  return n;
};

describe.concurrent("faults with real processes", () => {
  it("answers every due one-off and user message exactly once after wrangler dev is killed mid-flight and restarted", { timeout: 180_000 }, async () => {
    const worker = await startWorker({ vars: { CUCKOO_DEV_SPEEDUP: String(SPEEDUP) } });
    try {
      const chats = ["700200001", "700200002"];
      const users = "700200003";
      const JOBS = 30;
      const due = Math.ceil((Date.now() + 15_000) / 1000) * 1000;
      for (const chatId of chats) {
        for (let i = 0; i < JOBS; i++) {
          const res = await worker.send("POST", `/admin/chats/${chatId}/jobs`, {
            name: `Job ${i}`,
            kind: "prompt",
            at: new Date(due).toISOString(),
            text: `Job ${i} of ${chatId}`,
          });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
        }
      }
      // Five user messages just before the jobs come due, then the kill 0.4 s after they did.
      await sleep(Math.max(0, due - 300 - Date.now()));
      for (let i = 0; i < 5; i++) expect((await worker.send("POST", `/admin/chats/${users}/messages`, { text: `hello ${i}` })).status).toBe(202);
      await sleep(Math.max(0, due + 400 - Date.now()));
      await worker.crash();
      await sleep(3_000);
      await worker.restart();

      // Within the re-send bounds (a lost prompt is sent again OFFER_DEADLINE_MS after it went out, at most 3
      // times), everything is answered, and answered once.
      const expected = (chatId: string) => Array.from({ length: JOBS }, (_, i) => `Job ${i} of ${chatId}`).sort();
      await waitFor(
        () => `not everything was answered after the restart:\n${worker.log()}`,
        async () => {
          const done = await Promise.all(chats.map(async (chatId) => (await botTexts(worker, chatId)).length >= JOBS));
          const answered = (await botTexts(worker, users)).length >= 5;
          return done.every(Boolean) && answered ? true : undefined;
        },
        4 * OFFER_DEADLINE_MS + 60_000,
        500,
      );
      await sleep(2_000);
      for (const chatId of chats) {
        expect((await botTexts(worker, chatId)).sort()).toEqual(expected(chatId));
        // Each one-off settled and was deleted: nothing is left scheduled or in flight.
        expect((await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs).toEqual([]);
      }
      const userReplies = await botTexts(worker, users);
      expect(userReplies).toHaveLength(5);
      expect(Object.values(tally((await entries(worker, users)).filter((e) => e.role === "user").map((e) => e.text)))).toEqual([1, 1, 1, 1, 1]);
    } finally {
      await worker.stop();
    }
  });

  it("resumes a model turn whose wrangler dev was killed during its second model call, after its tool call: the tool is not called again", {
    timeout: 180_000,
  }, async () => {
    const model = await startModelStub();
    const MODEL = "e2e-killed-mid-turn";
    const worker = await startWorker({ vars: { LLM_BASE_URL: `${model.url}/v1`, LLM_MODEL: MODEL, CUCKOO_DEV_SPEEDUP: String(SPEEDUP) } });
    try {
      const chatId = "700200006";
      const create = { name: "Killed once", kind: "prompt", delay: "PT2H", text: "Check that this exists once." };
      const script = [
        { kind: "tools", calls: [{ name: "schedule_create", arguments: create }] },
        // The second call hangs: the kill comes while the turn waits for it.
        { kind: "hang", ms: 60_000 },
        { kind: "text", content: "Resumed: it is set once." },
      ];
      const scripted = await fetch(`${model.url}/__stub/script`, {
        method: "POST",
        body: JSON.stringify({ model: MODEL, answers: script }),
        signal: AbortSignal.timeout(5_000),
      });
      expect(scripted.status).toBe(200);
      const requests = async () =>
        (
          (await (await fetch(`${model.url}/__stub/requests?model=${MODEL}`, { signal: AbortSignal.timeout(5_000) })).json()) as {
            requests: { messages: { role: string; content: string | null; tool_calls?: { function: { name: string; arguments: string } }[] }[] }[];
          }
        ).requests;
      expect((await worker.send("POST", `/admin/chats/${chatId}/messages`, { text: "remind me in two hours to check this" })).status).toBe(202);
      await waitFor(
        () => `the second model call never came:\n${worker.log()}`,
        async () => ((await requests()).length >= 2 ? true : undefined),
        60_000,
        200,
      );
      await worker.crash();
      await sleep(2_000);
      await worker.restart();

      // wrangler dev's queue loses the message its killed consumer held (Cloudflare's would deliver it again, and
      // that delivery would take the turn over at once: test/worker/faults.test.ts): the gate's lease (renewed
      // when the tool's result was recorded) runs out, the alarm sends the turn again and a consumer resumes it
      // after its recorded step.
      const bots = await waitFor(
        () => `the turn did not resume:\n${worker.log()}`,
        async () => {
          const texts = (await entries(worker, chatId)).filter((e) => e.role === "bot").map((e) => e.text);
          return texts.length > 0 ? texts : undefined;
        },
        LEASE_MS + 60_000,
        500,
      );
      expect(bots).toEqual(["Resumed: it is set once."]);
      const jobs = (await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs as { name: string }[];
      expect(jobs.map((j) => j.name)).toEqual(["Killed once"]);
      const all = await requests();
      expect(all).toHaveLength(3);
      const resumed = all[2]!.messages;
      expect(resumed.slice(-2).map((m) => m.role)).toEqual(["assistant", "tool"]);
      expect(resumed.at(-2)!.tool_calls!.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([["schedule_create", create]]);
      expect(JSON.parse(resumed.at(-1)!.content!)).toMatchObject({ ok: true, data: { job: { name: "Killed once" } } });
      expect((await entries(worker, chatId)).map((e) => e.role)).toEqual(["user", "prompt", "tool", "bot"]);
    } finally {
      await worker.stop();
      await model.close();
    }
  });

  it("reports a watcher whose runner was killed mid-script as one failure, and the next run is fine", { timeout: 120_000 }, async () => {
    const runner = await startRunner();
    const worker = await startWorker({
      vars: (base) => ({ RUNNER_URL: runner.url, RUNNER_SECRET: runner.secret, PUBLIC_URL: base, CUCKOO_DEV_SPEEDUP: String(SPEEDUP) }),
    });
    try {
      const chatId = "700200004";
      // The first run sleeps (and is killed with its runner); any later run finds the marker and is silent.
      const command = "[ -e started ] && exit 0; touch started; sleep 30";
      const created = await worker.send("POST", `/admin/chats/${chatId}/jobs`, {
        name: "Flaky",
        kind: "watcher",
        cron: "0 9 1 1 *",
        command,
        timeoutSeconds: 5,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.job.id as string;
      expect((await worker.send("POST", `/admin/chats/${chatId}/jobs/${id}/run`)).status).toBe(200);
      await waitFor("the script did not start", async () => {
        const health = (await (await fetch(`${runner.url}/healthz`)).json()) as { active: number };
        return health.active > 0 ? true : undefined;
      });
      await runner.crash();
      await runner.restart();

      // No outcome ever comes back: the run's lease (5 s + its grace) runs out and it fails, timed out, once.
      const job = await waitFor(
        () => `the run did not fail:\n${worker.log()}`,
        async () => {
          const got = (await worker.send("GET", `/admin/chats/${chatId}/jobs/${id}`)).body.job as {
            running: boolean;
            lastResult: { status: string; timedOut?: boolean } | null;
          };
          return !got.running && got.lastResult ? got : undefined;
        },
        30_000,
        500,
      );
      expect(job.lastResult).toMatchObject({ status: "failed", timedOut: true });
      expect(await botTexts(worker, chatId)).toEqual([`⚠️ Job "Flaky" (${id}) failed (timed out).`]);

      // The runner is back: the next run is silent, and nothing more reaches the chat.
      expect((await worker.send("POST", `/admin/chats/${chatId}/jobs/${id}/run`)).status).toBe(200);
      const after = await waitFor("the second run did not settle", async () => {
        const got = (await worker.send("GET", `/admin/chats/${chatId}/jobs/${id}`)).body.job as { running: boolean; lastResult: { status: string } | null };
        return !got.running && got.lastResult?.status !== "failed" ? got : undefined;
      });
      expect(after.lastResult).toMatchObject({ status: "silent" });
      expect(await botTexts(worker, chatId)).toHaveLength(1);
      const runs = (await worker.send("GET", `/admin/chats/${chatId}/jobs/${id}/runs`)).body.runs as { status: string; detail: string | null }[];
      expect(runs.map((r) => r.status)).toEqual(["silent", "failed"]);
      expect(runs[1]!.detail).toBe(`timed out: no outcome within 5 s + ${WATCHER_GRACE_S} s`);
    } finally {
      await worker.stop();
      await runner.stop();
    }
  });

  it("refuses a request addressed to another host in open dev mode (DNS rebinding), and answers localhost", { timeout: 120_000 }, async () => {
    const worker = await sharedWorker("dev");
    const { port } = new URL(worker.base);
    const get = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/admin/chats/700200005/jobs", headers: { Host: host } }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    const rebound = await get(`attacker.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual({
      error: {
        code: "forbidden",
        message: 'The open dev API answers only requests to localhost, 127.0.0.1 or [::1]; this one is addressed to "attacker.example".',
      },
    });
    expect((await get(`localhost:${port}`)).status).toBe(200);
    expect((await get(`127.0.0.1:${port}`)).status).toBe(200);
  });

  it("stops a guesser of ADMIN_TOKEN after 10 wrong tokens, the right one too, and no one else (issue 22)", { timeout: 120_000 }, async () => {
    const token = "admin-token-of-the-e2e-faults";
    const worker = await startWorker({ vars: { ADMIN_TOKEN: token } });
    try {
      // wrangler dev sets CF-Connecting-IP to the socket's address unless the request has one, as a proxy would.
      const signIn = async (tried: string, address?: string) => {
        const res = await fetch(`${worker.base}/admin/session`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: worker.base, ...(address ? { "CF-Connecting-IP": address } : {}) },
          body: JSON.stringify({ token: tried }),
          signal: AbortSignal.timeout(10_000),
        });
        return { status: res.status, retryAfter: res.headers.get("Retry-After"), code: ((await res.json()) as { error?: { code: string } }).error?.code };
      };
      // Its counts are by the wall clock's minute: all eleven tries within one.
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 15_000) await sleep(left + 100);
      for (let i = 1; i <= 10; i++)
        expect(await signIn(`guess-${i}`, "198.51.100.22"), `${i}\n${worker.log()}`).toEqual({ status: 401, retryAfter: null, code: "unauthorized" });
      expect(await signIn(token, "198.51.100.22")).toEqual({ status: 429, retryAfter: "60", code: "rate_limited" });
      expect(await signIn(token)).toEqual({ status: 200, retryAfter: null, code: undefined });
    } finally {
      await worker.stop();
    }
  });
});
