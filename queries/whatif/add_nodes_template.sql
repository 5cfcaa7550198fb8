-- what-if --add-nodes (planner/whatif_add_nodes.c): the Node of the template,
-- in the database in memory the template file was imported into
SELECT name, unschedulable, created FROM node
