-- pods-per-priority.sql — pods per effective priority, and what the latest plan did with them.
--
-- Answers: how the cluster's pods split by priority (spec.priority, else the PriorityClass,
--          else the globalDefault class: the pod_priority view), and which priorities get
--          placed, evicted or left out.
-- Run:     kplan query cluster.db - < queries/cookbook/pods-per-priority.sql
-- Columns: priority, classes (the PriorityClass names with that value), pods, keep, bind,
--          move, evict, unschedulable
SELECT pr.priority,
       (SELECT group_concat(name, ', ') FROM priority_class WHERE value = pr.priority) AS classes,
       count(*) AS pods,
       sum(pl.action = 'keep') AS keep, sum(pl.action = 'bind') AS bind, sum(pl.action = 'move') AS move,
       sum(pl.action = 'evict') AS evict, sum(pl.action = 'unschedulable') AS unschedulable
FROM pod_priority pr
JOIN placement pl ON pl.pod_id = pr.pod_id AND pl.run_id = (SELECT max(id) FROM run)
GROUP BY pr.priority
ORDER BY pr.priority DESC;
