-- 0026: regents (R-T11) and reliability (R-T12) as 0024 laid them down, made right where
-- they were not (issue #38 items 2 and 3; docs/rules.md).

-- The turn a change of who plays a seat takes effect from is the open one: the turn after
-- the last resolved. 0024 read ``tournaments.turn``, but a regent that begins or ends as a
-- turn resolves (turns_regents) fires on SQLite before turns_advance has opened the next
-- turn (SQLite runs the newest trigger first): its term began a turn early, and the line
-- logged when it gave the seat back ended a turn early.
DROP TRIGGER seats_term_of_handover;

CREATE TRIGGER seats_term_of_handover AFTER UPDATE OF handed_to ON seats
WHEN NEW.handed_to IS NOT OLD.handed_to AND NEW.player_id IS OLD.player_id
BEGIN
    INSERT OR REPLACE INTO seat_terms
        (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    VALUES (
        NEW.tournament_id, NEW.seat,
        1 + coalesce((SELECT max(turn) FROM turns WHERE tournament_id = NEW.tournament_id), 0),
        CASE
            WHEN NEW.handed_to IS NULL THEN coalesce((
                SELECT role FROM seat_terms
                WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat
                    AND role IN ('player', 'substitute') AND player_id IS NEW.player_id
                ORDER BY from_turn DESC LIMIT 1
            ), 'player')
            WHEN NEW.regent IS NOT NULL THEN 'regent'
            ELSE 'computer'
        END,
        NEW.player_id, NEW.emperor_id, NEW.handed_to
    );
END;

-- A regent that gave a seat back logs which turns it played, publicly (the board's legend
-- shows the regent while it plays; why it played, an absence or a missed turn, is not
-- said), in the dynasty's log and the combat's, once it played a turn at all.
DROP TRIGGER seats_regent_logged;

CREATE TRIGGER seats_regent_logged AFTER UPDATE OF handed_to ON seats
WHEN OLD.regent IS NOT NULL AND NEW.handed_to IS NULL AND OLD.emperor_id IS NOT NULL
BEGIN
    INSERT INTO events (at, kind, message, params, public, dynasty_id, emperor_id, tournament_id)
    SELECT coalesce(last.resolved_at, OLD.handed_at),
        'seat', 'log-regent',
        json_object(
            'emperor', (SELECT name FROM emperors WHERE id = OLD.emperor_id),
            'tournament', NEW.tournament_id,
            'first', term.from_turn,
            'last', last.turn,
            'level', OLD.handed_to
        ),
        1, (SELECT dynasty_id FROM emperors WHERE id = OLD.emperor_id), OLD.emperor_id,
        NEW.tournament_id
    FROM (
        SELECT turn, resolved_at FROM turns
        WHERE tournament_id = NEW.tournament_id ORDER BY turn DESC LIMIT 1
    ) AS last
    JOIN seat_terms term ON term.tournament_id = NEW.tournament_id AND term.seat = OLD.seat
    WHERE term.role = 'regent' AND term.from_turn <= last.turn
        AND term.from_turn = (
            SELECT max(from_turn) FROM seat_terms
            WHERE tournament_id = NEW.tournament_id AND seat = OLD.seat AND role = 'regent'
        );
END;

-- An undo (0021) puts back who played each seat as the undone turn found it: a regent the
-- turn began stops, a regent the turn ended plays again.
ALTER TABLE turn_seats_before ADD COLUMN handed_to TEXT;
ALTER TABLE turn_seats_before ADD COLUMN handed_by INTEGER;
ALTER TABLE turn_seats_before ADD COLUMN handed_at REAL;
ALTER TABLE turn_seats_before ADD COLUMN regent TEXT;

UPDATE turn_seats_before SET
    handed_to = (SELECT s.handed_to FROM seats s
        WHERE s.tournament_id = turn_seats_before.tournament_id AND s.seat = turn_seats_before.seat),
    handed_by = (SELECT s.handed_by FROM seats s
        WHERE s.tournament_id = turn_seats_before.tournament_id AND s.seat = turn_seats_before.seat),
    handed_at = (SELECT s.handed_at FROM seats s
        WHERE s.tournament_id = turn_seats_before.tournament_id AND s.seat = turn_seats_before.seat),
    regent = (SELECT s.regent FROM seats s
        WHERE s.tournament_id = turn_seats_before.tournament_id AND s.seat = turn_seats_before.seat);

DROP TRIGGER turns_keep_seats_before;

CREATE TRIGGER turns_keep_seats_before BEFORE INSERT ON turns
WHEN NEW.turn > 0
BEGIN
    DELETE FROM turn_seats_before WHERE tournament_id = NEW.tournament_id;
    INSERT INTO turn_seats_before
        (tournament_id, turn, seat, misses, status, takes, handed_to, handed_by, handed_at, regent)
    SELECT tournament_id, NEW.turn, seat, misses, status, takes,
        handed_to, handed_by, handed_at, regent
    FROM seats WHERE tournament_id = NEW.tournament_id;
END;

-- A combat that begins while one of its players is away, with a regent chosen: the regent
-- plays that seat from turn 1, as it would had the absence begun with the combat running.
CREATE TRIGGER tournaments_start_regents AFTER UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running'
BEGIN
    UPDATE seats SET
        handed_to = (SELECT strategy FROM regents r WHERE r.player_id = seats.player_id),
        handed_by = player_id,
        handed_at = NEW.started_at,
        regent = 'away'
    WHERE tournament_id = NEW.id AND status = 'active' AND handed_to IS NULL
        AND kind IN ('player', 'casual')
        AND EXISTS (SELECT 1 FROM regents r WHERE r.player_id = seats.player_id)
        AND EXISTS (
            SELECT 1 FROM absences a
            WHERE a.player_id = seats.player_id AND a.since <= NEW.started_at
                AND NEW.started_at < a.until
        );
END;

-- The seats' first terms (0024) name a regent that plays from turn 1, whichever of the two
-- triggers of the start fires first.
DROP TRIGGER tournaments_first_terms;

CREATE TRIGGER tournaments_first_terms AFTER UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running'
BEGIN
    INSERT OR REPLACE INTO seat_terms
        (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    SELECT tournament_id, seat, 1,
        CASE
            WHEN kind = 'computer' THEN 'computer'
            WHEN kind = 'program' THEN 'program'
            WHEN regent IS NOT NULL THEN 'regent'
            WHEN handed_to IS NOT NULL THEN 'computer'
            ELSE 'player'
        END,
        player_id, emperor_id, coalesce(handed_to, strategy)
    FROM seats WHERE tournament_id = NEW.id;
END;

-- A computer's order (stored without a request id) never replaces a person's: a player who
-- took their seat back from a computer or a regent (R-T10d, R-T11) and ordered keeps their
-- order even if the computer, still thinking, stores its own afterwards.
CREATE TRIGGER orders_person_kept BEFORE UPDATE ON orders
WHEN OLD.request_id IS NOT NULL AND NEW.request_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'order_taken_back');
END;
