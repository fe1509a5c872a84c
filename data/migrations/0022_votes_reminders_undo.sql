-- 0022 (issue #38): agreed draws and concessions (R-G5).
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
