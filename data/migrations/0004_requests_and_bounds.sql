-- 0004: a request (a Discord interaction) changes the game at most once, and no amount is
-- above what any dynasty could hold (data.rows.MAX_AMOUNT = 1000000000000: keep them equal).

-- A change made for a request records the request's id in the same transaction
-- (data/repositories/requests.py): the same request delivered twice finds its id taken and
-- changes nothing. Ids are forgotten after a day; Discord never delivers one that late.
CREATE TABLE applied_requests (
    id          INTEGER PRIMARY KEY,   -- the Discord interaction id
    action      TEXT    NOT NULL,
    applied_at  REAL    NOT NULL
) STRICT;

CREATE INDEX applied_requests_age ON applied_requests (applied_at);

-- An order is stored by one statement (data/db.py explains why): these triggers record its
-- request in that statement, so the order and its request's id are stored together or not at
-- all. A request already applied aborts the statement (UNIQUE applied_requests.id).
ALTER TABLE orders ADD COLUMN request_id INTEGER;

CREATE TRIGGER orders_request_insert AFTER INSERT ON orders
WHEN NEW.request_id IS NOT NULL
BEGIN
    INSERT INTO applied_requests (id, action, applied_at)
    VALUES (NEW.request_id, 'order', NEW.submitted_at);
END;

CREATE TRIGGER orders_request_replace AFTER UPDATE OF request_id ON orders
WHEN NEW.request_id IS NOT NULL
BEGIN
    INSERT INTO applied_requests (id, action, applied_at)
    VALUES (NEW.request_id, 'order', NEW.submitted_at);
END;

-- R-T5: no holding, item count, stake or traded amount above MAX_AMOUNT.
CREATE TRIGGER holdings_bounded_insert BEFORE INSERT ON holdings
WHEN NEW.amount > 1000000000000
BEGIN
    SELECT RAISE(ABORT, 'amount_too_large');
END;

CREATE TRIGGER holdings_bounded_update BEFORE UPDATE OF amount ON holdings
WHEN NEW.amount > 1000000000000
BEGIN
    SELECT RAISE(ABORT, 'amount_too_large');
END;

CREATE TRIGGER dynasty_items_bounded_insert BEFORE INSERT ON dynasty_items
WHEN NEW.quantity > 1000000000000
BEGIN
    SELECT RAISE(ABORT, 'amount_too_large');
END;

CREATE TRIGGER dynasty_items_bounded_update BEFORE UPDATE OF quantity ON dynasty_items
WHEN NEW.quantity > 1000000000000
BEGIN
    SELECT RAISE(ABORT, 'amount_too_large');
END;

CREATE TRIGGER bets_bounded BEFORE INSERT ON bets
WHEN NEW.stake > 1000000000000
BEGIN
    SELECT RAISE(ABORT, 'amount_too_large');
END;

-- Every amount of both sides of a trade is a whole number from 1 to MAX_AMOUNT (a number
-- too large for an integer arrives from JSON as a real, and is refused with the rest).
CREATE TRIGGER trades_bounded BEFORE INSERT ON trades
WHEN EXISTS (
    SELECT 1 FROM json_each(NEW.offer, '$.assets')
    WHERE NOT (type = 'integer' AND value BETWEEN 1 AND 1000000000000)
    UNION ALL
    SELECT 1 FROM json_each(NEW.offer, '$.items')
    WHERE NOT (type = 'integer' AND value BETWEEN 1 AND 1000000000000)
    UNION ALL
    SELECT 1 FROM json_each(NEW.request, '$.assets')
    WHERE NOT (type = 'integer' AND value BETWEEN 1 AND 1000000000000)
    UNION ALL
    SELECT 1 FROM json_each(NEW.request, '$.items')
    WHERE NOT (type = 'integer' AND value BETWEEN 1 AND 1000000000000)
)
BEGIN
    SELECT RAISE(ABORT, 'amount_too_large');
END;
