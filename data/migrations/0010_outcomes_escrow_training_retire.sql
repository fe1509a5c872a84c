-- 0008 (issue #13 items 5, 6 and 8): training leaves no trace, wealth won and lost in battle
-- (a gift's wealth prize, an honour tournament's wealth stake, both held in escrow), and an
-- emperor retires only when idle. Every rule below is the database's to enforce; the
-- repositories name the same refusals (data/repositories/tournaments.py, _ledger.py).

-- ---------------------------------------------------------------- announced wealth (R-T4)

-- An honour tournament may announce a wealth stake: asset code -> amount every dynasty seated
-- by a player pays into escrow when it takes its seat. A gift's wealth prize is the existing
-- ``prize`` column's ``wealth``; the host's dynasty pays it into escrow when it announces.
ALTER TABLE tournaments ADD COLUMN wealth_stake TEXT NOT NULL DEFAULT '{}'
    CONSTRAINT wealth_stake_for_honour CHECK (
        json_valid(wealth_stake) AND (kind = 'honour' OR wealth_stake = '{}')
    );

-- Training has no prize and no stake (R-T4); only a gift has a prize; every announced amount
-- is a whole number from 1 to MAX_AMOUNT (data.rows.MAX_AMOUNT).
CREATE TRIGGER tournaments_announced_terms BEFORE INSERT ON tournaments
BEGIN
    SELECT RAISE(ABORT, 'training_leaves_no_trace')
    WHERE NEW.kind = 'training' AND (
        coalesce(json_extract(NEW.prize, '$.reputation'), 0) <> 0
        OR EXISTS (SELECT 1 FROM json_each(NEW.prize, '$.wealth'))
    );
    SELECT RAISE(ABORT, 'prize_for_gift_only')
    WHERE NEW.kind <> 'gift' AND (
        coalesce(json_extract(NEW.prize, '$.reputation'), 0) <> 0
        OR EXISTS (SELECT 1 FROM json_each(NEW.prize, '$.wealth'))
    );
    SELECT RAISE(ABORT, 'amount_too_large')
    WHERE EXISTS (
        SELECT 1 FROM json_each(NEW.prize, '$.wealth')
        WHERE NOT (type = 'integer' AND value BETWEEN 1 AND 1000000000000)
        UNION ALL
        SELECT 1 FROM json_each(NEW.wealth_stake)
        WHERE NOT (type = 'integer' AND value BETWEEN 1 AND 1000000000000)
    );
END;

-- What a tournament announced is what its players signed up for: it never changes.
CREATE TRIGGER tournaments_terms_fixed BEFORE UPDATE OF kind, stake, prize, wealth_stake
ON tournaments
WHEN NEW.kind IS NOT OLD.kind OR NEW.stake IS NOT OLD.stake OR NEW.prize IS NOT OLD.prize
    OR NEW.wealth_stake IS NOT OLD.wealth_stake
BEGIN
    SELECT RAISE(ABORT, 'terms_fixed');
END;

-- ---------------------------------------------------------------- escrow deposits (R-T4, R-T5)

-- Wealth a tournament holds for its end, other than bets: a gift's prize (paid by the host's
-- dynasty when the tournament is announced) and each seat's honour wealth stake (paid when the
-- seat is taken). ``held`` is what is still in escrow; payouts lower it. A deposit moves the
-- amount from the dynasty's holdings into ``escrow`` and a payout moves it from ``escrow`` to a
-- dynasty's holdings, each in the statement that records it (the triggers below): the sum of
-- all holdings and escrow changes only by what is granted or spent, never by a tournament.
-- ``escrow`` is now, per tournament and asset, the held bets plus the deposits' ``held``.
-- Other variants (chests) add their own purposes and rules here.
CREATE TABLE escrow_deposits (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    purpose        TEXT    NOT NULL CHECK (purpose IN ('prize', 'stake')),
    dynasty_id     INTEGER NOT NULL REFERENCES dynasties (id),   -- who paid it
    seat           INTEGER CHECK (seat BETWEEN 0 AND 7),         -- the seat a stake is for
    asset_code     TEXT    NOT NULL REFERENCES assets (code),
    amount         INTEGER NOT NULL CHECK (amount BETWEEN 1 AND 1000000000000),
    held           INTEGER NOT NULL CONSTRAINT deposit_paid_out_once CHECK (held BETWEEN 0 AND amount),
    deposited_at   REAL    NOT NULL,
    CHECK ((purpose = 'stake') = (seat IS NOT NULL))
) STRICT;

CREATE INDEX escrow_deposits_tournament ON escrow_deposits (tournament_id, purpose);
CREATE UNIQUE INDEX escrow_deposits_once ON escrow_deposits (tournament_id, purpose, dynasty_id, asset_code)
    WHERE held > 0;

