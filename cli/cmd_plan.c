/*
 * cmd_plan.c — `kplan plan DB`: place every pending pod as kube-scheduler
 * would and append the run to the database (run, placement, pod_failure,
 * run_warning; the plan, unschedulable and node_usage views show it).
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/plan.h"
#include "../planner/whatif.h"
#include "../planner/rebalance.h"
#include "whatif_import.h"

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
	"  --config FILE|default     a KubeSchedulerConfiguration (v1 or v1beta3), or a\n"
	"                            ConfigMap holding one; `default`: kube's default\n"
	"                            profile (a file named default: ./default).  Without\n"
	"                            it: per schedulerName the latest imported profile,\n"
	"                            kube's default for default-scheduler when none\n"
	"                            names it; a profile kplan cannot run leaves only its\n"
	"                            own pods unplanned\n"
	"  --seed N                  seed for breaking ties between equal nodes (default 1)\n"
	"  --no-preemption           plan without DefaultPreemption\n"
	"  --fail-on-unschedulable   exit 2 when any pod is left unschedulable (CI gates)\n"
	"  --reference               no caches: run every plugin on every node for every pod\n"
	"                            (slow; the same plan, for checking the fast path)\n"
	"  --mode pending|full|rebalance\n"
	"                            full: plan every pod from scratch, bound ones too\n"
	"                            (keep, move, bind, unschedulable; DaemonSet pods stay);\n"
	"                            rebalance: then propose moves of bound pods (below)\n"
	"  --strategy least|most|balanced\n"
	"                            NodeResourcesFit scoring in every profile: spread\n"
	"                            (LeastAllocated), pack (MostAllocated), or spread with\n"
	"                            resources in proportion (BalancedAllocation x3)\n"
	"  --from-run N              start from the state run N left: the pods it placed\n"
	"                            or moved are bound there, its victims gone (or pending\n"
	"                            again when a controller re-creates them); not a run\n"
	"                            with a what-if scenario\n"
	"  -q, --quiet               no summary line\n"
	"  -h, --help                this help\n"
	"\n"
	"What-if (this run only; the imported tables are not changed; repeatable; applied\n"
	"in this order: --from-run, remove, cordon, drain, add, scale, then --mode full):\n"
	"  --remove-nodes NODE|SELECTOR  the nodes are gone; their pods become pending\n"
	"  --cordon NODE|SELECTOR    spec.unschedulable\n"
	"  --drain NODE|SELECTOR     cordon, and re-place its pods (DaemonSet pods stay)\n"
	"  --add-nodes FILE[:COUNT]  COUNT (default 1) nodes like the Node in FILE,\n"
	"                            named NAME-whatif-1, NAME-whatif-2, ...\n"
	"  --scale NS/WORKLOAD=N     N replicas: pending ones added or the surplus removed\n"
	"SELECTOR: a label selector as kubectl -l takes it: key=value, key!=value,\n"
	"key in (a,b), key notin (a,b), !key, key, joined by commas (all must hold); a\n"
	"single word is a node's name.\n"
	"\n"
	"Rebalance (--mode rebalance; descheduler's strategies, every move simulated\n"
	"with the planner; table move_wave, README \"Nightly rebalance\"):\n"
	"  --strategies LIST         comma-separated, of RemovePodsViolatingNodeTaints,\n"
	"                            RemovePodsViolatingNodeAffinity,\n"
	"                            RemovePodsViolatingInterPodAntiAffinity,\n"
	"                            RemovePodsViolatingTopologySpreadConstraint,\n"
	"                            RemoveDuplicates, LowNodeUtilization, HighNodeUtilization\n"
	"                            (default: all but HighNodeUtilization)\n"
	"  --rebalance-config FILE   a descheduler policy (descheduler/v1alpha2, YAML or\n"
	"                            JSON): plugins, pluginConfig args, limits\n"
	"  --max-moves N             at most N moves in all\n"
	"  --max-moves-per-node N    at most N pods leave any one node\n"
	"  --max-moves-per-namespace N\n"
	"                            at most N moves in any one namespace\n"
	"  --priority-threshold P    only pods with priority below P move\n"
	"  --namespaces LIST         only pods of these namespaces move\n"
	"  --exclude-namespaces LIST pods of these namespaces stay\n"
	"  --evict-bare-pods         pods without a controller owner may move too (kplan's\n"
	"                            own; descheduler never evicts them): a trace such as\n"
	"                            openb, or pods their creator re-creates\n"
	"\n"
	"Examples:\n"
	"  kplan plan cluster.db\n"
	"  kplan plan --config scheduler.yaml --seed 7 cluster.db\n"
	"  kplan plan --drain node-3 --add-nodes big-node.yaml:2 cluster.db\n"
	"  kplan plan --mode full --strategy most cluster.db\n"
	"  kplan plan --mode rebalance --strategies LowNodeUtilization --max-moves 20 cluster.db\n";

/* Called every 1000 scheduling attempts (only when kp_cli_progress_enabled);
 * print_summary and the error path clear the line.  Attempts beyond the queue
 * are the later passes retrying unschedulable pods. */
