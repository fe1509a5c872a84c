-- 0020: what the bot could not deliver, and players' and servers' data (issue #40).

-- A turn's (or a deployment step's) DM prompt that Discord did not take for a passing
-- reason (a 429 from a proxy, a 5xx, a dropped connection): sent again with a growing delay
-- (bot/announcer.py) until it arrives, its turn closes or its attempts run out. One row per
-- player and combat: a later turn's prompt replaces an earlier one. Also written for every
-- player of the open turns after a restore (``python -m bot restore``), to prompt them again.
CREATE TABLE undelivered_prompts (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    player_id      INTEGER NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('order', 'deploy')),
    turn           INTEGER NOT NULL CHECK (turn >= 0),
    guild_id       INTEGER,   -- the tournament's server: which process sends it
    attempts       INTEGER NOT NULL CHECK (attempts >= 0),
    due_at         REAL    NOT NULL,
    PRIMARY KEY (tournament_id, player_id, kind)
) STRICT, WITHOUT ROWID;

CREATE INDEX undelivered_prompts_due ON undelivered_prompts (due_at);

-- A combat that ends has nothing left to prompt for.
CREATE TRIGGER tournaments_forget_prompts AFTER UPDATE OF status ON tournaments
WHEN NEW.status IN ('finished', 'cancelled')
BEGIN
    DELETE FROM undelivered_prompts WHERE tournament_id = NEW.id;
END;

-- How many times posting an announcement failed: the next try waits longer each time.
ALTER TABLE announcements ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0
    CHECK (attempts >= 0);
