-- kplan report, section gpu_shapes: the run's gpu_typical_shape rows in
-- order (most frequent first): the pod shapes the fragmentation measure
-- weighs (cpu milli, GPUs and milli on each; 0 GPUs: cpu only), the pods
-- of each shape and its weight (rounded to 6 decimals), a pod of it.
-- ?1 the run.
SELECT seq,
       CASE WHEN gpus = 0 THEN 'cpu only'
            WHEN milli < 1000 THEN milli || ' milli of 1 GPU'
            ELSE gpus || ' whole GPU' || CASE WHEN gpus > 1 THEN 's' ELSE '' END END AS shape,
       cpu, gpus, milli, pods, round(weight, 6) AS weight, example
FROM gpu_typical_shape WHERE run_id = ?1 ORDER BY seq
