-- what-if --from-run: 1 when dra_allocation has its consumed column (kplan 0.1 after issue 18)
SELECT count(*) FROM pragma_table_info('dra_allocation') WHERE name = 'consumed';
