-- Calendar feeds (docs/calendar.md): a chat's feed is found by its token's SHA-256 (the token itself is never kept), so
-- that a fetch of `/calendar/<token>.ics` reaches the chat's object without naming the chat. Only the chat's own object
-- writes these rows (its sync, retried by its alarm), and the object checks the hash again: a row left behind finds
-- nothing.

CREATE TABLE calendars (
  token_hash TEXT    PRIMARY KEY,                     -- SHA-256 of the token, hex
  chat_id    TEXT    NOT NULL UNIQUE,
  updated_at INTEGER NOT NULL
) STRICT;
