-- what-if relax CLASS:affinity:SEQ (planner/whatif_fix.c): class ?1's
-- required pod (anti-)affinity term ?2 dropped
DELETE FROM temp.class_pod_affinity WHERE class_id = ?1 AND seq = CAST(?2 AS INTEGER) AND required