CREATE TRIGGER escrow_deposits_rules BEFORE INSERT ON escrow_deposits
BEGIN
    SELECT RAISE(ABORT, 'training_leaves_no_trace')
    WHERE (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) = 'training';
    SELECT RAISE(ABORT, 'tournament_not_open')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'open';
    SELECT RAISE(ABORT, 'deposit_whole') WHERE NEW.held <> NEW.amount;
    -- a prize is the gift's announced wealth, asset by asset, paid by its host's dynasty
    SELECT RAISE(ABORT, 'not_the_announced_prize')
    WHERE NEW.purpose = 'prize' AND NOT EXISTS (
        SELECT 1
        FROM tournaments t, json_each(t.prize, '$.wealth') w, dynasties d
        WHERE t.id = NEW.tournament_id AND t.kind = 'gift' AND w.key = NEW.asset_code
            AND w.value = NEW.amount AND d.player_id = t.host_player_id AND d.id = NEW.dynasty_id
    );
    -- a stake is the honour tournament's announced wealth stake, paid by the dynasty whose
    -- player holds the seat
    SELECT RAISE(ABORT, 'not_the_announced_stake')
    WHERE NEW.purpose = 'stake' AND NOT EXISTS (
        SELECT 1
        FROM tournaments t, json_each(t.wealth_stake) w, seats s, dynasties d
        WHERE t.id = NEW.tournament_id AND t.kind = 'honour' AND w.key = NEW.asset_code
            AND w.value = NEW.amount AND s.tournament_id = t.id AND s.seat = NEW.seat
            AND s.kind = 'player' AND d.player_id = s.player_id AND d.id = NEW.dynasty_id
    );
    SELECT RAISE(ABORT, 'insufficient_funds')
    WHERE coalesce((
        SELECT amount FROM holdings
        WHERE dynasty_id = NEW.dynasty_id AND asset_code = NEW.asset_code
    ), 0) < NEW.amount;
END;

CREATE TRIGGER escrow_deposits_move AFTER INSERT ON escrow_deposits
BEGIN
    UPDATE holdings SET amount = amount - NEW.amount
    WHERE dynasty_id = NEW.dynasty_id AND asset_code = NEW.asset_code;
    INSERT INTO escrow (tournament_id, asset_code, amount)
    VALUES (NEW.tournament_id, NEW.asset_code, NEW.amount)
    ON CONFLICT (tournament_id, asset_code) DO UPDATE SET amount = amount + excluded.amount;
END;

CREATE TRIGGER escrow_deposits_fixed BEFORE UPDATE ON escrow_deposits
WHEN NEW.tournament_id IS NOT OLD.tournament_id OR NEW.purpose IS NOT OLD.purpose
    OR NEW.dynasty_id IS NOT OLD.dynasty_id OR NEW.seat IS NOT OLD.seat
    OR NEW.asset_code IS NOT OLD.asset_code OR NEW.amount IS NOT OLD.amount
    OR NEW.held > OLD.held
BEGIN
    SELECT RAISE(ABORT, 'escrow_is_history');
END;

CREATE TRIGGER escrow_deposits_kept BEFORE DELETE ON escrow_deposits
BEGIN
    SELECT RAISE(ABORT, 'escrow_is_history');
END;

-- Where each deposit went: a ``share`` to a dynasty that played a winning seat of the finished
-- tournament, or a ``return`` to the dynasty that paid it (a cancel, a draw, nobody to share it,
-- or a seat left before the start).
CREATE TABLE escrow_payouts (
    id          INTEGER PRIMARY KEY,
    deposit_id  INTEGER NOT NULL REFERENCES escrow_deposits (id),
    dynasty_id  INTEGER NOT NULL REFERENCES dynasties (id),
    amount      INTEGER NOT NULL CHECK (amount > 0),
    reason      TEXT    NOT NULL CHECK (reason IN ('share', 'return')),
    paid_at     REAL    NOT NULL
) STRICT;

CREATE INDEX escrow_payouts_deposit ON escrow_payouts (deposit_id);

