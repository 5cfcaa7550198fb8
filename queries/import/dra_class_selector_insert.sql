-- kplan import (importers/store_dra.c): one selector of a DeviceClass.
INSERT INTO device_class_selector(class_id, seq, expression, path, expr_line, expr_col, expr_block)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
