-- what-if (planner/whatif_tables.c): a row when the pod ?1/?2 exists, in the
-- scenario or imported
SELECT 1 FROM temp.pod WHERE namespace = ?1 AND name = ?2
UNION ALL SELECT 1 FROM main.pod WHERE namespace = ?1 AND name = ?2 LIMIT 1
