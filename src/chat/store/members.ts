/**
 * @module The chat's `members` table (docs/telegram.md#groups-and-topics): what Telegram's `getChatMember` last said of
 * a group member's place, `admin`, `member` or `none`, and when. The only code that reads or writes it.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import type { Db } from "./db";

export const MEMBER_ROLES = ["admin", "member", "none"] as const;
/** A member's place in a group: an administrator (or its creator), a member, or neither (left, removed). */
export type MemberRole = (typeof MEMBER_ROLES)[number];

const memberRow = lazy(() => z.object({ role: z.enum(MEMBER_ROLES), checked_at: z.number().int() }));

export class MemberStore {
  constructor(private readonly db: Db) {}

  /** The role last read for `userId` and when, or null. */
  get(userId: string): { role: MemberRole; checkedAt: number } | null {
    const row = this.db.sql.exec("SELECT role, checked_at FROM members WHERE user_id = ?", userId).toArray()[0];
    const parsed = memberRow().safeParse(row);
    return parsed.success ? { role: parsed.data.role, checkedAt: parsed.data.checked_at } : null;
  }

  /** Remembers a role read at `at`; rows older than `keptMs` go (they would be read again anyway). */
  set(userId: string, role: MemberRole, at: number, keptMs: number): void {
    this.db.sql.exec(
      "INSERT INTO members (user_id, role, checked_at) VALUES (?, ?, ?) " +
        "ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, checked_at = excluded.checked_at",
      userId,
      role,
      at,
    );
    this.db.sql.exec("DELETE FROM members WHERE checked_at < ?", at - keptMs);
  }
}
