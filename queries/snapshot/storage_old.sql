-- 1 when the storage tables are from before pvc.bind_completed (and the
-- other columns and csi_node_info that came with it): the loader reads them
-- through storage_shim.sql's TEMP views, the database untouched.
SELECT (SELECT count(*) FROM pragma_table_info('pvc') WHERE name = 'bind_completed') = 0;
