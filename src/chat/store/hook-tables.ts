/**
 * @module Migration 19 of the chat's database (`schema.ts`): hooks (docs/hooks.md). A job may have a hook
 * (`hook_hash`, its token's SHA-256: the token is shown once and never kept) and may have no time of its own, only
 * a hook (`only_hook`); the schedule CHECK names every form, so the table is copied, naming every column it had at 18.
 * A run says what woke it when it was not its schedule (`via`). `hook_calls`: the calls and mails a hook accepted in
 * the last 24 hours (the hourly limit counts them; a repeated `Idempotency-Key` or Message-ID finds its first run);
 * `hook_waiting`: the ones waiting while a run of their job is in flight, with their input. Once shipped, never
 * edited beyond its layout.
 */
const KEPT =
  "id, name, kind, at_ms, cron, rrule, rule_start, until_local, runs_left, text, command, timeout_seconds, enabled, created_at, created_by, " +
  "next_run_at, last_run_at, last_result, running_run_id, quarantined, memory_refs, only_on_change, match_hash, failure_streak, " +
  "imported_from, silent, thread_id";

export const HOOK_TABLES = `
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
    only_hook INTEGER NOT NULL DEFAULT 0 CHECK (only_hook IN (0, 1)),
    hook_hash TEXT,
    CHECK ((at_ms IS NOT NULL) + (cron IS NOT NULL) + (rrule IS NOT NULL) + only_hook = 1),
    CHECK ((rrule IS NULL) = (rule_start IS NULL)),
    CHECK ((at_ms IS NULL AND only_hook = 0) OR (until_local IS NULL AND runs_left IS NULL))
  );
  INSERT INTO jobs_new (${KEPT}) SELECT ${KEPT} FROM jobs;
  DROP TABLE jobs;
  ALTER TABLE jobs_new RENAME TO jobs;
  CREATE INDEX jobs_next_run ON jobs (next_run_at) WHERE next_run_at IS NOT NULL;
  CREATE UNIQUE INDEX jobs_hook ON jobs (hook_hash) WHERE hook_hash IS NOT NULL;
  ALTER TABLE runs ADD COLUMN via TEXT CHECK (via IN ('hook', 'email'));
  ALTER TABLE run_history ADD COLUMN via TEXT CHECK (via IN ('hook', 'email'));
  CREATE TABLE hook_calls (
    job_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    key TEXT,
    PRIMARY KEY (job_id, at, run_id)
  ) WITHOUT ROWID;
  CREATE UNIQUE INDEX hook_calls_key ON hook_calls (job_id, key) WHERE key IS NOT NULL;
  CREATE TABLE hook_waiting (
    run_id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    accepted_at INTEGER NOT NULL,
    via TEXT NOT NULL CHECK (via IN ('hook', 'email')),
    input TEXT NOT NULL
  ) WITHOUT ROWID;
`;
