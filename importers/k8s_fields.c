/*
 * k8s_fields.c — the Kubernetes reader's typed field accessors
 * (k8s_int.h): strings, integers, booleans, timestamps, enums, string maps
 * and lists, resource quantities and label selectors, each checked the way
 * the API server checks it, and the error helpers that locate a bad field.
 *
 * Contract: absent (or null) is fine, a wrong type or value is an error
 * naming the field's path, located at the field (inside a ConfigMap's
 * literal block: at the file's own line and column).  matchLabels become
 * In requirements sorted by key ahead of matchExpressions, as
 * LabelSelectorAsSelector sorts them.
 */
#include "k8s_int.h"
#include "../common/quantity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

void kp_k8s_locate(kctx *c, kp_err *err, unsigned line, unsigned col)
{
	if (!c->cm_label || !line) {
		kp_err_locate(err, c->file, line, col, c->object);
		return;
	}
	char obj[900];
	snprintf(obj, sizeof obj, "%s%s%s", c->cm_label, c->object[0] ? ": " : "", c->object);
	kp_err_locate(err, c->yfile, line + c->yline, col + c->ycol, obj);
}

int kp_k8s_bad(kctx *c, const kp_ynode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(c->err, KP_PARSE, fmt, ap);
	va_end(ap);
	kp_k8s_locate(c, c->err, at ? at->line : 0, at ? at->col : 0);
	return KP_PARSE;
}

int kp_k8s_nomem(kctx *c) { return kp_err_set(c->err, KP_NOMEM, "out of memory"); }

/* ---- typed accessors: absent (or null) is fine, a wrong type is an error ---- */

int kp_k8s_get_map(kctx *c, const kp_ynode *m, const char *key, const char *path, const kp_ynode **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	if (!v)
		return KP_OK;
	if (v->type != KP_Y_MAP)
		return kp_k8s_bad(c, v, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(v));
	*out = v;
	return KP_OK;
}

int kp_k8s_get_seq(kctx *c, const kp_ynode *m, const char *key, const char *path, const kp_ynode **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	if (!v)
		return KP_OK;
	if (v->type != KP_Y_SEQ)
		return kp_k8s_bad(c, v, "%s: expected a list, got a %s", path, kp_ynode_type_name(v));
	*out = v;
	return KP_OK;
}

static int as_str(kctx *c, const kp_ynode *v, const char *path, const char **out)
{
	if (v->type != KP_Y_SCALAR)
		return kp_k8s_bad(c, v, "%s: expected a string, got a %s", path, kp_ynode_type_name(v));
	*out = v->u.str;
	return KP_OK;
}

int kp_k8s_get_str(kctx *c, const kp_ynode *m, const char *key, const char *path, const char **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	return v ? as_str(c, v, path, out) : KP_OK;
}

int kp_k8s_parse_int(const char *s, int64_t *out)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	if (!*p)
		return 0;
	for (const char *q = p; *q; q++)
		if (*q < '0' || *q > '9')
			return 0;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 1;
}

static int as_int(kctx *c, const kp_ynode *v, const char *path, int64_t *out)
{
	if (v->type != KP_Y_SCALAR || !v->plain)
		return kp_k8s_bad(c, v, "%s: expected an integer, got a %s", path,
				  v->type == KP_Y_SCALAR ? "quoted string" : kp_ynode_type_name(v));
	int r = kp_k8s_parse_int(v->u.str, out);
	if (r < 0)
		return kp_k8s_bad(c, v, "%s: integer '%s' out of range", path, v->u.str);
	if (r == 0)
		return kp_k8s_bad(c, v, "%s: expected an integer, got '%s'", path, v->u.str);
	return KP_OK;
}

int kp_k8s_get_int(kctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out, int *present)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	if (present)
		*present = v != NULL;
	if (!v)
		return KP_OK;
	return as_int(c, v, path, out);
}

int kp_k8s_get_bool(kctx *c, const kp_ynode *m, const char *key, const char *path, int *out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = 0;
	if (!v)
		return KP_OK;
	const char *s = v->u.str;
	if (v->type == KP_Y_SCALAR && v->plain) {
		if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE") || !strcmp(s, "yes") ||
		    !strcmp(s, "on")) {
			*out = 1;
			return KP_OK;
		}
		if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE") || !strcmp(s, "no") ||
		    !strcmp(s, "off"))
			return KP_OK;
	}
	return kp_k8s_bad(c, v, "%s: expected true or false, got %s%s%s", path,
			  v->type == KP_Y_SCALAR ? "'" : "a ", v->type == KP_Y_SCALAR ? s : kp_ynode_type_name(v),
		   v->type == KP_Y_SCALAR ? "'" : "");
}

int kp_k8s_get_time(kctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out)
{
	const char *s;
	*out = INT64_MIN;
	if (kp_k8s_get_str(c, m, key, path, &s) != KP_OK)
		return KP_PARSE;
	if (s && kp_parse_time(s, out) != KP_OK)
		return kp_k8s_bad(c, kp_ymap_get(m, key), "%s: invalid timestamp '%s' (want RFC 3339)", path, s);
	return KP_OK;
}

