/**
 * The job-turn rule over HTTP and MCP (docs/api.md#tools-for-agents, issue 23): a tool call that carries a run's gate token in
 * `X-Cuckoo-Turn` has the rights of that turn, as the chat's object answers for the token. A job's or watcher's
 * turn has only what each tool's definition allows it (list, preview, memory, one follow-up one-off prompt,
 * marked `createdBy: "job"`), counted across its calls, concurrent ones too; a user's turn, and a call without
 * the header, have every tool; a token that does not hold the gate now is refused with one sentence. Chat ids
 * 9700000 up.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { app } from "../../src/http/app";
import { chatSettingsSchema } from "../../src/schemas/chats";
import type { Job } from "../../src/schemas/jobs";
import { take, userMessage } from "./agent-helpers";
import { chatIds, envWith, fireJob, jobsOf, must, queued, type Stub, send, spyQueue } from "./helpers";

const newChat = chatIds(9_700_000);

const JOB_TURN_REFUSAL =
  "A scheduled run cannot change the schedule: in a turn a job or watcher started, only list, preview and one follow-up one-off prompt (at or delay) are allowed.";
const NO_MORE_FOLLOW_UPS = "This turn may not create another job: a scheduled run creates at most one follow-up, and a follow-up's own run creates none.";
const NOT_THE_TURN =
  "X-Cuckoo-Turn does not name this chat's current turn: send the token the run gate gave for the prompt you are handling, while you handle it.";

type Reply = { ok: boolean; text: string; data?: { job?: Job & { createdBy: string } } };

/** `POST /tools/<chatId>/<tool>` with the turn's token (none when null). */
async function tool(chatId: string, path: "schedule" | "set_timezone", body: unknown, turn: string | null): Promise<Reply> {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...(turn === null ? {} : { "X-Cuckoo-Turn": turn }) };
  const res = await app.request(`/tools/${chatId}/${path}`, { method: "POST", headers, body: JSON.stringify(body) }, envWith());
  expect(res.status).toBe(200);
  return (await res.json()) as Reply;
}

const followUp = (name: string) => ({ action: "create", name, kind: "prompt", delay: "PT1H", text: `${name}.` });

/** A one-off prompt fired by the alarm, and the gate taken for its run: the turn's token. */
async function jobTurn(chatId: string, stub: Stub, name = "Check the news"): Promise<{ token: string; runId: string }> {
  await spyQueue(stub);
  const fired = await fireJob(chatId, stub, { name });
  return { token: await take(stub, fired.message), runId: fired.runId };
}

async function mcpClient(chatId: string, turn: string): Promise<Client> {
  const client = new Client({ name: "cuckoo-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost/mcp/${chatId}`), {
    fetch: (url, init) => Promise.resolve(app.request(String(url), init, envWith())),
    requestInit: { headers: { "X-Cuckoo-Turn": turn } },
  });
  await client.connect(transport);
  return client;
}

describe("X-Cuckoo-Turn: a job's turn over HTTP", () => {
  it("may list and preview, is refused what changes the schedule or runs a script, and makes one follow-up, marked job", async () => {
    const { chatId, stub } = newChat();
    const { token } = await jobTurn(chatId, stub);
    expect((await tool(chatId, "schedule", { action: "list" }, token)).ok).toBe(true);
    expect((await tool(chatId, "schedule", { action: "preview", cron: "0 9 * * 1-5" }, token)).ok).toBe(true);
    const [job] = await jobsOf({ chatId, stub });
    for (const body of [
      { action: "test", command: "echo hi" },
      { action: "cancel", id: job!.id },
      { action: "pause", id: job!.id },
      { action: "run_now", id: job!.id },
      { action: "create", name: "Spam", kind: "prompt", cron: "* * * * *", text: "Again!" },
      { action: "create", name: "Watch", kind: "watcher", delay: "PT1H", command: "echo x" },
    ]) {
      expect(await tool(chatId, "schedule", body, token), JSON.stringify(body)).toEqual({ ok: false, text: JOB_TURN_REFUSAL });
    }
    expect(await tool(chatId, "set_timezone", { zone: "Asia/Tokyo" }, token)).toEqual({ ok: false, text: JOB_TURN_REFUSAL });
    const made = await tool(chatId, "schedule", followUp("Follow up"), token);
    expect(made.ok, made.text).toBe(true);
    expect(made.data!.job!.createdBy).toBe("job");
    // The next request reads the turn's rights again: its one follow-up is made.
    expect(await tool(chatId, "schedule", followUp("Second"), token)).toEqual({ ok: false, text: NO_MORE_FOLLOW_UPS });
    expect((await jobsOf({ chatId, stub })).map((j) => [j.name, j.createdBy])).toEqual([
      ["Check the news", "admin"],
      ["Follow up", "job"],
    ]);
    expect((await must(stub.getSettings(chatId))).timeZone).toBe("UTC");
  });

  it("makes one follow-up when two creates of the turn come at once", async () => {
    const { chatId, stub } = newChat();
    const { token } = await jobTurn(chatId, stub);
    const replies = await Promise.all([tool(chatId, "schedule", followUp("First"), token), tool(chatId, "schedule", followUp("Second"), token)]);
    expect(replies.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(replies.find((r) => !r.ok)).toEqual({ ok: false, text: NO_MORE_FOLLOW_UPS });
    expect(await jobsOf({ chatId, stub })).toHaveLength(2);
  });

  it("gives a follow-up's own run no follow-up (no chains)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    const job = await must(stub.createJob(chatId, { name: "Chain", kind: "prompt", delay: "PT5M", text: "More." }, "job"));
    await stub.testAdvanceClock(Date.parse(job.nextRunAt!) - (await stub.testAdvanceClock(0)));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const message = (await queued(stub)).at(-1)!.body as PromptMessage;
    const token = await take(stub, message);
    expect(await tool(chatId, "schedule", followUp("Again"), token)).toEqual({ ok: false, text: NO_MORE_FOLLOW_UPS });
  });
});

