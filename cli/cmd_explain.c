/*
 * cmd_explain.c — `kplan explain DB NAMESPACE/POD [--run N] [--top N]
 * [--format text|json]`: why a pod went where it went.  The replay and the
 * numbers are the library's (planner/explain.h, kp_explain_run), the text
 * and the JSON reports/explain_text.c's; this file parses the options,
 * calls them and prints.
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/explain.h"
#include "../planner/profile.h"
#include "../reports/explain_text.h"
#include "whatif_import.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>

const char cmd_explain_help[] =
	"usage: kplan explain [options] DB NAMESPACE/POD\n"
	"\n"
	"Show why POD was placed where it was (or why it fits nowhere) in run N (default:\n"
	"the latest).  The run is replayed as it was made — seed, configuration,\n"
	"preemption, and its scenario: what-if options, --mode full, --strategy,\n"
	"--mode rebalance — and nothing is written (a read-only database will do).  If\n"
	"the database changed since the run, the replay may differ and explain says so.\n"
	"\n"
	"For the pod's last scheduling attempt: each node's filter verdict (kube's\n"
	"reason, then every other filter that fails it too) with the numbers behind it —\n"
	"requested against free per resource (NodeResourcesFit), matching pods per domain\n"
	"and the skew (PodTopologySpread), the pods an (anti-)affinity term matches\n"
	"(InterPodAffinity) — and for the nodes that passed, each score plugin's raw\n"
	"score, normalised score and weight, the totals, and why the winner won.  An\n"
	"unschedulable pod's decisive reasons are those of the nodes that pass every\n"
	"static filter (taints, selectors, node affinity, cordon), or the static ones when\n"
	"none does.\n"
	"\n"
	"Options:\n"
	"  --run N            explain run N (default: the latest)\n"
	"  --top N            show the N closest nodes only: those that passed, by total\n"
	"                     score; then nodes no static filter rejects, then the others,\n"
	"                     each by fewest failing filters, nodes too small for the pod\n"
	"                     even when empty last, then the smallest resource shortfall\n"
	"                     (sum of (requested - free) / requested)\n"
	"  --format FMT       text (default) or json (one object: pod, run, decision,\n"
	"                     attempts, per-node filters with their numbers, scores)\n"
	"  -h, --help         this help\n"
	"\n"
	"Examples:\n"
	"  kplan explain cluster.db shop/web-75668fcfcf-sr24h\n"
	"  kplan explain --top 3 --format json cluster.db shop/big\n";

/* ---- the command ---- */

static int parse_count(const char *cmd, const char *opt, const char *v, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || !*v || n <= 0)
		return kp_cli_usage(cmd, "%s needs a positive integer, got '%s'", opt, v);
	*out = n;
	return KP_EXIT_OK;
}

int cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "top", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long run = 0, top = 0;
	int c, json = 0, rc;
	if (kp_cli_wants_help(argc, argv, cmd_explain_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
		case 't':
			if ((rc = parse_count("explain", c == 'r' ? "--run" : "--top", optarg, c == 'r' ? &run : &top)))
				return rc;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return kp_cli_usage("explain", "unknown format '%s' (want text or json)", optarg);
			json = !strcmp(optarg, "json");
			break;
		default:   /* ':' a missing value, '?' unknown or a flag given a value */
			return kp_cli_bad_option("explain", c, argv);
		}
	}
	if (argc - optind != 2)
		return kp_cli_usage("explain", argc - optind < 2 ? "missing DB or NAMESPACE/POD" : "too many arguments");
	const char *path = argv[optind], *ref = argv[optind + 1];
	const char *slash = strchr(ref, '/');
	char ns[256], name[512];
	snprintf(ns, sizeof ns, "%.*s", slash ? (int)(slash - ref) : 7, slash ? ref : "default");
	snprintf(name, sizeof name, "%s", slash ? slash + 1 : ref);
	kp_err err = { 0 };
	sqlite3 *db;
	if (cli_db_open(path, KP_DB_READONLY, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_explain_opts o = { .run = run, .ns = ns, .name = name, .db_name = path, .importer = &kp_cli_whatif_importer };
	kp_explain_result x;
	rc = kp_explain_run(db, &o, &x, &err);
	kp_db_close(db);
	if (rc != KP_OK) {
		kp_explain_result_release(&x);
		return kp_cli_fail(&err);
	}
	kp_report_explain e = { .x = &x, .ns = ns, .name = name, .top = top && top < x.ex.nnodes ? (int)top : x.ex.nnodes,
				.plugins = kp_plugin_names, .nplugins = KP_P_COUNT };
	kp_sb out;
	kp_sb_init(&out);
	rc = json ? kp_report_explain_json(&e, &out) : kp_report_explain_text(&e, &out);
	if (!rc)
		fwrite(kp_sb_str(&out), 1, out.len, stdout);
	kp_sb_release(&out);
	kp_explain_result_release(&x);
	fflush(stdout);
	if (rc || ferror(stdout))
		return kp_cli_fail(&(kp_err){ .code = rc ? KP_NOMEM : KP_IO, .msg = "cannot write the explanation" });
	return KP_EXIT_OK;
}
