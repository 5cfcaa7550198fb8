-- what-if add-pods (planner/whatif_add_pods.c): the volumes of the spec of
-- option ?seq (add_pods_spec_volumes.sql), which every copy gets; made when
-- a spec has volumes, dropped with the scenario (tables_drop.sql)
CREATE TEMP TABLE IF NOT EXISTS kp_whatif_spec_volume(seq INTEGER NOT NULL, ord INTEGER NOT NULL,
	name TEXT NOT NULL, kind TEXT NOT NULL, claim TEXT, read_only INTEGER NOT NULL DEFAULT 0, source TEXT,
	driver TEXT, volume_handle TEXT, claim_spec TEXT, monitors TEXT, template INTEGER NOT NULL,
	PRIMARY KEY(seq, ord))
