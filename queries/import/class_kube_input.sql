-- kplan import (importers/store_class.c): a version-dependent input of a class (schema.sql class_kube_input).
INSERT OR IGNORE INTO class_kube_input(class_id, input) VALUES(?1, ?2)
