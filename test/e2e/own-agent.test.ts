/**
 * The "your own agent" template (examples/own-agent/, issue 14 item 7) against the real Cuckoo under
 * `wrangler dev`: both Workers served together, Cuckoo without its own `prompts` consumer (as the template's
 * README says to deploy it) and with TOOLS_TOKEN set, the template consuming the queue over its service binding
 * with that token. A user's message and a due one-off each get the template's reply, once, through the run gate
 * and deliver; the one-off's run settles and it is gone. The configurations are the repository's own, with only
 * what a deploy changes: paths made absolute, Cuckoo's consumer block removed, the agent's token given.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker, waitFor } from "./harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TOKEN = "e2e-own-agent-token";
let dir: string;
let worker: Worker;

type Entry = { role: string; source: string; text: string; jobId?: string; runId?: string };

/** Cuckoo's wrangler.toml as a deploy with your own agent has it: no `prompts` consumer; paths made absolute. */
function cuckooConfig(): string {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const withoutConsumer = toml.replace(/\[\[queues\.consumers\]\]\nqueue = "prompts"\n[\s\S]*?(?=\n\[)/, "");
  if (withoutConsumer === toml) throw new Error("wrangler.toml has no prompts consumer block to remove");
  return withoutConsumer
    .replace(/^main = "(.*)"$/m, (_, p: string) => `main = "${path.join(root, p)}"`)
    .replace(/^migrations_dir = "(.*)"$/m, (_, p: string) => `migrations_dir = "${path.join(root, p)}"`)
    .replace(/"\.\/([^"]+)"/g, (_, p: string) => `"${path.join(root, p)}"`);
}

/** The template's wrangler.toml, with its main made absolute and, for this test only, its secret as a var. */
function agentConfig(): string {
  const dirOf = path.join(root, "examples", "own-agent");
  const toml = readFileSync(path.join(dirOf, "wrangler.toml"), "utf8");
  return `${toml.replace(/^main = "(.*)"$/m, (_, p: string) => `main = "${path.join(dirOf, p)}"`)}\n[vars]\nTOOLS_TOKEN = "${TOKEN}"\n`;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cuckoo-e2e-own-agent-"));
  writeFileSync(path.join(dir, "cuckoo.toml"), cuckooConfig());
  writeFileSync(path.join(dir, "agent.toml"), agentConfig());
  worker = await startWorker({ configs: [path.join(dir, "cuckoo.toml"), path.join(dir, "agent.toml")], vars: { TOOLS_TOKEN: TOKEN } });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function entries(chatId: string): Promise<Entry[]> {
  const res = await worker.send("GET", `/admin/chats/${chatId}/messages`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.messages as Entry[]).map(({ role, source, text, jobId, runId }) => ({
    role,
    source,
    text,
    ...(jobId ? { jobId } : {}),
    ...(runId ? { runId } : {}),
  }));
}

/** The transcript once it holds `n` bot entries, read again after a quiet spell (a second reply would show). */
async function afterReplies(chatId: string, n: number): Promise<Entry[]> {
  await waitFor(
    () => `fewer than ${n} bot entries in chat ${chatId}; wrangler's output ends:\n${worker.log()}`,
    async () => ((await entries(chatId)).filter((e) => e.role === "bot").length >= n ? true : undefined),
    30_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 700));
  return entries(chatId);
}

describe("the own-agent template as the prompts consumer", () => {
  it("answers a user's message through the run gate and deliver, once", async () => {
    const chatId = "700000201";
    const posted = await worker.send("POST", `/admin/chats/${chatId}/messages`, { text: "Hello, agent" });
    expect(posted.status, JSON.stringify(posted.body)).toBe(202);
    expect(await afterReplies(chatId, 1)).toEqual([
      { role: "user", source: "admin", text: "Hello, agent" },
      { role: "bot", source: "admin", text: "You wrote: Hello, agent" },
    ]);
  });

  it("answers a due one-off with its text, settles the run, and the one-off is gone", async () => {
    const chatId = "700000202";
    const at = new Date(Date.now() + 3_000).toISOString();
    const created = await worker.send("POST", `/admin/chats/${chatId}/jobs`, { name: "Stretch", kind: "prompt", at, text: "Time to stretch." });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = created.body.job as { id: string };
    const runId = `${job.id}:${Date.parse(at)}`;
    expect(await afterReplies(chatId, 1)).toEqual([{ role: "bot", source: "job", text: "Time to stretch.", jobId: job.id, runId }]);
    // Settled delivered: a one-off is deleted once its run is settled.
    await waitFor(
      () => `job ${job.id} still there; wrangler's output ends:\n${worker.log()}`,
      async () => ((await worker.send("GET", `/admin/chats/${chatId}/jobs/${job.id}`)).status === 404 ? true : undefined),
      10_000,
    );
  });

  it("is refused by Cuckoo without the token: the tool routes need TOOLS_TOKEN", async () => {
    const res = await fetch(`${worker.base}/tools/700000203/gate/next`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: "x" }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(401);
  });
});
