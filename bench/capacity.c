/*
 * capacity.c — kp_capacity_run (planner/capacity.h) timed as library code,
 * for benchmarks: the database is opened read-only and nothing is recorded.
 *
 *   build/bench/capacity DB survive node|zone|LABEL [LIMIT]
 *   build/bench/capacity DB survive-replan node|zone|LABEL [LIMIT]   (--survive-replan)
 *   build/bench/capacity DB nodes-needed TEMPLATE...
 *   build/bench/capacity DB pod FILE
 *
 * prints "capacity: <seconds> s, <plans> plans; <status> <answer>".
 */
#include "../planner/capacity.h"
#include "../common/db.h"
#include "../planner/udf.h"
/* the importer --pod and template files are read with (planner/whatif.h):
 * the CLI's own, compiled in, as this program links only libkplan.a */
#include "../cli/whatif_import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	kp_capacity_opts o = { .no_record = 1, .importer = &kp_cli_whatif_importer };
	if (argc >= 4 && (!strcmp(argv[2], "survive") || !strcmp(argv[2], "survive-replan"))) {
		o.survive = argv[3];
		o.limit = argc > 4 ? atol(argv[4]) : 0;
		o.survive_replan = !strcmp(argv[2], "survive-replan");
	} else if (argc >= 4 && !strcmp(argv[2], "nodes-needed")) {
		for (int i = 3; i < argc && o.ntemplates < KP_CAPACITY_MAX_TEMPLATES; i++)
			o.templates[o.ntemplates++] = argv[i];
	} else if (argc == 4 && !strcmp(argv[2], "pod")) {
		o.pod_file = argv[3];
	} else {
		fprintf(stderr, "usage: capacity DB survive|survive-replan node|zone|LABEL [LIMIT] | nodes-needed TEMPLATE... | "
				"pod FILE\n");
		return 64;
	}
	kp_err err = { 0 };
	sqlite3 *db;
	if (kp_db_open(argv[1], KP_DB_READONLY, &db, NULL, &err) != KP_OK || kp_udf_register(db) != SQLITE_OK) {
		fprintf(stderr, "capacity: %s\n", err.msg);
		return 1;
	}
	kp_capacity_answer a;
	int rc = kp_capacity_run(db, &o, NULL, &a, &err);
	kp_db_close(db);
	if (rc) {
		fprintf(stderr, "capacity: %s\n", err.msg);
		kp_capacity_answer_release(&a);
		return 1;
	}
	printf("capacity: %.3f s, %ld plans; %s ", a.elapsed, a.plans, a.status);
	if (a.value == INT64_MIN)
		printf("-\n");
	else
		printf("%lld\n", (long long)a.value);
	kp_capacity_answer_release(&a);
	return 0;
}
