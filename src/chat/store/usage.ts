/**
 * @module Per-day counters of a chat (docs/api.md#access `LLM_MAX_TURNS_PER_DAY`, `MAX_WAKEUPS_PER_DAY`): how many of
 * something happened on a local day, and whether the day's one notice went out. Days older than a week are
 * dropped as new ones start.
 */
import type { Db } from "./db";

/** `model_turns`: model turns; `wakeups`: watcher matches that woke the agent. */
export type Counter = "model_turns" | "wakeups";

export class UsageStore {
  constructor(private readonly db: Db) {}

  get(day: string, counter: Counter): { n: number; noticed: boolean } {
    const row = this.db.sql.exec<{ n: number; noticed: number }>("SELECT n, noticed FROM usage WHERE day = ? AND counter = ?", day, counter).toArray()[0];
    return { n: row?.n ?? 0, noticed: row?.noticed === 1 };
  }

  /** Counts one more on `day`; the first count of a day also drops days more than a week older. */
  increment(day: string, counter: Counter): void {
    const update = this.db.sql.exec("UPDATE usage SET n = n + 1 WHERE day = ? AND counter = ?", day, counter);
    update.toArray();
    if (update.rowsWritten > 0) return;
    this.db.sql.exec("INSERT INTO usage (day, counter, n) VALUES (?, ?, 1)", day, counter);
    this.db.sql.exec("DELETE FROM usage WHERE day < ?", weekBefore(day));
  }

  markNoticed(day: string, counter: Counter): void {
    this.db.sql.exec("INSERT INTO usage (day, counter, n, noticed) VALUES (?, ?, 0, 1) ON CONFLICT (day, counter) DO UPDATE SET noticed = 1", day, counter);
  }
}

/** `YYYY-MM-DD` seven days before `day` (plain calendar arithmetic on the date's own fields). */
function weekBefore(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 7);
  return d.toISOString().slice(0, 10);
}
