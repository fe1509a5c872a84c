-- 0001 core: players, dynasties, emperors, tournaments, seats, turns, orders and the log.
-- Every rule the game must never break is enforced here, not only in Python.
-- Times are unix seconds (REAL). Trigger errors carry a token that data/errors.py translates.

CREATE TABLE players (
    id         INTEGER PRIMARY KEY,   -- the Discord user id
    joined_at  REAL    NOT NULL
) STRICT;

CREATE TABLE dynasties (
    id              INTEGER PRIMARY KEY,
    player_id       INTEGER NOT NULL UNIQUE REFERENCES players (id),
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    name_key        TEXT    NOT NULL UNIQUE,   -- the name case-folded: unique case-insensitively
    founded_at      REAL    NOT NULL,
    last_active_at  REAL    NOT NULL
) STRICT;

CREATE TABLE emperors (
    id              INTEGER PRIMARY KEY,
    dynasty_id      INTEGER NOT NULL REFERENCES dynasties (id),
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    name_key        TEXT    NOT NULL,
    reputation      INTEGER NOT NULL DEFAULT 0
                    CONSTRAINT reputation_never_negative CHECK (reputation >= 0),   -- R-T3
    alive           INTEGER NOT NULL DEFAULT 1 CHECK (alive IN (0, 1)),
    born_at         REAL    NOT NULL,
    died_at         REAL,
    killed_by       INTEGER REFERENCES emperors (id),
    served_serious  INTEGER NOT NULL DEFAULT 0 CHECK (served_serious IN (0, 1)),   -- R-L3
    wins            INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    takes           INTEGER NOT NULL DEFAULT 0 CHECK (takes >= 0),
    CHECK ((alive = 1) = (died_at IS NULL)),
    CHECK (alive = 0 OR killed_by IS NULL)
) STRICT;

-- Two living emperors of one dynasty never share a name; the dead free theirs.
CREATE UNIQUE INDEX emperors_living_name ON emperors (dynasty_id, name_key) WHERE alive = 1;

CREATE TRIGGER emperors_stay_dead BEFORE UPDATE OF alive ON emperors
WHEN OLD.alive = 0 AND NEW.alive = 1
BEGIN
    SELECT RAISE(ABORT, 'emperor_dead');
END;

-- Which dynasty an emperor belonged to, and since when (conquest moves it, R-T4).
CREATE TABLE memberships (
    id             INTEGER PRIMARY KEY,
    emperor_id     INTEGER NOT NULL REFERENCES emperors (id),
    dynasty_id     INTEGER NOT NULL REFERENCES dynasties (id),
    since          REAL    NOT NULL,
    until          REAL,
    reason         TEXT    NOT NULL CHECK (reason IN ('birth', 'conquest')),
    tournament_id  INTEGER REFERENCES tournaments (id),
    CHECK (until IS NULL OR until >= since)
) STRICT;

CREATE UNIQUE INDEX memberships_current ON memberships (emperor_id) WHERE until IS NULL;
CREATE INDEX memberships_emperor ON memberships (emperor_id, since);

CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER,
    host_player_id   INTEGER REFERENCES players (id),
    battlefield      TEXT    NOT NULL,
    seat_count       INTEGER NOT NULL CHECK (seat_count BETWEEN 1 AND 8),
    ruleset          TEXT    NOT NULL CHECK (json_valid(ruleset)),
    kind             TEXT    NOT NULL
                     CHECK (kind IN ('training', 'gift', 'honour', 'conquer', 'death')),
    stake            INTEGER NOT NULL DEFAULT 0 CHECK (stake >= 0),
    prize            TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(prize)),
    status           TEXT    NOT NULL DEFAULT 'open'
                     CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    turn             INTEGER NOT NULL DEFAULT 0 CHECK (turn >= 0),   -- the open turn
    revision         INTEGER NOT NULL DEFAULT 0,   -- bumped by every order: resolvers check it
    deadline         REAL,
    turn_seconds     INTEGER NOT NULL CHECK (turn_seconds > 0),
    allow_computers  INTEGER NOT NULL DEFAULT 0 CHECK (allow_computers IN (0, 1)),
    created_at       REAL    NOT NULL,
    started_at       REAL,
    finished_at      REAL,
    outcome          TEXT    CHECK (outcome IS NULL OR json_valid(outcome)),
    announcement_id  INTEGER,
    CHECK (kind = 'honour' OR stake = 0),
    CHECK (status <> 'open' OR (turn = 0 AND started_at IS NULL)),
    CHECK (status IN ('open', 'cancelled') OR (turn >= 1 AND started_at IS NOT NULL)),
    CHECK (status <> 'running' OR deadline IS NOT NULL),
    CHECK ((status = 'finished') = (outcome IS NOT NULL)),
    CHECK ((status IN ('finished', 'cancelled')) = (finished_at IS NOT NULL))
) STRICT;

