-- 0005: what the bot keeps showing in Discord across restarts, players whose DMs are closed,
-- and limits on trade offers (issue #19, items 12, 13, 16 and 18).

-- The open turn's "k of n ready" line in the tournament's channel, edited as orders come in,
-- after a restart too: a second line would tell the channel that someone changed an order.
CREATE TABLE turn_lines (
    tournament_id  INTEGER PRIMARY KEY REFERENCES tournaments (id),
    turn           INTEGER NOT NULL CHECK (turn >= 1),
    channel_id     INTEGER NOT NULL,
    message_id     INTEGER NOT NULL
) STRICT;

-- Each tournament's replay GIF as last drawn, with the number of resolved turns it shows. A
-- finished tournament's is drawn once and kept; a running one's is drawn again only after a
-- turn has resolved. Kept here, with the game it shows: a restored backup never pairs a
-- tournament with another one's pictures, and there is no second place to set up or clean.
CREATE TABLE replays (
    tournament_id  INTEGER PRIMARY KEY REFERENCES tournaments (id),
    turns          INTEGER NOT NULL CHECK (turns >= 0),
    gif            BLOB    NOT NULL,
    drawn_at       REAL    NOT NULL
) STRICT;

-- A player whose DMs are closed is told so in the tournament's channel once per combat...
CREATE TABLE closed_dms (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    player_id      INTEGER NOT NULL,
    told_at        REAL    NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
) STRICT, WITHOUT ROWID;

-- ...and never reminded there (the channel would learn who has not ordered): a reminder their
-- DMs refused waits here and is shown privately with their next command.
CREATE TABLE private_reminders (
    player_id      INTEGER NOT NULL,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    turn           INTEGER NOT NULL,
    deadline       REAL    NOT NULL,
    PRIMARY KEY (player_id, tournament_id, turn)
) STRICT, WITHOUT ROWID;

-- Trade offers reach the other player by DM (or as a mention in the channel): at most 3 open
-- offers from one dynasty to another, and 10 new offers a dynasty in any hour. Checked by the
-- insert itself, so offers made at the same moment never both pass the last free place.
-- data/repositories/economy.py names the same numbers for its refusals.
CREATE INDEX trades_from_time ON trades (from_dynasty_id, created_at);

CREATE TRIGGER trades_offer_limits BEFORE INSERT ON trades
BEGIN
    SELECT RAISE(ABORT, 'too_many_open_offers')
    WHERE (
        SELECT count(*) FROM trades
        WHERE from_dynasty_id = NEW.from_dynasty_id AND to_dynasty_id = NEW.to_dynasty_id
            AND status = 'open' AND expires_at > NEW.created_at
    ) >= 3;
    SELECT RAISE(ABORT, 'too_many_offers')
    WHERE (
        SELECT count(*) FROM trades
        WHERE from_dynasty_id = NEW.from_dynasty_id AND created_at > NEW.created_at - 3600
    ) >= 10;
END;
