-- 0022, the PostgreSQL twin of ../0022_votes_reminders_undo.sql (issue #38).
--
-- Agreed draws and concessions (R-G5): one secret vote a seat, for the turn it was cast in.
-- The trigger locks the tournament first (as orders do, 0001), so two last votes cast at
-- once are counted one after the other.
CREATE TABLE combat_votes (
    tournament_id  bigint  NOT NULL,
    seat           integer NOT NULL,
    turn           integer NOT NULL CHECK (turn >= 1),
    winner_seat    integer CHECK (winner_seat BETWEEN 0 AND 7),
    voted_at       double precision NOT NULL,
    PRIMARY KEY (tournament_id, seat),
    FOREIGN KEY (tournament_id, seat) REFERENCES seats (tournament_id, seat)
        ON DELETE CASCADE DEFERRABLE,
    CONSTRAINT vote_not_for_oneself CHECK (winner_seat IS NULL OR winner_seat <> seat)
);

CREATE FUNCTION combat_votes_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND turn = NEW.turn
        FOR NO KEY UPDATE
    ) THEN
        RAISE EXCEPTION 'vote_for_closed_turn';
    END IF;
    IF NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
    ) THEN
        RAISE EXCEPTION 'vote_seat_not_active';
    END IF;
    IF NEW.winner_seat IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.winner_seat AND status = 'active'
    ) THEN
        RAISE EXCEPTION 'vote_winner_not_active';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER combat_votes_open BEFORE INSERT ON combat_votes
FOR EACH ROW EXECUTE FUNCTION combat_votes_open();

-- Reminders under each player's control (issue #38 item 4): see the SQLite twin.
CREATE TABLE reminder_settings (
    player_id       bigint  PRIMARY KEY,
    dms             integer NOT NULL DEFAULT 1 CHECK (dms IN (0, 1)),
    before_seconds  integer CHECK (before_seconds BETWEEN 60 AND 604800),
    time_zone       text    CHECK (length(time_zone) BETWEEN 1 AND 64),
    quiet_start     integer CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end       integer CHECK (quiet_end BETWEEN 0 AND 1439),
    digest_at       integer CHECK (digest_at BETWEEN 0 AND 1439),
    updated_at      double precision NOT NULL,
    CONSTRAINT quiet_hours_whole CHECK (
        (quiet_start IS NULL) = (quiet_end IS NULL)
        AND (quiet_start IS NULL OR quiet_start <> quiet_end)
    )
);

CREATE TABLE reminder_digests (
    player_id  bigint  NOT NULL,
    day        text    NOT NULL CHECK (length(day) = 10),
    sent_at    double precision NOT NULL,
    PRIMARY KEY (player_id, day)
);
