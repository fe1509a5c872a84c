-- 0024: substitutes, regents and reliability (issue #38 items 1-3; docs/rules.md R-T10..R-T12).
-- Every limit below is the database's to enforce; bot/services/tournaments/substitutes.py,
-- regents.py and reliability.py name the same numbers for their refusals: keep them equal.

-- Who played each seat, turn by turn (R-T10c). A term begins at ``from_turn`` and lasts until
-- the next term of its seat: the seat's first players from turn 1 (written as the combat
-- starts), then one row whenever a substitute sits down, a seat is handed to a computer or a
-- regent, or a player takes it back. Two changes within one turn leave the last one: a term
-- that played no turn is no term. ``emperor_id``: the emperor the seat played for then.
CREATE TABLE seat_terms (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    from_turn      INTEGER NOT NULL CHECK (from_turn >= 1),
    role           TEXT    NOT NULL
                   CHECK (role IN ('player', 'substitute', 'computer', 'regent', 'program')),
    player_id      INTEGER,
    emperor_id     INTEGER REFERENCES emperors (id),
    strategy       TEXT,
    PRIMARY KEY (tournament_id, seat, from_turn),
    CONSTRAINT computer_terms_name_their_strategy
        CHECK ((role IN ('computer', 'regent')) = (strategy IS NOT NULL))
) STRICT;

CREATE INDEX seat_terms_player ON seat_terms (player_id) WHERE player_id IS NOT NULL;

