-- what-if (planner/whatif_record.c): 1 when view ?2 names scenario objects
-- (a database made before the what-if section has an older one)
SELECT count(*) FROM main.sqlite_schema WHERE type = 'view' AND name = ?2
AND sql LIKE '%run_pod%'
