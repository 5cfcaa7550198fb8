-- kplan import (importers/store_dra.c): one toleration of a request.
INSERT INTO claim_request_toleration(spec_id, request, subrequest, seq, key, operator, value, effect,
                                     toleration_seconds)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
