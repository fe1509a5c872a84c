-- 0011, the PostgreSQL twin of ../0011_log_messages.sql: the log in every reader's language.
-- An event's words are a message id of the bot's catalogue and its JSON parameters; events
-- written before keep their English words as the fallback message 'log-text'. The log stays
-- append-only: its trigger is lifted for this one conversion only, inside the migration's
-- transaction.

ALTER TABLE events ADD COLUMN message text NOT NULL DEFAULT 'log-text';
ALTER TABLE events ADD COLUMN params json NOT NULL DEFAULT '{}';

DROP TRIGGER events_append_only ON events;

UPDATE events SET message = 'log-text', params = json_build_object('text', reason);

CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'log_append_only';
END $$;

CREATE TRIGGER events_append_only BEFORE UPDATE ON events
FOR EACH ROW EXECUTE FUNCTION events_append_only();

ALTER TABLE events DROP COLUMN reason;
