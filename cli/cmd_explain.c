/*
 * cmd_explain.c — `kplan explain DB NAMESPACE/POD [--run N] [--top N]
 * [--format text|json]`: why a pod went where it went.  The replay and the
 * numbers are the library's (planner/explain.h, kp_explain_run); this file
 * parses the options and prints: every node's filter verdict (closest
 * first) with the numbers behind it, and for the feasible nodes every score
 * plugin's raw, normalised and weighted score.
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/explain.h"
#include "../planner/profile.h"

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

/* ---- amounts for people ---- */

/* cpu (millicores) in cores: 2, 1.5, 0.25; bytes: 4Gi, 1.5Gi, 512Mi; the rest as they are */
static const char *amount(const char *res, int64_t v, char *buf, size_t size)
{
	int bytes = !strcmp(res, "memory") || !strcmp(res, "ephemeral-storage") || !strncmp(res, "hugepages-", 10);
	if (!strcmp(res, "cpu")) {
		int64_t a = v < 0 ? -v : v;
		snprintf(buf, size, "%s%lld", v < 0 ? "-" : "", (long long)(a / 1000));
		if (a % 1000) {
			char frac[8];
			snprintf(frac, sizeof frac, ".%03lld", (long long)(a % 1000));
			for (size_t n = strlen(frac); frac[n - 1] == '0'; n--)
				frac[n - 1] = 0;
			snprintf(buf + strlen(buf), size - strlen(buf), "%s", frac);
		}
	} else if (bytes && (v >= 1024 || v <= -1024)) {
		static const char *const units[] = { "Ki", "Mi", "Gi", "Ti", "Pi" };
		double d = (double)v;
		int u = -1;
		while (u < 4 && (d >= 1024 || d <= -1024)) {
			d /= 1024;
			u++;
		}
		if (d == (double)(int64_t)d)
			snprintf(buf, size, "%lld%s", (long long)d, units[u]);
		else
			snprintf(buf, size, "%.1f%s", d, units[u]);
	} else {
		snprintf(buf, size, "%lld", (long long)v);
	}
	return buf;
}

/* ---- text ---- */

static void print_decision(const kp_explain_result *x, const char *ns, const char *name)
{
	const kp_explain *ex = &x->ex;
	if (x->run)
		printf("pod %s/%s, run %lld (replayed with seed %llu", ns, name, (long long)x->run, (unsigned long long)x->seed);
	else
		printf("pod %s/%s, no run yet: a fresh plan (seed %llu", ns, name, (unsigned long long)x->seed);
	printf(", configuration: %s%s%s)\n", x->config_source, x->scenario ? "; scenario: " : "", x->scenario ? x->scenario : "");
	if (!ex->found) {
		printf("not scheduled in this run: %s (recorded action: %s)\n",
		       !x->got.action[0] ? "the run's scenario removed it"
		       : !strcmp(x->got.action, "keep") ? "it is bound already and the run left it where it is"
		       : x->got.message[0] ? x->got.message : "it is bound already, finished, or not this scheduler's",
		       x->recorded ? x->rec.action : "none");
		return;
	}
	if (ex->nomem)
		printf("warning: out of memory while explaining: the filter verdicts only, without their numbers\n");
	int nfeas = 0;
	for (int i = 0; i < ex->nnodes; i++)
		nfeas += ex->nodes[i].feasible;
	printf("attempts: %d; last attempt: %d of %d nodes passed every filter%s\n", ex->attempts, nfeas, ex->nnodes,
	       ex->preemption[0] && ex->chosen >= 0 && nfeas == 1 ? " (the node preemption nominated)" : "");
	const kp_explain_outcome *g = &x->got;
	if (!strcmp(g->action, "bind"))
		printf("decision: bind to %s\n", g->node);
	else if (!strcmp(g->action, "move"))
		printf("decision: move to %s%s%s%s\n", g->node, g->from_node[0] ? " (from " : "", g->from_node,
		       g->from_node[0] ? ")" : "");
	else if (!strcmp(g->action, "keep") && ex->chosen >= 0 && !strcmp(ex->nodes[ex->chosen].node, g->node))
		printf("decision: keep on %s (placed on the node it was on)\n", g->node);
	else if (!strcmp(g->action, "keep") && ex->chosen >= 0)   /* rebalance.c drop_move */
		printf("decision: keep on %s (the move to %s was proposed, then dropped: HighNodeUtilization moves all "
		       "of a node's pods or none)\n", g->node, ex->nodes[ex->chosen].node);
	else if (!strcmp(g->action, "keep"))
		printf("decision: keep on %s (no other node passes every filter)\n", g->node);
	else if (!strcmp(g->action, "unschedulable"))
		printf("decision: unschedulable: %s\n", g->message[0] ? g->message : ex->message);
	else
		printf("decision: %s%s%s\n", g->action, g->message[0] ? ": " : "", g->message);
	if (ex->chosen < 0 && ex->decisive[0])
		printf("decisive: %s (%s)\n", ex->decisive,
		       ex->decisive_static ? "no node passes the static filters: taints, selectors, node affinity, cordon"
					   : "the nodes that pass every static filter: taints, selectors, node affinity, cordon");
	if (x->run && x->recorded && !x->agrees)
		printf("warning: run %lld recorded '%s%s%s' — the database changed since that run, so this replay "
		       "explains a fresh plan instead\n", (long long)x->run, x->rec.action, x->rec.node[0] ? " " : "",
		       x->rec.node);
}

