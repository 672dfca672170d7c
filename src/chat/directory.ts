/**
 * @module The chat's entry in the D1 directory (DESIGN §1): a read-only projection for cross-chat views, fed
 * by the chat's object. Eventual and never in the way: a failed write is logged, and the object's own state
 * stays the truth.
 */

export class Directory {
  constructor(private readonly db: () => D1Database) {}

  /** The blocked flag (so /healthz can count blocked chats across chats). */
  async markBlocked(chatId: string, blocked: boolean, now: number): Promise<void> {
    try {
      await this.db()
        .prepare(
          "INSERT INTO chats (chat_id, blocked, updated_at) VALUES (?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET blocked = excluded.blocked, updated_at = excluded.updated_at",
        )
        .bind(chatId, blocked ? 1 : 0, now)
        .run();
    } catch (error) {
      console.error(`could not record chat ${chatId} as ${blocked ? "blocked" : "unblocked"} in the directory`, error);
    }
  }
}
