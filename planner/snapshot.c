/*
 * snapshot.c — loading the cluster into memory (see snapshot.h), and the
 * matching primitives every plugin shares: label selectors, node selector
 * requirements, tolerations.
 */
#include "snapshot.h"
#include "../common/json.h"
#include "scores.h"
#include "../common/priority.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stddef.h>

/* ---- string table ---- */

static uint32_t str_hash(const char *s) { return (uint32_t)kp_hash64(s, strlen(s), 1); }

static int strtab_grow(kp_strtab *t)
{
	uint32_t nslots = t->nslots ? t->nslots * 2 : 1024;
	int32_t *slots = kp_malloc(nslots * sizeof *slots);
	if (!slots)
		return KP_NOMEM;
	for (uint32_t i = 0; i < nslots; i++)
		slots[i] = -1;
	for (int32_t id = 0; id < t->n; id++) {
		uint32_t h = str_hash(t->strs[id]) & (nslots - 1);
		while (slots[h] >= 0)
			h = (h + 1) & (nslots - 1);
		slots[h] = id;
	}
	kp_free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return KP_OK;
}

kp_sid kp_strtab_find(const kp_strtab *t, const char *s)
{
	if (!t->nslots)
		return -1;
	uint32_t h = str_hash(s) & (t->nslots - 1);
	while (t->slots[h] >= 0) {
		if (strcmp(t->strs[t->slots[h]], s) == 0)
			return t->slots[h];
		h = (h + 1) & (t->nslots - 1);
	}
	return -1;
}

kp_sid kp_strtab_intern(kp_strtab *t, const char *s)
{
	if (!s)
		return -1;
	kp_sid id = kp_strtab_find(t, s);
	if (id >= 0)
		return id;
	if ((uint32_t)(t->n + 1) * 2 > t->nslots && strtab_grow(t) != KP_OK)
		return -1;
	if (t->n == t->cap) {
		int32_t cap = t->cap ? t->cap * 2 : 1024;
		char **v = kp_realloc(t->strs, (size_t)cap * sizeof *v);
		if (!v)
			return -1;
		t->strs = v;
		t->cap = cap;
	}
	char *copy = kp_strdup(s);
	if (!copy)
		return -1;
	id = t->n++;
	t->strs[id] = copy;
	uint32_t h = str_hash(s) & (t->nslots - 1);
	while (t->slots[h] >= 0)
		h = (h + 1) & (t->nslots - 1);
	t->slots[h] = id;
	return id;
}

static void strtab_release(kp_strtab *t)
{
	for (int32_t i = 0; i < t->n; i++)
		kp_free(t->strs[i]);
	kp_free(t->strs);
	kp_free(t->slots);
	memset(t, 0, sizeof *t);
}

/* ---- matching ---- */