int kp_k8s_one_of(kctx *c, const kp_ynode *m, const char *key, const char *path, const char *const *allowed,
		  const char **out)
{
	if (kp_k8s_get_str(c, m, key, path, out) != KP_OK)
		return KP_PARSE;
	if (!*out)
		return KP_OK;
	for (const char *const *a = allowed; *a; a++)
		if (strcmp(*a, *out) == 0)
			return KP_OK;
	char list[256] = "";
	for (const char *const *a = allowed; *a; a++) {
		strncat(list, *a, sizeof list - strlen(list) - 1);
		if (a[1])
			strncat(list, ", ", sizeof list - strlen(list) - 1);
	}
	return kp_k8s_bad(c, kp_ymap_get(m, key), "%s: '%s' is not one of %s", path, *out, list);
}

/* map of string -> string (labels, nodeSelector); null values become "" */
int kp_k8s_get_kvs(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_kvs *out)
{
	const kp_ynode *v;
	memset(out, 0, sizeof *out);
	if (kp_k8s_get_map(c, m, key, path, &v) != KP_OK || !v || !v->n)
		return c->err->code ? KP_PARSE : KP_OK;
	out->v = kp_arena_alloc(c->a, v->n * sizeof *out->v);
	if (!out->v)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < v->n; i++) {
		const kp_ynode *val = v->u.pairs[i].value;
		out->v[i].key = v->u.pairs[i].key->u.str;
		if (kp_ynode_is_null(val))
			out->v[i].value = "";
		else if (val->type != KP_Y_SCALAR)
			return kp_k8s_bad(c, val, "%s.%s: expected a string, got a %s", path, out->v[i].key,
					  kp_ynode_type_name(val));
		else
			out->v[i].value = val->u.str;
	}
	out->n = v->n;
	return KP_OK;
}

int kp_k8s_get_strs(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_strs *out)
{
	const kp_ynode *v;
	memset(out, 0, sizeof *out);
	if (kp_k8s_get_seq(c, m, key, path, &v) != KP_OK)
		return KP_PARSE;
	if (!v || !v->n)
		return KP_OK;
	out->v = kp_arena_alloc(c->a, v->n * sizeof *out->v);
	if (!out->v)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < v->n; i++) {
		char p[PATHMAX];
		snprintf(p, sizeof p, "%s[%zu]", path, i);
		if (as_str(c, v->u.items[i], p, &out->v[i]) != KP_OK)
			return KP_PARSE;
	}
	out->n = v->n;
	return KP_OK;
}

/* ---- quantities ---- */

int kp_k8s_get_resources(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_ress *out)
{
	const kp_ynode *v;
	memset(out, 0, sizeof *out);
	if (kp_k8s_get_map(c, m, key, path, &v) != KP_OK)
		return KP_PARSE;
	if (!v || !v->n)
		return KP_OK;
	out->v = kp_arena_alloc(c->a, v->n * sizeof *out->v);
	if (!out->v)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < v->n; i++) {
		const char *name = v->u.pairs[i].key->u.str;
		const kp_ynode *q = v->u.pairs[i].value;
		if (!name[0])
			return kp_k8s_bad(c, v->u.pairs[i].key, "%s: empty resource name", path);
		if (q->type != KP_Y_SCALAR || kp_ynode_is_null(q))
			return kp_k8s_bad(c, q, "%s.%s: expected a quantity, got a %s", path, name, kp_ynode_type_name(q));
		kp_err qe = { 0 };
		int64_t val;
		if (kp_quantity_parse(q->u.str, kp_resource_is_milli(name), &val, &qe) != KP_OK) {
			kp_err_set(c->err, qe.code, "%s.%s: %s", path, name, qe.msg);
			kp_k8s_locate(c, c->err, q->line, q->col);
			return qe.code;
		}
		if (val < 0)
			return kp_k8s_bad(c, q, "%s.%s: negative quantity '%s'", path, name, q->u.str);
		out->v[i].name = name;
		out->v[i].value = val;
	}
	out->n = v->n;
	return KP_OK;
}

/* ---- selectors ---- */

static const char *const label_ops[] = { "In", "NotIn", "Exists", "DoesNotExist", NULL };

