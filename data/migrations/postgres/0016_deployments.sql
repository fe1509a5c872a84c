-- 0016, the PostgreSQL twin of ../0016_deployments.sql: the hidden deployment before turn 1
-- (R-V1c, issue #36): a tournament deploying, each seat's secret deployment, and the reveal.

ALTER TABLE tournaments ADD COLUMN deploying integer NOT NULL DEFAULT 0
    CONSTRAINT deploying_once_running CHECK (deploying IN (0, 1) AND (deploying = 0 OR status <> 'open'));

-- A combat deploys first exactly when its ruleset hides the setup.
CREATE FUNCTION tournaments_deploy_at_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'deployment_step';
END $$;

CREATE TRIGGER tournaments_deploy_at_start BEFORE UPDATE OF status ON tournaments
FOR EACH ROW WHEN (
    OLD.status = 'open' AND NEW.status = 'running'
    AND (NEW.deploying = 1) IS DISTINCT FROM ((NEW.ruleset ->> 'setup') IS NOT DISTINCT FROM 'hidden')
) EXECUTE FUNCTION tournaments_deploy_at_start();

-- The step comes once: once over, it never opens again.
CREATE FUNCTION tournaments_deploy_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'deployment_over';
END $$;

CREATE TRIGGER tournaments_deploy_once BEFORE UPDATE OF deploying ON tournaments
FOR EACH ROW WHEN (NEW.deploying = 1 AND OLD.deploying = 0 AND OLD.status <> 'open')
EXECUTE FUNCTION tournaments_deploy_once();

-- Nothing is ordered or resolved before the deployments are revealed. The tournament's row
-- is locked first (as 0001's checks do), so a reveal and an order are applied in turn.
CREATE FUNCTION not_deployed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT deploying FROM tournaments WHERE id = NEW.tournament_id FOR NO KEY UPDATE) = 1
    THEN
        RAISE EXCEPTION 'not_deployed';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER orders_after_deployment BEFORE INSERT ON orders
FOR EACH ROW EXECUTE FUNCTION not_deployed();

CREATE TRIGGER turns_after_deployment BEFORE INSERT ON turns
FOR EACH ROW WHEN (NEW.turn > 0) EXECUTE FUNCTION not_deployed();

-- The reveal is shown in the tournament's channel by its server's process (migration 0013):
-- kind 'turn' of turn 0, the first board, with the deployments revealed.
CREATE FUNCTION tournaments_announce_reveal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO announcements (tournament_id, turn, kind, guild_id, due_at)
    VALUES (NEW.id, 0, 'turn', NEW.guild_id, NEW.deadline - NEW.turn_seconds)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;

CREATE TRIGGER tournaments_announce_reveal AFTER UPDATE OF deploying ON tournaments
FOR EACH ROW WHEN (
    OLD.deploying = 1 AND NEW.deploying = 0 AND NEW.status = 'running'
    AND NEW.channel_id IS NOT NULL
) EXECUTE FUNCTION tournaments_announce_reveal();

-- One deployment per seat (R-V1c): its emperor, pawns and mountains as tile names
-- (engine.Deployment.to_dict). Replacing it keeps one row; its request is applied once.
CREATE TABLE deployments (
    tournament_id  bigint  NOT NULL,
    seat           integer NOT NULL,
    body           json    NOT NULL,
    submitted_at   double precision NOT NULL,
    request_id     bigint,
    PRIMARY KEY (tournament_id, seat),
    FOREIGN KEY (tournament_id, seat) REFERENCES seats (tournament_id, seat)
        ON DELETE CASCADE DEFERRABLE
);

CREATE FUNCTION deployments_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM tournaments
        WHERE id = NEW.tournament_id AND status = 'running' AND deploying = 1
        FOR NO KEY UPDATE
    ) THEN
        RAISE EXCEPTION 'deployment_over';
    END IF;
    IF NOT EXISTS (
        SELECT 1 FROM seats
        WHERE tournament_id = NEW.tournament_id AND seat = NEW.seat AND status = 'active'
    ) THEN
        RAISE EXCEPTION 'seat_not_active';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER deployments_open BEFORE INSERT ON deployments
FOR EACH ROW EXECUTE FUNCTION deployments_open();

CREATE TRIGGER deployments_open_replace BEFORE UPDATE ON deployments
FOR EACH ROW EXECUTE FUNCTION deployments_open();

-- A deployment is history once revealed: only a training combat's scrub forgets it (0010).
CREATE FUNCTION deployments_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT scrubbed_at FROM tournaments WHERE id = OLD.tournament_id) IS NULL THEN
        RAISE EXCEPTION 'deployments_are_history';
    END IF;
    RETURN OLD;
END $$;

CREATE TRIGGER deployments_kept BEFORE DELETE ON deployments
FOR EACH ROW EXECUTE FUNCTION deployments_kept();

-- Every deployment counts on the tournament's revision, as orders do.
CREATE FUNCTION deployments_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
    RETURN NULL;
END $$;

CREATE TRIGGER deployments_revision_insert AFTER INSERT ON deployments
FOR EACH ROW EXECUTE FUNCTION deployments_revision();

CREATE TRIGGER deployments_revision_update AFTER UPDATE ON deployments
FOR EACH ROW EXECUTE FUNCTION deployments_revision();

CREATE FUNCTION deployments_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO applied_requests (id, action, applied_at)
    VALUES (NEW.request_id, 'deployment', NEW.submitted_at);
    RETURN NULL;
END $$;

CREATE TRIGGER deployments_request_insert AFTER INSERT ON deployments
FOR EACH ROW WHEN (NEW.request_id IS NOT NULL) EXECUTE FUNCTION deployments_request();

CREATE TRIGGER deployments_request_replace AFTER UPDATE OF request_id ON deployments
FOR EACH ROW WHEN (NEW.request_id IS NOT NULL) EXECUTE FUNCTION deployments_request();
