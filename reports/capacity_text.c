/*
 * capacity_text.c — the text summary of a `kplan capacity` answer, rendered
 * from the answer's JSON (kp_capacity_answer.result, what --format json
 * prints and capacity_run.result keeps): the planner computes, this file
 * presents, from the JSON alone (no planner types).
 * docs/capacity-planning.md shows each form.
 */
#include "capacity_text.h"
#include "../common/json.h"
#include "../common/quantity.h"

#include <string.h>
#include <stdlib.h>
#include <stdio.h>

/* ---- reading the JSON ---- */

static const kp_json *get(const kp_json *o, const char *key)
{
	if (!o || o->type != KP_J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->items[2 * i]->str, key))
			return o->items[2 * i + 1];
	return NULL;
}

static const char *str(const kp_json *o, const char *key)
{
	const kp_json *v = get(o, key);
	return v && v->type == KP_J_STR ? v->str : NULL;
}

static long long num(const kp_json *o, const char *key)
{
	const kp_json *v = get(o, key);
	return v && v->type == KP_J_NUM ? strtoll(v->str, NULL, 10) : 0;
}

static double dbl(const kp_json *v)
{
	return v && v->type == KP_J_NUM ? strtod(v->str, NULL) : 0;
}

static int is_true(const kp_json *o, const char *key)
{
	const kp_json *v = get(o, key);
	return v && v->type == KP_J_BOOL && !strcmp(v->str, "true");
}

static int is_null(const kp_json *o, const char *key)
{
	const kp_json *v = get(o, key);
	return !v || v->type == KP_J_NULL;
}

static size_t len(const kp_json *o, const char *key)
{
	const kp_json *v = get(o, key);
	return v && v->type == KP_J_ARR ? v->n : 0;
}

static const kp_json *at(const kp_json *o, const char *key, size_t i)
{
	const kp_json *v = get(o, key);
	return v && v->type == KP_J_ARR && i < v->n ? v->items[i] : NULL;
}

static const char *s_(long long n)
{
	return n == 1 ? "" : "s";
}

/* ---- the parts every answer has ---- */

static void baseline(kp_sb *t, const kp_json *b)
{
	long long pending = num(b, "pending"), from = num(b, "from_run");
	if (from > 0)
		kp_sb_printf(t, "baseline: the state run %lld left (--from-run), planned as `kplan plan --from-run %lld` "
			     "plans it (preemption %s, seed %lld, ", from, from, is_true(b, "preemption") ? "on" : "off",
			     num(b, "seed"));
	else
		kp_sb_printf(t, "baseline: the cluster as it is, planned as `kplan plan` plans it (preemption %s, seed %lld, ",
			     is_true(b, "preemption") ? "on" : "off", num(b, "seed"));
	kp_sb_printf(t, "configuration %s%s%s): %lld pending pod%s: %lld placed, %lld unschedulable",
		     str(b, "config") ? str(b, "config") : "default", str(b, "kube") ? ", " : "", str(b, "kube") ? str(b, "kube") : "",
		     pending, s_(pending), num(b, "placed"),
		     num(b, "unschedulable"));
	if (num(b, "evicted") || num(b, "moved"))
		kp_sb_printf(t, "; preemption: %lld evicted, %lld moved", num(b, "evicted"), num(b, "moved"));
	if (num(b, "ignored"))
		kp_sb_printf(t, ", %lld left to other schedulers", num(b, "ignored"));
	kp_sb_printf(t, "; %lld bound pod%s kept\n", num(b, "kept"), s_(num(b, "kept")));
}

