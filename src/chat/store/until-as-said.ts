/**
 * @module Migration 18 of the chat's database (`schema.ts`): a job's end as it was said (docs/time.md#jobs-that-end-until-and-runsleft).
 * `until_ms`, an instant, becomes `until_local`, the minute it was in the chat's zone (its own, else
 * DEFAULT_TIMEZONE), which SQL cannot compute; the CHECK names the column, so the table is copied, naming every
 * column it had at 17. Once shipped, never edited beyond its layout.
 */
import { untilOfInstant } from "../../time/until";
import { parseZone } from "../../time/zone";

export function untilAsSaid(sql: SqlStorage, defaultZone: string): void {
  const own = sql.exec<{ value: string }>("SELECT value FROM settings WHERE key = 'time_zone'").toArray()[0]?.value;
  const zone = own !== undefined && parseZone(own).ok ? own : defaultZone;
  const kept =
    "id, name, kind, at_ms, cron, rrule, rule_start, runs_left, text, command, timeout_seconds, enabled, created_at, created_by, " +
    "next_run_at, last_run_at, last_result, running_run_id, quarantined, memory_refs, only_on_change, match_hash, failure_streak, " +
    "imported_from, silent, thread_id";
  sql.exec(`
    CREATE TABLE jobs_new (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('prompt', 'watcher')),
      at_ms INTEGER,
      cron TEXT,
      rrule TEXT,
      rule_start TEXT,
      until_local TEXT,
      runs_left INTEGER CHECK (runs_left IS NULL OR runs_left >= 0),
      text TEXT,
      command TEXT,
      timeout_seconds INTEGER,
      enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
      created_at INTEGER NOT NULL,
      created_by TEXT NOT NULL CHECK (created_by IN ('user', 'agent', 'admin', 'job')),
      next_run_at INTEGER,
      last_run_at INTEGER,
      last_result TEXT,
      running_run_id TEXT,
      quarantined TEXT,
      memory_refs TEXT,
      only_on_change INTEGER NOT NULL DEFAULT 0 CHECK (only_on_change IN (0, 1)),
      match_hash TEXT,
      failure_streak TEXT,
      imported_from TEXT,
      silent INTEGER NOT NULL DEFAULT 0 CHECK (silent IN (0, 1)),
      thread_id INTEGER,
      CHECK ((at_ms IS NOT NULL) + (cron IS NOT NULL) + (rrule IS NOT NULL) = 1),
      CHECK ((rrule IS NULL) = (rule_start IS NULL)),
      CHECK (at_ms IS NULL OR (until_local IS NULL AND runs_left IS NULL))
    )`);
  sql.exec(`INSERT INTO jobs_new (${kept}) SELECT ${kept} FROM jobs`);
  for (const { id, until_ms } of sql.exec<{ id: string; until_ms: number }>("SELECT id, until_ms FROM jobs WHERE until_ms IS NOT NULL").toArray())
    sql.exec("UPDATE jobs_new SET until_local = ? WHERE id = ?", untilOfInstant(until_ms, zone), id);
  sql.exec("DROP TABLE jobs");
  sql.exec("ALTER TABLE jobs_new RENAME TO jobs");
  sql.exec("CREATE INDEX jobs_next_run ON jobs (next_run_at) WHERE next_run_at IS NOT NULL");
}
