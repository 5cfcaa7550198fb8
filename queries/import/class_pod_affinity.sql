-- kplan import (importers/store_class.c): one pod (anti-)affinity term of a
-- pod class; selectors and lists as JSON.
INSERT INTO class_pod_affinity(class_id, seq, anti, required, weight, topology_key,
                               selector, namespaces, ns_selector, match_label_keys, mismatch_label_keys)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
