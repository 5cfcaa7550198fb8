-- what-if (planner/whatif_tables.c): the creationTimestamp of added pods is
-- just after the newest pod or workload; the columns in order of preference
SELECT max((SELECT max(created) FROM main.pod), (SELECT max(created) FROM workload)),
	(SELECT max(created) FROM main.pod), (SELECT max(created) FROM workload)
