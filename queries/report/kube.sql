-- kplan report, section kube (reports/model.c): the kube-scheduler version
-- and feature gates run ?1 planned as (run.kube_version, run.feature_gates;
-- docs/kube-versions.md), one row of (key, value) pairs.  Left out for a
-- run from before they were recorded.
SELECT kube_version AS kube_version,
       CASE WHEN feature_gates IS NULL OR feature_gates = '' THEN 'the version''s defaults' ELSE feature_gates END
         AS feature_gates
FROM run WHERE id = ?1
