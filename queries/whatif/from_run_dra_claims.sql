-- what-if --from-run: the claims run ?1 allocated are allocated (their node
-- selector is the node, for the devices the planner saw node-local; a
-- claim of network-attached devices keeps none, as the allocator would
-- have made one from the slices: kplan's simplification, docs/what-if.md)
UPDATE temp.resource_claim SET allocated = 1,
  allocation_node_selector = (SELECT '[{"matchFields":[["metadata.name","In",["' || n.name || '"]]]}]'
                              FROM dra_allocation a JOIN main.node n ON n.id = a.node_id
                              JOIN main.resource_slice s ON s.driver = a.driver AND s.pool = a.pool AND s.node_name IS NOT NULL
                              WHERE a.run_id = ?1 AND a.claim_id = temp.resource_claim.id LIMIT 1)
WHERE id IN (SELECT claim_id FROM dra_allocation WHERE run_id = ?1);
