/*
 * explain_text.c — `kplan explain`'s answer for people (text) and for
 * programs (JSON), rendered from the explain result (common/explain_result.h;
 * the planner's kp_explain_run fills it): every node's filter verdict
 * (closest first) with the numbers behind it, and for the feasible nodes
 * every score plugin's raw, normalised and weighted score.
 */
#include "explain_text.h"

#include <stdio.h>
#include <string.h>

/* 1 when the filter plugin called name fails node en */
static int fails(const kp_report_explain *e, const kp_explain_node *en, const char *name)
{
	for (int k = 0; k < e->nplugins && k < 32; k++)
		if (!strcmp(e->plugins[k], name))
			return en->failed >> k & 1;
	return 0;
}

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

static void text_decision(kp_sb *sb, const kp_report_explain *e)
{
	const kp_explain_result *x = e->x;
	const char *ns = e->ns, *name = e->name;
	const kp_explain *ex = &x->ex;
	if (x->run)
		kp_sb_printf(sb, "pod %s/%s, run %lld (replayed with seed %llu", ns, name, (long long)x->run,
			     (unsigned long long)x->seed);
	else
		kp_sb_printf(sb, "pod %s/%s, no run yet: a fresh plan (seed %llu", ns, name, (unsigned long long)x->seed);
	kp_sb_printf(sb, ", configuration: %s; %s%s%s)\n", x->config_source, x->kube, x->scenario ? "; scenario: " : "",
		     x->scenario ? x->scenario : "");
	if (!ex->found) {
		kp_sb_printf(sb, "not scheduled in this run: %s (recorded action: %s)\n",
			     !x->got.action[0] ? "the run's scenario removed it"
			     : !strcmp(x->got.action, "keep") ? "it is bound already and the run left it where it is"
			     : x->got.message[0] ? x->got.message : "it is bound already, finished, or not this scheduler's",
			     x->recorded ? x->rec.action : "none");
		return;
	}
	if (ex->nomem)
		kp_sb_adds(sb, "warning: out of memory while explaining: the filter verdicts only, without their numbers\n");
	int nfeas = 0;
	for (int i = 0; i < ex->nnodes; i++)
		nfeas += ex->nodes[i].feasible;
	kp_sb_printf(sb, "attempts: %d; last attempt: %d of %d nodes passed every filter%s\n", ex->attempts, nfeas, ex->nnodes,
		     ex->preemption[0] && ex->chosen >= 0 && nfeas == 1 ? " (the node preemption nominated)" : "");
	const kp_explain_outcome *g = &x->got;
	if (!strcmp(g->action, "bind"))
		kp_sb_printf(sb, "decision: bind to %s\n", g->node);
	else if (!strcmp(g->action, "move"))
		kp_sb_printf(sb, "decision: move to %s%s%s%s\n", g->node, g->from_node[0] ? " (from " : "", g->from_node,
			     g->from_node[0] ? ")" : "");
	else if (!strcmp(g->action, "keep") && ex->chosen >= 0 && !strcmp(ex->nodes[ex->chosen].node, g->node))
		kp_sb_printf(sb, "decision: keep on %s (placed on the node it was on)\n", g->node);
	else if (!strcmp(g->action, "keep") && ex->chosen >= 0)   /* rebalance_run.c kp_rb_drop_move */
		kp_sb_printf(sb, "decision: keep on %s (the move to %s was proposed, then dropped: HighNodeUtilization moves all "
			     "of a node's pods or none)\n", g->node, ex->nodes[ex->chosen].node);
	else if (!strcmp(g->action, "keep"))
		kp_sb_printf(sb, "decision: keep on %s (no other node passes every filter)\n", g->node);
	else if (!strcmp(g->action, "unschedulable"))
		kp_sb_printf(sb, "decision: unschedulable: %s\n", g->message[0] ? g->message : ex->message);
	else
		kp_sb_printf(sb, "decision: %s%s%s\n", g->action, g->message[0] ? ": " : "", g->message);
	if (ex->chosen < 0 && ex->decisive[0])
		kp_sb_printf(sb, "decisive: %s (%s)\n", ex->decisive,
			     ex->decisive_static ? "no node passes the static filters: taints, selectors, node affinity, cordon"
					   : "the nodes that pass every static filter: taints, selectors, node affinity, cordon");
	if (x->run && x->recorded && !x->agrees)
		kp_sb_printf(sb, "warning: run %lld recorded '%s%s%s' — the database changed since that run, so this replay "
			     "explains a fresh plan instead\n", (long long)x->run, x->rec.action, x->rec.node[0] ? " " : "",
			     x->rec.node);
}

