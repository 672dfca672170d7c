/**
 * The agent tools with rule jobs and jobs that end (docs/api.md#tools-for-agents): `schedule` create and preview over HTTP and MCP
 * take `rrule` + `start`, `until` and `runsLeft` (from the one job schema), and answer in words: the rule
 * described, what is left, the next runs stopping where the job ends. Dates are in the next year by the
 * machine's clock; the chats follow UTC. Chat ids 5210000 up.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { app } from "../../src/http/app";
import { toolReplySchema } from "../../src/schemas/tools";
import { envWith, send, toolReplyOf, UTC_NOW_LINE } from "./helpers";

let next = 5_210_000;
const year = new Date().getUTCFullYear() + 1;
/** The schedule tool over HTTP; it answers every call, refused or not, with the tools' reply (200). */
const schedule = (chatId: string, body: unknown) => send("POST", `/tools/${chatId}/schedule`, body).as(toolReplySchema());
const REVIEW = { name: "Review", kind: "prompt", text: "Review the sprint", rrule: "FREQ=DAILY;INTERVAL=3;COUNT=4", start: `${year}-01-05T09:00` };

async function connect(chatId: string): Promise<Client> {
  const client = new Client({ name: "cuckoo-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost/mcp/${chatId}`), {
    fetch: (url, init) => Promise.resolve(app.request(String(url), init, envWith())),
  });
  await client.connect(transport);
  return client;
}

describe("schedule over HTTP", () => {
  it("creates a rule job: the rule in words, its runs left, the next runs and the Now: line", async () => {
    const chatId = String(next++);
    const res = await schedule(chatId, { action: "create", ...REVIEW });
    expect(res.body.ok, res.body.text).toBe(true);
    const job = res.body.data!.job!;
    expect(job).toMatchObject({ category: "recurring", schedule: { rrule: "FREQ=DAILY;INTERVAL=3", start: `${year}-01-05T09:00` }, until: null, runsLeft: 4 });
    const lines = res.body.text.split("\n");
    expect(lines.slice(0, 2)).toEqual([
      `Created \`${job.id}\` 💬 Review · every 3 days at 09:00 starting ${year}-01-05 · next 5 Jan ${year} 09:00 · 4 runs left`,
      `Next runs: 5 Jan ${year} 09:00, 8 Jan ${year} 09:00, 11 Jan ${year} 09:00.`,
    ]);
    expect(lines[2]).toMatch(UTC_NOW_LINE);
    const listed = await schedule(chatId, { action: "list" });
    expect(listed.body.text.split("\n")[1]).toBe(
      `\`${job.id}\` 💬 Review · every 3 days at 09:00 starting ${year}-01-05 · next 5 Jan ${year} 09:00 · 4 runs left`,
    );
  });

  it("previews a rule that stops at until, and refuses an until on a one-off", async () => {
    const chatId = String(next++);
    const res = await schedule(chatId, { action: "preview", rrule: "FREQ=DAILY;INTERVAL=10", start: `${year}-01-05T10:00`, until: `${year}-01-31` });
    expect(res.body.ok, res.body.text).toBe(true);
    expect(res.body.data).toEqual({ occurrences: [`${year}-01-05T10:00:00.000Z`, `${year}-01-15T10:00:00.000Z`, `${year}-01-25T10:00:00.000Z`] });
    const lines = res.body.text.split("\n");
    expect(lines.slice(0, 2)).toEqual([
      `every 10 days at 10:00 until ${year}-01-31 starting ${year}-01-05 (UTC)`,
      `Next runs: 5 Jan ${year} 10:00, 15 Jan ${year} 10:00, 25 Jan ${year} 10:00.`,
    ]);
    expect(await schedule(chatId, { action: "preview", at: `${year}-01-05T10:00`, until: `${year}-01-31` })).toEqual({
      status: 200,
      body: { ok: false, text: `"until" applies only to recurring jobs (cron or rrule): a one-off runs once.` },
    });
    expect(await schedule(chatId, { action: "preview", start: `${year}-01-05T10:00`, cron: "0 9 * * *" })).toEqual({
      status: 200,
      body: { ok: false, text: `"start" goes with "rrule" only: it is a rule's first local date-time; for one time use "at".` },
    });
  });

  it("ends a cron job after runsLeft runs, as create says", async () => {
    const chatId = String(next++);
    const res = await schedule(chatId, { action: "create", name: "New year", kind: "prompt", text: "Hi", cron: "0 0 1 1 *", runsLeft: 2 });
    const lines = res.body.text.split("\n");
    // The next runs stop where the job would end: two of them.
    expect(lines[1]).toBe(`Next runs: 1 Jan ${year} 00:00, 1 Jan ${year + 1} 00:00.`);
  });
});

describe("schedule over MCP", () => {
  it("takes rrule, start and runsLeft in schedule_create, and until in schedule_preview", async () => {
    const client = await connect(String(next++));
    const created = await client.callTool({ name: "schedule_create", arguments: REVIEW });
    const reply = toolReplyOf(created);
    expect(reply.ok, reply.text).toBe(true);
    expect(reply.data!.job).toMatchObject({ schedule: { rrule: "FREQ=DAILY;INTERVAL=3", start: `${year}-01-05T09:00` }, runsLeft: 4 });
    expect(reply.text.split("\n")[0]).toMatch(/ · every 3 days at 09:00 starting \d{4}-01-05 · next 5 Jan \d{4} 09:00 · 4 runs left$/);
    const previewed = await client.callTool({
      name: "schedule_preview",
      arguments: { rrule: "FREQ=DAILY;INTERVAL=10", start: `${year}-01-05T10:00`, until: `${year}-01-20` },
    });
    expect(toolReplyOf(previewed).data).toEqual({ occurrences: [`${year}-01-05T10:00:00.000Z`, `${year}-01-15T10:00:00.000Z`] });
  });
});