CREATE INDEX tournaments_due ON tournaments (deadline) WHERE status = 'running';
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

-- A tournament moves forward only: open -> running -> finished, or -> cancelled.
CREATE TRIGGER tournaments_status_flow BEFORE UPDATE OF status ON tournaments
WHEN NOT (
    OLD.status = NEW.status
    OR (OLD.status = 'open' AND NEW.status IN ('running', 'cancelled'))
    OR (OLD.status = 'running' AND NEW.status IN ('finished', 'cancelled'))
)
BEGIN
    SELECT RAISE(ABORT, 'tournament_closed');
END;

CREATE TRIGGER tournaments_full_to_start BEFORE UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running'
    AND (SELECT count(*) FROM seats WHERE tournament_id = NEW.id) <> NEW.seat_count
BEGIN
    SELECT RAISE(ABORT, 'seats_empty');
END;

-- R-T1: an emperor is in at most one unfinished tournament, as player or bettor.
CREATE TABLE engagements (
    emperor_id     INTEGER PRIMARY KEY REFERENCES emperors (id),
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    role           TEXT    NOT NULL CHECK (role IN ('player', 'bettor'))
) STRICT;

CREATE INDEX engagements_tournament ON engagements (tournament_id);

CREATE TRIGGER tournaments_release AFTER UPDATE OF status ON tournaments
WHEN NEW.status IN ('finished', 'cancelled') AND OLD.status <> NEW.status
BEGIN
    DELETE FROM engagements WHERE tournament_id = NEW.id;
END;

-- Seat index 0..7 is the dynasty letter a..h on the battlefield (R-B3).
CREATE TABLE seats (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    kind           TEXT    NOT NULL CHECK (kind IN ('player', 'casual', 'computer')),
    player_id      INTEGER REFERENCES players (id),
    emperor_id     INTEGER REFERENCES emperors (id),
    strategy       TEXT,
    status         TEXT    NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'defeated', 'forfeited')),
    misses         INTEGER NOT NULL DEFAULT 0 CHECK (misses >= 0),   -- consecutive (R-G4)
    takes          INTEGER NOT NULL DEFAULT 0 CHECK (takes >= 0),
    joined_at      REAL    NOT NULL,
    PRIMARY KEY (tournament_id, seat),
    CHECK ((kind = 'player') = (emperor_id IS NOT NULL)),
    CHECK ((kind = 'computer') = (strategy IS NOT NULL)),
    CHECK ((kind = 'computer') = (player_id IS NULL))
) STRICT;

CREATE UNIQUE INDEX seats_one_per_player ON seats (tournament_id, player_id)
    WHERE player_id IS NOT NULL;
CREATE INDEX seats_emperor ON seats (emperor_id) WHERE emperor_id IS NOT NULL;
CREATE INDEX seats_player ON seats (player_id) WHERE player_id IS NOT NULL;