static void print_spread(const kp_explain *ex)
{
	if (!ex->nspread)
		return;
	printf("\nspread constraints (DoNotSchedule): skew = matching pods in the domain + 1 if the pod matches "
	       "its own selector - the minimum\n");
	for (int k = 0; k < ex->nspread; k++) {
		const kp_explain_spread *sp = &ex->spread[k];
		printf("  %s, maxSkew %lld, minimum %lld%s:", sp->key, (long long)sp->max_skew, (long long)sp->min,
		       sp->self_match ? "" : " (the pod does not match its own selector)");
		for (int d = 0; d < sp->ndomains; d++) {
			const kp_explain_domain *dm = &sp->domains[d];
			if (dm->eligible)
				printf(" %s %lld (skew %lld)%s", dm->value, (long long)dm->pods,
				       (long long)(dm->pods + sp->self_match - sp->min), d + 1 < sp->ndomains ? "," : "");
			else
				printf(" %s not eligible%s", dm->value, d + 1 < sp->ndomains ? "," : "");
		}
		printf("\n");
	}
}

/* the numbers under a failing node */
static void print_numbers(const kp_explain *ex, int n)
{
	const kp_explain_node *en = &ex->nodes[n];
	char a[32], b[32], c[32], d[32];
	for (int j = 0; (en->failed >> KP_P_NODE_RESOURCES_FIT & 1) && j < ex->nfit; j++) {
		const kp_explain_fit *f = &ex->fit[(size_t)n * (size_t)ex->nfit + (size_t)j];
		int64_t free = f->allocatable - f->used;
		const char *r = ex->fit_res[j];
		if (f->requested > free)
			printf("      %s: requested %s, free %s of %s (short %s)\n", r, amount(r, f->requested, a, sizeof a),
			       amount(r, free, b, sizeof b), amount(r, f->allocatable, c, sizeof c),
			       amount(r, f->requested - free, d, sizeof d));
	}
	for (int k = 0; (en->failed >> KP_P_POD_TOPOLOGY_SPREAD & 1) && k < ex->nspread; k++) {
		const kp_explain_spread *sp = &ex->spread[k];
		int32_t dom = ex->spread_dom[(size_t)n * (size_t)ex->nspread + (size_t)k];
		if (dom < 0) {
			printf("      spread %s: the node has no such label\n", sp->key);
			continue;
		}
		const kp_explain_domain *dm = &sp->domains[dom];
		int64_t skew = dm->pods + sp->self_match - sp->min;
		if (skew > sp->max_skew)
			printf("      spread %s=%s: %lld matching pods + %d - minimum %lld = skew %lld > maxSkew %lld\n", sp->key,
			       dm->value, (long long)dm->pods, sp->self_match, (long long)sp->min, (long long)skew,
			       (long long)sp->max_skew);
	}
	static const char *const kinds[] = { "affinity", "anti-affinity", "existing pods' anti-affinity" };
	for (int i = 0; i < ex->nmatch; i++) {
		const kp_explain_match *m = &ex->match[i];
		if (m->node != n || !m->fails)
			continue;
		if (!m->value)
			printf("      %s %s: the node has no such label\n", kinds[m->kind], m->key);
		else if (m->kind == KP_EXPLAIN_AFFINITY)
			printf("      %s %s=%s: no pod there matches every required affinity term\n", kinds[m->kind], m->key,
			       m->value);
		else
			printf("      %s %s=%s: %lld matching pod%s: %s\n", kinds[m->kind], m->key, m->value, (long long)m->count,
			       m->count == 1 ? "" : "s", m->pods ? m->pods : "");
	}
	for (int i = 1; i < en->nfails; i++)
		printf("      also %s: %s\n", en->fails[i].plugin, en->fails[i].reasons);
}