static void text_spread(kp_sb *sb, const kp_explain *ex)
{
	if (!ex->nspread)
		return;
	kp_sb_printf(sb, "\nspread constraints (DoNotSchedule): skew = matching pods in the domain + 1 if the pod matches "
		     "its own selector - the minimum\n");
	for (int k = 0; k < ex->nspread; k++) {
		const kp_explain_spread *sp = &ex->spread[k];
		kp_sb_printf(sb, "  %s, maxSkew %lld, minimum %lld%s:", sp->key, (long long)sp->max_skew, (long long)sp->min,
			     sp->self_match ? "" : " (the pod does not match its own selector)");
		for (int d = 0; d < sp->ndomains; d++) {
			const kp_explain_domain *dm = &sp->domains[d];
			if (dm->eligible)
				kp_sb_printf(sb, " %s %lld (skew %lld)%s", dm->value, (long long)dm->pods,
					     (long long)(dm->pods + sp->self_match - sp->min), d + 1 < sp->ndomains ? "," : "");
			else
				kp_sb_printf(sb, " %s not eligible%s", dm->value, d + 1 < sp->ndomains ? "," : "");
		}
		kp_sb_adds(sb, "\n");
	}
}

/* the numbers under a failing node */
static void text_numbers(kp_sb *sb, const kp_report_explain *e, int n)
{
	const kp_explain *ex = &e->x->ex;
	const kp_explain_node *en = &ex->nodes[n];
	char a[32], b[32], c[32], d[32];
	int fit = fails(e, en, "NodeResourcesFit"), spread = fails(e, en, "PodTopologySpread");
	for (int j = 0; fit && j < ex->nfit; j++) {
		const kp_explain_fit *f = &ex->fit[(size_t)n * (size_t)ex->nfit + (size_t)j];
		int64_t free = f->allocatable - f->used;
		const char *r = ex->fit_res[j];
		if (f->requested > free)
			kp_sb_printf(sb, "      %s: requested %s, free %s of %s (short %s)\n", r, amount(r, f->requested, a, sizeof a),
				     amount(r, free, b, sizeof b), amount(r, f->allocatable, c, sizeof c),
				     amount(r, f->requested - free, d, sizeof d));
	}
	for (int k = 0; spread && k < ex->nspread; k++) {
		const kp_explain_spread *sp = &ex->spread[k];
		int32_t dom = ex->spread_dom[(size_t)n * (size_t)ex->nspread + (size_t)k];
		if (dom < 0) {
			kp_sb_printf(sb, "      spread %s: the node has no such label\n", sp->key);
			continue;
		}
		const kp_explain_domain *dm = &sp->domains[dom];
		int64_t skew = dm->pods + sp->self_match - sp->min;
		if (skew > sp->max_skew)
			kp_sb_printf(sb, "      spread %s=%s: %lld matching pods + %d - minimum %lld = skew %lld > maxSkew %lld\n", sp->key,
				     dm->value, (long long)dm->pods, sp->self_match, (long long)sp->min, (long long)skew,
				     (long long)sp->max_skew);
	}
	static const char *const kinds[] = { "affinity", "anti-affinity", "existing pods' anti-affinity" };
	for (int i = 0; i < ex->nmatch; i++) {
		const kp_explain_match *m = &ex->match[i];
		if (m->node != n || !m->fails)
			continue;
		if (!m->value)
			kp_sb_printf(sb, "      %s %s: the node has no such label\n", kinds[m->kind], m->key);
		else if (m->kind == KP_EXPLAIN_AFFINITY)
			kp_sb_printf(sb, "      %s %s=%s: no pod there matches every required affinity term\n", kinds[m->kind], m->key,
				     m->value);
		else
			kp_sb_printf(sb, "      %s %s=%s: %lld matching pod%s: %s\n", kinds[m->kind], m->key, m->value, (long long)m->count,
				     m->count == 1 ? "" : "s", m->pods ? m->pods : "");
	}
	for (int i = 1; i < en->nfails; i++)
		kp_sb_printf(sb, "      also %s: %s\n", en->fails[i].plugin, en->fails[i].reasons);
}

