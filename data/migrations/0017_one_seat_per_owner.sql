-- 0017: in a serious tournament a player and the player's programs (issue #37) take one seat
-- between them. A program plays for its owner's dynasty: seated beside its owner (or beside
-- another program of the same owner) it could lose on purpose to what its owner stakes, takes
-- or is rated by. Training records nothing, so there an owner may sit with its programs.
-- Two players' seats keep their own rule (one seat per player, 0001), refused as before.
CREATE TRIGGER seats_one_per_owner BEFORE INSERT ON seats
WHEN NEW.kind IN ('player', 'program')
BEGIN
    SELECT RAISE(ABORT, 'owner_already_seated')
    WHERE (SELECT kind FROM tournaments WHERE id = NEW.tournament_id) <> 'training'
    AND EXISTS (
        SELECT 1 FROM seats s LEFT JOIN programs p ON p.id = s.program_id
        WHERE s.tournament_id = NEW.tournament_id
        AND (s.program_id IS NOT NULL OR NEW.program_id IS NOT NULL)
        AND coalesce(s.player_id, p.player_id) = coalesce(
            NEW.player_id, (SELECT player_id FROM programs WHERE id = NEW.program_id)
        )
    );
END;
