-- kplan plan quality (planner/quality.c): the CREATE statement of main's table ?1,
-- copied as a TEMP table for a dry run.
SELECT sql FROM main.sqlite_schema WHERE type = 'table' AND name = ?1
