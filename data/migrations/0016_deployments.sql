-- 0016: the hidden deployment before turn 1 (RULES.md R-V1c, issue #36). A tournament whose
-- ruleset says setup = hidden starts deploying: turn 1 is open, but its clock (``deadline``)
-- times the deployment step, and no order is taken nor turn resolved until the step ends.
-- Each seat's deployment is secret until then (as an order is, R-O4); the last one a seat
-- submits counts (as R-O3); when every active seat has deployed or the deadline passes, the
-- bot reveals them all at once (data/repositories/tournaments.py ``reveal_deployments``): one
-- statement ends the step, gives turn 1 its own deadline, and the game before turn 1 (turn 0's
-- state) is rewritten as the deployments made it.

ALTER TABLE tournaments ADD COLUMN deploying INTEGER NOT NULL DEFAULT 0
    CONSTRAINT deploying_once_running CHECK (deploying IN (0, 1) AND (deploying = 0 OR status <> 'open'));

-- A combat deploys first exactly when its ruleset hides the setup.
CREATE TRIGGER tournaments_deploy_at_start BEFORE UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running'
    AND NEW.deploying IS NOT (json_extract(NEW.ruleset, '$.setup') IS 'hidden')
BEGIN
    SELECT RAISE(ABORT, 'deployment_step');
END;

-- The step comes once: once over, it never opens again.
CREATE TRIGGER tournaments_deploy_once BEFORE UPDATE OF deploying ON tournaments
WHEN NEW.deploying = 1 AND OLD.deploying = 0 AND OLD.status <> 'open'
BEGIN
    SELECT RAISE(ABORT, 'deployment_over');
END;

-- Nothing is ordered or resolved before the deployments are revealed.
CREATE TRIGGER orders_after_deployment BEFORE INSERT ON orders
WHEN (SELECT deploying FROM tournaments WHERE id = NEW.tournament_id) = 1
BEGIN
    SELECT RAISE(ABORT, 'not_deployed');
END;

CREATE TRIGGER turns_after_deployment BEFORE INSERT ON turns
WHEN NEW.turn > 0 AND (SELECT deploying FROM tournaments WHERE id = NEW.tournament_id) = 1
BEGIN
    SELECT RAISE(ABORT, 'not_deployed');
END;

-- The reveal is shown in the tournament's channel by its server's process (migration 0013):
-- kind 'turn' of turn 0, the first board, with the deployments revealed.
CREATE TRIGGER tournaments_announce_reveal AFTER UPDATE OF deploying ON tournaments
WHEN OLD.deploying = 1 AND NEW.deploying = 0 AND NEW.status = 'running'
    AND NEW.channel_id IS NOT NULL
BEGIN
    INSERT INTO announcements (tournament_id, turn, kind, guild_id, due_at)
    VALUES (NEW.id, 0, 'turn', NEW.guild_id, NEW.deadline - NEW.turn_seconds)
    ON CONFLICT DO NOTHING;
END;

-- One deployment per seat (R-V1c): its emperor, pawns and mountains as tile names
-- (engine.Deployment.to_dict). Replacing it keeps one row; its request is applied once.
CREATE TABLE deployments (
    tournament_id  INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    body           TEXT    NOT NULL CHECK (json_valid(body)),
    submitted_at   REAL    NOT NULL,
    request_id     INTEGER,
    PRIMARY KEY (tournament_id, seat),
    FOREIGN KEY (tournament_id, seat) REFERENCES seats (tournament_id, seat) ON DELETE CASCADE
) STRICT;

CREATE TRIGGER deployments_open BEFORE INSERT ON deployments
BEGIN
    SELECT RAISE(ABORT, 'deployment_over')
    WHERE NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND deploying = 1
    );
    SELECT RAISE(ABORT, 'seat_not_active')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
    );
END;

CREATE TRIGGER deployments_open_replace BEFORE UPDATE ON deployments
BEGIN
    SELECT RAISE(ABORT, 'deployment_over')
    WHERE NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND deploying = 1
    );
    SELECT RAISE(ABORT, 'seat_not_active')
    WHERE NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
    );
END;

-- A deployment is history once revealed: only a training combat's scrub forgets it (0010).
CREATE TRIGGER deployments_kept BEFORE DELETE ON deployments
WHEN (SELECT scrubbed_at FROM tournaments WHERE id = OLD.tournament_id) IS NULL
BEGIN
    SELECT RAISE(ABORT, 'deployments_are_history');
END;

-- Every deployment counts on the tournament's revision, as orders do: a reveal that read
-- the deployments before another arrived is refused (``deployments_changed``) and read again.
CREATE TRIGGER deployments_revision_insert AFTER INSERT ON deployments
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER deployments_revision_update AFTER UPDATE ON deployments
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER deployments_request_insert AFTER INSERT ON deployments
WHEN NEW.request_id IS NOT NULL
BEGIN
    INSERT INTO applied_requests (id, action, applied_at)
    VALUES (NEW.request_id, 'deployment', NEW.submitted_at);
END;

CREATE TRIGGER deployments_request_replace AFTER UPDATE OF request_id ON deployments
WHEN NEW.request_id IS NOT NULL
BEGIN
    INSERT INTO applied_requests (id, action, applied_at)
    VALUES (NEW.request_id, 'deployment', NEW.submitted_at);
END;
