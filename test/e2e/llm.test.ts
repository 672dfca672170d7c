/**
 * The model agent and MCP end to end (issue 13): the real Worker under `wrangler dev` with its real queue and
 * the built-in model agent pointed at the fake OpenAI-compatible model (test/stub/model-stub.ts, in this Node
 * process); and an outside agent using MCP with the SDK's own client over real HTTP.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelStub, startModelStub } from "../stub/model-stub.js";
import { TOOL_NAMES } from "../tool-names.js";
import { startWorker, type Worker, waitFor } from "./harness.js";

const MODEL = "e2e-model";
let model: ModelStub;
let worker: Worker;

beforeAll(async () => {
  model = await startModelStub();
  worker = await startWorker({ vars: { LLM_BASE_URL: `${model.url}/v1`, LLM_MODEL: MODEL, LLM_API_KEY: "sk-e2e-key-123" } });
});

afterAll(async () => {
  await worker?.stop();
  await model?.close();
});

async function script(answers: unknown[]): Promise<void> {
  const res = await fetch(`${model.url}/__stub/script`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ model: MODEL, answers }),
  });
  expect(res.status).toBe(200);
}

/** Tomorrow's date in UTC, `yyyy-MM-dd`. */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describe("the model agent under wrangler dev", () => {
  it("schedules, lists and cancels jobs by talking", async () => {
    const chatId = "700300001";
    const day = tomorrow();
    await script([
      {
        kind: "tools",
        calls: [
          {
            name: "schedule_create",
            arguments: { name: "Call the dentist", kind: "prompt", at: `${day}T09:00`, text: "Remind the user to call the dentist." },
          },
        ],
      },
      { kind: "text", content: "I will remind you tomorrow at 09:00." },
    ]);
    expect((await worker.send("POST", `/admin/chats/${chatId}/messages`, { text: "remind me tomorrow at 9 to call the dentist" })).status).toBe(202);
    const reply = async (n: number) =>
      waitFor(
        () => `no reply ${n}:\n${worker.log()}`,
        async () => {
          const messages = (await worker.send("GET", `/admin/chats/${chatId}/messages`)).body.messages as { role: string; text: string }[];
          const bots = messages.filter((m) => m.role === "bot");
          return bots.length >= n ? bots.map((m) => m.text) : undefined;
        },
      );
    expect(await reply(1)).toEqual(["I will remind you tomorrow at 09:00."]);
    const jobs = (await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs as { id: string; name: string; nextRunAt: string }[];
    expect(jobs.map((j) => [j.name, j.nextRunAt])).toEqual([["Call the dentist", `${day}T09:00:00.000Z`]]);

    await script([
      { kind: "tools", calls: [{ name: "schedule_cancel", arguments: { id: jobs[0]!.id } }] },
      { kind: "text", content: "Cancelled." },
    ]);
    await worker.send("POST", `/admin/chats/${chatId}/messages`, { text: "never mind, cancel it" });
    expect(await reply(2)).toEqual(["I will remind you tomorrow at 09:00.", "Cancelled."]);
    expect((await worker.send("GET", `/admin/chats/${chatId}/jobs`)).body.jobs).toEqual([]);
  });
});

describe("MCP under wrangler dev", () => {
  it("lists the nine scheduling tools and the five memory tools, and schedules through them with the SDK's client", async () => {
    const client = new Client({ name: "cuckoo-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${worker.base}/mcp/700300002`)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const created = await client.callTool({ name: "schedule_create", arguments: { name: "Stand up", kind: "prompt", cron: "0 9 * * 1-5", text: "Stand up." } });
    expect(created.isError ?? false).toBe(false);
    const listed = await client.callTool({ name: "schedule_list", arguments: {} });
    expect((listed.structuredContent as { data: { jobs: { name: string }[] } }).data.jobs.map((j) => j.name)).toEqual(["Stand up"]);
    await client.close();
  });
});
