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
