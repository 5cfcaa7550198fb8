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
	"  --kube-version 1.MINOR    plan as that kube-scheduler, 1.31 to 1.37 (default: the\n"
	"                            database's setting, `kplan settings`, else 1.37;\n"
	"                            docs/kube-versions.md)\n"
	"  --feature-gates LIST      Name=true|false,... as kube takes them, over the\n"
	"                            version's defaults and the database's setting\n"
	"  --nodes-to-score all|adaptive|PCT\n"
	"                            how many feasible nodes each pod's cycle finds\n"
	"                            before scoring, in every profile: all (kplan's\n"
	"                            default), adaptive (kube's percentageOfNodesToScore\n"
	"                            0: 50 - nodes/125 per cent, at least 5 per cent\n"
	"                            and 100 nodes, from a rotating start), or PCT\n"
	"                            per cent (1..100)\n"
	"  --tie-break random|node-rank\n"
	"                            nodes with equal totals: random (kube's: a seeded\n"
	"                            hash of pod and node, the default) or node-rank (one\n"
	"                            seeded ranking of the nodes for every pod, as the FGD\n"
	"                            paper's simulator; --strategy fgd's default)\n"
	"  --no-preemption           plan without DefaultPreemption\n"
	"  --fail-on-unschedulable   exit 2 when any pod is left unschedulable (CI gates)\n"
	"  --reference               no caches: run every plugin on every node for every pod\n"
	"                            (slow; the same plan, for checking the fast path)\n"
	"  --mode pending|full|rebalance\n"
	"                            full: plan every pod from scratch, bound ones too\n"
	"                            (keep, move, bind, unschedulable; DaemonSet pods stay);\n"
	"                            rebalance: then propose moves of bound pods (below)\n"
	"  --strategy least|most|balanced|fgd|gpu-pack|kube-1.20\n"
	"                            NodeResourcesFit scoring in every profile: spread\n"
	"                            (LeastAllocated), pack (MostAllocated), or spread with\n"
	"                            resources in proportion (BalancedAllocation x3); for\n"
	"                            GPUs as devices, the only score: fgd (the FGD paper's)\n"
	"                            or gpu-pack (kplan's; docs/gpu-devices.md); kube-1.20:\n"
	"                            kube-scheduler 1.20's default scores (the FGD paper's\n"
	"                            simulator's), its BalancedAllocation formula\n"
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
	"with the planner; table move_wave, docs/rebalance.md):\n"
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
	int quiet;
	const kp_plan_opts *o;       /* its whatif, rebalance (NULL: none), seed, progress */
};

static int print_summary(void *ctx, const kp_plan_result *r)
{
	const struct summary_ctx *c = ctx;
	int quiet = c->quiet;
	if (c->o->progress)
		fprintf(stderr, "\r\033[K");
	if (getenv("KPLAN_TIMING"))
		fprintf(stderr, "kplan: timing: load %.3f s, static filters %.3f s, scheduling %.3f s, write %.3f s; "
			"%ld cycles, %ld decided by node buckets\n",
			r->t_load, r->t_static, r->t_schedule, r->t_write, r->cycles, r->bucket_cycles);
	for (int i = 0; i < r->nwarnings; i++)
		fprintf(stderr, "kplan: warning: %s\n", r->warnings[i]);
	kp_whatif_print(c->o->whatif, NULL, stderr);
	if (quiet)
		return 0;
	printf("run %lld: %ld pending pod%s: %ld placed", (long long)r->run_id, r->pending, r->pending == 1 ? "" : "s",
	       r->bound);
	if (r->stayed)
		printf(" (%ld back on the node %s had, as keep rows)", r->stayed, r->stayed == 1 ? "it" : "they");
	printf(", %ld unschedulable", r->unschedulable);
	long rb_moves = kp_rebalance_moves(c->o->rebalance);
	if (r->evicted || r->moved - rb_moves)
		printf("; preemption: %ld evicted, %ld moved", r->evicted, r->moved - rb_moves);
	if (r->ignored)
		printf(", %ld left to other schedulers", r->ignored);
	char kube[1100];
	kp_kube_describe(&r->kube, kube, sizeof kube);
	printf("; %ld bound pod%s kept; %ld node%s; %ld pass%s; %.2f s; configuration: %s; %s\n", r->kept,
	       r->kept == 1 ? "" : "s", r->nodes, r->nodes == 1 ? "" : "s", r->passes, r->passes == 1 ? "" : "es", r->elapsed,
	       r->config_source, kube);
	kp_whatif_print(c->o->whatif, stdout, NULL);
	if (r->tie_rank)
		printf("tie-break node-rank: nodes with equal totals are taken in one seeded ranking of the nodes (seed %llu), "
		       "the same for every pod, as the FGD paper's simulator took them (--tie-break random: kube's)\n",
		       (unsigned long long)c->o->seed);
	if (c->o->rebalance)
		kp_rebalance_print(c->o->rebalance, stdout);
	fflush(stdout);
	return ferror(stdout) ? -1 : 0;
}

