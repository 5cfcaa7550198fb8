/*
 * cmd_import.c — `kplan import DB FILE|DIR|- ...`: everything in ONE
 * transaction; on any error nothing is imported and a database this command
 * created is removed again.
 */
#include "cli.h"
#include "../common/db.h"
#include "../importers/import.h"
#include "../common/quantity.h"

#include <getopt.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>

const char cmd_import_help[] =
	"usage: kplan import [options] DB FILE|DIR|- ...\n"
	"\n"
	"Load Kubernetes objects into DB in one transaction: kubectl output (-o yaml or\n"
	"-o json, `kind: List`), multi-document manifests, directories (recursively, sorted;\n"
	"*.yaml *.yml *.json *.csv), or - for standard input.  Objects replace earlier\n"
	"objects of the same kind, namespace and name.  Workloads (Deployment, ReplicaSet,\n"
	"StatefulSet, Job, ReplicationController) add the pods they still lack; a DaemonSet\n"
	"adds one pending pod per eligible node without one.  Other kinds are counted and\n"
	"skipped.\n"
	"\n"
	"Any bad object stops the import: the message names FILE:LINE:COL, the object and\n"
	"what is wrong, the exit status is 1 and the database is left exactly as it was.\n"
	"Each file (or stdin) is checked as it is read, so an endless stream ends too: at\n"
	"its first NUL byte or invalid UTF-8, beyond --max-input-size, or at SIGINT or\n"
	"SIGTERM (exit status 130, nothing imported).\n"
	"\n"
	"Options:\n"
	"  --format FMT     yaml, json, csv or openb (default: by file extension, or by\n"
	"                   content for stdin; csv detects node/pod/openb by the header)\n"
	"  --max-input-size SIZE\n"
	"                   the most bytes of one file or of stdin (default 4Gi): a byte\n"
	"                   count or a quantity such as 512Mi, 16Gi or 10G (10^9 bytes)\n"
	"  --skip-invalid   import the valid objects; report each invalid one on stderr\n"
	"  -q, --quiet      no summary line, no progress line on a terminal\n"
	"  -h, --help       this help\n"
	"\n"
	"Examples:\n"
	"  kubectl get nodes,pods -A -o yaml | kplan import cluster.db -\n"
	"  kplan import cluster.db manifests/ priorityclasses.yaml\n"
	"  kplan import --format openb gpu.db openb_node_list_gpu_node.csv openb_pod_list_default.csv\n";

/* the progress line on a terminal: bytes read of the files' size, then the
 * workloads whose pods are being generated */
struct progress_ctx {
	kp_progress p;
	long long total;     /* bytes of every file given; -1: unknown (stdin) */
	int phase;
};

static void progress(void *ctx, const kp_import_progress *ip)
{
	struct progress_ctx *c = ctx;
	char rate[96], a[32], b[32], n[32];
	if (ip->phase != c->phase) {
		c->phase = ip->phase;
		kp_progress_restart(&c->p);
	}
	if (ip->phase == KP_IMPORT_EXPANDING) {
		if (kp_progress_due(&c->p, (double)ip->done))
			kp_progress_show(&c->p, "generating pods: %s of %s workloads, %s pods %s",
					 kp_fmt_count((double)ip->done, a, sizeof a), kp_fmt_count((double)ip->total, b, sizeof b),
					 kp_fmt_count((double)ip->generated_pods, n, sizeof n),
					 kp_progress_rate(&c->p, (double)ip->done, (double)ip->total, "workloads", rate,
							  sizeof rate));
		return;
	}
	if (!kp_progress_due(&c->p, (double)ip->bytes))
		return;
	kp_progress_rate(&c->p, (double)ip->bytes, (double)c->total, "MB", rate, sizeof rate);
	if (c->total > 0)
		kp_progress_show(&c->p, "read %.1f of %.1f MB, %s objects %s", (double)ip->bytes / 1e6,
				 (double)c->total / 1e6, kp_fmt_count((double)ip->objects, a, sizeof a), rate);
	else
		kp_progress_show(&c->p, "read %.1f MB, %s objects %s", (double)ip->bytes / 1e6,
				 kp_fmt_count((double)ip->objects, a, sizeof a), rate);
}

static struct progress_ctx *progress_of;   /* for warn() and the summary: clear the line first */

/* an object skipped or noted (kp_import_opts.warn, .note): ctx is the prefix */
static void warn(void *ctx, const kp_err *err)
{
	char buf[4096];
	if (progress_of)
		kp_progress_clear(&progress_of->p);
	fprintf(stderr, "kplan: %s%s\n", (const char *)ctx, kp_err_format(err, buf, sizeof buf));
}

static void plural(FILE *f, int *first, long n, const char *one, const char *many)
{
	if (!n)
		return;
	fprintf(f, "%s%ld %s", *first ? "" : ", ", n, n == 1 ? one : many);
	*first = 0;
}

struct summary_ctx {
	const char *path;
	double t0;
};

