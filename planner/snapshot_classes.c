/*
 * snapshot_classes.c — the scheduling classes of the snapshot (kp_class in
 * snapshot.h): one row of pod_class per distinct pod spec, with its resolved
 * priority, requests, images, nodeSelector, tolerations, node affinity, pod
 * (anti-)affinity, topology spread constraints and host ports, read from the
 * class_* tables by the queries of queries/snapshot/class*.sql.  Called by
 * kp_snap_load after the nodes (a request names a resource index); classes
 * stay in id order, kp_ld_class finds one by id.  Returns KP_OK or the
 * first error (in L->err).
 */
#include "snapshot_int.h"
#include "../common/priority.h"
#include "scores.h"   /* KP_TOL_* */

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

int kp_ld_class(const kp_loader *L, int64_t id)
{
	return (int)kp_find_i64(L->class_ids, (size_t)L->s->nclasses, id);
}

/* For every class with rows counted by sql (class_id, count), allocate
 * count * elem bytes at the pointer member at byte offset `off` of its
 * kp_class. */
static int alloc_per_class(kp_loader *L, const char *sql, size_t off, size_t elem)
{
	sqlite3_stmt *st;
	int rc = KP_OK;
	if (kp_ld_prepare(L, sql, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int ci = kp_ld_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		void **slot = (void **)((char *)&L->s->classes[ci] + off);
		if (!(*slot = kp_ld_alloc(L, (size_t)sqlite3_column_int(st, 1) * elem)))
			rc = kp_ld_nomem(L);
	}
	sqlite3_finalize(st);
	return rc;
}

/* the classes, in id order; priority resolved as the Priority admission
 * plugin does (pod_priority view), the API server's built-in classes known
 * without an import (queries/snapshot/classes.sql) */
static int load_class_rows(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	if (kp_ld_count(L, "SELECT count(*) FROM pod_class", &s->nclasses))
		return L->err->code;
	s->classes = kp_calloc((size_t)(s->nclasses ? s->nclasses : 1), sizeof *s->classes);
	L->class_ids = kp_malloc((size_t)(s->nclasses ? s->nclasses : 1) * sizeof *L->class_ids);
	if (!s->classes || !L->class_ids)
		return kp_ld_nomem(L);
	/* classes.sql spells out KP_KNOWN_PRIORITY_CLASSES, as schema.sql's
	 * pod_priority view does: all three must resolve alike */
	assert(strstr(kp_sql_snapshot_classes, KP_KNOWN_PRIORITY_CLASSES));
	if (kp_ld_prepare(L, kp_sql_snapshot_classes, &st))
		return L->err->code;
	int i = 0;
	while (sqlite3_step(st) == SQLITE_ROW && i < s->nclasses) {
		kp_class *c = &s->classes[i];
		c->db_id = L->class_ids[i] = sqlite3_column_int64(st, 0);
		c->ns = kp_ld_intern(L, sqlite3_column_text(st, 1));
		c->sched = kp_ld_intern(L, sqlite3_column_text(st, 2));
		c->priority = sqlite3_column_int64(st, 3);
		c->preempt_never = !strcmp(kp_ld_col(st, 4), "Never");
		c->nz_cpu = sqlite3_column_int64(st, 5);
		c->nz_mem = sqlite3_column_int64(st, 6);
		c->gated = sqlite3_column_int(st, 7) > 0;
		c->pvc = sqlite3_column_int(st, 8);
		c->has_required_affinity = (uint8_t)sqlite3_column_int(st, 9);
		if (sqlite3_column_int(st, 10))
			c->missing_pc = 1;   /* names a PriorityClass that does not exist */
		i++;
	}
	sqlite3_finalize(st);
	return KP_OK;
}

/* Run sql (class_id first) and hand each row of a known class to fn, until
 * fn fails: every class_* table below is read this way.  KP_OK or the first
 * error. */
typedef int (*class_row_fn)(kp_loader *L, kp_class *c, sqlite3_stmt *st);

static int each_class_row(kp_loader *L, const char *sql, class_row_fn fn)
{
	sqlite3_stmt *st;
	int rc = KP_OK;
	if (kp_ld_prepare(L, sql, &st))
		return L->err->code;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		int ci = kp_ld_class(L, sqlite3_column_int64(st, 0));
		if (ci >= 0)
			rc = fn(L, &L->s->classes[ci], st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* requests: sparse (resource index, value) pairs */
static int request_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	const kp_snap *s = L->s;
	kp_sid r = kp_strtab_find(&s->strs, kp_ld_col(st, 1));
	if (r < 0)
		return KP_OK;
	for (int k = 0; k < s->nres; k++)
		if (s->res_name[k] == r) {
			c->req_res[c->nreq] = (uint16_t)k;
			c->req_val[c->nreq++] = sqlite3_column_int64(st, 2);
		}
	return KP_OK;
}

/* containers -> images (normalised: a name without a tag gets ":latest") */
static int container_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	c->ncontainers = (uint32_t)sqlite3_column_int(st, 1);
	if (!(c->images = kp_ld_alloc(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_sid))))
		return kp_ld_nomem(L);
	return KP_OK;
}