static void quality(kp_sb *t, const kp_json *q)
{
	if (!q)
		return;
	kp_sb_printf(t, "quality of %s (pools by label %s):\n%-30s %6s %10s %6s %6s %-28s %s\n", str(q, "plan"),
		     str(q, "pool_label"), "pool", "nodes", "nodes_used", "pods", "bound", "bound_by", "gap");
	for (size_t i = 0; i < len(q, "pools"); i++) {
		const kp_json *p = at(q, "pools", i);
		char gap[32] = "-";
		if (!is_null(p, "gap_pct"))
			snprintf(gap, sizeof gap, "%.1f %%", dbl(get(p, "gap_pct")));
		kp_sb_printf(t, "%-30s %6lld %10lld %6lld %6lld %-28s %s\n", str(p, "pool"), num(p, "nodes"), num(p, "nodes_used"),
			     num(p, "pods"), num(p, "bound"), str(p, "bound_by") ? str(p, "bound_by") : "-", gap);
	}
	int stranded = 0;
	for (size_t i = 0; i < len(q, "stranded"); i++)
		stranded += num(at(q, "stranded", i), "stranded") > 0;
	if (!stranded) {
		kp_sb_adds(t, "stranded capacity: none\n");
		return;
	}
	kp_sb_adds(t, "stranded capacity (free on used nodes where another resource is exhausted):\n");
	for (size_t i = 0; i < len(q, "stranded"); i++) {
		const kp_json *p = at(q, "stranded", i);
		if (num(p, "stranded") <= 0)
			continue;
		const char *res = str(p, "resource");
		char st[64], al[64];
		kp_capacity_fmt_amount(res, num(p, "stranded"), st, sizeof st);
		kp_capacity_fmt_amount(res, num(p, "allocatable"), al, sizeof al);
		kp_sb_printf(t, "  %s: %s %s of %s (%.1f %%) on %lld of %lld used nodes; exhausted: %s\n", str(p, "pool"), res, st,
			     al, dbl(get(p, "stranded_pct")), num(p, "stranded_nodes"), num(p, "nodes"),
			     str(p, "exhausted_by") ? str(p, "exhausted_by") : "-");
	}
}

/* ---- --pod / --workload ---- */

static void fit(kp_sb *t, const kp_json *j, const char *reason)
{
	long long fits = num(j, "fits");
	kp_sb_printf(t, "%lld more replica%s of %s (requests: %s) fit%s after the pending pods (%lld of them unschedulable); "
		     "%lld tried%s\n", fits, s_(fits), str(j, "subject"), str(j, "requests"), fits == 1 ? "s" : "",
		     num(j, "pending_unschedulable"), num(j, "tried"),
		     is_true(j, "max_default") ? " (the bound from free capacity, plus 1)" : "");
	const kp_json *g = get(j, "gang");
	if (g)   /* copies in gangs (docs/gangs.md) */
		kp_sb_printf(t, "in gangs of %lld (minCount %lld): %lld whole gang%s of %lld tried bound\n", num(g, "size"),
			     num(g, "min_count"), num(g, "fit"), s_(num(g, "fit")), num(g, "tried"));
	baseline(t, get(j, "baseline"));
	if (str(j, "next_reason"))
		kp_sb_printf(t, "the next one does not fit: %s\n", str(j, "next_reason"));
	else
		kp_sb_printf(t, "%s\n", reason ? reason : "");
	if (fits)
		kp_sb_printf(t, "%-30s %-24s %s\n", "node", "pool", "replicas");
	for (size_t i = 0; i < len(j, "nodes"); i++) {
		const kp_json *n = at(j, "nodes", i);
		kp_sb_printf(t, "%-30s %-24s %lld\n", str(n, "node"), str(n, "pool"), num(n, "replicas"));
	}
	kp_sb_printf(t, "per pool (label %s):\n%-30s %6s %10s %s\n", str(j, "pool_label"), "pool", "nodes", "nodes_used",
		     "replicas");
	for (size_t i = 0; i < len(j, "pools"); i++) {
		const kp_json *p = at(j, "pools", i);
		kp_sb_printf(t, "%-30s %6lld %10lld %lld\n", str(p, "pool"), num(p, "nodes"), num(p, "nodes_used"),
			     num(p, "replicas"));
	}
}

/* ---- --nodes-needed ---- */

static void never_fit(kp_sb *t, const kp_json *j)
{
	long long nv = num(j, "never_fit_count");
	if (!nv)
		return;
	kp_sb_printf(t, "%lld pending pod%s can never fit on nodes like %s: not even an empty one (only its DaemonSet pods) "
		     "passes %s taints, nodeSelector, node affinity, volumes' topology and device claims or has room for %s requests; "
		     "left out "
		     "of the count:\n",
		     nv, s_(nv), str(j, "template"), nv == 1 ? "its" : "their", nv == 1 ? "its" : "their");
	size_t n = len(j, "never_fit");
	for (size_t i = 0; i < n; i++) {
		const kp_json *p = at(j, "never_fit", i);
		kp_sb_printf(t, "  %s/%s: %s\n", str(p, "namespace"), str(p, "pod"), str(p, "reason"));
	}
	if (nv > (long long)n)
		kp_sb_printf(t, "  ... (%lld more)\n", nv - (long long)n);
}

