-- kplan import (importers/store_class.c): one requirement of a node affinity
-- term (field = 1: matchFields; vals: JSON list).
INSERT INTO class_node_expr(class_id, required, term, seq, field, key, operator, vals)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
