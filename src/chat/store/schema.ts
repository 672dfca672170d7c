/**
 * @module The chat's SQLite schema: numbered migrations and the schema-version row. Applied in the Durable
 * Object's constructor (inside `blockConcurrencyWhile`), so every entry point sees the current schema. The
 * tables: `settings` (chat id, zone, blocked flag), `jobs`, `runs` (open occurrences, `kind` prompt | watcher),
 * `run_history` (settled ones), `transcript`, `deliveries` (keys already delivered), `outbox` (Telegram), `gate`
 * and `pending` (the agent's run gate), `user_prompts` (user messages on their way to the gate), `updates`
 * (Telegram update ids seen), `usage` (per-day counters), `memory` (the chat's memory records), `imports`
 * (source ids imported), `directory` (what the chat last wrote to the D1 directory), `offers` (reminders
 * offered from free text, waiting for Create or Cancel), `turn_steps` (the recorded steps of model turns in
 * flight), `job_sources` (the Telegram message of the command that created a job), `members` (a group's members'
 * rights, remembered) and `move_in` (a group's state arriving from the object of the basic group it was).
 */

import { AGENT_TABLES } from "./agent-tables";
import { HOOK_TABLES } from "./hook-tables";
import { COPIES, MODEL_AND_MISSED, NAGS, NOTICES } from "./job-columns";
import { RULE_TABLES } from "./rule-tables";
import { untilAsSaid } from "./until-as-said";

/**
 * One migration: SQL statements, or, for one that computes what SQL cannot (local times in the chat's zone), a
 * function of the database and DEFAULT_TIMEZONE.
 */
export type Migration = string | ((sql: SqlStorage, defaultZone: string) => void);

/**
 * Each entry is one migration; its index + 1 is the schema version it brings. Never edit one that shipped, beyond
 * its layout: whitespace between the SQL's tokens (a statement split over lines) changes nothing it does.
 */
