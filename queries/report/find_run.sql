-- kplan report: the id of run ?1, or of the latest run when ?1 is 0; no row
-- when there is no such run (reports/model.c).
SELECT id FROM run WHERE ?1 = 0 OR id = ?1 ORDER BY id DESC LIMIT 1
