-- kplan import (importers/store_dra.c): one request or subrequest of a
-- claim spec.
INSERT INTO claim_request(spec_id, request, subrequest, seq, sub_seq, first_available, device_class,
                          allocation_mode, count, admin_access)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
