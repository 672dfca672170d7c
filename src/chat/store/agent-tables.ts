/**
 * @module Migration 8 of the chat's database (`schema.ts`): the model agent (docs/api.md, docs/agent.md). A job a
 * scheduled run created (createdBy "job"), the transcript's "tool" entries (what the agent called, admin only), and
 * per-day counters (model turns). SQLite cannot change a CHECK in place, so jobs and transcript are copied into tables
 * with the new ones. Once shipped, never edited beyond its layout.
 */
export const AGENT_TABLES = `
  CREATE TABLE jobs_new (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('prompt', 'watcher')),
    at_ms INTEGER,
    cron TEXT,
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
    CHECK ((at_ms IS NULL) <> (cron IS NULL))
  );
  INSERT INTO jobs_new SELECT
    id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, last_run_at, last_result, running_run_id,
    quarantined
  FROM jobs;
  DROP TABLE jobs;
  ALTER TABLE jobs_new RENAME TO jobs;
  CREATE INDEX jobs_next_run ON jobs (next_run_at) WHERE next_run_at IS NOT NULL;
  CREATE TABLE transcript_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'bot', 'prompt', 'tool')),
    source TEXT NOT NULL CHECK (source IN ('telegram', 'admin', 'job', 'watcher', 'alert', 'command')),
    text TEXT NOT NULL,
    job_id TEXT,
    run_id TEXT
  );
  INSERT INTO transcript_new SELECT id, at, role, source, text, job_id, run_id FROM transcript;
  DROP TABLE transcript;
  ALTER TABLE transcript_new RENAME TO transcript;
  CREATE TABLE usage (
    day TEXT NOT NULL,
    counter TEXT NOT NULL,
    n INTEGER NOT NULL,
    noticed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, counter)
  ) WITHOUT ROWID;
  `;
