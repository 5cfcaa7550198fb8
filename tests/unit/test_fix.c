/*
 * test_fix.c — kplan fix as library code (planner/fix.h): kp_fix_run called
 * directly, as a benchmark or another tool would, on tests/data/fix/gpu-web.yaml
 * (two web pods next to a GPU node tainted nvidia.com/gpu): the candidates in
 * disruption order, the joint set, the hooks (progress; before_commit saying
 * no rolls the rows back), --no-record writing nothing.  Run from the
 * repository root (as `make test` does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/db.h"
#include "../../planner/udf.h"
#include "../../importers/import.h"
#include "../../planner/plan.h"
#include "../../planner/fix.h"
#include "tap.h"
#include "tap_db.h"

static long progress_calls, progress_last;
static void on_progress(void *ctx, long done, long total)
{
	(void)ctx;
	(void)total;
	progress_calls++;
	progress_last = done;
}

static int say_no(void *ctx, const kp_fix_result *r)
{
	(void)ctx;
	(void)r;
	return 1;
}

int main(void)
{
	char path[] = "/tmp/kplan-test-fix-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	kp_err err = { 0 };
	sqlite3 *db = NULL;
	TAP_OK(kp_db_open(path, KP_DB_CREATE, &db, NULL, &err) == KP_OK && kp_udf_register(db) == SQLITE_OK, "open a new database (%s)", err.msg);
	kp_import_opts io = { 0 };
	kp_import *imp = NULL;
	int rc = kp_import_begin(db, &io, &imp, &err);
	if (!rc)
		rc = kp_import_path(imp, "tests/data/fix/gpu-web.yaml", &err);
	if (!rc)
		rc = kp_import_finish(imp, &err);
	kp_import_free(imp);
	TAP_OK(rc == KP_OK, "import gpu-web.yaml (%s)", err.msg);
	kp_plan_opts po = { .seed = 1, .no_preemption = 1, .options_json = "{\"seed\":1,\"no_preemption\":true}" };
	kp_plan_result pr;
	TAP_OK(kp_plan_run(db, &po, &pr, &err) == KP_OK, "plan without preemption (%s)", err.msg);
	TAP_EQ_I64(pr.unschedulable, 2, "the two web pods are unschedulable");

	kp_fix_opts o = { .limit = 20, .candidates = 3, .preemption = -1 };
	kp_fix_result r;
	kp_fix_hooks no = { .progress = on_progress, .before_commit = say_no };
	TAP_OK(kp_fix_run(db, &o, &no, &r, &err) != KP_OK, "before_commit saying no: an error");
	TAP_EQ_I64(tap_count(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'fix'") == 0 ||
			   tap_count(db, "SELECT count(*) FROM fix") == 0, 1, "before_commit saying no: no row written");
	TAP_EQ_I64(progress_calls, 2, "progress: once per pod examined");
	TAP_EQ_I64(progress_last, 2, "progress: the last call says 2 of 2");
	kp_fix_result_release(&r);
	memset(&err, 0, sizeof err);

	TAP_OK(kp_fix_run(db, &o, NULL, &r, &err) == KP_OK, "kp_fix_run (%s)", err.msg);
	TAP_EQ_I64(r.npods, 2, "two pods examined");
	TAP_EQ_I64(r.preemption, 0, "the baseline: preemption off, as the run");
	TAP_EQ_I64(r.preemption_from_run, 1, "the baseline: from the run");
	for (int i = 0; i < r.npods && i < 2; i++) {
		const kp_fix_pod *t = &r.pods[i];
		TAP_EQ_I64(t->ncands, 2, "%s: two candidates", t->name);
		if (t->ncands == 2) {
			TAP_EQ_STR(kp_fix_level_name(t->cands[0].level), "evict", "%s: the eviction first", t->name);
			TAP_EQ_STR(t->cands[0].victims, "[\"default/batch\"]", "%s: batch is the victim", t->name);
			TAP_EQ_STR(kp_fix_level_name(t->cands[1].level), "untaint-dedicated", "%s: the GPU untaint last", t->name);
			TAP_OK(strstr(t->cands[1].detail, "gpu1 is dedicated to nvidia.com/gpu") != NULL, "%s: says why",
			       t->name);
		}
		TAP_EQ_STR(t->joint_node, "w1", "%s: the joint plan puts it on w1", t->name);
	}
	TAP_EQ_I64(r.joint_changes, 1, "joint: one change");
	TAP_EQ_I64(r.joint_placed, 2, "joint: both placed");
	TAP_EQ_I64(r.recorded, 1, "recorded");
	TAP_EQ_I64(tap_count(db, "SELECT count(*) FROM fix"), 4, "four rows");
	kp_fix_result_release(&r);

	o.no_record = 1;
	o.candidates = 1;
	TAP_OK(kp_fix_run(db, &o, NULL, &r, &err) == KP_OK, "no_record, one candidate (%s)", err.msg);
	TAP_EQ_I64(r.pods[0].ncands, 1, "no_record: one candidate a pod");
	TAP_EQ_I64(r.recorded, 0, "no_record: not recorded");
	TAP_EQ_I64(tap_count(db, "SELECT count(*) FROM fix"), 4, "no_record: the rows are as they were");
	kp_fix_result_release(&r);

	kp_db_close(db);
	kp_db_remove_files(path);
	return tap_done();
}
