-- 0002 economy: assets, holdings, items, trades, bets and their escrow (R-T5, R-T6).
-- No balance is ever negative: every amount carries a CHECK the bot cannot bypass.

CREATE TABLE assets (
    code   TEXT    PRIMARY KEY,
    name   TEXT    NOT NULL,
    kind   TEXT    NOT NULL CHECK (kind IN ('coin', 'gem', 'metal')),
    value  INTEGER NOT NULL CHECK (value > 0)   -- worth in the smallest coin
) STRICT;

CREATE TABLE holdings (
    dynasty_id  INTEGER NOT NULL REFERENCES dynasties (id),
    asset_code  TEXT    NOT NULL REFERENCES assets (code),
    amount      INTEGER NOT NULL CONSTRAINT holdings_never_negative CHECK (amount >= 0),
    PRIMARY KEY (dynasty_id, asset_code)
) STRICT, WITHOUT ROWID;

CREATE TABLE items (
    code   TEXT PRIMARY KEY,
    name   TEXT NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('key')),
    price  TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(price)),
    CHECK (kind <> 'key' OR code LIKE 'key:_%')
) STRICT;

CREATE TABLE dynasty_items (
    dynasty_id  INTEGER NOT NULL REFERENCES dynasties (id),
    item_code   TEXT    NOT NULL REFERENCES items (code),
    quantity    INTEGER NOT NULL CONSTRAINT items_never_negative CHECK (quantity >= 0),
    PRIMARY KEY (dynasty_id, item_code)
) STRICT, WITHOUT ROWID;

CREATE TABLE trades (
    id               INTEGER PRIMARY KEY,
    from_dynasty_id  INTEGER NOT NULL REFERENCES dynasties (id),
    to_dynasty_id    INTEGER NOT NULL REFERENCES dynasties (id),
    offer            TEXT    NOT NULL CHECK (json_valid(offer)),
    request          TEXT    NOT NULL CHECK (json_valid(request)),
    status           TEXT    NOT NULL DEFAULT 'open'
                     CHECK (status IN ('open', 'accepted', 'declined', 'expired', 'cancelled')),
    created_at       REAL    NOT NULL,
    expires_at       REAL    NOT NULL,
    settled_at       REAL,
    CHECK (from_dynasty_id <> to_dynasty_id),
    CHECK (expires_at > created_at),
    CHECK ((status = 'open') = (settled_at IS NULL))
) STRICT;

CREATE INDEX trades_open ON trades (expires_at) WHERE status = 'open';
CREATE INDEX trades_from ON trades (from_dynasty_id, id);
CREATE INDEX trades_to ON trades (to_dynasty_id, id);

CREATE TRIGGER trades_settled_once BEFORE UPDATE OF status ON trades
WHEN OLD.status <> 'open'
BEGIN
    SELECT RAISE(ABORT, 'trade_closed');
END;

CREATE TABLE bets (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    emperor_id     INTEGER NOT NULL REFERENCES emperors (id),    -- the bettor
    dynasty_id     INTEGER NOT NULL REFERENCES dynasties (id),   -- whose wealth is staked
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),   -- the backed seat
    asset_code     TEXT    NOT NULL REFERENCES assets (code),
    stake          INTEGER NOT NULL CHECK (stake > 0),
    status         TEXT    NOT NULL DEFAULT 'held'
                   CHECK (status IN ('held', 'paid', 'lost', 'refunded')),
    payout         INTEGER NOT NULL DEFAULT 0 CHECK (payout >= 0),
    placed_at      REAL    NOT NULL,
    settled_at     REAL,
    CHECK ((status = 'held') = (settled_at IS NULL)),
    CHECK (status IN ('paid', 'refunded') OR payout = 0),   -- payout: what went back to the bettor
    CHECK (status <> 'refunded' OR payout = stake)
) STRICT;

CREATE INDEX bets_tournament ON bets (tournament_id, status);

-- Stakes held per tournament and asset; always the sum of its held bets.
CREATE TABLE escrow (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    asset_code     TEXT    NOT NULL REFERENCES assets (code),
    amount         INTEGER NOT NULL CONSTRAINT escrow_never_negative CHECK (amount >= 0),
    PRIMARY KEY (tournament_id, asset_code)
) STRICT, WITHOUT ROWID;

-- R-T6: bets until the first turn resolves, by a living emperor, on a filled seat.
CREATE TRIGGER bets_place BEFORE INSERT ON bets
BEGIN
    SELECT RAISE(ABORT, 'betting_closed')
    WHERE NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id
            AND (status = 'open' OR (status = 'running' AND turn = 1))
    );
    SELECT RAISE(ABORT, 'seat_empty')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat
    );
    SELECT RAISE(ABORT, 'emperor_dead')
    WHERE (SELECT alive FROM emperors WHERE id = NEW.emperor_id) = 0;
    SELECT RAISE(ABORT, 'emperor_not_yours')
    WHERE (SELECT dynasty_id FROM emperors WHERE id = NEW.emperor_id) IS NOT NEW.dynasty_id;
    SELECT RAISE(ABORT, 'bet_settled') WHERE NEW.status <> 'held';
END;

CREATE TRIGGER bets_engage AFTER INSERT ON bets
BEGIN
    INSERT INTO engagements (emperor_id, tournament_id, role)
    VALUES (NEW.emperor_id, NEW.tournament_id, 'bettor');
    INSERT INTO escrow (tournament_id, asset_code, amount)
    VALUES (NEW.tournament_id, NEW.asset_code, NEW.stake)
    ON CONFLICT (tournament_id, asset_code) DO UPDATE SET amount = amount + excluded.amount;
END;

CREATE TRIGGER bets_settled_once BEFORE UPDATE ON bets
WHEN OLD.status <> 'held'
    OR NEW.stake <> OLD.stake OR NEW.asset_code <> OLD.asset_code
    OR NEW.tournament_id <> OLD.tournament_id OR NEW.emperor_id <> OLD.emperor_id
BEGIN
    SELECT RAISE(ABORT, 'bet_settled');
END;

CREATE TRIGGER bets_release AFTER UPDATE OF status ON bets
WHEN OLD.status = 'held' AND NEW.status <> 'held'
BEGIN
    UPDATE escrow SET amount = amount - OLD.stake
    WHERE tournament_id = OLD.tournament_id AND asset_code = OLD.asset_code;
    DELETE FROM engagements
    WHERE emperor_id = OLD.emperor_id AND tournament_id = OLD.tournament_id AND role = 'bettor';
END;
