/*
 * test_capacity.c — kp_capacity_run (planner/capacity.h) called as library
 * code, without the CLI: tests/data/capacity/zones.yaml imported into a
 * temporary database, then --survive zone --limit 1 not recorded (the answer,
 * the hooks, nothing written) and recorded (capacity_run, capacity_pod), and
 * --nodes-needed with two templates (a number, the smallest).  Run from the
 * repository's root (make test does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/kp.h"
#include "../../common/db.h"
#include "../../planner/udf.h"
#include "../../importers/import.h"
#include "../../planner/capacity.h"
/* the importer --node-template files are read with (planner/whatif.h): the
 * CLI's own, compiled in, as this test links only libkplan.a */
#include "../../cli/whatif_import.h"
#include "tap.h"
#include "tap_db.h"

static int commits, progresses;

static int on_commit(void *ctx, const kp_capacity_answer *a)
{
	(void)ctx;
	(void)a;
	commits++;
	return 0;
}

static void on_progress(void *ctx, const char *unit, long done, long total)
{
	(void)ctx;
	(void)unit;
	(void)done;
	(void)total;
	progresses++;
}

int main(void)
{
	const char *fixture = "tests/data/capacity/zones.yaml";
	if (access(fixture, R_OK) != 0) {
		printf("1..0 # SKIP %s not found (run from the repository's root)\n", fixture);
		return 0;
	}
	char dir[] = "/tmp/kplan-capacity-XXXXXX", path[64];
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/c.db", dir);
	kp_err err = { 0 };
	sqlite3 *db = NULL;
	kp_import *imp = NULL;
	kp_import_opts io;
	memset(&io, 0, sizeof io);
	int rc = kp_db_open(path, KP_DB_CREATE, &db, NULL, &err);
	if (rc == KP_OK && kp_udf_register(db) != SQLITE_OK)
		rc = KP_NOMEM;
	if (!rc)
		rc = kp_import_begin(db, &io, &imp, &err);
	if (!rc)
		rc = kp_import_path(imp, fixture, &err);
	if (!rc)
		rc = kp_import_finish(imp, &err);
	kp_import_free(imp);
	TAP_EQ_I64(rc, KP_OK, "import %s (%s)", fixture, err.msg);

	/* --survive zone --limit 1, not recorded */
	kp_capacity_opts o = { .survive = "zone", .limit = 1, .no_record = 1 };
	kp_capacity_hooks h = { .progress = on_progress, .before_commit = on_commit };
	kp_capacity_answer a;
	rc = kp_capacity_run(db, &o, &h, &a, &err);
	TAP_EQ_I64(rc, KP_OK, "survive zone: KP_OK (%s)", err.msg);
	TAP_EQ_STR(a.kind, "survive-zone", "survive zone: kind");
	TAP_EQ_STR(a.status, "fails", "survive zone: losing zone a fails");
	TAP_EQ_I64(a.value, 0, "survive zone: answer 0 (does not survive)");
	TAP_EQ_I64(a.id, 0, "survive zone, no_record: not recorded");
	TAP_OK(strstr(kp_sb_str(&a.result), "\"lost\":[{\"namespace\":\"shop\",\"pod\":\"api-1\",\"priority\":1000") != NULL,
	       "survive zone: the JSON names api-1 as lost");
	TAP_OK(strstr(kp_sb_str(&a.result), "{\"namespace\":\"shop\",\"pod\":\"trainer\",\"priority\":1000") != NULL,
	       "survive zone: the JSON names the trainer");
	TAP_EQ_I64(a.plans, 3, "survive zone: 3 plans (the baseline, zone a, zone a again for its certificate)");
	TAP_EQ_I64(commits, 1, "survive zone: before_commit called once");
	TAP_OK(progresses >= 1, "survive zone: progress called");
	TAP_EQ_I64(tap_count(db, "SELECT count(*) FROM capacity_run"), 0, "no_record: no capacity_run row");
	kp_capacity_answer_release(&a);

	/* the same, recorded */
	o.no_record = 0;
	rc = kp_capacity_run(db, &o, &h, &a, &err);
	TAP_EQ_I64(rc, KP_OK, "survive zone recorded: KP_OK (%s)", err.msg);
	TAP_EQ_I64(a.id, 1, "survive zone recorded: capacity_run 1");
	TAP_EQ_I64(tap_count(db, "SELECT count(*) FROM capacity_pod WHERE capacity_id = 1 AND change = 'loses'"), 2,
		   "survive zone recorded: 2 pods lose their node");
	TAP_EQ_I64(tap_count(db, "SELECT count(*) FROM capacity_pod WHERE capacity_id = 1 AND change = 'gains'"), 2,
		   "survive zone recorded: 2 pods gain one");
	kp_capacity_answer_release(&a);

	/* --nodes-needed, two templates */
	kp_capacity_opts n = { .templates = { "tests/data/capacity/node-tainted.yaml", "tests/data/capacity/node-4cpu.yaml" },
			       .ntemplates = 2, .no_record = 1, .no_preemption = 1, .importer = &kp_cli_whatif_importer };
	rc = kp_capacity_run(db, &n, NULL, &a, &err);
	TAP_EQ_I64(rc, KP_OK, "nodes needed: KP_OK (%s)", err.msg);
	TAP_EQ_STR(a.status, "found", "nodes needed: found");
	TAP_OK(a.value != INT64_MIN && a.value >= 0, "nodes needed: a number (%lld)", (long long)a.value);
	TAP_OK(strstr(kp_sb_str(&a.options), "\"preemption\":false") != NULL, "nodes needed: the options say no preemption");
	kp_capacity_answer_release(&a);

	/* not a question */
	kp_capacity_opts bad = { .no_record = 1 };
	memset(&err, 0, sizeof err);
	TAP_EQ_I64(kp_capacity_run(db, &bad, NULL, &a, &err), KP_USAGE, "no question: KP_USAGE");
	kp_capacity_answer_release(&a);

	kp_db_close(db);
	kp_db_remove_files(path);
	rmdir(dir);
	return tap_done();
}
