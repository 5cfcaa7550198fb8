/*
 * snapshot_load.c — kp_snap_load (snapshot.h): the cluster from the database
 * into memory, once per plan run, by the queries of queries/snapshot/
 * (embedded at build time): nodes (in name order) with their resources,
 * labels, taints and images; the scheduling classes (snapshot_classes.c);
 * pods (in id order) with their labels; what a what-if scenario moved; the
 * selectors of default spreading; namespaces and their labels; disruption
 * budgets.  Then the bound pods take their room.  Also the loader's shared
 * helpers (snapshot_int.h): preparing, counting, and parsing the canonical
 * selector and value-list JSON the importers store.
 *
 * Everything loaded lives in the snapshot's arena and string table; returns
 * KP_OK or the first error (KP_IO, KP_NOMEM, KP_PARSE, KP_RANGE, KP_INTR).
 */
#include "snapshot_int.h"
#include "scores.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- loading helpers ---- */

int kp_ld_db_fail(kp_loader *L, const char *what)
{
	return kp_err_set(L->err, KP_IO, "database error while loading %s: %s", what, sqlite3_errmsg(L->db));
}

int kp_ld_prepare(kp_loader *L, const char *sql, sqlite3_stmt **st)
{
	/* an interrupted query ends early, as if it had no more rows: stop
	 * before the next one rather than build on a partial result */
	if (kp_interrupted) {
		*st = NULL;
		return kp_err_set(L->err, KP_INTR, "interrupted");
	}
	if (sqlite3_prepare_v2(L->db, sql, -1, st, NULL) != SQLITE_OK)
		return kp_ld_db_fail(L, "the cluster");
	return KP_OK;
}


int kp_ld_has_sql(kp_loader *L, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(L->db, sql, -1, &st, NULL) == SQLITE_OK;
	sqlite3_finalize(st);
	return ok;
}

int kp_ld_count(kp_loader *L, const char *sql, int *n)
{
	sqlite3_stmt *st;
	if (kp_ld_prepare(L, sql, &st))
		return L->err->code;
	int rc = sqlite3_step(st);
	*n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return kp_interrupted ? kp_err_set(L->err, KP_INTR, "interrupted") : kp_ld_db_fail(L, "the cluster");
	return KP_OK;
}

