-- kplan report, GPU sections: shown when the run wrote gpu_fragmentation
-- rows (planner/gpu_frag.c: a node with GPUs — node-local devices that allow
-- multiple allocations and have a capacity, as the openb importer publishes
-- them).  A database made before the table has none: no row.  ?1 the run.
SELECT 1 FROM gpu_fragmentation WHERE run_id = ?1 LIMIT 1