static int image_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	const char *img = kp_ld_col(st, 1);
	const char *slash = strrchr(img, '/'), *colon = strrchr(img, ':');
	char buf[1024];
	if (!strchr(img, '@') && (!colon || (slash && colon < slash)))
		snprintf(buf, sizeof buf, "%s:latest", img);
	else
		snprintf(buf, sizeof buf, "%s", img);
	c->images[c->nimages++] = kp_strtab_intern(&L->s->strs, buf);
	return KP_OK;
}

/* nodeSelector */
static int node_selector_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	c->nsel[c->nnsel].key = kp_ld_intern(L, sqlite3_column_text(st, 1));
	c->nsel[c->nnsel++].value = kp_ld_intern(L, sqlite3_column_text(st, 2));
	return KP_OK;
}

/* tolerations, in spec order */
static int toleration_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	kp_tol *t = &c->tols[c->ntols++];
	t->key = kp_ld_col(st, 1)[0] ? kp_ld_intern(L, sqlite3_column_text(st, 1)) : -1;
	const char *op = kp_ld_col(st, 2);
	t->exists = !strcmp(op, "Exists");
	t->value = kp_ld_intern(L, sqlite3_column_text(st, 3));
	/* Gt / Lt: compare with the gate on, else tolerate nothing (toleration.go) */
	if (!strcmp(op, "Gt") || !strcmp(op, "Lt")) {
		t->cmp = !kp_kube_on(&L->s->kube, KP_FG_TAINT_TOLERATION_COMPARISON_OPERATORS) ? KP_TOL_NEVER
			 : op[0] == 'G' ? KP_TOL_GT : KP_TOL_LT;
		t->num_ok = (uint8_t)kp_snap_parse_i64(kp_ld_col(st, 3), &t->num);
	}
	int e = kp_ld_effect(kp_ld_col(st, 4));
	t->effect = (uint8_t)(e < 0 ? KP_EFFECT_ANY : e);
	return KP_OK;
}

/* node affinity: the terms (required and preferred), then their requirements */
static int node_term_count_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	int cnt = sqlite3_column_int(st, 2);
	kp_nterm *v = kp_ld_alloc(L, (size_t)cnt * sizeof *v);
	if (!v)
		return kp_ld_nomem(L);
	if (sqlite3_column_int(st, 1))
		c->required = v;
	else
		c->preferred = v;
	return KP_OK;
}

static int node_term_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	int req = sqlite3_column_int(st, 1);
	kp_nterm *t = req ? &c->required[c->nrequired++] : &c->preferred[c->npreferred++];
	t->weight = sqlite3_column_int64(st, 3);
	int ne = sqlite3_column_int(st, 4), nf = sqlite3_column_int(st, 5);
	t->exprs = kp_ld_alloc(L, (size_t)ne * sizeof(kp_sreq));
	t->fields = kp_ld_alloc(L, (size_t)nf * sizeof(kp_sreq));
	return t->exprs && t->fields ? KP_OK : kp_ld_nomem(L);
}

static int node_expr_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	int req = sqlite3_column_int(st, 1), term = sqlite3_column_int(st, 2);
	kp_nterm *t = req ? c->required : c->preferred;
	uint32_t nt = req ? c->nrequired : c->npreferred;
	if ((uint32_t)term >= nt)
		return KP_OK;
	t = &t[term];
	int field = sqlite3_column_int(st, 3);
	kp_sreq *r = field ? &t->fields[t->nfields++] : &t->exprs[t->nexprs++];
	kp_json *vals = kp_json_parse(kp_ld_col(st, 6), &L->tmp);
	return kp_ld_req(L, r, kp_ld_col(st, 4), kp_ld_col(st, 5), vals, "node affinity");
}

