-- what-if (planner/whatif_tables.c, wi_storage_shadow): 4 when the database
-- has the tables of pods' and workloads' volumes and of claims (a database
-- made before them has none: its workloads and pods have no volumes to copy)
SELECT count(*) FROM main.sqlite_schema WHERE type = 'table'
	AND name IN ('pod_volume', 'pvc', 'workload_volume', 'workload_claim_template')
