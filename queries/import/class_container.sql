-- kplan import (importers/store_class.c): one container of a pod class, its
-- requests as JSON (limits filling in missing requests).
INSERT INTO class_container(class_id, seq, kind, name, image, requests)
VALUES(?1, ?2, ?3, ?4, ?5, ?6)
