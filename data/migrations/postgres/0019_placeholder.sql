-- 0019, the PostgreSQL twin of ../0019_placeholder.sql: empty (see there).
SELECT 1;
