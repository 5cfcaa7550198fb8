-- pending-queue.sql — the pending pods in scheduling-queue order, with their requests.
--
-- Answers: in which order will `kplan plan` (PrioritySort) try the pending pods?  Priority
--          high to low, then creation time, then import order.  DaemonSet pods are tried
--          first within the plan; this query shows the plain queue order.
-- Run:     kplan query cluster.db - < queries/cookbook/pending-queue.sql
-- Columns: position, namespace, pod, priority, preemption_policy, requests (resource=value ...)
SELECT row_number() OVER (ORDER BY pr.priority DESC, p.created, p.id) AS position,
       p.namespace, p.name AS pod, pr.priority, pr.preemption_policy,
       (SELECT group_concat(resource || '=' || value, ' ')
        FROM (SELECT resource, value FROM class_request q WHERE q.class_id = p.class_id ORDER BY resource)) AS requests
FROM pod p JOIN pod_priority pr ON pr.pod_id = p.id
WHERE p.node_name IS NULL
ORDER BY position;
