-- 0020, the PostgreSQL twin of ../0020_deliveries_and_privacy.sql: what the bot could not
-- deliver, and players' and servers' data (issue #40).

CREATE TABLE undelivered_prompts (
    tournament_id  bigint  NOT NULL REFERENCES tournaments (id) DEFERRABLE,
    player_id      bigint  NOT NULL,
    kind           text    NOT NULL CHECK (kind IN ('order', 'deploy')),
    turn           integer NOT NULL CHECK (turn >= 0),
    guild_id       bigint,
    attempts       integer NOT NULL CHECK (attempts >= 0),
    due_at         double precision NOT NULL,
    PRIMARY KEY (tournament_id, player_id, kind)
);

CREATE INDEX undelivered_prompts_due ON undelivered_prompts (due_at);

CREATE FUNCTION tournaments_forget_prompts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM undelivered_prompts WHERE tournament_id = NEW.id;
    RETURN NULL;
END $$;

CREATE TRIGGER tournaments_forget_prompts AFTER UPDATE OF status ON tournaments
FOR EACH ROW WHEN (NEW.status IN ('finished', 'cancelled'))
EXECUTE FUNCTION tournaments_forget_prompts();

ALTER TABLE announcements ADD COLUMN attempts integer NOT NULL DEFAULT 0
    CHECK (attempts >= 0);
