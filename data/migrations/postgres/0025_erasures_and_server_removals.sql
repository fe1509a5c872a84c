-- 0025, the PostgreSQL twin of ../0025_erasures_and_server_removals.sql: a player's data
-- erased on request, a server's after the bot leaves it (issue #40 item 11). The same
-- columns, exceptions and refusal tokens; a trigger's WHEN cannot read another table here,
-- so each function returns early for a record passing to an erased player.

ALTER TABLE players ADD COLUMN erased_at double precision
    CONSTRAINT erased_players_have_no_discord_id CHECK (erased_at IS NULL OR id < 0);

CREATE FUNCTION passes_to_erased(tournament bigint, player bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT (SELECT status FROM tournaments WHERE id = tournament) IN ('finished', 'cancelled')
        AND (SELECT erased_at FROM players WHERE id = player) IS NOT NULL
$$;

-- seats_fixed's WHEN (0024) names no player: passing a seat to an erased player never fires it.
DROP TRIGGER seats_fixed ON seats;

CREATE TRIGGER seats_fixed BEFORE UPDATE OF tournament_id, seat, kind, player_id, emperor_id
ON seats FOR EACH ROW WHEN (
    NEW.tournament_id IS DISTINCT FROM OLD.tournament_id OR NEW.seat IS DISTINCT FROM OLD.seat
    OR OLD.kind NOT IN ('player', 'casual') OR NEW.kind NOT IN ('player', 'casual')
)
EXECUTE FUNCTION seats_fixed();

CREATE OR REPLACE FUNCTION seats_substitute() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    tournament tournaments%ROWTYPE;
BEGIN
    IF NEW.kind IS NOT DISTINCT FROM OLD.kind
        AND NEW.emperor_id IS NOT DISTINCT FROM OLD.emperor_id
        AND passes_to_erased(OLD.tournament_id, NEW.player_id) THEN
        RETURN NEW;
    END IF;
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

DROP TRIGGER seats_substitute ON seats;

CREATE TRIGGER seats_substitute BEFORE UPDATE OF kind, player_id, emperor_id ON seats
FOR EACH ROW EXECUTE FUNCTION seats_substitute();

CREATE OR REPLACE FUNCTION seats_substituted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NOT NULL THEN
        RETURN NULL;
    END IF;
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

DROP TRIGGER seats_substituted ON seats;

CREATE TRIGGER seats_substituted AFTER UPDATE OF player_id, emperor_id ON seats
FOR EACH ROW WHEN (
    NEW.player_id IS DISTINCT FROM OLD.player_id OR NEW.emperor_id IS DISTINCT FROM OLD.emperor_id
)
EXECUTE FUNCTION seats_substituted();

CREATE OR REPLACE FUNCTION seats_handed_over_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.handed_to IS NOT DISTINCT FROM OLD.handed_to
        AND NEW.handed_at IS NOT DISTINCT FROM OLD.handed_at
        AND passes_to_erased(OLD.tournament_id, NEW.handed_by) THEN
        RETURN NEW;
    END IF;
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

DROP TRIGGER seats_handed_over_once ON seats;

CREATE TRIGGER seats_handed_over_once BEFORE UPDATE OF handed_to, handed_by, handed_at ON seats
FOR EACH ROW WHEN (
    NEW.handed_to IS NOT NULL OR NEW.handed_by IS NOT NULL OR NEW.handed_at IS NOT NULL
)
EXECUTE FUNCTION seats_handed_over_once();

CREATE OR REPLACE FUNCTION programs_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS NOT DISTINCT FROM OLD.id AND NEW.dynasty_id IS NOT DISTINCT FROM OLD.dynasty_id
        AND NEW.token_hash IS NOT DISTINCT FROM OLD.token_hash
        AND NEW.created_at IS NOT DISTINCT FROM OLD.created_at
        AND (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NOT NULL THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'program_fixed';
END $$;

DROP TRIGGER programs_fixed ON programs;

CREATE TRIGGER programs_fixed BEFORE UPDATE OF id, player_id, dynasty_id, token_hash, created_at
ON programs FOR EACH ROW EXECUTE FUNCTION programs_fixed();

CREATE OR REPLACE FUNCTION programs_stay_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.revoked_at IS NOT DISTINCT FROM OLD.revoked_at
        AND (SELECT erased_at FROM players WHERE id = NEW.player_id) IS NOT NULL THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'program_revoked';
END $$;

DROP TRIGGER programs_stay_revoked ON programs;

CREATE TRIGGER programs_stay_revoked BEFORE UPDATE OF name, name_key, revoked_at ON programs
FOR EACH ROW WHEN (OLD.revoked_at IS NOT NULL) EXECUTE FUNCTION programs_stay_revoked();

CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS NOT DISTINCT FROM OLD.id AND NEW.at IS NOT DISTINCT FROM OLD.at
        AND NEW.kind IS NOT DISTINCT FROM OLD.kind AND NEW.public IS NOT DISTINCT FROM OLD.public
        AND NEW.dynasty_id IS NOT DISTINCT FROM OLD.dynasty_id
        AND NEW.emperor_id IS NOT DISTINCT FROM OLD.emperor_id
        AND NEW.tournament_id IS NOT DISTINCT FROM OLD.tournament_id
        AND NEW.message IS NOT DISTINCT FROM OLD.message
        AND position('"log-deleted-player"' IN NEW.params::text) > 0 THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'log_append_only';
END $$;

DROP TRIGGER events_append_only ON events;

CREATE TRIGGER events_append_only BEFORE UPDATE ON events
FOR EACH ROW EXECUTE FUNCTION events_append_only();

CREATE TABLE server_removals (
    guild_id  bigint           PRIMARY KEY,
    left_at   double precision NOT NULL,
    due_at    double precision NOT NULL,
    CONSTRAINT removal_after_leaving CHECK (due_at >= left_at)
);

CREATE INDEX server_removals_due ON server_removals (due_at);
