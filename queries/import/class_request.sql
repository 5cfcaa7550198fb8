-- kplan import (importers/store_class.c): one effective request of a pod class.
INSERT INTO class_request(class_id, resource, value) VALUES(?1, ?2, ?3)
