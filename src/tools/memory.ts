/**
 * @module The memory tools (docs/api.md#tools-for-agents; issue 16): `memory_list`, `memory_get`, `memory_create`,
 * `memory_update` (with the revision read) and `memory_delete`, for the built-in model and over MCP, each
 * asking the chat's Durable Object and answering `{ ok, text, data? }` like the schedule tools. A turn a job
 * started may use them all (it records what it did for the next run); an expected failure (an unknown id, a
 * stale revision, a rule) is `ok: false` with the object's sentence.
 */
import { MEMORY_ID, shown } from "../contracts/ids";
import { noMemoryText } from "../jobs/memory";
import { listed } from "../jobs/texts";
import type { MemoryRecord } from "../schemas/memory";
import { failed, type ToolReply } from "../schemas/tools";
import { formatChatTime } from "../time";
import { type ToolContext, zoneOf } from "./schedule";

/** `` `m4x7pq` Project Alpha · revision 3 · updated 14:03 · 1204 characters ``: one record in a list. */
function recordLine(r: MemoryRecord, zone: string, now: number): string {
  return `\`${r.id}\` ${r.title} · revision ${r.revision} · updated ${formatChatTime(Date.parse(r.updatedAt), zone, now)} · ${r.body.length} characters`;
}

/** An id a model sent, trimmed and lower-cased; null (with the reply) when it cannot name a record. */
function idOf(raw: unknown): { id: string } | { reply: ToolReply } {
  const id = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if (id === "") return { reply: failed(`"id" is required: a memory record id such as "m4x7pq"; see memory_list.`) };
  return MEMORY_ID.test(id) ? { id } : { reply: failed(noMemoryText(shown(id))) };
}

export async function memoryList(ctx: ToolContext): Promise<ToolReply> {
  const all = await ctx.chat.listMemory(ctx.chatId);
  if (!all.ok) return failed(all.error.message);
  const records = all.value;
  if (records.length === 0) return { ok: true, text: "No memory records yet. memory_create makes one.", data: { records } };
  const zone = await zoneOf(ctx);
  const now = ctx.now();
  const lines = [`**Memory records** (${records.length}), the most recently updated first:`, ...records.map((r) => recordLine(r, zone, now))];
  return { ok: true, text: lines.join("\n"), data: { records } };
}

export async function memoryGet(ctx: ToolContext, args: { id: string }): Promise<ToolReply> {
  const id = idOf(args.id);
  if ("reply" in id) return id.reply;
  const got = await ctx.chat.getMemory(ctx.chatId, id.id);
  if (!got.ok) return failed(got.error.message);
  const r = got.value;
  const updated = formatChatTime(Date.parse(r.updatedAt), await zoneOf(ctx), ctx.now());
  return { ok: true, text: `Memory record ${r.id} ${JSON.stringify(r.title)}, revision ${r.revision}, updated ${updated}:\n${r.body}`, data: { record: r } };
}

export async function memoryCreate(ctx: ToolContext, args: { title: string; body: string }): Promise<ToolReply> {
  const created = await ctx.chat.createMemory(ctx.chatId, { title: args.title, body: args.body });
  if (!created.ok) return failed(created.error.message);
  const r = created.value;
  return {
    ok: true,
    text:
      `Created memory record ${r.id} ${JSON.stringify(r.title)} (revision 1). ` +
      `A prompt job puts its current content into each run with memoryRefs: ["${r.id}"].`,
    data: { record: r },
  };
}

export async function memoryUpdate(ctx: ToolContext, args: { id: string; revision: number; title?: string | null; body?: string | null }): Promise<ToolReply> {
  const id = idOf(args.id);
  if ("reply" in id) return id.reply;
  const input = { revision: args.revision, ...(args.title != null ? { title: args.title } : {}), ...(args.body != null ? { body: args.body } : {}) };
  const updated = await ctx.chat.updateMemory(ctx.chatId, id.id, input);
  if (!updated.ok) return failed(updated.error.message);
  const r = updated.value;
  return { ok: true, text: `Updated memory record ${r.id} ${JSON.stringify(r.title)}: now revision ${r.revision}.`, data: { record: r } };
}

export async function memoryDelete(ctx: ToolContext, args: { id: string }): Promise<ToolReply> {
  const id = idOf(args.id);
  if ("reply" in id) return id.reply;
  const deleted = await ctx.chat.deleteMemory(ctx.chatId, id.id);
  if (!deleted.ok) return failed(deleted.error.message);
  const { record, referredBy } = deleted.value;
  const one = referredBy.length === 1;
  const refs =
    referredBy.length === 0
      ? ""
      : ` ${one ? "Job" : "Jobs"} ${listed(referredBy)} still ${one ? "refers" : "refer"} to it: ` +
        `${one ? "its" : "their"} runs fail until ${one ? "its" : "their"} memoryRefs change.`;
  return { ok: true, text: `Deleted memory record ${record.id} ${JSON.stringify(record.title)}.${refs}`, data: { record } };
}
