-- The log in every reader's language (issue #15): an event's words are stored as a message
-- id of the bot's catalogue (bot/locales/*/log.ftl) and its JSON parameters, rendered when
-- read. Events written before keep their English words as the fallback message 'log-text'
-- with the old text as its parameter. The log stays append-only: its trigger is lifted for
-- this one conversion only, inside the migration's transaction.

ALTER TABLE events ADD COLUMN message TEXT NOT NULL DEFAULT 'log-text';
ALTER TABLE events ADD COLUMN params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params));

DROP TRIGGER events_append_only;

UPDATE events SET message = 'log-text', params = json_object('text', reason);

CREATE TRIGGER events_append_only BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'log_append_only');
END;

ALTER TABLE events DROP COLUMN reason;
