-- 0017, the PostgreSQL twin of ../0017_one_seat_per_owner.sql: in a serious tournament a
-- player and the player's programs take one seat between them. The tournament is locked
-- first (as every seat's trigger does, 0001), so two seats taken at once are checked in turn.
CREATE FUNCTION seats_one_per_owner() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    owner bigint;
BEGIN
    IF (SELECT kind FROM tournaments WHERE id = NEW.tournament_id FOR NO KEY UPDATE)
        = 'training' THEN
        RETURN NEW;
    END IF;
    owner := coalesce(NEW.player_id, (SELECT player_id FROM programs WHERE id = NEW.program_id));
    IF EXISTS (
        SELECT 1 FROM seats s LEFT JOIN programs p ON p.id = s.program_id
        WHERE s.tournament_id = NEW.tournament_id
        AND (s.program_id IS NOT NULL OR NEW.program_id IS NOT NULL)
        AND coalesce(s.player_id, p.player_id) = owner
    ) THEN
        RAISE EXCEPTION 'owner_already_seated';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER seats_one_per_owner BEFORE INSERT ON seats
FOR EACH ROW WHEN (NEW.kind IN ('player', 'program')) EXECUTE FUNCTION seats_one_per_owner();
