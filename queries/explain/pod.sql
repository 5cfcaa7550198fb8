-- kplan explain (planner/explain_replay.c): the imported pod ?1/?2.
SELECT id FROM pod WHERE namespace = ?1 AND name = ?2
