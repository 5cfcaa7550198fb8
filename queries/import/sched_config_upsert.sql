-- kplan import (importers/store_objects.c): a KubeSchedulerConfiguration (as
-- JSON, and its YAML where it can be recovered), new or replacing the one
-- read from the same source.
INSERT INTO scheduler_config(api_version, document, source, line, batch_id, yaml, yaml_file)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
ON CONFLICT(source) DO UPDATE SET api_version = excluded.api_version,
    document = excluded.document, line = excluded.line, batch_id = excluded.batch_id,
    yaml = excluded.yaml, yaml_file = excluded.yaml_file
