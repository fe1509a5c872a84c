-- 0022: boards for every eye (issue #38, item 8).

-- The palette each player chose for the boards the bot shows them alone (their prompts by
-- DM, /order, /tournament status, /deploy); none chosen: the standard palette. Keyed by the
-- Discord user id, like player_locales: a player needs no dynasty to choose one.
CREATE TABLE player_board_palettes (
    player_id  INTEGER PRIMARY KEY,
    palette    TEXT    NOT NULL CHECK (palette IN ('standard', 'colour-blind')),
    chosen_at  REAL    NOT NULL
) STRICT;

-- The palette a server chose for the boards posted in its channels (and sent to followers
-- with them); none chosen: the standard palette. A server manager chooses it.
CREATE TABLE server_board_palettes (
    guild_id   INTEGER PRIMARY KEY,
    palette    TEXT    NOT NULL CHECK (palette IN ('standard', 'colour-blind')),
    chosen_at  REAL    NOT NULL
) STRICT;

-- Each player's tutorial (issue #38, item 7): a short guided duel against an easy computer on
-- lesson-2, kept apart from tournaments so that it leaves no trace on wealth, reputation or
-- rankings. One row a player; /tutorial starts it again. ``turn`` is the turns played, so a
-- click on an older turn's prompt changes nothing.
CREATE TABLE tutorials (
    player_id   INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    turn        INTEGER NOT NULL CHECK (turn BETWEEN 0 AND 100),
    started_at  REAL    NOT NULL,
    played_at   REAL    NOT NULL
) STRICT;
