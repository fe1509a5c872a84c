-- 0012, the PostgreSQL twin of ../0012_announcements_and_leases.sql: several bot processes on
-- one database (issue #16): what a resolved turn must show in its channel waits here until the
-- process of that server has posted it, and work one process does at a time is leased here.

CREATE TABLE announcements (
    tournament_id  bigint  NOT NULL REFERENCES tournaments (id) DEFERRABLE,
    turn           integer NOT NULL CHECK (turn >= 0),
    kind           text    NOT NULL CHECK (kind IN ('start', 'turn', 'end', 'ready')),
    guild_id       bigint,   -- the tournament's server: which process posts it
    due_at         double precision NOT NULL,   -- when it may be taken up
    PRIMARY KEY (tournament_id, turn, kind)
);

CREATE INDEX announcements_due ON announcements (due_at);

CREATE FUNCTION turns_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO announcements (tournament_id, turn, kind, guild_id, due_at)
    SELECT id, NEW.turn, CASE WHEN NEW.turn = 0 THEN 'start' ELSE 'turn' END, guild_id,
        coalesce(NEW.resolved_at, started_at, created_at)
    FROM tournaments WHERE id = NEW.tournament_id AND channel_id IS NOT NULL
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;

CREATE TRIGGER turns_announce AFTER INSERT ON turns
FOR EACH ROW EXECUTE FUNCTION turns_announce();

CREATE FUNCTION tournaments_announce_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO announcements (tournament_id, turn, kind, guild_id, due_at)
    VALUES (NEW.id, NEW.turn, 'end', NEW.guild_id, NEW.finished_at)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;

CREATE TRIGGER tournaments_announce_end AFTER UPDATE OF status ON tournaments
FOR EACH ROW WHEN (
    NEW.status = 'finished' AND OLD.status = 'running' AND NEW.turn = OLD.turn
    AND NEW.channel_id IS NOT NULL
)
EXECUTE FUNCTION tournaments_announce_end();

-- Work one process does at a time for all (data/repositories/leases.py). An insert of a name
-- another connection is inserting waits for it, so two processes never both take a lease.
CREATE TABLE leases (
    name        text   COLLATE "C" PRIMARY KEY,
    holder      text   NOT NULL,
    expires_at  double precision NOT NULL
);

CREATE INDEX leases_expiry ON leases (expires_at);
