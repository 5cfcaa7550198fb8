-- kplan import (importers/store_class.c): one topology spread constraint of
-- a pod class; the selector and matchLabelKeys as JSON.
INSERT INTO class_spread(class_id, seq, max_skew, topology_key, when_unsatisfiable,
                         selector, min_domains, node_affinity_policy, node_taints_policy, match_label_keys)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
