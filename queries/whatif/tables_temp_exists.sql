-- what-if (planner/whatif_tables.c, whatif_fix.c): 1 when the TEMP copy of
-- table ?2 exists
SELECT count(*) FROM temp.sqlite_schema WHERE type = 'table' AND name = ?2
