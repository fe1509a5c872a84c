-- 0025 (issue #40 item 11): a player's data erased on request, a server's after the bot leaves it.
--
-- A player's row is keyed by the Discord user id. /privacy delete removes that row and what
-- only the player needed; what other players' combats need (their seats, the emperors and
-- dynasty they fought, the log, the results) is moved to an *erased* player instead: a new
-- row whose id is negative (no Discord user has one), marked ``erased_at``, with no name and
-- nothing that says who it was (data/repositories/erasures.py). The triggers below let the
-- record be moved to such a row, and nothing else: every other rule on seats, programs and
-- the log stands as it was.
ALTER TABLE players ADD COLUMN erased_at REAL
    CONSTRAINT erased_players_have_no_discord_id CHECK (erased_at IS NULL OR id < 0);

-- A seat of a combat that is over may pass to an erased player (its player, or who handed it
-- over); nothing else about it changes.
DROP TRIGGER seats_fixed;

CREATE TRIGGER seats_fixed BEFORE UPDATE OF tournament_id, seat, kind, player_id, emperor_id
ON seats
WHEN (NEW.tournament_id IS NOT OLD.tournament_id OR NEW.seat IS NOT OLD.seat
    OR OLD.kind NOT IN ('player', 'casual') OR NEW.kind NOT IN ('player', 'casual')
    OR NOT EXISTS (
        SELECT 1 FROM seat_offers WHERE tournament_id = OLD.tournament_id AND seat = OLD.seat
    ))
    AND NOT (
        NEW.tournament_id IS OLD.tournament_id AND NEW.seat IS OLD.seat
        AND NEW.kind IS OLD.kind AND NEW.emperor_id IS OLD.emperor_id
        AND (SELECT status FROM tournaments WHERE id = OLD.tournament_id)
            IN ('finished', 'cancelled')
        AND (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NOT NULL
    )
BEGIN
    SELECT RAISE(ABORT, 'seat_fixed');
END;

DROP TRIGGER seats_substitute;

CREATE TRIGGER seats_substitute BEFORE UPDATE OF kind, player_id, emperor_id ON seats
WHEN NOT (
    NEW.kind IS OLD.kind AND NEW.emperor_id IS OLD.emperor_id
    AND (SELECT status FROM tournaments WHERE id = OLD.tournament_id) IN ('finished', 'cancelled')
    AND (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NOT NULL
)
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

-- Passing a seat to an erased player is no substitution: no new term, no engagement.
DROP TRIGGER seats_substituted;

CREATE TRIGGER seats_substituted AFTER UPDATE OF player_id, emperor_id ON seats
WHEN (NEW.player_id IS NOT OLD.player_id OR NEW.emperor_id IS NOT OLD.emperor_id)
    AND (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NULL
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

DROP TRIGGER seats_handed_over_once;

CREATE TRIGGER seats_handed_over_once BEFORE UPDATE OF handed_to, handed_by, handed_at ON seats
WHEN (NEW.handed_to IS NOT NULL OR NEW.handed_by IS NOT NULL OR NEW.handed_at IS NOT NULL)
    AND NOT (
        NEW.handed_to IS OLD.handed_to AND NEW.handed_at IS OLD.handed_at
        AND (SELECT status FROM tournaments WHERE id = OLD.tournament_id)
            IN ('finished', 'cancelled')
        AND (SELECT erased_at FROM players WHERE id = NEW.handed_by) IS NOT NULL
    )
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

-- A program that played passes to the erased player too, and its name may be blanked once
-- it is revoked; its token (a hash) stays, revoked: nothing plays with it again.
DROP TRIGGER programs_fixed;

CREATE TRIGGER programs_fixed BEFORE UPDATE OF id, player_id, dynasty_id, token_hash, created_at
ON programs
WHEN NOT (
    NEW.id IS OLD.id AND NEW.dynasty_id IS OLD.dynasty_id AND NEW.token_hash IS OLD.token_hash
    AND NEW.created_at IS OLD.created_at
    AND (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NOT NULL
)
BEGIN
    SELECT RAISE(ABORT, 'program_fixed');
END;

DROP TRIGGER programs_stay_revoked;

CREATE TRIGGER programs_stay_revoked BEFORE UPDATE OF name, name_key, revoked_at ON programs
WHEN OLD.revoked_at IS NOT NULL
    AND NOT (
        NEW.revoked_at IS OLD.revoked_at
        AND (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NOT NULL
    )
BEGIN
    SELECT RAISE(ABORT, 'program_revoked');
END;

-- The log stays append-only, with one exception: an entry's words (``params``) and details
-- may change to name an erased player as the bot's words ``log-deleted-player``, read in
-- each reader's language, instead of the names that player chose.
DROP TRIGGER events_append_only;

CREATE TRIGGER events_append_only BEFORE UPDATE ON events
WHEN NOT (
    NEW.id IS OLD.id AND NEW.at IS OLD.at AND NEW.kind IS OLD.kind
    AND NEW.public IS OLD.public AND NEW.dynasty_id IS OLD.dynasty_id
    AND NEW.emperor_id IS OLD.emperor_id AND NEW.tournament_id IS OLD.tournament_id
    AND NEW.message IS OLD.message
    AND instr(NEW.params, '"log-deleted-player"') > 0
)
BEGIN
    SELECT RAISE(ABORT, 'log_append_only');
END;

-- A server the bot left (it was removed, or the server was deleted): its data is removed at
-- ``due_at`` (bot/scheduler.py), unless the bot is added back before then, which deletes
-- the row. Kept here, so a restart forgets no removal.
CREATE TABLE server_removals (
    guild_id  INTEGER PRIMARY KEY,
    left_at   REAL    NOT NULL,
    due_at    REAL    NOT NULL,
    CONSTRAINT removal_after_leaving CHECK (due_at >= left_at)
) STRICT;

CREATE INDEX server_removals_due ON server_removals (due_at);
