-- 0003: a tournament's row tells whether its table changed (its seats, its game, the open
-- turn's orders). Orders already count on ``revision``; seats and recorded turns now count
-- on ``table_revision``. So a reader may reuse a table it decoded while the row reads the
-- same (data.repositories.tournaments.load_table): the database stays the only truth.

ALTER TABLE tournaments ADD COLUMN table_revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER seats_revision_insert AFTER INSERT ON seats
BEGIN
    UPDATE tournaments SET table_revision = table_revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER seats_revision_update AFTER UPDATE ON seats
BEGIN
    UPDATE tournaments SET table_revision = table_revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER seats_revision_delete AFTER DELETE ON seats
BEGIN
    UPDATE tournaments SET table_revision = table_revision + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER turns_revision_insert AFTER INSERT ON turns
BEGIN
    UPDATE tournaments SET table_revision = table_revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER turns_revision_update AFTER UPDATE ON turns
BEGIN
    UPDATE tournaments SET table_revision = table_revision + 1 WHERE id = NEW.tournament_id;
END;