describe("X-Cuckoo-Turn: whose turn", () => {
  it("gives a user's turn every tool, as a call without the header has", async () => {
    const { chatId, stub } = newChat();
    const message = userMessage(chatId, "1", "Set my zone");
    const token = await take(stub, message);
    expect((await tool(chatId, "set_timezone", { zone: "Asia/Tokyo" }, token)).ok).toBe(true);
    const made = await tool(chatId, "schedule", { action: "create", name: "Daily", kind: "prompt", cron: "0 8 * * *", text: "Hi." }, token);
    expect(made.data!.job!.createdBy).toBe("agent");
    expect((await tool(chatId, "set_timezone", { zone: "Europe/Berlin" }, null)).ok).toBe(true);
  });

  it("refuses a forged token, and the holder's token once its turn is over, with one sentence and nothing changed", async () => {
    const { chatId, stub } = newChat();
    const { token, runId } = await jobTurn(chatId, stub);
    expect(await tool(chatId, "schedule", { action: "list" }, "forged-token")).toEqual({ ok: false, text: NOT_THE_TURN });
    expect(await tool(chatId, "schedule", followUp("Forged"), "")).toEqual({ ok: false, text: NOT_THE_TURN });
    // Settled and released: the token holds nothing now.
    await must(stub.gateSettle(token, runId, "delivered"));
    expect(await tool(chatId, "schedule", { action: "list" }, token)).toEqual({ ok: false, text: NOT_THE_TURN });
    expect(await must(stub.gateNext(token))).toEqual({ message: null });
    expect(await tool(chatId, "set_timezone", { zone: "Asia/Tokyo" }, token)).toEqual({ ok: false, text: NOT_THE_TURN });
    expect(await jobsOf({ chatId, stub })).toEqual([]);
    expect((await send("GET", `/admin/chats/${chatId}/settings`).as(chatSettingsSchema())).body.timeZone).toBe("UTC");
  });
});

describe("X-Cuckoo-Turn over MCP", () => {
  it("applies the tools' declarations to a job's turn: a refusal and the follow-up are tool results", async () => {
    const { chatId, stub } = newChat();
    const { token } = await jobTurn(chatId, stub);
    const client = await mcpClient(chatId, token);
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })).structuredContent as Reply;
    expect(await call("schedule_test", { command: "echo hi" })).toEqual({ ok: false, text: JOB_TURN_REFUSAL });
    expect((await call("memory_create", { title: "Seen", body: "Checked once." })).ok).toBe(true);
    expect((await call("schedule_create", { name: "Later", kind: "prompt", delay: "PT1H", text: "Later." })).data!.job!.createdBy).toBe("job");
    expect(await call("schedule_create", { name: "More", kind: "prompt", delay: "PT2H", text: "More." })).toEqual({ ok: false, text: NO_MORE_FOLLOW_UPS });
    await client.close();
    const forged = await mcpClient(chatId, "forged-token");
    const refused = await forged.callTool({ name: "schedule_list", arguments: {} });
    expect(refused).toMatchObject({ isError: true, structuredContent: { ok: false, text: NOT_THE_TURN } });
    // Listing the tools needs no turn.
    expect((await forged.listTools()).tools.length).toBeGreaterThan(0);
    await forged.close();
    expect((await jobsOf({ chatId, stub })).map((j) => j.name)).toEqual(["Check the news", "Later"]);
  });
});
