-- The projection each chat's object writes (issue 15, DESIGN §1, §10) also carries a job's last result: its
-- status only, written when it changes (not on every fire, DESIGN §12). The statuses are those of a job's
-- `lastResult` (DESIGN §3).

ALTER TABLE jobs ADD COLUMN last_status TEXT CHECK (last_status IN ('delivered', 'silent', 'matched', 'failed', 'transient', 'over_budget'));