static void print_nodes(const kp_explain_result *x, int top)
{
	const kp_explain *ex = &x->ex;
	if (top < ex->nnodes)
		printf("\nfilters (the %d closest of %d nodes):\n", top, ex->nnodes);
	else
		printf("\nfilters (closest first):\n");
	for (int i = 0; i < top; i++) {
		int n = x->order[i];
		const kp_explain_node *en = &ex->nodes[n];
		if (en->feasible) {
			printf("  %-28s passed\n", en->node);
			continue;
		}
		if (en->nfails)
			printf("  %-28s %s: %s\n", en->node, en->plugin, en->reason);
		else   /* not evaluated, or not a target of a rebalance move */
			printf("  %-28s %s\n", en->node, en->reason);
		print_numbers(ex, n);
	}
	if (!ex->scoring)
		return;
	printf("\nscores (raw -> normalised x weight):\n  %-28s", "node");
	for (int k = 0; k < KP_P_COUNT && k < 16; k++)
		if (ex->scored[k])
			printf(" %s", kp_plugin_names[k]);
	printf(" | total\n");
	for (int i = 0; i < top; i++) {
		const kp_explain_node *en = &ex->nodes[x->order[i]];
		if (!en->feasible)
			continue;
		printf("  %-28s", en->node);
		for (int k = 0; k < KP_P_COUNT && k < 16; k++)
			if (ex->scored[k])
				printf(" %lld->%lldx%lld", (long long)en->raw[k], (long long)en->norm[k], (long long)ex->weight[k]);
		printf(" | %lld\n", (long long)en->total);
	}
}

static void print_why(const kp_explain_result *x)
{
	const kp_explain *ex = &x->ex;
	if (ex->chosen < 0)
		return;
	const kp_explain_node *w = &ex->nodes[ex->chosen], *second = NULL;
	if (ex->scoring) {
		/* order: the feasible nodes first, by total then tie-break */
		for (int i = 0; i < ex->nnodes && !second; i++)
			if (x->order[i] != ex->chosen && ex->nodes[x->order[i]].feasible)
				second = &ex->nodes[x->order[i]];
		if (second && second->total == w->total)
			printf("\nwhy %s: tied with %s at %lld; the seeded tie-break hash picked %s (%u > %u)\n", w->node,
			       second->node, (long long)w->total, w->node, w->tiebreak, second->tiebreak);
		else if (second)
			printf("\nwhy %s: highest total %lld (next: %s with %lld)\n", w->node, (long long)w->total, second->node,
			       (long long)second->total);
	} else if (ex->preemption[0]) {
		printf("\nwhy %s: preemption nominated it and it passed every filter there (no scoring)\n", w->node);
	} else {
		printf("\nwhy %s: the only node that passed every filter (no scoring)\n", w->node);
	}
}

