-- 0015: the game viewer (issue #37). A server chooses with /settings whether anyone with the
-- link may watch its tournaments on the web page /view/<id> (bot/web/viewer.py): 1 yes, 0 no
-- (the default: a server that never chose shares nothing). Written by its own statement
-- (data/repositories/viewing.py), so a change of the other settings never undoes it.
ALTER TABLE server_settings ADD COLUMN viewer_public INTEGER NOT NULL DEFAULT 0
    CHECK (viewer_public IN (0, 1));
