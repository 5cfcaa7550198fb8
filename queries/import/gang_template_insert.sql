-- kplan import (importers/store_gang.c): one pod group template of a Workload.
INSERT INTO sched_workload_template(workload_id, seq, name, policy, min_count, priority_class, priority,
                                    disruption_mode)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
