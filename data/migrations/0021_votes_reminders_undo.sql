-- 0021 (issue #38): agreed draws and concessions (R-G5).
--
-- A dynasty still in the combat votes in secret, one vote a seat: for a draw (winner_seat
-- NULL) or to concede to the seat winner_seat. A vote counts for the turn it was cast in
-- only: once that turn resolves it has lapsed. Nobody reads another seat's vote; the bot
-- tells only that a proposal was made and whether it passed. A seat that leaves (a training
-- scrub) takes its vote with it.
CREATE TABLE combat_votes (
    tournament_id  INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    turn           INTEGER NOT NULL CHECK (turn >= 1),
    winner_seat    INTEGER CHECK (winner_seat BETWEEN 0 AND 7),
    voted_at       REAL    NOT NULL,
    PRIMARY KEY (tournament_id, seat),
    FOREIGN KEY (tournament_id, seat) REFERENCES seats (tournament_id, seat) ON DELETE CASCADE,
    CONSTRAINT vote_not_for_oneself CHECK (winner_seat IS NULL OR winner_seat <> seat)
) STRICT;

-- A vote is for the open turn of a running combat, by a seat still in it, for a winner
-- still in it.
CREATE TRIGGER combat_votes_open BEFORE INSERT ON combat_votes
BEGIN
    SELECT RAISE(ABORT, 'vote_for_closed_turn')
    WHERE NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND turn = NEW.turn
    );
    SELECT RAISE(ABORT, 'vote_seat_not_active')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
    );
    SELECT RAISE(ABORT, 'vote_winner_not_active')
    WHERE NEW.winner_seat IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.winner_seat AND status = 'active'
    );
END;

-- Reminders under each player's control (issue #38 item 4): whether the bot reminds them by
-- DM at all (dms), how long before a deadline (before_seconds; NULL: at half time and with a
-- tenth of the turn left, as before), their quiet hours (minutes of the day, from
-- quiet_start up to quiet_end, in their time_zone; NULL: none) and one daily digest of every
-- combat waiting for them at digest_at (a minute of the day in their time zone) instead of a
-- DM each. A player with no row has the defaults. time_zone is an IANA name (Europe/Madrid),
-- checked by the bot against the zones it knows; NULL is UTC.
CREATE TABLE reminder_settings (
    player_id       INTEGER PRIMARY KEY,
    dms             INTEGER NOT NULL DEFAULT 1 CHECK (dms IN (0, 1)),
    before_seconds  INTEGER CHECK (before_seconds BETWEEN 60 AND 604800),
    time_zone       TEXT    CHECK (length(time_zone) BETWEEN 1 AND 64),
    quiet_start     INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end       INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
    digest_at       INTEGER CHECK (digest_at BETWEEN 0 AND 1439),
    updated_at      REAL    NOT NULL,
    CONSTRAINT quiet_hours_whole CHECK (
        (quiet_start IS NULL) = (quiet_end IS NULL)
        AND (quiet_start IS NULL OR quiet_start <> quiet_end)
    )
) STRICT;

-- The daily digest sent, once per player and local day (YYYY-MM-DD in their time zone).
CREATE TABLE reminder_digests (
    player_id  INTEGER NOT NULL,
    day        TEXT    NOT NULL CHECK (length(day) = 10),
    sent_at    REAL    NOT NULL,
    PRIMARY KEY (player_id, day)
) STRICT;

-- Undo of the last resolved turn (issue #38 item 6). Resolving turn N changes three things
-- in the database: it inserts turn N's row (the game after it: board, experience, chests on
-- the board, misses), opens turn N+1 on the tournament, and updates each seat's misses,
-- status and takes (turns_advance). The game is always the last turn's row, so the first two
-- are undone by deleting that row and setting the turn back; the seats are put back from the
-- copy this trigger keeps of them just before each turn resolves (the last turn's only).
-- A turn that ended the combat is never undone (its outcome paid out), and the bot checks
-- that nobody ordered for the next turn.
CREATE TABLE turn_seats_before (
    tournament_id  INTEGER NOT NULL,
    turn           INTEGER NOT NULL CHECK (turn >= 1),
    seat           INTEGER NOT NULL,
    misses         INTEGER NOT NULL,
    status         TEXT    NOT NULL,
    takes          INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, turn, seat)
) STRICT;

CREATE TRIGGER turns_keep_seats_before BEFORE INSERT ON turns
WHEN NEW.turn > 0
BEGIN
    DELETE FROM turn_seats_before WHERE tournament_id = NEW.tournament_id;
    INSERT INTO turn_seats_before (tournament_id, turn, seat, misses, status, takes)
    SELECT tournament_id, NEW.turn, seat, misses, status, takes
    FROM seats WHERE tournament_id = NEW.tournament_id;
END;

-- A combat that ended is never undone: its copy goes (nothing of it outlives the combat).
CREATE TRIGGER tournaments_forget_seats_before AFTER UPDATE OF status ON tournaments
WHEN NEW.status IN ('finished', 'cancelled')
BEGIN
    DELETE FROM turn_seats_before WHERE tournament_id = NEW.id;
END;

-- Every undo, for ever: the turn as it was resolved (its game and its result), when, and who
-- undid it. The log keeps that it happened even though the turn is played again.
CREATE TABLE turn_undos (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    turn           INTEGER NOT NULL CHECK (turn >= 1),
    state          TEXT    NOT NULL CHECK (json_valid(state)),
    result         TEXT    NOT NULL CHECK (json_valid(result)),
    resolved_at    REAL    NOT NULL,
    undone_by      INTEGER NOT NULL,
    undone_at      REAL    NOT NULL
) STRICT;

CREATE INDEX turn_undos_tournament ON turn_undos (tournament_id, turn);

-- Turns are history, except the one an undo has just recorded (same tournament, turn and
-- resolution moment).
DROP TRIGGER turns_kept;

CREATE TRIGGER turns_kept BEFORE DELETE ON turns
WHEN NOT EXISTS (
    SELECT 1 FROM turn_undos
    WHERE tournament_id = OLD.tournament_id AND turn = OLD.turn
        AND resolved_at = OLD.resolved_at
)
BEGIN
    SELECT RAISE(ABORT, 'turns_are_history');
END;

-- How long after a turn resolves its host may undo it, per server (default 10 minutes).
CREATE TABLE undo_windows (
    guild_id    INTEGER PRIMARY KEY,
    seconds     INTEGER NOT NULL CHECK (seconds BETWEEN 0 AND 86400),
    updated_at  REAL    NOT NULL
) STRICT;