/* pod (anti-)affinity terms, and the summaries has_req_aff, has_req_anti, has_pref_pod */
static int pod_term_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	kp_pterm *t = &c->pterms[c->npterms++];
	t->anti = (uint8_t)sqlite3_column_int(st, 1);
	t->required = (uint8_t)sqlite3_column_int(st, 2);
	t->weight = sqlite3_column_int64(st, 3);
	t->topo = kp_ld_intern(L, sqlite3_column_text(st, 4));
	int rc = kp_ld_sel(L, kp_ld_col(st, 5), &t->sel);
	if (!rc)
		rc = kp_ld_strs(L, kp_ld_col(st, 6), &t->ns, &t->nns);
	if (!rc)
		rc = kp_ld_sel(L, kp_ld_col(st, 7), &t->ns_sel);
	if (!rc)
		rc = kp_ld_strs(L, kp_ld_col(st, 8), &t->mlk, &t->nmlk);
	if (!rc)
		rc = kp_ld_strs(L, kp_ld_col(st, 9), &t->mmlk, &t->nmmlk);
	if (t->required && !t->anti)
		c->has_req_aff = 1;
	if (t->required && t->anti)
		c->has_req_anti = 1;
	if (!t->required)
		c->has_pref_pod = 1;
	return rc;
}

/* topology spread constraints */
static int spread_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	kp_spread *sp = &c->spreads[c->nspreads++];
	sp->max_skew = sqlite3_column_int64(st, 1);
	sp->topo = kp_ld_intern(L, sqlite3_column_text(st, 2));
	sp->hard = !strcmp(kp_ld_col(st, 3), "DoNotSchedule");
	int rc = kp_ld_sel(L, kp_ld_col(st, 4), &sp->sel);
	sp->min_domains = sqlite3_column_type(st, 5) == SQLITE_NULL ? 1 : sqlite3_column_int64(st, 5);
	sp->honor_affinity = strcmp(kp_ld_col(st, 6), "Ignore") != 0;
	sp->honor_taints = !strcmp(kp_ld_col(st, 7), "Honor");
	if (!rc)
		rc = kp_ld_strs(L, kp_ld_col(st, 8), &sp->mlk, &sp->nmlk);
	return rc;
}

/* host ports; a sidecar's only from kube 1.34 (node_ports.go getContainerPorts
 * counts restartable init containers since PR #132040, in v1.34.0 and
 * cherry-picked to a 1.33 patch: kplan plans 1.33 as 1.33.0) */
static int port_row(kp_loader *L, kp_class *c, sqlite3_stmt *st)
{
	if (sqlite3_column_int(st, 4) && L->s->kube.minor < 34)
		return KP_OK;
	kp_hport *p = &c->ports[c->nports++];
	p->ip = kp_ld_intern(L, sqlite3_column_text(st, 1));
	p->proto = kp_ld_intern(L, sqlite3_column_text(st, 2));
	p->port = sqlite3_column_int(st, 3);
	return KP_OK;
}

#define PER_CLASS(count_sql, member, type) alloc_per_class(L, count_sql, offsetof(kp_class, member), sizeof(type))

int kp_snap_load_classes(kp_loader *L)
{
	int rc = load_class_rows(L);
	if (!rc && !(rc = PER_CLASS(kp_sql_snapshot_class_request_count, req_res, uint16_t)) &&
	    !(rc = PER_CLASS(kp_sql_snapshot_class_request_count, req_val, int64_t)))
		rc = each_class_row(L, kp_sql_snapshot_class_request, request_row);
	if (!rc && !(rc = each_class_row(L, kp_sql_snapshot_class_container_count, container_row)))
		rc = each_class_row(L, kp_sql_snapshot_class_image, image_row);
	if (!rc && !(rc = PER_CLASS(kp_sql_snapshot_class_node_selector_count, nsel, kp_label)))
		rc = each_class_row(L, kp_sql_snapshot_class_node_selector, node_selector_row);
	if (!rc && !(rc = PER_CLASS(kp_sql_snapshot_class_toleration_count, tols, kp_tol)))
		rc = each_class_row(L, kp_sql_snapshot_class_toleration, toleration_row);
	if (!rc && !(rc = each_class_row(L, kp_sql_snapshot_class_node_term_count, node_term_count_row)) &&
	    !(rc = each_class_row(L, kp_sql_snapshot_class_node_term, node_term_row)))
		rc = each_class_row(L, kp_sql_snapshot_class_node_expr, node_expr_row);
	if (!rc && !(rc = PER_CLASS(kp_sql_snapshot_class_pod_affinity_count, pterms, kp_pterm)))
		rc = each_class_row(L, kp_sql_snapshot_class_pod_affinity, pod_term_row);
	if (!rc && !(rc = PER_CLASS(kp_sql_snapshot_class_spread_count, spreads, kp_spread)))
		rc = each_class_row(L, kp_sql_snapshot_class_spread, spread_row);
	if (!rc && !(rc = PER_CLASS(kp_sql_snapshot_class_port_count, ports, kp_hport)))
		rc = each_class_row(L, kp_ld_has_sql(L, kp_sql_snapshot_class_port) ? kp_sql_snapshot_class_port
							 : kp_sql_snapshot_class_port_old, port_row);
	return rc;
}
