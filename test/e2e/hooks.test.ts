/**
 * Hooks end to end (issue 34, docs/hooks.md): the real Worker under `wrangler dev` and the real runner process. A
 * watcher only its hook runs reads each call's body on stdin and decides, silent or not, exactly as on a timer;
 * a mail to the hook's address, through wrangler dev's local email endpoint, runs a job with the mail as input,
 * once per Message-ID, and a mail to no hook is rejected with the sentence.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker, waitFor } from "./harness.js";
import { type Runner, sharedRunner } from "./runner.js";

type Run = { runId: string; status: string | null; via?: string };
let runner: Runner;
let worker: Worker;

beforeAll(async () => {
  runner = sharedRunner();
  worker = await sharedWorker("dev");
});

const logs = () => `wrangler:\n${worker.log()}\nrunner:\n${runner.log()}`;

/** The job's settled runs, oldest first, once there are `n`. */
async function settled(chatId: string, id: string, n: number): Promise<Run[]> {
  return waitFor(logs, async () => {
    const res = await worker.send("GET", `/admin/chats/${chatId}/jobs/${id}/runs`);
    const runs = (res.body.runs as Run[]).filter((r) => r.status !== null);
    return runs.length >= n ? runs.reverse() : undefined;
  });
}

describe("a watcher only its hook runs", () => {
  it("reads each call's body on stdin: silent for one, a match that wakes the agent for the other", async () => {
    const chatId = "8870001";
    const command = 'read line; case "$line" in *FAIL*) echo "alert: $line";; esac';
    const res = await worker.send("POST", `/admin/chats/${chatId}/jobs`, { name: "CI", kind: "watcher", trigger: "hook", command, timeoutSeconds: 20 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { job, hook } = res.body as { job: { id: string }; hook: { url: string; email: string } };
    expect(hook.url).toMatch(new RegExp(`^${worker.base}/hooks/[a-z2-7]{32}$`));
    const knock = (body: string) => fetch(hook.url, { method: "POST", headers: { "Content-Type": "text/plain" }, body, signal: AbortSignal.timeout(10_000) });
    expect((await knock("build 7 ok\n")).status).toBe(202);
    expect((await settled(chatId, job.id, 1)).map((r) => [r.status, r.via])).toEqual([["silent", "hook"]]);
    expect((await knock("build 8 FAIL\n")).status).toBe(202);
    const runs = await settled(chatId, job.id, 2);
    expect(runs.map((r) => [r.status, r.via])).toEqual([
      ["silent", "hook"],
      ["matched", "hook"],
    ]);
    const transcript = await worker.send("GET", `/admin/chats/${chatId}/messages`);
    const bot = (transcript.body.messages as { role: string; text: string }[]).filter((m) => m.role === "bot").map((m) => m.text);
    expect(bot).toHaveLength(1);
    expect(bot[0]).toContain("alert: build 8 FAIL");
  });
});

describe("a mail to a hook's address", () => {
  const mail = (to: string, id: string) =>
    [
      "From: Ada Lovelace <ada@example.com>",
      `To: ${to}`,
      "Subject: Build 9 failed",
      `Message-ID: <${id}@example.com>`,
      "Date: Mon, 7 Dec 2026 10:00:00 +0000",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "The tests of build 9 failed.",
      "",
    ].join("\r\n");
  const send = async (to: string, id: string) => {
    const url = `${worker.base}/cdn-cgi/local/email?from=ada@example.com&to=${encodeURIComponent(to)}`;
    const res = await fetch(url, { method: "POST", body: mail(to, id), signal: AbortSignal.timeout(10_000) });
    return { status: res.status, text: await res.text() };
  };

  it("runs the job with From, Subject and the text as its input, once per Message-ID; an unknown address is rejected", async () => {
    const chatId = "8870002";
    const res = await worker.send("POST", `/admin/chats/${chatId}/jobs`, { name: "Mail", kind: "prompt", trigger: "hook", text: "Read this mail." });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { job, hook } = res.body as { job: { id: string }; hook: { url: string; email: string } };
    expect(hook.email).toMatch(/^[a-z2-7]{32}@hooks\.example\.com$/);
    expect(await send(hook.email.toUpperCase(), "m1")).toEqual({ status: 200, text: "Worker successfully processed email" });
    const runs = await settled(chatId, job.id, 1);
    expect(runs.map((r) => [r.status, r.via])).toEqual([["delivered", "email"]]);
    const transcript = await worker.send("GET", `/admin/chats/${chatId}/messages`);
    const prompt = (transcript.body.messages as { role: string; text: string }[]).find((m) => m.role === "prompt")!.text;
    expect(prompt).toContain(
      "Read this mail.\n\nWoken by its hook (a mail to its address); the input:\nFrom: Ada Lovelace <ada@example.com>\nSubject: Build 9 failed\n\nThe tests of build 9 failed.",
    );
    // The same Message-ID again runs nothing.
    expect(await send(hook.email, "m1")).toEqual({ status: 200, text: "Worker successfully processed email" });
    const after = await worker.send("GET", `/admin/chats/${chatId}/jobs/${job.id}/runs`);
    expect(after.body.runs).toHaveLength(1);
    const unknown = await send(`${"a".repeat(32)}@hooks.example.com`, "m2");
    expect(unknown.status).not.toBe(200);
    expect(unknown.text).toContain("No hook at this address.");
  });
});
