-- 0019, the PostgreSQL twin of ../0019_fleet_heartbeats.sql: which bot process runs which
-- gateway shard (a row per shard, beating), and a digest of the last command sync per scope
-- (issue #40 item 6; bot/fleet.py). Taking a shard is one INSERT … ON CONFLICT statement: of
-- two processes inserting the same shard at once, the second waits for the first, then sees it.
CREATE TABLE shard_heartbeats (
    shard_id     integer PRIMARY KEY CHECK (shard_id >= 0),
    shard_count  integer CHECK (shard_count IS NULL OR shard_count > shard_id),
    process      text    NOT NULL,
    host         text    NOT NULL,
    pid          integer NOT NULL,
    started_at   double precision NOT NULL,
    beat_at      double precision NOT NULL
);

CREATE TABLE command_syncs (
    scope      text COLLATE "C" PRIMARY KEY,
    digest     text NOT NULL,
    synced_at  double precision NOT NULL
);
