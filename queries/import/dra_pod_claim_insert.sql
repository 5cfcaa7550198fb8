-- kplan import (importers/store_dra.c): one resource claim of a pod.
INSERT OR REPLACE INTO pod_resource_claim(pod_id, name, seq, claim_name, template, claim, claim_from, containers)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
