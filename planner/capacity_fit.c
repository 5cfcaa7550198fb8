/*
 * capacity_fit.c — `kplan capacity --pod FILE | --workload NS/NAME`: how many
 * more replicas of a spec fit after the pending pods, where (per node and
 * pool), and why the next one does not (docs/capacity-planning.md).
 *
 * The baseline, then a probe run with one copy (it checks the file or the
 * workload and gives the spec's class: its requests and the default --max),
 * then one run with --max copies (what-if add-pods FILE:N or scale NS/W=+N):
 * the copies placed are the answer, the first one left out says why.
 */
#include "capacity_int.h"

#include <string.h>
#include <stdio.h>

typedef struct node_pool {
	int64_t id;
	char *name, *pool;
	long replicas;
} node_pool;

static int load_nodes(cap *c, node_pool **out, int *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *s = cap_prepare(c, kp_sql_capacity_node_pools);
	if (!s)
		return c->err->code;
	sqlite3_bind_text(s, 1, c->pool_label, -1, SQLITE_STATIC);
	int cap_ = 0, rc = KP_OK, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (KP_GROW(*out, *n, cap_, 64)) {
			rc = cap_nomem(c);
			break;
		}
		node_pool *x = &(*out)[(*n)++];
		x->id = sqlite3_column_int64(s, 0);
		x->name = kp_strdup((const char *)sqlite3_column_text(s, 1));
		x->pool = kp_strdup((const char *)sqlite3_column_text(s, 2));
		x->replicas = 0;
		if (!x->name || !x->pool) {
			rc = cap_nomem(c);
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = cap_step_fail(c, s);
	sqlite3_finalize(s);
	return rc;
}

static void nodes_release(node_pool *v, int n)
{
	for (int i = 0; i < n; i++) {
		kp_free(v[i].name);
		kp_free(v[i].pool);
	}
	kp_free(v);
}

/* The default --max: over the nodes, the replicas the free capacity (allocatable
 * minus the bound pods' requests; free pod slots) holds for the scarcest
 * resource the pod requests, plus 1; KP_CAPACITY_MAX_REPLICAS when a node has
 * no limit (queries/capacity/default_max.sql). */
int cap_default_max(cap *c, int64_t class_id, int64_t *out)
{
	sqlite3_stmt *s = cap_prepare(c, kp_sql_capacity_default_max);
	if (!s)
		return c->err->code;
	sqlite3_bind_int64(s, 1, class_id);
	sqlite3_bind_int64(s, 2, KP_CAPACITY_MAX_REPLICAS);
	int step = sqlite3_step(s);
	int64_t sum = step == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	int64_t unlimited = step == SQLITE_ROW ? sqlite3_column_int64(s, 1) : 0;
	int rc = step == SQLITE_ROW ? KP_OK : cap_step_fail(c, s);
	sqlite3_finalize(s);
	if (rc)
		return rc;
	*out = unlimited || sum + 1 > KP_CAPACITY_MAX_REPLICAS ? KP_CAPACITY_MAX_REPLICAS : sum + 1;
	return KP_OK;
}

int cap_requests_text(cap *c, int64_t class_id, kp_sb *sb)
{
	sqlite3_stmt *s = cap_prepare(c, kp_sql_capacity_requests);
	if (!s)
		return c->err->code;
	sqlite3_bind_int64(s, 1, class_id);
	int n = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		char buf[64];
		const char *res = (const char *)sqlite3_column_text(s, 0);
		kp_capacity_fmt_amount(res, sqlite3_column_int64(s, 1), buf, sizeof buf);
		kp_sb_printf(sb, "%s%s %s", n++ ? ", " : "", res, buf);
	}
	sqlite3_finalize(s);
	if (!n)
		kp_sb_adds(sb, "nothing");
	return KP_OK;
}

/* what-if option for n copies of the spec */
static void copies_opt(const kp_capacity_opts *o, long n, char *opt, size_t size, const char **name)
{
	if (o->pod_file) {
		snprintf(opt, size, "%s:%ld", o->pod_file, n);
		*name = "add-pods";
	} else {
		snprintf(opt, size, "%s=+%ld", o->workload, n);
		*name = "scale";
	}
}

/* the replicas per node (those with some) and per pool (every pool): JSON and rows */
static int per_node_pool(cap *c, node_pool *nodes, int nn)
{
	kp_sb *j = &c->a->result;
	int rc = KP_OK, first = 1;
	kp_sb_adds(j, ",\"nodes\":[");
	for (int i = 0; i < nn && !rc; i++) {
		if (!nodes[i].replicas)
			continue;
		kp_sb_adds(j, first ? "{\"node\":" : ",{\"node\":");
		first = 0;
		kp_sb_add_json_str(j, nodes[i].name);
		kp_sb_adds(j, ",\"pool\":");
		kp_sb_add_json_str(j, nodes[i].pool);
		kp_sb_printf(j, ",\"replicas\":%ld}", nodes[i].replicas);
		rc = cap_add_row(c, T_NODE, nodes[i].name, nodes[i].pool, nodes[i].replicas, 0, 0, 0, 0, 0);
	}
	kp_sb_adds(j, "],\"pools\":[");
	/* pools in name order: a simple selection over the few pool names */
	first = 1;
	char last[512] = "";
	int have_last = 0;
	for (;;) {
		const char *next = NULL;
		for (int i = 0; i < nn; i++)
			if ((!have_last || strcmp(nodes[i].pool, last) > 0) && (!next || strcmp(nodes[i].pool, next) < 0))
				next = nodes[i].pool;
		if (!next || rc)
			break;
		snprintf(last, sizeof last, "%s", next);
		have_last = 1;
		long pn = 0, used = 0, reps = 0;
		for (int i = 0; i < nn; i++)
			if (!strcmp(nodes[i].pool, last)) {
				pn++;
				used += nodes[i].replicas > 0;
				reps += nodes[i].replicas;
			}
		kp_sb_adds(j, first ? "{\"pool\":" : ",{\"pool\":");
		first = 0;
		kp_sb_add_json_str(j, last);
		kp_sb_printf(j, ",\"nodes\":%ld,\"nodes_used\":%ld,\"replicas\":%ld}", pn, used, reps);
		rc = cap_add_row(c, T_POOL, last, NULL, pn, used, reps, 0, 0, 0);
	}
	kp_sb_adds(j, "]}");
	return rc;
}

