-- Hooks (issue 34, docs/hooks.md): a job's hook is found by its token's SHA-256 (the token itself is never kept), so that
-- a call of `/hooks/<token>` or a mail to `<token>@<EMAIL_DOMAIN>` reaches the chat's object without naming the chat.
-- Like the rest of the directory, only the chat's own object writes these rows (its sync, retried by its alarm), and
-- the object checks the hash again: a row left behind finds nothing. A job only its hook runs has the category
-- `triggered`; the CHECK names the categories, so the table is copied.

CREATE TABLE hooks (
  token_hash TEXT    PRIMARY KEY,                     -- SHA-256 of the token, hex
  chat_id    TEXT    NOT NULL,
  job_id     TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX hooks_job ON hooks (chat_id, job_id);

CREATE TABLE jobs_new (
  chat_id     TEXT    NOT NULL,
  job_id      TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  kind        TEXT    NOT NULL CHECK (kind IN ('prompt', 'watcher')),
  category    TEXT    NOT NULL CHECK (category IN ('one-time', 'recurring', 'monitoring', 'triggered')),
  schedule    TEXT    NOT NULL,                       -- JSON, as a Job's `schedule`
  next_run_at INTEGER,                                -- NULL when paused, never again, or only a hook runs it
  enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  updated_at  INTEGER NOT NULL,
  last_status TEXT CHECK (last_status IN ('delivered', 'silent', 'matched', 'failed', 'transient', 'over_budget')),
  PRIMARY KEY (chat_id, job_id)
) STRICT;

INSERT INTO jobs_new (chat_id, job_id, name, kind, category, schedule, next_run_at, enabled, updated_at, last_status)
  SELECT chat_id, job_id, name, kind, category, schedule, next_run_at, enabled, updated_at, last_status FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_new RENAME TO jobs;
CREATE INDEX jobs_next_run_at ON jobs (next_run_at);
CREATE INDEX jobs_category ON jobs (category, chat_id);