CREATE TRIGGER escrow_payouts_rules BEFORE INSERT ON escrow_payouts
BEGIN
    SELECT RAISE(ABORT, 'escrow_is_history')
    WHERE NOT EXISTS (SELECT 1 FROM escrow_deposits WHERE id = NEW.deposit_id);
    -- nothing leaves escrow while the combat runs
    SELECT RAISE(ABORT, 'escrow_held_until_the_end')
    WHERE (
        SELECT t.status FROM escrow_deposits d JOIN tournaments t ON t.id = d.tournament_id
        WHERE d.id = NEW.deposit_id
    ) = 'running';
    -- before the start, only the stake of a seat that was left goes back
    SELECT RAISE(ABORT, 'escrow_held_until_the_end')
    WHERE EXISTS (
        SELECT 1 FROM escrow_deposits d JOIN tournaments t ON t.id = d.tournament_id
        WHERE d.id = NEW.deposit_id AND t.status = 'open' AND (
            d.purpose <> 'stake' OR NEW.reason <> 'return' OR EXISTS (
                SELECT 1 FROM seats s JOIN dynasties y ON y.player_id = s.player_id
                WHERE s.tournament_id = t.id AND s.seat = d.seat AND y.id = d.dynasty_id
            )
        )
    );
    SELECT RAISE(ABORT, 'return_to_depositor')
    WHERE NEW.reason = 'return'
        AND NEW.dynasty_id IS NOT (SELECT dynasty_id FROM escrow_deposits WHERE id = NEW.deposit_id);
    SELECT RAISE(ABORT, 'share_for_winners_only')
    WHERE NEW.reason = 'share' AND NOT EXISTS (
        SELECT 1
        FROM escrow_deposits d, tournaments t, seats s, dynasties y,
            json_each(t.outcome, '$.winners') w
        WHERE d.id = NEW.deposit_id AND t.id = d.tournament_id AND t.status = 'finished'
            AND s.tournament_id = t.id AND s.kind = 'player' AND y.player_id = s.player_id
            AND y.id = NEW.dynasty_id AND w.value = char(97 + s.seat)
    );
END;

-- A payout above what the deposit still holds breaks deposit_paid_out_once (the escrow row
-- cannot go below 0 either): no coin leaves escrow twice.
CREATE TRIGGER escrow_payouts_move AFTER INSERT ON escrow_payouts
BEGIN
    UPDATE escrow_deposits SET held = held - NEW.amount WHERE id = NEW.deposit_id;
    UPDATE escrow SET amount = amount - NEW.amount
    WHERE tournament_id = (SELECT tournament_id FROM escrow_deposits WHERE id = NEW.deposit_id)
        AND asset_code = (SELECT asset_code FROM escrow_deposits WHERE id = NEW.deposit_id);
    INSERT INTO holdings (dynasty_id, asset_code, amount)
    VALUES (
        NEW.dynasty_id, (SELECT asset_code FROM escrow_deposits WHERE id = NEW.deposit_id),
        NEW.amount
    )
    ON CONFLICT (dynasty_id, asset_code) DO UPDATE SET amount = amount + excluded.amount;
END;

CREATE TRIGGER escrow_payouts_kept BEFORE UPDATE ON escrow_payouts
BEGIN
    SELECT RAISE(ABORT, 'escrow_is_history');
END;

CREATE TRIGGER escrow_payouts_kept_delete BEFORE DELETE ON escrow_payouts
BEGIN
    SELECT RAISE(ABORT, 'escrow_is_history');
END;

-- A combat starts only with its gift prize and every player's wealth stake in escrow.
CREATE TRIGGER tournaments_escrow_to_start BEFORE UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running'
BEGIN
    SELECT RAISE(ABORT, 'prize_not_paid')
    WHERE EXISTS (
        SELECT 1 FROM json_each(NEW.prize, '$.wealth') w
        WHERE NOT EXISTS (
            SELECT 1 FROM escrow_deposits d
            WHERE d.tournament_id = NEW.id AND d.purpose = 'prize' AND d.asset_code = w.key
                AND d.held = w.value
        )
    );
    SELECT RAISE(ABORT, 'stake_not_paid')
    WHERE EXISTS (
        SELECT 1 FROM seats s, json_each(NEW.wealth_stake) w
        WHERE s.tournament_id = NEW.id AND s.kind = 'player' AND NOT EXISTS (
            SELECT 1 FROM escrow_deposits d
            WHERE d.tournament_id = NEW.id AND d.purpose = 'stake' AND d.seat = s.seat
                AND d.asset_code = w.key AND d.held = w.value
        )
    );
END;

-- ---------------------------------------------------------------- training leaves no trace

-- R-T4, R-T6: no bet, no deposit, no log event ever names a training tournament.
CREATE TRIGGER bets_no_training BEFORE INSERT ON bets
WHEN (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) = 'training'
BEGIN
    SELECT RAISE(ABORT, 'training_has_no_bets');
END;

CREATE TRIGGER events_no_training BEFORE INSERT ON events
WHEN NEW.tournament_id IS NOT NULL
    AND (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) = 'training'
BEGIN
    SELECT RAISE(ABORT, 'training_leaves_no_trace');
END;

-- A training replay shows the emperors' names in its legend: none is kept (each request draws
-- its own, by seat letter once the combat is over).
CREATE TRIGGER replays_no_training BEFORE INSERT ON replays
WHEN (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) = 'training'
BEGIN
    SELECT RAISE(ABORT, 'training_leaves_no_trace');
END;

