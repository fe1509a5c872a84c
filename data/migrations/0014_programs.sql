-- 0014: programmed players (issue #37). A player registers a program that runs on its own
-- machine and plays through the bot's HTTP API with a token; the token is stored only as its
-- SHA-256 (hex), so the database never holds a secret that plays. A program may be seated in
-- a tournament like a computer player; it has a skill rating like an emperor's.

-- A program belongs to a Discord user and that user's dynasty. Its name is unique among its
-- owner's programs still in use (a revoked program frees its name, as a dead emperor does);
-- a revoked program stays revoked, keeps its history and rating, and is never seated again.
CREATE TABLE programs (
    id          INTEGER PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players (id),
    dynasty_id  INTEGER NOT NULL REFERENCES dynasties (id),
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
    name_key    TEXT    NOT NULL,   -- the name case-folded: unique per owner case-insensitively
    token_hash  TEXT    NOT NULL UNIQUE
                CONSTRAINT token_hash_is_sha256_hex
                CHECK (length(token_hash) = 64 AND NOT token_hash GLOB '*[^0-9a-f]*'),
    created_at  REAL    NOT NULL,
    revoked_at  REAL,
    CONSTRAINT revoked_after_created CHECK (revoked_at IS NULL OR revoked_at >= created_at)
) STRICT;

CREATE UNIQUE INDEX programs_live_name ON programs (player_id, name_key)
    WHERE revoked_at IS NULL;

-- A player has at most 10 programs in use: each one holds streams and a rate limit open.
CREATE TRIGGER programs_register BEFORE INSERT ON programs
BEGIN
    SELECT RAISE(ABORT, 'dynasty_not_yours')
    WHERE (SELECT player_id FROM dynasties WHERE id = NEW.dynasty_id) IS NOT NEW.player_id;
    SELECT RAISE(ABORT, 'too_many_programs')
    WHERE NEW.revoked_at IS NULL AND (
        SELECT count(*) FROM programs WHERE player_id = NEW.player_id AND revoked_at IS NULL
    ) >= 10;
END;

CREATE TRIGGER programs_fixed BEFORE UPDATE OF id, player_id, dynasty_id, token_hash, created_at
ON programs
BEGIN
    SELECT RAISE(ABORT, 'program_fixed');
END;

-- Revoked is for good: neither renamed nor brought back.
CREATE TRIGGER programs_stay_revoked BEFORE UPDATE OF name, name_key, revoked_at ON programs
WHEN OLD.revoked_at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'program_revoked');
END;

-- A program's skill in serious combats (as skill_ratings, 0006, for emperors).
CREATE TABLE program_ratings (
    program_id  INTEGER PRIMARY KEY REFERENCES programs (id),
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    combats     INTEGER NOT NULL CHECK (combats >= 1),
    updated_at  REAL    NOT NULL
) STRICT;

-- A tournament's host may open it to programs: then their owners may enter them. A host
-- seating a program itself opens the tournament to programs too (as computers, 0001).
ALTER TABLE tournaments ADD COLUMN allow_programs INTEGER NOT NULL DEFAULT 0
    CHECK (allow_programs IN (0, 1));

-- A seat of kind 'program' is played by the program ``program_id``: no player sits there,
-- so a program seat has no player_id (DMs, absences and one-seat-per-player are about people).
-- SQLite cannot alter a CHECK constraint, and rebuilding seats would rebuild the dozen
-- triggers on it; widening a CHECK leaves every stored row valid, which is the case SQLite's
-- documentation allows editing the table's definition in place for (ALTER TABLE, "Making
-- Other Kinds Of Table Schema Changes"). RESET reloads the edited definition; the statements
-- after it change the schema cookie, so every other connection reloads it too.
PRAGMA writable_schema = ON;

UPDATE sqlite_schema SET sql = replace(
    replace(
        sql,
        'CHECK (kind IN (''player'', ''casual'', ''computer''))',
        'CONSTRAINT seat_kinds CHECK (kind IN (''player'', ''casual'', ''computer'', ''program''))'
    ),
    'CHECK ((kind = ''computer'') = (player_id IS NULL))',
    'CONSTRAINT seats_without_a_player '
        || 'CHECK ((kind IN (''computer'', ''program'')) = (player_id IS NULL))'
)
WHERE type = 'table' AND name = 'seats';

PRAGMA writable_schema = RESET;

-- Both edits must have been made: a definition that read otherwise stops the migration here
-- (a NULL in a NOT NULL column) instead of going on without them.
CREATE TEMP TABLE seats_widened (done INTEGER NOT NULL);

INSERT INTO seats_widened
SELECT CASE WHEN sql LIKE '%seat_kinds%' AND sql LIKE '%seats_without_a_player%' THEN 1 END
FROM sqlite_schema WHERE type = 'table' AND name = 'seats';

DROP TABLE seats_widened;

ALTER TABLE seats ADD COLUMN program_id INTEGER REFERENCES programs (id)
    CONSTRAINT program_seats_name_their_program CHECK ((kind = 'program') = (program_id IS NOT NULL));

-- One program at most once per tournament; also where a program plays, for its stream.
CREATE UNIQUE INDEX seats_one_per_program ON seats (program_id, tournament_id)
    WHERE program_id IS NOT NULL;

-- A revoked program is never newly seated, and only in a tournament open to programs.
CREATE TRIGGER seats_program_join BEFORE INSERT ON seats
WHEN NEW.program_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'program_revoked')
    WHERE (SELECT revoked_at FROM programs WHERE id = NEW.program_id) IS NOT NULL;
    SELECT RAISE(ABORT, 'programs_not_allowed')
    WHERE (SELECT allow_programs FROM tournaments WHERE id = NEW.tournament_id) = 0;
END;

CREATE TRIGGER seats_program_fixed BEFORE UPDATE OF program_id ON seats
BEGIN
    SELECT RAISE(ABORT, 'seat_fixed');
END;
