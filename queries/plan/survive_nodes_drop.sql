-- kplan capacity --survive (planner/plan_survive.c): the copy of node dropped
DROP TABLE IF EXISTS temp.node;
