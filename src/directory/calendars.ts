/**
 * @module Which chat a calendar feed belongs to (docs/calendar.md): the D1 directory's `calendars` row of its token's
 * hash, which the chat's object wrote. A row can lag the object (an address just replaced), so the object checks the
 * hash again.
 */
import { CHAT_ID } from "../contracts/ids";

/** The chat whose calendar feed has this token hash, or null. */
export async function chatOfCalendar(db: D1Database, hash: string): Promise<string | null> {
  const row = await db.prepare("SELECT chat_id FROM calendars WHERE token_hash = ?").bind(hash).first<{ chat_id: unknown }>();
  return typeof row?.chat_id === "string" && CHAT_ID.test(row.chat_id) ? row.chat_id : null;
}