kp_sid kp_labels_get(const kp_labels *l, kp_sid key)
{
	uint32_t lo = 0, hi = l->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (l->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n && l->v[lo].key == key ? l->v[lo].value : -1;
}

static int parse_i64(const char *s, int64_t *out)
{
	if (!s || !*s)
		return 0;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return 0;
	*out = v;
	return 1;
}

int kp_sreq_match(const kp_sreq *r, kp_sid value, const kp_strtab *strs)
{
	if (r->invalid)
		return 0;
	switch (r->op) {
	case KP_OP_IN:
		for (uint32_t i = 0; i < r->nvals; i++)
			if (r->vals[i] == value && value >= 0)
				return 1;
		return 0;
	case KP_OP_NOTIN:
		for (uint32_t i = 0; i < r->nvals; i++)
			if (r->vals[i] == value && value >= 0)
				return 0;
		return 1;
	case KP_OP_EXISTS:
		return value >= 0;
	case KP_OP_DNE:
		return value < 0;
	case KP_OP_GT:
	case KP_OP_LT: {
		int64_t v;
		if (value < 0 || !parse_i64(kp_str(strs, value), &v))
			return 0;
		return r->op == KP_OP_GT ? v > r->num : v < r->num;
	}
	}
	return 0;
}

int kp_sel_match(const kp_sel *s, const kp_labels *l, const kp_strtab *strs)
{
	if (!s->present)
		return 0;
	for (uint32_t i = 0; i < s->n; i++)
		if (!kp_sreq_match(&s->reqs[i], kp_labels_get(l, s->reqs[i].key), strs))
			return 0;
	return 1;
}

int kp_tolerates(const kp_tol *t, const kp_taint *x)
{
	if (t->effect != KP_EFFECT_ANY && t->effect != x->effect)
		return 0;
	if (t->key >= 0 && t->key != x->key)
		return 0;
	if (t->key < 0 && !t->exists)
		return 0;
	if (t->exists)
		return 1;
	return t->value == x->value;
}

/* ---- loading helpers ---- */

typedef struct loader {
	sqlite3 *db;
	kp_snap *s;
	kp_err *err;
	kp_arena tmp;
	int32_t *node_of_sid;        /* node name sid -> node index */
	int32_t node_of_sid_len;
	int64_t *class_ids;          /* sorted db ids of classes, for lookup */
	int32_t *class_idx;
} loader;

static int db_fail(loader *L, const char *what)
{
	return kp_err_set(L->err, KP_IO, "database error while loading %s: %s", what, sqlite3_errmsg(L->db));
}

static int nomem(loader *L) { return kp_err_set(L->err, KP_NOMEM, "out of memory loading the cluster"); }

static void *A(loader *L, size_t n) { return kp_arena_alloc(&L->s->arena, n ? n : 1); }

static kp_sid intern(loader *L, const unsigned char *s)
{
	return s ? kp_strtab_intern(&L->s->strs, (const char *)s) : -1;
}

static int prepare(loader *L, const char *sql, sqlite3_stmt **st)
{
	/* an interrupted query ends early, as if it had no more rows: stop
	 * before the next one rather than build on a partial result */
	if (kp_interrupted) {
		*st = NULL;
		return kp_err_set(L->err, KP_INTR, "interrupted");
	}
	if (sqlite3_prepare_v2(L->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_fail(L, "the cluster");
	return KP_OK;
}

/* *n = the single integer SQL returns (a count) */
static int count_rows(loader *L, const char *sql, int *n)
{
	sqlite3_stmt *st;
	if (prepare(L, sql, &st))
		return L->err->code;
	int rc = sqlite3_step(st);
	*n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return kp_interrupted ? kp_err_set(L->err, KP_INTR, "interrupted") : db_fail(L, "the cluster");
	return KP_OK;
}

static int cmp_label(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const kp_label *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

static int find_class(const loader *L, int64_t id)
{
	int lo = 0, hi = L->s->nclasses;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (L->class_ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < L->s->nclasses && L->class_ids[lo] == id ? lo : -1;
}

static int op_code(const char *op)
{
	static const char *const ops[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" };
	for (int i = 0; i < 6; i++)
		if (op && !strcmp(op, ops[i]))
			return i;
	return -1;
}

static int effect_code(const char *e)
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

/* JSON array of strings -> interned ids */
static int strs_from_json(loader *L, const char *text, kp_sid **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (!text)
		return KP_OK;
	kp_json *j = kp_json_parse(text, &L->tmp);
	if (!j || j->type != KP_J_ARR)
		return kp_err_set(L->err, KP_PARSE, "malformed value list in the database: %s", text);
	*out = A(L, j->n * sizeof **out);
	if (!*out)
		return nomem(L);
	for (size_t i = 0; i < j->n; i++) {
		if (j->items[i]->type != KP_J_STR)
			return kp_err_set(L->err, KP_PARSE, "malformed value list in the database: %s", text);
		if (((*out)[i] = kp_strtab_intern(&L->s->strs, j->items[i]->str)) < 0)
			return nomem(L);
	}
	*n = (uint32_t)j->n;
	return KP_OK;
}

static int req_fill(loader *L, kp_sreq *r, const char *key, const char *op, kp_json *vals, const char *ctx)
{
	int code = op_code(op);
	if (code < 0)
		return kp_err_set(L->err, KP_PARSE, "unknown operator '%s' in %s", op ? op : "", ctx);
	r->key = kp_strtab_intern(&L->s->strs, key);
	r->op = (uint8_t)code;
	if (r->key < 0)
		return nomem(L);
	if (!vals || vals->type != KP_J_ARR)
		return kp_err_set(L->err, KP_PARSE, "malformed values in %s", ctx);
	r->nvals = (uint32_t)vals->n;
	r->vals = A(L, vals->n * sizeof *r->vals);
	if (!r->vals)
		return nomem(L);
	for (size_t i = 0; i < vals->n; i++) {
		if (vals->items[i]->type != KP_J_STR)
			return kp_err_set(L->err, KP_PARSE, "malformed values in %s", ctx);
		if ((r->vals[i] = kp_strtab_intern(&L->s->strs, vals->items[i]->str)) < 0)
			return nomem(L);
		if ((code == KP_OP_IN || code == KP_OP_NOTIN) && !kp_valid_label_value(vals->items[i]->str))
			r->invalid = 1;
	}
	if ((code == KP_OP_GT || code == KP_OP_LT) && (vals->n != 1 || !parse_i64(vals->items[0]->str, &r->num)))
		return kp_err_set(L->err, KP_PARSE, "operator %s needs one integer in %s", op, ctx);
	return KP_OK;
}

/* canonical selector JSON ([[key, op, [vals]], ...] or null) -> kp_sel */
static int sel_from_json(loader *L, const char *text, kp_sel *out)
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
	out->reqs = A(L, j->n * sizeof *out->reqs);
	if (!out->reqs)
		return nomem(L);
	for (size_t i = 0; i < j->n; i++) {
		kp_json *r = j->items[i];
		if (r->type != KP_J_ARR || r->n != 3 || r->items[0]->type != KP_J_STR || r->items[1]->type != KP_J_STR)
			return kp_err_set(L->err, KP_PARSE, "malformed label selector in the database: %s", text);
		if (req_fill(L, &out->reqs[i], r->items[0]->str, r->items[1]->str, r->items[2], "a label selector"))
			return L->err->code;
	}
	return KP_OK;
}

static const char *col(sqlite3_stmt *st, int i) { return (const char *)sqlite3_column_text(st, i); }

/* ---- nodes ---- */

static int cmp_pair(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const int64_t *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

static int load_nodes(loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc;
	if (count_rows(L, "SELECT count(*) FROM node", &s->nnodes))
		return L->err->code;
	int n = s->nnodes;
	s->node_db_id = A(L, (size_t)n * sizeof *s->node_db_id);
	s->node_name = A(L, (size_t)n * sizeof *s->node_name);
	s->unschedulable = A(L, (size_t)n);
	s->node_labels = A(L, (size_t)n * sizeof *s->node_labels);
	s->ntaints = A(L, (size_t)n * sizeof *s->ntaints);
	s->taints = A(L, (size_t)n * sizeof *s->taints);
	s->node_npods = A(L, (size_t)n * sizeof *s->node_npods);
	s->nz_used = A(L, (size_t)n * 2 * sizeof *s->nz_used);
	s->nimages = A(L, (size_t)n * sizeof *s->nimages);
	s->image_names = A(L, (size_t)n * sizeof *s->image_names);
	s->image_sizes = A(L, (size_t)n * sizeof *s->image_sizes);
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
		return nomem(L);
	if (prepare(L, "SELECT id, name, unschedulable FROM node ORDER BY name", &st))
		return L->err->code;
	int i = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && i < n) {
		s->node_db_id[i] = sqlite3_column_int64(st, 0);
		s->node_name[i] = intern(L, sqlite3_column_text(st, 1));
		s->unschedulable[i] = (uint8_t)sqlite3_column_int(st, 2);
		if (s->node_name[i] < 0) {
			sqlite3_finalize(st);
			return nomem(L);
		}
		i++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(L, "nodes");
	s->node_id_map = A(L, (size_t)(n ? n : 1) * 2 * sizeof *s->node_id_map);
	if (!s->node_id_map)
		return nomem(L);
	for (int k = 0; k < n; k++) {
		s->node_id_map[2 * k] = s->node_db_id[k];
		s->node_id_map[2 * k + 1] = k;
	}
	kp_sort(s->node_id_map, (size_t)n, 2 * sizeof *s->node_id_map, cmp_pair, NULL);
	/* node name -> index */
	L->node_of_sid_len = s->strs.n;
	L->node_of_sid = kp_malloc((size_t)(L->node_of_sid_len + 1) * sizeof *L->node_of_sid);
	if (!L->node_of_sid)
		return nomem(L);
	for (int32_t k = 0; k < L->node_of_sid_len; k++)
		L->node_of_sid[k] = -1;
	for (int k = 0; k < n; k++)
		L->node_of_sid[s->node_name[k]] = k;
	return KP_OK;
}

int kp_snap_node_index(const kp_snap *s, int64_t id)
{
	int lo = 0, hi = s->nnodes;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->node_id_map[2 * mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nnodes && s->node_id_map[2 * lo] == id ? (int)s->node_id_map[2 * lo + 1] : -1;
}

int kp_snap_pod_index(const kp_snap *s, int64_t id)
{
	/* pods are loaded in id order */
	int lo = 0, hi = s->npods;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->pods[mid].db_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->npods && s->pods[lo].db_id == id ? lo : -1;
}

static int load_node_details(loader *L)
{
	kp_snap *s = L->s;
	int n = s->nnodes;
	sqlite3_stmt *st;
	int rc = KP_OK;

	/* resources: fixed first four, then every other name seen anywhere */
	static const char *const fixed[] = { "cpu", "memory", "ephemeral-storage", "pods" };
	if (prepare(L, "SELECT resource FROM node_resource UNION SELECT resource FROM class_request ORDER BY 1", &st))
		return L->err->code;
	int cap = 16;
	s->res_name = kp_malloc((size_t)cap * sizeof *s->res_name);
	if (!s->res_name) {
		sqlite3_finalize(st);
		return nomem(L);
	}
	for (int i = 0; i < 4; i++)
		s->res_name[i] = kp_strtab_intern(&s->strs, fixed[i]);
	s->nres = 4;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *r = col(st, 0);
		int known = 0;
		for (int i = 0; i < 4; i++)
			known |= !strcmp(r, fixed[i]);
		if (known)
			continue;
		if (s->nres == cap) {
			cap *= 2;
			kp_sid *v = kp_realloc(s->res_name, (size_t)cap * sizeof *v);
			if (!v) {
				rc = nomem(L);
				break;
			}
			s->res_name = v;
		}
		s->res_name[s->nres++] = kp_strtab_intern(&s->strs, r);
	}
	sqlite3_finalize(st);
	if (rc) {
		return rc;
	}
	if (s->nres > 65535) {
		return kp_err_set(L->err, KP_RANGE, "more than 65535 distinct resource names");
	}
	s->alloc = kp_calloc((size_t)(n ? n : 1) * (size_t)s->nres, sizeof *s->alloc);
	s->used = kp_calloc((size_t)(n ? n : 1) * (size_t)s->nres, sizeof *s->used);
	if (!s->alloc || !s->used) {
		return nomem(L);
	}
	if (prepare(L, "SELECT node_id, resource, allocatable FROM node_resource WHERE allocatable IS NOT NULL", &st)) {
		return L->err->code;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		kp_sid r = kp_strtab_find(&s->strs, col(st, 1));
		if (ni < 0 || r < 0)
			continue;
		for (int k = 0; k < s->nres; k++)
			if (s->res_name[k] == r)
				s->alloc[(size_t)ni * (size_t)s->nres + (size_t)k] = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);

	/* labels */
	if (prepare(L, "SELECT node_id, count(*) FROM node_label GROUP BY node_id", &st)) {
		return L->err->code;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		if (ni < 0)
			continue;
		s->node_labels[ni].v = A(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_label));
		if (!s->node_labels[ni].v) {
			sqlite3_finalize(st);
			return nomem(L);
		}
	}
	sqlite3_finalize(st);
	if (prepare(L, "SELECT node_id, key, value FROM node_label", &st)) {
		return L->err->code;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
		if (ni < 0)
			continue;
		kp_labels *l = &s->node_labels[ni];
		l->v[l->n].key = intern(L, sqlite3_column_text(st, 1));
		l->v[l->n].value = intern(L, sqlite3_column_text(st, 2));
		if (l->v[l->n].key < 0 || l->v[l->n].value < 0) {
			rc = nomem(L);
			break;
		}
		l->n++;
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n && !rc; i++)
		kp_sort(s->node_labels[i].v, s->node_labels[i].n, sizeof(kp_label), cmp_label, NULL);

	/* taints */
	if (!rc && prepare(L, "SELECT node_id, count(*) FROM node_taint GROUP BY node_id", &st) == KP_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
			if (ni >= 0 && !(s->taints[ni] = A(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_taint))))
				rc = nomem(L);
		}
		sqlite3_finalize(st);
	} else if (!rc) {
		rc = L->err->code;
	}
	if (!rc && prepare(L, "SELECT node_id, key, value, effect FROM node_taint ORDER BY node_id, seq", &st) == KP_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
			if (ni < 0)
				continue;
			kp_taint *t = &s->taints[ni][s->ntaints[ni]++];
			t->key = intern(L, sqlite3_column_text(st, 1));
			t->value = intern(L, sqlite3_column_text(st, 2));
			int e = effect_code(col(st, 3));
			t->effect = (uint8_t)(e < 0 ? KP_EFFECT_NOSCHEDULE : e);
		}
		sqlite3_finalize(st);
	} else if (!rc) {
		rc = L->err->code;
	}

	/* images: per node sorted names; how many nodes have each name */
	if (!rc && prepare(L, "SELECT node_id, count(*) FROM node_image GROUP BY node_id", &st) == KP_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
			int cnt = sqlite3_column_int(st, 1);
			if (ni >= 0 && (!(s->image_names[ni] = A(L, (size_t)cnt * sizeof(kp_sid))) ||
					!(s->image_sizes[ni] = A(L, (size_t)cnt * sizeof(int64_t)))))
				rc = nomem(L);
		}
		sqlite3_finalize(st);
	} else if (!rc) {
		rc = L->err->code;
	}
	if (!rc && prepare(L, "SELECT node_id, name, size_bytes FROM node_image ORDER BY node_id, name", &st) == KP_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 0));
			if (ni < 0)
				continue;
			uint32_t k = s->nimages[ni]++;
			s->image_names[ni][k] = intern(L, sqlite3_column_text(st, 1));
			s->image_sizes[ni][k] = sqlite3_column_int64(st, 2);
		}
		sqlite3_finalize(st);
	} else if (!rc) {
		rc = L->err->code;
	}
	return rc;
}

