-- kplan import (importers/store_objects.c): one of a node's status.declaredFeatures.
INSERT OR IGNORE INTO node_declared_feature(node_id, feature) VALUES(?1, ?2)
