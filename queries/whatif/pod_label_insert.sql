-- what-if (planner/whatif_tables.c): one label a controller adds to its pods
INSERT OR REPLACE INTO temp.pod_label(pod_id, key, value) VALUES(?1, ?2, ?3)
