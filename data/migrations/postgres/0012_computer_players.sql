-- 0012, the PostgreSQL twin of ../0012_computer_players.sql: which computer player fills a
-- tournament's empty seats when the host starts it (R-T7): ``random``, ``greedy`` or
-- ``strong`` (the levels easy, normal and hard). Each computer seat keeps its own in
-- seats.strategy. Tournaments announced before this had greedy players only.

ALTER TABLE tournaments ADD COLUMN computer_strategy text NOT NULL DEFAULT 'greedy'
    CHECK (length(computer_strategy) BETWEEN 1 AND 32);

-- A server's default for /tournament create's ``computers`` was yes or no (0006); it is now a
-- level or ``none``. Yes meant greedy players, the level ``normal``.
UPDATE server_settings
SET defaults = jsonb_set(
    defaults::jsonb,
    '{computers}',
    to_jsonb(CASE WHEN defaults->>'computers' = 'true' THEN 'normal' ELSE 'none' END)
)::json
WHERE json_typeof(defaults->'computers') = 'boolean';
