-- A basic group that became a supergroup (issue 26, docs/telegram.md): Telegram gives the supergroup a new id, and the
-- group's object hands its state to the supergroup's, which writes this row. The webhook reads it to serve the
-- supergroup as the group was served, until the operator adds the new id to ALLOWED_CHAT_IDS. Like the rest of
-- the directory, only the chat's own object writes it (its sync, retried by its alarm), and erasing that chat
-- deletes it.

CREATE TABLE moves (
  to_chat_id   TEXT    PRIMARY KEY,                   -- the supergroup's id (-100…)
  from_chat_id TEXT    NOT NULL,                      -- the basic group's id it was
  updated_at   INTEGER NOT NULL
) STRICT;
