-- kplan import (importers/import.c): a finished batch's sources and counts (JSON).
UPDATE import_batch SET sources = ?1, counts = ?2 WHERE id = ?3