/* one template's lines; the baseline line after the first when base is given */
static void template_text(kp_sb *t, const kp_json *j, const kp_json *base)
{
	const char *tmpl = str(j, "template"), *by = str(j, "lower_bound_by");
	long long nodes = num(j, "nodes"), fitting = num(j, "unschedulable_fitting"), nv = num(j, "never_fit_count");
	long long below_u = num(j, "unschedulable_below");
	/* a template with GPUs as devices: say how many each node brings */
	char gpus[64] = "";
	const kp_json *tg = get(j, "template_gpus");
	if (tg && tg->type == KP_J_NUM)
		snprintf(gpus, sizeof gpus, " (%s GPU%s each)", tg->str, dbl(tg) == 1 ? "" : "s");
	if (!strcmp(str(j, "status"), "not-found")) {
		long long left = num(j, "left_out_count");
		kp_sb_printf(t, "not found: with %lld nodes like %s (--max-nodes) pods are still unschedulable; lower bound %lld\n",
			     num(j, "max_nodes"), tmpl, num(j, "lower_bound"));
		if (base)
			baseline(t, base);
		kp_sb_printf(t, "with %lld added, %lld pod%s left out; an empty node like this passes %s taints, nodeSelector "
			     "and node affinity and has room for %s requests, so the pods placed before %s took the room, or "
			     "pod (anti-)affinity, spread constraints or host ports keep %s off:\n", num(j, "left_out_with"), left,
			     left == 1 ? " is" : "s are", left == 1 ? "its" : "their", left == 1 ? "its" : "their",
			     left == 1 ? "it" : "them", left == 1 ? "it" : "them");
		size_t n = len(j, "left_out");
		for (size_t i = 0; i < n; i++) {
			const kp_json *p = at(j, "left_out", i);
			kp_sb_printf(t, "  %s/%s: %s\n", str(p, "namespace"), str(p, "pod"), str(p, "reason"));
		}
		if (left > (long long)n)
			kp_sb_printf(t, "  ... (%lld more)\n", left - (long long)n);
		return;
	}
	if (nodes == 0)
		kp_sb_printf(t, "0 nodes like %s needed: every pending pod%s fits already\n", tmpl, nv ? " that can fit on one" : "");
	else
		kp_sb_printf(t, "%lld node%s like %s%s needed for the %lld unschedulable pending pod%s%s (lower bound from total "
			     "requests: %lld%s%s); checked: with %lld, %lld pod%s unschedulable\n", nodes, s_(nodes), tmpl, gpus, fitting,
			     s_(fitting), nv ? " that can fit on one" : "", num(j, "lower_bound"), by ? ", by " : "", by ? by : "",
			     num(j, "checked_below"), below_u, below_u == 1 ? " stays" : "s stay");
	if (base)
		baseline(t, base);
	kp_sb_printf(t, "lower bound: %s\n", str(j, "lower_bound_detail"));
	never_fit(t, j);
}

static void nodes_needed(kp_sb *t, const kp_json *j)
{
	size_t n = len(j, "templates");
	if (!n) {
		template_text(t, j, get(j, "baseline"));
	} else {
		const char *best = str(j, "template");
		const kp_json *b = NULL;
		for (size_t i = 0; i < n && best; i++)
			if (!strcmp(str(at(j, "templates", i), "template"), best))
				b = at(j, "templates", i);
		if (b)
			kp_sb_printf(t, "smallest: %lld node%s like %s, %lld pending pod%s left out as never fitting (%zu templates "
				     "asked; the fewest pods left out first, then the fewest nodes)\n", num(b, "nodes"),
				     s_(num(b, "nodes")), best, num(b, "never_fit_count"), s_(num(b, "never_fit_count")), n);
		else
			kp_sb_printf(t, "not found with any of the %zu templates within --max-nodes\n", n);
		baseline(t, get(j, "baseline"));
		for (size_t i = 0; i < n; i++) {
			kp_sb_printf(t, "template %zu of %zu: ", i + 1, n);
			template_text(t, at(j, "templates", i), NULL);
		}
	}
	kp_sb_printf(t, "%lld plan runs\n", num(j, "plans"));
}

/* ---- --survive ---- */

