-- kplan fix (planner/fix.c): 1 when the database has a fix table from before
-- rank (migrate.sql brings its rows over), else 0.
SELECT (SELECT count(*) FROM pragma_table_info('fix')) > 0 AND NOT EXISTS
       (SELECT 1 FROM pragma_table_info('fix') WHERE name = 'rank')
