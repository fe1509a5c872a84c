-- 0019 is another branch's migration (issue #40): this empty placeholder keeps the numbers
-- without gaps on the `observe` branch only. Drop it when merging, keeping the real 0019.
SELECT 1;