/* the answer of the run with the copies, in the JSON */
static void fit_summary(cap *c, const outcome *run, const kp_sb *req, int64_t max, int defaulted)
{
	kp_capacity_answer *a = c->a;
	long fits = run->copies_placed, pending_unsched = c->base_r.unschedulable;
	int limited = run->first_fail_id != 0;
	kp_sb *j = &a->result;
	kp_sb_adds(j, "{\"kind\":\"pod\",\"subject\":");
	kp_sb_add_json_str(j, a->subject);
	kp_sb_adds(j, ",\"requests\":");
	kp_sb_add_json_str(j, kp_sb_str(req));
	kp_sb_printf(j, ",\"fits\":%ld,\"tried\":%lld,\"max_default\":%s,\"pending_unschedulable\":%ld,\"next_reason\":", fits,
		     (long long)max, defaulted ? "true" : "false", pending_unsched);
	kp_sb_add_json_str(j, limited ? a->reason : NULL);
	if (run->gangs)   /* the copies came in gangs (docs/gangs.md) */
		kp_sb_printf(j, ",\"gang\":{\"size\":%ld,\"min_count\":%ld,\"tried\":%ld,\"fit\":%ld}", (long)run->gang_size,
			     (long)run->gang_min, run->gangs, run->gangs_placed);
	kp_sb_adds(j, ",\"pool_label\":");
	kp_sb_add_json_str(j, c->pool_label);
}

int cap_fit(cap *c)
{
	const kp_capacity_opts *o = c->o;
	kp_capacity_answer *a = c->a;
	char opt[2200];
	const char *wo[2];
	outcome base, probe, run;
	memset(&run, 0, sizeof run);
	/* the baseline */
	int rc = cap_plan_once(c, NULL, 0, &base);
	c->base_r = base.r;
	cap_outcome_release(&base);
	if (rc)
		return rc;
	/* probe: one copy (checks the file or the workload; gives the spec's class) */
	copies_opt(o, 1, opt, sizeof opt, &wo[0]);
	wo[1] = opt;
	kp_sb req;
	kp_sb_init(&req);
	c->probe = 1;
	c->probe_req = &req;
	rc = cap_plan_once(c, wo, 1, &probe);
	c->probe = 0;
	int64_t gang_size = probe.gang_cur ? probe.gang_size : 0;
	cap_outcome_release(&probe);
	int64_t max = o->max;
	int defaulted = max <= 0;
	if (defaulted)
		max = c->probe_max;
	if (gang_size > 1)   /* copies in gangs: whole gangs only */
		max = (max + gang_size - 1) / gang_size * gang_size;
	snprintf(a->subject, sizeof a->subject, "%s", o->pod_file ? o->pod_file : o->workload);
	copies_opt(o, (long)max, opt, sizeof opt, &wo[0]);
	c->want_quality = 1;
	if (!rc)
		rc = cap_plan_once(c, wo, 1, &run);
	c->want_quality = 0;
	node_pool *nodes = NULL;
	int nn = 0;
	if (!rc)
		rc = load_nodes(c, &nodes, &nn);
	if (rc)
		goto out;
	/* replicas per node: node ids sorted, counted, matched to the sorted nodes */
	kp_sort(run.copy_nodes, (size_t)run.ncopy_nodes, sizeof *run.copy_nodes, kp_cmp_i64, NULL);
	for (long i = 0, k = 0; i < run.ncopy_nodes; i++) {
		while (k < nn && nodes[k].id < run.copy_nodes[i])
			k++;
		if (k < nn && nodes[k].id == run.copy_nodes[i])
			nodes[k].replicas++;
	}
	cap_gang_close(&run);
	long fits = run.copies_placed;
	cap_qual_take(&c->q, &run.q);
	snprintf(c->q_of, sizeof c->q_of, "the plan with the %ld replica%s placed", fits, fits == 1 ? "" : "s");
	a->kind = "pod";
	a->value = fits;
	a->bound = max;
	int limited = run.first_fail_id != 0;
	a->status = limited ? "limited" : "max-reached";
	a->reason = kp_strdup(limited ? run.first_fail_msg
				      : "--max reached: every replica tried fits (more may fit; raise --max)");
	if (!a->reason) {
		rc = cap_nomem(c);
		goto out;
	}
	fit_summary(c, &run, &req, max, defaulted);
	rc = per_node_pool(c, nodes, nn);
out:
	nodes_release(nodes, nn);
	cap_outcome_release(&run);
	kp_sb_release(&req);
	return rc;
}
