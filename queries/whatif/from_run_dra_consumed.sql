-- what-if --from-run: what each share run ?1 allocated consumes (dra_allocation.consumed)
INSERT INTO temp.resource_claim_consumed(claim_id, seq, domain, name, value, quantity)
SELECT a.claim_id, 1000 + a.seq, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'),
       json_extract(j.value, '$[2]'), CAST(json_extract(j.value, '$[2]') AS TEXT)
FROM dra_allocation a, json_each(a.consumed) j WHERE a.run_id = ?1 AND a.consumed IS NOT NULL
