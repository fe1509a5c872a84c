-- 0019: which bot process runs which gateway shard, and which command list Discord has
-- (issue #40 item 6; bot/fleet.py).
--
-- Every running process keeps a row per shard it runs here, beating every few seconds: a
-- process that starts refuses a shard another live process runs (two processes on one shard
-- would both answer its servers), a SHARD_COUNT that disagrees with the live processes (they
-- would split the servers differently), and a process that runs every shard (unsharded, or
-- SHARD_COUNT=auto: shard 0 with no count) beside any other. Taking a shard is one statement,
-- like a lease (migration 0013): of two processes starting at once on one shard, one gets it.
-- A clean stop deletes its rows; a process that died leaves rows that stop beating.
CREATE TABLE shard_heartbeats (
    shard_id     INTEGER PRIMARY KEY CHECK (shard_id >= 0),
    shard_count  INTEGER CHECK (shard_count IS NULL OR shard_count > shard_id),
    process      TEXT    NOT NULL,   -- who runs it: host, process id and a random part
    host         TEXT    NOT NULL,
    pid          INTEGER NOT NULL,
    started_at   REAL    NOT NULL,
    beat_at      REAL    NOT NULL
) STRICT, WITHOUT ROWID;

-- What the last command sync sent, per application and scope ('global' or a server id): a
-- digest of the payload, so a start whose commands are unchanged publishes nothing.
CREATE TABLE command_syncs (
    scope      TEXT PRIMARY KEY,
    digest     TEXT NOT NULL,
    synced_at  REAL NOT NULL
) STRICT, WITHOUT ROWID;
