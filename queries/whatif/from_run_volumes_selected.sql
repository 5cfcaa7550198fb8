-- what-if --from-run: a claim run ?1 provisioned is pinned to the node it was
-- provisioned for (volume.kubernetes.io/selected-node)
UPDATE temp.pvc SET
  selected_node = (SELECT n.name FROM volume_decision d JOIN main.node n ON n.id = d.node_id
                   WHERE d.run_id = ?1 AND d.claim_id = temp.pvc.id AND d.action = 'provision')
WHERE id IN (SELECT claim_id FROM volume_decision WHERE run_id = ?1 AND action = 'provision');
