/**
 * @module The admin memory routes (`/admin/chats/:chatId/memory…`, DESIGN §9, §10; issue 16): the chat's
 * memory records listed, created, read, updated with the revision read (409 `conflict` when it is stale) and
 * deleted. Bodies are checked at the edge with the memory schemas, everything else asked of the chat's
 * Durable Object. Mounted under `/admin/chats/:chatId`, behind ADMIN_TOKEN.
 */
import { Hono, type Context } from "hono";
import { MEMORY_ID, shown } from "../contracts/ids";
import { memoryCreateInput, memoryUpdateInput, type MemoryRecord } from "../schemas/memory";
import { noMemoryText } from "../jobs/memory";
import { readJson } from "./body";
import { chatIdOf, chatStub, noBody, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

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
