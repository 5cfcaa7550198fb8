-- kplan plan --mode rebalance (planner/rebalance_write.c): one row a run, the
-- strategies and effective settings (JSON), the totals and what was not
-- proposed (no home, over a limit or budget, kept by the evictor's rules).
INSERT INTO rebalance_run(run_id, strategies, settings, moves, waves, nodes_freed, cost,
  no_home, limited, kept) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