int kp_ld_cmp_label(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const kp_label *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

static int op_code(const char *op)
{
	static const char *const ops[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" };
	for (int i = 0; i < 6; i++)
		if (op && !strcmp(op, ops[i]))
			return i;
	return -1;
}

int kp_ld_effect(const char *e)
{
	if (!e || !*e)
		return KP_EFFECT_ANY;
	if (!strcmp(e, "NoSchedule"))
		return KP_EFFECT_NOSCHEDULE;
	if (!strcmp(e, "PreferNoSchedule"))
		return KP_EFFECT_PREFER;
	if (!strcmp(e, "NoExecute"))
		return KP_EFFECT_NOEXECUTE;
	return -1;
}

int kp_ld_strs(kp_loader *L, const char *text, kp_sid **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (!text)
		return KP_OK;
	kp_json *j = kp_json_parse(text, &L->tmp);
	if (!j || j->type != KP_J_ARR)
		return kp_err_set(L->err, KP_PARSE, "malformed value list in the database: %s", text);
	*out = kp_ld_alloc(L, j->n * sizeof **out);
	if (!*out)
		return kp_ld_nomem(L);
	for (size_t i = 0; i < j->n; i++) {
		if (j->items[i]->type != KP_J_STR)
			return kp_err_set(L->err, KP_PARSE, "malformed value list in the database: %s", text);
		if (((*out)[i] = kp_strtab_intern(&L->s->strs, j->items[i]->str)) < 0)
			return kp_ld_nomem(L);
	}
	*n = (uint32_t)j->n;
	return KP_OK;
}

int kp_ld_req(kp_loader *L, kp_sreq *r, const char *key, const char *op, kp_json *vals, const char *ctx)
{
	int code = op_code(op);
	if (code < 0)
		return kp_err_set(L->err, KP_PARSE, "unknown operator '%s' in %s", op ? op : "", ctx);
	r->key = kp_strtab_intern(&L->s->strs, key);
	r->op = (uint8_t)code;
	if (r->key < 0)
		return kp_ld_nomem(L);
	if (!vals || vals->type != KP_J_ARR)
		return kp_err_set(L->err, KP_PARSE, "malformed values in %s", ctx);
	r->nvals = (uint32_t)vals->n;
	r->vals = kp_ld_alloc(L, vals->n * sizeof *r->vals);
	if (!r->vals)
		return kp_ld_nomem(L);
	for (size_t i = 0; i < vals->n; i++) {
		if (vals->items[i]->type != KP_J_STR)
			return kp_err_set(L->err, KP_PARSE, "malformed values in %s", ctx);
		if ((r->vals[i] = kp_strtab_intern(&L->s->strs, vals->items[i]->str)) < 0)
			return kp_ld_nomem(L);
		if ((code == KP_OP_IN || code == KP_OP_NOTIN) && !kp_valid_label_value(vals->items[i]->str))
			r->invalid = 1;
	}
	if ((code == KP_OP_GT || code == KP_OP_LT) && (vals->n != 1 || !kp_snap_parse_i64(vals->items[0]->str, &r->num)))
		return kp_err_set(L->err, KP_PARSE, "operator %s needs one integer in %s", op, ctx);
	return KP_OK;
}

int kp_ld_sel(kp_loader *L, const char *text, kp_sel *out)
{
	memset(out, 0, sizeof *out);
	if (!text)
		return KP_OK;
	kp_json *j = kp_json_parse(text, &L->tmp);
	if (!j || (j->type != KP_J_ARR && j->type != KP_J_NULL))
		return kp_err_set(L->err, KP_PARSE, "malformed label selector in the database: %s", text);
	if (j->type == KP_J_NULL)
		return KP_OK;
	out->present = 1;
	out->n = (uint32_t)j->n;
	out->reqs = kp_ld_alloc(L, j->n * sizeof *out->reqs);
	if (!out->reqs)
		return kp_ld_nomem(L);
	for (size_t i = 0; i < j->n; i++) {
		kp_json *r = j->items[i];
		if (r->type != KP_J_ARR || r->n != 3 || r->items[0]->type != KP_J_STR || r->items[1]->type != KP_J_STR)
			return kp_err_set(L->err, KP_PARSE, "malformed label selector in the database: %s", text);
		if (kp_ld_req(L, &out->reqs[i], r->items[0]->str, r->items[1]->str, r->items[2], "a label selector"))
			return L->err->code;
	}
	return KP_OK;
}

/* ---- nodes ---- */

static int cmp_pair(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const int64_t *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

static int load_nodes(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc;
	if (kp_ld_count(L, "SELECT count(*) FROM node", &s->nnodes))
		return L->err->code;
	int n = s->nnodes;
	s->node_db_id = kp_ld_alloc(L, (size_t)n * sizeof *s->node_db_id);
	s->node_name = kp_ld_alloc(L, (size_t)n * sizeof *s->node_name);
	s->unschedulable = kp_ld_alloc(L, (size_t)n);
	s->node_labels = kp_ld_alloc(L, (size_t)n * sizeof *s->node_labels);
	s->ntaints = kp_ld_alloc(L, (size_t)n * sizeof *s->ntaints);
	s->taints = kp_ld_alloc(L, (size_t)n * sizeof *s->taints);
	s->node_npods = kp_ld_alloc(L, (size_t)n * sizeof *s->node_npods);
	s->nz_used = kp_ld_alloc(L, (size_t)n * 2 * sizeof *s->nz_used);
	s->nimages = kp_ld_alloc(L, (size_t)n * sizeof *s->nimages);
	s->image_names = kp_ld_alloc(L, (size_t)n * sizeof *s->image_names);
	s->image_sizes = kp_ld_alloc(L, (size_t)n * sizeof *s->image_sizes);
	s->nports = kp_calloc((size_t)n, sizeof *s->nports);
	s->cap_ports = kp_calloc((size_t)n, sizeof *s->cap_ports);
	s->ports = kp_calloc((size_t)n, sizeof *s->ports);
	s->nnode_pods = kp_calloc((size_t)n, sizeof *s->nnode_pods);
	s->cap_node_pods = kp_calloc((size_t)n, sizeof *s->cap_node_pods);
	s->node_pods = kp_calloc((size_t)n, sizeof *s->node_pods);
	s->node_ver = kp_calloc((size_t)n + 1, sizeof *s->node_ver);
	if (!s->node_ver || !s->node_db_id || !s->node_name || !s->unschedulable || !s->node_labels || !s->ntaints || !s->taints ||
	    !s->node_npods || !s->nz_used || !s->nimages || !s->image_names || !s->image_sizes || !s->nports ||
	    !s->cap_ports || !s->ports || !s->nnode_pods || !s->cap_node_pods || !s->node_pods)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_nodes, &st))
		return L->err->code;
	int i = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && i < n) {
		s->node_db_id[i] = sqlite3_column_int64(st, 0);
		s->node_name[i] = kp_ld_intern(L, sqlite3_column_text(st, 1));
		s->unschedulable[i] = (uint8_t)sqlite3_column_int(st, 2);
		if (s->node_name[i] < 0) {
			sqlite3_finalize(st);
			return kp_ld_nomem(L);
		}
		i++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return kp_ld_db_fail(L, "nodes");
	s->node_id_map = kp_ld_alloc(L, (size_t)(n ? n : 1) * 2 * sizeof *s->node_id_map);
	if (!s->node_id_map)
		return kp_ld_nomem(L);
	for (int k = 0; k < n; k++) {
		s->node_id_map[2 * k] = s->node_db_id[k];
		s->node_id_map[2 * k + 1] = k;
	}
	kp_sort(s->node_id_map, (size_t)n, 2 * sizeof *s->node_id_map, cmp_pair, NULL);
	/* node name -> index */
	L->node_of_sid_len = s->strs.n;
	L->node_of_sid = kp_malloc((size_t)(L->node_of_sid_len + 1) * sizeof *L->node_of_sid);
	if (!L->node_of_sid)
		return kp_ld_nomem(L);
	for (int32_t k = 0; k < L->node_of_sid_len; k++)
		L->node_of_sid[k] = -1;
	for (int k = 0; k < n; k++)
		L->node_of_sid[s->node_name[k]] = k;
	return KP_OK;
}

/* resources: the fixed first four, then every other name seen anywhere;
 * what each node offers */
static int load_resources(kp_loader *L)
{
	kp_snap *s = L->s;
	int n = s->nnodes;
	sqlite3_stmt *st;
	int rc = KP_OK;
	static const char *const fixed[] = { "cpu", "memory", "ephemeral-storage", "pods" };
	if (kp_ld_prepare(L, kp_sql_snapshot_resources, &st))
		return L->err->code;
	int cap = 16;
	s->res_name = kp_malloc((size_t)cap * sizeof *s->res_name);
	if (!s->res_name) {
		sqlite3_finalize(st);
		return kp_ld_nomem(L);
	}
	for (int i = 0; i < 4; i++)
		s->res_name[i] = kp_strtab_intern(&s->strs, fixed[i]);
	s->nres = 4;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *r = kp_ld_col(st, 0);
		int known = 0;
		for (int i = 0; i < 4; i++)
			known |= !strcmp(r, fixed[i]);
		if (known)
			continue;
		if (s->nres == cap) {
			cap *= 2;
			kp_sid *v = kp_realloc(s->res_name, (size_t)cap * sizeof *v);
			if (!v) {
				rc = kp_ld_nomem(L);
				break;
			}
			s->res_name = v;
		}
		s->res_name[s->nres++] = kp_strtab_intern(&s->strs, r);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (s->nres > 65535)
		return kp_err_set(L->err, KP_RANGE, "more than 65535 distinct resource names");
	s->alloc = kp_calloc((size_t)(n ? n : 1) * (size_t)s->nres, sizeof *s->alloc);
	s->used = kp_calloc((size_t)(n ? n : 1) * (size_t)s->nres, sizeof *s->used);
	if (!s->alloc || !s->used)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_node_allocatable, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		kp_sid r = kp_strtab_find(&s->strs, kp_ld_col(st, 1));
		if (ni < 0 || r < 0)
			continue;
		for (int k = 0; k < s->nres; k++)
			if (s->res_name[k] == r)
				s->alloc[(size_t)ni * (size_t)s->nres + (size_t)k] = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return KP_OK;
}

/* the nodes' labels, sorted by key */
static int load_node_labels(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	if (kp_ld_prepare(L, kp_sql_snapshot_node_label_count, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		if (ni < 0)
			continue;
		s->node_labels[ni].v = kp_ld_alloc(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_label));
		if (!s->node_labels[ni].v) {
			sqlite3_finalize(st);
			return kp_ld_nomem(L);
		}
	}
	sqlite3_finalize(st);
	if (kp_ld_prepare(L, kp_sql_snapshot_node_label, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		if (ni < 0)
			continue;
		kp_labels *l = &s->node_labels[ni];
		l->v[l->n].key = kp_ld_intern(L, sqlite3_column_text(st, 1));
		l->v[l->n].value = kp_ld_intern(L, sqlite3_column_text(st, 2));
		if (l->v[l->n].key < 0 || l->v[l->n].value < 0) {
			rc = kp_ld_nomem(L);
			break;
		}
		l->n++;
	}
	sqlite3_finalize(st);
	for (int i = 0; i < s->nnodes && !rc; i++)
		kp_sort(s->node_labels[i].v, s->node_labels[i].n, sizeof(kp_label), kp_ld_cmp_label, NULL);
	return rc;
}

/* the nodes' taints, in spec order (an unknown effect counts as NoSchedule) */
static int load_node_taints(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	if (kp_ld_prepare(L, kp_sql_snapshot_node_taint_count, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		if (ni >= 0 && !(s->taints[ni] = kp_ld_alloc(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_taint))))
			rc = kp_ld_nomem(L);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (kp_ld_prepare(L, kp_sql_snapshot_node_taint, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		if (ni < 0)
			continue;
		kp_taint *t = &s->taints[ni][s->ntaints[ni]++];
		t->key = kp_ld_intern(L, sqlite3_column_text(st, 1));
		t->value = kp_ld_intern(L, sqlite3_column_text(st, 2));
		t->num_ok = (uint8_t)kp_snap_parse_i64(kp_ld_col(st, 2), &t->num);
		int e = kp_ld_effect(kp_ld_col(st, 3));
		t->effect = (uint8_t)(e < 0 ? KP_EFFECT_NOSCHEDULE : e);
	}
	sqlite3_finalize(st);
	return KP_OK;
}

/* images: per node sorted names with their sizes (kp_snap_load counts how
 * many nodes have each name) */
static int load_node_images(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	if (kp_ld_prepare(L, kp_sql_snapshot_node_image_count, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		int cnt = sqlite3_column_int(st, 1);
		if (ni >= 0 && (!(s->image_names[ni] = kp_ld_alloc(L, (size_t)cnt * sizeof(kp_sid))) ||
				!(s->image_sizes[ni] = kp_ld_alloc(L, (size_t)cnt * sizeof(int64_t)))))
			rc = kp_ld_nomem(L);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (kp_ld_prepare(L, kp_sql_snapshot_node_image, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		if (ni < 0)
			continue;
		uint32_t k = s->nimages[ni]++;
		s->image_names[ni][k] = kp_ld_intern(L, sqlite3_column_text(st, 1));
		s->image_sizes[ni][k] = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return KP_OK;
}

/* ---- pods ---- */

static int load_pods(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	int n;
	if (kp_ld_count(L, "SELECT count(*) FROM pod", &n))
		return L->err->code;
	s->pods = kp_calloc((size_t)(n ? n : 1), sizeof *s->pods);
	if (!s->pods)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_pods, &st))
		return L->err->code;
	int i = 0;
	while (sqlite3_step(st) == SQLITE_ROW && i < n) {
		kp_pod *p = &s->pods[i];
		p->db_id = sqlite3_column_int64(st, 0);
		p->ns = kp_ld_intern(L, sqlite3_column_text(st, 1));
		p->name = kp_ld_intern(L, sqlite3_column_text(st, 2));
		p->cls = kp_ld_class(L, sqlite3_column_int64(st, 3));
		p->created = sqlite3_column_type(st, 6) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 6);
		p->start_time = sqlite3_column_type(st, 7) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 7);
		p->terminating = (uint8_t)sqlite3_column_int(st, 8);
		p->owner_kind = kp_ld_intern(L, sqlite3_column_text(st, 9));
		p->owner_name = kp_ld_intern(L, sqlite3_column_text(st, 10));
		p->node = p->orig_node = -1;
		p->bound_name = -1;
		p->nominated = kp_ld_intern(L, sqlite3_column_text(st, 11));
		p->daemon_node = -1;
		p->ignored = 0;
		if (sqlite3_column_type(st, 12) != SQLITE_NULL) {
			kp_sid dn = kp_strtab_find(&s->strs, kp_ld_col(st, 12));
			p->daemon_node = dn >= 0 && dn < L->node_of_sid_len ? L->node_of_sid[dn] : -1;
			if (p->daemon_node < 0)
				p->ignored = KP_POD_UNKNOWN_NODE;   /* its node is gone: nothing to plan */
		}
		if (p->ns < 0 || p->name < 0 || p->cls < 0) {
			rc = p->cls < 0 ? kp_err_set(L->err, KP_IO, "pod %lld has no class", (long long)p->db_id) : kp_ld_nomem(L);
			break;
		}
		const char *phase = kp_ld_col(st, 5);
		if (!strcmp(phase, "Succeeded") || !strcmp(phase, "Failed")) {
			p->ignored = KP_POD_DONE;
		} else if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
			kp_sid nn = kp_strtab_find(&s->strs, kp_ld_col(st, 4));
			int ni = nn >= 0 && nn < L->node_of_sid_len ? L->node_of_sid[nn] : -1;
			p->bound_name = kp_ld_intern(L, sqlite3_column_text(st, 4));
			if (ni < 0) {
				/* bound to a node kplan does not know: ignored (kube-scheduler-semantics.md §12) */
				s->warn_unknown_node++;
				p->ignored = KP_POD_UNKNOWN_NODE;
			}
			p->orig_node = ni;
		}
		i++;
	}
	sqlite3_finalize(st);
	s->npods = i;
	if (rc)
		return rc;
	/* labels: pods are in id order, label rows too */
	if (kp_ld_prepare(L, kp_sql_snapshot_pod_label_count, &st))
		return L->err->code;
	int k = 0;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int64_t id = sqlite3_column_int64(st, 0);
		while (k < s->npods && s->pods[k].db_id < id)
			k++;
		if (k < s->npods && s->pods[k].db_id == id && !(s->pods[k].labels.v = kp_ld_alloc(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_label))))
			rc = kp_ld_nomem(L);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (kp_ld_prepare(L, kp_sql_snapshot_pod_label, &st))
		return L->err->code;
	k = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		while (k < s->npods && s->pods[k].db_id < id)
			k++;
		if (k >= s->npods || s->pods[k].db_id != id)
			continue;
		kp_labels *l = &s->pods[k].labels;
		l->v[l->n].key = kp_ld_intern(L, sqlite3_column_text(st, 1));
		l->v[l->n++].value = kp_ld_intern(L, sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	for (int j = 0; j < s->npods; j++)
		kp_sort(s->pods[j].labels.v, s->pods[j].labels.n, sizeof(kp_label), kp_ld_cmp_label, NULL);
	return KP_OK;
}

/* What-if (whatif.h): the pods the scenario took off a node, listed in
 * temp.kp_whatif_moved with that node's id, while the run's scenario is in
 * place; without a scenario the table does not exist. */
static int load_moved(kp_loader *L)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(L->db, kp_sql_snapshot_whatif_moved, -1, &st, NULL) != SQLITE_OK)
		return KP_OK;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int pi = kp_snap_pod_index(L->s, sqlite3_column_int64(st, 0));
		if (pi >= 0)
			L->s->pods[pi].moved_from = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return kp_ld_db_fail(L, "the what-if scenario");
	if (sqlite3_prepare_v2(L->db, kp_sql_snapshot_whatif_requeued, -1, &st, NULL) != SQLITE_OK)
		return KP_OK;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int pi = kp_snap_pod_index(L->s, sqlite3_column_int64(st, 0));
		if (pi >= 0)
			L->s->pods[pi].requeued = 1;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? KP_OK : kp_ld_db_fail(L, "the what-if scenario");
}

static int load_selectors(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	/* what selects pods for the system default spreading (kube-scheduler-semantics.md §10.1,
	 * helper/spread.go DefaultSelector): every Service in the pod's namespace
	 * whose selector matches it, and the selector of the pod's controller if
	 * that is a ReplicationController, ReplicaSet or StatefulSet kplan knows.
	 * A Deployment's generated pods take the Deployment's selector, standing
	 * for the ReplicaSet the Deployment would create. */
	if (kp_ld_prepare(L, kp_sql_snapshot_selector_counts, &st))
		return L->err->code;
	int nsvc = 0, nwl = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		nsvc = sqlite3_column_int(st, 0);
		nwl = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	s->service_sels = kp_ld_alloc(L, (size_t)nsvc * sizeof *s->service_sels);
	s->owner_sels = kp_ld_alloc(L, (size_t)nwl * sizeof *s->owner_sels);
	int64_t *wl_ids = kp_malloc((size_t)(nwl ? nwl : 1) * sizeof *wl_ids);
	if (!s->service_sels || !s->owner_sels || !wl_ids) {
		kp_free(wl_ids);
		return kp_ld_nomem(L);
	}
	if (kp_ld_prepare(L, kp_sql_snapshot_service_selectors, &st)) {
		kp_free(wl_ids);
		return L->err->code;
	}
	while (sqlite3_step(st) == SQLITE_ROW && !rc && s->nservice_sels < nsvc) {
		kp_owner_sel *o = &s->service_sels[s->nservice_sels];
		o->ns = kp_ld_intern(L, sqlite3_column_text(st, 0));
		rc = kp_ld_sel(L, kp_ld_col(st, 1), &o->sel);
		/* an empty selector selects nothing here (GetPodServices skips it) */
		if (!rc && o->sel.present && o->sel.n)
			s->nservice_sels++;
	}
	sqlite3_finalize(st);
	if (!rc && kp_ld_prepare(L, kp_sql_snapshot_owner_selectors, &st) == KP_OK) {
		while (sqlite3_step(st) == SQLITE_ROW && !rc && s->nowner_sels < nwl) {
			kp_owner_sel *o = &s->owner_sels[s->nowner_sels];
			wl_ids[s->nowner_sels] = sqlite3_column_int64(st, 0);
			o->ns = kp_ld_intern(L, sqlite3_column_text(st, 1));
			rc = kp_ld_sel(L, kp_ld_col(st, 2), &o->sel);
			if (!rc)
				s->nowner_sels++;
		}
		sqlite3_finalize(st);
	} else if (!rc) {
		rc = L->err->code;
	}
	for (int i = 0; i < s->npods; i++)
		s->pods[i].owner_sel = -1;
	if (!rc && kp_ld_prepare(L, kp_sql_snapshot_pod_owner, &st) == KP_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int pi = kp_snap_pod_index(s, sqlite3_column_int64(st, 0));
			int64_t wid = sqlite3_column_int64(st, 1);
			int lo = 0, hi = s->nowner_sels;
			while (lo < hi) {
				int mid = (lo + hi) / 2;
				if (wl_ids[mid] < wid)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (pi >= 0 && lo < s->nowner_sels && wl_ids[lo] == wid)
				s->pods[pi].owner_sel = lo;
		}
		sqlite3_finalize(st);
	} else if (!rc) {
		rc = L->err->code;
	}
	kp_free(wl_ids);
	return rc;
}

/* Namespaces with labels (for namespaceSelector): every namespace a
 * namespace object or a pod names; and how many DaemonSets there are (the
 * warning that they are not planned). */
static int load_namespaces(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	int nns;
	if (kp_ld_count(L, kp_sql_snapshot_namespace_count, &nns))
		return L->err->code;
	s->ns_name = kp_ld_alloc(L, (size_t)nns * sizeof *s->ns_name);
	s->ns_labels = kp_ld_alloc(L, (size_t)nns * sizeof *s->ns_labels);
	if (!s->ns_name || !s->ns_labels)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_namespaces, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && s->nnamespaces < nns) {
		int k = s->nnamespaces++;
		s->ns_name[k] = kp_ld_intern(L, sqlite3_column_text(st, 0));
		int cnt = sqlite3_column_int(st, 1);
		/* + kubernetes.io/metadata.name, which the API server sets on every namespace */
		s->ns_labels[k].v = kp_ld_alloc(L, (size_t)(cnt + 1) * sizeof(kp_label));
		if (!s->ns_labels[k].v) {
			rc = kp_ld_nomem(L);
			break;
		}
		s->ns_labels[k].v[0].key = kp_strtab_intern(&s->strs, "kubernetes.io/metadata.name");
		s->ns_labels[k].v[0].value = s->ns_name[k];
		s->ns_labels[k].n = 1;
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (kp_ld_prepare(L, kp_sql_snapshot_namespace_labels, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		kp_sid name = kp_strtab_find(&s->strs, kp_ld_col(st, 0));
		for (int k = 0; k < s->nnamespaces; k++)
			if (s->ns_name[k] == name) {
				kp_labels *l = &s->ns_labels[k];
				l->v[l->n].key = kp_ld_intern(L, sqlite3_column_text(st, 1));
				l->v[l->n++].value = kp_ld_intern(L, sqlite3_column_text(st, 2));
			}
	}
	sqlite3_finalize(st);
	for (int k = 0; k < s->nnamespaces; k++)
		kp_sort(s->ns_labels[k].v, s->ns_labels[k].n, sizeof(kp_label), kp_ld_cmp_label, NULL);
	if (kp_ld_count(L, kp_sql_snapshot_daemonset_count, &s->warn_daemonset))
		return L->err->code;
	return KP_OK;
}

/* ---- disruption budgets ---- */

/* GetScaledValueFromIntOrPercent(value, total, roundUp=true) */
static int64_t scaled(const char *v, int64_t total)
{
	size_t n = strlen(v);
	int64_t x = 0;
	if (n && v[n - 1] == '%') {
		for (size_t i = 0; i + 1 < n; i++)
			x = x * 10 + (v[i] - '0');
		return (x * total + 99) / 100;
	}
	kp_snap_parse_i64(v, &x);
	return x;
}

/* kp_snap_pdb_selects (snapshot.h) */
int kp_snap_pdb_selects(const kp_snap *s, const kp_pdb *d, int32_t i)
{
	const kp_pod *p = &s->pods[i];
	return !p->ignored && p->ns == d->ns && d->sel.n && kp_sel_match(&d->sel, &p->labels, &s->strs);
}

/* kp_snap_pdb_computed (snapshot.h): the disruption controller's
 * allowance, healthy matching pods (bound, not terminating) minus the
 * desired healthy */
int64_t kp_snap_pdb_computed(const kp_snap *s, const kp_pdb *d, const uint8_t *hide, const int32_t *members, int nmembers)
{
	int64_t expected = 0, healthy = 0;
	int naked = 0;
	for (int k = 0; k < (members ? nmembers : s->npods); k++) {
		int32_t i = members ? members[k] : k;
		const kp_pod *p = &s->pods[i];
		if ((hide && hide[i]) || (!members && !kp_snap_pdb_selects(s, d, i)))
			continue;
		expected++;
		healthy += p->orig_node >= 0 && !p->terminating;
		naked |= p->owner_kind < 0;
	}
	const char *min = d->min_avail >= 0 ? kp_str(&s->strs, d->min_avail) : NULL;
	const char *max = d->max_unavail >= 0 ? kp_str(&s->strs, d->max_unavail) : NULL;
	int64_t desired = expected;
	if (min)
		desired = scaled(min, expected);
	else if (max)
		desired = expected - scaled(max, expected);
	int64_t allowed = healthy - desired > 0 ? healthy - desired : 0;
	/* getExpectedPodCount: a percentage minAvailable or any maxUnavailable
	 * needs the pods' controllers' scale; pods without one leave the
	 * budget at 0 disruptions (disruption.go, TestNakedPod) */
	if (naked && ((min && strchr(min, '%')) || max))
		allowed = 0;
	return allowed;
}

static int load_pdbs(kp_loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	int n;
	if (kp_ld_count(L, "SELECT count(*) FROM pdb", &n))
		return L->err->code;
	s->pdbs = kp_ld_alloc(L, (size_t)n * sizeof *s->pdbs);
	if (!s->pdbs)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_pdbs, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc && s->npdbs < n) {
		kp_pdb *d = &s->pdbs[s->npdbs];
		d->db_id = sqlite3_column_int64(st, 0);
		d->ns = kp_ld_intern(L, sqlite3_column_text(st, 1));
		d->name = kp_ld_intern(L, sqlite3_column_text(st, 2));
		rc = kp_ld_sel(L, kp_ld_col(st, 3), &d->sel);
		if (!rc)
			rc = kp_ld_strs(L, kp_ld_col(st, 8), &d->disrupted, &d->ndisrupted);
		if (rc)
			break;
		d->min_avail = sqlite3_column_type(st, 6) != SQLITE_NULL ? kp_ld_intern(L, sqlite3_column_text(st, 6)) : -1;
		d->max_unavail = sqlite3_column_type(st, 7) != SQLITE_NULL ? kp_ld_intern(L, sqlite3_column_text(st, 7)) : -1;
		if (sqlite3_column_int(st, 4)) {
			d->from_status = 1;
			d->allowed = sqlite3_column_int64(st, 5);
		} else {
			d->allowed = kp_snap_pdb_computed(s, d, NULL, NULL, 0);
		}
		s->npdbs++;
	}
	sqlite3_finalize(st);
	return rc;
}

/* ---- the load ---- */

int kp_snap_load(sqlite3 *db, kp_snap *s, const kp_kube *kube, kp_err *err)
{
	memset(s, 0, sizeof *s);
	if (kube)
		s->kube = *kube;
	else
		kp_kube_init(&s->kube, KP_KUBE_NEWEST);
	kp_arena_init(&s->arena, 1 << 20);
	kp_loader L = { db, s, err, { 0 }, NULL, 0, NULL };
	kp_arena_init(&L.tmp, 64 * 1024);
	int rc = load_nodes(&L);
	if (!rc)
		rc = load_resources(&L);
	if (!rc)
		rc = load_node_labels(&L);
	if (!rc)
		rc = load_node_taints(&L);
	if (!rc)
		rc = load_node_images(&L);
	if (!rc)
		rc = kp_snap_load_classes(&L);
	if (!rc)
		rc = kp_snap_load_kube(&L);
	if (!rc)
		rc = load_pods(&L);
	if (!rc)
		rc = load_moved(&L);
	if (!rc)
		rc = load_selectors(&L);
	if (!rc)
		rc = load_namespaces(&L);
	if (!rc)
		rc = load_pdbs(&L);
	/* image spread: how many nodes list each image name */
	if (!rc) {
		s->image_nodes_len = s->strs.n;
		s->image_nodes = kp_calloc((size_t)(s->image_nodes_len + 1), sizeof *s->image_nodes);
		if (!s->image_nodes)
			rc = kp_ld_nomem(&L);
		for (int i = 0; i < s->nnodes && !rc; i++)
			for (uint32_t k = 0; k < s->nimages[i]; k++)
				if (k == 0 || s->image_names[i][k] != s->image_names[i][k - 1])
					s->image_nodes[s->image_names[i][k]]++;
	}
	if (!rc)
		rc = kp_snap_load_storage(&L);
	if (!rc)
		rc = kp_snap_load_dra(&L);
	/* bound pods take their room */
	for (int i = 0; i < s->npods && !rc; i++)
		if (!s->pods[i].ignored && s->pods[i].orig_node >= 0 && kp_snap_add_pod(s, i, s->pods[i].orig_node))
			rc = kp_ld_nomem(&L);
	if (!rc && kp_interrupted)
		rc = kp_err_set(err, KP_INTR, "interrupted");
	s->s_hostname = kp_strtab_intern(&s->strs, "kubernetes.io/hostname");
	s->s_zone = kp_strtab_intern(&s->strs, "topology.kubernetes.io/zone");
	s->s_default_scheduler = kp_strtab_intern(&s->strs, "default-scheduler");
	s->s_tcp = kp_strtab_intern(&s->strs, "TCP");
	s->s_any_ip = kp_strtab_intern(&s->strs, "0.0.0.0");
	if (!rc && (s->s_hostname < 0 || s->s_zone < 0 || s->s_default_scheduler < 0 || s->s_tcp < 0 || s->s_any_ip < 0))
		rc = kp_ld_nomem(&L);
	if (!rc && s->strs.n > 0 && s->strs.n < 0)
		rc = kp_ld_nomem(&L);
	kp_free(L.node_of_sid);
	kp_free(L.class_ids);
	kp_arena_release(&L.tmp);
	return rc;
}
