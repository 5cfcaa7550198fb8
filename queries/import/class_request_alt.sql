-- kplan import (importers/store_class.c): a class's requests when a gate is off (schema.sql, class_request_alt).
INSERT INTO class_request_alt(class_id, variant, nonzero, resource, value) VALUES(?1, ?2, ?3, ?4, ?5)
