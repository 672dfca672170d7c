/**
 * @module The admin memory routes (`/admin/chats/:chatId/memory…`, docs/api.md; issue 16): the chat's
 * memory records listed, created, read, updated with the revision read (409 `conflict` when it is stale) and
 * deleted. Bodies are checked at the edge with the memory schemas, everything else asked of the chat's
 * Durable Object. Mounted under `/admin/chats/:chatId`, behind ADMIN_TOKEN.
 */
import { type Context, Hono } from "hono";
import { MEMORY_ID, shown } from "../contracts/ids";
import { noMemoryText } from "../jobs/memory";
import { MEMORY_LIMITS, type MemoryRecord, memoryCreateInput, memoryUpdateInput } from "../schemas/memory";
import { readJson } from "./body";
import { chatIdOf, chatStub, noBody, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";

export const memory = new Hono<AppEnv>();

/** The record id of the path; one that cannot exist is answered like an unknown one, without the object. */
function memoryIdOf(c: Context<AppEnv>): string {
  const id = c.req.param("memoryId") ?? "";
  if (!MEMORY_ID.test(id)) throw new ApiError("not_found", noMemoryText(shown(id)));
  return id;
}

memory.get("/", async (c) => {
  const chatId = chatIdOf(c);
  const records: MemoryRecord[] = unwrap(await chatStub(c.env, chatId).listMemory(chatId));
  return c.json({ records }, 200);
});

memory.post("/", async (c) => {
  const chatId = chatIdOf(c);
  const input = await readJson(c, memoryCreateInput());
  const record: MemoryRecord = unwrap(await chatStub(c.env, chatId).createMemory(chatId, input));
  return c.json({ record }, 201);
});

memory.get("/:memoryId", async (c) => {
  const chatId = chatIdOf(c);
  const id = memoryIdOf(c);
  const record: MemoryRecord = unwrap(await chatStub(c.env, chatId).getMemory(chatId, id));
  return c.json({ record }, 200);
});

memory.patch("/:memoryId", async (c) => {
  const chatId = chatIdOf(c);
  const id = memoryIdOf(c);
  const input = await readJson(c, memoryUpdateInput());
  const record: MemoryRecord = unwrap(await chatStub(c.env, chatId).updateMemory(chatId, id, input));
  return c.json({ record }, 200);
});

memory.delete("/:memoryId", async (c) => {
  const chatId = chatIdOf(c);
  const id = memoryIdOf(c);
  await noBody(c);
  unwrap(await chatStub(c.env, chatId).deleteMemory(chatId, id));
  return c.body(null, 204);
});

/** What the OpenAPI document says of these routes: `openapi.ts` builds it, a test checks it against the app. */
export const memoryOperations = (): Operation[] => [
  {
    method: "get",
    path: "/admin/chats/{chatId}/memory",
    summary: "The chat's memory records, the most recently updated first.",
    access: "admin",
    answers: [[200, "The records.", "MemoryList"]],
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/memory",
    summary: `Create a memory record (revision 1); at most ${MEMORY_LIMITS.records} a chat.`,
    access: "admin",
    body: "MemoryCreate",
    answers: [[201, "Created.", "MemoryReply"]],
    errors: {
      bad_request:
        `a title that is blank, over ${MEMORY_LIMITS.title} characters or not one line, a body over 16 KB, or the chat's limit ` +
        `(\`This chat already has ${MEMORY_LIMITS.records} memory records (the limit); delete one first.\`)`,
    },
  },
  {
    method: "get",
    path: "/admin/chats/{chatId}/memory/{memoryId}",
    summary: "One memory record.",
    access: "admin",
    answers: [[200, "The record.", "MemoryReply"]],
  },
  {
    method: "patch",
    path: "/admin/chats/{chatId}/memory/{memoryId}",
    summary: "Update a memory record from the revision read: title, body or both; the revision goes up by one.",
    access: "admin",
    body: "MemoryUpdate",
    answers: [[200, "The updated record.", "MemoryReply"]],
    errors: {
      bad_request: "neither title nor body, or either against the rules of create",
      conflict:
        "the revision is not the record's current one (`Memory record <id> is at revision 4, not 3: it changed since you read it. …`); nothing was written",
    },
  },
  {
    method: "delete",
    path: "/admin/chats/{chatId}/memory/{memoryId}",
    summary: "Delete a memory record. Jobs that refer to it keep the reference; their runs fail until it is changed. A read of the id is then 404.",
    access: "admin",
    body: "EmptyBody",
    answers: [[204, "Deleted."]],
  },
];
