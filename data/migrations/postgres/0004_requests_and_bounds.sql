-- 0004, the PostgreSQL twin of ../0004_requests_and_bounds.sql: a request (a Discord
-- interaction) changes the game at most once, and no amount is above what any dynasty could
-- hold (data.rows.MAX_AMOUNT = 1000000000000: keep them equal).

-- A change made for a request records the request's id in the same transaction
-- (data/repositories/requests.py): the same request delivered twice finds its id taken and
-- changes nothing (a second connection inserting the same id waits for the first to commit,
-- then is refused). Ids are forgotten after a day; Discord never delivers one that late.
CREATE TABLE applied_requests (
    id          bigint           PRIMARY KEY,   -- the Discord interaction id
    action      text             NOT NULL,
    applied_at  double precision NOT NULL
);

CREATE INDEX applied_requests_age ON applied_requests (applied_at);

-- An order is stored by one statement (store_order below): these triggers record its request
-- in that statement, so the order and its request's id are stored together or not at all. A
-- request already applied aborts the statement (UNIQUE applied_requests.id).
ALTER TABLE orders ADD COLUMN request_id bigint;

CREATE FUNCTION orders_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO applied_requests (id, action, applied_at)
    VALUES (NEW.request_id, 'order', NEW.submitted_at);
    RETURN NULL;
END $$;

CREATE TRIGGER orders_request_insert AFTER INSERT ON orders
FOR EACH ROW WHEN (NEW.request_id IS NOT NULL) EXECUTE FUNCTION orders_request();

CREATE TRIGGER orders_request_replace AFTER UPDATE OF request_id ON orders
FOR EACH ROW WHEN (NEW.request_id IS NOT NULL) EXECUTE FUNCTION orders_request();

-- store_order (migration 0001) with the order's request.
DROP FUNCTION store_order(bigint, integer, integer, json, double precision);

CREATE FUNCTION store_order(
    order_tournament bigint, order_turn integer, order_seat integer, order_body json,
    order_at double precision, order_request bigint
) RETURNS TABLE (ready bigint, active bigint) LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO orders (tournament_id, turn, seat, body, submitted_at, request_id)
    VALUES (order_tournament, order_turn, order_seat, order_body, order_at, order_request)
    ON CONFLICT (tournament_id, turn, seat)
    DO UPDATE SET body = excluded.body, submitted_at = excluded.submitted_at,
        request_id = excluded.request_id;
    RETURN QUERY SELECT
        (SELECT count(*) FROM orders o
            JOIN tournaments t ON t.id = o.tournament_id AND t.turn = o.turn
            JOIN seats s ON s.tournament_id = o.tournament_id AND s.seat = o.seat
            WHERE o.tournament_id = order_tournament AND s.status = 'active'),
        (SELECT count(*) FROM seats s
            WHERE s.tournament_id = order_tournament AND s.status = 'active');
END $$;

-- R-T5: no holding, item count, stake or traded amount above MAX_AMOUNT.
CREATE FUNCTION amount_too_large() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'amount_too_large';
END $$;

CREATE TRIGGER holdings_bounded_insert BEFORE INSERT ON holdings
FOR EACH ROW WHEN (NEW.amount > 1000000000000) EXECUTE FUNCTION amount_too_large();

CREATE TRIGGER holdings_bounded_update BEFORE UPDATE OF amount ON holdings
FOR EACH ROW WHEN (NEW.amount > 1000000000000) EXECUTE FUNCTION amount_too_large();

CREATE TRIGGER dynasty_items_bounded_insert BEFORE INSERT ON dynasty_items
FOR EACH ROW WHEN (NEW.quantity > 1000000000000) EXECUTE FUNCTION amount_too_large();

CREATE TRIGGER dynasty_items_bounded_update BEFORE UPDATE OF quantity ON dynasty_items
FOR EACH ROW WHEN (NEW.quantity > 1000000000000) EXECUTE FUNCTION amount_too_large();

CREATE TRIGGER bets_bounded BEFORE INSERT ON bets
FOR EACH ROW WHEN (NEW.stake > 1000000000000) EXECUTE FUNCTION amount_too_large();

-- Every amount of both sides of a trade is a whole number from 1 to MAX_AMOUNT, written as
-- digits (SQLite reads 1.0, 1e20 or a number beyond 64 bits as a real, and refuses it). As
-- SQLite's json_each, a bare value (not an object or array) counts as one amount.
CREATE FUNCTION amounts_out_of_bounds(amounts json) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM (
            SELECT value FROM json_each(
                CASE json_typeof(amounts) WHEN 'object' THEN amounts END)
            UNION ALL
            SELECT value FROM json_array_elements(
                CASE json_typeof(amounts) WHEN 'array' THEN amounts END)
            UNION ALL
            SELECT amounts WHERE json_typeof(amounts) NOT IN ('object', 'array')
        ) amount (value)
        WHERE NOT (
            json_typeof(value) = 'number' AND value::text ~ '^[0-9]{1,13}$'
            AND value::text::numeric BETWEEN 1 AND 1000000000000
        )
    )
$$;

CREATE FUNCTION trades_bounded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF amounts_out_of_bounds(NEW.offer -> 'assets')
        OR amounts_out_of_bounds(NEW.offer -> 'items')
        OR amounts_out_of_bounds(NEW.request -> 'assets')
        OR amounts_out_of_bounds(NEW.request -> 'items') THEN
        RAISE EXCEPTION 'amount_too_large';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER trades_bounded BEFORE INSERT ON trades
FOR EACH ROW EXECUTE FUNCTION trades_bounded();