static const struct option plan_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "seed", required_argument, NULL, 's' },
	{ "no-preemption", no_argument, NULL, 'n' },
	{ "fail-on-unschedulable", no_argument, NULL, 'f' },
	{ "reference", no_argument, NULL, 'r' },
	{ "kube-version", required_argument, NULL, 'K' },
	{ "feature-gates", required_argument, NULL, 'G' },
	{ "nodes-to-score", required_argument, NULL, 'N' },
	{ "tie-break", required_argument, NULL, 'T' },
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

/* The command line.  What-if and rebalance options are kept as (option
 * name, value) and checked after the loop, when the last --mode is known. */
enum { MAX_WHATIF = 1024 };
typedef struct plan_args {
	kp_plan_opts o;
	int quiet, gate;
	const char *wi_opt[MAX_WHATIF], *wi_val[MAX_WHATIF];
	int nwi;
	const char *rb_opt[MAX_WHATIF], *rb_val[MAX_WHATIF];
	int nrb, rebalance;          /* rebalance: the last --mode is rebalance */
	const char *rb_config, *rb_first;
} plan_args;

/* getopt_long's loop: KP_EXIT_OK, or the exit code of a usage error */
static int parse_args(int argc, char **argv, plan_args *a)
{
	int c, li;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", plan_opts, &li)) != -1) {
		switch (c) {
		case 'W':
			if (a->nwi == MAX_WHATIF)
				return kp_cli_usage("plan", "more than %d what-if options", MAX_WHATIF);
			if (!strcmp(plan_opts[li].name, "mode"))
				a->rebalance = !strcmp(optarg, "rebalance");
			a->wi_opt[a->nwi] = plan_opts[li].name;
			a->wi_val[a->nwi++] = optarg;
			break;
		case 'R':
			if (a->nrb == MAX_WHATIF)
				return kp_cli_usage("plan", "more than %d rebalance options", MAX_WHATIF);
			a->rb_opt[a->nrb] = plan_opts[li].name;
			a->rb_val[a->nrb++] = optarg ? optarg : "true";   /* --evict-bare-pods is a flag */
			a->rb_first = a->rb_first ? a->rb_first : plan_opts[li].name;
			break;
		case 'C':
			a->rb_config = optarg;
			a->rb_first = a->rb_first ? a->rb_first : plan_opts[li].name;
			break;
		case 'c': a->o.config_file = optarg; break;
		case 's': {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-')
				return kp_cli_usage("plan", "--seed needs a non-negative integer, got '%s'", optarg);
			a->o.seed = v;
			break;
		}
		case 'K':
			if (kp_cli_kube_version_arg("plan", optarg))
				return KP_EXIT_USAGE;
			a->o.kube_version = optarg;
			break;
		case 'G': a->o.feature_gates = optarg; break;
		case 'N':
		case 'T': {
			int v;
			kp_err e = { 0 };
			if ((c == 'N' ? kp_plan_nodes_to_score : kp_plan_tie_break)(optarg, &v, &e))
				return kp_cli_usage("plan", "%s", e.msg);
			*(c == 'N' ? &a->o.nodes_to_score : &a->o.tie_break) = optarg;
			break;
		}
		case 'n': a->o.no_preemption = 1; break;
		case 'f': a->gate = 1; break;
		case 'r': a->o.reference = 1; break;
		case 'q': a->quiet = 1; break;
		default:   /* ':' a missing value, '?' unknown or a flag given a value */
			return kp_cli_bad_option("plan", c, argv);
		}
	}
	if (argc - optind != 1)
		return kp_cli_usage("plan", argc - optind < 1 ? "missing DB" : "too many arguments");
	if (a->rb_first && !a->rebalance)
		return kp_cli_usage("plan", "--%s needs --mode rebalance", a->rb_first);
	return KP_EXIT_OK;
}

/* --mode rebalance: *rb from the rebalance options; else *rb NULL */
static int make_rebalance(const plan_args *a, kp_rebalance **rb, kp_err *err)
{
	*rb = NULL;
	if (!a->rebalance)
		return KP_EXIT_OK;
	if (!(*rb = kp_rebalance_new()))
		return kp_cli_fail(&(kp_err){ .code = KP_NOMEM, .msg = "out of memory" });
	int rrc = a->rb_config ? kp_rebalance_load_config(*rb, a->rb_config, err) : KP_OK;
	for (int i = 0; !rrc && i < a->nrb; i++)
		rrc = kp_rebalance_set(*rb, a->rb_opt[i], a->rb_val[i], err);
	if (!rrc)
		rrc = kp_rebalance_finish(*rb, err);
	if (!rrc)
		return KP_EXIT_OK;
	kp_rebalance_free(*rb);
	*rb = NULL;
	if (rrc != KP_USAGE)
		return kp_cli_fail(err);
	char buf[4096];
	return kp_cli_usage("plan", "%s", kp_err_format(err, buf, sizeof buf));
}