/* For every class with rows in `table`, allocate count * elem bytes at the
 * pointer member at byte offset `off` of its kp_class. */
static int alloc_per_class(loader *L, const char *table, size_t off, size_t elem)
{
	char sql[128];
	sqlite3_stmt *st;
	int rc = KP_OK;
	snprintf(sql, sizeof sql, "SELECT class_id, count(*) FROM %s GROUP BY class_id", table);
	if (prepare(L, sql, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		void **slot = (void **)((char *)&L->s->classes[ci] + off);
		if (!(*slot = A(L, (size_t)sqlite3_column_int(st, 1) * elem)))
			rc = nomem(L);
	}
	sqlite3_finalize(st);
	return rc;
}

/* ---- classes ---- */

static int load_classes(loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	if (count_rows(L, "SELECT count(*) FROM pod_class", &s->nclasses))
		return L->err->code;
	s->classes = kp_calloc((size_t)(s->nclasses ? s->nclasses : 1), sizeof *s->classes);
	L->class_ids = kp_malloc((size_t)(s->nclasses ? s->nclasses : 1) * sizeof *L->class_ids);
	if (!s->classes || !L->class_ids)
		return nomem(L);
	/* priority resolved as the Priority admission plugin does (pod_priority view),
	 * the API server's built-in classes known without an import */
	if (prepare(L,
		    "SELECT c.id, c.namespace, c.scheduler_name, "
		    " COALESCE(c.priority, pc.value, CASE WHEN c.priority_class IS NULL THEN "
		    "  (SELECT value FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END, 0), "
		    " COALESCE(c.preemption_policy, pc.preemption_policy, CASE WHEN c.priority_class IS NULL THEN "
		    "  (SELECT preemption_policy FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END, "
		    "  'PreemptLowerPriority'), "
		    " c.nonzero_cpu, c.nonzero_memory, c.scheduling_gates, c.pvc_volumes, c.has_required_node_affinity, "
		    " c.priority_class IS NOT NULL AND pc.name IS NULL "
		    "FROM pod_class c LEFT JOIN " KP_KNOWN_PRIORITY_CLASSES " pc ON pc.name = c.priority_class ORDER BY c.id",
		    &st))
		return L->err->code;
	int i = 0;
	while (sqlite3_step(st) == SQLITE_ROW && i < s->nclasses) {
		kp_class *c = &s->classes[i];
		c->db_id = L->class_ids[i] = sqlite3_column_int64(st, 0);
		c->ns = intern(L, sqlite3_column_text(st, 1));
		c->sched = intern(L, sqlite3_column_text(st, 2));
		c->priority = sqlite3_column_int64(st, 3);
		c->preempt_never = !strcmp(col(st, 4), "Never");
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

	/* requests */
	if ((rc = alloc_per_class(L, "class_request", offsetof(kp_class, req_res), sizeof(uint16_t))) ||
	    (rc = alloc_per_class(L, "class_request", offsetof(kp_class, req_val), sizeof(int64_t))))
		return rc;
	if (prepare(L, "SELECT class_id, resource, value FROM class_request", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		kp_sid r = kp_strtab_find(&s->strs, col(st, 1));
		if (ci < 0 || r < 0)
			continue;
		kp_class *c = &s->classes[ci];
		for (int k = 0; k < s->nres; k++)
			if (s->res_name[k] == r) {
				c->req_res[c->nreq] = (uint16_t)k;
				c->req_val[c->nreq++] = sqlite3_column_int64(st, 2);
			}
	}
	sqlite3_finalize(st);

	/* containers -> images (normalised: a name without a tag gets ":latest") */
	if (prepare(L, "SELECT class_id, count(*) FROM class_container GROUP BY class_id", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		s->classes[ci].ncontainers = (uint32_t)sqlite3_column_int(st, 1);
		if (!(s->classes[ci].images = A(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_sid))))
			rc = nomem(L);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (prepare(L, "SELECT class_id, image FROM class_container WHERE image IS NOT NULL ORDER BY class_id, seq", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		const char *img = col(st, 1);
		const char *slash = strrchr(img, '/'), *colon = strrchr(img, ':');
		char buf[1024];
		if (!strchr(img, '@') && (!colon || (slash && colon < slash)))
			snprintf(buf, sizeof buf, "%s:latest", img);
		else
			snprintf(buf, sizeof buf, "%s", img);
		kp_class *c = &s->classes[ci];
		c->images[c->nimages++] = kp_strtab_intern(&s->strs, buf);
	}
	sqlite3_finalize(st);

	/* node selector */
	if ((rc = alloc_per_class(L, "class_node_selector", offsetof(kp_class, nsel), sizeof(kp_label))))
		return rc;
	if (prepare(L, "SELECT class_id, key, value FROM class_node_selector", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		c->nsel[c->nnsel].key = intern(L, sqlite3_column_text(st, 1));
		c->nsel[c->nnsel++].value = intern(L, sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);

	/* tolerations */
	if ((rc = alloc_per_class(L, "class_toleration", offsetof(kp_class, tols), sizeof(kp_tol))))
		return rc;
	if (prepare(L, "SELECT class_id, key, operator, value, effect FROM class_toleration ORDER BY class_id, seq", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		kp_tol *t = &c->tols[c->ntols++];
		t->key = col(st, 1)[0] ? intern(L, sqlite3_column_text(st, 1)) : -1;
		t->exists = !strcmp(col(st, 2), "Exists");
		t->value = intern(L, sqlite3_column_text(st, 3));
		int e = effect_code(col(st, 4));
		t->effect = (uint8_t)(e < 0 ? KP_EFFECT_ANY : e);
	}
	sqlite3_finalize(st);

	/* node affinity terms */
	if (prepare(L, "SELECT class_id, required, count(*) FROM class_node_term GROUP BY class_id, required", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		int cnt = sqlite3_column_int(st, 2);
		kp_nterm *v = A(L, (size_t)cnt * sizeof *v);
		if (!v)
			rc = nomem(L);
		else if (sqlite3_column_int(st, 1))
			s->classes[ci].required = v;
		else
			s->classes[ci].preferred = v;
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (prepare(L,
		    "SELECT t.class_id, t.required, t.term, t.weight, "
		    " (SELECT count(*) FROM class_node_expr e WHERE e.class_id = t.class_id AND e.required = t.required "
		    "  AND e.term = t.term AND e.field = 0), "
		    " (SELECT count(*) FROM class_node_expr e WHERE e.class_id = t.class_id AND e.required = t.required "
		    "  AND e.term = t.term AND e.field = 1) "
		    "FROM class_node_term t ORDER BY t.class_id, t.required, t.term", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		int req = sqlite3_column_int(st, 1);
		kp_nterm *t = req ? &c->required[c->nrequired++] : &c->preferred[c->npreferred++];
		t->weight = sqlite3_column_int64(st, 3);
		int ne = sqlite3_column_int(st, 4), nf = sqlite3_column_int(st, 5);
		t->exprs = A(L, (size_t)ne * sizeof(kp_sreq));
		t->fields = A(L, (size_t)nf * sizeof(kp_sreq));
		if (!t->exprs || !t->fields)
			rc = nomem(L);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (prepare(L, "SELECT class_id, required, term, field, key, operator, vals FROM class_node_expr "
		       "ORDER BY class_id, required, term, seq", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		int req = sqlite3_column_int(st, 1), term = sqlite3_column_int(st, 2);
		kp_nterm *t = req ? c->required : c->preferred;
		uint32_t nt = req ? c->nrequired : c->npreferred;
		if ((uint32_t)term >= nt)
			continue;
		t = &t[term];
		int field = sqlite3_column_int(st, 3);
		kp_sreq *r = field ? &t->fields[t->nfields++] : &t->exprs[t->nexprs++];
		kp_json *vals = kp_json_parse(col(st, 6), &L->tmp);
		rc = req_fill(L, r, col(st, 4), col(st, 5), vals, "node affinity");
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;

	/* pod (anti-)affinity terms */
	if ((rc = alloc_per_class(L, "class_pod_affinity", offsetof(kp_class, pterms), sizeof(kp_pterm))))
		return rc;
	if (prepare(L, "SELECT class_id, anti, required, weight, topology_key, selector, namespaces, ns_selector, "
		       "match_label_keys, mismatch_label_keys FROM class_pod_affinity ORDER BY class_id, seq", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		kp_pterm *t = &c->pterms[c->npterms++];
		t->anti = (uint8_t)sqlite3_column_int(st, 1);
		t->required = (uint8_t)sqlite3_column_int(st, 2);
		t->weight = sqlite3_column_int64(st, 3);
		t->topo = intern(L, sqlite3_column_text(st, 4));
		rc = sel_from_json(L, col(st, 5), &t->sel);
		if (!rc)
			rc = strs_from_json(L, col(st, 6), &t->ns, &t->nns);
		if (!rc)
			rc = sel_from_json(L, col(st, 7), &t->ns_sel);
		if (!rc)
			rc = strs_from_json(L, col(st, 8), &t->mlk, &t->nmlk);
		if (!rc)
			rc = strs_from_json(L, col(st, 9), &t->mmlk, &t->nmmlk);
		if (t->required && !t->anti)
			c->has_req_aff = 1;
		if (t->required && t->anti)
			c->has_req_anti = 1;
		if (!t->required)
			c->has_pref_pod = 1;
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;

	/* topology spread constraints */
	if ((rc = alloc_per_class(L, "class_spread", offsetof(kp_class, spreads), sizeof(kp_spread))))
		return rc;
	if (prepare(L, "SELECT class_id, max_skew, topology_key, when_unsatisfiable, selector, min_domains, "
		       "node_affinity_policy, node_taints_policy, match_label_keys FROM class_spread ORDER BY class_id, seq",
		    &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		kp_spread *sp = &c->spreads[c->nspreads++];
		sp->max_skew = sqlite3_column_int64(st, 1);
		sp->topo = intern(L, sqlite3_column_text(st, 2));
		sp->hard = !strcmp(col(st, 3), "DoNotSchedule");
		rc = sel_from_json(L, col(st, 4), &sp->sel);
		sp->min_domains = sqlite3_column_type(st, 5) == SQLITE_NULL ? 1 : sqlite3_column_int64(st, 5);
		sp->honor_affinity = strcmp(col(st, 6), "Ignore") != 0;
		sp->honor_taints = !strcmp(col(st, 7), "Honor");
		if (!rc)
			rc = strs_from_json(L, col(st, 8), &sp->mlk, &sp->nmlk);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;

	/* host ports */
	if ((rc = alloc_per_class(L, "class_port", offsetof(kp_class, ports), sizeof(kp_hport))))
		return rc;
	if (prepare(L, "SELECT class_id, host_ip, protocol, host_port FROM class_port ORDER BY class_id, seq", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = find_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		kp_hport *p = &c->ports[c->nports++];
		p->ip = intern(L, sqlite3_column_text(st, 1));
		p->proto = intern(L, sqlite3_column_text(st, 2));
		p->port = sqlite3_column_int(st, 3);
	}
	sqlite3_finalize(st);
	return KP_OK;
}

/* ---- pods ---- */

static int load_pods(loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	int n;
	if (count_rows(L, "SELECT count(*) FROM pod", &n))
		return L->err->code;
	s->pods = kp_calloc((size_t)(n ? n : 1), sizeof *s->pods);
	if (!s->pods)
		return nomem(L);
	if (prepare(L, "SELECT id, namespace, name, class_id, node_name, phase, created, start_time, terminating, "
		       "owner_kind, owner_name, nominated_node, daemon_node FROM pod ORDER BY id", &st))
		return L->err->code;
	int i = 0;
	while (sqlite3_step(st) == SQLITE_ROW && i < n) {
		kp_pod *p = &s->pods[i];
		p->db_id = sqlite3_column_int64(st, 0);
		p->ns = intern(L, sqlite3_column_text(st, 1));
		p->name = intern(L, sqlite3_column_text(st, 2));
		p->cls = find_class(L, sqlite3_column_int64(st, 3));
		p->created = sqlite3_column_type(st, 6) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 6);
		p->start_time = sqlite3_column_type(st, 7) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 7);
		p->terminating = (uint8_t)sqlite3_column_int(st, 8);
		p->owner_kind = intern(L, sqlite3_column_text(st, 9));
		p->owner_name = intern(L, sqlite3_column_text(st, 10));
		p->node = p->orig_node = -1;
		p->bound_name = -1;
		p->nominated = intern(L, sqlite3_column_text(st, 11));
		p->daemon_node = -1;
		p->ignored = 0;
		if (sqlite3_column_type(st, 12) != SQLITE_NULL) {
			kp_sid dn = kp_strtab_find(&s->strs, col(st, 12));
			p->daemon_node = dn >= 0 && dn < L->node_of_sid_len ? L->node_of_sid[dn] : -1;
			if (p->daemon_node < 0)
				p->ignored = KP_POD_UNKNOWN_NODE;   /* its node is gone: nothing to plan */
		}
		if (p->ns < 0 || p->name < 0 || p->cls < 0) {
			rc = p->cls < 0 ? kp_err_set(L->err, KP_IO, "pod %lld has no class", (long long)p->db_id) : nomem(L);
			break;
		}
		const char *phase = col(st, 5);
		if (!strcmp(phase, "Succeeded") || !strcmp(phase, "Failed")) {
			p->ignored = KP_POD_DONE;
		} else if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
			kp_sid nn = kp_strtab_find(&s->strs, col(st, 4));
			int ni = nn >= 0 && nn < L->node_of_sid_len ? L->node_of_sid[nn] : -1;
			p->bound_name = intern(L, sqlite3_column_text(st, 4));
			if (ni < 0) {
				/* bound to a node kplan does not know: ignored (semantics §12) */
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
	if (prepare(L, "SELECT pod_id, count(*) FROM pod_label GROUP BY pod_id ORDER BY pod_id", &st))
		return L->err->code;
	int k = 0;
	while (sqlite3_step(st) == SQLITE_ROW && !rc) {
		int64_t id = sqlite3_column_int64(st, 0);
		while (k < s->npods && s->pods[k].db_id < id)
			k++;
		if (k < s->npods && s->pods[k].db_id == id && !(s->pods[k].labels.v = A(L, (size_t)sqlite3_column_int(st, 1) * sizeof(kp_label))))
			rc = nomem(L);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (prepare(L, "SELECT pod_id, key, value FROM pod_label ORDER BY pod_id", &st))
		return L->err->code;
	k = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		while (k < s->npods && s->pods[k].db_id < id)
			k++;
		if (k >= s->npods || s->pods[k].db_id != id)
			continue;
		kp_labels *l = &s->pods[k].labels;
		l->v[l->n].key = intern(L, sqlite3_column_text(st, 1));
		l->v[l->n++].value = intern(L, sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	for (int j = 0; j < s->npods; j++)
		kp_sort(s->pods[j].labels.v, s->pods[j].labels.n, sizeof(kp_label), cmp_label, NULL);
	return KP_OK;
}

/* What-if (whatif.h): the pods the scenario took off a node, listed in
 * temp.kp_whatif_moved with that node's id, while the run's scenario is in
 * place; without a scenario the table does not exist. */
static int load_moved(loader *L)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(L->db, "SELECT pod_id, node_id FROM temp.kp_whatif_moved", -1, &st, NULL) != SQLITE_OK)
		return KP_OK;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int pi = kp_snap_pod_index(L->s, sqlite3_column_int64(st, 0));
		if (pi >= 0)
			L->s->pods[pi].moved_from = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? KP_OK : db_fail(L, "the what-if scenario");
}

static int load_selectors(loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	/* what selects pods for the system default spreading (semantics §10.1,
	 * helper/spread.go DefaultSelector): every Service in the pod's namespace
	 * whose selector matches it, and the selector of the pod's controller if
	 * that is a ReplicationController, ReplicaSet or StatefulSet kplan knows.
	 * A Deployment's generated pods take the Deployment's selector, standing
	 * for the ReplicaSet the Deployment would create. */
	if (prepare(L, "SELECT (SELECT count(*) FROM service), (SELECT count(*) FROM workload)", &st))
		return L->err->code;
	int nsvc = 0, nwl = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		nsvc = sqlite3_column_int(st, 0);
		nwl = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	s->service_sels = A(L, (size_t)nsvc * sizeof *s->service_sels);
	s->owner_sels = A(L, (size_t)nwl * sizeof *s->owner_sels);
	int64_t *wl_ids = kp_malloc((size_t)(nwl ? nwl : 1) * sizeof *wl_ids);
	if (!s->service_sels || !s->owner_sels || !wl_ids) {
		kp_free(wl_ids);
		return nomem(L);
	}
	if (prepare(L, "SELECT namespace, selector FROM service WHERE selector IS NOT NULL", &st)) {
		kp_free(wl_ids);
		return L->err->code;
	}
	while (sqlite3_step(st) == SQLITE_ROW && !rc && s->nservice_sels < nsvc) {
		kp_owner_sel *o = &s->service_sels[s->nservice_sels];
		o->ns = intern(L, sqlite3_column_text(st, 0));
		rc = sel_from_json(L, col(st, 1), &o->sel);
		/* an empty selector selects nothing here (GetPodServices skips it) */
		if (!rc && o->sel.present && o->sel.n)
			s->nservice_sels++;
	}
	sqlite3_finalize(st);
	if (!rc && prepare(L, "SELECT id, namespace, selector FROM workload WHERE selector IS NOT NULL AND kind IN "
			       "('ReplicationController','ReplicaSet','StatefulSet','Deployment') ORDER BY id", &st) == KP_OK) {
		while (sqlite3_step(st) == SQLITE_ROW && !rc && s->nowner_sels < nwl) {
			kp_owner_sel *o = &s->owner_sels[s->nowner_sels];
			wl_ids[s->nowner_sels] = sqlite3_column_int64(st, 0);
			o->ns = intern(L, sqlite3_column_text(st, 1));
			rc = sel_from_json(L, col(st, 2), &o->sel);
			if (!rc)
				s->nowner_sels++;
		}
		sqlite3_finalize(st);
	} else if (!rc) {
		rc = L->err->code;
	}
	for (int i = 0; i < s->npods; i++)
		s->pods[i].owner_sel = -1;
	if (!rc && prepare(L,
			   "SELECT p.id, w.id FROM pod p JOIN workload w ON w.kind = p.owner_kind AND w.namespace = p.namespace "
			   "AND w.name = p.owner_name WHERE p.owner_kind IN ('ReplicaSet','StatefulSet','ReplicationController') "
			   "UNION ALL SELECT p.id, w.id FROM pod p JOIN workload w ON w.id = p.workload_id "
			   "WHERE w.kind = 'Deployment'", &st) == KP_OK) {
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
	if (rc)
		return rc;
	/* namespaces with labels: every namespace a pod or a label names */
	int nns;
	if (count_rows(L, "SELECT count(*) FROM (SELECT name FROM namespace UNION SELECT namespace FROM pod)", &nns))
		return L->err->code;
	s->ns_name = A(L, (size_t)nns * sizeof *s->ns_name);
	s->ns_labels = A(L, (size_t)nns * sizeof *s->ns_labels);
	if (!s->ns_name || !s->ns_labels)
		return nomem(L);
	if (prepare(L, "SELECT u.name, (SELECT count(*) FROM namespace_label l JOIN namespace n ON n.id = l.namespace_id "
		       "WHERE n.name = u.name) FROM (SELECT name FROM namespace UNION SELECT namespace FROM pod) u", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && s->nnamespaces < nns) {
		int k = s->nnamespaces++;
		s->ns_name[k] = intern(L, sqlite3_column_text(st, 0));
		int cnt = sqlite3_column_int(st, 1);
		/* + kubernetes.io/metadata.name, which the API server sets on every namespace */
		s->ns_labels[k].v = A(L, (size_t)(cnt + 1) * sizeof(kp_label));
		if (!s->ns_labels[k].v) {
			rc = nomem(L);
			break;
		}
		s->ns_labels[k].v[0].key = kp_strtab_intern(&s->strs, "kubernetes.io/metadata.name");
		s->ns_labels[k].v[0].value = s->ns_name[k];
		s->ns_labels[k].n = 1;
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (prepare(L, "SELECT n.name, l.key, l.value FROM namespace n JOIN namespace_label l ON l.namespace_id = n.id "
		       "WHERE l.key <> 'kubernetes.io/metadata.name'", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		kp_sid name = kp_strtab_find(&s->strs, col(st, 0));
		for (int k = 0; k < s->nnamespaces; k++)
			if (s->ns_name[k] == name) {
				kp_labels *l = &s->ns_labels[k];
				l->v[l->n].key = intern(L, sqlite3_column_text(st, 1));
				l->v[l->n++].value = intern(L, sqlite3_column_text(st, 2));
			}
	}
	sqlite3_finalize(st);
	for (int k = 0; k < s->nnamespaces; k++)
		kp_sort(s->ns_labels[k].v, s->ns_labels[k].n, sizeof(kp_label), cmp_label, NULL);
	if (count_rows(L, "SELECT count(*) FROM workload WHERE kind = 'DaemonSet'", &s->warn_daemonset))
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
	parse_i64(v, &x);
	return x;
}

static int load_pdbs(loader *L)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	int rc = KP_OK;
	int n;
	if (count_rows(L, "SELECT count(*) FROM pdb", &n))
		return L->err->code;
	s->pdbs = A(L, (size_t)n * sizeof *s->pdbs);
	if (!s->pdbs)
		return nomem(L);
	if (prepare(L, "SELECT id, namespace, name, selector, has_status, disruptions_allowed, min_available, "
		       "max_unavailable, disrupted_pods FROM pdb ORDER BY id", &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW && !rc && s->npdbs < n) {
		kp_pdb *d = &s->pdbs[s->npdbs];
		d->db_id = sqlite3_column_int64(st, 0);
		d->ns = intern(L, sqlite3_column_text(st, 1));
		d->name = intern(L, sqlite3_column_text(st, 2));
		rc = sel_from_json(L, col(st, 3), &d->sel);
		if (!rc)
			rc = strs_from_json(L, col(st, 8), &d->disrupted, &d->ndisrupted);
		if (rc)
			break;
		if (sqlite3_column_int(st, 4)) {
			d->from_status = 1;
			d->allowed = sqlite3_column_int64(st, 5);
		} else {
			/* the disruption controller: healthy matching pods minus the desired healthy */
			int64_t expected = 0, healthy = 0;
			int naked = 0;
			for (int i = 0; i < s->npods; i++) {
				const kp_pod *p = &s->pods[i];
				if (p->ignored || p->ns != d->ns || !d->sel.n || !kp_sel_match(&d->sel, &p->labels, &s->strs))
					continue;
				expected++;
				healthy += p->orig_node >= 0 && !p->terminating;
				naked |= p->owner_kind < 0;
			}
			const char *min = sqlite3_column_type(st, 6) != SQLITE_NULL ? col(st, 6) : NULL;
			const char *max = sqlite3_column_type(st, 7) != SQLITE_NULL ? col(st, 7) : NULL;
			int64_t desired = expected;
			if (min)
				desired = scaled(min, expected);
			else if (max)
				desired = expected - scaled(max, expected);
			d->allowed = healthy - desired > 0 ? healthy - desired : 0;
			/* getExpectedPodCount: a percentage minAvailable or any maxUnavailable
			 * needs the pods' controllers' scale; pods without one leave the
			 * budget at 0 disruptions (disruption.go, TestNakedPod) */
			if (naked && ((min && strchr(min, '%')) || max))
				d->allowed = 0;
		}
		s->npdbs++;
	}
	sqlite3_finalize(st);
	return rc;
}

/* ---- placing pods ---- */

const kp_topo *kp_snap_topo(kp_snap *s, kp_sid key)
{
	for (int i = 0; i < s->ntopo; i++)
		if (s->topo[i].key == key)
			return &s->topo[i];
	if (KP_GROW(s->topo, s->ntopo, s->cap_topo, 8))
		return NULL;
	size_t nn = (size_t)(s->nnodes ? s->nnodes : 1);
	kp_topo t = { key, 0, kp_malloc(nn * sizeof *t.val), kp_malloc(nn * sizeof *t.dom) };
	/* value -> domain: a scratch map over the interned strings */
	int32_t *map = kp_malloc((size_t)(s->strs.n ? s->strs.n : 1) * sizeof *map);
	if (!t.val || !t.dom || !map) {
		kp_free(t.val);
		kp_free(t.dom);
		kp_free(map);
		return NULL;
	}
	for (int32_t i = 0; i < s->strs.n; i++)
		map[i] = -1;
	for (int n = 0; n < s->nnodes; n++) {
		kp_sid v = kp_labels_get(&s->node_labels[n], key);
		t.val[n] = v;
		t.dom[n] = -1;
		if (v >= 0) {
			if (map[v] < 0)
				map[v] = t.ndom++;
			t.dom[n] = map[v];
		}
	}
	kp_free(map);
	s->topo[s->ntopo] = t;
	return &s->topo[s->ntopo++];
}

int kp_snap_add_pod(kp_snap *s, int32_t pi, int32_t node)
{
	kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	size_t base = (size_t)node * (size_t)s->nres;
	if (KP_GROW(s->node_pods[node], s->nnode_pods[node], s->cap_node_pods[node], 4))
		return KP_NOMEM;
	while (s->nports[node] + c->nports > s->cap_ports[node])
		if (KP_GROW(s->ports[node], s->cap_ports[node], s->cap_ports[node], 4))
			return KP_NOMEM;
	for (uint32_t k = 0; k < c->nreq; k++)
		s->used[base + c->req_res[k]] += c->req_val[k];
	s->nz_used[2 * node] += c->nz_cpu;
	s->nz_used[2 * node + 1] += c->nz_mem;
	s->node_npods[node]++;
	for (uint32_t k = 0; k < c->nports; k++)
		s->ports[node][s->nports[node]++] = c->ports[k];
	s->node_pods[node][s->nnode_pods[node]++] = pi;
	p->node = node;
	kp_counters_update(s, pi, node, 1);
	s->node_ver[node]++;
	return KP_OK;
}

void kp_snap_remove_pod(kp_snap *s, int32_t pi)
{
	kp_pod *p = &s->pods[pi];
	int node = p->node;
	if (node < 0)
		return;
	kp_counters_update(s, pi, node, -1);
	s->node_ver[node]++;
	const kp_class *c = &s->classes[p->cls];
	size_t base = (size_t)node * (size_t)s->nres;
	for (uint32_t k = 0; k < c->nreq; k++)
		s->used[base + c->req_res[k]] -= c->req_val[k];
	s->nz_used[2 * node] -= c->nz_cpu;
	s->nz_used[2 * node + 1] -= c->nz_mem;
	s->node_npods[node]--;
	/* remove this class's ports once each */
	for (uint32_t k = 0; k < c->nports; k++)
		for (uint32_t j = 0; j < s->nports[node]; j++) {
			kp_hport *h = &s->ports[node][j];
			if (h->ip == c->ports[k].ip && h->proto == c->ports[k].proto && h->port == c->ports[k].port) {
				*h = s->ports[node][--s->nports[node]];
				break;
			}
		}
	for (uint32_t j = 0; j < s->nnode_pods[node]; j++)
		if (s->node_pods[node][j] == pi) {
			memmove(&s->node_pods[node][j], &s->node_pods[node][j + 1],
				(s->nnode_pods[node] - j - 1) * sizeof(int32_t));
			s->nnode_pods[node]--;
			break;
		}
	p->node = -1;
}

int kp_snap_load(sqlite3 *db, kp_snap *s, kp_err *err)
{
	memset(s, 0, sizeof *s);
	kp_arena_init(&s->arena, 1 << 20);
	loader L = { db, s, err, { 0 }, NULL, 0, NULL, NULL };
	kp_arena_init(&L.tmp, 64 * 1024);
	int rc = load_nodes(&L);
	if (!rc)
		rc = load_node_details(&L);
	if (!rc)
		rc = load_classes(&L);
	if (!rc)
		rc = load_pods(&L);
	if (!rc)
		rc = load_moved(&L);
	if (!rc)
		rc = load_selectors(&L);
	if (!rc)
		rc = load_pdbs(&L);
	/* image spread: how many nodes list each image name */
	if (!rc) {
		s->image_nodes_len = s->strs.n;
		s->image_nodes = kp_calloc((size_t)(s->image_nodes_len + 1), sizeof *s->image_nodes);
		if (!s->image_nodes)
			rc = nomem(&L);
		for (int i = 0; i < s->nnodes && !rc; i++)
			for (uint32_t k = 0; k < s->nimages[i]; k++)
				if (k == 0 || s->image_names[i][k] != s->image_names[i][k - 1])
					s->image_nodes[s->image_names[i][k]]++;
	}
	/* bound pods take their room */
	for (int i = 0; i < s->npods && !rc; i++)
		if (!s->pods[i].ignored && s->pods[i].orig_node >= 0 && kp_snap_add_pod(s, i, s->pods[i].orig_node))
			rc = nomem(&L);
	if (!rc && kp_interrupted)
		rc = kp_err_set(err, KP_INTR, "interrupted");
	s->s_hostname = kp_strtab_intern(&s->strs, "kubernetes.io/hostname");
	s->s_zone = kp_strtab_intern(&s->strs, "topology.kubernetes.io/zone");
	s->s_default_scheduler = kp_strtab_intern(&s->strs, "default-scheduler");
	s->s_tcp = kp_strtab_intern(&s->strs, "TCP");
	s->s_any_ip = kp_strtab_intern(&s->strs, "0.0.0.0");
	if (!rc && (s->s_hostname < 0 || s->s_zone < 0 || s->s_default_scheduler < 0 || s->s_tcp < 0 || s->s_any_ip < 0))
		rc = nomem(&L);
	if (!rc && s->strs.n > 0 && s->strs.n < 0)
		rc = nomem(&L);
	kp_free(L.node_of_sid);
	kp_free(L.class_ids);
	kp_arena_release(&L.tmp);
	return rc;
}

void kp_snap_release(kp_snap *s)
{
	for (int i = 0; i < s->nnodes; i++) {
		if (s->ports)
			kp_free(s->ports[i]);
		if (s->node_pods)
			kp_free(s->node_pods[i]);
	}
	kp_free(s->ports);
	kp_free(s->nports);
	kp_free(s->cap_ports);
	kp_free(s->node_pods);
	kp_free(s->nnode_pods);
	kp_free(s->cap_node_pods);
	kp_free(s->alloc);
	kp_free(s->used);
	kp_free(s->res_name);
	kp_free(s->image_nodes);
	kp_counters_release(&s->counters);
	for (int i = 0; i < s->ntopo; i++) {
		kp_free(s->topo[i].val);
		kp_free(s->topo[i].dom);
	}
	kp_free(s->topo);
	kp_free(s->node_ver);
	for (int i = 0; i < s->nclasses; i++) {
		if (s->classes[i].static_shared)
			continue;
		kp_free(s->classes[i].feasible);
		kp_free(s->classes[i].affinity_ok);
		kp_free(s->classes[i].taints_ok);
		kp_free(s->classes[i].static_reason);
		kp_free(s->classes[i].static_rank);
	}
	kp_free(s->classes);
	kp_free(s->pods);
	for (int i = 0; i < s->nreasons; i++)
		kp_free(s->reasons[i].msg);
	kp_free(s->reasons);
	strtab_release(&s->strs);
	kp_arena_release(&s->arena);
	memset(s, 0, sizeof *s);
}
