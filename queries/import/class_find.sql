-- kplan import (importers/store_class.c): the canonical spec stored under a
-- pod class id (a hash of the spec: a different spec here is a collision).
SELECT spec FROM pod_class WHERE id = ?1
