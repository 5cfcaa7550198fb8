-- kplan report, section volumes (key/value, after volumes_cte.sql): what the
-- three volume tables hold, counted from the same rows.  pods_with_volumes:
-- pods the run keeps, binds or moves that have a pod_volume row;
-- pinned_pods, pinned_claims: pods and rows of volumes_pinned, by binding;
-- decisions: rows of volume_decisions, by action; attach_limits: (node,
-- driver) pairs with a limit (csi_node.allocatable not NULL); at_limit:
-- pairs with as many attached volumes as the limit or more; within_one: one
-- below it (at_limit + within_one = the rows of volumes_attach).
SELECT (SELECT count(DISTINCT pod_id) FROM pvol) AS pods_with_volumes,
       (SELECT count(DISTINCT pod_id) FROM pinned) AS pinned_pods,
       (SELECT count(*) FROM pinned) AS pinned_claims,
       (SELECT count(*) FROM pinned WHERE binding = 'bound') AS pinned_bound,
       (SELECT count(*) FROM pinned WHERE binding = 'bind') AS pinned_bind,
       (SELECT count(*) FROM pinned WHERE binding = 'provision') AS pinned_provision,
       (SELECT count(*) FROM decision) AS decisions,
       (SELECT count(*) FROM decision WHERE action = 'bind') AS decisions_bind,
       (SELECT count(*) FROM decision WHERE action = 'provision') AS decisions_provision,
       (SELECT count(*) FROM attach) AS attach_limits,
       (SELECT count(*) FROM attach WHERE attached >= lim) AS at_limit,
       (SELECT count(*) FROM attach WHERE attached = lim - 1) AS within_one
