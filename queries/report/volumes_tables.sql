-- kplan report, volumes sections: one row when the database has the storage
-- tables the sections read (schema.sql's storage section; a database
-- imported before it has none, and then the sections are left out).
-- volume_decision is looked for apart (volumes_has_decisions.sql): a
-- database whose runs made no decision may lack it.
SELECT 1 WHERE (SELECT count(*) FROM sqlite_master WHERE type = 'table'
                 AND name IN ('storage_class', 'pv', 'pv_label', 'pvc', 'csi_node', 'pod_volume')) = 6