CREATE TRIGGER seats_join BEFORE INSERT ON seats
BEGIN
    SELECT RAISE(ABORT, 'tournament_not_open')
    WHERE (SELECT status FROM tournaments WHERE id = NEW.tournament_id) IS NOT 'open';
    SELECT RAISE(ABORT, 'seat_out_of_range')
    WHERE NEW.seat >= (SELECT seat_count FROM tournaments WHERE id = NEW.tournament_id);
    SELECT RAISE(ABORT, 'computers_not_allowed')
    WHERE NEW.kind = 'computer'
        AND (SELECT allow_computers FROM tournaments WHERE id = NEW.tournament_id) = 0;
    SELECT RAISE(ABORT, 'emperor_dead')
    WHERE (SELECT alive FROM emperors WHERE id = NEW.emperor_id) = 0;
    SELECT RAISE(ABORT, 'emperor_not_yours')
    WHERE NEW.emperor_id IS NOT NULL
        AND (SELECT dynasty_id FROM emperors WHERE id = NEW.emperor_id)
            IS NOT (SELECT id FROM dynasties WHERE player_id = NEW.player_id);
    SELECT RAISE(ABORT, 'reputation_below_stake')   -- R-T4 honour
    WHERE (SELECT reputation FROM emperors WHERE id = NEW.emperor_id)
        < (SELECT stake FROM tournaments WHERE id = NEW.tournament_id AND kind = 'honour');
END;

CREATE TRIGGER seats_engage AFTER INSERT ON seats
WHEN NEW.emperor_id IS NOT NULL
BEGIN
    INSERT INTO engagements (emperor_id, tournament_id, role)
    VALUES (NEW.emperor_id, NEW.tournament_id, 'player');
END;

CREATE TRIGGER seats_fixed BEFORE UPDATE OF tournament_id, seat, kind, player_id, emperor_id
ON seats
BEGIN
    SELECT RAISE(ABORT, 'seat_fixed');
END;

CREATE TRIGGER seats_leave BEFORE DELETE ON seats
WHEN (SELECT status FROM tournaments WHERE id = OLD.tournament_id) IS NOT 'open'
BEGIN
    SELECT RAISE(ABORT, 'tournament_not_open');
END;

CREATE TRIGGER seats_release AFTER DELETE ON seats
WHEN OLD.emperor_id IS NOT NULL
BEGIN
    DELETE FROM engagements
    WHERE emperor_id = OLD.emperor_id AND tournament_id = OLD.tournament_id;
END;

-- One row per turn: the game after it (turn 0 is the starting position) and what the turn
-- revealed. Inserting turn N is resolving it: the triggers below check that N is the open
-- turn and that no order arrived since the resolver loaded it (``revision``), then open turn
-- N+1 (or finish the tournament) and record each seat's misses, defeat and takes from the
-- stored game, all in that one statement. A turn is never resolved twice or by halves.
-- JSON read here (written by data/codec.py): state.outcome, state.missed.<letter>,
-- state.position.defeated[], result.captures[].taker.
CREATE TABLE turns (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    turn           INTEGER NOT NULL CHECK (turn >= 0),
    state          TEXT    NOT NULL CHECK (json_valid(state)),
    result         TEXT    CHECK (result IS NULL OR json_valid(result)),
    resolved_at    REAL,
    revision       INTEGER,   -- the orders revision the turn was resolved from
    PRIMARY KEY (tournament_id, turn),
    CHECK ((turn = 0) = (result IS NULL)),
    CHECK ((result IS NULL) = (resolved_at IS NULL)),
    CHECK (turn = 0 OR revision IS NOT NULL)
) STRICT;

CREATE TRIGGER turns_resolve_once BEFORE INSERT ON turns
BEGIN
    SELECT RAISE(ABORT, 'turn_already_resolved')
    WHERE (SELECT turn FROM tournaments WHERE id = NEW.tournament_id) > max(NEW.turn, 1);
    SELECT RAISE(ABORT, 'turn_not_open')
    WHERE NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND turn = max(NEW.turn, 1)
    );
    SELECT RAISE(ABORT, 'orders_changed')
    WHERE NEW.turn > 0
        AND (SELECT revision FROM tournaments WHERE id = NEW.tournament_id) IS NOT NEW.revision;
END;

