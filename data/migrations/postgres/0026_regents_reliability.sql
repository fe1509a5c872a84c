-- 0026, the PostgreSQL twin of ../0026_regents_reliability.sql: regents (R-T11) and
-- reliability (R-T12) as 0024 laid them down, made right where they were not.

-- The turn a change of who plays a seat takes effect from is the open one: the turn after
-- the last resolved (PostgreSQL ran turns_advance first already; the same words on both).
CREATE OR REPLACE FUNCTION seat_term(
    tournament bigint, seat_index integer, role text, player bigint, emperor bigint,
    strategy text
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO seat_terms (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    VALUES (
        tournament, seat_index,
        1 + coalesce((SELECT max(turn) FROM turns WHERE tournament_id = tournament), 0),
        role, player, emperor, strategy
    )
    ON CONFLICT (tournament_id, seat, from_turn) DO UPDATE SET
        role = EXCLUDED.role, player_id = EXCLUDED.player_id,
        emperor_id = EXCLUDED.emperor_id, strategy = EXCLUDED.strategy;
END $$;

DROP TRIGGER seats_term_of_handover ON seats;

CREATE TRIGGER seats_term_of_handover AFTER UPDATE OF handed_to ON seats
FOR EACH ROW WHEN (
    NEW.handed_to IS DISTINCT FROM OLD.handed_to
    AND NEW.player_id IS NOT DISTINCT FROM OLD.player_id
)
EXECUTE FUNCTION seats_term_of_handover();

-- A regent that gave a seat back logs which turns it played, publicly.
CREATE OR REPLACE FUNCTION seats_regent_logged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (at, kind, message, params, public, dynasty_id, emperor_id, tournament_id)
    SELECT coalesce(last.resolved_at, OLD.handed_at),
        'seat', 'log-regent',
        json_build_object(
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
    RETURN NULL;
END $$;

DROP TRIGGER seats_regent_logged ON seats;

CREATE TRIGGER seats_regent_logged AFTER UPDATE OF handed_to ON seats
FOR EACH ROW WHEN (
    OLD.regent IS NOT NULL AND NEW.handed_to IS NULL AND OLD.emperor_id IS NOT NULL
)
EXECUTE FUNCTION seats_regent_logged();

-- An undo (0021) puts back who played each seat as the undone turn found it.
ALTER TABLE turn_seats_before ADD COLUMN handed_to text;
ALTER TABLE turn_seats_before ADD COLUMN handed_by bigint;
ALTER TABLE turn_seats_before ADD COLUMN handed_at double precision;
ALTER TABLE turn_seats_before ADD COLUMN regent text;

UPDATE turn_seats_before b SET
    handed_to = s.handed_to, handed_by = s.handed_by, handed_at = s.handed_at, regent = s.regent
FROM seats s WHERE s.tournament_id = b.tournament_id AND s.seat = b.seat;

CREATE OR REPLACE FUNCTION turns_keep_seats_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM turn_seats_before WHERE tournament_id = NEW.tournament_id;
    INSERT INTO turn_seats_before
        (tournament_id, turn, seat, misses, status, takes, handed_to, handed_by, handed_at, regent)
    SELECT tournament_id, NEW.turn, seat, misses, status, takes,
        handed_to, handed_by, handed_at, regent
    FROM seats WHERE tournament_id = NEW.tournament_id;
    RETURN NEW;
END $$;

DROP TRIGGER turns_keep_seats_before ON turns;

CREATE TRIGGER turns_keep_seats_before BEFORE INSERT ON turns
FOR EACH ROW WHEN (NEW.turn > 0) EXECUTE FUNCTION turns_keep_seats_before();

-- A combat that begins while one of its players is away, with a regent chosen: the regent
-- plays that seat from turn 1 (fires after tournaments_first_terms: PostgreSQL runs a row's
-- triggers by name).
CREATE FUNCTION tournaments_start_regents() RETURNS trigger LANGUAGE plpgsql AS $$
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
    RETURN NULL;
END $$;

CREATE TRIGGER tournaments_start_regents AFTER UPDATE OF status ON tournaments
FOR EACH ROW WHEN (OLD.status = 'open' AND NEW.status = 'running')
EXECUTE FUNCTION tournaments_start_regents();

-- The seats' first terms (0024) name a regent that plays from turn 1.
CREATE OR REPLACE FUNCTION tournaments_first_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO seat_terms (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    SELECT tournament_id, seat, 1,
        CASE
            WHEN kind = 'computer' THEN 'computer'
            WHEN kind = 'program' THEN 'program'
            WHEN regent IS NOT NULL THEN 'regent'
            WHEN handed_to IS NOT NULL THEN 'computer'
            ELSE 'player'
        END,
        player_id, emperor_id, coalesce(handed_to, strategy)
    FROM seats WHERE tournament_id = NEW.id
    ON CONFLICT (tournament_id, seat, from_turn) DO UPDATE SET
        role = EXCLUDED.role, player_id = EXCLUDED.player_id,
        emperor_id = EXCLUDED.emperor_id, strategy = EXCLUDED.strategy;
    RETURN NULL;
END $$;

DROP TRIGGER tournaments_first_terms ON tournaments;

CREATE TRIGGER tournaments_first_terms AFTER UPDATE OF status ON tournaments
FOR EACH ROW WHEN (OLD.status = 'open' AND NEW.status = 'running')
EXECUTE FUNCTION tournaments_first_terms();

-- A computer's order (stored without a request id) never replaces a person's.
CREATE FUNCTION orders_person_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'order_taken_back';
END $$;

CREATE TRIGGER orders_person_kept BEFORE UPDATE ON orders
FOR EACH ROW WHEN (OLD.request_id IS NOT NULL AND NEW.request_id IS NULL)
EXECUTE FUNCTION orders_person_kept();
