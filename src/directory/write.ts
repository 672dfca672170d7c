/**
 * @module Writing the D1 directory (docs/design/0008-layout.md, docs/api.md): the statements of one chat's change, which its object runs
 * as one batch (`src/chat/directory.ts` decides when). Upserts keyed by chat and job (and a supergroup's move),
 * so a repeat doubles nothing; a rebuild first deletes every row of the chat.
 */
import { type Change, hookJobOfKey, isCalendarKey, isMoveKey, jobIdOfKey, type Projected } from "./projection";

/** The statements that write `change` for `chatId` at `now`; `fresh` (a rebuild) deletes the chat's rows first. */
export function changeStatements(db: D1Database, chatId: string, change: Change, fresh: boolean, now: number): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  if (fresh) {
    statements.push(
      db.prepare("DELETE FROM jobs WHERE chat_id = ?").bind(chatId),
      db.prepare("DELETE FROM chats WHERE chat_id = ?").bind(chatId),
      db.prepare("DELETE FROM moves WHERE to_chat_id = ?").bind(chatId),
      db.prepare("DELETE FROM hooks WHERE chat_id = ?").bind(chatId),
      db.prepare("DELETE FROM calendars WHERE chat_id = ?").bind(chatId),
    );
  }
  for (const key of change.removals) {
    const jobId = jobIdOfKey(key);
    const hookOf = hookJobOfKey(key);
    statements.push(
      hookOf !== null
        ? db.prepare("DELETE FROM hooks WHERE chat_id = ? AND job_id = ?").bind(chatId, hookOf)
        : isCalendarKey(key)
          ? db.prepare("DELETE FROM calendars WHERE chat_id = ?").bind(chatId)
          : isMoveKey(key)
            ? db.prepare("DELETE FROM moves WHERE to_chat_id = ?").bind(chatId)
            : jobId === null
              ? db.prepare("DELETE FROM chats WHERE chat_id = ?").bind(chatId)
              : db.prepare("DELETE FROM jobs WHERE chat_id = ? AND job_id = ?").bind(chatId, jobId),
    );
  }
  for (const p of change.upserts) statements.push(upsert(db, p, now));
  return statements;
}

function upsert(db: D1Database, p: Projected, now: number): D1PreparedStatement {
  if (p.table === "hooks") {
    // A replaced hook's row is its job's row, with the new hash: the old token finds nothing.
    return db
      .prepare(
        "INSERT INTO hooks (token_hash, chat_id, job_id, updated_at) VALUES (?, ?, ?, ?) " +
          "ON CONFLICT (chat_id, job_id) DO UPDATE SET token_hash = excluded.token_hash, updated_at = excluded.updated_at",
      )
      .bind(p.row.tokenHash, p.row.chatId, p.row.jobId, now);
  }
  if (p.table === "calendars") {
    // A replaced address's row is the chat's row, with the new hash: the old token finds nothing.
    return db
      .prepare(
        "INSERT INTO calendars (token_hash, chat_id, updated_at) VALUES (?, ?, ?) " +
          "ON CONFLICT (chat_id) DO UPDATE SET token_hash = excluded.token_hash, updated_at = excluded.updated_at",
      )
      .bind(p.row.tokenHash, p.row.chatId, now);
  }
  if (p.table === "moves") {
    return db
      .prepare(
        "INSERT INTO moves (to_chat_id, from_chat_id, updated_at) VALUES (?, ?, ?) " +
          "ON CONFLICT (to_chat_id) DO UPDATE SET from_chat_id = excluded.from_chat_id, updated_at = excluded.updated_at",
      )
      .bind(p.row.toChatId, p.row.fromChatId, now);
  }
  if (p.table === "chats") {
    const r = p.row;
    return db
      .prepare(
        "INSERT INTO chats (chat_id, time_zone, jobs, next_run_at, blocked, updated_at) VALUES (?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (chat_id) DO UPDATE SET time_zone = excluded.time_zone, jobs = excluded.jobs, next_run_at = excluded.next_run_at, " +
          "blocked = excluded.blocked, updated_at = excluded.updated_at",
      )
      .bind(r.chatId, r.timeZone, r.jobs, r.nextRunAt, r.blocked ? 1 : 0, now);
  }
  const r = p.row;
  return db
    .prepare(
      "INSERT INTO jobs (chat_id, job_id, name, kind, category, schedule, next_run_at, enabled, last_status, updated_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) " +
        "ON CONFLICT (chat_id, job_id) DO UPDATE SET name = excluded.name, kind = excluded.kind, category = excluded.category, " +
        "schedule = excluded.schedule, next_run_at = excluded.next_run_at, enabled = excluded.enabled, last_status = excluded.last_status, " +
        "updated_at = excluded.updated_at",
    )
    .bind(r.chatId, r.jobId, r.name, r.kind, r.category, r.schedule, r.nextRunAt, r.enabled ? 1 : 0, r.lastStatus, now);
}
