-- kplan import (importers/store_class.c): one node affinity term of a pod
-- class (required = 1: a nodeSelectorTerm; 0: a preferred term and its weight).
INSERT INTO class_node_term(class_id, required, term, weight) VALUES(?1, ?2, ?3, ?4)
