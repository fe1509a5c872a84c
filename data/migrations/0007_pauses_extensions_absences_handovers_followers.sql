-- 0006: running a long game (issue #14): a host pauses or extends the open turn, players go
-- away, a seat is handed to a computer player, spectators follow a tournament by DM. Every
-- limit below is the database's to enforce, so two requests at the same moment (or a bot
-- with a bug) never pass one; data/repositories/tournaments.py and absences.py name the same
-- numbers for their refusals: keep them equal.

-- A pause stops the open turn's clock. ``deadline`` keeps the deadline as it stood when the
-- pause began; resuming moves it by the time the pause lasted, so the turn keeps what it had
-- left. A pause ends by itself 7 days (604800 s) after it began, at ``paused_until``.
ALTER TABLE tournaments ADD COLUMN paused_at REAL;
ALTER TABLE tournaments ADD COLUMN paused_until REAL
    CONSTRAINT pause_lasts_7_days_at_most CHECK (
        CASE
            WHEN paused_at IS NULL THEN paused_until IS NULL
            ELSE paused_until IS NOT NULL
                AND paused_until > paused_at AND paused_until <= paused_at + 604800
        END
    );

-- Extensions of the open turn: at most 2, adding at most one turn length in all, so a turn
-- never lasts more than twice its length (pauses aside). A new turn starts with none.
ALTER TABLE tournaments ADD COLUMN extensions INTEGER NOT NULL DEFAULT 0
    CONSTRAINT extended_twice_at_most CHECK (extensions BETWEEN 0 AND 2);
ALTER TABLE tournaments ADD COLUMN extended INTEGER NOT NULL DEFAULT 0
    CONSTRAINT extended_one_turn_length_at_most CHECK (extended BETWEEN 0 AND turn_seconds);

CREATE TRIGGER tournaments_pause_running BEFORE UPDATE OF paused_at ON tournaments
WHEN NEW.paused_at IS NOT NULL AND NEW.status <> 'running'
BEGIN
    SELECT RAISE(ABORT, 'tournament_not_running');
END;

CREATE TRIGGER tournaments_extend_running BEFORE UPDATE OF extended ON tournaments
WHEN NEW.extended > OLD.extended AND NEW.status <> 'running'
BEGIN
    SELECT RAISE(ABORT, 'tournament_not_running');
END;

-- A combat that ends (a forfeit, a cancel) ends its pause with it.
CREATE TRIGGER tournaments_pause_ends_with_combat AFTER UPDATE OF status ON tournaments
WHEN NEW.status IN ('finished', 'cancelled') AND NEW.paused_at IS NOT NULL
BEGIN
    UPDATE tournaments SET paused_at = NULL, paused_until = NULL WHERE id = NEW.id;
END;

-- Nothing resolves while paused: orders may still come in, the turn waits for the resume.
CREATE TRIGGER turns_wait_for_resume BEFORE INSERT ON turns
WHEN NEW.turn > 0
    AND (SELECT paused_at FROM tournaments WHERE id = NEW.tournament_id) IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'tournament_paused');
END;

CREATE TRIGGER turns_fresh_extensions AFTER INSERT ON turns
WHEN NEW.turn > 0
BEGIN
    UPDATE tournaments SET extensions = 0, extended = 0
    WHERE id = NEW.tournament_id AND (extensions <> 0 OR extended <> 0);
END;

-- turns_advance copies each seat's misses from the stored game, but a game in which every
-- dynasty ordered stores no misses at all: every seat's count of misses in a row is 0 then.
CREATE TRIGGER turns_misses_reset AFTER INSERT ON turns
WHEN NEW.turn > 0 AND NOT EXISTS (SELECT 1 FROM json_each(NEW.state, '$.missed'))
BEGIN
    UPDATE seats SET misses = 0 WHERE tournament_id = NEW.tournament_id AND misses <> 0;
END;

-- A player away (at most 14 days, 1209600 s) has its missed turns excused: they do not count
-- towards defeat (R-G4). One absence at a time per player, and at most 14 days away in any
-- 30 days (2592000 s), so absences cannot be chained into a seat nobody plays. Ending an
-- absence early sets ``until`` to that moment.
CREATE TABLE absences (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    since      REAL    NOT NULL,
    until      REAL    NOT NULL,
    CONSTRAINT away_14_days_at_most CHECK (until >= since AND until <= since + 1209600)
) STRICT;

CREATE INDEX absences_player ON absences (player_id, until);

CREATE TRIGGER absences_one_at_a_time BEFORE INSERT ON absences
BEGIN
    SELECT RAISE(ABORT, 'already_away')
    WHERE EXISTS (
        SELECT 1 FROM absences WHERE player_id = NEW.player_id AND until > NEW.since
    );
END;

-- Away time in the 30 days before an absence ends: the window ending there is the fullest
-- one the absence is in, since the player's earlier absences all lie before it.
CREATE TRIGGER absences_limit_insert BEFORE INSERT ON absences
BEGIN
    SELECT RAISE(ABORT, 'away_too_long')
    WHERE (NEW.until - NEW.since) + (
        SELECT coalesce(sum(
            (CASE WHEN until < NEW.until THEN until ELSE NEW.until END)
            - (CASE WHEN since > NEW.until - 2592000 THEN since ELSE NEW.until - 2592000 END)
        ), 0)
        FROM absences
        WHERE player_id = NEW.player_id AND until > NEW.until - 2592000 AND since < NEW.until
    ) > 1209600;
END;

