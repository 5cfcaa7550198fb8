-- what-if (planner/whatif_record.c): run ?1 planned every pod (--mode full)
UPDATE run SET mode = 'full' WHERE id = ?1