static void print_text(const kp_explain_result *x, const char *ns, const char *name, int top)
{
	print_decision(x, ns, name);
	if (!x->ex.found)
		return;
	if (x->ex.preemption[0])
		printf("\n%s", x->ex.preemption);
	print_spread(&x->ex);
	print_nodes(x, top);
	print_why(x);
}

/* ---- json ---- */

static void json_outcome(kp_sb *sb, const kp_explain_outcome *o)
{
	kp_sb_adds(sb, "{\"action\":");
	kp_sb_add_json_str(sb, o->action);
	kp_sb_adds(sb, ",\"node\":");
	kp_sb_add_json_str(sb, o->node[0] ? o->node : NULL);
	kp_sb_adds(sb, ",\"from_node\":");
	kp_sb_add_json_str(sb, o->from_node[0] ? o->from_node : NULL);
	kp_sb_adds(sb, ",\"message\":");
	kp_sb_add_json_str(sb, o->message[0] ? o->message : NULL);
	kp_sb_addc(sb, '}');
}

static void json_node(kp_sb *sb, const kp_explain *ex, int n, int rank)
{
	const kp_explain_node *en = &ex->nodes[n];
	kp_sb_printf(sb, "{\"closest\":%d,\"node\":", rank);
	kp_sb_add_json_str(sb, en->node);
	kp_sb_printf(sb, ",\"feasible\":%s,\"evaluated\":%s,\"filters\":[", en->feasible ? "true" : "false",
		     en->evaluated ? "true" : "false");
	for (int i = 0; i < en->nfails; i++) {
		kp_sb_adds(sb, i ? ",{\"plugin\":" : "{\"plugin\":");
		kp_sb_add_json_str(sb, en->fails[i].plugin);
		kp_sb_adds(sb, ",\"reason\":");
		kp_sb_add_json_str(sb, en->fails[i].reasons);
		kp_sb_addc(sb, '}');
	}
	if (!en->feasible && !en->nfails) {   /* not evaluated, or not a target of a rebalance move */
		kp_sb_adds(sb, "{\"plugin\":");
		kp_sb_add_json_str(sb, en->plugin);
		kp_sb_adds(sb, ",\"reason\":");
		kp_sb_add_json_str(sb, en->reason);
		kp_sb_addc(sb, '}');
	}
	kp_sb_adds(sb, "],\"resources\":[");
	for (int j = 0; j < ex->nfit; j++) {
		const kp_explain_fit *f = &ex->fit[(size_t)n * (size_t)ex->nfit + (size_t)j];
		int64_t free = f->allocatable - f->used;
		kp_sb_adds(sb, j ? ",{\"resource\":" : "{\"resource\":");
		kp_sb_add_json_str(sb, ex->fit_res[j]);
		kp_sb_printf(sb, ",\"requested\":%lld,\"allocatable\":%lld,\"used\":%lld,\"free\":%lld,\"short\":%lld}",
			     (long long)f->requested, (long long)f->allocatable, (long long)f->used, (long long)free,
			     (long long)(f->requested > free ? f->requested - free : 0));
	}
	kp_sb_printf(sb, "],\"shortfall\":%.4f,\"spread\":[", en->shortfall);
	for (int k = 0; k < ex->nspread; k++) {
		const kp_explain_spread *sp = &ex->spread[k];
		int32_t dom = ex->spread_dom[(size_t)n * (size_t)ex->nspread + (size_t)k];
		kp_sb_adds(sb, k ? ",{\"topology_key\":" : "{\"topology_key\":");
		kp_sb_add_json_str(sb, sp->key);
		kp_sb_adds(sb, ",\"domain\":");
		kp_sb_add_json_str(sb, dom >= 0 ? sp->domains[dom].value : NULL);
		if (dom >= 0) {
			int64_t pods = sp->domains[dom].pods, skew = pods + sp->self_match - sp->min;
			kp_sb_printf(sb, ",\"pods\":%lld,\"skew\":%lld,\"max_skew\":%lld,\"fails\":%s}", (long long)pods,
				     (long long)skew, (long long)sp->max_skew, skew > sp->max_skew ? "true" : "false");
		} else {
			kp_sb_printf(sb, ",\"pods\":null,\"skew\":null,\"max_skew\":%lld,\"fails\":true}", (long long)sp->max_skew);
		}
	}
	kp_sb_adds(sb, "],\"affinity\":[");
	static const char *const kinds[] = { "affinity", "anti-affinity", "existing-anti-affinity" };
	for (int i = 0, first = 1; i < ex->nmatch; i++) {
		const kp_explain_match *m = &ex->match[i];
		if (m->node != n)
			continue;
		kp_sb_printf(sb, "%s{\"kind\":\"%s\",\"topology_key\":", first ? "" : ",", kinds[m->kind]);
		first = 0;
		kp_sb_add_json_str(sb, m->key);
		kp_sb_adds(sb, ",\"domain\":");
		kp_sb_add_json_str(sb, m->value);
		kp_sb_printf(sb, ",\"matching_pods\":%lld,\"pods\":", (long long)m->count);
		kp_sb_add_json_str(sb, m->pods);
		kp_sb_printf(sb, ",\"fails\":%s}", m->fails ? "true" : "false");
	}
	kp_sb_adds(sb, "],\"scores\":{");
	for (int k = 0, first = 1; en->feasible && k < KP_P_COUNT && k < 16; k++)
		if (ex->scored[k]) {
			kp_sb_printf(sb, "%s\"%s\":{\"raw\":%lld,\"normalized\":%lld,\"weight\":%lld}", first ? "" : ",",
				     kp_plugin_names[k], (long long)en->raw[k], (long long)en->norm[k], (long long)ex->weight[k]);
			first = 0;
		}
	kp_sb_adds(sb, "},\"total\":");
	if (en->feasible && ex->scoring)
		kp_sb_printf(sb, "%lld}", (long long)en->total);
	else
		kp_sb_adds(sb, "null}");
}

