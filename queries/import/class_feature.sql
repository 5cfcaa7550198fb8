-- kplan import (importers/store_class.c): a node feature the class's pods require.
INSERT OR IGNORE INTO class_feature(class_id, feature) VALUES(?1, ?2)
