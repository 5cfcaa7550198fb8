-- kplan plan quality (planner/quality.c): 2 when this connection's plan quality
-- tables are TEMP ones (a dry run).
SELECT count(*) FROM temp.sqlite_schema WHERE type = 'table' AND name IN ('plan_quality', 'plan_stranded')