static void text_nodes(kp_sb *sb, const kp_report_explain *e)
{
	const kp_explain_result *x = e->x;
	int top = e->top;
	const kp_explain *ex = &x->ex;
	if (top < ex->nnodes)
		kp_sb_printf(sb, "\nfilters (the %d closest of %d nodes):\n", top, ex->nnodes);
	else
		kp_sb_adds(sb, "\nfilters (closest first):\n");
	for (int i = 0; i < top; i++) {
		int n = x->order[i];
		const kp_explain_node *en = &ex->nodes[n];
		if (en->feasible) {
			kp_sb_printf(sb, "  %-28s passed\n", en->node);
			continue;
		}
		if (en->nfails)
			kp_sb_printf(sb, "  %-28s %s: %s\n", en->node, en->plugin, en->reason);
		else   /* not evaluated, or not a target of a rebalance move */
			kp_sb_printf(sb, "  %-28s %s\n", en->node, en->reason);
		text_numbers(sb, e, n);
	}
	if (!ex->scoring)
		return;
	kp_sb_printf(sb, "\nscores (raw -> normalised x weight):\n  %-28s", "node");
	for (int k = 0; k < e->nplugins && k < KP_EXPLAIN_PLUGINS; k++)
		if (ex->scored[k])
			kp_sb_printf(sb, " %s", e->plugins[k]);
	kp_sb_adds(sb, " | total\n");
	for (int i = 0; i < top; i++) {
		const kp_explain_node *en = &ex->nodes[x->order[i]];
		if (!en->feasible)
			continue;
		kp_sb_printf(sb, "  %-28s", en->node);
		for (int k = 0; k < e->nplugins && k < KP_EXPLAIN_PLUGINS; k++)
			if (ex->scored[k])
				kp_sb_printf(sb, " %lld->%lldx%lld", (long long)en->raw[k], (long long)en->norm[k], (long long)ex->weight[k]);
		kp_sb_printf(sb, " | %lld\n", (long long)en->total);
	}
}

static void text_why(kp_sb *sb, const kp_explain_result *x)
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
			kp_sb_printf(sb, "\nwhy %s: tied with %s at %lld; %s picked %s (%u > %u)\n", w->node,
				     second->node, (long long)w->total,
				     ex->tie_rank ? "the seeded node ranking (--tie-break node-rank, the same for every pod)"
						  : "the seeded tie-break hash",
				     w->node, w->tiebreak, second->tiebreak);
		else if (second)
			kp_sb_printf(sb, "\nwhy %s: highest total %lld (next: %s with %lld)\n", w->node, (long long)w->total, second->node,
				     (long long)second->total);
	} else if (ex->preemption[0]) {
		kp_sb_printf(sb, "\nwhy %s: preemption nominated it and it passed every filter there (no scoring)\n", w->node);
	} else {
		kp_sb_printf(sb, "\nwhy %s: the only node that passed every filter (no scoring)\n", w->node);
	}
}

