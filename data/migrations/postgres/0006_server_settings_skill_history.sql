-- 0006, the PostgreSQL twin of ../0006_server_settings_skill_history.sql: each server's
-- settings for tournaments, each emperor's skill rating, and the archive of finished
-- tournaments (issue #14, items 5, 6 and 8).

-- One row per server, written by /settings (see the SQLite migration for what each holds).
CREATE TABLE server_settings (
    guild_id          bigint PRIMARY KEY,
    defaults          json   NOT NULL DEFAULT '{}',
    channel_ids       json   NOT NULL DEFAULT '[]' CHECK (json_array_length(channel_ids) <= 25),
    announce_role_id  bigint,
    locale            text   NOT NULL DEFAULT 'en-US' CHECK (char_length(locale) BETWEEN 2 AND 35),
    updated_at        double precision NOT NULL
);

-- The skill of an emperor in serious combats (mu and its uncertainty sigma).
CREATE TABLE skill_ratings (
    emperor_id  bigint  PRIMARY KEY REFERENCES emperors (id) DEFERRABLE,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL CHECK (sigma > 0),
    combats     integer NOT NULL CHECK (combats >= 1),
    updated_at  double precision NOT NULL
);

-- /tournament history: a server's finished tournaments, newest first.
CREATE INDEX tournaments_finished ON tournaments (guild_id, finished_at) WHERE status = 'finished';
