/**
 * @module The chat's settings row store (docs/api.md, docs/time.md, docs/telegram.md): the chat id the object is bound to, its own time
 * zone, whether Telegram said the chat cannot be reached, its quiet hours (`22:00-07:00`), the key of the last run
 * whose turn created its follow-up over HTTP or MCP (`X-Cuckoo-Turn`), when the chat was told which zone its
 * times are in (the default-zone notice, docs/telegram.md), a group's move to a supergroup (`moving_to` and its
 * `move_retry_at` while it is under way, `moved_to` after it in the old chat, `moved_from` in the new one), and its
 * language (docs/telegram.md#language: `language` set by /language, `seen_language` the last one a message came in), and the model its turns run on
 * (`model`, set by /model; docs/agent.md#models), and its daily agenda (`agenda`, `HH:mm` in its zone, and
 * `agenda_next`, the instant of the next; docs/telegram.md#agenda); and whether a job may have a notice to come
 * or a run's message may nag (`has_notices`, `has_nags`), so that a chat with neither asks nothing more of them; and
 * the SHA-256 of its calendar feed's token (`calendar`, docs/calendar.md).
 */
import type { Db } from "./db";

const KEYS = [
  "chat_id",
  "time_zone",
  "blocked",
  "follow_up_of",
  "zone_told",
  "quiet",
  "moving_to",
  "move_retry_at",
  "moved_to",
  "moved_from",
  "language",
  "seen_language",
  "model",
  "agenda",
  "agenda_next",
  "has_notices",
  "has_nags",
  "calendar",
] as const;
type Key = (typeof KEYS)[number];

/** A flag kept as a setting: `1`, or none. */
export type Flag = { get(): boolean; set(on: boolean): void };

/**
 * The settings are read on nearly every step of every call and alarm (the chat id, the zone, the blocked
 * flag): a SQL statement costs tens of microseconds in workerd, so the values read are kept in memory, and the
 * first read takes every key in one statement (an alarm in a woken object asks for four or five of them). The
 * object is the database's only writer, and every write goes through `set`, which forgets the key first (so
 * a write that a failed transaction rolls back is read again, not remembered wrong).
 */
export class SettingsStore {
  private readonly known = new Map<Key, string | null>();
  /** Whether every key has been read since the last `forget` (a key `set` since is read again on its own). */
  private loaded = false;
  private written = 0;

  constructor(private readonly db: Db) {}

  get(key: Key): string | null {
    if (!this.loaded) this.load();
    if (this.known.has(key)) return this.known.get(key)!;
    const row = this.db.sql.exec<{ value: string }>("SELECT value FROM settings WHERE key = ?", key).toArray()[0];
    const value = row ? row.value : null;
    this.known.set(key, value);
    return value;
  }

  private load(): void {
    const rows = new Map(
      this.db.sql
        .exec<{ key: string; value: string }>("SELECT key, value FROM settings")
        .toArray()
        .map((r) => [r.key, r.value]),
    );
    for (const key of KEYS) this.known.set(key, rows.get(key) ?? null);
    this.loaded = true;
  }

  /** Forgets every value read (after a rolled-back transaction, or when the database was erased). */
  forget(): void {
    this.known.clear();
    this.loaded = false;
  }

  /** How many times a value was set (the D1 directory shows the zone and the blocked flag). */
  changes(): number {
    return this.written;
  }

  /** A flag kept as the setting `key` (written only when it changes). */
  flag(key: "has_notices" | "has_nags"): Flag {
    return {
      get: () => this.get(key) === "1",
      set: (on) => {
        if ((this.get(key) === "1") !== on) this.set(key, on ? "1" : null);
      },
    };
  }

  /** Sets a value, or with null removes it. */
  set(key: Key, value: string | null): void {
    this.written++;
    this.known.delete(key);
    if (value === null) this.db.sql.exec("DELETE FROM settings WHERE key = ?", key);
    else this.db.sql.exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }
}
