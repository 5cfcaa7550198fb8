-- what-if (planner/whatif_tables.c): the labels of an added pod, from a JSON
-- object ?2 (a workload's template labels)
INSERT OR REPLACE INTO temp.pod_label(pod_id, key, value)
SELECT ?1, key, value FROM json_each(?2) WHERE json_valid(?2)
