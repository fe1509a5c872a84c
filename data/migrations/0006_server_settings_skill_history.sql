-- 0006: each server's settings for tournaments, each emperor's skill rating, and the archive
-- of finished tournaments (issue #14, items 5, 6 and 8).

-- One row per server, written by /settings (Manage Server); a server without a row has the
-- built-in settings. ``defaults`` maps a /tournament create option to the value a host who
-- leaves it out gets (bot/services/settings.py says which options and values); its
-- ``channel_ids`` are the channels that may host tournaments (none: any channel);
-- ``announce_role_id`` the role an announcement pings (none: it pings nobody); ``locale`` the
-- server's language, a code such as en-US (the bot checks it against the languages it has).
CREATE TABLE server_settings (
    guild_id          INTEGER PRIMARY KEY,
    defaults          TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(defaults)),
    channel_ids       TEXT    NOT NULL DEFAULT '[]'
                      CHECK (json_valid(channel_ids) AND json_array_length(channel_ids) <= 25),
    announce_role_id  INTEGER,
    locale            TEXT    NOT NULL DEFAULT 'en-US' CHECK (length(locale) BETWEEN 2 AND 35),
    updated_at        REAL    NOT NULL
) STRICT;

-- The skill of an emperor in serious combats (Weng-Lin's Plackett-Luce model: the estimate mu
-- and its uncertainty sigma), written in the transaction that applies a combat's outcome. An
-- emperor without a row has never finished a serious combat and has the model's default.
CREATE TABLE skill_ratings (
    emperor_id  INTEGER PRIMARY KEY REFERENCES emperors (id),
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    combats     INTEGER NOT NULL CHECK (combats >= 1),
    updated_at  REAL    NOT NULL
) STRICT;

-- /tournament history: a server's finished tournaments, newest first.
CREATE INDEX tournaments_finished ON tournaments (guild_id, finished_at) WHERE status = 'finished';
