-- what-if add-pods (planner/whatif_add_pods.c): added pods belong to the
-- latest import batch
SELECT COALESCE(max(id), 0) FROM import_batch