static void json_spread(kp_sb *sb, const kp_explain *ex)
{
	kp_sb_adds(sb, ",\"spread\":[");
	for (int k = 0; k < ex->nspread; k++) {
		const kp_explain_spread *sp = &ex->spread[k];
		kp_sb_adds(sb, k ? ",{\"topology_key\":" : "{\"topology_key\":");
		kp_sb_add_json_str(sb, sp->key);
		kp_sb_printf(sb, ",\"max_skew\":%lld,\"min_domains\":%lld,\"min\":%lld,\"self_match\":%s,\"domains\":[",
			     (long long)sp->max_skew, (long long)sp->min_domains, (long long)sp->min,
			     sp->self_match ? "true" : "false");
		for (int d = 0; d < sp->ndomains; d++) {
			const kp_explain_domain *dm = &sp->domains[d];
			kp_sb_adds(sb, d ? ",{\"domain\":" : "{\"domain\":");
			kp_sb_add_json_str(sb, dm->value);
			kp_sb_printf(sb, ",\"pods\":%lld,\"eligible\":%s,\"skew\":", (long long)dm->pods, dm->eligible ? "true" : "false");
			if (dm->eligible)
				kp_sb_printf(sb, "%lld}", (long long)(dm->pods + sp->self_match - sp->min));
			else
				kp_sb_adds(sb, "null}");
		}
		kp_sb_adds(sb, "]}");
	}
	kp_sb_addc(sb, ']');
}

