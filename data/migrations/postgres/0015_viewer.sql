-- 0015, the PostgreSQL twin of ../0015_viewer.sql: whether anyone with the link may watch a
-- server's tournaments on the web page (issue #37); 0 (no) unless the server chose it.
ALTER TABLE server_settings ADD COLUMN viewer_public integer NOT NULL DEFAULT 0
    CHECK (viewer_public IN (0, 1));
