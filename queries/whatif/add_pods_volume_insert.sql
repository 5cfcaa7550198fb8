-- what-if add-pods (planner/whatif_add_pods.c): a volume of the spec of
-- option ?1 (the other columns as add_pods_spec_volumes.sql gives them)
INSERT INTO temp.kp_whatif_spec_volume(seq, ord, name, kind, claim, read_only, source, driver, volume_handle,
	claim_spec, monitors, template) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
