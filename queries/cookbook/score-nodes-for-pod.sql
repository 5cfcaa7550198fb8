-- score-nodes-for-pod.sql — score every node for one pod with kplan's scoring functions.
--
-- Answers: how would NodeResourcesFit (LeastAllocated, MostAllocated) and
--          NodeResourcesBalancedAllocation rate each node for this pod, on the cluster as it
--          stands after the latest plan?  Uses kplan_least_allocated, kplan_most_allocated and
--          kplan_balanced_allocation (docs/sql-cookbook.md, "SQL functions") on cpu and memory, with the pod's
--          non-zero scoring requests (100m / 200Mi per container that names none) added to what
--          the node already has.  Filters are not applied: see what-fits-where.sql, and
--          `kplan explain` for the planner's own numbers (normalised and weighted).
-- Run:     kplan query cluster.db - < queries/cookbook/score-nodes-for-pod.sql
--          Name the pod in the `params` line (namespace, pod).
-- Columns: node, cpu_after_m, memory_after (what the node would request with the pod),
--          least_allocated, most_allocated (mean of cpu and memory, 0..100), balanced (0..100)
WITH params(namespace, pod) AS (SELECT 'shop', 'search-reindex'),
target AS (SELECT c.nonzero_cpu AS cpu, c.nonzero_memory AS mem
           FROM pod p JOIN pod_class c ON c.id = p.class_id, params
           WHERE p.namespace = params.namespace AND p.name = params.pod),
n AS (
  SELECT c.node, c.allocatable AS cpu_alloc, c.requested_after + t.cpu AS cpu_req,
         m.allocatable AS mem_alloc, m.requested_after + t.mem AS mem_req
  FROM node_usage c JOIN node_usage m ON m.node = c.node AND m.resource = 'memory', target t
  WHERE c.resource = 'cpu')
SELECT node, cpu_req AS cpu_after_m, mem_req AS memory_after,
       (kplan_least_allocated(cpu_req, cpu_alloc) + kplan_least_allocated(mem_req, mem_alloc)) / 2 AS least_allocated,
       (kplan_most_allocated(cpu_req, cpu_alloc) + kplan_most_allocated(mem_req, mem_alloc)) / 2 AS most_allocated,
       kplan_balanced_allocation(cpu_req, cpu_alloc, mem_req, mem_alloc) AS balanced
FROM n
ORDER BY least_allocated DESC, balanced DESC, node;
