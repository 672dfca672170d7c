/**
 * @module Which chat a hook belongs to (docs/hooks.md): the D1 directory's `hooks` row of its token's hash, which the
 * chat's object wrote. A row can lag the object (a hook just revoked), so the object checks the hash again.
 */
import { CHAT_ID } from "../contracts/ids";

/** The chat whose job has a hook with this token hash, or null. */
export async function chatOfHook(db: D1Database, hash: string): Promise<string | null> {
  const row = await db.prepare("SELECT chat_id FROM hooks WHERE token_hash = ?").bind(hash).first<{ chat_id: unknown }>();
  return typeof row?.chat_id === "string" && CHAT_ID.test(row.chat_id) ? row.chat_id : null;
}
