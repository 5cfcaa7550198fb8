-- kplan import (importers/store_class.c): a new pod class: the pod spec
-- that matters to scheduling, stored once for every pod that shares it.
INSERT INTO pod_class(id, spec, namespace, scheduler_name, priority, priority_class,
                      preemption_policy, nonzero_cpu, nonzero_memory, scheduling_gates, pvc_volumes, host_network,
                      has_required_node_affinity)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
