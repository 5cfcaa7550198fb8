-- kplan plan (planner/snapshot_load.c): the Services' selectors (default
-- spreading, helper/spread.go DefaultSelector).
SELECT namespace, selector FROM service WHERE selector IS NOT NULL
