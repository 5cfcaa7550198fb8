-- kplan import (importers/store_expand.c): the live pods Deployment ?2 of
-- namespace ?1 owns through its ReplicaSets: those of the ReplicaSet objects
-- it owns, plus those of ReplicaSets named NAME-HASH as the controller names
-- them.  Two index seeks on pod_by_owner, not a scan of the namespace's
-- ReplicaSet pods per Deployment: NAME-HASH is the owner_name range
-- [NAME-, NAME.) ('.' follows '-'; BINARY collation).
SELECT (SELECT count(*) FROM pod p WHERE p.namespace = ?1 AND p.owner_kind = 'ReplicaSet'
          AND p.owner_name IN (SELECT name FROM workload WHERE kind = 'ReplicaSet' AND namespace = ?1
                               AND owner_kind = 'Deployment' AND owner_name = ?2)
          AND p.workload_id IS NULL AND p.phase NOT IN ('Succeeded','Failed')) +
       (SELECT count(*) FROM pod p WHERE p.namespace = ?1 AND p.owner_kind = 'ReplicaSet'
          AND p.owner_name >= ?2 || '-' AND p.owner_name < ?2 || '.'
          AND instr(substr(p.owner_name, length(?2) + 2), '-') = 0
          AND p.owner_name NOT IN (SELECT name FROM workload WHERE kind = 'ReplicaSet' AND namespace = ?1
                                   AND owner_kind = 'Deployment' AND owner_name = ?2)
          AND p.workload_id IS NULL AND p.phase NOT IN ('Succeeded','Failed'))