int kp_report_explain_text(const kp_report_explain *e, kp_sb *sb)
{
	const kp_explain_result *x = e->x;
	text_decision(sb, e);
	if (x->ex.found) {
		if (x->ex.preemption[0])
			kp_sb_printf(sb, "\n%s", x->ex.preemption);
		if (x->ex.volumes[0])
			kp_sb_printf(sb, "\n%s", x->ex.volumes);
		if (x->ex.devices[0])
			kp_sb_printf(sb, "\n%s", x->ex.devices);
		text_spread(sb, &x->ex);
		text_nodes(sb, e);
		text_why(sb, x);
	}
	return kp_sb_ok(sb) ? KP_OK : KP_NOMEM;
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

static void json_node(kp_sb *sb, const kp_report_explain *e, int n, int rank)
{
	const kp_explain *ex = &e->x->ex;
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
	for (int k = 0, first = 1; en->feasible && k < e->nplugins && k < KP_EXPLAIN_PLUGINS; k++)
		if (ex->scored[k]) {
			kp_sb_printf(sb, "%s\"%s\":{\"raw\":%lld,\"normalized\":%lld,\"weight\":%lld}", first ? "" : ",",
				     e->plugins[k], (long long)en->raw[k], (long long)en->norm[k], (long long)ex->weight[k]);
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

int kp_report_explain_json(const kp_report_explain *e, kp_sb *sb)
{
	const kp_explain_result *x = e->x;
	const kp_explain *ex = &x->ex;
	const char *ns = e->ns, *name = e->name;
	int top = e->top;
	kp_sb_adds(sb, "{\"pod\":{\"namespace\":");
	kp_sb_add_json_str(sb, ns);
	kp_sb_adds(sb, ",\"name\":");
	kp_sb_add_json_str(sb, name);
	kp_sb_printf(sb, ",\"id\":%lld},\"run\":{\"id\":", (long long)x->pod_id);
	if (x->run)
		kp_sb_printf(sb, "%lld", (long long)x->run);
	else
		kp_sb_adds(sb, "null");
	kp_sb_printf(sb, ",\"seed\":%llu,\"mode\":\"%s\",\"scenario\":", (unsigned long long)x->seed, x->mode);
	kp_sb_add_json_str(sb, x->scenario);
	kp_sb_adds(sb, ",\"config\":");
	kp_sb_add_json_str(sb, x->config);
	kp_sb_adds(sb, ",\"configuration\":");
	kp_sb_add_json_str(sb, x->config_source);
	kp_sb_adds(sb, ",\"kube\":");
	kp_sb_add_json_str(sb, x->kube);
	kp_sb_printf(sb, ",\"no_preemption\":%s,\"reference\":%s},\"recorded\":", x->no_preemption ? "true" : "false",
		     x->reference ? "true" : "false");
	if (x->recorded)
		json_outcome(sb, &x->rec);
	else
		kp_sb_adds(sb, "null");
	kp_sb_adds(sb, ",\"decision\":");
	json_outcome(sb, &x->got);
	kp_sb_printf(sb, ",\"agrees\":%s,\"scheduled\":%s,\"attempts\":%d", !x->recorded ? "null" : x->agrees ? "true" : "false",
		     ex->found ? "true" : "false", ex->attempts);
	int nfeas = 0;
	for (int i = 0; i < ex->nnodes; i++)
		nfeas += ex->nodes[i].feasible;
	kp_sb_printf(sb, ",\"nodes_total\":%d,\"nodes_feasible\":%d,\"nodes_shown\":%d,\"decisive\":", ex->nnodes, nfeas, top);
	kp_sb_add_json_str(sb, ex->found && ex->chosen < 0 && ex->decisive[0] ? ex->decisive : NULL);
	kp_sb_adds(sb, ",\"preemption\":");
	kp_sb_add_json_str(sb, ex->preemption[0] ? ex->preemption : NULL);
	kp_sb_adds(sb, ",\"devices\":");
	kp_sb_add_json_str(sb, ex->devices[0] ? ex->devices : NULL);
	kp_sb_adds(sb, ",\"volumes\":");
	kp_sb_add_json_str(sb, ex->volumes[0] ? ex->volumes : NULL);
	json_spread(sb, ex);
	kp_sb_adds(sb, ",\"nodes\":[");
	for (int i = 0; i < top; i++) {
		if (i)
			kp_sb_addc(sb, ',');
		json_node(sb, e, x->order[i], i + 1);
	}
	kp_sb_adds(sb, "]}\n");
	return kp_sb_ok(sb) ? KP_OK : KP_NOMEM;
}

