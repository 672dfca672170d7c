/**
 * @module The chat's settings row store (DESIGN §2, §4, §6): the chat id the object is bound to, its own time
 * zone, and whether Telegram said the chat cannot be reached.
 */
import type { Db } from "./db";

type Key = "chat_id" | "time_zone" | "blocked";

export class SettingsStore {
  constructor(private readonly db: Db) {}

  get(key: Key): string | null {
    const row = this.db.sql.exec<{ value: string }>("SELECT value FROM settings WHERE key = ?", key).toArray()[0];
    return row ? row.value : null;
  }

  /** Sets a value, or with null removes it. */
  set(key: Key, value: string | null): void {
    if (value === null) this.db.sql.exec("DELETE FROM settings WHERE key = ?", key);
    else this.db.sql.exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }
}