-- Once a training combat is over and its end posted, the bot sets ``scrubbed_at`` (one
-- statement, so all or nothing): the trigger below forgets every row that tied a player or an
-- emperor to it — its seats (player, emperor, who handed a seat over), their orders and
-- reminders, its followers, the players told of closed DMs or waiting for a reminder, its
-- ready line — blanks the stored narration (it names the emperors), and forgets its host. The
-- turns (positions and moves by seat letter) and the outcome (by seat letter) stay, so the
-- archive, /tournament status and a replay show the combat with seat letters only.
ALTER TABLE tournaments ADD COLUMN scrubbed_at REAL
    CONSTRAINT scrub_finished_training_only CHECK (
        scrubbed_at IS NULL OR (kind = 'training' AND status IN ('finished', 'cancelled'))
    );

CREATE INDEX tournaments_training_to_scrub ON tournaments (finished_at)
    WHERE kind = 'training' AND scrubbed_at IS NULL AND status IN ('finished', 'cancelled');

CREATE TRIGGER tournaments_scrubbed_once BEFORE UPDATE OF scrubbed_at ON tournaments
WHEN OLD.scrubbed_at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'training_scrubbed');
END;

-- Seats of a tournament that has begun stay, except for a scrub.
DROP TRIGGER seats_leave;

CREATE TRIGGER seats_leave BEFORE DELETE ON seats
WHEN (SELECT status FROM tournaments WHERE id = OLD.tournament_id) IS NOT 'open'
    AND (SELECT scrubbed_at FROM tournaments WHERE id = OLD.tournament_id) IS NULL
BEGIN
    SELECT RAISE(ABORT, 'tournament_not_open');
END;

CREATE TRIGGER tournaments_scrub AFTER UPDATE OF scrubbed_at ON tournaments
WHEN OLD.scrubbed_at IS NULL AND NEW.scrubbed_at IS NOT NULL
BEGIN
    DELETE FROM orders WHERE tournament_id = NEW.id;
    DELETE FROM reminders WHERE tournament_id = NEW.id;
    DELETE FROM seats WHERE tournament_id = NEW.id;
    DELETE FROM engagements WHERE tournament_id = NEW.id;
    DELETE FROM followers WHERE tournament_id = NEW.id;
    DELETE FROM closed_dms WHERE tournament_id = NEW.id;
    DELETE FROM private_reminders WHERE tournament_id = NEW.id;
    DELETE FROM turn_lines WHERE tournament_id = NEW.id;
    DELETE FROM replays WHERE tournament_id = NEW.id;
    UPDATE turns SET result = json_set(result, '$.narration', '')
    WHERE tournament_id = NEW.id AND result IS NOT NULL;
    UPDATE tournaments SET host_player_id = NULL WHERE id = NEW.id;
END;

-- A row that would tie someone to a scrubbed training again (a reminder or a closed-DMs
-- notice racing the end of the combat) is silently not written.
CREATE TRIGGER reminders_not_after_scrub BEFORE INSERT ON reminders
WHEN (SELECT scrubbed_at FROM tournaments WHERE id = NEW.tournament_id) IS NOT NULL
BEGIN
    SELECT RAISE(IGNORE);
END;

CREATE TRIGGER closed_dms_not_after_scrub BEFORE INSERT ON closed_dms
WHEN (SELECT scrubbed_at FROM tournaments WHERE id = NEW.tournament_id) IS NOT NULL
BEGIN
    SELECT RAISE(IGNORE);
END;

CREATE TRIGGER private_reminders_not_after_scrub BEFORE INSERT ON private_reminders
WHEN (SELECT scrubbed_at FROM tournaments WHERE id = NEW.tournament_id) IS NOT NULL
BEGIN
    SELECT RAISE(IGNORE);
END;

CREATE TRIGGER turn_lines_not_after_scrub BEFORE INSERT ON turn_lines
WHEN (SELECT scrubbed_at FROM tournaments WHERE id = NEW.tournament_id) IS NOT NULL
BEGIN
    SELECT RAISE(IGNORE);
END;

-- Training tournaments that ended before this migration are scrubbed now. (Bets placed on
-- them before bets on training were refused stay, with their wealth log: the log is kept.)
UPDATE tournaments SET scrubbed_at = finished_at
WHERE kind = 'training' AND status IN ('finished', 'cancelled');

-- ---------------------------------------------------------------- retiring (R-L3)

-- An emperor dies (a death combat, or retiring) only when idle: never while it plays in or
-- bets on a tournament (a death combat frees its emperors before it kills one).
CREATE TRIGGER emperors_die_idle BEFORE UPDATE OF alive ON emperors
WHEN OLD.alive = 1 AND NEW.alive = 0
    AND EXISTS (SELECT 1 FROM engagements WHERE emperor_id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'emperor_busy');
END;
