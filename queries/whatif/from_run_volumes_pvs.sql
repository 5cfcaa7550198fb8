-- what-if --from-run: a PV run ?1 bound is bound to its claim (claimRef)
UPDATE temp.pv SET
  claim_ns = (SELECT d.namespace FROM volume_decision d WHERE d.run_id = ?1 AND d.action = 'bind' AND d.pv = temp.pv.name),
  claim_name = (SELECT d.claim FROM volume_decision d WHERE d.run_id = ?1 AND d.action = 'bind' AND d.pv = temp.pv.name),
  phase = 'Bound'
WHERE name IN (SELECT pv FROM volume_decision WHERE run_id = ?1 AND action = 'bind');
