/*
 * cmd_capacity.c — `kplan capacity DB`: the options and the printing; the
 * answers are planner/capacity*.c's (capacity.h, docs/capacity-planning.md).
 *
 *   --pod FILE | --workload NS/NAME   how many more replicas fit after the
 *                                     pending pods, where, and why not one more
 *   --nodes-needed --node-template F  how many nodes of that shape to add so
 *                                     that every pending pod that can fit does
 *   --survive node|zone|LABEL         does every pod placed now find a node
 *                                     again after losing a node, zone or domain
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/capacity.h"
#include "../reports/capacity_text.h"
#include "whatif_import.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>

const char cmd_capacity_help[] =
	"usage: kplan capacity [options] DB --pod FILE | --workload NS/NAME\n"
	"       kplan capacity [options] DB --nodes-needed --node-template FILE...\n"
	"       kplan capacity [options] DB --survive node|zone|LABEL\n"
	"\n"
	"Capacity planning with the real planner: every answer is a plan of a what-if\n"
	"scenario (dry runs: nothing is added to run or placement), from the baseline\n"
	"`kplan plan` would make with the same options (preemption on unless\n"
	"--no-preemption, the latest imported configuration unless --config), which the\n"
	"answer names with its counts.  The answer, with the quality certificate of its\n"
	"plan (nodes used per pool against a lower bound, stranded capacity), is appended\n"
	"to the capacity_* tables and shown by `kplan report` (not with --no-record, or on\n"
	"a database this user cannot write: then it is only printed).\n"
	"\n"
	"Options:\n"
	"  --pod FILE                a Pod, or a workload whose pod template is used (YAML or\n"
	"                            JSON, read by the importer): how many more copies fit after\n"
	"                            the pending pods, per node and per pool, and why the next\n"
	"                            one does not\n"
	"  --workload NS/NAME        the same for an imported workload (NS/KIND/NAME when the\n"
	"                            name is ambiguous): more replicas, as --scale adds them\n"
	"  --max N                   try at most N replicas (default: what the free capacity\n"
	"                            could hold for the pod's scarcest resource, plus 1)\n"
	"  --pool-label KEY          the node label that names a pool, for the replicas per pool\n"
	"                            and the quality certificate (default\n"
	"                            node.kubernetes.io/instance-type)\n"
	"  --nodes-needed            how many nodes like --node-template must be added so that\n"
	"                            every pending pod fits (exponential, then binary search);\n"
	"                            pods that can never fit on such a node are listed and left\n"
	"                            out of the count\n"
	"  --node-template FILE      a Node manifest (exactly one Node); repeat it for an answer\n"
	"                            per template and the smallest\n"
	"  --max-nodes N             search up to N added nodes (default 1000)\n"
	"  --survive node|zone|LABEL lose each node (zone: the nodes of each value of\n"
	"                            topology.kubernetes.io/zone; LABEL: of each value of that\n"
	"                            node label): the baseline's pods elsewhere stay, the lost\n"
	"                            nodes' pods are scheduled again with the pending ones;\n"
	"                            survived when every pod placed in the baseline is placed\n"
	"                            again; the pods that lose their node and those that gain\n"
	"                            one; the headroom; the worst one\n"
	"  --survive-replan          --survive: plan the whole cluster again without each\n"
	"                            domain (every pending pod too): the method before issue 20\n"
	"  --limit K                 --survive: only the K most loaded nodes (or domains)\n"
	"  --no-preemption           plan without DefaultPreemption (the baseline too)\n"
	"  --preemption              with DefaultPreemption: the default, as for `kplan plan`\n"
	"  --seed N                  tie-break seed of the plans (default 1)\n"
	"  --config FILE             a KubeSchedulerConfiguration, as for `kplan plan`\n"
	"  --kube-version 1.MINOR    plan as that kube-scheduler, as for `kplan plan`\n"
	"  --feature-gates LIST      its feature gates, as for `kplan plan`\n"
	"  --from-run N              start from the state run N left, as `kplan plan --from-run`\n"
	"  --no-record               print the answer only: write nothing (the database is\n"
	"                            opened read-only)\n"
	"  --format text|json        the summary on stdout (default text)\n"
	"  -q, --quiet               no text summary, no progress line (JSON is printed)\n"
	"  -h, --help                this help\n"
	"\n"
	"Examples:\n"
	"  kplan capacity cluster.db --pod web.yaml\n"
	"  kplan capacity cluster.db --workload shop/web --pool-label pool\n"
	"  kplan capacity cluster.db --nodes-needed --node-template m5-4xlarge.yaml\n"
	"  kplan capacity cluster.db --survive zone --no-record\n";

typedef struct print_ctx {
	int quiet, json, progress_on;
	kp_progress prog;
} print_ctx;

static void on_progress(void *ctx, const char *unit, long done, long total)
{
	print_ctx *p = ctx;
	if (done >= total) {
		kp_progress_clear(&p->prog);
		return;
	}
	if (kp_progress_due(&p->prog, (double)done)) {
		char a1[32], a2[32], rate[96];
		kp_progress_show(&p->prog, "capacity: evaluated %s of %s %ss %s", kp_fmt_count((double)done, a1, sizeof a1),
				 kp_fmt_count((double)total, a2, sizeof a2), unit,
				 kp_progress_rate(&p->prog, (double)done, (double)total, unit, rate, sizeof rate));
	}
}

/* the summary, before COMMIT: non-zero rolls the answer back */
static int print_answer(void *ctx, const kp_capacity_answer *a)
{
	print_ctx *p = ctx;
	if (p->quiet && !p->json)   /* -q drops the text; JSON is asked for, so it is printed */
		return 0;
	kp_progress_clear(&p->prog);
	const char *j = kp_sb_str(&a->result);
	if (p->json) {
		if (a->id)
			printf("{\"capacity_id\":%lld,%s\n", (long long)a->id, *j ? j + 1 : "}");
		else
			printf("{\"capacity_id\":null,%s\n", *j ? j + 1 : "}");
	} else {
		kp_sb t;
		kp_sb_init(&t);
		int rc = kp_report_capacity_text(kp_sb_str(&a->result), a->subject, a->reason, &t);
		if (!rc && a->id)
			printf("capacity %lld: %s", (long long)a->id, kp_sb_str(&t));
		else if (!rc)
			printf("capacity (not recorded): %s", kp_sb_str(&t));
		kp_sb_release(&t);
		if (rc)
			return -1;
	}
	fflush(stdout);
	return ferror(stdout) ? -1 : 0;
}

