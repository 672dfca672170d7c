-- The projection each chat's object writes (issue 15, docs/design/0008-layout.md, docs/api.md) also carries a job's last result: its
-- status only, written when it changes (not on every fire, docs/operations.md). The statuses are those of a job's
-- `lastResult` (docs/api.md#jobs).

ALTER TABLE jobs ADD COLUMN last_status TEXT CHECK (last_status IN ('delivered', 'silent', 'matched', 'failed', 'transient', 'over_budget'));
