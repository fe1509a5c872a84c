-- 0003, the PostgreSQL twin of ../0003_table_revisions.sql: seats and recorded turns count on
-- the tournament's ``table_revision``, so a reader may reuse a table it decoded while the
-- tournaments row reads the same (data.repositories.tournaments.load_table).

ALTER TABLE tournaments ADD COLUMN table_revision bigint NOT NULL DEFAULT 0;

-- Statement triggers: a turn that updates eight seats counts them in one update of the
-- tournament's row, not eight.
CREATE FUNCTION table_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tournaments SET table_revision = table_revision + counted.changes
    FROM (SELECT tournament_id, count(*) AS changes FROM changed GROUP BY tournament_id) counted
    WHERE tournaments.id = counted.tournament_id;
    RETURN NULL;
END $$;

CREATE TRIGGER seats_revision_insert AFTER INSERT ON seats
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION table_revision();

CREATE TRIGGER seats_revision_update AFTER UPDATE ON seats
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION table_revision();

CREATE TRIGGER seats_revision_delete AFTER DELETE ON seats
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION table_revision();

CREATE TRIGGER turns_revision_insert AFTER INSERT ON turns
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION table_revision();

CREATE TRIGGER turns_revision_update AFTER UPDATE ON turns
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION table_revision();
