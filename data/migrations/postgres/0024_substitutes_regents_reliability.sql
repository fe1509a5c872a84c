-- 0024, the PostgreSQL twin of ../0024_substitutes_regents_reliability.sql: substitutes,
-- regents and reliability (issue #38 items 1-3; docs/rules.md R-T10..R-T12). The same tables,
-- rules and refusal tokens; each check first locks the tournament its rule hangs on.

CREATE TABLE seat_terms (
    tournament_id  bigint  NOT NULL REFERENCES tournaments (id) DEFERRABLE,
    seat           integer NOT NULL CHECK (seat BETWEEN 0 AND 7),
    from_turn      integer NOT NULL CHECK (from_turn >= 1),
    role           text    NOT NULL
                   CHECK (role IN ('player', 'substitute', 'computer', 'regent', 'program')),
    player_id      bigint,
    emperor_id     bigint  REFERENCES emperors (id) DEFERRABLE,
    strategy       text,
    PRIMARY KEY (tournament_id, seat, from_turn),
    CONSTRAINT computer_terms_name_their_strategy
        CHECK ((role IN ('computer', 'regent')) = (strategy IS NOT NULL))
);

CREATE INDEX seat_terms_player ON seat_terms (player_id) WHERE player_id IS NOT NULL;

INSERT INTO seat_terms (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
SELECT s.tournament_id, s.seat, 1,
    CASE s.kind WHEN 'computer' THEN 'computer' WHEN 'program' THEN 'program' ELSE 'player' END,
    s.player_id, s.emperor_id, s.strategy
FROM seats s JOIN tournaments t ON t.id = s.tournament_id
WHERE t.status = 'running';

-- A term written again for the same turn replaces the one before (a term that played no turn
-- is no term).
CREATE FUNCTION seat_term(
    tournament bigint, seat_index integer, role text, player bigint, emperor bigint,
    strategy text
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO seat_terms (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    VALUES (
        tournament, seat_index, (SELECT turn FROM tournaments WHERE id = tournament),
        role, player, emperor, strategy
    )
    ON CONFLICT (tournament_id, seat, from_turn) DO UPDATE SET
        role = EXCLUDED.role, player_id = EXCLUDED.player_id,
        emperor_id = EXCLUDED.emperor_id, strategy = EXCLUDED.strategy;
END $$;

CREATE FUNCTION tournaments_first_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO seat_terms (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    SELECT tournament_id, seat, 1,
        CASE kind WHEN 'computer' THEN 'computer' WHEN 'program' THEN 'program' ELSE 'player' END,
        player_id, emperor_id, strategy
    FROM seats WHERE tournament_id = NEW.id
    ON CONFLICT (tournament_id, seat, from_turn) DO UPDATE SET
        role = EXCLUDED.role, player_id = EXCLUDED.player_id,
        emperor_id = EXCLUDED.emperor_id, strategy = EXCLUDED.strategy;
    RETURN NULL;
END $$;

CREATE TRIGGER tournaments_first_terms AFTER UPDATE OF status ON tournaments
FOR EACH ROW WHEN (OLD.status = 'open' AND NEW.status = 'running')
EXECUTE FUNCTION tournaments_first_terms();

ALTER TABLE seats ADD COLUMN regent text
    CONSTRAINT regents_play_handed_seats CHECK (
        regent IS NULL OR (regent IN ('away', 'missed') AND handed_to IS NOT NULL)
    );

DROP TRIGGER seats_handed_over_once ON seats;

CREATE OR REPLACE FUNCTION seats_handed_over_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.handed_to IS NOT NULL THEN
        RAISE EXCEPTION 'seat_handed_over';
    END IF;
    IF OLD.status <> 'active' THEN
        RAISE EXCEPTION 'seat_not_active';
    END IF;
    IF (SELECT status FROM tournaments WHERE id = NEW.tournament_id FOR NO KEY UPDATE)
        IS DISTINCT FROM 'running' THEN
        RAISE EXCEPTION 'tournament_not_running';
    END IF;
    IF NEW.handed_to IS NULL OR NEW.handed_by IS NULL OR NEW.handed_at IS NULL THEN
        RAISE EXCEPTION 'handover_incomplete';
    END IF;
    IF NEW.handed_by IS DISTINCT FROM OLD.player_id AND OLD.misses < 2 THEN
        RAISE EXCEPTION 'seat_still_played';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER seats_handed_over_once BEFORE UPDATE OF handed_to, handed_by, handed_at ON seats
FOR EACH ROW WHEN (
    NEW.handed_to IS NOT NULL OR NEW.handed_by IS NOT NULL OR NEW.handed_at IS NOT NULL
)
EXECUTE FUNCTION seats_handed_over_once();

CREATE FUNCTION seats_taken_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status <> 'active' THEN
        RAISE EXCEPTION 'seat_not_active';
    END IF;
    IF (SELECT status FROM tournaments WHERE id = NEW.tournament_id FOR NO KEY UPDATE)
        IS DISTINCT FROM 'running' THEN
        RAISE EXCEPTION 'tournament_not_running';
    END IF;
    IF NEW.handed_by IS NOT NULL OR NEW.handed_at IS NOT NULL OR NEW.regent IS NOT NULL THEN
        RAISE EXCEPTION 'handover_incomplete';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER seats_taken_back BEFORE UPDATE OF handed_to ON seats
FOR EACH ROW WHEN (OLD.handed_to IS NOT NULL AND NEW.handed_to IS NULL)
EXECUTE FUNCTION seats_taken_back();

CREATE FUNCTION seats_term_of_handover() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM seat_term(
        NEW.tournament_id, NEW.seat,
        CASE
            WHEN NEW.handed_to IS NULL THEN coalesce((
                SELECT role FROM seat_terms
                WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat
                    AND role IN ('player', 'substitute')
                    AND player_id IS NOT DISTINCT FROM NEW.player_id
                ORDER BY from_turn DESC LIMIT 1
            ), 'player')
            WHEN NEW.regent IS NOT NULL THEN 'regent'
            ELSE 'computer'
        END,
        NEW.player_id, NEW.emperor_id, NEW.handed_to
    );
    RETURN NULL;
END $$;

CREATE TRIGGER seats_term_of_handover AFTER UPDATE OF handed_to ON seats
FOR EACH ROW WHEN (
    NEW.handed_to IS DISTINCT FROM OLD.handed_to
    AND NEW.player_id IS NOT DISTINCT FROM OLD.player_id
)
EXECUTE FUNCTION seats_term_of_handover();

CREATE FUNCTION seats_regent_logged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (at, kind, message, params, public, dynasty_id, emperor_id, tournament_id)
    SELECT coalesce(
            (SELECT max(resolved_at) FROM turns WHERE tournament_id = NEW.tournament_id),
            OLD.handed_at
        ),
        'seat', 'log-regent',
        json_build_object(
            'emperor', (SELECT name FROM emperors WHERE id = OLD.emperor_id),
            'tournament', NEW.tournament_id,
            'first', term.from_turn,
            'last', t.turn - 1,
            'level', OLD.handed_to
        ),
        0, (SELECT dynasty_id FROM emperors WHERE id = OLD.emperor_id), OLD.emperor_id,
        NEW.tournament_id
    FROM tournaments t
    JOIN seat_terms term ON term.tournament_id = t.id AND term.seat = OLD.seat
    WHERE t.id = NEW.tournament_id AND term.role = 'regent' AND term.from_turn < t.turn
        AND term.from_turn = (
            SELECT max(from_turn) FROM seat_terms
            WHERE tournament_id = t.id AND seat = OLD.seat AND role = 'regent'
        );
    RETURN NULL;
END $$;

CREATE TRIGGER seats_regent_logged AFTER UPDATE OF handed_to ON seats
FOR EACH ROW WHEN (
    OLD.regent IS NOT NULL AND NEW.handed_to IS NULL AND OLD.emperor_id IS NOT NULL
)
EXECUTE FUNCTION seats_regent_logged();

CREATE TABLE seat_offers (
    tournament_id  bigint  NOT NULL REFERENCES tournaments (id) DEFERRABLE,
    seat           integer NOT NULL CHECK (seat BETWEEN 0 AND 7),
    offered_by     bigint,
    offered_at     double precision NOT NULL,
    PRIMARY KEY (tournament_id, seat)
);

CREATE FUNCTION seat_offers_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM tournaments WHERE id = NEW.tournament_id FOR NO KEY UPDATE)
        IS DISTINCT FROM 'running' THEN
        RAISE EXCEPTION 'tournament_not_running';
    END IF;
    IF NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
            AND kind IN ('player', 'casual')
    ) THEN
        RAISE EXCEPTION 'seat_not_active';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER seat_offers_open BEFORE INSERT ON seat_offers
FOR EACH ROW EXECUTE FUNCTION seat_offers_open();

CREATE FUNCTION turns_offer_missing_seats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    state jsonb := NEW.state::jsonb;
    defeated text[] := ARRAY(SELECT jsonb_array_elements_text(state -> 'position' -> 'defeated'));
BEGIN
    INSERT INTO seat_offers (tournament_id, seat, offered_by, offered_at)
    SELECT s.tournament_id, s.seat, NULL, NEW.resolved_at
    FROM seats s
    WHERE s.tournament_id = NEW.tournament_id AND s.kind IN ('player', 'casual')
        AND s.status = 'active' AND s.handed_to IS NULL
        AND coalesce((state -> 'missed' ->> chr(97 + s.seat))::integer, 0) >= 2
        AND NOT chr(97 + s.seat) = ANY (defeated)
        AND NOT EXISTS (
            SELECT 1 FROM absences a
            WHERE a.player_id = s.player_id AND a.since <= NEW.resolved_at
                AND NEW.resolved_at < a.until
        )
    ON CONFLICT (tournament_id, seat) DO NOTHING;
    RETURN NULL;
END $$;

CREATE TRIGGER turns_offer_missing_seats AFTER INSERT ON turns
FOR EACH ROW WHEN (NEW.turn > 0 AND json_typeof(NEW.state -> 'outcome') IS DISTINCT FROM 'object')
EXECUTE FUNCTION turns_offer_missing_seats();

CREATE FUNCTION orders_withdraw_rules_offer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM seat_offers
    WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND offered_by IS NULL;
    RETURN NULL;
END $$;

CREATE TRIGGER orders_withdraw_rules_offer AFTER INSERT ON orders
FOR EACH ROW WHEN (NEW.request_id IS NOT NULL) EXECUTE FUNCTION orders_withdraw_rules_offer();

CREATE FUNCTION tournaments_offers_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM seat_offers WHERE tournament_id = NEW.id;
    RETURN NULL;
END $$;

CREATE TRIGGER tournaments_offers_end AFTER UPDATE OF status ON tournaments
FOR EACH ROW WHEN (NEW.status IN ('finished', 'cancelled'))
EXECUTE FUNCTION tournaments_offers_end();

DROP TRIGGER seats_fixed ON seats;

CREATE TRIGGER seats_fixed BEFORE UPDATE OF tournament_id, seat, kind, player_id, emperor_id
ON seats FOR EACH ROW WHEN (
    NEW.tournament_id IS DISTINCT FROM OLD.tournament_id OR NEW.seat IS DISTINCT FROM OLD.seat
    OR OLD.kind NOT IN ('player', 'casual') OR NEW.kind NOT IN ('player', 'casual')
)
EXECUTE FUNCTION seats_fixed();

CREATE FUNCTION seats_substitute() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    tournament tournaments%ROWTYPE;
BEGIN
    SELECT * INTO tournament FROM tournaments WHERE id = NEW.tournament_id FOR NO KEY UPDATE;
    IF NOT EXISTS (
        SELECT 1 FROM seat_offers WHERE tournament_id = OLD.tournament_id AND seat = OLD.seat
    ) THEN
        RAISE EXCEPTION 'seat_fixed';
    END IF;
    IF OLD.status <> 'active' THEN
        RAISE EXCEPTION 'seat_not_active';
    END IF;
    IF tournament.status IS DISTINCT FROM 'running' THEN
        RAISE EXCEPTION 'tournament_not_running';
    END IF;
    IF tournament.kind = 'honour' THEN
        RAISE EXCEPTION 'substitute_in_honour';
    END IF;
    IF NEW.emperor_id IS NULL AND tournament.kind <> 'training' THEN
        RAISE EXCEPTION 'substitute_needs_emperor';
    END IF;
    IF (SELECT alive FROM emperors WHERE id = NEW.emperor_id) = 0 THEN
        RAISE EXCEPTION 'emperor_dead';
    END IF;
    IF NEW.emperor_id IS NOT NULL
        AND (SELECT dynasty_id FROM emperors WHERE id = NEW.emperor_id)
            IS DISTINCT FROM (SELECT id FROM dynasties WHERE player_id = NEW.player_id) THEN
        RAISE EXCEPTION 'emperor_not_yours';
    END IF;
    IF NEW.handed_to IS NOT NULL THEN
        RAISE EXCEPTION 'handover_incomplete';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER seats_substitute BEFORE UPDATE OF kind, player_id, emperor_id ON seats
FOR EACH ROW EXECUTE FUNCTION seats_substitute();

CREATE FUNCTION seats_substituted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM engagements
    WHERE emperor_id = OLD.emperor_id AND tournament_id = OLD.tournament_id;
    IF NEW.emperor_id IS NOT NULL THEN
        INSERT INTO engagements (emperor_id, tournament_id, role)
        VALUES (NEW.emperor_id, NEW.tournament_id, 'player');
    END IF;
    PERFORM seat_term(NEW.tournament_id, NEW.seat, 'substitute', NEW.player_id, NEW.emperor_id, NULL);
    DELETE FROM seat_offers WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat;
    RETURN NULL;
END $$;

CREATE TRIGGER seats_substituted AFTER UPDATE OF player_id, emperor_id ON seats
FOR EACH ROW WHEN (
    NEW.player_id IS DISTINCT FROM OLD.player_id OR NEW.emperor_id IS DISTINCT FROM OLD.emperor_id
)
EXECUTE FUNCTION seats_substituted();

CREATE TABLE regents (
    player_id   bigint  PRIMARY KEY REFERENCES players (id) DEFERRABLE,
    strategy    text    NOT NULL,
    after_miss  integer NOT NULL DEFAULT 0 CHECK (after_miss IN (0, 1))
);

CREATE FUNCTION absences_regent_begins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats SET
        handed_to = (SELECT strategy FROM regents WHERE player_id = NEW.player_id),
        handed_by = NEW.player_id,
        handed_at = NEW.since,
        regent = 'away'
    WHERE player_id = NEW.player_id AND status = 'active' AND handed_to IS NULL
        AND kind IN ('player', 'casual')
        AND EXISTS (SELECT 1 FROM regents WHERE player_id = NEW.player_id)
        AND (SELECT status FROM tournaments WHERE id = seats.tournament_id) = 'running';
    RETURN NULL;
END $$;

CREATE TRIGGER absences_regent_begins AFTER INSERT ON absences
FOR EACH ROW EXECUTE FUNCTION absences_regent_begins();

CREATE FUNCTION turns_regents() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    state jsonb := NEW.state::jsonb;
    defeated text[] := ARRAY(SELECT jsonb_array_elements_text(state -> 'position' -> 'defeated'));
BEGIN
    UPDATE seats SET handed_to = NULL, handed_by = NULL, handed_at = NULL, regent = NULL
    WHERE tournament_id = NEW.tournament_id AND regent = 'away' AND status = 'active'
        AND NOT EXISTS (
            SELECT 1 FROM absences a
            WHERE a.player_id = seats.player_id AND a.since <= NEW.resolved_at
                AND NEW.resolved_at < a.until
        );
    UPDATE seats SET
        handed_to = (SELECT strategy FROM regents WHERE player_id = seats.player_id),
        handed_by = player_id,
        handed_at = NEW.resolved_at,
        regent = 'missed'
    WHERE tournament_id = NEW.tournament_id AND status = 'active' AND handed_to IS NULL
        AND kind IN ('player', 'casual')
        AND coalesce((state -> 'missed' ->> chr(97 + seat))::integer, 0) >= 1
        AND NOT chr(97 + seat) = ANY (defeated)
        AND EXISTS (SELECT 1 FROM regents WHERE player_id = seats.player_id AND after_miss = 1);
    RETURN NULL;
END $$;

CREATE TRIGGER turns_regents AFTER INSERT ON turns
FOR EACH ROW WHEN (NEW.turn > 0 AND json_typeof(NEW.state -> 'outcome') IS DISTINCT FROM 'object')
EXECUTE FUNCTION turns_regents();

CREATE TABLE turns_due (
    tournament_id  bigint  NOT NULL REFERENCES tournaments (id) DEFERRABLE,
    turn           integer NOT NULL CHECK (turn >= 1),
    seat           integer NOT NULL CHECK (seat BETWEEN 0 AND 7),
    player_id      bigint  NOT NULL,
    ordered        integer NOT NULL CHECK (ordered IN (0, 1)),
    PRIMARY KEY (tournament_id, turn, seat)
);

CREATE INDEX turns_due_player ON turns_due (player_id, tournament_id);

CREATE FUNCTION turns_count_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT kind FROM tournaments WHERE id = NEW.tournament_id FOR NO KEY UPDATE)
        = 'training' THEN
        RETURN NEW;
    END IF;
    INSERT INTO turns_due (tournament_id, turn, seat, player_id, ordered)
    SELECT s.tournament_id, NEW.turn, s.seat, s.player_id,
        CASE WHEN EXISTS (
            SELECT 1 FROM orders o
            WHERE o.tournament_id = s.tournament_id AND o.turn = NEW.turn AND o.seat = s.seat
        ) THEN 1 ELSE 0 END
    FROM seats s
    WHERE s.tournament_id = NEW.tournament_id AND s.status = 'active'
        AND s.kind IN ('player', 'casual') AND s.handed_to IS NULL
        AND NOT EXISTS (
            SELECT 1 FROM absences a
            WHERE a.player_id = s.player_id AND a.since <= NEW.resolved_at
                AND NEW.resolved_at < a.until
        )
    ON CONFLICT (tournament_id, turn, seat) DO UPDATE SET
        player_id = EXCLUDED.player_id, ordered = EXCLUDED.ordered;
    RETURN NEW;
END $$;

CREATE TRIGGER turns_count_due BEFORE INSERT ON turns
FOR EACH ROW WHEN (NEW.turn > 0) EXECUTE FUNCTION turns_count_due();

ALTER TABLE tournaments ADD COLUMN min_reliability integer
    CONSTRAINT min_reliability_is_a_percentage
        CHECK (min_reliability IS NULL OR min_reliability BETWEEN 1 AND 100);

CREATE FUNCTION seats_reliable_enough() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    least integer := (SELECT min_reliability FROM tournaments WHERE id = NEW.tournament_id);
BEGIN
    IF least IS NOT NULL AND (
        SELECT 100 * sum(d.ordered) < count(*) * least
        FROM turns_due d
        WHERE d.player_id = NEW.player_id AND d.tournament_id IN (
            SELECT tournament_id FROM turns_due WHERE player_id = NEW.player_id
            GROUP BY tournament_id ORDER BY tournament_id DESC LIMIT 10
        )
    ) THEN
        RAISE EXCEPTION 'reliability_too_low';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER seats_reliable_enough BEFORE INSERT ON seats
FOR EACH ROW WHEN (NEW.player_id IS NOT NULL) EXECUTE FUNCTION seats_reliable_enough();

CREATE FUNCTION tournaments_scrub_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM seat_terms WHERE tournament_id = NEW.id;
    DELETE FROM seat_offers WHERE tournament_id = NEW.id;
    DELETE FROM turns_due WHERE tournament_id = NEW.id;
    RETURN NULL;
END $$;

CREATE TRIGGER tournaments_scrub_terms AFTER UPDATE OF scrubbed_at ON tournaments
FOR EACH ROW WHEN (OLD.scrubbed_at IS NULL AND NEW.scrubbed_at IS NOT NULL)
EXECUTE FUNCTION tournaments_scrub_terms();

CREATE FUNCTION turns_undone_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM turns_due WHERE tournament_id = OLD.tournament_id AND turn = OLD.turn;
    RETURN NULL;
END $$;

CREATE TRIGGER turns_undone_due AFTER DELETE ON turns
FOR EACH ROW EXECUTE FUNCTION turns_undone_due();