-- The combats running when this migration ran: their seats' players from turn 1.
INSERT INTO seat_terms (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
SELECT s.tournament_id, s.seat, 1,
    CASE s.kind WHEN 'computer' THEN 'computer' WHEN 'program' THEN 'program' ELSE 'player' END,
    s.player_id, s.emperor_id, s.strategy
FROM seats s JOIN tournaments t ON t.id = s.tournament_id
WHERE t.status = 'running';

CREATE TRIGGER tournaments_first_terms AFTER UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running'
BEGIN
    INSERT OR REPLACE INTO seat_terms
        (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    SELECT tournament_id, seat, 1,
        CASE kind WHEN 'computer' THEN 'computer' WHEN 'program' THEN 'program' ELSE 'player' END,
        player_id, emperor_id, strategy
    FROM seats WHERE tournament_id = NEW.id;
END;

-- A regent (R-T11) is a computer that plays a seat for its player only until the player is
-- back: ``regent`` says why ('away': while the player is away; 'missed': since the player
-- missed a turn, until they take it back), NULL for a handover for the rest of the combat.
ALTER TABLE seats ADD COLUMN regent TEXT
    CONSTRAINT regents_play_handed_seats CHECK (
        regent IS NULL OR (regent IN ('away', 'missed') AND handed_to IS NOT NULL)
    );

-- A seat handed to a computer (0007) may now be taken back by its player (R-T10d), and a
-- regent gives it back (R-T11): ``handed_to`` becomes NULL again. Handing over still
-- happens once per term, as before.
DROP TRIGGER seats_handed_over_once;

CREATE TRIGGER seats_handed_over_once BEFORE UPDATE OF handed_to, handed_by, handed_at ON seats
WHEN NEW.handed_to IS NOT NULL OR NEW.handed_by IS NOT NULL OR NEW.handed_at IS NOT NULL
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

CREATE TRIGGER seats_taken_back BEFORE UPDATE OF handed_to ON seats
WHEN OLD.handed_to IS NOT NULL AND NEW.handed_to IS NULL
BEGIN
    SELECT RAISE(ABORT, 'seat_not_active') WHERE OLD.status <> 'active';
    SELECT RAISE(ABORT, 'tournament_not_running')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'running';
    SELECT RAISE(ABORT, 'handover_incomplete')
    WHERE NEW.handed_by IS NOT NULL OR NEW.handed_at IS NOT NULL OR NEW.regent IS NOT NULL;
END;

-- Who orders changed (a handover, a regent, a seat taken back): a new term from the open turn.
CREATE TRIGGER seats_term_of_handover AFTER UPDATE OF handed_to ON seats
WHEN NEW.handed_to IS NOT OLD.handed_to AND NEW.player_id IS OLD.player_id
BEGIN
    INSERT OR REPLACE INTO seat_terms
        (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    VALUES (
        NEW.tournament_id, NEW.seat, (SELECT turn FROM tournaments WHERE id = NEW.tournament_id),
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

-- A regent that gave a seat back leaves a private line in its dynasty's log (R-T11: which
-- turns it played; private, as an absence is).
CREATE TRIGGER seats_regent_logged AFTER UPDATE OF handed_to ON seats
WHEN OLD.regent IS NOT NULL AND NEW.handed_to IS NULL AND OLD.emperor_id IS NOT NULL
BEGIN
    INSERT INTO events (at, kind, message, params, public, dynasty_id, emperor_id, tournament_id)
    SELECT coalesce(
            (SELECT max(resolved_at) FROM turns WHERE tournament_id = NEW.tournament_id),
            OLD.handed_at
        ),
        'seat', 'log-regent',
        json_object(
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
END;

-- Seats offered to a substitute (R-T10a): by its player, by the host (or a manager) once it
-- has missed 2 turns in a row or is played by a computer, or by the rules (``offered_by``
-- NULL) as soon as it has missed 2 turns in a row. One offer per seat; it ends when someone
-- takes the seat, when its player orders again (the rules' offer), or with its combat; a seat
-- defeated keeps its offer (an undo, 0021, may bring the seat back) but nobody can take it.
CREATE TABLE seat_offers (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    offered_by     INTEGER,
    offered_at     REAL    NOT NULL,
    PRIMARY KEY (tournament_id, seat)
) STRICT;

CREATE TRIGGER seat_offers_open BEFORE INSERT ON seat_offers
BEGIN
    SELECT RAISE(ABORT, 'tournament_not_running')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'running';
    SELECT RAISE(ABORT, 'seat_not_active')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
            AND kind IN ('player', 'casual')
    );
END;

CREATE TRIGGER turns_offer_missing_seats AFTER INSERT ON turns
WHEN NEW.turn > 0 AND json_type(NEW.state, '$.outcome') IS NOT 'object'
BEGIN
    INSERT OR IGNORE INTO seat_offers (tournament_id, seat, offered_by, offered_at)
    SELECT s.tournament_id, s.seat, NULL, NEW.resolved_at
    FROM seats s
    WHERE s.tournament_id = NEW.tournament_id AND s.kind IN ('player', 'casual')
        AND s.status = 'active' AND s.handed_to IS NULL
        AND coalesce(json_extract(NEW.state, '$.missed.' || char(97 + s.seat)), 0) >= 2
        AND NOT EXISTS (
            SELECT 1 FROM json_each(NEW.state, '$.position.defeated')
            WHERE value = char(97 + s.seat)
        )
        AND NOT EXISTS (
            SELECT 1 FROM absences a
            WHERE a.player_id = s.player_id AND a.since <= NEW.resolved_at
                AND NEW.resolved_at < a.until
        );
END;

CREATE TRIGGER orders_withdraw_rules_offer AFTER INSERT ON orders
WHEN NEW.request_id IS NOT NULL
BEGIN
    DELETE FROM seat_offers
    WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND offered_by IS NULL;
END;

CREATE TRIGGER tournaments_offers_end AFTER UPDATE OF status ON tournaments
WHEN NEW.status IN ('finished', 'cancelled')
BEGIN
    DELETE FROM seat_offers WHERE tournament_id = NEW.id;
END;

-- A substitute sits down (R-T10b): the seat's player and emperor change, only while the seat
-- is offered, active and its combat running; the substitute plays with an emperor of its own
-- dynasty (casually only in training), never in an honour combat (its stakes were staked by
-- the emperors who sat down), and never takes a second seat (seats_one_per_player).
DROP TRIGGER seats_fixed;

CREATE TRIGGER seats_fixed BEFORE UPDATE OF tournament_id, seat, kind, player_id, emperor_id
ON seats
WHEN NEW.tournament_id IS NOT OLD.tournament_id OR NEW.seat IS NOT OLD.seat
    OR OLD.kind NOT IN ('player', 'casual') OR NEW.kind NOT IN ('player', 'casual')
    OR NOT EXISTS (
        SELECT 1 FROM seat_offers WHERE tournament_id = OLD.tournament_id AND seat = OLD.seat
    )
BEGIN
    SELECT RAISE(ABORT, 'seat_fixed');
END;

CREATE TRIGGER seats_substitute BEFORE UPDATE OF kind, player_id, emperor_id ON seats
BEGIN
    SELECT RAISE(ABORT, 'seat_fixed')
    WHERE OLD.kind NOT IN ('player', 'casual') OR NEW.kind NOT IN ('player', 'casual')
        OR NOT EXISTS (
            SELECT 1 FROM seat_offers WHERE tournament_id = OLD.tournament_id AND seat = OLD.seat
        );
    SELECT RAISE(ABORT, 'seat_not_active') WHERE OLD.status <> 'active';
    SELECT RAISE(ABORT, 'tournament_not_running')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'running';
    SELECT RAISE(ABORT, 'substitute_in_honour')
    WHERE (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) = 'honour';
    SELECT RAISE(ABORT, 'substitute_needs_emperor')
    WHERE NEW.emperor_id IS NULL
        AND (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) <> 'training';
    SELECT RAISE(ABORT, 'emperor_dead')
    WHERE (SELECT alive FROM emperors WHERE id = NEW.emperor_id) = 0;
    SELECT RAISE(ABORT, 'emperor_not_yours')
    WHERE NEW.emperor_id IS NOT NULL
        AND (SELECT dynasty_id FROM emperors WHERE id = NEW.emperor_id)
            IS NOT (SELECT id FROM dynasties WHERE player_id = NEW.player_id);
    SELECT RAISE(ABORT, 'handover_incomplete') WHERE NEW.handed_to IS NOT NULL;
END;

CREATE TRIGGER seats_substituted AFTER UPDATE OF player_id, emperor_id ON seats
WHEN NEW.player_id IS NOT OLD.player_id OR NEW.emperor_id IS NOT OLD.emperor_id
BEGIN
    DELETE FROM engagements
    WHERE emperor_id = OLD.emperor_id AND tournament_id = OLD.tournament_id;
    INSERT INTO engagements (emperor_id, tournament_id, role)
    SELECT NEW.emperor_id, NEW.tournament_id, 'player' WHERE NEW.emperor_id IS NOT NULL;
    INSERT OR REPLACE INTO seat_terms
        (tournament_id, seat, from_turn, role, player_id, emperor_id, strategy)
    VALUES (
        NEW.tournament_id, NEW.seat, (SELECT turn FROM tournaments WHERE id = NEW.tournament_id),
        'substitute', NEW.player_id, NEW.emperor_id, NULL
    );
    DELETE FROM seat_offers WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat;
END;

-- Regents (R-T11): the computer a player chose to play its seats while it is away, and whether
-- it also takes a seat over after one missed turn.
CREATE TABLE regents (
    player_id   INTEGER PRIMARY KEY REFERENCES players (id),
    strategy    TEXT    NOT NULL,
    after_miss  INTEGER NOT NULL DEFAULT 0 CHECK (after_miss IN (0, 1))
) STRICT;

CREATE TRIGGER absences_regent_begins AFTER INSERT ON absences
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
END;

-- An absence that simply ran out gives the seat back once the next turn resolves; a player
-- who chose it gets a regent from the turn after its first miss.
CREATE TRIGGER turns_regents AFTER INSERT ON turns
WHEN NEW.turn > 0 AND json_type(NEW.state, '$.outcome') IS NOT 'object'
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
        AND coalesce(json_extract(NEW.state, '$.missed.' || char(97 + seat)), 0) >= 1
        AND NOT EXISTS (
            SELECT 1 FROM json_each(NEW.state, '$.position.defeated')
            WHERE value = char(97 + seat)
        )
        AND EXISTS (SELECT 1 FROM regents WHERE player_id = seats.player_id AND after_miss = 1);
END;

-- Reliability (R-T12): one row per serious turn a person was due to order, and whether it
-- did. Written before the turn row, from the seats as the turn found them: a seat played by
-- a computer, a regent or a program owes nothing, nor does a player away.
CREATE TABLE turns_due (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    turn           INTEGER NOT NULL CHECK (turn >= 1),
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    player_id      INTEGER NOT NULL,
    ordered        INTEGER NOT NULL CHECK (ordered IN (0, 1)),
    PRIMARY KEY (tournament_id, turn, seat)
) STRICT;

CREATE INDEX turns_due_player ON turns_due (player_id, tournament_id);

CREATE TRIGGER turns_count_due BEFORE INSERT ON turns
WHEN NEW.turn > 0
    AND (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) <> 'training'
BEGIN
    INSERT OR REPLACE INTO turns_due (tournament_id, turn, seat, player_id, ordered)
    SELECT s.tournament_id, NEW.turn, s.seat, s.player_id,
        EXISTS (
            SELECT 1 FROM orders o
            WHERE o.tournament_id = s.tournament_id AND o.turn = NEW.turn AND o.seat = s.seat
        )
    FROM seats s
    WHERE s.tournament_id = NEW.tournament_id AND s.status = 'active'
        AND s.kind IN ('player', 'casual') AND s.handed_to IS NULL
        AND NOT EXISTS (
            SELECT 1 FROM absences a
            WHERE a.player_id = s.player_id AND a.since <= NEW.resolved_at
                AND NEW.resolved_at < a.until
        );
END;

-- A host may ask a minimum reliability (percent of turns ordered over a player's last 10
-- serious combats) to join; a player with no such combat yet may join.
ALTER TABLE tournaments ADD COLUMN min_reliability INTEGER
    CONSTRAINT min_reliability_is_a_percentage
        CHECK (min_reliability IS NULL OR min_reliability BETWEEN 1 AND 100);

CREATE TRIGGER seats_reliable_enough BEFORE INSERT ON seats
WHEN NEW.player_id IS NOT NULL
    AND (SELECT min_reliability FROM tournaments WHERE id = NEW.tournament_id) IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'reliability_too_low')
    WHERE (
        SELECT 100 * sum(d.ordered) < count(*) * (
            SELECT min_reliability FROM tournaments WHERE id = NEW.tournament_id
        )
        FROM turns_due d
        WHERE d.player_id = NEW.player_id AND d.tournament_id IN (
            SELECT tournament_id FROM turns_due WHERE player_id = NEW.player_id
            GROUP BY tournament_id ORDER BY tournament_id DESC LIMIT 10
        )
    );
END;

-- A training's scrub (0010) forgets these rows too (R-T4).
CREATE TRIGGER tournaments_scrub_terms AFTER UPDATE OF scrubbed_at ON tournaments
WHEN OLD.scrubbed_at IS NULL AND NEW.scrubbed_at IS NOT NULL
BEGIN
    DELETE FROM seat_terms WHERE tournament_id = NEW.id;
    DELETE FROM seat_offers WHERE tournament_id = NEW.id;
    DELETE FROM turns_due WHERE tournament_id = NEW.id;
END;

-- A turn undone (0021) leaves no turns due here either.
CREATE TRIGGER turns_undone_due AFTER DELETE ON turns
BEGIN
    DELETE FROM turns_due WHERE tournament_id = OLD.tournament_id AND turn = OLD.turn;
END;
