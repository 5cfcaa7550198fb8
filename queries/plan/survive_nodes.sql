-- kplan capacity --survive (planner/plan_survive.c): for the quality
-- certificate of a domain's plan, the nodes left — a TEMP copy of node that
-- shadows it; survive_node_gone takes the domain's nodes out of it
CREATE TEMP TABLE node AS SELECT * FROM main.node;
