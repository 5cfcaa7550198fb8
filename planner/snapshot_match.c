/*
 * snapshot_match.c — the snapshot's string table (kp_strtab: interned
 * strings, open addressing) and the matching primitives every plugin shares
 * (snapshot.h): label lookup, label selectors and node selector
 * requirements (kube's labels.Selector and NodeSelectorRequirement: In,
 * NotIn, Exists, DoesNotExist, Gt, Lt), and tolerations against taints
 * (v1.Toleration.ToleratesTaint).  No allocation but the string table's; the
 * matchers cannot fail.
 */
#include "snapshot_int.h"
#include "scores.h"   /* kp_tolerates_cmp */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

void kp_strtab_release(kp_strtab *t)
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

int kp_snap_parse_i64(const char *s, int64_t *out)
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
		if (value < 0 || !kp_snap_parse_i64(kp_str(strs, value), &v))
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
	if (t->cmp == KP_TOL_NEVER)
		return 0;
	if (t->effect != KP_EFFECT_ANY && t->effect != x->effect)
		return 0;
	if (t->key >= 0 && t->key != x->key)
		return 0;
	if (t->key < 0 && !t->exists)
		return 0;
	if (t->exists)
		return 1;
	if (t->cmp)
		return t->num_ok && x->num_ok && kp_tolerates_cmp(t->cmp, t->num, x->num);
	return t->value == x->value;
}
