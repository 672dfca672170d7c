/**
 * @module Migration 14 of the chat's database (`schema.ts`): recurrence rules and jobs that end (issue 24; docs/api.md,
 * docs/time.md). A job's schedule is one of `at_ms`, `cron` or `rrule` with its local `rule_start`; a recurring job may
 * end at `until_ms` or after `runs_left` runs (0 once its last run is claimed). SQLite cannot change a CHECK in place:
 * the table is copied, as migration 8 did. Once shipped, never edited beyond its layout.
 */
export const RULE_TABLES = `
  CREATE TABLE jobs_new (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('prompt', 'watcher')),
    at_ms INTEGER,
    cron TEXT,
    rrule TEXT,
    rule_start TEXT,
    until_ms INTEGER,
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
    CHECK ((at_ms IS NOT NULL) + (cron IS NOT NULL) + (rrule IS NOT NULL) = 1),
    CHECK ((rrule IS NULL) = (rule_start IS NULL)),
    CHECK (at_ms IS NULL OR (until_ms IS NULL AND runs_left IS NULL))
  );
  INSERT INTO jobs_new (
    id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, last_run_at, last_result, running_run_id,
    quarantined, memory_refs, only_on_change, match_hash, failure_streak, imported_from
  ) SELECT
    id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, last_run_at, last_result, running_run_id,
    quarantined, memory_refs, only_on_change, match_hash, failure_streak, imported_from
  FROM jobs;
  DROP TABLE jobs;
  ALTER TABLE jobs_new RENAME TO jobs;
  CREATE INDEX jobs_next_run ON jobs (next_run_at) WHERE next_run_at IS NOT NULL;
  `;