static int print_json(const kp_explain_result *x, const char *ns, const char *name, int top)
{
	const kp_explain *ex = &x->ex;
	kp_sb sb;
	kp_sb_init(&sb);
	kp_sb_adds(&sb, "{\"pod\":{\"namespace\":");
	kp_sb_add_json_str(&sb, ns);
	kp_sb_adds(&sb, ",\"name\":");
	kp_sb_add_json_str(&sb, name);
	kp_sb_printf(&sb, ",\"id\":%lld},\"run\":{\"id\":", (long long)x->pod_id);
	if (x->run)
		kp_sb_printf(&sb, "%lld", (long long)x->run);
	else
		kp_sb_adds(&sb, "null");
	kp_sb_printf(&sb, ",\"seed\":%llu,\"mode\":\"%s\",\"scenario\":", (unsigned long long)x->seed, x->mode);
	kp_sb_add_json_str(&sb, x->scenario);
	kp_sb_adds(&sb, ",\"config\":");
	kp_sb_add_json_str(&sb, x->config);
	kp_sb_adds(&sb, ",\"configuration\":");
	kp_sb_add_json_str(&sb, x->config_source);
	kp_sb_printf(&sb, ",\"no_preemption\":%s,\"reference\":%s},\"recorded\":", x->no_preemption ? "true" : "false",
		     x->reference ? "true" : "false");
	if (x->recorded)
		json_outcome(&sb, &x->rec);
	else
		kp_sb_adds(&sb, "null");
	kp_sb_adds(&sb, ",\"decision\":");
	json_outcome(&sb, &x->got);
	kp_sb_printf(&sb, ",\"agrees\":%s,\"scheduled\":%s,\"attempts\":%d", !x->recorded ? "null" : x->agrees ? "true" : "false",
		     ex->found ? "true" : "false", ex->attempts);
	int nfeas = 0;
	for (int i = 0; i < ex->nnodes; i++)
		nfeas += ex->nodes[i].feasible;
	kp_sb_printf(&sb, ",\"nodes_total\":%d,\"nodes_feasible\":%d,\"nodes_shown\":%d,\"decisive\":", ex->nnodes, nfeas, top);
	kp_sb_add_json_str(&sb, ex->found && ex->chosen < 0 && ex->decisive[0] ? ex->decisive : NULL);
	kp_sb_adds(&sb, ",\"preemption\":");
	kp_sb_add_json_str(&sb, ex->preemption[0] ? ex->preemption : NULL);
	json_spread(&sb, ex);
	kp_sb_adds(&sb, ",\"nodes\":[");
	for (int i = 0; i < top; i++) {
		if (i)
			kp_sb_addc(&sb, ',');
		json_node(&sb, ex, x->order[i], i + 1);
	}
	kp_sb_adds(&sb, "]}\n");
	int rc = kp_sb_ok(&sb) ? KP_OK : KP_NOMEM;
	if (!rc)
		fwrite(sb.buf, 1, sb.len, stdout);
	kp_sb_release(&sb);
	return rc;
}

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
	kp_explain_opts o = { .run = run, .ns = ns, .name = name, .db_name = path };
	kp_explain_result x;
	rc = kp_explain_run(db, &o, &x, &err);
	kp_db_close(db);
	if (rc != KP_OK) {
		kp_explain_result_release(&x);
		return kp_cli_fail(&err);
	}
	int shown = top && top < x.ex.nnodes ? (int)top : x.ex.nnodes;
	if (json)
		rc = print_json(&x, ns, name, shown);
	else
		print_text(&x, ns, name, shown);
	kp_explain_result_release(&x);
	fflush(stdout);
	if (rc || ferror(stdout))
		return kp_cli_fail(&(kp_err){ .code = rc ? KP_NOMEM : KP_IO, .msg = "cannot write the explanation" });
	return KP_EXIT_OK;
}
