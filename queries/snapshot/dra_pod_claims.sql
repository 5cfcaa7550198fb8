-- Every pod's claims, in spec order.
SELECT pod_id, name, claim, claim_from, template FROM pod_resource_claim ORDER BY pod_id, seq;
