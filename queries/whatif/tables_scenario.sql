-- what-if (planner/whatif_tables.c): what the scenario did, for the snapshot
-- loader (kp_whatif_moved) and the record (run_node, run_pod); kp_whatif_sel
-- holds the nodes the current option selects, kp_whatif_dsfail the DaemonSet
-- classes an added node does not get a pod of
CREATE TEMP TABLE kp_whatif_moved(pod_id INTEGER PRIMARY KEY, node_id INTEGER NOT NULL, seq INTEGER NOT NULL);
-- the pods move-pods took off: re-created, so queued after every pod pending before
CREATE TEMP TABLE kp_whatif_requeued(pod_id INTEGER PRIMARY KEY);
CREATE TEMP TABLE kp_whatif_node(node_id INTEGER NOT NULL, name TEXT NOT NULL, change TEXT NOT NULL,
	seq INTEGER NOT NULL, PRIMARY KEY(node_id, change));
CREATE TEMP TABLE kp_whatif_pod(pod_id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, name TEXT NOT NULL,
	change TEXT NOT NULL, class_id INTEGER, workload_id INTEGER, node_name TEXT, seq INTEGER NOT NULL);
CREATE TEMP TABLE kp_whatif_sel(node_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TEMP TABLE kp_whatif_dsfail(class_id INTEGER NOT NULL, node_id INTEGER NOT NULL,
	PRIMARY KEY(class_id, node_id));
