-- 0003, the PostgreSQL twin of ../0003_table_revisions.sql: seats and recorded turns count on
-- the tournament's ``table_revision``, so a reader may reuse a table it decoded while the
-- tournaments row reads the same (data.repositories.tournaments.load_table).

ALTER TABLE tournaments ADD COLUMN table_revision bigint NOT NULL DEFAULT 0;

CREATE FUNCTION table_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tournaments SET table_revision = table_revision + 1
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.tournament_id ELSE NEW.tournament_id END;
    RETURN NULL;
END $$;

CREATE TRIGGER seats_revision_insert AFTER INSERT ON seats
FOR EACH ROW EXECUTE FUNCTION table_revision();

CREATE TRIGGER seats_revision_update AFTER UPDATE ON seats
FOR EACH ROW EXECUTE FUNCTION table_revision();

CREATE TRIGGER seats_revision_delete AFTER DELETE ON seats
FOR EACH ROW EXECUTE FUNCTION table_revision();

CREATE TRIGGER turns_revision_insert AFTER INSERT ON turns
FOR EACH ROW EXECUTE FUNCTION table_revision();

CREATE TRIGGER turns_revision_update AFTER UPDATE ON turns
FOR EACH ROW EXECUTE FUNCTION table_revision();