CREATE TRIGGER turns_advance AFTER INSERT ON turns
WHEN NEW.turn > 0
BEGIN
    UPDATE tournaments SET
        turn = NEW.turn + 1,
        status = iif(json_type(NEW.state, '$.outcome') = 'object', 'finished', status),
        outcome = json_extract(NEW.state, '$.outcome'),
        finished_at = iif(json_type(NEW.state, '$.outcome') = 'object', NEW.resolved_at, NULL),
        deadline = iif(
            json_type(NEW.state, '$.outcome') = 'object', NULL, NEW.resolved_at + turn_seconds
        )
    WHERE id = NEW.tournament_id;
    UPDATE seats SET
        misses = coalesce(json_extract(NEW.state, '$.missed.' || char(97 + seat)), misses),
        status = iif(
            status = 'active' AND EXISTS (
                SELECT 1 FROM json_each(NEW.state, '$.position.defeated')
                WHERE value = char(97 + seat)
            ),
            'defeated',
            status
        ),
        takes = takes + (
            SELECT count(*) FROM json_each(NEW.result, '$.captures')
            WHERE json_extract(value, '$.taker') = char(97 + seat)
        )
    WHERE tournament_id = NEW.tournament_id;
END;

CREATE TRIGGER turns_kept BEFORE DELETE ON turns
BEGIN
    SELECT RAISE(ABORT, 'turns_are_history');
END;

-- Secret orders (R-O4): one row per seat and turn; replacing an order keeps one row (R-O3).
CREATE TABLE orders (
    tournament_id  INTEGER NOT NULL,
    turn           INTEGER NOT NULL CHECK (turn >= 1),
    seat           INTEGER NOT NULL,
    body           TEXT    NOT NULL CHECK (json_valid(body)),
    submitted_at   REAL    NOT NULL,
    PRIMARY KEY (tournament_id, turn, seat),
    FOREIGN KEY (tournament_id, seat) REFERENCES seats (tournament_id, seat)
) STRICT;

CREATE TRIGGER orders_open_turn BEFORE INSERT ON orders
BEGIN
    SELECT RAISE(ABORT, 'order_for_closed_turn')
    WHERE NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND turn = NEW.turn
    );
    SELECT RAISE(ABORT, 'seat_not_active')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
    );
END;

CREATE TRIGGER orders_open_turn_replace BEFORE UPDATE ON orders
BEGIN
    SELECT RAISE(ABORT, 'order_for_closed_turn')
    WHERE NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND turn = NEW.turn
    );
    SELECT RAISE(ABORT, 'seat_not_active')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
    );
END;

CREATE TRIGGER orders_revision_insert AFTER INSERT ON orders
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER orders_revision_update AFTER UPDATE ON orders
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER orders_revision_delete AFTER DELETE ON orders
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
END;

-- A reminder is sent at most once per seat, turn and kind.
CREATE TABLE reminders (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    turn           INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    kind           TEXT    NOT NULL,
    sent_at        REAL    NOT NULL,
    PRIMARY KEY (tournament_id, turn, seat, kind)
) STRICT;

-- The log (R-L1..L3). Ids are never reused.
CREATE TABLE events (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    at             REAL    NOT NULL,
    kind           TEXT    NOT NULL,
    reason         TEXT    NOT NULL,
    public         INTEGER NOT NULL CHECK (public IN (0, 1)),
    dynasty_id     INTEGER REFERENCES dynasties (id),
    emperor_id     INTEGER REFERENCES emperors (id),
    tournament_id  INTEGER REFERENCES tournaments (id),
    details        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
    CONSTRAINT reputation_history_public CHECK (kind <> 'reputation' OR public = 1)   -- R-L2
) STRICT;

CREATE INDEX events_dynasty ON events (dynasty_id, id);
CREATE INDEX events_emperor ON events (emperor_id, id);
CREATE INDEX events_tournament ON events (tournament_id, id);

CREATE TRIGGER events_append_only BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'log_append_only');
END;

-- Only the traces of an emperor that died without ever fighting a serious tournament may
-- vanish (R-L3); everything else in the log is kept forever.
CREATE TRIGGER events_kept BEFORE DELETE ON events
WHEN NOT EXISTS (
    SELECT 1 FROM emperors WHERE id = OLD.emperor_id AND alive = 0 AND served_serious = 0
)
BEGIN
    SELECT RAISE(ABORT, 'log_append_only');
END;
