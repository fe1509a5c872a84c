-- 0009, the PostgreSQL twin of ../0009_locales.sql: the locale each player's Discord client
-- last told the bot, and a server's language that may be left unchosen (NULL: the server's
-- preferred locale on Discord). Rows that held the old default 'en-US' count as unchosen.

CREATE TABLE player_locales (
    player_id  bigint PRIMARY KEY,
    locale     text   NOT NULL CHECK (char_length(locale) BETWEEN 2 AND 35),
    seen_at    double precision NOT NULL
);

ALTER TABLE server_settings ALTER COLUMN locale DROP NOT NULL;
ALTER TABLE server_settings ALTER COLUMN locale DROP DEFAULT;
UPDATE server_settings SET locale = NULL WHERE locale = 'en-US';
