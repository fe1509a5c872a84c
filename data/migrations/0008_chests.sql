-- 0008 chests (R-T9): a serious tournament may announce chests; every seat a player takes
-- deposits a secret amount of gold coins into its chest, held in escrow until the combat ends.
-- The database keeps every rule of it: the announced range, player seats only, deposits only
-- while the tournament is open, a chest per seat before the start, each chest settled once
-- (captured or returned) and every chest settled before its tournament ends, and the escrow
-- always holding exactly the held bets and the held chests.

-- The announced terms: the least and the most a chest may hold (gold coins), and the
-- reputation the most generous and the stingiest captured chest win and lose. All three or
-- none (no chests); never in training (R-T4); never changed once announced.
ALTER TABLE tournaments ADD COLUMN chest_min INTEGER
    CONSTRAINT chest_min_positive CHECK (chest_min IS NULL OR chest_min >= 1);
ALTER TABLE tournaments ADD COLUMN chest_max INTEGER
    CONSTRAINT chest_range CHECK (
        (chest_max IS NULL) = (chest_min IS NULL)
        AND (chest_max IS NULL OR chest_max BETWEEN chest_min AND 1000000000000)
    );
ALTER TABLE tournaments ADD COLUMN chest_reputation INTEGER
    CONSTRAINT chest_terms CHECK (
        (chest_reputation IS NULL) = (chest_min IS NULL)
        AND (chest_reputation IS NULL OR chest_reputation >= 0)
        AND (chest_min IS NULL OR kind <> 'training')
    );

CREATE TRIGGER tournaments_chest_terms_fixed
BEFORE UPDATE OF chest_min, chest_max, chest_reputation ON tournaments
WHEN OLD.chest_min IS NOT NEW.chest_min
    OR OLD.chest_max IS NOT NEW.chest_max
    OR OLD.chest_reputation IS NOT NEW.chest_reputation
BEGIN
    SELECT RAISE(ABORT, 'chest_terms_fixed');
END;

-- One row per deposit. ``dynasty_id`` deposited it; a captured chest went to ``captured_by``
-- (the dynasty of the seat ``captured_seat``, whose piece ended a turn on it); a returned one
-- went back to its owner. A seat that leaves gets its chest back, so a seat may have several
-- rows, but at most one held.
CREATE TABLE chests (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    dynasty_id     INTEGER NOT NULL REFERENCES dynasties (id),
    asset_code     TEXT    NOT NULL DEFAULT 'gold' REFERENCES assets (code)
                   CHECK (asset_code = 'gold'),
    amount         INTEGER NOT NULL CHECK (amount >= 1 AND amount <= 1000000000000),
    status         TEXT    NOT NULL DEFAULT 'held'
                   CHECK (status IN ('held', 'captured', 'returned')),
    captured_by    INTEGER REFERENCES dynasties (id),
    captured_seat  INTEGER CHECK (captured_seat BETWEEN 0 AND 7),
    deposited_at   REAL    NOT NULL,
    settled_at     REAL,
    CHECK ((status = 'held') = (settled_at IS NULL)),
    CHECK ((status = 'captured') = (captured_by IS NOT NULL)),
    CHECK ((captured_by IS NULL) = (captured_seat IS NULL)),
    CHECK (captured_by IS NULL OR (captured_by <> dynasty_id AND captured_seat <> seat))
) STRICT;

CREATE UNIQUE INDEX chests_held_per_seat ON chests (tournament_id, seat) WHERE status = 'held';
CREATE INDEX chests_tournament ON chests (tournament_id, status);

-- A deposit: into a tournament that announced chests and is still open, by the dynasty of the
-- player who holds that seat (computer and casual seats have no chest), within the terms.
CREATE TRIGGER chests_deposit BEFORE INSERT ON chests
BEGIN
    SELECT RAISE(ABORT, 'no_chests')
    WHERE (SELECT chest_min FROM tournaments WHERE id = NEW.tournament_id) IS NULL;
    SELECT RAISE(ABORT, 'tournament_not_open')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'open';
    SELECT RAISE(ABORT, 'chest_out_of_range')
    WHERE NEW.amount < (SELECT chest_min FROM tournaments WHERE id = NEW.tournament_id)
        OR NEW.amount > (SELECT chest_max FROM tournaments WHERE id = NEW.tournament_id);
    SELECT RAISE(ABORT, 'chest_not_a_player_seat')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats s JOIN dynasties d ON d.player_id = s.player_id
        WHERE s.tournament_id = NEW.tournament_id AND s.seat = NEW.seat
            AND s.kind = 'player' AND d.id = NEW.dynasty_id
    );
    SELECT RAISE(ABORT, 'chest_settled') WHERE NEW.status <> 'held';
