-- kplan import (importers/import.c): a new import batch; its sources and
-- counts are written when it finishes (batch_finish).
INSERT INTO import_batch(started, sources, kplan) VALUES(?1, '[]', ?2)
