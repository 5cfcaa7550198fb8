-- kplan plan (planner/plan.c): the pods with volumes that matter to
-- scheduling (pod_volume: claims, generic ephemeral volumes, in-tree disks,
-- inline CSI), in id order, for the warning that the volume plugins are not
-- modelled.  A database imported before storage was has no pod_volume
-- table: the caller then counts from the classes alone.
SELECT DISTINCT pod_id FROM pod_volume ORDER BY pod_id
