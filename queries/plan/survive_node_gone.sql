-- kplan capacity --survive (planner/plan_survive.c): node ?1 is gone from the copy
DELETE FROM temp.node WHERE id = ?1;
