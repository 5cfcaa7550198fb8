/*
 * k8s.c — Kubernetes objects (YAML or JSON) -> kplan's model structs.
 *
 * kp_k8s_read() walks every object of a YAML/JSON stream (ydom.c: documents,
 * `kind: List` items) and hands Nodes, Pods, PriorityClasses,
 * PodDisruptionBudgets, Services, Namespaces, workloads (Deployment,
 * ReplicaSet, StatefulSet, Job, ReplicationController, DaemonSet) and
 * KubeSchedulerConfigurations to the kp_import_* functions.  Other kinds are
 * counted and skipped.  Objects without `kind` (client-go dumps) are
 * recognised by shape: spec.containers -> Pod, status.nodeInfo /
 * status.capacity -> Node.
 *
 * Validation follows the API server where it decides what the scheduler sees
 * (operators, effects, quantities, integer fields); a bad object is reported
 * as FILE:LINE:COL: KIND NAMESPACE/NAME: path: what is wrong, and goes through
 * kp_import_invalid() (which stops the batch unless --skip-invalid).
 */
#include "k8s.h"
#include "../common/ydom.h"
#include "../common/quantity.h"
#include "../common/ytext.h"
#include "../common/priority.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>

typedef struct kctx {
	kp_import *imp;
	const char *file;
	kp_arena *a;
	kp_err *err;
	char object[384];
	unsigned doc;
	int in_configmap;        /* reading a ConfigMap's data: no ConfigMaps inside */
	/* where the text read lies in the file (ytext.h): a node at line/col of
	 * the text is at line + yline, col + ycol of ytext, which has yfile's
	 * positions; ytext NULL: they cannot be recovered */
	const char *ytext, *yfile;
	size_t ylen;
	unsigned yline, ycol;
	const char *cm_label;    /* in a ConfigMap's literal block: "ConfigMap NS/NAME data.KEY" */
} kctx;

/* err at line/col of the text read; inside a ConfigMap's literal block, at
 * the file's own line and column, the ConfigMap named before the object */
static void locate(kctx *c, kp_err *err, unsigned line, unsigned col)
{
	if (!c->cm_label || !line) {
		kp_err_locate(err, c->file, line, col, c->object);
		return;
	}
	char obj[900];
	snprintf(obj, sizeof obj, "%s%s%s", c->cm_label, c->object[0] ? ": " : "", c->object);
	kp_err_locate(err, c->yfile, line + c->yline, col + c->ycol, obj);
}

#define PATHMAX 256

static int bad(kctx *c, const kp_ynode *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(kctx *c, const kp_ynode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(c->err, KP_PARSE, fmt, ap);
	va_end(ap);
	locate(c, c->err, at ? at->line : 0, at ? at->col : 0);
	return KP_PARSE;
}

static int nomem(kctx *c) { return kp_err_set(c->err, KP_NOMEM, "out of memory"); }

/* ---- typed accessors: absent (or null) is fine, a wrong type is an error ---- */

static int get_map(kctx *c, const kp_ynode *m, const char *key, const char *path, const kp_ynode **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	if (!v)
		return KP_OK;
	if (v->type != KP_Y_MAP)
		return bad(c, v, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(v));
	*out = v;
	return KP_OK;
}

static int get_seq(kctx *c, const kp_ynode *m, const char *key, const char *path, const kp_ynode **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	if (!v)
		return KP_OK;
	if (v->type != KP_Y_SEQ)
		return bad(c, v, "%s: expected a list, got a %s", path, kp_ynode_type_name(v));
	*out = v;
	return KP_OK;
}

static int as_str(kctx *c, const kp_ynode *v, const char *path, const char **out)
{
	if (v->type != KP_Y_SCALAR)
		return bad(c, v, "%s: expected a string, got a %s", path, kp_ynode_type_name(v));
	*out = v->u.str;
	return KP_OK;
}

static int get_str(kctx *c, const kp_ynode *m, const char *key, const char *path, const char **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	return v ? as_str(c, v, path, out) : KP_OK;
}

static int parse_int(const char *s, int64_t *out)
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
		return bad(c, v, "%s: expected an integer, got a %s", path,
			   v->type == KP_Y_SCALAR ? "quoted string" : kp_ynode_type_name(v));
	int r = parse_int(v->u.str, out);
	if (r < 0)
		return bad(c, v, "%s: integer '%s' out of range", path, v->u.str);
	if (r == 0)
		return bad(c, v, "%s: expected an integer, got '%s'", path, v->u.str);
	return KP_OK;
}

static int get_int(kctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out, int *present)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	if (present)
		*present = v != NULL;
	if (!v)
		return KP_OK;
	return as_int(c, v, path, out);
}

static int get_bool(kctx *c, const kp_ynode *m, const char *key, const char *path, int *out)
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
	return bad(c, v, "%s: expected true or false, got %s%s%s", path,
		   v->type == KP_Y_SCALAR ? "'" : "a ", v->type == KP_Y_SCALAR ? s : kp_ynode_type_name(v),
		   v->type == KP_Y_SCALAR ? "'" : "");
}

static int get_time(kctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out)
{
	const char *s;
	*out = INT64_MIN;
	if (get_str(c, m, key, path, &s) != KP_OK)
		return KP_PARSE;
	if (s && kp_parse_time(s, out) != KP_OK)
		return bad(c, kp_ymap_get(m, key), "%s: invalid timestamp '%s' (want RFC 3339)", path, s);
	return KP_OK;
}

static int one_of(kctx *c, const kp_ynode *m, const char *key, const char *path, const char *const *allowed,
		  const char **out)
{
	if (get_str(c, m, key, path, out) != KP_OK)
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
	return bad(c, kp_ymap_get(m, key), "%s: '%s' is not one of %s", path, *out, list);
}

/* map of string -> string (labels, nodeSelector); null values become "" */
static int get_kvs(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_kvs *out)
{
	const kp_ynode *v;
	memset(out, 0, sizeof *out);
	if (get_map(c, m, key, path, &v) != KP_OK || !v || !v->n)
		return c->err->code ? KP_PARSE : KP_OK;
	out->v = kp_arena_alloc(c->a, v->n * sizeof *out->v);
	if (!out->v)
		return nomem(c);
	for (size_t i = 0; i < v->n; i++) {
		const kp_ynode *val = v->u.pairs[i].value;
		out->v[i].key = v->u.pairs[i].key->u.str;
		if (kp_ynode_is_null(val))
			out->v[i].value = "";
		else if (val->type != KP_Y_SCALAR)
			return bad(c, val, "%s.%s: expected a string, got a %s", path, out->v[i].key,
				   kp_ynode_type_name(val));
		else
			out->v[i].value = val->u.str;
	}
	out->n = v->n;
	return KP_OK;
}