int kp_k8s_get_reqs(kctx *c, const kp_ynode *seq, const char *path, const char *const *ops, kp_req **out,
		    size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!seq || !seq->n)
		return KP_OK;
	*out = kp_arena_alloc(c->a, seq->n * sizeof **out);
	if (!*out)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_req *r = &(*out)[i];
		char p[PATHMAX];
		snprintf(p, sizeof p, "%s[%zu]", path, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		char pk[PATHMAX + 16];
		snprintf(pk, sizeof pk, "%s.key", p);
		if (kp_k8s_get_str(c, e, "key", pk, &r->key) != KP_OK)
			return KP_PARSE;
		if (!r->key || !r->key[0])
			return kp_k8s_bad(c, e, "%s.key: required", p);
		snprintf(pk, sizeof pk, "%s.operator", p);
		if (kp_k8s_one_of(c, e, "operator", pk, ops, &r->op) != KP_OK)
			return KP_PARSE;
		if (!r->op)
			return kp_k8s_bad(c, e, "%s.operator: required", p);
		snprintf(pk, sizeof pk, "%s.values", p);
		if (kp_k8s_get_strs(c, e, "values", pk, &r->values) != KP_OK)
			return KP_PARSE;
		int set_op = !strcmp(r->op, "In") || !strcmp(r->op, "NotIn");
		int num_op = !strcmp(r->op, "Gt") || !strcmp(r->op, "Lt");
		const kp_ynode *vn = kp_ymap_get(e, "values");
		if (!vn) {
			/* `values: []` reads as an empty list; a missing key points at the operator */
			for (size_t k = 0; k < e->n; k++)
				if (!strcmp(e->u.pairs[k].key->u.str, "values"))
					vn = e->u.pairs[k].value;
			if (!vn)
				vn = kp_ymap_get(e, "operator");
		}
		if (set_op && !r->values.n)
			return kp_k8s_bad(c, vn, "%s.values: must be non-empty with operator %s", p, r->op);
		if (!set_op && !num_op && r->values.n)
			return kp_k8s_bad(c, vn, "%s.values: must be empty with operator %s", p, r->op);
		if (num_op) {
			int64_t dummy;
			if (r->values.n != 1 || kp_k8s_parse_int(r->values.v[0], &dummy) != 1)
				return kp_k8s_bad(c, vn, "%s.values: operator %s needs exactly one integer value", p, r->op);
		}
	}
	*n = seq->n;
	return KP_OK;
}

/* metav1.LabelSelector; matchLabels become In requirements (sorted by key, as
 * LabelSelectorAsSelector sorts them) ahead of matchExpressions. */
int kp_k8s_get_selector(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_selector *out)
{
	const kp_ynode *v, *ml, *me;
	memset(out, 0, sizeof *out);
	if (kp_k8s_get_map(c, m, key, path, &v) != KP_OK)
		return KP_PARSE;
	if (!v)
		return KP_OK;
	out->present = 1;
	char p[PATHMAX];
	snprintf(p, sizeof p, "%s.matchLabels", path);
	kp_kvs labels;
	if (kp_k8s_get_map(c, v, "matchLabels", p, &ml) != KP_OK || kp_k8s_get_kvs(c, v, "matchLabels", p, &labels) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.matchExpressions", path);
	kp_req *exprs;
	size_t nexprs;
	if (kp_k8s_get_seq(c, v, "matchExpressions", p, &me) != KP_OK || kp_k8s_get_reqs(c, me, p, label_ops, &exprs, &nexprs))
		return KP_PARSE;
	size_t n = labels.n + nexprs;
	if (!n)
		return KP_OK;
	out->reqs = kp_arena_alloc(c->a, n * sizeof *out->reqs);
	if (!out->reqs)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < labels.n; i++) {
		kp_req *r = &out->reqs[i];
		r->key = labels.v[i].key;
		r->op = "In";
		r->values.v = kp_arena_alloc(c->a, sizeof(char *));
		if (!r->values.v)
			return kp_k8s_nomem(c);
		r->values.v[0] = labels.v[i].value;
		r->values.n = 1;
	}
	/* insertion sort of the matchLabels part by key */
	for (size_t i = 1; i < labels.n; i++)
		for (size_t j = i; j > 0 && strcmp(out->reqs[j - 1].key, out->reqs[j].key) > 0; j--) {
			kp_req t = out->reqs[j];
			out->reqs[j] = out->reqs[j - 1];
			out->reqs[j - 1] = t;
		}
	if (nexprs)
		memcpy(out->reqs + labels.n, exprs, nexprs * sizeof *exprs);
	out->n = n;
	(void)ml;
	return KP_OK;
}

/* A plain map selector (Service, ReplicationController). */
int kp_k8s_map_selector(kctx *c, const kp_kvs *kv, kp_selector *out)
{
	memset(out, 0, sizeof *out);
	out->present = 1;
	if (!kv->n)
		return KP_OK;
	out->reqs = kp_arena_alloc(c->a, kv->n * sizeof *out->reqs);
	if (!out->reqs)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < kv->n; i++) {
		out->reqs[i].key = kv->v[i].key;
		out->reqs[i].op = "In";
		out->reqs[i].values.v = kp_arena_alloc(c->a, sizeof(char *));
		if (!out->reqs[i].values.v)
			return kp_k8s_nomem(c);
		out->reqs[i].values.v[0] = kv->v[i].value;
		out->reqs[i].values.n = 1;
	}
	out->n = kv->n;
	return KP_OK;
}

