-- 0018: what keeps one member from flooding a channel (issue #35, items 5 and 6).
--
-- Announcements in Discord: a member announces at most 5 tournaments in any hour (wherever),
-- and a channel hears at most 10 announcements in any hour (each may ping the server's
-- announcement role). Every announcement in a channel leaves a row here, written in the same transaction as its
-- tournament: the insert itself refuses one beyond a limit, so announcements made at once
-- never both pass the last free place. A row is deleted once it is an hour old (by the next
-- insert): it names no tournament, so nothing here ties a player to a training combat (R-T4).
-- data/repositories/tournaments.py names the same numbers for its refusals.
CREATE TABLE recent_announcements (
    id            INTEGER PRIMARY KEY,
    player_id     INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    announced_at  REAL    NOT NULL
) STRICT;

CREATE INDEX recent_announcements_player ON recent_announcements (player_id, announced_at);
CREATE INDEX recent_announcements_channel ON recent_announcements (channel_id, announced_at);

CREATE TRIGGER recent_announcements_limits BEFORE INSERT ON recent_announcements
BEGIN
    SELECT RAISE(ABORT, 'too_many_announcements')
    WHERE (
        SELECT count(*) FROM recent_announcements
        WHERE player_id = NEW.player_id AND announced_at > NEW.announced_at - 3600
    ) >= 5;
    SELECT RAISE(ABORT, 'channel_announcements')
    WHERE (
        SELECT count(*) FROM recent_announcements
        WHERE channel_id = NEW.channel_id AND announced_at > NEW.announced_at - 3600
    ) >= 10;
END;

CREATE TRIGGER recent_announcements_forget AFTER INSERT ON recent_announcements
BEGIN
    DELETE FROM recent_announcements WHERE announced_at <= NEW.announced_at - 3600;
END;

-- Combats of computer players only, in a channel: a member hosts at most 2 running at once.
-- Counted when one starts with no seat a person plays; a combat counts while no active seat
-- is played by a person (seats handed over to a computer, players defeated or gone count as
-- computers'). Its turns are paced by the server's choice below.
CREATE INDEX tournaments_host ON tournaments (host_player_id, status);

CREATE TRIGGER tournaments_computer_combats BEFORE UPDATE OF status ON tournaments
WHEN OLD.status = 'open' AND NEW.status = 'running' AND NEW.host_player_id IS NOT NULL
    AND NEW.channel_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM seats WHERE tournament_id = NEW.id AND kind <> 'computer')
BEGIN
    SELECT RAISE(ABORT, 'too_many_computer_combats')
    WHERE (
        SELECT count(*) FROM tournaments t
        WHERE t.host_player_id = NEW.host_player_id AND t.status = 'running'
            AND t.channel_id IS NOT NULL AND t.id <> NEW.id
            AND NOT EXISTS (
                SELECT 1 FROM seats s
                WHERE s.tournament_id = t.id AND s.status = 'active' AND s.kind <> 'computer'
                    AND s.handed_to IS NULL
            )
    ) >= 2;
END;

-- The least seconds between two resolved turns of a combat no person plays any more, so its
-- channel stays readable (/settings pace); NULL: the built-in pace (bot/services/settings.py).
-- Written by its own statement, so a change of the other settings never undoes it.
ALTER TABLE server_settings ADD COLUMN computer_pace INTEGER
    CHECK (computer_pace IS NULL OR computer_pace BETWEEN 0 AND 60);
