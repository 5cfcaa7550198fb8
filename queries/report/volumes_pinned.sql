-- kplan report, section volumes_pinned (after volumes_cte.sql): one row per
-- pod the run keeps, binds or moves and claim that pins it (pinned), by pod
-- and claim.
SELECT pod, claim, pv, binding, pinned_by, node FROM pinned ORDER BY pod, claim
