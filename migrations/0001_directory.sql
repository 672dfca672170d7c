-- The D1 directory (docs/design/0008-layout.md): a read-only, eventually consistent projection of every chat and job for the
-- admin page's cross-chat list. Each chat's ChatScheduler Durable Object is the source of truth and feeds these
-- rows from its outbox (a later issue); nothing else writes them, and erasing a chat deletes its rows in both
-- tables. Times are epoch milliseconds (UTC).

CREATE TABLE chats (
  chat_id     TEXT    PRIMARY KEY,                    -- decimal Telegram chat id
  time_zone   TEXT,                                   -- NULL: the chat follows DEFAULT_TIMEZONE
  jobs        INTEGER NOT NULL DEFAULT 0 CHECK (jobs >= 0),
  next_run_at INTEGER,                                -- soonest next run of its jobs; NULL when none
  blocked     INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1)),
  updated_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX chats_next_run_at ON chats (next_run_at);

CREATE TABLE jobs (
  chat_id     TEXT    NOT NULL,                       -- no foreign key: rows from many DOs arrive in any order
  job_id      TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  kind        TEXT    NOT NULL CHECK (kind IN ('prompt', 'watcher')),
  category    TEXT    NOT NULL CHECK (category IN ('one-time', 'recurring', 'monitoring')),
  schedule    TEXT    NOT NULL,                       -- JSON: {"at": "<RFC 3339 UTC>"} or {"cron": "<expression>"}
  next_run_at INTEGER,                                -- NULL when paused or never again
  enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (chat_id, job_id)
) STRICT;

CREATE INDEX jobs_next_run_at ON jobs (next_run_at);
CREATE INDEX jobs_category ON jobs (category, chat_id);
