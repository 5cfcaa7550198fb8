-- what-if --from-run: the claims run ?1 bound to a PV are bound to it, those
-- it provisioned carry the node as their selected-node annotation (kube's
-- state after VolumeBinding's Reserve and PreBind)
UPDATE temp.pvc SET
  volume_name = (SELECT d.pv FROM volume_decision d WHERE d.run_id = ?1 AND d.claim_id = temp.pvc.id AND d.action = 'bind'),
  phase = 'Bound'
WHERE id IN (SELECT claim_id FROM volume_decision WHERE run_id = ?1 AND action = 'bind');