static void headroom(kp_sb *t, const kp_json *r)
{
	int nh = 0;
	for (size_t i = 0; i < len(r, "headroom"); i++) {
		const kp_json *h = at(r, "headroom", i);
		const char *res = str(h, "resource");
		long long alloc = num(h, "allocatable");
		if (strcmp(res, "cpu") && strcmp(res, "memory") && strcmp(res, "pods") && !alloc)
			continue;
		char f[64], al[64];
		kp_capacity_fmt_amount(res, num(h, "free"), f, sizeof f);
		kp_capacity_fmt_amount(res, alloc, al, sizeof al);
		kp_sb_printf(t, "%s%s %s of %s", nh++ ? ", " : "", res, f, al);
	}
}

static void pods(kp_sb *t, const kp_json *r, const char *key, const char *change, long long total)
{
	size_t n = len(r, key);
	for (size_t i = 0; i < n; i++) {
		const kp_json *p = at(r, key, i);
		kp_sb_printf(t, "  %s %s/%s (priority %lld)", change, str(p, "namespace"), str(p, "pod"), num(p, "priority"));
		if (!strcmp(change, "loses"))
			kp_sb_printf(t, ": %s", str(p, "reason"));
		kp_sb_adds(t, "\n");
	}
	if (total > (long long)n)
		kp_sb_printf(t, "  %s ... (%lld more)\n", change, total - (long long)n);
}

static void survive(kp_sb *t, const kp_json *j, const char *what, const char *reason)
{
	const char *label = str(j, "label");
	long long nd = num(j, "domains"), ne = num(j, "evaluated"), bu = num(j, "baseline_unschedulable");
	kp_sb_printf(t, "losing one %s: %lld of %lld %ss evaluated%s; without a failure %lld pod%s %s unschedulable\n", what, ne,
		     nd, what, ne < nd ? " (the most loaded, --limit)" : "", bu, s_(bu), bu == 1 ? "is" : "are");
	baseline(t, get(j, "baseline"));
	if (str(j, "replan_why"))
		kp_sb_printf(t, "re-planned: every pod planned again without each %s, the baseline's placements not kept (%s)\n",
			     what, str(j, "replan_why"));
	kp_sb_printf(t, "%-28s %5s %9s %5s %13s %-8s %s\n", what, "nodes", "displaced", "lost", "unschedulable", "survives",
		     "headroom after re-placement (free of allocatable)");
	for (size_t i = 0; i < len(j, "results"); i++) {
		const kp_json *r = at(j, "results", i);
		kp_sb_printf(t, "%-28s %5lld %9lld %5lld %13lld %-8s ", str(r, "domain"), num(r, "nodes"), num(r, "pods_displaced"),
			     num(r, "pods_lost"), num(r, "unschedulable"), is_true(r, "survives") ? "yes" : "no");
		headroom(t, r);
		kp_sb_adds(t, "\n");
		pods(t, r, "lost", "loses", num(r, "pods_lost"));
		pods(t, r, "gained", "gains", num(r, "pods_gained"));
	}
	if (reason)
		kp_sb_printf(t, "worst: %s\n", reason);
	if (!ne) {
		kp_sb_printf(t, "no %s to lose%s%s%s: no verdict\n", what, label ? " (no node has the label " : "",
			     label ? label : "", label ? ")" : "");
		return;
	}
	int fails = !is_true(j, "survives");
	kp_sb_printf(t, "%s: %s\n", fails ? "does not survive" : "survives",
		     fails ? "losing some of them leaves pods placed in the baseline without a node"
			   : "every pod placed in the baseline is placed again after losing any one of them");
}

int kp_report_capacity_text(const char *json, const char *subject, const char *reason, kp_sb *t)
{
	kp_arena ar;
	kp_arena_init(&ar, 1 << 16);
	const kp_json *j = kp_json_parse(json, &ar);
	int rc = KP_PARSE;
	if (j && str(j, "kind")) {
		const char *kind = str(j, "kind");
		if (!strcmp(kind, "pod"))
			fit(t, j, reason);
		else if (!strcmp(kind, "nodes-needed"))
			nodes_needed(t, j);
		else
			survive(t, j, subject, reason);
		quality(t, get(j, "quality"));
		rc = kp_sb_ok(t) ? KP_OK : KP_NOMEM;
	}
	kp_arena_release(&ar);
	return rc;
}