CREATE TRIGGER absences_limit_update BEFORE UPDATE OF since, until ON absences
WHEN NEW.until > OLD.until OR NEW.since <> OLD.since OR NEW.player_id <> OLD.player_id
BEGIN
    SELECT RAISE(ABORT, 'away_too_long')
    WHERE (NEW.until - NEW.since) + (
        SELECT coalesce(sum(
            (CASE WHEN until < NEW.until THEN until ELSE NEW.until END)
            - (CASE WHEN since > NEW.until - 2592000 THEN since ELSE NEW.until - 2592000 END)
        ), 0)
        FROM absences
        WHERE player_id = NEW.player_id AND id <> NEW.id
            AND until > NEW.until - 2592000 AND since < NEW.until
    ) > 1209600;
END;

-- A resolver that loaded a turn before an absence began or ended must load it again
-- (turns_resolve_once compares revisions): it would excuse the wrong misses.
CREATE TRIGGER absences_revision_insert AFTER INSERT ON absences
BEGIN
    UPDATE tournaments SET revision = revision + 1
    WHERE status = 'running' AND id IN (
        SELECT tournament_id FROM seats WHERE player_id = NEW.player_id AND status = 'active'
    );
END;

CREATE TRIGGER absences_revision_update AFTER UPDATE ON absences
BEGIN
    UPDATE tournaments SET revision = revision + 1
    WHERE status = 'running' AND id IN (
        SELECT tournament_id FROM seats WHERE player_id = NEW.player_id AND status = 'active'
    );
END;

-- A seat handed over to a computer player (``handed_to``, a strategy of engine/strategies.py)
-- keeps its kind, player and emperor: the emperor still fights and its outcome counts for its
-- dynasty; only who gives its orders changes, for the rest of the combat. Its player hands it
-- over, or someone else (the host) once it has missed 2 turns in a row.
ALTER TABLE seats ADD COLUMN handed_to TEXT
    CONSTRAINT computer_seats_are_not_handed_over CHECK (handed_to IS NULL OR kind <> 'computer');
ALTER TABLE seats ADD COLUMN handed_by INTEGER REFERENCES players (id);
ALTER TABLE seats ADD COLUMN handed_at REAL;

CREATE TRIGGER seats_handed_over_once BEFORE UPDATE OF handed_to, handed_by, handed_at ON seats
BEGIN
    SELECT RAISE(ABORT, 'seat_handed_over') WHERE OLD.handed_to IS NOT NULL;
    SELECT RAISE(ABORT, 'seat_not_active') WHERE OLD.status <> 'active';
    SELECT RAISE(ABORT, 'tournament_not_running')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'running';
    SELECT RAISE(ABORT, 'handover_incomplete')
    WHERE NEW.handed_to IS NULL OR NEW.handed_by IS NULL OR NEW.handed_at IS NULL;
    SELECT RAISE(ABORT, 'seat_still_played')
    WHERE NEW.handed_by IS NOT OLD.player_id AND OLD.misses < 2;
END;

-- Once handed over, its player's own orders are refused (a player's order carries the id of
-- its request; the computer's do not).
CREATE TRIGGER orders_handed_seat BEFORE INSERT ON orders
WHEN NEW.request_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM seats
    WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND handed_to IS NOT NULL
)
BEGIN
    SELECT RAISE(ABORT, 'seat_handed_over');
END;

CREATE TRIGGER orders_handed_seat_replace BEFORE UPDATE ON orders
WHEN NEW.request_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM seats
    WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND handed_to IS NOT NULL
)
BEGIN
    SELECT RAISE(ABORT, 'seat_handed_over');
END;

-- The database refuses a turn that counts a miss against a player away when it resolves
-- (R-G4 as amended in docs/rules.md): the engine's count of misses in a row, compared with
-- the game before the turn, must not grow for an excused seat.
CREATE TRIGGER turns_excuse_the_away BEFORE INSERT ON turns
WHEN NEW.turn > 0
BEGIN
    SELECT RAISE(ABORT, 'away_miss_counted')
    WHERE EXISTS (
        SELECT 1
        FROM seats s
        JOIN absences a ON a.player_id = s.player_id
        JOIN turns previous
            ON previous.tournament_id = s.tournament_id AND previous.turn = NEW.turn - 1
        WHERE s.tournament_id = NEW.tournament_id AND s.status = 'active'
            AND s.handed_to IS NULL
            AND a.since <= NEW.resolved_at AND NEW.resolved_at < a.until
            AND coalesce(json_extract(NEW.state, '$.missed.' || char(97 + s.seat)), 0)
                > coalesce(json_extract(previous.state, '$.missed.' || char(97 + s.seat)), 0)
    );
END;

-- Spectators: each resolved board by DM. At most 50 followers per tournament and 10
-- unfinished tournaments followed per user (every board is one DM per follower).
CREATE TABLE followers (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    player_id      INTEGER NOT NULL,   -- a Discord user: following needs no dynasty
    since          REAL    NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX followers_player ON followers (player_id);

CREATE TRIGGER followers_limits BEFORE INSERT ON followers
WHEN NOT EXISTS (   -- following again changes nothing (INSERT … ON CONFLICT DO NOTHING)
    SELECT 1 FROM followers WHERE tournament_id = NEW.tournament_id AND player_id = NEW.player_id
)
BEGIN
    SELECT RAISE(ABORT, 'tournament_over')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id)
        IN ('finished', 'cancelled');
    SELECT RAISE(ABORT, 'too_many_followers')
    WHERE (SELECT count(*) FROM followers WHERE tournament_id = NEW.tournament_id) >= 50;
    SELECT RAISE(ABORT, 'following_too_many')
    WHERE (
        SELECT count(*) FROM followers f JOIN tournaments t ON t.id = f.tournament_id
        WHERE f.player_id = NEW.player_id AND t.status IN ('open', 'running')
    ) >= 10;
END;