static int get_strs(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_strs *out)
{
	const kp_ynode *v;
	memset(out, 0, sizeof *out);
	if (get_seq(c, m, key, path, &v) != KP_OK)
		return KP_PARSE;
	if (!v || !v->n)
		return KP_OK;
	out->v = kp_arena_alloc(c->a, v->n * sizeof *out->v);
	if (!out->v)
		return nomem(c);
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

static int get_resources(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_ress *out)
{
	const kp_ynode *v;
	memset(out, 0, sizeof *out);
	if (get_map(c, m, key, path, &v) != KP_OK)
		return KP_PARSE;
	if (!v || !v->n)
		return KP_OK;
	out->v = kp_arena_alloc(c->a, v->n * sizeof *out->v);
	if (!out->v)
		return nomem(c);
	for (size_t i = 0; i < v->n; i++) {
		const char *name = v->u.pairs[i].key->u.str;
		const kp_ynode *q = v->u.pairs[i].value;
		if (!name[0])
			return bad(c, v->u.pairs[i].key, "%s: empty resource name", path);
		if (q->type != KP_Y_SCALAR || kp_ynode_is_null(q))
			return bad(c, q, "%s.%s: expected a quantity, got a %s", path, name, kp_ynode_type_name(q));
		kp_err qe = { 0 };
		int64_t val;
		if (kp_quantity_parse(q->u.str, kp_resource_is_milli(name), &val, &qe) != KP_OK) {
			kp_err_set(c->err, qe.code, "%s.%s: %s", path, name, qe.msg);
			locate(c, c->err, q->line, q->col);
			return qe.code;
		}
		if (val < 0)
			return bad(c, q, "%s.%s: negative quantity '%s'", path, name, q->u.str);
		out->v[i].name = name;
		out->v[i].value = val;
	}
	out->n = v->n;
	return KP_OK;
}

/* ---- selectors ---- */

static const char *const label_ops[] = { "In", "NotIn", "Exists", "DoesNotExist", NULL };
static const char *const node_ops[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", NULL };

static int get_reqs(kctx *c, const kp_ynode *seq, const char *path, const char *const *ops, kp_req **out,
		    size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!seq || !seq->n)
		return KP_OK;
	*out = kp_arena_alloc(c->a, seq->n * sizeof **out);
	if (!*out)
		return nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_req *r = &(*out)[i];
		char p[PATHMAX];
		snprintf(p, sizeof p, "%s[%zu]", path, i);
		if (e->type != KP_Y_MAP)
			return bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		char pk[PATHMAX + 16];
		snprintf(pk, sizeof pk, "%s.key", p);
		if (get_str(c, e, "key", pk, &r->key) != KP_OK)
			return KP_PARSE;
		if (!r->key || !r->key[0])
			return bad(c, e, "%s.key: required", p);
		snprintf(pk, sizeof pk, "%s.operator", p);
		if (one_of(c, e, "operator", pk, ops, &r->op) != KP_OK)
			return KP_PARSE;
		if (!r->op)
			return bad(c, e, "%s.operator: required", p);
		snprintf(pk, sizeof pk, "%s.values", p);
		if (get_strs(c, e, "values", pk, &r->values) != KP_OK)
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
			return bad(c, vn, "%s.values: must be non-empty with operator %s", p, r->op);
		if (!set_op && !num_op && r->values.n)
			return bad(c, vn, "%s.values: must be empty with operator %s", p, r->op);
		if (num_op) {
			int64_t dummy;
			if (r->values.n != 1 || parse_int(r->values.v[0], &dummy) != 1)
				return bad(c, vn, "%s.values: operator %s needs exactly one integer value", p, r->op);
		}
	}
	*n = seq->n;
	return KP_OK;
}

/* metav1.LabelSelector; matchLabels become In requirements (sorted by key, as
 * LabelSelectorAsSelector sorts them) ahead of matchExpressions. */
