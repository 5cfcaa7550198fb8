-- kplan plan (planner/config_merge.c): imported.sql for a database made before
-- scheduler_config had yaml and yaml_file (NULL in their place).
SELECT id, document, source, NULL, NULL FROM scheduler_config
ORDER BY batch_id DESC, id DESC
