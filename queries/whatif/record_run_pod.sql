-- what-if (planner/whatif_record.c): the pods run ?1's scenario changed
INSERT INTO run_pod(run_id, pod_id, namespace, name, change, class_id, workload_id, node_name, seq)
SELECT ?1, pod_id, namespace, name, change, class_id, workload_id, node_name, seq
FROM temp.kp_whatif_pod
