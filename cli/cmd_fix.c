/*
 * cmd_fix.c — `kplan fix DB`: the options, then planner/fix.c's answer
 * (kp_fix_run, fix.h; docs/why-not.md) printed as reports/fix_text.c renders
 * it, text or JSON.
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/fix.h"
#include "whatif_import.h"
#include "../reports/fix_text.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

const char cmd_fix_help[] =
	"usage: kplan fix [options] DB\n"
	"\n"
	"For each unschedulable pod of a run, candidate fixes ranked by disruption, each\n"
	"checked with a dry-run plan of the baseline (the run's options) plus the change:\n"
	"add one node like --node-template < evict the fewest lower-priority pods on one\n"
	"node (PDBs respected) < move the pods on one node's GPUs elsewhere so a GPU pod\n"
	"fits (GPUs as DRA devices; the moved pods must fit again) < relax a soft rule\n"
	"(a spread maxSkew + 1) < relax a hard rule (an untolerated taint, a\n"
	"nodeSelector key, a required node affinity expression or all of it, a required\n"
	"pod (anti-)affinity term) < untaint a node dedicated to something the pod does\n"
	"not use (an extended resource it does not request, a role it does not select).\n"
	"Then one change set checked for all the pods together.  Pods without a checked\n"
	"fix get none.  The rows go to the fix table (replacing the run's earlier ones)\n"
	"and `kplan report` shows them.\n"
	"\n"
	"Options:\n"
	"  --run N                   the run (default: the latest)\n"
	"  --node-template FILE      a Node manifest: also try adding one node like it\n"
	"  --limit K                 at most K unschedulable pods, in queue order (default 20)\n"
	"  --candidates K            at most K checked fixes per pod, best first (default 3)\n"
	"  --no-preemption           check without preemption (default: as the run)\n"
	"  --config FILE             check with this KubeSchedulerConfiguration (default: the run's)\n"
	"  --no-record               write nothing (works on a database you can only read)\n"
	"  --from-run N              fix run N's unschedulable pods from the state run N left\n"
	"                            (its placements bound, as `kplan plan --from-run N`), not\n"
	"                            from a replay of run N; the rows are run N's\n"
	"  --format text|json        the summary on stdout (default text)\n"
	"  -q, --quiet               no text summary, no progress line (JSON is printed)\n"
	"  -h, --help                this help\n"
	"\n"
	"Examples:\n"
	"  kplan fix cluster.db\n"
	"  kplan fix cluster.db --run 3 --node-template m5-4xlarge.yaml --format json\n"
	"  kplan fix --no-record /mnt/readonly/cluster.db\n";

typedef struct printer {
	int quiet, json;
	const char *tmpl;
	kp_progress prog;
	kp_err *err;
} printer;

static int before_commit(void *ctx, const kp_fix_result *r)
{
	printer *p = ctx;
	kp_progress_clear(&p->prog);
	if (p->quiet && !p->json)
		return 0;   /* --format json is printed even with -q */
	kp_sb out;
	kp_sb_init(&out);
	kp_report_fix(r, p->tmpl, p->json, &out);
	if (!kp_sb_ok(&out)) {
		kp_sb_release(&out);
		kp_err_set(p->err, KP_NOMEM, "out of memory");
		return 1;
	}
	fputs(kp_sb_str(&out), stdout);
	kp_sb_release(&out);
	fflush(stdout);
	return ferror(stdout) != 0;
}

static void progress(void *ctx, long done, long total)
{
	printer *p = ctx;
	kp_progress_count(&p->prog, "fix: examined", (double)done, (double)total, "pods");
}

static int parse_count(const char *opt, const char *arg, long max, long *v)
{
	char *end;
	errno = 0;
	*v = strtol(arg, &end, 10);
	if (errno || *end || !*arg || *v <= 0 || *v > max)
		return kp_cli_usage("fix", "%s needs a positive integer (at most %ld), got '%s'", opt, max, arg);
	return 0;
}

int cmd_fix(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "node-template", required_argument, NULL, 't' },
		{ "limit", required_argument, NULL, 'l' },
		{ "candidates", required_argument, NULL, 'k' },
		{ "no-preemption", no_argument, NULL, 'P' },
		{ "config", required_argument, NULL, 'c' },
		{ "no-record", no_argument, NULL, 'N' },
		{ "from-run", required_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	kp_fix_opts o = { .limit = 20, .candidates = 3, .preemption = -1, .importer = &kp_cli_whatif_importer };
	printer pr = { 0 };
	long v;
	int c;
	if (kp_cli_wants_help(argc, argv, cmd_fix_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'r':
		case 'F':
			errno = 0;
			int64_t id = strtoll(optarg, &end, 10);
			if (errno || *end || !*optarg || id <= 0)
				return kp_cli_usage("fix", "%s needs a run id, got '%s'", c == 'r' ? "--run" : "--from-run", optarg);
			if (o.run && o.run != id)
				return kp_cli_usage("fix", "--run and --from-run name different runs (%lld, %lld): give one",
						    (long long)o.run, (long long)id);
			o.run = id;
			o.from_run |= c == 'F';
			break;
		case 't':
			if (!*optarg)
				return kp_cli_usage("fix", "--node-template needs a file");
			o.node_template = optarg;
			break;
		case 'l':
			if (parse_count("--limit", optarg, 1000000, &v))
				return KP_EXIT_USAGE;
			o.limit = v;
			break;
		case 'k':
			if (parse_count("--candidates", optarg, 100, &v))
				return KP_EXIT_USAGE;
			o.candidates = (int)v;
			break;
		case 'P': o.preemption = 0; break;
		case 'c':
			if (!*optarg)
				return kp_cli_usage("fix", "--config needs a file");
			o.config_file = optarg;
			break;
		case 'N': o.no_record = 1; break;
		case 'f':
			if (strcmp(optarg, "json") && strcmp(optarg, "text"))
				return kp_cli_usage("fix", "--format takes text or json, got '%s'", optarg);
			pr.json = !strcmp(optarg, "json");
			break;
		case 'q': pr.quiet = 1; break;
		default:
			return kp_cli_bad_option("fix", c, argv);
		}
	}
	if (argc - optind != 1)
		return kp_cli_usage("fix", argc - optind < 1 ? "missing DB" : "too many arguments");
	o.db_path = argv[optind];
	pr.tmpl = o.node_template;
	kp_err err = { 0 };
	pr.err = &err;
	const char *files[2] = { o.node_template, o.config_file };
	for (int i = 0; i < 2; i++) {
		FILE *tf = files[i] ? fopen(files[i], "r") : NULL;
		if (files[i] && !tf) {
			kp_err_set(&err, KP_IO, "%s '%s': %s", i ? "--config" : "--node-template", files[i], strerror(errno));
			return kp_cli_fail(&err);
		}
		if (tf)
			fclose(tf);
	}
	sqlite3 *db;
	if (cli_db_open(o.db_path, o.no_record ? KP_DB_READONLY : 0, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_cli_on_interrupt(db);
	kp_progress_init(&pr.prog, pr.quiet);
	kp_fix_hooks hooks = { .progress = progress, .before_commit = before_commit, .ctx = &pr };
	kp_fix_result r;
	int rc = kp_fix_run(db, &o, &hooks, &r, &err);
	kp_progress_clear(&pr.prog);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	kp_fix_result_release(&r);
	if (rc) {
		if (kp_interrupted)
			kp_err_set(&err, KP_INTR, "interrupted");
		return kp_cli_fail(&err);
	}
	return KP_EXIT_OK;
}
