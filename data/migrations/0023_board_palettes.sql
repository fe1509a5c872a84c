-- 0023: boards for every eye (issue #38, item 8).

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