static int get_selector(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_selector *out)
{
	const kp_ynode *v, *ml, *me;
	memset(out, 0, sizeof *out);
	if (get_map(c, m, key, path, &v) != KP_OK)
		return KP_PARSE;
	if (!v)
		return KP_OK;
	out->present = 1;
	char p[PATHMAX];
	snprintf(p, sizeof p, "%s.matchLabels", path);
	kp_kvs labels;
	if (get_map(c, v, "matchLabels", p, &ml) != KP_OK || get_kvs(c, v, "matchLabels", p, &labels) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.matchExpressions", path);
	kp_req *exprs;
	size_t nexprs;
	if (get_seq(c, v, "matchExpressions", p, &me) != KP_OK || get_reqs(c, me, p, label_ops, &exprs, &nexprs))
		return KP_PARSE;
	size_t n = labels.n + nexprs;
	if (!n)
		return KP_OK;
	out->reqs = kp_arena_alloc(c->a, n * sizeof *out->reqs);
	if (!out->reqs)
		return nomem(c);
	for (size_t i = 0; i < labels.n; i++) {
		kp_req *r = &out->reqs[i];
		r->key = labels.v[i].key;
		r->op = "In";
		r->values.v = kp_arena_alloc(c->a, sizeof(char *));
		if (!r->values.v)
			return nomem(c);
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
static int map_selector(kctx *c, const kp_kvs *kv, kp_selector *out)
{
	memset(out, 0, sizeof *out);
	out->present = 1;
	if (!kv->n)
		return KP_OK;
	out->reqs = kp_arena_alloc(c->a, kv->n * sizeof *out->reqs);
	if (!out->reqs)
		return nomem(c);
	for (size_t i = 0; i < kv->n; i++) {
		out->reqs[i].key = kv->v[i].key;
		out->reqs[i].op = "In";
		out->reqs[i].values.v = kp_arena_alloc(c->a, sizeof(char *));
		if (!out->reqs[i].values.v)
			return nomem(c);
		out->reqs[i].values.v[0] = kv->v[i].value;
		out->reqs[i].values.n = 1;
	}
	out->n = kv->n;
	return KP_OK;
}

/* ---- pod spec ---- */

static int get_node_term(kctx *c, const kp_ynode *t, const char *path, kp_node_term *out)
{
	const kp_ynode *me, *mf;
	char p[PATHMAX + 32];
	if (t->type != KP_Y_MAP)
		return bad(c, t, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(t));
	snprintf(p, sizeof p, "%s.matchExpressions", path);
	if (get_seq(c, t, "matchExpressions", p, &me) != KP_OK ||
	    get_reqs(c, me, p, node_ops, &out->exprs, &out->nexprs) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.matchFields", path);
	if (get_seq(c, t, "matchFields", p, &mf) != KP_OK ||
	    get_reqs(c, mf, p, node_ops, &out->fields, &out->nfields) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; i < out->nfields; i++)
		if (strcmp(out->fields[i].key, "metadata.name") != 0)
			return bad(c, kp_ymap_get(mf->u.items[i], "key"),
				   "%s[%zu].key: only 'metadata.name' is supported in matchFields, got '%s'",
				   p, i, out->fields[i].key);
	return KP_OK;
}

static int get_node_affinity(kctx *c, const kp_ynode *na, kp_pod_in *pod)
{
	const kp_ynode *req, *terms, *pref;
	if (get_map(c, na, "requiredDuringSchedulingIgnoredDuringExecution",
		    "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", &req) != KP_OK)
		return KP_PARSE;
	if (req) {
		pod->has_required_node_affinity = 1;
		if (get_seq(c, req, "nodeSelectorTerms", "spec.affinity.nodeAffinity.required.nodeSelectorTerms",
			    &terms) != KP_OK)
			return KP_PARSE;
		if (terms && terms->n) {
			pod->required_terms = kp_arena_alloc(c->a, terms->n * sizeof *pod->required_terms);
			if (!pod->required_terms)
				return nomem(c);
			for (size_t i = 0; i < terms->n; i++) {
				char p[PATHMAX];
				snprintf(p, sizeof p, "spec.affinity.nodeAffinity.required.nodeSelectorTerms[%zu]", i);
				if (get_node_term(c, terms->u.items[i], p, &pod->required_terms[i]) != KP_OK)
					return KP_PARSE;
			}
			pod->nrequired = terms->n;
		}
	}
	if (get_seq(c, na, "preferredDuringSchedulingIgnoredDuringExecution",
		    "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution", &pref) != KP_OK)
		return KP_PARSE;
	if (pref && pref->n) {
		pod->preferred_terms = kp_arena_alloc(c->a, pref->n * sizeof *pod->preferred_terms);
		if (!pod->preferred_terms)
			return nomem(c);
		for (size_t i = 0; i < pref->n; i++) {
			const kp_ynode *e = pref->u.items[i], *pr;
			char p[PATHMAX], pw[PATHMAX + 16];
			snprintf(p, sizeof p, "spec.affinity.nodeAffinity.preferred[%zu]", i);
			if (e->type != KP_Y_MAP)
				return bad(c, e, "%s: expected a mapping", p);
			kp_node_term *t = &pod->preferred_terms[i];
			int has_w;
			snprintf(pw, sizeof pw, "%s.weight", p);
			if (get_int(c, e, "weight", pw, &t->weight, &has_w) != KP_OK)
				return KP_PARSE;
			if (!has_w || t->weight < 1 || t->weight > 100)
				return bad(c, e, "%s.weight: must be in 1..100", p);
			snprintf(pw, sizeof pw, "%s.preference", p);
			if (get_map(c, e, "preference", pw, &pr) != KP_OK)
				return KP_PARSE;
			if (!pr)
				return bad(c, e, "%s.preference: required", p);
			if (get_node_term(c, pr, pw, t) != KP_OK)
				return KP_PARSE;
			t->weight = t->weight;
		}
		pod->npreferred = pref->n;
	}
	return KP_OK;
}

static int get_pod_term(kctx *c, const kp_ynode *t, const char *path, kp_pod_term *out)
{
	char p[PATHMAX + 32];
	if (t->type != KP_Y_MAP)
		return bad(c, t, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(t));
	snprintf(p, sizeof p, "%s.topologyKey", path);
	if (get_str(c, t, "topologyKey", p, &out->topology_key) != KP_OK)
		return KP_PARSE;
	if (!out->topology_key || !out->topology_key[0])
		return bad(c, t, "%s.topologyKey: required", path);
	snprintf(p, sizeof p, "%s.labelSelector", path);
	if (get_selector(c, t, "labelSelector", p, &out->selector) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.namespaces", path);
	if (get_strs(c, t, "namespaces", p, &out->namespaces) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.namespaceSelector", path);
	if (get_selector(c, t, "namespaceSelector", p, &out->ns_selector) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.matchLabelKeys", path);
	if (get_strs(c, t, "matchLabelKeys", p, &out->match_label_keys) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.mismatchLabelKeys", path);
	return get_strs(c, t, "mismatchLabelKeys", p, &out->mismatch_label_keys);
}

static int get_pod_affinity(kctx *c, const kp_ynode *aff, kp_pod_in *pod)
{
	static const char *const kinds[2] = { "podAffinity", "podAntiAffinity" };
	size_t total = 0;
	const kp_ynode *pa[2], *req[2], *pref[2];
	for (int k = 0; k < 2; k++) {
		char p[PATHMAX];
		snprintf(p, sizeof p, "spec.affinity.%s", kinds[k]);
		if (get_map(c, aff, kinds[k], p, &pa[k]) != KP_OK)
			return KP_PARSE;
		char pr[PATHMAX + 64];
		snprintf(pr, sizeof pr, "%s.requiredDuringSchedulingIgnoredDuringExecution", p);
		if (get_seq(c, pa[k], "requiredDuringSchedulingIgnoredDuringExecution", pr, &req[k]) != KP_OK)
			return KP_PARSE;
		snprintf(pr, sizeof pr, "%s.preferredDuringSchedulingIgnoredDuringExecution", p);
		if (get_seq(c, pa[k], "preferredDuringSchedulingIgnoredDuringExecution", pr, &pref[k]) != KP_OK)
			return KP_PARSE;
		total += (req[k] ? req[k]->n : 0) + (pref[k] ? pref[k]->n : 0);
	}
	if (!total)
		return KP_OK;
	pod->pod_terms = kp_arena_alloc(c->a, total * sizeof *pod->pod_terms);
	if (!pod->pod_terms)
		return nomem(c);
	size_t n = 0;
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; req[k] && i < req[k]->n; i++) {
			char p[PATHMAX];
			snprintf(p, sizeof p, "spec.affinity.%s.required[%zu]", kinds[k], i);
			kp_pod_term *t = &pod->pod_terms[n++];
			t->anti = k;
			t->required = 1;
			if (get_pod_term(c, req[k]->u.items[i], p, t) != KP_OK)
				return KP_PARSE;
		}
		for (size_t i = 0; pref[k] && i < pref[k]->n; i++) {
			const kp_ynode *e = pref[k]->u.items[i], *term;
			char p[PATHMAX], pw[PATHMAX + 32];
			snprintf(p, sizeof p, "spec.affinity.%s.preferred[%zu]", kinds[k], i);
			if (e->type != KP_Y_MAP)
				return bad(c, e, "%s: expected a mapping", p);
			kp_pod_term *t = &pod->pod_terms[n++];
			t->anti = k;
			int has_w;
			snprintf(pw, sizeof pw, "%s.weight", p);
			if (get_int(c, e, "weight", pw, &t->weight, &has_w) != KP_OK)
				return KP_PARSE;
			if (!has_w || t->weight < 1 || t->weight > 100)
				return bad(c, e, "%s.weight: must be in 1..100", p);
			snprintf(pw, sizeof pw, "%s.podAffinityTerm", p);
			if (get_map(c, e, "podAffinityTerm", pw, &term) != KP_OK)
				return KP_PARSE;
			if (!term)
				return bad(c, e, "%s.podAffinityTerm: required", p);
			if (get_pod_term(c, term, pw, t) != KP_OK)
				return KP_PARSE;
		}
	}
	pod->npod_terms = n;
	return KP_OK;
}

static int get_spreads(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const when[] = { "DoNotSchedule", "ScheduleAnyway", NULL };
	static const char *const policy[] = { "Honor", "Ignore", NULL };
	const kp_ynode *seq;
	if (get_seq(c, spec, "topologySpreadConstraints", "spec.topologySpreadConstraints", &seq) != KP_OK)
		return KP_PARSE;
	if (!seq || !seq->n)
		return KP_OK;
	pod->spreads = kp_arena_alloc(c->a, seq->n * sizeof *pod->spreads);
	if (!pod->spreads)
		return nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_spread *s = &pod->spreads[i];
		char p[PATHMAX], q[PATHMAX + 32];
		snprintf(p, sizeof p, "spec.topologySpreadConstraints[%zu]", i);
		if (e->type != KP_Y_MAP)
			return bad(c, e, "%s: expected a mapping", p);
		int has;
		snprintf(q, sizeof q, "%s.maxSkew", p);
		if (get_int(c, e, "maxSkew", q, &s->max_skew, &has) != KP_OK)
			return KP_PARSE;
		if (!has || s->max_skew < 1)
			return bad(c, has ? kp_ymap_get(e, "maxSkew") : e, "%s.maxSkew: must be at least 1", p);
		snprintf(q, sizeof q, "%s.topologyKey", p);
		if (get_str(c, e, "topologyKey", q, &s->topology_key) != KP_OK)
			return KP_PARSE;
		if (!s->topology_key || !s->topology_key[0])
			return bad(c, e, "%s.topologyKey: required", p);
		snprintf(q, sizeof q, "%s.whenUnsatisfiable", p);
		if (one_of(c, e, "whenUnsatisfiable", q, when, &s->when_unsatisfiable) != KP_OK)
			return KP_PARSE;
		if (!s->when_unsatisfiable)
			return bad(c, e, "%s.whenUnsatisfiable: required", p);
		snprintf(q, sizeof q, "%s.labelSelector", p);
		if (get_selector(c, e, "labelSelector", q, &s->selector) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.minDomains", p);
		if (get_int(c, e, "minDomains", q, &s->min_domains, &has) != KP_OK)
			return KP_PARSE;
		if (has && s->min_domains < 1)
			return bad(c, kp_ymap_get(e, "minDomains"), "%s.minDomains: must be at least 1", p);
		if (has && strcmp(s->when_unsatisfiable, "DoNotSchedule") != 0)
			return bad(c, kp_ymap_get(e, "minDomains"),
				   "%s.minDomains: only allowed with whenUnsatisfiable DoNotSchedule", p);
		snprintf(q, sizeof q, "%s.nodeAffinityPolicy", p);
		if (one_of(c, e, "nodeAffinityPolicy", q, policy, &s->node_affinity_policy) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.nodeTaintsPolicy", p);
		if (one_of(c, e, "nodeTaintsPolicy", q, policy, &s->node_taints_policy) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.matchLabelKeys", p);
		if (get_strs(c, e, "matchLabelKeys", q, &s->match_label_keys) != KP_OK)
			return KP_PARSE;
	}
	pod->nspreads = seq->n;
	return KP_OK;
}

static int get_tolerations(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const ops[] = { "Equal", "Exists", NULL };
	static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute", NULL };
	const kp_ynode *seq;
	if (get_seq(c, spec, "tolerations", "spec.tolerations", &seq) != KP_OK)
		return KP_PARSE;
	if (!seq || !seq->n)
		return KP_OK;
	pod->tolerations = kp_arena_alloc(c->a, seq->n * sizeof *pod->tolerations);
	if (!pod->tolerations)
		return nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_toleration *t = &pod->tolerations[i];
		char p[PATHMAX], q[PATHMAX + 32];
		snprintf(p, sizeof p, "spec.tolerations[%zu]", i);
		if (e->type != KP_Y_MAP)
			return bad(c, e, "%s: expected a mapping", p);
		snprintf(q, sizeof q, "%s.key", p);
		if (get_str(c, e, "key", q, &t->key) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.operator", p);
		if (one_of(c, e, "operator", q, ops, &t->op) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.value", p);
		if (get_str(c, e, "value", q, &t->value) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.effect", p);
		if (one_of(c, e, "effect", q, effects, &t->effect) != KP_OK)
			return KP_PARSE;
		int has;
		t->seconds = INT64_MIN;
		snprintf(q, sizeof q, "%s.tolerationSeconds", p);
		if (get_int(c, e, "tolerationSeconds", q, &t->seconds, &has) != KP_OK)
			return KP_PARSE;
		if (!has)
			t->seconds = INT64_MIN;
		int exists = t->op && !strcmp(t->op, "Exists");
		if (exists && t->value && t->value[0])
			return bad(c, kp_ymap_get(e, "value"), "%s.value: must be empty when operator is Exists", p);
		if ((!t->key || !t->key[0]) && !exists)
			return bad(c, e, "%s.operator: must be Exists when key is empty", p);
	}
	pod->ntolerations = seq->n;
	return KP_OK;
}

static int get_containers(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const protocols[] = { "TCP", "UDP", "SCTP", NULL };
	const kp_ynode *apps, *inits;
	if (get_seq(c, spec, "containers", "spec.containers", &apps) != KP_OK ||
	    get_seq(c, spec, "initContainers", "spec.initContainers", &inits) != KP_OK)
		return KP_PARSE;
	size_t n = (apps ? apps->n : 0) + (inits ? inits->n : 0);
	if (!apps || !apps->n)
		return bad(c, spec, "spec.containers: a pod needs at least one container");
	pod->containers = kp_arena_alloc(c->a, n * sizeof *pod->containers);
	if (!pod->containers)
		return nomem(c);
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++) {
		const kp_ynode *seq = pass == 0 ? inits : apps;
		const char *what = pass == 0 ? "spec.initContainers" : "spec.containers";
		for (size_t i = 0; seq && i < seq->n; i++) {
			const kp_ynode *e = seq->u.items[i], *res, *ports;
			kp_container *ct = &pod->containers[k++];
			char p[PATHMAX], q[PATHMAX + 64];
			snprintf(p, sizeof p, "%s[%zu]", what, i);
			if (e->type != KP_Y_MAP)
				return bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
			snprintf(q, sizeof q, "%s.name", p);
			if (get_str(c, e, "name", q, &ct->name) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.image", p);
			if (get_str(c, e, "image", q, &ct->image) != KP_OK)
				return KP_PARSE;
			ct->kind = pass == 1 ? KP_CONTAINER_APP : KP_CONTAINER_INIT;
			if (pass == 0) {
				const char *rp;
				snprintf(q, sizeof q, "%s.restartPolicy", p);
				if (get_str(c, e, "restartPolicy", q, &rp) != KP_OK)
					return KP_PARSE;
				if (rp && !strcmp(rp, "Always"))
					ct->kind = KP_CONTAINER_SIDECAR;
				else if (rp)
					return bad(c, kp_ymap_get(e, "restartPolicy"), "%s: only 'Always' is allowed, got '%s'", q, rp);
			}
			snprintf(q, sizeof q, "%s.resources", p);
			if (get_map(c, e, "resources", q, &res) != KP_OK)
				return KP_PARSE;
			char r[PATHMAX + 96];
			snprintf(r, sizeof r, "%s.resources.requests", p);
			if (get_resources(c, res, "requests", r, &ct->requests) != KP_OK)
				return KP_PARSE;
			snprintf(r, sizeof r, "%s.resources.limits", p);
			if (get_resources(c, res, "limits", r, &ct->limits) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.ports", p);
			if (get_seq(c, e, "ports", q, &ports) != KP_OK)
				return KP_PARSE;
			size_t np = 0;
			for (size_t j = 0; ports && j < ports->n; j++) {
				const kp_ynode *pe = ports->u.items[j];
				char pp[PATHMAX + 96], pq[PATHMAX + 128];
				snprintf(pp, sizeof pp, "%s.ports[%zu]", p, j);
				if (pe->type != KP_Y_MAP)
					return bad(c, pe, "%s: expected a mapping", pp);
				kp_port port = { 0 };
				int has;
				snprintf(pq, sizeof pq, "%s.containerPort", pp);
				if (get_int(c, pe, "containerPort", pq, &port.container_port, &has) != KP_OK)
					return KP_PARSE;
				snprintf(pq, sizeof pq, "%s.hostPort", pp);
				if (get_int(c, pe, "hostPort", pq, &port.host_port, &has) != KP_OK)
					return KP_PARSE;
				if (port.host_port < 0 || port.host_port > 65535 || port.container_port < 0 ||
				    port.container_port > 65535)
					return bad(c, pe, "%s: port out of range 0..65535", pp);
				/* API defaulting: with hostNetwork the host port is the container port */
				if (pod->host_network && !port.host_port && ct->kind != KP_CONTAINER_INIT)
					port.host_port = port.container_port;
				snprintf(pq, sizeof pq, "%s.protocol", pp);
				if (one_of(c, pe, "protocol", pq, protocols, &port.protocol) != KP_OK)
					return KP_PARSE;
				snprintf(pq, sizeof pq, "%s.hostIP", pp);
				if (get_str(c, pe, "hostIP", pq, &port.host_ip) != KP_OK)
					return KP_PARSE;
				/* semantics §5.5: only regular containers' host ports count */
				if (port.host_port > 0 && ct->kind == KP_CONTAINER_APP) {
					if (!ct->ports) {
						ct->ports = kp_arena_alloc(c->a, ports->n * sizeof *ct->ports);
						if (!ct->ports)
							return nomem(c);
					}
					ct->ports[np++] = port;
				}
			}
			ct->nports = np;
		}
	}
	/* spec order: init containers first, then app containers */
	pod->ncontainers = n;
	return KP_OK;
}

/* The scheduling-relevant parts of a PodSpec; path prefix is "spec". */
static int get_pod_spec(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const preempt[] = { "PreemptLowerPriority", "Never", NULL };
	const kp_ynode *aff, *na, *gates, *vols;
	int has;
	if (!spec)
		return bad(c, NULL, "spec: required");
	if (get_str(c, spec, "nodeName", "spec.nodeName", &pod->node_name) != KP_OK ||
	    get_str(c, spec, "schedulerName", "spec.schedulerName", &pod->scheduler_name) != KP_OK ||
	    get_int(c, spec, "priority", "spec.priority", &pod->priority, &has) != KP_OK ||
	    get_str(c, spec, "priorityClassName", "spec.priorityClassName", &pod->priority_class) != KP_OK ||
	    one_of(c, spec, "preemptionPolicy", "spec.preemptionPolicy", preempt, &pod->preemption_policy) != KP_OK ||
	    get_bool(c, spec, "hostNetwork", "spec.hostNetwork", &pod->host_network) != KP_OK)
		return KP_PARSE;
	pod->has_priority = has;
	if (has && (pod->priority < INT32_MIN || pod->priority > INT32_MAX))
		return bad(c, kp_ymap_get(spec, "priority"), "spec.priority: out of the int32 range");
	if (pod->node_name && !pod->node_name[0])
		pod->node_name = NULL;
	if (pod->priority_class && !pod->priority_class[0])
		pod->priority_class = NULL;
	if (get_seq(c, spec, "schedulingGates", "spec.schedulingGates", &gates) != KP_OK ||
	    get_seq(c, spec, "volumes", "spec.volumes", &vols) != KP_OK)
		return KP_PARSE;
	pod->scheduling_gates = gates ? (int)gates->n : 0;
	for (size_t i = 0; vols && i < vols->n; i++)
		if (kp_ymap_get(vols->u.items[i], "persistentVolumeClaim") || kp_ymap_get(vols->u.items[i], "ephemeral"))
			pod->pvc_volumes++;
	if (get_resources(c, spec, "overhead", "spec.overhead", &pod->overhead) != KP_OK ||
	    get_kvs(c, spec, "nodeSelector", "spec.nodeSelector", &pod->node_selector) != KP_OK ||
	    get_tolerations(c, spec, pod) != KP_OK || get_containers(c, spec, pod) != KP_OK ||
	    get_spreads(c, spec, pod) != KP_OK)
		return KP_PARSE;
	if (get_map(c, spec, "affinity", "spec.affinity", &aff) != KP_OK)
		return KP_PARSE;
	if (aff) {
		if (get_map(c, aff, "nodeAffinity", "spec.affinity.nodeAffinity", &na) != KP_OK)
			return KP_PARSE;
		if (na && get_node_affinity(c, na, pod) != KP_OK)
			return KP_PARSE;
		if (get_pod_affinity(c, aff, pod) != KP_OK)
			return KP_PARSE;
	}
	return KP_OK;
}

static int get_owner(kctx *c, const kp_ynode *meta, kp_owner *out)
{
	const kp_ynode *refs;
	memset(out, 0, sizeof *out);
	if (get_seq(c, meta, "ownerReferences", "metadata.ownerReferences", &refs) != KP_OK)
		return KP_PARSE;
	/* only the controller reference (controller: true) makes an owner */
	const kp_ynode *pick = NULL;
	for (size_t i = 0; refs && i < refs->n; i++) {
		const kp_ynode *r = refs->u.items[i];
		int ctl = 0;
		if (r->type != KP_Y_MAP)
			return bad(c, r, "metadata.ownerReferences[%zu]: expected a mapping", i);
		if (get_bool(c, r, "controller", "metadata.ownerReferences.controller", &ctl) != KP_OK)
			return KP_PARSE;
		if (ctl && !pick)
			pick = r;
	}
	if (!pick)
		return KP_OK;
	if (get_str(c, pick, "kind", "metadata.ownerReferences.kind", &out->kind) != KP_OK ||
	    get_str(c, pick, "name", "metadata.ownerReferences.name", &out->name) != KP_OK ||
	    get_str(c, pick, "uid", "metadata.ownerReferences.uid", &out->uid) != KP_OK)
		return KP_PARSE;
	return KP_OK;
}

/* ---- kinds ---- */

typedef struct objhead {
	const kp_ynode *obj, *meta, *spec, *status;
	const char *kind, *api_version, *name, *namespace_;
} objhead;

static void set_object(kctx *c, const char *kind, const char *ns, const char *name)
{
	if (ns)
		snprintf(c->object, sizeof c->object, "%s %s/%s", kind, ns, name ? name : "?");
	else
		snprintf(c->object, sizeof c->object, "%s %s", kind, name ? name : "?");
}

static int read_node(kctx *c, const objhead *h)
{
	kp_node_in n;
	memset(&n, 0, sizeof n);
	n.pos = (kp_pos){ h->obj->line, h->obj->col };
	n.name = h->name;
	const kp_ynode *taints, *images;
	if (get_str(c, h->meta, "uid", "metadata.uid", &n.uid) != KP_OK ||
	    get_time(c, h->meta, "creationTimestamp", "metadata.creationTimestamp", &n.created) != KP_OK ||
	    get_kvs(c, h->meta, "labels", "metadata.labels", &n.labels) != KP_OK ||
	    get_bool(c, h->spec, "unschedulable", "spec.unschedulable", &n.unschedulable) != KP_OK ||
	    get_resources(c, h->status, "allocatable", "status.allocatable", &n.allocatable) != KP_OK ||
	    get_resources(c, h->status, "capacity", "status.capacity", &n.capacity) != KP_OK ||
	    get_seq(c, h->spec, "taints", "spec.taints", &taints) != KP_OK ||
	    get_seq(c, h->status, "images", "status.images", &images) != KP_OK)
		return KP_PARSE;
	/* API defaulting (SetDefaults_NodeStatus): allocatable defaults to capacity */
	if (!kp_ymap_get(h->status, "allocatable"))
		n.allocatable = n.capacity;
	if (taints && taints->n) {
		static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute", NULL };
		n.taints = kp_arena_alloc(c->a, taints->n * sizeof *n.taints);
		if (!n.taints)
			return nomem(c);
		for (size_t i = 0; i < taints->n; i++) {
			const kp_ynode *t = taints->u.items[i];
			char p[64], q[96];
			snprintf(p, sizeof p, "spec.taints[%zu]", i);
			if (t->type != KP_Y_MAP)
				return bad(c, t, "%s: expected a mapping", p);
			snprintf(q, sizeof q, "%s.key", p);
			if (get_str(c, t, "key", q, &n.taints[i].key) != KP_OK)
				return KP_PARSE;
			if (!n.taints[i].key || !n.taints[i].key[0])
				return bad(c, t, "%s.key: required", p);
			snprintf(q, sizeof q, "%s.value", p);
			if (get_str(c, t, "value", q, &n.taints[i].value) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.effect", p);
			if (one_of(c, t, "effect", q, effects, &n.taints[i].effect) != KP_OK)
				return KP_PARSE;
			if (!n.taints[i].effect)
				return bad(c, t, "%s.effect: required", p);
		}
		n.ntaints = taints->n;
	}
	if (images && images->n) {
		n.images = kp_arena_alloc(c->a, images->n * sizeof *n.images);
		if (!n.images)
			return nomem(c);
		for (size_t i = 0; i < images->n; i++) {
			const kp_ynode *im = images->u.items[i];
			char p[64], q[96];
			snprintf(p, sizeof p, "status.images[%zu]", i);
			if (im->type != KP_Y_MAP)
				return bad(c, im, "%s: expected a mapping", p);
			snprintf(q, sizeof q, "%s.names", p);
			if (get_strs(c, im, "names", q, &n.images[i].names) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.sizeBytes", p);
			if (get_int(c, im, "sizeBytes", q, &n.images[i].size_bytes, NULL) != KP_OK)
				return KP_PARSE;
			if (n.images[i].size_bytes < 0)
				return bad(c, im, "%s.sizeBytes: negative", p);
		}
		n.nimages = images->n;
	}
	return kp_import_node(c->imp, c->file, &n, c->err);
}

/* metadata + spec + status of a Pod, or the template of a workload (meta = template.metadata) */
static int read_pod_parts(kctx *c, const kp_ynode *meta, const kp_ynode *spec, kp_pod_in *p)
{
	if (get_kvs(c, meta, "labels", "metadata.labels", &p->labels) != KP_OK)
		return KP_PARSE;
	return get_pod_spec(c, spec, p);
}

static int read_pod(kctx *c, const objhead *h)
{
	kp_pod_in p;
	memset(&p, 0, sizeof p);
	p.pos = (kp_pos){ h->obj->line, h->obj->col };
	p.namespace_ = h->namespace_;
	p.name = h->name;
	const kp_ynode *del;
	if (get_str(c, h->meta, "uid", "metadata.uid", &p.uid) != KP_OK ||
	    get_time(c, h->meta, "creationTimestamp", "metadata.creationTimestamp", &p.created) != KP_OK ||
	    get_owner(c, h->meta, &p.owner) != KP_OK || read_pod_parts(c, h->meta, h->spec, &p) != KP_OK ||
	    get_str(c, h->status, "phase", "status.phase", &p.phase) != KP_OK ||
	    get_str(c, h->status, "nominatedNodeName", "status.nominatedNodeName", &p.nominated_node) != KP_OK ||
	    get_time(c, h->status, "startTime", "status.startTime", &p.start_time) != KP_OK)
		return KP_PARSE;
	del = kp_ymap_get(h->meta, "deletionTimestamp");
	p.terminating = del != NULL;
	if (p.phase) {
		static const char *const phases[] = { "Pending", "Running", "Succeeded", "Failed", "Unknown", NULL };
		if (one_of(c, h->status, "phase", "status.phase", phases, &p.phase) != KP_OK)
			return KP_PARSE;
	}
	return kp_import_pod(c->imp, c->file, &p, c->err);
}

static int read_workload(kctx *c, const objhead *h)
{
	kp_workload_in w;
	memset(&w, 0, sizeof w);
	w.pos = (kp_pos){ h->obj->line, h->obj->col };
	w.kind = h->kind;
	w.api_version = h->api_version;
	w.namespace_ = h->namespace_;
	w.name = h->name;
	const kp_ynode *tmpl, *tmeta, *tspec;
	if (!h->spec)
		return bad(c, h->obj, "spec: required");
	if (get_str(c, h->meta, "uid", "metadata.uid", &w.uid) != KP_OK ||
	    get_time(c, h->meta, "creationTimestamp", "metadata.creationTimestamp", &w.created) != KP_OK ||
	    get_owner(c, h->meta, &w.owner) != KP_OK ||
	    get_map(c, h->spec, "template", "spec.template", &tmpl) != KP_OK)
		return KP_PARSE;
	if (!tmpl)
		return bad(c, h->spec, "spec.template: required");
	if (get_map(c, tmpl, "metadata", "spec.template.metadata", &tmeta) != KP_OK ||
	    get_map(c, tmpl, "spec", "spec.template.spec", &tspec) != KP_OK)
		return KP_PARSE;
	if (!tspec)
		return bad(c, tmpl, "spec.template.spec: required");
	w.tmpl.pos = (kp_pos){ tmpl->line, tmpl->col };
	w.tmpl.namespace_ = h->namespace_;
	if (read_pod_parts(c, tmeta, tspec, &w.tmpl) != KP_OK)
		return KP_PARSE;
	/* the StatefulSet controller adds one PVC volume per volumeClaimTemplate */
	if (!strcmp(h->kind, "StatefulSet")) {
		const kp_ynode *vct;
		if (get_seq(c, h->spec, "volumeClaimTemplates", "spec.volumeClaimTemplates", &vct) != KP_OK)
			return KP_PARSE;
		w.tmpl.pvc_volumes += vct ? (int)vct->n : 0;
	}

	int has;
	if (!strcmp(h->kind, "DaemonSet")) {
		w.replicas = -1;
	} else if (!strcmp(h->kind, "Job")) {
		int64_t par = 1, comp = 0;
		int has_comp, suspend;
		if (get_int(c, h->spec, "parallelism", "spec.parallelism", &par, &has) != KP_OK ||
		    get_int(c, h->spec, "completions", "spec.completions", &comp, &has_comp) != KP_OK ||
		    get_bool(c, h->spec, "suspend", "spec.suspend", &suspend) != KP_OK)
			return KP_PARSE;
		if (!has)
			par = 1;
		if (par < 0 || (has_comp && comp < 0))
			return bad(c, h->spec, "spec.parallelism/completions: must not be negative");
		w.replicas = suspend ? 0 : (has_comp && comp < par ? comp : par);
		if (w.replicas > KP_MAX_WORKLOAD_PODS)
			return bad(c, kp_ymap_get(h->spec, has_comp && comp < par ? "completions" : "parallelism"),
				   "spec.%s: %lld pods is more than kplan generates for one workload (%d)",
				   has_comp && comp < par ? "completions" : "parallelism", (long long)w.replicas,
				   KP_MAX_WORKLOAD_PODS);
	} else {
		if (get_int(c, h->spec, "replicas", "spec.replicas", &w.replicas, &has) != KP_OK)
			return KP_PARSE;
		if (!has)
			w.replicas = 1;
		const kp_ynode *rn = kp_ymap_get(h->spec, "replicas");
		if (w.replicas < 0)
			return bad(c, rn, "spec.replicas: must not be negative");
		/* an int32 in the API; kplan generates at most KP_MAX_WORKLOAD_PODS pods per workload */
		if (w.replicas > INT32_MAX)
			return bad(c, rn, "spec.replicas: %lld is out of the int32 range", (long long)w.replicas);
		if (w.replicas > KP_MAX_WORKLOAD_PODS)
			return bad(c, rn, "spec.replicas: %lld pods is more than kplan generates for one workload (%d)",
				   (long long)w.replicas, KP_MAX_WORKLOAD_PODS);
	}
	/* selector: LabelSelector (apps/v1, batch/v1), a plain map (ReplicationController);
	 * absent -> the template's labels (old extensions/v1beta1 defaulting) */
	const kp_ynode *sel = kp_ymap_get(h->spec, "selector");
	if (sel && !strcmp(h->kind, "ReplicationController")) {
		kp_kvs kv;
		if (get_kvs(c, h->spec, "selector", "spec.selector", &kv) != KP_OK || map_selector(c, &kv, &w.selector))
			return KP_PARSE;
	} else if (sel) {
		if (get_selector(c, h->spec, "selector", "spec.selector", &w.selector) != KP_OK)
			return KP_PARSE;
	} else if (map_selector(c, &w.tmpl.labels, &w.selector) != KP_OK) {
		return KP_PARSE;
	}
	return kp_import_workload(c->imp, c->file, &w, c->err);
}

static int read_priority_class(kctx *c, const objhead *h)
{
	static const char *const preempt[] = { "PreemptLowerPriority", "Never", NULL };
	kp_priority_class_in pc;
	memset(&pc, 0, sizeof pc);
	pc.pos = (kp_pos){ h->obj->line, h->obj->col };
	pc.name = h->name;
	int has;
	if (get_int(c, h->obj, "value", "value", &pc.value, &has) != KP_OK ||
	    get_bool(c, h->obj, "globalDefault", "globalDefault", &pc.global_default) != KP_OK ||
	    one_of(c, h->obj, "preemptionPolicy", "preemptionPolicy", preempt, &pc.preemption_policy) != KP_OK ||
	    get_str(c, h->obj, "description", "description", &pc.description) != KP_OK)
		return KP_PARSE;
	if (!has)
		return bad(c, h->obj, "value: required");
	if (pc.value < INT32_MIN || pc.value > INT32_MAX)
		return bad(c, kp_ymap_get(h->obj, "value"), "value: out of the int32 range");
	char why[256];
	const char *f, *no = kp_priority_class_refused(pc.name, pc.value, pc.global_default, pc.preemption_policy, &f,
						       why, sizeof why);
	if (no)   /* the API server refuses it (common/priority.h) */
		return bad(c, kp_ymap_get(strcmp(f, "name") ? h->obj : h->meta, f), "%s%s: %s",
			   strcmp(f, "name") ? "" : "metadata.", f, no);
	return kp_import_priority_class(c->imp, c->file, &pc, c->err);
}

static int int_or_percent(kctx *c, const kp_ynode *m, const char *key, const char *path, const char **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	if (!v)
		return KP_OK;
	if (v->type != KP_Y_SCALAR)
		return bad(c, v, "%s: expected an integer or a percentage, got a %s", path, kp_ynode_type_name(v));
	const char *s = v->u.str;
	size_t n = strlen(s);
	int64_t x;
	int ok = (v->plain && parse_int(s, &x) == 1 && x >= 0);
	if (!ok && n > 1 && s[n - 1] == '%') {
		char buf[32];
		if (n < sizeof buf) {
			memcpy(buf, s, n - 1);
			buf[n - 1] = 0;
			ok = parse_int(buf, &x) == 1 && x >= 0 && buf[0] != '+' && buf[0] != '-';
		}
	}
	if (!ok)
		return bad(c, v, "%s: expected a non-negative integer or a percentage like '50%%', got '%s'", path, s);
	*out = s;
	return KP_OK;
}

static int read_pdb(kctx *c, const objhead *h)
{
	kp_pdb_in d;
	memset(&d, 0, sizeof d);
	d.pos = (kp_pos){ h->obj->line, h->obj->col };
	d.namespace_ = h->namespace_;
	d.name = h->name;
	d.api_version = h->api_version;
	if (int_or_percent(c, h->spec, "minAvailable", "spec.minAvailable", &d.min_available) != KP_OK ||
	    int_or_percent(c, h->spec, "maxUnavailable", "spec.maxUnavailable", &d.max_unavailable) != KP_OK ||
	    get_selector(c, h->spec, "selector", "spec.selector", &d.selector) != KP_OK)
		return KP_PARSE;
	if (d.min_available && d.max_unavailable)
		return bad(c, h->spec, "spec: minAvailable and maxUnavailable cannot both be set");
	int has;
	if (h->status) {
		if (get_int(c, h->status, "disruptionsAllowed", "status.disruptionsAllowed", &d.disruptions_allowed,
			    &has) != KP_OK)
			return KP_PARSE;
		/* v1beta1 before 1.21 called it podDisruptionsAllowed */
		if (!has && get_int(c, h->status, "podDisruptionsAllowed", "status.podDisruptionsAllowed",
				    &d.disruptions_allowed, &has) != KP_OK)
			return KP_PARSE;
		d.has_status = has;
		if (get_int(c, h->status, "currentHealthy", "status.currentHealthy", &d.current_healthy, NULL) != KP_OK ||
		    get_int(c, h->status, "desiredHealthy", "status.desiredHealthy", &d.desired_healthy, NULL) != KP_OK ||
		    get_int(c, h->status, "expectedPods", "status.expectedPods", &d.expected_pods, NULL) != KP_OK)
			return KP_PARSE;
		const kp_ynode *dp;
		if (get_map(c, h->status, "disruptedPods", "status.disruptedPods", &dp) != KP_OK)
			return KP_PARSE;
		if (dp && dp->n) {
			d.disrupted_pods.v = kp_arena_alloc(c->a, dp->n * sizeof(char *));
			if (!d.disrupted_pods.v)
				return nomem(c);
			for (size_t i = 0; i < dp->n; i++)
				d.disrupted_pods.v[i] = dp->u.pairs[i].key->u.str;
			d.disrupted_pods.n = dp->n;
		}
	}
	return kp_import_pdb(c->imp, c->file, &d, c->err);
}

static int read_service(kctx *c, const objhead *h)
{
	kp_service_in s;
	memset(&s, 0, sizeof s);
	s.pos = (kp_pos){ h->obj->line, h->obj->col };
	s.namespace_ = h->namespace_;
	s.name = h->name;
	s.has_selector = kp_ymap_get(h->spec, "selector") != NULL;
	if (get_kvs(c, h->spec, "selector", "spec.selector", &s.selector) != KP_OK)
		return KP_PARSE;
	return kp_import_service(c->imp, c->file, &s, c->err);
}

static int read_namespace(kctx *c, const objhead *h)
{
	kp_namespace_in ns;
	memset(&ns, 0, sizeof ns);
	ns.pos = (kp_pos){ h->obj->line, h->obj->col };
	ns.name = h->name;
	if (get_kvs(c, h->meta, "labels", "metadata.labels", &ns.labels) != KP_OK)
		return KP_PARSE;
	return kp_import_namespace(c->imp, c->file, &ns, c->err);
}

static int read_sched_config(kctx *c, const objhead *h)
{
	if (!h->api_version)
		return bad(c, h->obj, "apiVersion: required");
	if (strcmp(h->api_version, "kubescheduler.config.k8s.io/v1") != 0 &&
	    strcmp(h->api_version, "kubescheduler.config.k8s.io/v1beta3") != 0)
		return bad(c, kp_ymap_get(h->obj, "apiVersion"),
			   "apiVersion: '%s' is not supported (kplan reads kubescheduler.config.k8s.io/v1 and v1beta3; "
			   "v1beta1/v1beta2 were removed from Kubernetes in 1.25/1.28)", h->api_version);
	kp_sb sb;
	kp_sb_init(&sb);
	kp_ynode_to_json(h->obj, &sb);
	if (!kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return nomem(c);
	}
	/* its own text too, positioned as in the file, for errors found when a
	 * plan reads it (kept only when it reads back as the same document) */
	char *yaml = c->ytext ? kp_ytext_cut(c->ytext, c->ylen, h->obj->line + c->yline, h->obj->col + c->ycol) : NULL;
	if (yaml && !kp_ytext_same(yaml, sb.buf)) {
		kp_free(yaml);
		yaml = NULL;
	}
	kp_sched_config_in sc = { { h->obj->line, h->obj->col }, h->api_version, sb.buf, c->doc, yaml,
				  yaml ? c->yfile : NULL };
	int rc = kp_import_sched_config(c->imp, c->file, &sc, c->err);
	kp_sb_release(&sb);
	kp_free(yaml);
	return rc;
}

static int on_object(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err);

/* A kind kplan does not read: counted per apiVersion and kind.  One that
 * makes pods (a pod template: a CRD workload, a CronJob) gets a note, since
 * its pods are then missing from the plan unless the dump holds them. */
static int skip(kctx *c, const objhead *h)
{
	char key[300];
	snprintf(key, sizeof key, "%s%s%s", h->api_version ? h->api_version : "", h->api_version ? " " : "", h->kind);
	kp_import_skipped(c->imp, key);
	const kp_ynode *tmpl = h->spec ? kp_ymap_get(h->spec, "template") : NULL, *where = tmpl;
	const char *path = "spec.template";
	if (!tmpl && h->spec && (tmpl = kp_ymap_get(h->spec, "jobTemplate"))) {
		where = tmpl;
		path = "spec.jobTemplate";
		tmpl = kp_ymap_get(tmpl, "spec") ? kp_ymap_get(kp_ymap_get(tmpl, "spec"), "template") : NULL;
	}
	const kp_ynode *ps = tmpl && tmpl->type == KP_Y_MAP ? kp_ymap_get(tmpl, "spec") : NULL;
	if (!ps || ps->type != KP_Y_MAP || !kp_ymap_get(ps, "containers"))
		return KP_OK;
	const kp_ynode *rep = kp_ymap_get(h->spec, "replicas");
	char reps[64] = "";
	if (rep && rep->type == KP_Y_SCALAR)
		snprintf(reps, sizeof reps, " and %s replica%s", rep->u.str, strcmp(rep->u.str, "1") ? "s" : "");
	kp_err_set(c->err, KP_OK, "skipped: kplan does not read %s, but it has a pod template (%s)%s: the pods it "
		   "makes are planned only if the input holds them (kubectl get pods)", key, path, reps);
	kp_err_locate(c->err, c->file, where->line, where->col, c->object);
	kp_import_note(c->imp, c->err);
	return KP_OK;
}

/* A ConfigMap that carries a KubeSchedulerConfiguration (the usual way to
 * mount one): its data value is read as a YAML stream of its own. */
static int read_configmap(kctx *c, const objhead *h)
{
	const kp_ynode *data;
	if (get_map(c, h->obj, "data", "data", &data) != KP_OK)
		return KP_PARSE;
	int found = 0;
	for (size_t i = 0; data && i < data->n; i++) {
		const kp_ynode *v = data->u.pairs[i].value;
		if (v->type != KP_Y_SCALAR || !strstr(v->u.str, "KubeSchedulerConfiguration"))
			continue;
		char name[600];
		snprintf(name, sizeof name, "%s[%s data.%s]", c->file, c->object, data->u.pairs[i].key->u.str);
		kctx inner = *c;
		inner.file = name;
		inner.object[0] = 0;
		inner.in_configmap = 1;
		/* a literal block scalar: its lines are the file's, indented */
		int ind = c->ytext ? kp_ytext_literal_indent(c->ytext, c->ylen, v->line + c->yline, v->col + c->ycol,
							     v->u.str, v->n) : -1;
		char *shifted = ind > 0 ? kp_ytext_shift(v->u.str, v->n, v->line + c->yline, (unsigned)ind) : NULL;
		inner.ytext = shifted;
		inner.ylen = shifted ? strlen(shifted) : 0;
		inner.yline = inner.ycol = 0;
		inner.cm_label = NULL;
		char label[500];
		if (shifted) {
			inner.yline = v->line + c->yline;
			inner.ycol = (unsigned)ind;
			inner.yfile = c->file;
			snprintf(label, sizeof label, "%s data.%s", c->object, data->u.pairs[i].key->u.str);
			inner.cm_label = label;
		}
		kp_arena a;
		kp_arena_init(&a, 16 * 1024);
		inner.a = &a;
		int rc = kp_yaml_each_object(v->u.str, v->n, name, &a, on_object, &inner, c->err);
		if (rc != KP_OK && shifted && c->err->line && !strcmp(c->err->file, name)) {
			/* a YAML error in the value (ydom located it there): the file's position */
			c->err->file[0] = c->err->object[0] = 0;
			unsigned l = c->err->line, col = c->err->col;
			c->err->line = 0;
			kctx at = inner;
			at.object[0] = 0;
			locate(&at, c->err, l, col);
		}
		kp_arena_release(&a);
		kp_free(shifted);
		if (rc != KP_OK)
			return rc;
		found = 1;
	}
	if (!found)
		kp_import_skipped(c->imp, h->api_version ? "v1 ConfigMap" : "ConfigMap");
	return KP_OK;
}

static int is_namespaced(const char *kind)
{
	return strcmp(kind, "Node") && strcmp(kind, "PriorityClass") && strcmp(kind, "Namespace") &&
	       strcmp(kind, "KubeSchedulerConfiguration");
}

static int dispatch(kctx *c, objhead *h)
{
	const char *k = h->kind;
	if (!strcmp(k, "Node"))
		return read_node(c, h);
	if (!strcmp(k, "Pod"))
		return read_pod(c, h);
	if (!strcmp(k, "Deployment") || !strcmp(k, "ReplicaSet") || !strcmp(k, "StatefulSet") ||
	    !strcmp(k, "Job") || !strcmp(k, "ReplicationController") || !strcmp(k, "DaemonSet"))
		return read_workload(c, h);
	if (!strcmp(k, "PriorityClass"))
		return read_priority_class(c, h);
	if (!strcmp(k, "PodDisruptionBudget"))
		return read_pdb(c, h);
	if (!strcmp(k, "Service"))
		return read_service(c, h);
	if (!strcmp(k, "Namespace"))
		return read_namespace(c, h);
	if (!strcmp(k, "KubeSchedulerConfiguration"))
		return read_sched_config(c, h);
	/* one level only: ConfigMaps nested in data would recurse, each level
	 * parsing the text of all the levels inside it again */
	if (!strcmp(k, "ConfigMap") && !c->in_configmap)
		return read_configmap(c, h);
	return skip(c, h);
}

/* client-go dumps: no apiVersion/kind; Pods and Nodes are recognised by shape */
static const char *kind_by_shape(const kp_ynode *spec, const kp_ynode *status)
{
	if (spec && kp_ymap_get(spec, "containers"))
		return "Pod";
	if (status && (kp_ymap_get(status, "nodeInfo") || kp_ymap_get(status, "capacity") ||
		       kp_ymap_get(status, "allocatable")))
		return "Node";
	return NULL;
}

/* metadata.generateName: a deterministic suffix from the object's position */
static const char *generated_name(kctx *c, const kp_ynode *obj, const char *gen)
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	char suffix[6];
	uint64_t hv = kp_hash64(c->file, strlen(c->file), obj->line);
	for (int i = 0; i < 5; i++, hv /= 27)
		suffix[i] = alphabet[hv % 27];
	suffix[5] = 0;
	return kp_arena_printf(c->a, "%s%s", gen, suffix);
}

static const char *scalar(const kp_ynode *m, const char *key)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	return v && v->type == KP_Y_SCALAR && v->u.str[0] ? v->u.str : NULL;
}

/* An object with a duplicate key is refused before it is read (which of the
 * two values is meant is unknown): named as far as its fields can be read. */
static int refuse_dup(kctx *c, const kp_ynode *obj, const kp_yobj_info *info)
{
	const kp_ynode *meta = kp_ymap_get(obj, "metadata");
	const char *kind = scalar(obj, "kind"), *name = scalar(meta, "name"), *ns = scalar(meta, "namespace");
	char list_item[128];
	if (!kind && info->list_kind && strlen(info->list_kind) > 4 && strcmp(info->list_kind, "List") != 0) {
		snprintf(list_item, sizeof list_item, "%.*s", (int)strlen(info->list_kind) - 4, info->list_kind);
		kind = list_item;
	}
	if (!kind)
		kind = kind_by_shape(kp_ymap_get(obj, "spec"), kp_ymap_get(obj, "status"));
	if (kind && !strcmp(kind, "KubeSchedulerConfiguration")) {
		set_object(c, kind, NULL, scalar(obj, "apiVersion") ? scalar(obj, "apiVersion") : "");
	} else if (kind) {
		if (!name && scalar(meta, "generateName"))
			name = generated_name(c, obj, scalar(meta, "generateName"));
		set_object(c, kind, is_namespaced(kind) ? (ns ? ns : "default") : NULL, name);
	}
	if (!c->cm_label)
		return kp_yaml_dup_error(c->err, c->file, info->dup, info->dup_first, c->object);
	/* a ConfigMap's literal block: both keys where they are in the file
	 * (locate's shift), named by the ConfigMap's value as its YAML errors are */
	kp_ynode dup = *info->dup, first = *info->dup_first;
	dup.line += c->yline;
	dup.col += c->ycol;
	first.line += c->yline;
	first.col += c->ycol;
	return kp_yaml_dup_error(c->err, c->yfile, &dup, &first, c->cm_label);
}

static int on_object(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err)
{
	kctx *c = ctx;
	objhead h;
	memset(&h, 0, sizeof h);
	c->object[0] = 0;
	c->doc = info->doc;
	h.obj = obj;
	int rc;
	if (info->dup) {
		rc = refuse_dup(c, obj, info);
		goto fail;
	}
	if (obj->type != KP_Y_MAP) {
		rc = bad(c, obj, "expected a Kubernetes object (a mapping), got a %s", kp_ynode_type_name(obj));
		goto fail;
	}
	if (get_str(c, obj, "kind", "kind", &h.kind) != KP_OK ||
	    get_str(c, obj, "apiVersion", "apiVersion", &h.api_version) != KP_OK ||
	    get_map(c, obj, "metadata", "metadata", &h.meta) != KP_OK ||
	    get_map(c, obj, "spec", "spec", &h.spec) != KP_OK ||
	    get_map(c, obj, "status", "status", &h.status) != KP_OK) {
		rc = KP_PARSE;
		goto fail;
	}
	if (!h.kind && info->list_kind && strlen(info->list_kind) > 4 && strcmp(info->list_kind, "List") != 0) {
		/* items of a typed list (PodList, NodeList) carry no kind */
		size_t n = strlen(info->list_kind) - 4;
		char *k = kp_arena_strndup(c->a, info->list_kind, n);
		if (!k)
			return nomem(c);
		h.kind = k;
	}
	if (!h.kind)
		h.kind = kind_by_shape(h.spec, h.status);
	if (!h.kind) {
		if (kp_ymap_get(obj, "algorithmprovider") || kp_ymap_get(obj, "typemeta") ||
		    kp_ymap_get(obj, "schedulername")) {
			rc = bad(c, obj, "this is a legacy (pre-ComponentConfig) kube-scheduler settings dump, not a "
					 "KubeSchedulerConfiguration: write a kubescheduler.config.k8s.io/v1 file instead");
			goto fail;
		} else {
			rc = bad(c, obj, "cannot tell what this is: no 'kind' field, and not shaped like a Pod "
					 "(spec.containers) or a Node (status.capacity)");
			goto fail;
		}
	}
	if (!h.kind[0]) {
		rc = bad(c, kp_ymap_get(obj, "kind"), "kind: empty");
		goto fail;
	}
	if (!strcmp(h.kind, "KubeSchedulerConfiguration")) {
		set_object(c, h.kind, NULL, h.api_version ? h.api_version : "");
		rc = read_sched_config(c, &h);
		goto done;
	}
	if (get_str(c, h.meta, "name", "metadata.name", &h.name) != KP_OK ||
	    get_str(c, h.meta, "namespace", "metadata.namespace", &h.namespace_) != KP_OK) {
		rc = KP_PARSE;
		goto fail;
	}
	int known = !strcmp(h.kind, "Node") || !strcmp(h.kind, "Pod") || !strcmp(h.kind, "Deployment") ||
		    !strcmp(h.kind, "ReplicaSet") || !strcmp(h.kind, "StatefulSet") || !strcmp(h.kind, "Job") ||
		    !strcmp(h.kind, "ReplicationController") || !strcmp(h.kind, "DaemonSet") ||
		    !strcmp(h.kind, "PriorityClass") || !strcmp(h.kind, "PodDisruptionBudget") ||
		    !strcmp(h.kind, "Service") || !strcmp(h.kind, "Namespace");
	if (is_namespaced(h.kind) && (!h.namespace_ || !h.namespace_[0]))
		h.namespace_ = "default";
	if (!is_namespaced(h.kind))
		h.namespace_ = NULL;
	if (known && (!h.name || !h.name[0])) {
		const char *gen = NULL;
		if (get_str(c, h.meta, "generateName", "metadata.generateName", &gen) != KP_OK) {
			rc = KP_PARSE;
			goto fail;
		}
		if (!gen || !gen[0]) {
			set_object(c, h.kind, h.namespace_, "?");
			rc = bad(c, h.meta ? h.meta : obj, "metadata.name: required");
			goto fail;
		}
		h.name = generated_name(c, obj, gen);
		if (!h.name)
			return nomem(c);
	}
	set_object(c, h.kind, h.namespace_, h.name);
	rc = dispatch(c, &h);
done:
	if (rc == KP_OK)
		return KP_OK;
fail:
	if (rc == KP_PARSE || rc == KP_RANGE) {
		locate(c, err, obj->line, obj->col);
		return kp_import_invalid(c->imp, err);
	}
	return rc;
}

/* 1 when data holds "{{" (Go template syntax) */
static int has_braces(const char *data, size_t len)
{
	for (const char *p = data; len > 1 && (p = memchr(p, '{', len - 1 - (size_t)(p - data))); p++)
		if (p[1] == '{')
			return 1;
	return 0;
}

int kp_k8s_read(kp_import *imp, const char *file, const char *data, size_t len, kp_err *err)
{
	kctx c;
	memset(&c, 0, sizeof c);
	c.imp = imp;
	c.file = file;
	c.a = kp_import_arena(imp);
	c.err = err;
	c.ytext = data;
	c.ylen = len;
	c.yfile = file;
	int rc = kp_yaml_each_object(data, len, file, c.a, on_object, &c, err);
	if (rc == KP_PARSE && has_braces(data, len) && !strstr(err->msg, "Helm")) {
		size_t l = strlen(err->msg);
		snprintf(err->msg + l, sizeof err->msg - l, " (the file holds '{{': an unrendered Helm template? "
			 "import the output of 'helm template' instead)");
	}
	return rc;
}
