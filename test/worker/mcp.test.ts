/**
 * MCP at `/mcp/:chatId` (docs/api.md#tools-for-agents, issues 13 and 16) with the SDK's own client, through the app: the seventeen
 * tools with their schemas, each callable with the same answers as the HTTP tools (text as content, `{ ok,
 * text, data }` as structured content), another chat's job id refused, and the access rules of the tools (a
 * token, when set, is required). Chat ids 8800000 up.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { app } from "../../src/http/app";
import { CREATE_FIELDS, TOOL_NAMES } from "../tool-names";
import { type Answer, envWith, toolReplyOf } from "./helpers";
import { runnerVars } from "./watcher-helpers";

let next = 8_800_000;

/** The SDK's client connected to `/mcp/<chatId>` of the app (no server: requests go to `app.request`). */
async function connect(chatId: string, testEnv: Env = envWith(runnerVars()), headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "cuckoo-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost/mcp/${chatId}`), {
    fetch: (url, init) => Promise.resolve(app.request(String(url), init, testEnv)),
    requestInit: { headers },
  });
  await client.connect(transport);
  return client;
}

/** One JSON-RPC request POSTed as an MCP client sends it (the server keeps no session), and its JSON answer. */
async function rpc(chatId: string, body: unknown): Promise<Answer> {
  const res = await app.request(
    `/mcp/${chatId}`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify(body),
    },
    envWith(runnerVars()),
  );
  return { status: res.status, body: await res.json() };
}

