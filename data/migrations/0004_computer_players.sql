-- 0004: which computer player fills a tournament's empty seats when the host starts it (R-T7):
-- ``random``, ``greedy`` or ``strong`` (the levels easy, normal and hard). Each computer seat
-- keeps its own in seats.strategy. Tournaments announced before this had greedy players only.

ALTER TABLE tournaments ADD COLUMN computer_strategy TEXT NOT NULL DEFAULT 'greedy'
    CHECK (length(computer_strategy) BETWEEN 1 AND 32);