export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE jobs (
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
    created_by TEXT NOT NULL CHECK (created_by IN ('user', 'agent', 'admin')),
    next_run_at INTEGER,
    last_run_at INTEGER,
    last_result TEXT,
    running_run_id TEXT,
    quarantined TEXT,
    CHECK ((at_ms IS NULL) <> (cron IS NULL))
  );
  CREATE INDEX jobs_next_run ON jobs (next_run_at) WHERE next_run_at IS NOT NULL;
  CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    manual INTEGER NOT NULL CHECK (manual IN (0, 1)),
    due_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    state TEXT NOT NULL CHECK (state IN ('claimed', 'dispatched', 'settled')),
    status TEXT CHECK (status IN ('delivered', 'silent', 'matched', 'failed', 'skipped')),
    exit_code INTEGER,
    timed_out INTEGER NOT NULL DEFAULT 0,
    late INTEGER NOT NULL DEFAULT 0,
    detail TEXT,
    lease_until INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    message TEXT
  );
  CREATE INDEX runs_by_job ON runs (job_id, due_at);
  CREATE INDEX runs_open ON runs (lease_until) WHERE state <> 'settled';
  `,
  // 2: the conversation (docs/design/0008-layout.md, docs/agent.md): transcript, delivered keys, the Telegram outbox and the run gate.
  `
  CREATE TABLE transcript (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'bot', 'prompt')),
    source TEXT NOT NULL CHECK (source IN ('telegram', 'admin', 'job', 'watcher', 'alert', 'command')),
    text TEXT NOT NULL,
    job_id TEXT,
    run_id TEXT
  );
  CREATE TABLE deliveries (key TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    markdown TEXT NOT NULL,
    job_id TEXT,
    run_id TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL
  );
  CREATE TABLE gate (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    token TEXT NOT NULL,
    lease_until INTEGER NOT NULL,
    active_key TEXT,
    active_message TEXT
  );
  CREATE TABLE pending (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    message TEXT NOT NULL,
    received_at INTEGER NOT NULL
  );
  `,
  // 3: Telegram: updates already handled (a repeated update_id has no second effect), and how many parts of
  // an outbox message went out (docs/telegram.md).
  `
  CREATE TABLE updates (update_id INTEGER PRIMARY KEY, at INTEGER NOT NULL);
  ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
  `,
  // 4: an outbox message Telegram never took is kept, marked failed with the reason, for a week (docs/telegram.md).
  `
  ALTER TABLE outbox ADD COLUMN failed_at INTEGER;
  ALTER TABLE outbox ADD COLUMN error TEXT;
  `,
  // 5: delivered keys and update ids are pruned by age on every write; the index keeps that from scanning.
  `
  CREATE INDEX deliveries_at ON deliveries (at);
  CREATE INDEX updates_at ON updates (at);
  `,
  // 6: a run says what it carries (a prompt for the agent, or a watcher's call to the runner) in a column, not
  // by the prefix of its message; a waiting watcher call keeps only the call itself. Settled runs of watchers
  // that did not reach the agent are marked too, for the history. The unused meta table goes.
  `
  DROP TABLE meta;
  ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'prompt' CHECK (kind IN ('prompt', 'watcher'));
  UPDATE runs SET kind = 'watcher', message = json_extract(message, '$.watcher') WHERE substr(message, 1, 11) = '{"watcher":';
  UPDATE runs SET kind = 'watcher'
    WHERE message IS NULL AND status IN ('silent', 'failed', 'skipped') AND job_id IN (SELECT id FROM jobs WHERE kind = 'watcher');
  `,
  // 7: nothing lost silently (docs/agent.md#the-lease, docs/telegram.md#how-messages-are-sent): how often a dispatched prompt was sent again
  // because it never reached the run gate; the user messages on their way to the gate, re-sent the same way;
  // and how often an outbox row met no answer at all (network errors and time-outs do not use up its attempts).
  `
  ALTER TABLE runs ADD COLUMN resends INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE user_prompts (key TEXT PRIMARY KEY, message TEXT NOT NULL, deadline INTEGER NOT NULL, resends INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
  ALTER TABLE outbox ADD COLUMN stalls INTEGER NOT NULL DEFAULT 0;
  `,
  // 8: the model agent (docs/api.md, docs/agent.md): `agent-tables.ts`.
  AGENT_TABLES,
  // 9: memory, imports and cheaper watchers (issue 16; docs/api.md). The chat's memory records; a
  // prompt job's memoryRefs (JSON array); a watcher's onlyOnChange, the hash of its last delivered match and
  // its failure streak (kept apart from last_result, which a transient run overwrites, and seeded from it);
  // where an imported job came from, and every source id imported (kept after the job is gone, so an import
  // run twice creates nothing twice). Runs get the new statuses (SQLite cannot change a CHECK in place: the
  // table is copied, as migration 8 did for jobs) and the hash of a match waiting for the agent.
  `
  CREATE TABLE memory (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    revision INTEGER NOT NULL CHECK (revision >= 1),
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  ALTER TABLE jobs ADD COLUMN memory_refs TEXT;
  ALTER TABLE jobs ADD COLUMN only_on_change INTEGER NOT NULL DEFAULT 0 CHECK (only_on_change IN (0, 1));
  ALTER TABLE jobs ADD COLUMN match_hash TEXT;
  ALTER TABLE jobs ADD COLUMN failure_streak TEXT;
  ALTER TABLE jobs ADD COLUMN imported_from TEXT;
  UPDATE jobs SET failure_streak = json_object(
      'exitCode', json_extract(last_result, '$.exitCode'),
      'timedOut', json(CASE WHEN json_extract(last_result, '$.timedOut') THEN 'true' ELSE 'false' END)
    )
    WHERE kind = 'watcher' AND CASE WHEN json_valid(last_result)
      THEN json_extract(last_result, '$.status') = 'failed' AND json_type(last_result, '$.exitCode') IS NOT NULL
      ELSE 0 END;
  CREATE TABLE imports (source_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE runs_new (
    run_id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    manual INTEGER NOT NULL CHECK (manual IN (0, 1)),
    due_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    state TEXT NOT NULL CHECK (state IN ('claimed', 'dispatched', 'settled')),
    status TEXT CHECK (status IN ('delivered', 'silent', 'matched', 'failed', 'skipped', 'transient', 'over_budget')),
    exit_code INTEGER,
    timed_out INTEGER NOT NULL DEFAULT 0,
    late INTEGER NOT NULL DEFAULT 0,
    detail TEXT,
    lease_until INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    message TEXT,
    kind TEXT NOT NULL DEFAULT 'prompt' CHECK (kind IN ('prompt', 'watcher')),
    resends INTEGER NOT NULL DEFAULT 0,
    output_hash TEXT
  );
  INSERT INTO runs_new (
    run_id, job_id, manual, due_at, started_at, finished_at, state, status, exit_code, timed_out, late, detail, lease_until, attempts, message, kind, resends
  ) SELECT
    run_id, job_id, manual, due_at, started_at, finished_at, state, status, exit_code, timed_out, late, detail, lease_until, attempts, message, kind, resends
  FROM runs;
  DROP TABLE runs;
  ALTER TABLE runs_new RENAME TO runs;
  CREATE INDEX runs_by_job ON runs (job_id, due_at);
  CREATE INDEX runs_open ON runs (lease_until) WHERE state <> 'settled';
  `,
  // 10: the D1 directory (docs/design/0008-layout.md): the fingerprint of each row this chat last wrote there (`chat`, `job:<id>`),
  // so that only a change is written; and `retry_at` after a failed write, which the alarm comes back for.
  `
  CREATE TABLE directory (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `,
  // 11: the chat speaks people's language (issue 14): a bot entry and its outbox row keep the buttons sent under
  // it (JSON rows of { text, data }), and a reminder offered from free text waits in offers until Create or
  // Cancel is pressed (its id is in the buttons' data).
  `
  ALTER TABLE transcript ADD COLUMN buttons TEXT;
  ALTER TABLE outbox ADD COLUMN buttons TEXT;
  CREATE TABLE offers (id TEXT PRIMARY KEY, at_ms INTEGER NOT NULL, text TEXT NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID;
  `,
  // 12: a fire writes as few rows as it can (issue 17; docs/operations.md: every row written is billed, index entries
  // included). Open runs and settled ones part: `runs` keeps the open ones (a handful, scanned by the alarm),
  // `run_history` the settled ones, without the columns only an open run needs. Both are keyed by run id alone,
  // WITHOUT ROWID and with no other index (a job's runs are the key range of its id, `<jobId>:…`), so a claim
  // writes one row where it wrote four (the row, the rowid table's key index, runs_by_job, runs_open).
  `
  CREATE TABLE run_history (
    run_id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('prompt', 'watcher')),
    manual INTEGER NOT NULL CHECK (manual IN (0, 1)),
    due_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    status TEXT CHECK (status IN ('delivered', 'silent', 'matched', 'failed', 'skipped', 'transient', 'over_budget')),
    exit_code INTEGER,
    timed_out INTEGER NOT NULL DEFAULT 0,
    late INTEGER NOT NULL DEFAULT 0,
    detail TEXT,
    resends INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  INSERT INTO run_history (
    run_id, job_id, kind, manual, due_at, started_at, finished_at, status, exit_code, timed_out, late, detail, resends
  ) SELECT
    run_id, job_id, kind, manual, due_at, started_at, finished_at, status, exit_code, timed_out, late, detail, resends
  FROM runs WHERE state = 'settled';
  CREATE TABLE runs_new (
    run_id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('prompt', 'watcher')),
    manual INTEGER NOT NULL CHECK (manual IN (0, 1)),
    due_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    state TEXT NOT NULL CHECK (state IN ('claimed', 'dispatched')),
    status TEXT CHECK (status IN ('delivered', 'silent', 'matched', 'failed', 'skipped', 'transient', 'over_budget')),
    exit_code INTEGER,
    timed_out INTEGER NOT NULL DEFAULT 0,
    late INTEGER NOT NULL DEFAULT 0,
    detail TEXT,
    lease_until INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    resends INTEGER NOT NULL DEFAULT 0,
    message TEXT,
    output_hash TEXT
  ) WITHOUT ROWID;
  INSERT INTO runs_new (
    run_id, job_id, kind, manual, due_at, started_at, finished_at, state, status, exit_code, timed_out, late, detail, lease_until, attempts, resends,
    message, output_hash
  ) SELECT
    run_id, job_id, kind, manual, due_at, started_at, finished_at, state, status, exit_code, timed_out, late, detail, lease_until, attempts, resends,
    message, output_hash
  FROM runs WHERE state <> 'settled';
  DROP TABLE runs;
  ALTER TABLE runs_new RENAME TO runs;
  `,
  // 13: durable model turns (issue 22; docs/agent.md). The gate's active turn keeps the prompt it saw first, how many
  // of its tries failed and when the next is due; a turn put back in line keeps the first two. Each step of a
  // turn in flight is kept under the turn's key and step until the key is settled: the model's answer, and the
  // results of its tool calls (NULL until they are recorded).
  `
  ALTER TABLE gate ADD COLUMN prompt TEXT;
  ALTER TABLE gate ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE gate ADD COLUMN retry_at INTEGER;
  ALTER TABLE pending ADD COLUMN prompt TEXT;
  ALTER TABLE pending ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE turn_steps (
    key TEXT NOT NULL,
    step INTEGER NOT NULL,
    at INTEGER NOT NULL,
    answer TEXT NOT NULL,
    results TEXT,
    PRIMARY KEY (key, step)
  ) WITHOUT ROWID;
  `,
  // 14: recurrence rules and jobs that end (issue 24): `rule-tables.ts`.
  RULE_TABLES,
  // 15: reminders you can act on (issue 25; docs/api.md, docs/telegram.md). A job may be silent (sent without a notification); a
  // bot entry of a prompt job's message keeps what a snooze copies of the job (`job_copy`, so that it works after a
  // one-off is gone) and the Telegram message ids its parts were sent as (`message_ids`, so that a reply to one
  // names the job); an outbox row knows its entry, collects those ids as its parts go out, and whether its job is
  // silent; and a command that created a job remembers its Telegram message (`job_sources`), so that editing the
  // message edits the job.
  `
  ALTER TABLE jobs ADD COLUMN silent INTEGER NOT NULL DEFAULT 0 CHECK (silent IN (0, 1));
  ALTER TABLE transcript ADD COLUMN job_copy TEXT;
  ALTER TABLE transcript ADD COLUMN message_ids TEXT;
  ALTER TABLE outbox ADD COLUMN entry_id INTEGER;
  ALTER TABLE outbox ADD COLUMN message_ids TEXT;
  ALTER TABLE outbox ADD COLUMN silent INTEGER NOT NULL DEFAULT 0 CHECK (silent IN (0, 1));
  CREATE TABLE job_sources (message_id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;
  `,
  // 16: groups and topics (issue 26; docs/telegram.md). A job and an outbox message keep the forum topic they go to
  // (NULL: the main thread); a group's members' rights as getChatMember last said them (kept at most 10 minutes);
  // and the state a basic group's object hands to its supergroup's, staged chunk by chunk until the last one
  // lands, then taken in one transaction.
  `
  ALTER TABLE jobs ADD COLUMN thread_id INTEGER;
  ALTER TABLE outbox ADD COLUMN thread_id INTEGER;
  CREATE TABLE members (user_id TEXT PRIMARY KEY, role TEXT NOT NULL CHECK (role IN ('admin', 'member', 'none')), checked_at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE move_in (seq INTEGER PRIMARY KEY, count INTEGER NOT NULL, payload TEXT NOT NULL);
  `,
  // 17: an offered reminder may repeat (issue 31; docs/telegram.md): "remind me every monday at 9 …" is offered as the
  // recurring job /every would make, kept as its cron or rule with its ends (JSON, as the API writes a schedule);
  // NULL for one time, whose instant is at_ms as before.
  `
  ALTER TABLE offers ADD COLUMN schedule TEXT;
  `,
  // 18: a job's end as it was said (issue 31; docs/time.md#jobs-that-end-until-and-runsleft): `until_local`, a local
  // date-time in the chat's zone (`2027-03-31T23:59`), so that a zone change keeps its meaning, in place of the
  // instant `until_ms`. The CHECK names the column, so the table is copied (as 14 did); each end becomes the minute
  // it was in the chat's zone (its own, else DEFAULT_TIMEZONE), which SQL cannot compute: `until-as-said.ts`.
  untilAsSaid,
  // 19: hooks (issue 34; docs/hooks.md): a job's hook and jobs only a hook runs, what woke a run, the calls a hook took.
  HOOK_TABLES,
  // 20: a model per job and a say over missed runs (issue 35), 21: notices ahead of a run, 22: reminders that nag,
  // 23: a reminder that brings a message back (issue 36): `job-columns.ts`.
  MODEL_AND_MISSED,
  NOTICES,
  NAGS,
  COPIES,
];

/**
 * Brings the database to the latest schema (or to `target`, for tests of a migration); returns its version.
 * `defaultZone`: DEFAULT_TIMEZONE, the zone of a chat that has none of its own, for a migration that reads local times.
 */
export function migrate(sql: SqlStorage, target: number = MIGRATIONS.length, defaultZone = "UTC"): number {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
  const row = sql.exec<{ version: number }>("SELECT version FROM schema_version WHERE id = 1").toArray()[0];
  let version = row?.version ?? 0;
  while (version < target) {
    const migration = MIGRATIONS[version]!;
    // One statement per exec call; the migrations hold no semicolons inside statements.
    if (typeof migration === "function") migration(sql, defaultZone);
    else for (const statement of migration.split(";")) if (statement.trim()) sql.exec(statement);
    version++;
    sql.exec("INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version", version);
  }
  return version;
}
