-- Every DRA CEL selector imported (the dra_cel view), for kp_import_check_cel:
-- compiled once at the end of an import, so that one kplan cannot evaluate is
-- refused with its file, line and column.
SELECT kind, namespace, name, path, expression, file, line, col, block FROM dra_cel
WHERE EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'dra_cel');
