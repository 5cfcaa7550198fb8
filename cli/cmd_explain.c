/*
 * cmd_explain.c — `kplan explain DB NAMESPACE/POD [--run N]`: why a pod went
 * where it went.  The run is replayed in memory with the options it recorded
 * (seed, config, preemption), nothing is written, and the pod's last
 * scheduling cycle is shown: every node's filter verdict with its reason,
 * and for the feasible nodes every score plugin's raw, normalised and
 * weighted score.  When the replay does not reach the recorded decision (the
 * database changed since the run) it says so.
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/plan.h"
#include "../planner/profile.h"
#include "../planner/json.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>

const char cmd_explain_help[] =
	"usage: kplan explain [--run N] DB NAMESPACE/POD\n"
	"\n"
	"Show why POD was placed where it was (or why it fits nowhere) in run N (default:\n"
	"the latest): each node's filter verdict and reason, and for the nodes that passed,\n"
	"each score plugin's raw score, normalised score and weight, the totals, and why\n"
	"the winner won.  The run is replayed with its recorded seed and options; nothing\n"
	"is written.  If the database changed since the run, the replay may differ and\n"
	"explain says so.\n"
	"\n"
	"Example:\n"
	"  kplan explain cluster.db shop/web-75668fcfcf-sr24h\n";

static int cmp_total(const void *a, const void *b)
{
	const kp_explain_node *x = *(kp_explain_node *const *)a, *y = *(kp_explain_node *const *)b;
	if (x->feasible != y->feasible)
		return y->feasible - x->feasible;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->tiebreak != y->tiebreak)
		return x->tiebreak > y->tiebreak ? -1 : 1;
	return strcmp(x->node, y->node);
}

int cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long run = 0;
	int c;
	if (kp_cli_wants_help(argc, argv, cmd_explain_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'r') {
			char *end;
			run = strtoll(optarg, &end, 10);
			if (*end || run <= 0)
				return kp_cli_usage("explain", "--run needs a run id, got '%s'", optarg);
		} else {
			return kp_cli_bad_option("explain", c, argv);
		}
	}
	if (argc - optind != 2)
		return kp_cli_usage("explain", argc - optind < 2 ? "missing DB or NAMESPACE/POD" : "too many arguments");
	const char *path = argv[optind], *ref = argv[optind + 1];
	const char *slash = strchr(ref, '/');
	char ns[256], name[512];
	if (slash) {
		snprintf(ns, sizeof ns, "%.*s", (int)(slash - ref), ref);
		snprintf(name, sizeof name, "%s", slash + 1);
	} else {
		snprintf(ns, sizeof ns, "default");
		snprintf(name, sizeof name, "%s", ref);
	}
	kp_err err = { 0 };
	sqlite3 *db;
	if (kp_db_open(path, KP_DB_READONLY, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	sqlite3_stmt *st;
	int64_t pod_id = 0;
	if (sqlite3_prepare_v2(db, "SELECT id FROM pod WHERE namespace = ?1 AND name = ?2", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, ns, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			pod_id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	if (!pod_id) {
		kp_db_close(db);
		kp_err_set(&err, KP_ERROR, "no pod '%s/%s' in '%s'", ns, name, path);
		return kp_cli_fail(&err);
	}
	/* the run: its seed and options */
	kp_plan_opts o = { .seed = KP_DEFAULT_SEED, .dry_run = 1 };
	char *config_file = NULL, *rec_action = NULL, *rec_node = NULL;
	int have_run = 0;
	if (sqlite3_prepare_v2(db, "SELECT r.id, r.seed, json_extract(r.options, '$.config'), "
				   "json_extract(r.options, '$.no_preemption'), pl.action, n.name FROM run r "
				   "LEFT JOIN placement pl ON pl.run_id = r.id AND pl.pod_id = ?2 "
				   "LEFT JOIN node n ON n.id = pl.node_id WHERE (?1 = 0 OR r.id = ?1) ORDER BY r.id DESC LIMIT 1",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int64(st, 2, pod_id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			have_run = 1;
			run = sqlite3_column_int64(st, 0);
			o.seed = (uint64_t)sqlite3_column_int64(st, 1);
			if (sqlite3_column_type(st, 2) != SQLITE_NULL)
				config_file = kp_strdup((const char *)sqlite3_column_text(st, 2));
			o.no_preemption = sqlite3_column_int(st, 3);
			if (sqlite3_column_type(st, 4) != SQLITE_NULL)
				rec_action = kp_strdup((const char *)sqlite3_column_text(st, 4));
			if (sqlite3_column_type(st, 5) != SQLITE_NULL)
				rec_node = kp_strdup((const char *)sqlite3_column_text(st, 5));
		}
		sqlite3_finalize(st);
	}
	if (!have_run && run) {
		kp_db_close(db);
		kp_err_set(&err, KP_ERROR, "no run %lld in '%s'", run, path);
		return kp_cli_fail(&err);
	}
	o.config_file = config_file;
	kp_explain ex;
	memset(&ex, 0, sizeof ex);
	ex.pod_db_id = pod_id;
	o.explain = &ex;
	kp_plan_result r;
	int rc = kp_plan_run(db, &o, &r, &err);
	kp_db_close(db);
	kp_free(config_file);
	if (rc != KP_OK) {
		kp_free(rec_action);
		kp_free(rec_node);
		kp_explain_release(&ex);
		return kp_cli_fail(&err);
	}
	if (have_run)
		printf("pod %s/%s, run %lld (replayed with seed %llu", ns, name, run, (unsigned long long)o.seed);
	else
		printf("pod %s/%s, no run yet: a fresh plan (seed %llu", ns, name, (unsigned long long)o.seed);
	printf(", configuration: %s)\n", r.config_source);
	if (!ex.found) {
		printf("not scheduled in this run: it is bound already, finished, or not this scheduler's "
		       "(recorded action: %s)\n", rec_action ? rec_action : "none");
		kp_free(rec_action);
		kp_free(rec_node);
		kp_explain_release(&ex);
		return KP_EXIT_OK;
	}
	int nfeas = 0;
	for (int i = 0; i < ex.nnodes; i++)
		nfeas += ex.nodes[i].feasible;
	const char *chosen = ex.chosen >= 0 ? ex.nodes[ex.chosen].node : NULL;
	printf("attempts: %d; last attempt: %d of %d nodes passed every filter%s\n", ex.attempts, nfeas, ex.nnodes,
	       ex.preemption[0] && chosen && nfeas == 1 ? " (the node preemption nominated)" : "");
	if (chosen)
		printf("decision: bind to %s\n", chosen);
	else
		printf("decision: unschedulable: %s\n", ex.message);
	if (have_run && rec_action) {
		int same = chosen ? (!strcmp(rec_action, "bind") && rec_node && !strcmp(rec_node, chosen))
				  : !strcmp(rec_action, "unschedulable");
		if (!same)
			printf("warning: run %lld recorded '%s%s%s' — the database changed since that run, so this replay "
			       "explains a fresh plan instead\n", run, rec_action, rec_node ? " " : "", rec_node ? rec_node : "");
	}
	if (ex.preemption[0])
		printf("\n%s", ex.preemption);
	kp_explain_node **order = kp_malloc((size_t)(ex.nnodes ? ex.nnodes : 1) * sizeof *order);
	if (!order) {
		kp_explain_release(&ex);
		return KP_EXIT_ERROR;
	}
	for (int i = 0; i < ex.nnodes; i++)
		order[i] = &ex.nodes[i];
	kp_sort(order, (size_t)ex.nnodes, sizeof *order, cmp_total);
	printf("\nfilters:\n");
	for (int i = 0; i < ex.nnodes; i++) {
		const kp_explain_node *n = order[i];
		if (n->feasible)
			printf("  %-28s passed\n", n->node);
		else
			printf("  %-28s %s: %s\n", n->node, n->plugin, n->reason);
	}
	if (ex.scoring) {
		printf("\nscores (raw -> normalised x weight):\n  %-28s", "node");
		for (int k = 0; k < KP_P_COUNT && k < 16; k++)
			if (ex.scored[k])
				printf(" %s", kp_plugin_names[k]);
		printf(" | total\n");
		for (int i = 0; i < ex.nnodes; i++) {
			const kp_explain_node *n = order[i];
			if (!n->feasible)
				continue;
			printf("  %-28s", n->node);
			for (int k = 0; k < KP_P_COUNT && k < 16; k++)
				if (ex.scored[k])
					printf(" %lld->%lldx%lld", (long long)n->raw[k], (long long)n->norm[k], (long long)ex.weight[k]);
			printf(" | %lld\n", (long long)n->total);
		}
		const kp_explain_node *w = &ex.nodes[ex.chosen], *second = NULL;
		for (int i = 0; i < ex.nnodes; i++)
			if (order[i] != w && order[i]->feasible) {
				second = order[i];
				break;
			}
		if (second && second->total == w->total)
			printf("\nwhy %s: tied with %s at %lld; the seeded tie-break hash picked %s (%u > %u)\n", w->node,
			       second->node, (long long)w->total, w->node, w->tiebreak, second->tiebreak);
		else if (second)
			printf("\nwhy %s: highest total %lld (next: %s with %lld)\n", w->node, (long long)w->total, second->node,
			       (long long)second->total);
	} else if (chosen && ex.preemption[0]) {
		printf("\nwhy %s: preemption nominated it and it passed every filter there (no scoring)\n", chosen);
	} else if (chosen) {
		printf("\nwhy %s: the only node that passed every filter (no scoring)\n", chosen);
	}
	kp_free(order);
	kp_free(rec_action);
	kp_free(rec_node);
	kp_explain_release(&ex);
	return KP_EXIT_OK;
}
