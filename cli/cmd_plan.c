/*
 * cmd_plan.c — `kplan plan DB`: place every pending pod as kube-scheduler
 * would and append the run to the database (run, placement, pod_failure,
 * run_warning; the plan, unschedulable and node_usage views show it).
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/plan.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>

const char cmd_plan_help[] =
	"usage: kplan plan [options] DB\n"
	"\n"
	"Place every pending pod (no spec.nodeName) the way kube-scheduler would, one at a\n"
	"time in queue order (priority, then creation time, then import order), with the\n"
	"bound pods as existing load, and append the result to DB as a new run.  Read it\n"
	"with `kplan query DB 'SELECT * FROM plan'` (also: unschedulable, node_usage).\n"
	"The same database and options always give the same plan.\n"
	"\n"
	"Options:\n"
	"  --config FILE             a KubeSchedulerConfiguration (v1 or v1beta3); default:\n"
	"                            the latest one imported, else kube's default profile\n"
	"  --seed N                  seed for breaking ties between equal nodes (default 1)\n"
	"  --no-preemption           plan without DefaultPreemption\n"
	"  --fail-on-unschedulable   exit 2 when any pod is left unschedulable (CI gates)\n"
	"  --reference               no caches: run every plugin on every node for every pod\n"
	"                            (slow; the same plan, for checking the fast path)\n"
	"  -q, --quiet               no summary line\n"
	"  -h, --help                this help\n"
	"\n"
	"Examples:\n"
	"  kplan plan cluster.db\n"
	"  kplan plan --config scheduler.yaml --seed 7 cluster.db\n";

static void progress(void *ctx, long done, long total)
{
	double *t0 = ctx;
	double el = kp_cli_now() - *t0;
	fprintf(stderr, "\rkplan: planned %ld of %ld pods (%.0f pods/s)   ", done, total, el > 0 ? (double)done / el : 0.0);
	fflush(stderr);
}

/* Printed just before COMMIT (warnings to stderr, the summary to stdout): if
 * stdout cannot take it, the run rolls back. */
struct summary_ctx {
	int quiet, progress;
};

static int print_summary(void *ctx, const kp_plan_result *r)
{
	const struct summary_ctx *c = ctx;
	int quiet = c->quiet;
	if (c->progress)
		fprintf(stderr, "\r\033[K");
	for (int i = 0; i < r->nwarnings; i++)
		fprintf(stderr, "kplan: warning: %s\n", r->warnings[i]);
	if (quiet)
		return 0;
	printf("run %lld: %ld pending pods: %ld placed, %ld unschedulable", (long long)r->run_id, r->pending, r->bound,
	       r->unschedulable);
	if (r->evicted || r->moved)
		printf("; preemption: %ld evicted, %ld moved", r->evicted, r->moved);
	if (r->ignored)
		printf(", %ld left to other schedulers", r->ignored);
	printf("; %ld bound pods kept; %ld nodes; %ld pass%s; %.2f s\n", r->kept, r->nodes, r->passes,
	       r->passes == 1 ? "" : "es", r->elapsed);
	fflush(stdout);
	return ferror(stdout) ? -1 : 0;
}

int cmd_plan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "no-preemption", no_argument, NULL, 'n' },
		{ "fail-on-unschedulable", no_argument, NULL, 'f' },
		{ "reference", no_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	kp_plan_opts o = { .seed = KP_DEFAULT_SEED };
	int quiet = 0, gate = 0, c;
	if (kp_cli_wants_help(argc, argv, cmd_plan_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+qh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o.config_file = optarg; break;
		case 's': {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-')
				return kp_cli_usage("plan", "--seed needs a non-negative integer, got '%s'", optarg);
			o.seed = v;
			break;
		}
		case 'n': o.no_preemption = 1; break;
		case 'f': gate = 1; break;
		case 'r': o.reference = 1; break;
		case 'q': quiet = 1; break;
		default:
			return kp_cli_usage("plan", optopt ? "option '%s' needs a value" : "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return kp_cli_usage("plan", argc - optind < 1 ? "missing DB" : "too many arguments");
	const char *path = argv[optind];
	kp_sb opt;
	kp_sb_init(&opt);
	kp_sb_printf(&opt, "{\"seed\":%llu,\"config\":", (unsigned long long)o.seed);
	kp_sb_add_json_str(&opt, o.config_file);
	kp_sb_printf(&opt, ",\"no_preemption\":%s", o.no_preemption ? "true" : "false");
	if (o.reference)
		kp_sb_printf(&opt, ",\"reference\":true");
	kp_sb_printf(&opt, "}");
	o.options_json = kp_sb_str(&opt);
	double t0 = kp_cli_now();
	if (kp_cli_progress_enabled(quiet)) {
		o.progress = progress;
		o.progress_ctx = &t0;
	}
	kp_err err = { 0 };
	sqlite3 *db;
	if (kp_db_open(path, KP_DB_CREATE, &db, NULL, &err) != KP_OK) {
		kp_sb_release(&opt);
		return kp_cli_fail(&err);
	}
	kp_cli_on_interrupt(db);
	struct summary_ctx sc = { quiet, o.progress != NULL };
	o.before_commit = print_summary;
	o.commit_ctx = &sc;
	kp_plan_result r;
	int rc = kp_plan_run(db, &o, &r, &err);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	kp_sb_release(&opt);
	if (rc != KP_OK) {
		if (o.progress)
			fprintf(stderr, "\r\033[K");
		int code = kp_cli_fail(&err);
		fprintf(stderr, "kplan: %snothing was written\n", kp_interrupted ? "interrupted: " : "");
		return code;
	}
	if (gate && r.unschedulable)
		return KP_EXIT_UNSCHEDULABLE;
	return KP_EXIT_OK;
}
