/**
 * @module The chat's memory records (docs/api.md; issue 16): list, read, create, update with the revision
 * read, delete. At most 200 a chat; a title of one line, a body of at most 16 KB. An update names the
 * revision it read: a stale one changes nothing and says so (409 `conflict` at the edge, `ok: false` for a
 * model). A record may be deleted while jobs refer to it; their next runs fail (`jobs/memory.ts`).
 */
import { MEMORY_ID, newMemoryId, shown } from "../contracts/ids";
import { noMemoryText, staleRevisionText, tooManyRecordsText } from "../jobs/memory";
import { brokenCharacterProblem, nameProblem } from "../jobs/text-fields";
import { err, ok, type Result } from "../result";
import { MEMORY_LIMITS, type MemoryCreateInput, type MemoryRecord, type MemoryUpdateInput, memoryCreateInput, memoryUpdateInput } from "../schemas/memory";
import { parseArgs } from "../sentence";
import type { ChatInfo } from "./info";
import type { JobStore } from "./store/jobs";
import type { MemoryStore, StoredMemory } from "./store/memory";

export type MemoryDeps = { memory: MemoryStore; jobs: JobStore; info: ChatInfo; now: () => number; transaction: <T>(work: () => T) => T };

/** A deleted record, and the jobs that still refer to it (their runs will fail until they are changed). */
export type Deleted = { record: MemoryRecord; referredBy: string[] };

/** The problem with a body: a broken character, or more than 16 KB of UTF-8. */
function bodyProblem(body: string): string | null {
  const broken = brokenCharacterProblem("body", body);
  if (broken) return broken;
  const bytes = new TextEncoder().encode(body).length;
  return bytes <= MEMORY_LIMITS.bodyBytes ? null : `"body" must be at most 16 KB (${MEMORY_LIMITS.bodyBytes} bytes of UTF-8); it has ${bytes} bytes.`;
}

const view = (r: StoredMemory): MemoryRecord => ({
  id: r.id,
  title: r.title,
  body: r.body,
  revision: r.revision,
  updatedAt: new Date(r.updatedAt).toISOString(),
});

export class MemoryOps {
  constructor(private readonly d: MemoryDeps) {}

  private find(chatId: string, id: string): Result<StoredMemory> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const record = typeof id === "string" && MEMORY_ID.test(id) ? this.d.memory.get(id) : null;
    return record ? ok(record) : err("not_found", noMemoryText(shown(String(id))));
  }

  list(chatId: string): Result<MemoryRecord[]> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    return ok(this.d.memory.all().map(view));
  }

  get(chatId: string, id: string): Result<MemoryRecord> {
    const found = this.find(chatId, id);
    return found.ok ? ok(view(found.value)) : found;
  }

  create(chatId: string, input: MemoryCreateInput): Result<MemoryRecord> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = parseArgs(memoryCreateInput(), input);
    if (!parsed.ok) return parsed;
    const problem = nameProblem("title", parsed.value.title, MEMORY_LIMITS.title) ?? bodyProblem(parsed.value.body);
    if (problem) return err("bad_request", problem);
    return this.d.transaction(() => {
      if (this.d.memory.count() >= MEMORY_LIMITS.records) return err("bad_request", tooManyRecordsText(MEMORY_LIMITS.records));
      let id = newMemoryId();
      while (this.d.memory.exists(id)) id = newMemoryId();
      const record: StoredMemory = { id, title: parsed.value.title.trim(), body: parsed.value.body, revision: 1, updatedAt: this.d.now() };
      this.d.memory.insert(record);
      return ok(view(record));
    });
  }

  /** Applies an update made from `revision`; a stale revision is a `conflict` and nothing is written. */
  update(chatId: string, id: string, input: MemoryUpdateInput): Result<MemoryRecord> {
    const found = this.find(chatId, id);
    if (!found.ok) return found;
    const parsed = parseArgs(memoryUpdateInput(), input);
    if (!parsed.ok) return parsed;
    const { revision, title, body } = parsed.value;
    if (title === undefined && body === undefined) return err("bad_request", `Give "title", "body" or both: what the update changes.`);
    const problem = (title !== undefined ? nameProblem("title", title, MEMORY_LIMITS.title) : null) ?? (body !== undefined ? bodyProblem(body) : null);
    if (problem) return err("bad_request", problem);
    const current = found.value;
    if (revision !== current.revision) return err("conflict", staleRevisionText(current.id, revision, current.revision));
    const next: StoredMemory = {
      ...current,
      title: title?.trim() ?? current.title,
      body: body ?? current.body,
      revision: current.revision + 1,
      updatedAt: this.d.now(),
    };
    if (!this.d.memory.update(next))
      return err("conflict", staleRevisionText(current.id, revision, this.d.memory.get(current.id)?.revision ?? current.revision + 1));
    return ok(view(next));
  }

  /** Deletes a record (also one that jobs refer to: their next runs fail, never with old content). */
  delete(chatId: string, id: string): Result<Deleted> {
    const found = this.find(chatId, id);
    if (!found.ok) return found;
    this.d.memory.delete(found.value.id);
    return ok({ record: view(found.value), referredBy: this.d.jobs.referring(found.value.id) });
  }
}
