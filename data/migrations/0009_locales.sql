-- 0008: the languages the bot speaks (issue #15).

-- The locale each player's Discord client last told the bot (an interaction's locale), so
-- that what the bot sends them unasked, by DM, is in their language. Keyed by the Discord user
-- id: a player who never founded a dynasty (a follower) gets DMs too. Written only when it
-- changes, not on every click.
CREATE TABLE player_locales (
    player_id  INTEGER PRIMARY KEY,
    locale     TEXT    NOT NULL CHECK (length(locale) BETWEEN 2 AND 35),
    seen_at    REAL    NOT NULL
) STRICT;

-- A server's language may now be left unchosen (NULL): its channels then read the server's
-- preferred locale on Discord. Before, every row had one, 'en-US' by default, while the bot
-- spoke English only; such rows count as unchosen now. A table's column cannot drop NOT NULL
-- in SQLite, so the table is rebuilt (no table refers to it).
CREATE TABLE server_settings_rebuilt (
    guild_id          INTEGER PRIMARY KEY,
    defaults          TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(defaults)),
    channel_ids       TEXT    NOT NULL DEFAULT '[]'
                      CHECK (json_valid(channel_ids) AND json_array_length(channel_ids) <= 25),
    announce_role_id  INTEGER,
    locale            TEXT    CHECK (locale IS NULL OR length(locale) BETWEEN 2 AND 35),
    updated_at        REAL    NOT NULL
) STRICT;

INSERT INTO server_settings_rebuilt
SELECT guild_id, defaults, channel_ids, announce_role_id, NULLIF(locale, 'en-US'), updated_at
FROM server_settings;

DROP TABLE server_settings;

ALTER TABLE server_settings_rebuilt RENAME TO server_settings;
