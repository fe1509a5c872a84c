-- 0023: series of combats (issue #38 item 9). A host announces a series in a channel; players
-- enter with one emperor each; the bot pairs them round by round (round robin, Swiss or single
-- elimination), each pairing a duel of its own tournament, until a final table. The standings
-- are read from the results kept here, so they survive restarts and the forgetting of training
-- combats (R-T4).

CREATE TABLE series (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER,
    host_player_id  INTEGER NOT NULL REFERENCES players (id),
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    format          TEXT    NOT NULL CHECK (format IN ('round-robin', 'swiss', 'elimination')),
    battlefield     TEXT    NOT NULL,
    ruleset         TEXT    NOT NULL CHECK (json_valid(ruleset)),
    kind            TEXT    NOT NULL
                    CHECK (kind IN ('training', 'gift', 'honour', 'conquer', 'death')),
    turn_seconds    INTEGER NOT NULL CHECK (turn_seconds > 0),
    rounds          INTEGER NOT NULL DEFAULT 0 CHECK (rounds >= 0),  -- set at the start
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'running', 'finished')),
    round           INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),  -- the round being played
    posted_round    INTEGER NOT NULL DEFAULT 0 CHECK (posted_round >= 0),  -- told in its channel
    created_at      REAL    NOT NULL,
    finished_at     REAL,
    CHECK (status <> 'open' OR round = 0),
    CHECK ((status = 'finished') = (finished_at IS NOT NULL)),
    CHECK (posted_round <= round + 1)
) STRICT;

CREATE INDEX series_guild ON series (guild_id, status);

-- A series moves forward only, a round at a time.
CREATE TRIGGER series_forward BEFORE UPDATE ON series
WHEN NOT (
    (OLD.status = NEW.status OR (OLD.status = 'open' AND NEW.status = 'running')
        OR (OLD.status = 'running' AND NEW.status = 'finished'))
    AND NEW.round IN (OLD.round, OLD.round + 1)
    AND NEW.posted_round >= OLD.posted_round
)
BEGIN
    SELECT RAISE(ABORT, 'series_backwards');
END;

-- Who plays in a series, with which emperor, in the order they entered (their seed).
CREATE TABLE series_entrants (
    series_id   INTEGER NOT NULL REFERENCES series (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    emperor_id  INTEGER NOT NULL REFERENCES emperors (id),
    seed        INTEGER NOT NULL CHECK (seed >= 1),
    entered_at  REAL    NOT NULL,
    PRIMARY KEY (series_id, player_id),
    CONSTRAINT series_one_emperor_once UNIQUE (series_id, emperor_id),
    CONSTRAINT series_seed_once UNIQUE (series_id, seed)
) STRICT;

-- Entering and leaving only while the series is open, 32 entrants at most.
CREATE TRIGGER series_entrants_enter BEFORE INSERT ON series_entrants
BEGIN
    SELECT RAISE(ABORT, 'series_not_open')
    WHERE (SELECT status FROM series WHERE id = NEW.series_id) IS NOT 'open';
    SELECT RAISE(ABORT, 'series_full')
    WHERE (SELECT count(*) FROM series_entrants WHERE series_id = NEW.series_id) >= 32;
END;

CREATE TRIGGER series_entrants_leave BEFORE DELETE ON series_entrants
BEGIN
    SELECT RAISE(ABORT, 'series_not_open')
    WHERE (SELECT status FROM series WHERE id = OLD.series_id) IS NOT 'open';
END;

-- Each pairing of a round: a duel between player_a (seat a) and player_b (seat b) in its own
-- tournament; a bye (no player_b) or a walkover (an emperor that could not sit) has no
-- tournament and its result at once. ``result``: the seat that won, or a draw.
CREATE TABLE series_games (
    series_id      INTEGER NOT NULL REFERENCES series (id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    board          INTEGER NOT NULL CHECK (board >= 1),
    player_a       INTEGER NOT NULL REFERENCES players (id),
    player_b       INTEGER REFERENCES players (id),
    tournament_id  INTEGER UNIQUE REFERENCES tournaments (id) ON DELETE SET NULL,
    result         TEXT    CHECK (result IN ('a', 'b', 'draw')),
    PRIMARY KEY (series_id, round, board),
    CHECK (player_b IS NOT NULL OR result = 'a'),
    CHECK (player_a IS NOT player_b)
) STRICT;

CREATE INDEX series_games_player ON series_games (series_id, player_a, player_b);

-- A result is written once.
CREATE TRIGGER series_games_result_once BEFORE UPDATE OF result ON series_games
WHEN OLD.result IS NOT NULL AND NEW.result IS NOT OLD.result
BEGIN
    SELECT RAISE(ABORT, 'series_result_kept');
END;

-- A combat of a series that ends writes its result in the same transaction: one winner is
-- that seat's; no winner (or several) is a draw, and so is a combat called off.
CREATE TRIGGER tournaments_series_result AFTER UPDATE OF status ON tournaments
WHEN NEW.status IN ('finished', 'cancelled') AND OLD.status = 'running'
BEGIN
    UPDATE series_games SET result = CASE
        WHEN NEW.status = 'finished'
            AND json_array_length(json_extract(NEW.outcome, '$.winners')) = 1
            THEN json_extract(NEW.outcome, '$.winners[0]')
        ELSE 'draw'
    END
    WHERE tournament_id = NEW.id AND result IS NULL;
END;