static void progress(void *ctx, long done, long total)
{
	static kp_progress p;   /* one plan per process */
	static int started;
	(void)ctx;
	if (!started) {
		kp_progress_init(&p, 0);
		started = 1;
	}
	if (done <= total) {
		kp_progress_count(&p, "planned", (double)done, (double)total, "pods");
	} else if (kp_progress_due(&p, (double)done)) {
		char n[32], more[32], rate[96];
		kp_progress_show(&p, "planned %s pods; retrying unschedulable ones: %s attempts %s",
				 kp_fmt_count((double)total, n, sizeof n), kp_fmt_count((double)(done - total), more, sizeof more),
				 kp_progress_rate(&p, (double)done, 0, "attempts", rate, sizeof rate));
	}
}

/* Printed just before COMMIT (warnings to stderr, the summary to stdout): if
 * stdout cannot take it, the run rolls back. */
struct summary_ctx {
	int quiet, progress;
	kp_whatif *whatif;           /* NULL: none */
	kp_rebalance *rebalance;     /* NULL: none */
};

static int print_summary(void *ctx, const kp_plan_result *r)
{
	const struct summary_ctx *c = ctx;
	int quiet = c->quiet;
	if (c->progress)
		fprintf(stderr, "\r\033[K");
	for (int i = 0; i < r->nwarnings; i++)
		fprintf(stderr, "kplan: warning: %s\n", r->warnings[i]);
	kp_whatif_print(c->whatif, NULL, stderr);
	if (quiet)
		return 0;
	printf("run %lld: %ld pending pod%s: %ld placed", (long long)r->run_id, r->pending, r->pending == 1 ? "" : "s",
	       r->bound);
	if (r->stayed)
		printf(" (%ld back on the node %s had, as keep rows)", r->stayed, r->stayed == 1 ? "it" : "they");
	printf(", %ld unschedulable", r->unschedulable);
	long rb_moves = kp_rebalance_moves(c->rebalance);
	if (r->evicted || r->moved - rb_moves)
		printf("; preemption: %ld evicted, %ld moved", r->evicted, r->moved - rb_moves);
	if (r->ignored)
		printf(", %ld left to other schedulers", r->ignored);
	printf("; %ld bound pod%s kept; %ld node%s; %ld pass%s; %.2f s; configuration: %s\n", r->kept, r->kept == 1 ? "" : "s",
	       r->nodes, r->nodes == 1 ? "" : "s", r->passes, r->passes == 1 ? "" : "es", r->elapsed, r->config_source);
	kp_whatif_print(c->whatif, stdout, NULL);
	if (c->rebalance)
		kp_rebalance_print(c->rebalance, stdout);
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
		{ "mode", required_argument, NULL, 'W' },
		{ "from-run", required_argument, NULL, 'W' },
		{ "strategy", required_argument, NULL, 'W' },
		{ "remove-nodes", required_argument, NULL, 'W' },
		{ "cordon", required_argument, NULL, 'W' },
		{ "drain", required_argument, NULL, 'W' },
		{ "add-nodes", required_argument, NULL, 'W' },
		{ "scale", required_argument, NULL, 'W' },
		{ "strategies", required_argument, NULL, 'R' },
		{ "max-moves", required_argument, NULL, 'R' },
		{ "max-moves-per-node", required_argument, NULL, 'R' },
		{ "max-moves-per-namespace", required_argument, NULL, 'R' },
		{ "priority-threshold", required_argument, NULL, 'R' },
		{ "namespaces", required_argument, NULL, 'R' },
		{ "exclude-namespaces", required_argument, NULL, 'R' },
		{ "evict-bare-pods", no_argument, NULL, 'R' },
		{ "rebalance-config", required_argument, NULL, 'C' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	kp_plan_opts o = { .seed = KP_DEFAULT_SEED };
	int quiet = 0, gate = 0, c, li;
	/* what-if options, checked after the loop: (option name, value) */
	enum { MAX_WHATIF = 1024 };
	static const char *wi_opt[MAX_WHATIF], *wi_val[MAX_WHATIF];
	int nwi = 0;
	/* rebalance options, checked after the loop; the last --mode counts */
	static const char *rb_opt[MAX_WHATIF], *rb_val[MAX_WHATIF];
	int nrb = 0, rebalance = 0;
	const char *rb_config = NULL, *rb_first = NULL;
	if (kp_cli_wants_help(argc, argv, cmd_plan_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", opts, &li)) != -1) {
		switch (c) {
		case 'W':
			if (nwi == MAX_WHATIF)
				return kp_cli_usage("plan", "more than %d what-if options", MAX_WHATIF);
			if (!strcmp(opts[li].name, "mode"))
				rebalance = !strcmp(optarg, "rebalance");
			wi_opt[nwi] = opts[li].name;
			wi_val[nwi++] = optarg;
			break;
		case 'R':
			if (nrb == MAX_WHATIF)
				return kp_cli_usage("plan", "more than %d rebalance options", MAX_WHATIF);
			rb_opt[nrb] = opts[li].name;
			rb_val[nrb++] = optarg ? optarg : "true";   /* --evict-bare-pods is a flag */
			rb_first = rb_first ? rb_first : opts[li].name;
			break;
		case 'C':
			rb_config = optarg;
			rb_first = rb_first ? rb_first : opts[li].name;
			break;
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
		default:   /* ':' a missing value, '?' unknown or a flag given a value */
			return kp_cli_bad_option("plan", c, argv);
		}
	}
	if (argc - optind != 1)
		return kp_cli_usage("plan", argc - optind < 1 ? "missing DB" : "too many arguments");
	const char *path = argv[optind];
	kp_err err = { 0 };
	if (rb_first && !rebalance)
		return kp_cli_usage("plan", "--%s needs --mode rebalance", rb_first);
	kp_rebalance *rb = NULL;
	if (rebalance) {
		if (!(rb = kp_rebalance_new()))
			return kp_cli_fail(&(kp_err){ .code = KP_NOMEM, .msg = "out of memory" });
		int rrc = rb_config ? kp_rebalance_load_config(rb, rb_config, &err) : KP_OK;
		for (int i = 0; !rrc && i < nrb; i++)
			rrc = kp_rebalance_set(rb, rb_opt[i], rb_val[i], &err);
		if (!rrc)
			rrc = kp_rebalance_finish(rb, &err);
		if (rrc) {
			kp_rebalance_free(rb);
			if (rrc != KP_USAGE)
				return kp_cli_fail(&err);
			char buf[4096];
			return kp_cli_usage("plan", "%s", kp_err_format(&err, buf, sizeof buf));
		}
	}
	kp_whatif *w = NULL;
	int nmode = 0;
	for (int i = 0; i < nwi; i++)
		nmode += !(!strcmp(wi_opt[i], "mode") && (rebalance || !strcmp(wi_val[i], "rebalance")));
	if (nmode && !(w = kp_whatif_new())) {
		kp_rebalance_free(rb);
		return kp_cli_fail(&(kp_err){ .code = KP_NOMEM, .msg = "out of memory" });
	}
	kp_whatif_set_importer(w, &kp_cli_whatif_importer);
	for (int i = 0; i < nwi; i++) {
		/* --mode rebalance is kplan's own; with it, any earlier --mode is overridden */
		if (!strcmp(wi_opt[i], "mode") && (rebalance || !strcmp(wi_val[i], "rebalance")))
			continue;
		if (kp_whatif_add(w, wi_opt[i], wi_val[i], &err) != KP_OK) {
			kp_whatif_free(w);
			kp_rebalance_free(rb);
			return err.code == KP_USAGE ? kp_cli_usage("plan", "%s", err.msg) : kp_cli_fail(&err);
		}
	}
	o.whatif = w;
	o.rebalance = rb;
	kp_sb opt;
	kp_sb_init(&opt);
	kp_sb_printf(&opt, "{\"seed\":%llu,\"config\":", (unsigned long long)o.seed);
	kp_sb_add_json_str(&opt, o.config_file);
	kp_sb_printf(&opt, ",\"no_preemption\":%s", o.no_preemption ? "true" : "false");
	if (o.reference)
		kp_sb_printf(&opt, ",\"reference\":true");
	kp_whatif_options_json(w, &opt);
	kp_rebalance_options_json(rb, &opt);
	kp_sb_printf(&opt, "}");
	o.options_json = kp_sb_str(&opt);
	double t0 = kp_cli_now();
	if (kp_cli_progress_enabled(quiet)) {
		o.progress = progress;
		o.progress_ctx = &t0;
	}
	sqlite3 *db;
	if (cli_db_open(path, 0, &db, NULL, &err) != KP_OK) {
		kp_sb_release(&opt);
		kp_whatif_free(w);
		kp_rebalance_free(rb);
		return kp_cli_fail(&err);
	}
	kp_cli_on_interrupt(db);
	struct summary_ctx sc = { quiet, o.progress != NULL, w, rb };
	o.before_commit = print_summary;
	o.commit_ctx = &sc;
	kp_plan_result r;
	int rc = kp_plan_run(db, &o, &r, &err);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	kp_sb_release(&opt);
	kp_whatif_free(w);
	kp_rebalance_free(rb);
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
