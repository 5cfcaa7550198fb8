-- kplan import (importers/store_expand.c): the scratch tables of a
-- DaemonSet's expansion, created once per connection and emptied each time:
-- the class the static filters test (kp_classes, as the planner fills it)
-- and the nodes it fails on (kp_ds_fail).
CREATE TEMP TABLE IF NOT EXISTS kp_classes(class_id INTEGER PRIMARY KEY);
DELETE FROM temp.kp_classes;
CREATE TEMP TABLE IF NOT EXISTS kp_ds_fail(node_id INTEGER PRIMARY KEY);
DELETE FROM temp.kp_ds_fail;
