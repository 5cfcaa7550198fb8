-- kplan plan (planner/config_merge.c): the imported scheduler configurations,
-- the latest import first, with the YAML each was read from.
SELECT id, document, source, yaml, yaml_file FROM scheduler_config
ORDER BY batch_id DESC, id DESC
