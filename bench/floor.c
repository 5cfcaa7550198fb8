/*
 * floor.c — the I/O floor of a plan, for `make bench`: the same snapshot
 * load (every node, pod, label and class read from DB) and the same write
 * (one run row, one placement row per pod, one transaction) as `kplan plan`,
 * with no planning at all: pending pods go round-robin over the nodes.
 *
 *   build/bench/floor DB        prints "floor: <seconds> s (load a, write b)"
 *
 * Run it on a scratch copy: it appends a run like `kplan plan` does.
 */
#include "../planner/plan.h"
#include "../common/db.h"
#include "../planner/udf.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: floor DB\n");
		return 64;
	}
	kp_err err = { 0 };
	sqlite3 *db;
	if (kp_db_open(argv[1], 0, &db, NULL, &err) != KP_OK || kp_udf_register(db) != SQLITE_OK) {
		fprintf(stderr, "floor: %s\n", err.msg);
		return 1;
	}
	kp_plan_opts o = { .seed = KP_DEFAULT_SEED, .io_floor = 1, .options_json = "{\"io_floor\":true}" };
	kp_plan_result r;
	int rc = kp_plan_run(db, &o, &r, &err);
	sqlite3_close(db);
	if (rc) {
		fprintf(stderr, "floor: %s\n", err.msg);
		return 1;
	}
	printf("floor: %.3f s (load %.3f s, write %.3f s); %ld pods\n", r.elapsed, r.t_load, r.t_write, r.pending);
	return 0;
}
