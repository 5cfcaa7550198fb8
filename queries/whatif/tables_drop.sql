-- what-if (planner/whatif_tables.c): every TEMP table a scenario makes
-- (the storage ones: --scale of a workload with volumes, whatif_scale.c, and
-- add-pods of a spec with volumes, whatif_add_pods.c; the DRA ones: either
-- of a spec naming resourceClaims, whatif_dra.c; the copies' gangs,
-- whatif_gang.c).
-- Always schema-qualified: an unqualified DROP would reach the main table.
DROP TABLE IF EXISTS temp.node; DROP TABLE IF EXISTS temp.node_resource; DROP TABLE IF EXISTS temp.node_label;
DROP TABLE IF EXISTS temp.node_taint; DROP TABLE IF EXISTS temp.node_image; DROP TABLE IF EXISTS temp.pod;
DROP TABLE IF EXISTS temp.pod_label; DROP TABLE IF EXISTS temp.kp_whatif_moved; DROP TABLE IF EXISTS temp.kp_whatif_requeued;
DROP TABLE IF EXISTS temp.kp_whatif_node; DROP TABLE IF EXISTS temp.kp_whatif_pod;
DROP TABLE IF EXISTS temp.kp_whatif_sel; DROP TABLE IF EXISTS temp.kp_whatif_dsfail;
DROP TABLE IF EXISTS temp.class_node_selector; DROP TABLE IF EXISTS temp.class_spread;
DROP TABLE IF EXISTS temp.class_pod_affinity; DROP TABLE IF EXISTS temp.class_node_term;
DROP TABLE IF EXISTS temp.class_node_expr; DROP TABLE IF EXISTS temp.pod_class;
DROP TABLE IF EXISTS temp.class_request; DROP TABLE IF EXISTS temp.class_container;
DROP TABLE IF EXISTS temp.class_toleration; DROP TABLE IF EXISTS temp.class_port;
DROP TABLE IF EXISTS temp.class_request_alt; DROP TABLE IF EXISTS temp.class_feature; DROP TABLE IF EXISTS temp.class_kube_input;
DROP TABLE IF EXISTS temp.pod_volume; DROP TABLE IF EXISTS temp.pvc; DROP TABLE IF EXISTS temp.workload_volume;
DROP TABLE IF EXISTS temp.workload_claim_template; DROP TABLE IF EXISTS temp.kp_whatif_spec_volume;
DROP TABLE IF EXISTS temp.pod_resource_claim; DROP TABLE IF EXISTS temp.resource_claim;
DROP TABLE IF EXISTS temp.resource_claim_result;
DROP TABLE IF EXISTS temp.resource_slice; DROP TABLE IF EXISTS temp.slice_counter;
DROP TABLE IF EXISTS temp.slice_device; DROP TABLE IF EXISTS temp.device_attribute;
DROP TABLE IF EXISTS temp.device_capacity; DROP TABLE IF EXISTS temp.device_counter;
DROP TABLE IF EXISTS temp.device_taint;
DROP TABLE IF EXISTS temp.kp_whatif_gang;