END;

CREATE TRIGGER chests_escrow AFTER INSERT ON chests
BEGIN
    INSERT INTO escrow (tournament_id, asset_code, amount)
    VALUES (NEW.tournament_id, NEW.asset_code, NEW.amount)
    ON CONFLICT (tournament_id, asset_code) DO UPDATE SET amount = amount + excluded.amount;
END;

-- Settled once, and nothing but its settlement ever changes.
CREATE TRIGGER chests_settled_once BEFORE UPDATE ON chests
WHEN OLD.status <> 'held'
    OR NEW.amount <> OLD.amount OR NEW.asset_code <> OLD.asset_code
    OR NEW.tournament_id <> OLD.tournament_id OR NEW.seat <> OLD.seat
    OR NEW.dynasty_id <> OLD.dynasty_id OR NEW.deposited_at <> OLD.deposited_at
BEGIN
    SELECT RAISE(ABORT, 'chest_settled');
END;

-- A chest is captured at the end of its combat (while the tournament still runs: it finishes
-- once every chest is settled), and only for the dynasty of the player who holds the
-- capturing seat: a chest captured by a computer player's seat returns to its owner.
CREATE TRIGGER chests_capture BEFORE UPDATE OF status ON chests
WHEN NEW.status = 'captured'
BEGIN
    SELECT RAISE(ABORT, 'chest_not_capturable')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'running'
        OR NOT EXISTS (
            SELECT 1 FROM seats s JOIN dynasties d ON d.player_id = s.player_id
            WHERE s.tournament_id = NEW.tournament_id AND s.seat = NEW.captured_seat
                AND s.kind = 'player' AND d.id = NEW.captured_by
        );
END;

CREATE TRIGGER chests_release AFTER UPDATE OF status ON chests
WHEN OLD.status = 'held' AND NEW.status <> 'held'
BEGIN
    UPDATE escrow SET amount = amount - OLD.amount
    WHERE tournament_id = OLD.tournament_id AND asset_code = OLD.asset_code;
END;

CREATE TRIGGER chests_kept BEFORE DELETE ON chests
BEGIN
    SELECT RAISE(ABORT, 'chests_are_history');
END;

-- A seat leaves only once its chest is back with its owner.
CREATE TRIGGER seats_leave_with_chest BEFORE DELETE ON seats
WHEN EXISTS (
    SELECT 1 FROM chests
    WHERE tournament_id = OLD.tournament_id AND seat = OLD.seat AND status = 'held'
)
BEGIN
    SELECT RAISE(ABORT, 'chest_held');
END;

-- The combat starts only with every player's chest filled.
CREATE TRIGGER tournaments_chests_to_start BEFORE UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running' AND NEW.chest_min IS NOT NULL
    AND EXISTS (
        SELECT 1 FROM seats s
        WHERE s.tournament_id = NEW.id AND s.kind = 'player'
            AND NOT EXISTS (
                SELECT 1 FROM chests c
                WHERE c.tournament_id = s.tournament_id AND c.seat = s.seat AND c.status = 'held'
            )
    )
BEGIN
    SELECT RAISE(ABORT, 'chest_missing');
END;

-- A tournament ends (finished or cancelled) only once every chest is captured or returned:
-- no gold is ever left in escrow.
CREATE TRIGGER tournaments_chests_settled BEFORE UPDATE OF status ON tournaments
WHEN NEW.status IN ('finished', 'cancelled') AND OLD.status <> NEW.status
    AND EXISTS (SELECT 1 FROM chests WHERE tournament_id = NEW.id AND status = 'held')
BEGIN
    SELECT RAISE(ABORT, 'chests_held');
END;