/* --mode rebalance is kplan's own, not a what-if option; with it, any other --mode is overridden */
static int rebalance_mode(const plan_args *a, int i)
{
	return !strcmp(a->wi_opt[i], "mode") && (a->rebalance || !strcmp(a->wi_val[i], "rebalance"));
}

/* the what-if scenario: *w from the what-if options (NULL: none) */
static int make_whatif(const plan_args *a, kp_whatif **w, kp_err *err)
{
	int nmode = 0;
	*w = NULL;
	for (int i = 0; i < a->nwi; i++)
		nmode += !rebalance_mode(a, i);
	if (nmode && !(*w = kp_whatif_new()))
		return kp_cli_fail(&(kp_err){ .code = KP_NOMEM, .msg = "out of memory" });
	kp_whatif_set_importer(*w, &kp_cli_whatif_importer);
	for (int i = 0; i < a->nwi; i++) {
		if (rebalance_mode(a, i))
			continue;
		if (kp_whatif_add(*w, a->wi_opt[i], a->wi_val[i], err) != KP_OK) {
			kp_whatif_free(*w);
			*w = NULL;
			return err->code == KP_USAGE ? kp_cli_usage("plan", "%s", err->msg) : kp_cli_fail(err);
		}
	}
	return KP_EXIT_OK;
}

/* the run itself, on the database at path */
static int run_plan(const char *path, plan_args *a, kp_err *err)
{
	kp_plan_opts *o = &a->o;
	kp_sb opt;   /* run.options */
	kp_sb_init(&opt);
	kp_sb_printf(&opt, "{\"seed\":%llu,\"config\":", (unsigned long long)o->seed);
	kp_sb_add_json_str(&opt, o->config_file);
	kp_sb_printf(&opt, ",\"no_preemption\":%s", o->no_preemption ? "true" : "false");
	if (o->reference)
		kp_sb_printf(&opt, ",\"reference\":true");
	kp_cli_kube_options_json(o->kube_version, o->feature_gates, &opt);
	if (o->nodes_to_score) {
		kp_sb_printf(&opt, ",\"nodes_to_score\":");
		kp_sb_add_json_str(&opt, o->nodes_to_score);
	}
	if (o->tie_break) {
		kp_sb_printf(&opt, ",\"tie_break\":");
		kp_sb_add_json_str(&opt, o->tie_break);
	}
	kp_whatif_options_json(o->whatif, &opt);
	kp_rebalance_options_json(o->rebalance, &opt);
	kp_sb_printf(&opt, "}");
	o->options_json = kp_sb_str(&opt);
	double t0 = kp_cli_now();
	if (kp_cli_progress_enabled(a->quiet)) {
		o->progress = progress;
		o->progress_ctx = &t0;
	}
	sqlite3 *db;
	if (cli_db_open(path, 0, &db, NULL, err) != KP_OK) {
		kp_sb_release(&opt);
		return kp_cli_fail(err);
	}
	kp_cli_on_interrupt(db);
	struct summary_ctx sc = { a->quiet, o };
	o->before_commit = print_summary;
	o->commit_ctx = &sc;
	kp_plan_result r;
	int rc = kp_plan_run(db, o, &r, err);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	kp_sb_release(&opt);
	if (rc != KP_OK) {
		if (o->progress)
			fprintf(stderr, "\r\033[K");
		int code = kp_cli_fail(err);
		fprintf(stderr, "kplan: %snothing was written\n", kp_interrupted ? "interrupted: " : "");
		return code;
	}
	if (a->gate && r.unschedulable)
		return KP_EXIT_UNSCHEDULABLE;
	return KP_EXIT_OK;
}

int cmd_plan(int argc, char **argv)
{
	static plan_args a;          /* big (the option lists): not on the stack */
	memset(&a, 0, sizeof a);
	a.o.seed = KP_DEFAULT_SEED;
	if (kp_cli_wants_help(argc, argv, cmd_plan_help))
		return KP_EXIT_OK;
	int code = parse_args(argc, argv, &a);
	if (code != KP_EXIT_OK)
		return code;
	const char *path = argv[optind];
	kp_err err = { 0 };
	kp_rebalance *rb = NULL;
	kp_whatif *w = NULL;
	if ((code = make_rebalance(&a, &rb, &err)) != KP_EXIT_OK)
		return code;
	if ((code = make_whatif(&a, &w, &err)) == KP_EXIT_OK) {
		a.o.whatif = w;
		a.o.rebalance = rb;
		code = run_plan(path, &a, &err);
	}
	kp_whatif_free(w);
	kp_rebalance_free(rb);
	return code;
}
