-- what-if (planner/whatif_tables.c): the definition of main table ?1 and of
-- its indexes, the table first
SELECT type, sql FROM main.sqlite_schema WHERE tbl_name = ?1 AND sql IS NOT NULL
	AND type IN ('table', 'index') ORDER BY type = 'index'
