-- kplan import (importers/store_dra.c): one selector of a request.
INSERT INTO claim_request_selector(spec_id, request, subrequest, seq, expression, path, expr_line, expr_col,
                                   expr_block)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
