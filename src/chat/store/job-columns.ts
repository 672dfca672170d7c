/**
 * @module Migrations 20 and 21 of the chat's database (`schema.ts`), columns added to `jobs`. Once shipped, never edited
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
