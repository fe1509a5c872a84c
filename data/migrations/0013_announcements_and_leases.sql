-- 0012: several bot processes on one database (issue #16). Each process speaks for some of the
-- bot's Discord servers (its gateway shards); any process may resolve a turn. What a resolved
-- turn must show in its channel waits here until the process of that server has posted it, and
-- work that only one process should do at a time is leased here.

-- What a tournament's channel is still to be shown: a combat that began (turn 0), a resolved
-- turn, an end that came without a turn (the last rival forfeited), or a new "k of n ready".
-- Written in the same statement as the change it announces (the triggers below), so a change
-- is never committed without it, whichever process made it; deleted by the process of the
-- tournament's server once posted (bot/announcer.py), so a process that stops halfway leaves
-- it for the next one. Tournaments without a channel have nothing to post here.
CREATE TABLE announcements (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    turn           INTEGER NOT NULL CHECK (turn >= 0),
    kind           TEXT    NOT NULL CHECK (kind IN ('start', 'turn', 'end', 'ready')),
    guild_id       INTEGER,   -- the tournament's server: which process posts it
    due_at         REAL    NOT NULL,   -- when it may be taken up (later after a failure)
    PRIMARY KEY (tournament_id, turn, kind)
) STRICT, WITHOUT ROWID;

CREATE INDEX announcements_due ON announcements (due_at);

CREATE TRIGGER turns_announce AFTER INSERT ON turns
BEGIN
    INSERT INTO announcements (tournament_id, turn, kind, guild_id, due_at)
    SELECT id, NEW.turn, iif(NEW.turn = 0, 'start', 'turn'), guild_id,
        coalesce(NEW.resolved_at, started_at, created_at)
    FROM tournaments WHERE id = NEW.tournament_id AND channel_id IS NOT NULL
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER tournaments_announce_end AFTER UPDATE OF status ON tournaments
WHEN NEW.status = 'finished' AND OLD.status = 'running' AND NEW.turn = OLD.turn
    AND NEW.channel_id IS NOT NULL
BEGIN
    INSERT INTO announcements (tournament_id, turn, kind, guild_id, due_at)
    VALUES (NEW.id, NEW.turn, 'end', NEW.guild_id, NEW.finished_at)
    ON CONFLICT DO NOTHING;
END;

-- Work one process does at a time for all (data/repositories/leases.py): resolving a
-- tournament's turn, ordering for its computer players. A lease lapses at ``expires_at``, so
-- the work of a process that died is taken up by another one.
CREATE TABLE leases (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    expires_at  REAL NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX leases_expiry ON leases (expires_at);