describe("MCP", () => {
  it("lists the seventeen tools with their descriptions and input schemas", async () => {
    const client = await connect(String(next++));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const create = tools.find((t) => t.name === "schedule_create")!;
    expect(create.description).toContain("Times are in the chat's time zone");
    expect(create.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
    expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual(CREATE_FIELDS);
    expect(tools.find((t) => t.name === "set_timezone")!.inputSchema).toMatchObject({ required: ["zone"] });
    expect(tools.find((t) => t.name === "memory_update")!.inputSchema).toMatchObject({ required: ["id", "revision"], additionalProperties: false });
    await client.close();
  });

  it("calls each tool with the HTTP tools' answers: text as content, { ok, text, data } as structured content", async () => {
    const chatId = String(next++);
    const client = await connect(chatId);
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      const structured = toolReplyOf(result);
      expect(result.content).toEqual([{ type: "text", text: structured.text }]);
      expect(result.isError ?? false).toBe(!structured.ok);
      return structured;
    };
    expect((await call("set_timezone", { zone: "Asia/Tokyo" })).text).toMatch(/^Time zone set to Asia\/Tokyo \(UTC\+09:00\)\. Now /);
    const created = await call("schedule_create", { name: "Stretch", kind: "prompt", delay: "PT2H", text: "Time to stretch." });
    expect(created).toMatchObject({ ok: true, data: { job: { name: "Stretch" } } });
    expect(created.text).toMatch(/^Created `[a-z2-9]{5}` 💬 Stretch · once /);
    const id = created.data!.job!.id;
    expect((await call("schedule_list")).data!.jobs!.map((j) => j.id)).toEqual([id]);
    expect((await call("schedule_preview", { cron: "0 9 * * 1-5" })).text).toMatch(/^every weekday at 09:00 \(/);
    expect(await call("schedule_pause", { id })).toMatchObject({ ok: true, text: `Paused ${id} (Stretch).` });
    expect((await call("schedule_resume", { id })).text).toMatch(new RegExp(`^Resumed ${id} \\(Stretch\\); next `));
    expect(await call("schedule_run_now", { id })).toMatchObject({ ok: true, text: `Running ${id} (Stretch) now.` });
    expect((await call("schedule_test", { command: "echo hi" })).ok).toBe(true);
    expect(await call("schedule_cancel", { id: id.toUpperCase() })).toMatchObject({ ok: true, text: `Cancelled ${id} (Stretch).` });
    await client.close();
  });

  it("refuses another chat's job id and bad arguments as ok: false, with the sentences of the tools", async () => {
    const mine = String(next++);
    const theirs = String(next++);
    const other = await connect(theirs);
    const theirJob = toolReplyOf(await other.callTool({ name: "schedule_create", arguments: { name: "Theirs", kind: "prompt", delay: "PT1H", text: "x" } }))
      .data!.job!;
    await other.close();
    const client = await connect(mine);
    const refused = await client.callTool({ name: "schedule_cancel", arguments: { id: theirJob.id } });
    expect(refused).toMatchObject({ isError: true, structuredContent: { ok: false, text: `No job ${theirJob.id} in this chat.` } });
    const bad = await client.callTool({ name: "schedule_create", arguments: { name: "x", kind: "prompt", cron: "61 * * * *", text: "y" } });
    expect(toolReplyOf(bad).text).toBe(
      'Invalid cron expression "61 * * * *": the minute field "61" has 61, outside 0–59; use 0–59, e.g. "0", "*/15" or "0,30".',
    );
    const unknown = await client.callTool({ name: "schedule_create", arguments: { name: "x", kind: "prompt", delay: "PT1H", text: "y", color: "red" } });
    expect(toolReplyOf(unknown).text).toBe('Unknown field "color".');
    await client.close();
  });

  it("requires TOOLS_TOKEN when it is set, and refuses a path that is not a chat id", async () => {
    const testEnv = envWith({ TOOLS_TOKEN: "mcp-token-123" });
    await expect(connect(String(next++), testEnv)).rejects.toThrow(/Send TOOLS_TOKEN as \\"Authorization: Bearer <token>\\"/);
    const client = await connect(String(next++), testEnv, { Authorization: "Bearer mcp-token-123" });
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    await client.close();
    const res = await app.request(
      "/mcp/not-a-chat",
      { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: "{}" },
      envWith(),
    );
    expect(res.status).toBe(400);
  });

  it("answers GET (and every method but POST) 405 with Allow: POST: a server without sessions opens no event stream", async () => {
    const chatId = String(next++);
    for (const method of ["GET", "DELETE", "PUT"]) {
      const res = await app.request(`/mcp/${chatId}`, { method, headers: { Accept: "text/event-stream", "Content-Type": "application/json" } }, envWith());
      expect(res.status, method).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
      expect(await res.json()).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: "This MCP server keeps no sessions: send each request as a POST." },
      });
    }
  });

  it("answers a malformed tools/call and an unknown tool with JSON-RPC -32602 and one sentence", async () => {
    const chatId = String(next++);
    const NAME = '"params.name" must be the name of a tool, as a string, such as "schedule_list"; tools/list lists them.';
    const ARGUMENTS = `"params.arguments" must be an object of the tool's arguments, such as {"id": "k7m2q"}, or left out.`;
    const cases: [unknown, string][] = [
      [{ name: 42, arguments: {} }, NAME],
      [{ arguments: {} }, NAME],
      [undefined, NAME],
      [{ name: "schedule_list", arguments: "all" }, ARGUMENTS],
      [{ name: "schedule_list", arguments: [1, 2] }, ARGUMENTS],
      [{ name: "schedule_list", arguments: null }, ARGUMENTS],
      [
        { name: "schedule_list", arguments: {}, task: 5 },
        'A tools/call request takes params { "name": "<tool>", "arguments": { … } }; this one does not follow MCP\'s schema.',
      ],
      [{ name: "schedule_lists", arguments: {} }, `There is no tool "schedule_lists"; the tools are ${TOOL_NAMES.join(", ")}.`],
    ];
    for (const [params, message] of cases) {
      const res = await rpc(chatId, { jsonrpc: "2.0", id: 7, method: "tools/call", ...(params === undefined ? {} : { params }) });
      expect(res, JSON.stringify(params)).toEqual({ status: 200, body: { jsonrpc: "2.0", id: 7, error: { code: -32602, message } } });
    }
    // A well-formed call in the same chat still works, and nothing was created by the malformed ones.
    const listed = await rpc(chatId, { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "schedule_list", arguments: {} } });
    expect(listed.body).toMatchObject({ result: { structuredContent: { ok: true, data: { jobs: [] } } } });
  });

  it("answers arguments that fail the tool's schema as a tool result with isError and one sentence", async () => {
    const chatId = String(next++);
    const res = await rpc(chatId, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "schedule_create", arguments: { name: 7, kind: "prompt" } } });
    expect(res.body).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: {
        content: [{ type: "text", text: '"name" must be a string such as "Inbox summary".' }],
        structuredContent: { ok: false, text: '"name" must be a string such as "Inbox summary".' },
        isError: true,
      },
    });
  });
});
