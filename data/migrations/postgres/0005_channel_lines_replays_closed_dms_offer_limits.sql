-- 0005, the PostgreSQL twin of ../0005_channel_lines_replays_closed_dms_offer_limits.sql: what
-- the bot keeps showing in Discord across restarts, players whose DMs are closed, and limits
-- on trade offers (issue #19, items 12, 13, 16 and 18).

-- The open turn's "k of n ready" line in the tournament's channel, edited as orders come in.
CREATE TABLE turn_lines (
    tournament_id  bigint  PRIMARY KEY REFERENCES tournaments (id) DEFERRABLE,
    turn           integer NOT NULL CHECK (turn >= 1),
    channel_id     bigint  NOT NULL,
    message_id     bigint  NOT NULL
);

-- Each tournament's replay GIF as last drawn, with the number of resolved turns it shows.
CREATE TABLE replays (
    tournament_id  bigint  PRIMARY KEY REFERENCES tournaments (id) DEFERRABLE,
    turns          integer NOT NULL CHECK (turns >= 0),
    gif            bytea   NOT NULL,
    drawn_at       double precision NOT NULL
);

-- A player whose DMs are closed is told so in the tournament's channel once per combat...
CREATE TABLE closed_dms (
    tournament_id  bigint NOT NULL REFERENCES tournaments (id) DEFERRABLE,
    player_id      bigint NOT NULL,
    told_at        double precision NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

-- ...and never reminded there: a reminder their DMs refused waits here for their next command.
CREATE TABLE private_reminders (
    player_id      bigint  NOT NULL,
    tournament_id  bigint  NOT NULL REFERENCES tournaments (id) DEFERRABLE,
    turn           integer NOT NULL,
    deadline       double precision NOT NULL,
    PRIMARY KEY (player_id, tournament_id, turn)
);

-- At most 3 open offers from one dynasty to another, and 10 new offers a dynasty in any hour.
-- Checked by the insert itself: the offering dynasty's row is locked first, so offers made
-- at once by several connections are counted one after the other, each seeing the ones
-- committed before it (READ COMMITTED gives each statement of the function a new snapshot),
-- and never both pass the last free place. data/repositories/economy.py names the same
-- numbers for its refusals.
CREATE INDEX trades_from_time ON trades (from_dynasty_id, created_at);

CREATE FUNCTION trades_offer_limits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM dynasties WHERE id = NEW.from_dynasty_id FOR NO KEY UPDATE;
    IF (
        SELECT count(*) FROM trades
        WHERE from_dynasty_id = NEW.from_dynasty_id AND to_dynasty_id = NEW.to_dynasty_id
            AND status = 'open' AND expires_at > NEW.created_at
    ) >= 3 THEN
        RAISE EXCEPTION 'too_many_open_offers';
    END IF;
    IF (
        SELECT count(*) FROM trades
        WHERE from_dynasty_id = NEW.from_dynasty_id AND created_at > NEW.created_at - 3600
    ) >= 10 THEN
        RAISE EXCEPTION 'too_many_offers';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER trades_offer_limits BEFORE INSERT ON trades
FOR EACH ROW EXECUTE FUNCTION trades_offer_limits();