static int parse_count(const char *opt, const char *v, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || !*v || n < min || n > max || v[0] == '-' || v[0] == '+')
		return kp_cli_usage("capacity", "%s needs an integer from %ld to %ld, got '%s'", opt, min, max, v);
	*out = n;
	return KP_EXIT_OK;
}

/* a label key as --survive takes it: [prefix/]name, no spaces, '=' or ',' */
static int label_key_ok(const char *k)
{
	if (!*k || strlen(k) > 316)
		return 0;
	for (const char *p = k; *p; p++)
		if (*p == ' ' || *p == '=' || *p == ',' || *p == '!' || *p == '(' || *p == ')' || (unsigned char)*p < 32)
			return 0;
	return 1;
}

/* the options in *o; KP_EXIT_OK, or the usage error's exit code */
static int parse(int argc, char **argv, kp_capacity_opts *o, int *nodes_needed, int *quiet, int *json)
{
	static const struct option opts[] = {
		{ "pod", required_argument, NULL, 'p' },
		{ "workload", required_argument, NULL, 'w' },
		{ "max", required_argument, NULL, 'm' },
		{ "pool-label", required_argument, NULL, 'L' },
		{ "nodes-needed", no_argument, NULL, 'N' },
		{ "node-template", required_argument, NULL, 't' },
		{ "max-nodes", required_argument, NULL, 'M' },
		{ "survive", required_argument, NULL, 'S' },
		{ "limit", required_argument, NULL, 'l' },
		{ "survive-replan", no_argument, NULL, 'r' },
		{ "preemption", no_argument, NULL, 'P' },
		{ "no-preemption", no_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "kube-version", required_argument, NULL, 'K' },
		{ "feature-gates", required_argument, NULL, 'G' },
		{ "no-record", no_argument, NULL, 'R' },
		{ "from-run", required_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, li, have_max_nodes = 0, have_limit = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", opts, &li)) != -1) {
		int u = KP_EXIT_OK;
		switch (c) {
		case 'p': o->pod_file = optarg; break;
		case 'w': o->workload = optarg; break;
		case 'm': u = parse_count("--max", optarg, 1, KP_CAPACITY_MAX_REPLICAS, &o->max); break;
		case 'L':
			if (!*optarg)
				return kp_cli_usage("capacity", "--pool-label needs a label key");
			o->pool_label = optarg;
			break;
		case 'N': *nodes_needed = 1; break;
		case 't':
			if (o->ntemplates == KP_CAPACITY_MAX_TEMPLATES)
				return kp_cli_usage("capacity", "at most %d --node-template", KP_CAPACITY_MAX_TEMPLATES);
			if (!*optarg)
				return kp_cli_usage("capacity", "--node-template needs a file");
			o->templates[o->ntemplates++] = optarg;
			break;
		case 'M': u = parse_count("--max-nodes", optarg, 1, 100000, &o->max_nodes); have_max_nodes = 1; break;
		case 'S':
			if (!label_key_ok(optarg))
				return kp_cli_usage("capacity", "--survive takes node, zone or a node label key, got '%s'", optarg);
			o->survive = optarg;
			break;
		case 'l': u = parse_count("--limit", optarg, 1, 100000000, &o->limit); have_limit = 1; break;
		case 'r': o->survive_replan = 1; break;
		case 'P': o->no_preemption = 0; break;   /* the default; kept for scripts written before it was */
		case 'n': o->no_preemption = 1; break;
		case 's': {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-')
				return kp_cli_usage("capacity", "--seed needs a non-negative integer, got '%s'", optarg);
			o->seed = v;
			break;
		}
		case 'c': o->config = optarg; break;
		case 'K':
			if (kp_cli_kube_version_arg("capacity", optarg))
				return KP_EXIT_USAGE;
			o->kube_version = optarg;
			break;
		case 'G': o->feature_gates = optarg; break;
		case 'R': o->no_record = 1; break;
		case 'F': u = parse_count("--from-run", optarg, 1, 1000000000000L, &o->from_run); break;
		case 'f':
			if (!strcmp(optarg, "json"))
				*json = 1;
			else if (strcmp(optarg, "text"))
				return kp_cli_usage("capacity", "--format takes text or json, got '%s'", optarg);
			break;
		case 'q': *quiet = 1; break;
		default:
			return kp_cli_bad_option("capacity", c, argv);
		}
		if (u != KP_EXIT_OK)
			return u;
	}
	if (argc - optind != 1)
		return kp_cli_usage("capacity", argc - optind < 1 ? "missing DB" : "too many arguments");
	int modes = (o->pod_file || o->workload) + *nodes_needed + (o->survive != NULL);
	if (modes != 1)
		return kp_cli_usage("capacity", modes ? "--pod/--workload, --nodes-needed and --survive are separate questions: "
						       "ask one" : "what to ask: --pod FILE, --workload NS/NAME, --nodes-needed "
						       "--node-template FILE or --survive node|zone|LABEL");
	if (o->pod_file && o->workload)
		return kp_cli_usage("capacity", "--pod and --workload: give one");
	if (o->pod_file && !*o->pod_file)
		return kp_cli_usage("capacity", "--pod needs a file");
	if (o->workload) {
		const char *sl = strchr(o->workload, '/');
		if (!sl || sl == o->workload || !sl[1] || strchr(o->workload, '='))
			return kp_cli_usage("capacity", "--workload needs NAMESPACE/NAME (or NAMESPACE/KIND/NAME), got '%s'",
					    o->workload);
	}
	if (*nodes_needed && !o->ntemplates)
		return kp_cli_usage("capacity", "--nodes-needed needs --node-template FILE");
	if (o->ntemplates && !*nodes_needed)
		return kp_cli_usage("capacity", "--node-template goes with --nodes-needed");
	if (o->max && !(o->pod_file || o->workload))
		return kp_cli_usage("capacity", "--max goes with --pod or --workload");
	if (have_max_nodes && !*nodes_needed)
		return kp_cli_usage("capacity", "--max-nodes goes with --nodes-needed");
	if (have_limit && !o->survive)
		return kp_cli_usage("capacity", "--limit goes with --survive");
	if (o->survive_replan && !o->survive)
		return kp_cli_usage("capacity", "--survive-replan goes with --survive");
	return KP_EXIT_OK;
}

/* Open the database: to write, unless --no-record or this user cannot write
 * it (then read-only: the answer is printed, not recorded, and a note says so). */
static int open_db(const char *path, kp_capacity_opts *o, int quiet, sqlite3 **db, kp_err *err)
{
	if (!o->no_record) {
		kp_err e = { 0 };
		if (cli_db_open(path, 0, db, NULL, &e) == KP_OK && kp_db_can_write(*db))
			return KP_OK;
		kp_db_close(*db);
		*db = NULL;
		if (access(path, F_OK) != 0) {
			*err = e;
			return err->code;
		}
		o->no_record = 1;
		if (!quiet)
			fprintf(stderr, "kplan: note: '%s' cannot be written: the answer is not recorded (as with --no-record)\n",
				path);
	}
	return cli_db_open(path, KP_DB_READONLY, db, NULL, err);
}

int cmd_capacity(int argc, char **argv)
{
	kp_capacity_opts o;
	memset(&o, 0, sizeof o);
	o.importer = &kp_cli_whatif_importer;
	int nodes_needed = 0, quiet = 0, json = 0;
	if (kp_cli_wants_help(argc, argv, cmd_capacity_help))
		return KP_EXIT_OK;
	int u = parse(argc, argv, &o, &nodes_needed, &quiet, &json);
	if (u != KP_EXIT_OK)
		return u;
	const char *path = argv[optind];
	kp_err err = { 0 };
	sqlite3 *db = NULL;
	if (open_db(path, &o, quiet, &db, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_cli_on_interrupt(db);
	print_ctx pc = { .quiet = quiet, .json = json, .progress_on = kp_cli_progress_enabled(quiet) };
	kp_progress_init(&pc.prog, !pc.progress_on);
	kp_capacity_hooks h = { .progress = on_progress, .before_commit = print_answer, .ctx = &pc };
	kp_capacity_answer a;
	int rc = kp_capacity_run(db, &o, &h, &a, &err);
	kp_progress_clear(&pc.prog);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	kp_capacity_answer_release(&a);
	if (rc) {
		if (kp_interrupted)
			kp_err_set(&err, KP_INTR, "interrupted");
		if (err.code == KP_USAGE)
			return kp_cli_usage("capacity", "%s", err.msg);
		int code = kp_cli_fail(&err);
		fprintf(stderr, "kplan: %snothing was written\n", kp_interrupted ? "interrupted: " : "");
		return code;
	}
	return KP_EXIT_OK;
}
