-- kplan import (importers/store_class.c): one toleration of a pod class.
INSERT INTO class_toleration(class_id, seq, key, operator, value, effect, seconds)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