/* Printed just before COMMIT: if stdout cannot take it, the import rolls back. */
static int print_summary(void *ctx, const kp_import_stats *st, int64_t batch)
{
	struct summary_ctx *c = ctx;
	int first = 1;
	if (progress_of)
		kp_progress_clear(&progress_of->p);
	printf("imported into %s (batch %lld): ", c->path, (long long)batch);
	plural(stdout, &first, st->nodes, "node", "nodes");
	plural(stdout, &first, st->pods, "pod", "pods");
	plural(stdout, &first, st->workloads, "workload", "workloads");
	plural(stdout, &first, st->generated_pods, "pending pod generated from workloads",
	       "pending pods generated from workloads");
	plural(stdout, &first, st->priority_classes, "priority class", "priority classes");
	plural(stdout, &first, st->pdbs, "disruption budget", "disruption budgets");
	plural(stdout, &first, st->services, "service", "services");
	plural(stdout, &first, st->namespaces, "namespace", "namespaces");
	plural(stdout, &first, st->scheduler_configs, "scheduler configuration", "scheduler configurations");
	plural(stdout, &first, st->storage_classes, "storage class", "storage classes");
	plural(stdout, &first, st->pvs, "persistent volume", "persistent volumes");
	plural(stdout, &first, st->pvcs, "volume claim", "volume claims");
	plural(stdout, &first, st->generated_pvcs, "volume claim generated", "volume claims generated");
	plural(stdout, &first, st->csi_nodes, "CSI node", "CSI nodes");
	plural(stdout, &first, st->csi_drivers, "CSI driver", "CSI drivers");
	plural(stdout, &first, st->csi_capacities, "CSI storage capacity", "CSI storage capacities");
	plural(stdout, &first, st->device_classes, "device class", "device classes");
	plural(stdout, &first, st->resource_slices, "resource slice", "resource slices");
	plural(stdout, &first, st->resource_claims, "resource claim", "resource claims");
	plural(stdout, &first, st->generated_claims, "resource claim generated", "resource claims generated");
	plural(stdout, &first, st->claim_templates, "resource claim template", "resource claim templates");
	if (first)
		printf("no objects kplan uses");
	printf("; %ld file%s, %.1f MB, %.2f s", st->files, st->files == 1 ? "" : "s", (double)st->bytes / 1e6,
	       kp_cli_now() - c->t0);
	if (st->skipped_kinds) {
		printf("; %ld object%s of other kinds skipped (", st->skipped_kinds, st->skipped_kinds == 1 ? "" : "s");
		for (size_t i = 0; i < st->nskipped && i < 8; i++)
			printf("%s%ld %s", i ? ", " : "", st->skipped_counts[i], st->skipped_names[i]);
		if (st->nskipped > 8)
			printf(", %zu more kinds: SELECT counts FROM import_batch", st->nskipped - 8);
		printf(")");
	}
	if (st->invalid)
		printf("; %ld invalid object%s skipped", st->invalid, st->invalid == 1 ? "" : "s");
	printf("\n");
	fflush(stdout);
	return ferror(stdout) ? -1 : 0;
}

/* --max-input-size: bytes or a quantity ("512Mi", "10G"), at least 1 */
static int parse_size(const char *s, size_t *out)
{
	int64_t v;
	if (kp_quantity_parse(s, 0, &v, NULL) != KP_OK || v < 1 || (uint64_t)v > SIZE_MAX / 4)
		return KP_PARSE;
	*out = (size_t)v;
	return KP_OK;
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "max-input-size", required_argument, NULL, 'm' },
		{ "skip-invalid", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	kp_import_opts io = { 0 };
	int quiet = 0, c;
	if (kp_cli_wants_help(argc, argv, cmd_import_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "yaml") && strcmp(optarg, "json") && strcmp(optarg, "csv") &&
			    strcmp(optarg, "openb"))
				return kp_cli_usage("import", "unknown format '%s' (want yaml, json, csv or openb)", optarg);
			io.format = optarg;
			break;
		case 'm':
			if (parse_size(optarg, &io.max_input_size) != KP_OK)
				return kp_cli_usage("import", "--max-input-size needs a size of at least 1 byte such as 512Mi "
					"or 16Gi, got '%s'", optarg);
			break;
		case 's': io.skip_invalid = 1; break;
		case 'q': quiet = 1; break;
		default:
			return kp_cli_bad_option("import", c, argv);
		}
	}
	if (argc - optind < 2)
		return kp_cli_usage("import", argc - optind < 1 ? "missing DB and FILE" : "missing FILE (a file, a directory or -)");
	const char *path = argv[optind];
	io.warn = warn;
	io.warn_ctx = "skipped invalid object: ";
	io.note = warn;
	io.note_ctx = "warning: ";
	io.size_hint = "raise the limit with --max-input-size SIZE";

	kp_err err = { 0 };
	sqlite3 *db;
	int created;
	double t0 = kp_cli_now();
	if (cli_db_open(path, KP_DB_CREATE, &db, &created, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_cli_on_interrupt(db);
	struct summary_ctx sc = { path, t0 };
	if (!quiet) {
		io.before_commit = print_summary;
		io.commit_ctx = &sc;
	}
	struct progress_ctx pc;
	kp_progress_init(&pc.p, quiet);
	pc.phase = KP_IMPORT_READING;
	pc.total = 0;
	if (pc.p.on) {
		for (int i = optind + 1; i < argc && pc.total >= 0; i++) {
			long long n = kp_import_path_size(argv[i]);
			pc.total = n < 0 ? -1 : pc.total + n;
		}
		io.progress = progress;
		io.progress_ctx = &pc;
		progress_of = &pc;
	}
	kp_import *imp = NULL;
	int rc = kp_import_begin(db, &io, &imp, &err);
	for (int i = optind + 1; i < argc && rc == KP_OK; i++)
		rc = kp_import_path(imp, argv[i], &err);
	if (rc == KP_OK)
		rc = kp_import_finish(imp, &err);
	kp_import_free(imp);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	kp_progress_clear(&pc.p);
	progress_of = NULL;
	if (rc != KP_OK) {
		int code = kp_cli_fail(&err);
		if (created)
			kp_db_remove_files(path);
		fprintf(stderr, "kplan: %snothing was imported%s\n", kp_interrupted ? "interrupted: " : "",
			created ? "" : "; the database is unchanged");
		return code;
	}
	return KP_EXIT_OK;
}
