-- kplan import (importers/import.c): the secondary indexes of pod and
-- pod_label, when no pod is stored yet.  A first import drops them and
-- builds them again at its end (in the same transaction): building an index
-- of 150,000 rows once is cheaper than keeping it sorted row by row.
-- UNIQUE and primary keys stay (the import looks pods up by them).
SELECT name, sql FROM sqlite_master
WHERE type = 'index' AND tbl_name IN ('pod', 'pod_label') AND sql IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM pod)
ORDER BY name
