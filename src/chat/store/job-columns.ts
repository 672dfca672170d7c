/**
 * @module Migrations 20 to 23 of the chat's database (`schema.ts`), columns added to `jobs`. Once shipped, never edited
 * beyond their layout.
 */

/**
 * 20: a model per job and a say over missed runs (issue 35; docs/agent.md#models, docs/time.md#missed-runs): the model
 * a job's turns run on (NULL: the chat's, a setting), what a missed run does and how late one still runs.
 */
export const MODEL_AND_MISSED = `
  ALTER TABLE jobs ADD COLUMN model TEXT;
  ALTER TABLE jobs ADD COLUMN missed TEXT NOT NULL DEFAULT 'once' CHECK (missed IN ('once', 'skip', 'all', 'ask'));
  ALTER TABLE jobs ADD COLUMN grace_seconds INTEGER NOT NULL DEFAULT 60 CHECK (grace_seconds BETWEEN 0 AND 86400);
  `;

/**
 * 21: notices ahead of a run (issue 36; docs/telegram.md#notices-ahead): how long before each run (a JSON list of
 * seconds, NULL for none) and when the next notice is due, indexed for the alarm only where there is one.
 */
export const NOTICES = `
  ALTER TABLE jobs ADD COLUMN before_json TEXT;
  ALTER TABLE jobs ADD COLUMN notice_at INTEGER;
  CREATE INDEX jobs_notice ON jobs (notice_at) WHERE notice_at IS NOT NULL;
  `;

/**
 * 22: reminders that nag (issue 36; docs/telegram.md#nag-until-done): a job's `repeat` (JSON `{ everySeconds, times }`,
 * NULL for none); `nags`, a run's message to send again while no one acted on it (its Markdown, how often, how many
 * copies are left, the copy it is at, when the next is due, whether its job is silent: a one-off is gone once its
 * run ended); and an outbox row that replaces the buttons of a message
 * sent before (`edit_of`, the transcript entry whose last Telegram message it edits) in place of sending one.
 */
export const NAGS = `
  ALTER TABLE jobs ADD COLUMN repeat_json TEXT;
  CREATE TABLE nags (
    run_id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    markdown TEXT NOT NULL,
    every_ms INTEGER NOT NULL,
    left INTEGER NOT NULL,
    n INTEGER NOT NULL,
    next_at INTEGER NOT NULL,
    silent INTEGER NOT NULL DEFAULT 0 CHECK (silent IN (0, 1))
  ) WITHOUT ROWID;
  CREATE INDEX nags_next ON nags (next_at);
  ALTER TABLE outbox ADD COLUMN edit_of INTEGER;
  `;

/**
 * 23: "remind me about this" for any message (issue 36; docs/telegram.md#remind-me-about-this): the message of this
 * chat a one-off brings back at fire time (JSON `{ messageId, kind }`, never the file), and an outbox row that copies
 * that message (`copy_of`, its id) in place of sending one.
 */
export const COPIES = `
  ALTER TABLE jobs ADD COLUMN copy_json TEXT;
  ALTER TABLE outbox ADD COLUMN copy_of INTEGER;
  `;
