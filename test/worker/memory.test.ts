/**
 * Memory records (docs/api.md; issue 16) through the admin API and the memory tools (over MCP, the same code
 * the model calls): create at revision 1, list, read, update from the revision read (+1; a stale one is 409
 * `conflict` or `ok: false`, nothing written), delete (a read of the id is then 404), the limits (200 a chat,
 * a one-line title, a body of 16 KB), and ids that cannot exist. Chat ids 9600000 up.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { app } from "../../src/http/app";
import { type MemoryRecord, memoryListReply, memoryReply } from "../../src/schemas/memory";
import type { ToolReply } from "../../src/schemas/tools";
import { answerAs, badRequest, chatIds, clockOf, envWith, ISO_INSTANT, inObject, must, send, toolReplyOf } from "./helpers";

const newChat = chatIds(9_600_000);
const MEMORY_ID = /^[abcdefghjkmnpqrstuvwxyz23456789]{6}$/;
const base = (chatId: string) => `/admin/chats/${chatId}/memory`;
const conflict = (message: string) => ({ status: 409, body: { error: { code: "conflict", message } } });
const notFound = (id: string) => ({ status: 404, body: { error: { code: "not_found", message: `No memory record ${id} in this chat.` } } });

async function create(chatId: string, title: string, body: string): Promise<MemoryRecord> {
  const res = await send("POST", base(chatId), { title, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return answerAs(res, memoryReply()).body.record;
}

describe("the admin memory routes", () => {
  it("create at revision 1, read, list, update from the revision read, delete; a deleted id is 404", async () => {
    const { chatId, stub } = newChat();
    const record = await create(chatId, "  Project Alpha ", "Waiting for the **quote**.");
    expect(record).toStrictEqual({
      id: expect.stringMatching(MEMORY_ID),
      title: "Project Alpha",
      body: "Waiting for the **quote**.",
      revision: 1,
      updatedAt: expect.stringMatching(ISO_INSTANT),
    });
    expect(await send("GET", `${base(chatId)}/${record.id}`)).toEqual({ status: 200, body: { record } });

    // A second later on the chat's clock, so that the order by update time is the order of these steps.
    await stub.testAdvanceClock(1_000);
    const second = await create(chatId, "Groceries", "");
    await stub.testAdvanceClock(1_000);
    // The most recently updated first.
    expect((await send("GET", base(chatId))).body).toEqual({ records: [second, record] });

    const updated = await send("PATCH", `${base(chatId)}/${record.id}`, { revision: 1, body: "The quote came: 4,200 EUR." }).as(memoryReply());
    expect(updated.status).toBe(200);
    expect(updated.body.record).toMatchObject({ id: record.id, title: "Project Alpha", body: "The quote came: 4,200 EUR.", revision: 2 });
    const renamed = await send("PATCH", `${base(chatId)}/${record.id}`, { revision: 2, title: "Alpha" }).as(memoryReply());
    expect(renamed.body.record).toMatchObject({ title: "Alpha", body: "The quote came: 4,200 EUR.", revision: 3 });
    expect((await send("GET", base(chatId)).as(memoryListReply())).body.records.map((r) => r.id)).toEqual([record.id, second.id]);

    expect(await send("DELETE", `${base(chatId)}/${record.id}`)).toEqual({ status: 204, body: null });
    expect(await send("GET", `${base(chatId)}/${record.id}`)).toEqual(notFound(record.id));
    expect(await send("DELETE", `${base(chatId)}/${record.id}`)).toEqual(notFound(record.id));
    expect((await send("GET", base(chatId))).body).toEqual({ records: [second] });
  });

  it("refuses a stale revision with 409 conflict and writes nothing", async () => {
    const { chatId } = newChat();
    const record = await create(chatId, "Notes", "one");
    await send("PATCH", `${base(chatId)}/${record.id}`, { revision: 1, body: "two" });
    expect(await send("PATCH", `${base(chatId)}/${record.id}`, { revision: 1, body: "three" })).toEqual(
      conflict(
        `Memory record ${record.id} is at revision 2, not 1: it changed since you read it. Read it again (memory_get) and apply your change to the current text.`,
      ),
    );
    expect((await send("GET", `${base(chatId)}/${record.id}`).as(memoryReply())).body.record).toMatchObject({ body: "two", revision: 2 });
  });

  it("checks what it is given: a title on one line, a body of 16 KB, something to update", async () => {
    const { chatId } = newChat();
    expect(await send("POST", base(chatId), { title: "", body: "x" })).toEqual(
      badRequest('"title" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.'),
    );
    expect(await send("POST", base(chatId), { title: "a\nb", body: "x" })).toEqual(
      badRequest('"title" must not hold control characters or text-direction overrides (U+202A–U+202E, U+2066–U+2069).'),
    );
    expect(await send("POST", base(chatId), { title: "x".repeat(121), body: "x" })).toEqual(badRequest('"title" must be 1 to 120 characters long; got 121.'));
    expect(await send("POST", base(chatId), { title: "T" })).toEqual(badRequest('"body" is required, such as "Status: waiting for the quote.".'));
    expect(await send("POST", base(chatId), { title: "T", body: "x", color: "red" })).toEqual(badRequest('Unknown field "color".'));
    // 16 KB is bytes of UTF-8: 16,384 one-byte characters fit, 5,462 euro signs (16,386 bytes) do not.
    expect((await send("POST", base(chatId), { title: "Full", body: "x".repeat(16_384) })).status).toBe(201);
    expect(await send("POST", base(chatId), { title: "Euros", body: "€".repeat(5_462) })).toEqual(
      badRequest('"body" must be at most 16 KB (16384 bytes of UTF-8); it has 16386 bytes.'),
    );
    const record = await create(chatId, "T", "x");
    expect(await send("PATCH", `${base(chatId)}/${record.id}`, { revision: 1 })).toEqual(badRequest('Give "title", "body" or both: what the update changes.'));
    expect(await send("PATCH", `${base(chatId)}/${record.id}`, { body: "y" })).toEqual(
      badRequest('"revision" must be the whole number of the revision you read, such as 3.'),
    );
    expect(await send("PATCH", `${base(chatId)}/${record.id}`, { revision: 1.5, body: "y" })).toEqual(
      badRequest('"revision" must be the whole number of the revision you read, such as 3.'),
    );
    expect((await send("GET", base(chatId)).as(memoryListReply())).body.records).toHaveLength(2);
  });

  it("answers an id that cannot exist, or a job's id, like an unknown one", async () => {
    const { chatId } = newChat();
    expect(await send("GET", `${base(chatId)}/k7m2q`)).toEqual(notFound("k7m2q"));
    expect(await send("PATCH", `${base(chatId)}/m4x7pq`, { revision: 1, body: "x" })).toEqual(notFound("m4x7pq"));
    expect((await send("GET", "/admin/chats/abc/memory")).status).toBe(400);
  });

  it("keeps at most 200 records a chat", async () => {
    const { chatId, stub } = newChat();
    // Made inside the object, in one round trip from the test (not 200).
    await inObject(stub, async (chat) => {
      for (let i = 0; i < 200; i++) await must(chat.createMemory(chatId, { title: `Record ${i}`, body: "" }));
    });
    expect(await send("POST", base(chatId), { title: "One more", body: "" })).toEqual(
      badRequest("This chat already has 200 memory records (the limit); delete one first."),
    );
    const [first] = await must(stub.listMemory(chatId));
    await send("DELETE", `${base(chatId)}/${first!.id}`);
    expect((await send("POST", base(chatId), { title: "One more", body: "" })).status).toBe(201);
  });

  it("stamps updatedAt with the chat's clock", async () => {
    const { chatId, stub } = newChat();
    const record = await must(stub.createMemory(chatId, { title: "T", body: "" }));
    const later = await stub.testAdvanceClock(3_600_000);
    const updated = await must(stub.updateMemory(chatId, record.id, { revision: 1, body: "b" }));
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(later);
    expect(Date.parse(updated.updatedAt)).toBeLessThanOrEqual(await clockOf(stub));
  });
});

/** The SDK's MCP client on `/mcp/<chatId>` of the app; `call` answers the structured reply. */
async function mcp(chatId: string) {
  const client = new Client({ name: "cuckoo-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://localhost/mcp/${chatId}`), {
      fetch: (url, init) => Promise.resolve(app.request(String(url), init, envWith())),
    }),
  );
  return {
    call: async (name: string, args: Record<string, unknown> = {}): Promise<ToolReply> => toolReplyOf(await client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
}

describe("the memory tools", () => {
  it("create, list, get, update with the revision read, and delete, each answering a sentence and the record", async () => {
    const { chatId } = newChat();
    const tools = await mcp(chatId);
    expect(await tools.call("memory_list")).toEqual({ ok: true, text: "No memory records yet. memory_create makes one.", data: { records: [] } });
    const created = await tools.call("memory_create", { title: "Project Alpha", body: "Waiting for the quote." });
    const record = created.data!.record!;
    expect(created).toEqual({
      ok: true,
      text: `Created memory record ${record.id} "Project Alpha" (revision 1). A prompt job puts its current content into each run with memoryRefs: ["${record.id}"].`,
      data: { record },
    });
    const list = await tools.call("memory_list");
    expect(list.text).toMatch(
      new RegExp(
        `^\\*\\*Memory records\\*\\* \\(1\\), the most recently updated first:\\n\`${record.id}\` Project Alpha · revision 1 · updated \\d{2}:\\d{2} · 22 characters$`,
      ),
    );
    expect((await tools.call("memory_get", { id: record.id.toUpperCase() })).text).toMatch(
      new RegExp(`^Memory record ${record.id} "Project Alpha", revision 1, updated \\d{2}:\\d{2}:\\nWaiting for the quote\\.$`),
    );
    expect(await tools.call("memory_update", { id: record.id, revision: 1, body: "Quote: 4,200 EUR.", title: null })).toMatchObject({
      ok: true,
      text: `Updated memory record ${record.id} "Project Alpha": now revision 2.`,
      data: { record: { body: "Quote: 4,200 EUR.", revision: 2 } },
    });
    expect(await tools.call("memory_update", { id: record.id, revision: 1, body: "stale" })).toEqual({
      ok: false,
      text: `Memory record ${record.id} is at revision 2, not 1: it changed since you read it. Read it again (memory_get) and apply your change to the current text.`,
    });
    expect(await tools.call("memory_delete", { id: record.id })).toMatchObject({ ok: true, text: `Deleted memory record ${record.id} "Project Alpha".` });
    expect(await tools.call("memory_get", { id: record.id })).toEqual({ ok: false, text: `No memory record ${record.id} in this chat.` });
    expect(await tools.call("memory_get", { id: "k7m2q" })).toEqual({ ok: false, text: "No memory record k7m2q in this chat." });
    expect(await tools.call("memory_create", { title: "x" })).toEqual({ ok: false, text: '"body" is required, such as "Status: waiting for the quote.".' });
    await tools.close();
  });

  it("never reach another chat's records", async () => {
    const mine = newChat();
    const theirs = newChat();
    const record = await must(theirs.stub.createMemory(theirs.chatId, { title: "Theirs", body: "secret" }));
    const tools = await mcp(mine.chatId);
    expect(await tools.call("memory_get", { id: record.id })).toEqual({ ok: false, text: `No memory record ${record.id} in this chat.` });
    expect(await tools.call("memory_delete", { id: record.id })).toEqual({ ok: false, text: `No memory record ${record.id} in this chat.` });
    expect(await must(theirs.stub.getMemory(theirs.chatId, record.id))).toEqual(record);
    await tools.close();
  });

  it("say which jobs still refer to a deleted record", async () => {
    const { chatId, stub } = newChat();
    const record = await must(stub.createMemory(chatId, { title: "Alpha", body: "" }));
    const a = await must(stub.createJob(chatId, { name: "A", kind: "prompt", cron: "0 8 * * 1", text: "a", memoryRefs: [record.id] }, "admin"));
    const b = await must(stub.createJob(chatId, { name: "B", kind: "prompt", cron: "0 9 * * 1", text: "b", memoryRefs: [record.id] }, "admin"));
    await must(stub.createJob(chatId, { name: "C", kind: "prompt", cron: "0 9 * * 2", text: "c" }, "admin"));
    const tools = await mcp(chatId);
    expect((await tools.call("memory_delete", { id: record.id })).text).toBe(
      `Deleted memory record ${record.id} "Alpha". Jobs ${a.id} and ${b.id} still refer to it: their runs fail until their memoryRefs change.`,
    );
    await tools.close();
  });
});
