-- kplan import (importers/store_dra.c): one capacity request of a request.
INSERT INTO claim_request_capacity(spec_id, request, subrequest, name, value, quantity)
VALUES(?1, ?2, ?3, ?4, ?5, ?6)
