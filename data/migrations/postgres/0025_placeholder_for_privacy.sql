-- 0025 belongs to the /privacy delete and server removal branch (issue #40), merged apart:
-- this placeholder only keeps the numbers without gaps on the regents branch, whose own
-- migration is 0026. The integrator keeps the real 0025 and drops this file.
SELECT 1;
