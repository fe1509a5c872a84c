-- 0022, the PostgreSQL twin of ../0022_board_palettes.sql: the board palette each player
-- chose for their own boards, and each server for its channels' boards.

CREATE TABLE player_board_palettes (
    player_id  bigint PRIMARY KEY,
    palette    text   NOT NULL CHECK (palette IN ('standard', 'colour-blind')),
    chosen_at  double precision NOT NULL
);

CREATE TABLE server_board_palettes (
    guild_id   bigint PRIMARY KEY,
    palette    text   NOT NULL CHECK (palette IN ('standard', 'colour-blind')),
    chosen_at  double precision NOT NULL
);

CREATE TABLE tutorials (
    player_id   bigint  PRIMARY KEY,
    game        text    NOT NULL,
    turn        integer NOT NULL CHECK (turn BETWEEN 0 AND 100),
    started_at  double precision NOT NULL,
    played_at   double precision NOT NULL
);
