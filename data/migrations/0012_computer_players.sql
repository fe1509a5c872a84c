-- 0012: which computer player fills a tournament's empty seats when the host starts it (R-T7):
-- ``random``, ``greedy`` or ``strong`` (the levels easy, normal and hard). Each computer seat
-- keeps its own in seats.strategy. Tournaments announced before this had greedy players only.

ALTER TABLE tournaments ADD COLUMN computer_strategy TEXT NOT NULL DEFAULT 'greedy'
    CHECK (length(computer_strategy) BETWEEN 1 AND 32);

-- A server's default for /tournament create's ``computers`` was yes or no (0006); it is now a
-- level or ``none``. Yes meant greedy players, the level ``normal``.
UPDATE server_settings
SET defaults = json_set(
    defaults,
    '$.computers',
    CASE json_type(defaults, '$.computers') WHEN 'true' THEN 'normal' ELSE 'none' END
)
WHERE json_type(defaults, '$.computers') IN ('true', 'false');
