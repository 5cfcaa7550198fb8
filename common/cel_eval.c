/*
 * cel_eval.c — kp_cel_eval: one checked expression, one device, one answer
 * (1, 0, or -1 with kube's error text), with the runtime semantics of
 * cel-go as kube configures it for DRA selectors:
 *
 *   - Errors are values.  `&&` and `||` are commutative over errors: a false
 *     term makes `&&` false and a true term makes `||` true whatever the
 *     other terms are, errors included; otherwise the first error (in text
 *     order) is the result, a non-bool term counting as "no such overload".
 *     Every other operator and function is strict: its first erroneous
 *     operand is its result.  `c ? a : b` evaluates only the branch taken.
 *   - `==` is heterogeneous, decided by the left operand as cel-go's
 *     ref.Val.Equal is: int, bool, string and quantity against another type
 *     are false; a version against another type is an error (kube's
 *     Semver.Equal); a quantity on the right that add(), sub() or mul() made
 *     is never equal to anything (kube's Quantity.Equal wants a value and
 *     those functions return a pointer) — kplan keeps that quirk.
 *   - `<` and friends on different runtime types are "no such overload".
 *   - device.attributes["d"] of an absent domain is an empty map (kube's
 *     domainToAttributes.Find), so `.name` on it is "no such key: name";
 *     has(device.attributes.d) is therefore always true, and
 *     `"d" in device.attributes` asks whether the domain exists.
 *   - int arithmetic is checked: overflow, division and modulus by zero are
 *     errors ("integer overflow", "division by zero", "modulus by zero").
 *
 * No allocation: strings built while evaluating live in a KP_CEL_SCRATCH
 * buffer on the stack; recursion follows the tree (at most KP_CEL_MAX_DEPTH).
 * Bounded work: a list literal's elements are evaluated where the list is
 * used, not where it is written (so `x in [y in [...]]` costs its size, not
 * twice per level), and every node visited and every 64 bytes of string work
 * is a step; past KP_CEL_MAX_STEPS the result is an error (E_STEPS).  Only
 * values bound by cel.bind() and used again and again get there.
 */
#include "cel_int.h"

#include <stdio.h>
#include <string.h>

typedef struct cel_eval {
	const kp_cel_device *d;
	cel_val *slots;
	cel_scratch sc;
	long steps;        /* nodes visited, up to KP_CEL_MAX_STEPS */
} cel_eval;

static cel_val ev(cel_eval *x, const cel_node *n);

/* string work costs steps too: bytes / 64 */
static int charge(cel_eval *x, size_t bytes)
{
	x->steps += (long)(bytes / 64);
	return x->steps > KP_CEL_MAX_STEPS;
}

static size_t str_bytes(const cel_val *v) { return v->t == CT_STRING || v->t == CT_SEMVER ? v->n : 0; }

static cel_val mk_bool(int b) { cel_val v = { .t = CT_BOOL, .i = b != 0 }; return v; }
static cel_val mk_int(int64_t i) { cel_val v = { .t = CT_INT, .i = i }; return v; }
static cel_val mk_str(const char *s, size_t n) { cel_val v = { .t = CT_STRING, .s = s, .n = n }; return v; }

/* ---- the device ---- */

static int usable(const char *s, size_t n) { return !memchr(s, 0, n); }

/* 1 when map has domain dom (name NULL) or dom/name */
static int present(cel_eval *x, int map, const cel_val *dom, const char *name, size_t nn)
{
	kp_cel_val out = { 0 };
	if (!x->d->lookup || !usable(dom->s, dom->n) || (name && !usable(name, nn)))
		return 0;
	return x->d->lookup(x->d->ctx, map, dom->s, name, &out) != 0;
}

static cel_val lookup(cel_eval *x, const cel_node *at, const cel_val *dom, const char *name, size_t nn)
{
	kp_cel_val out = { 0 };
	int map = dom->op;
	if (!x->d->lookup || !usable(dom->s, dom->n) || !usable(name, nn) ||
	    !x->d->lookup(x->d->ctx, map, dom->s, name, &out))
		return kp_cel_err(E_NO_KEY, at, name, nn);
	const char *s = out.s ? out.s : "";
	if (map == 1) {
		cel_val q = { .t = CT_QTY, .i = out.i };
		return out.type == KP_CEL_QUANTITY ? q : kp_cel_err(E_VALUE, at, name, nn);
	}
	switch (out.type) {
	case KP_CEL_INT: return mk_int(out.i);
	case KP_CEL_BOOL: return mk_bool(out.b);
	case KP_CEL_STRING: return mk_str(s, strlen(s));
	case KP_CEL_VERSION: {
		cel_val v = { .t = CT_SEMVER, .s = s, .n = strlen(s) };
		if (kp_cel_semver_parse(v.s, v.n, &v.v, NULL, 0) != 0)
			return kp_cel_err(E_SEMVER, at, v.s, v.n);
		return v;
	}
	}
	return kp_cel_err(E_VALUE, at, name, nn);
}

/* a map key as a string: cel-go converts int and bool keys (ConvertToType) */
static int key_string(cel_eval *x, const cel_val *k, cel_val *out)
{
	if (k->t == CT_STRING) {
		*out = *k;
		return 0;
	}
	if (k->t == CT_BOOL) {
		*out = k->i ? mk_str("true", 4) : mk_str("false", 5);
		return 0;
	}
	if (k->t != CT_INT || x->sc.cap - x->sc.used < 24)
		return -1;
	char *d = x->sc.buf + x->sc.used;
	int n = snprintf(d, 24, "%lld", (long long)k->i);
	x->sc.used += (size_t)n + 1;
	*out = mk_str(d, (size_t)n);
	return 0;
}

static cel_val ev_select(cel_eval *x, const cel_node *n)
{
	cel_val o = ev(x, n->kid[0]);
	if (o.t == CT_ERR)
		return o;
	int has = n->kind == CN_HAS;
	switch (o.t) {
	case CT_DEVICE: {
		if (has)
			return mk_bool(1);
		cel_val m = { .t = CT_MAP, .op = n->op == DF_CAPACITY };
		if (n->op == DF_DRIVER) {
			const char *drv = x->d->driver ? x->d->driver : "";
			return mk_str(drv, strlen(drv));
		}
		return n->op == DF_MULTI ? mk_bool(x->d->allow_multiple) : m;
	}
	case CT_MAP: {
		if (has)
			return mk_bool(1);   /* an absent domain is an empty map, and present */
		cel_val dom = { .t = CT_DOMAIN, .op = o.op, .s = n->s, .n = n->n };
		return dom;
	}
	case CT_DOMAIN:
		return has ? mk_bool(present(x, o.op, &o, n->s, n->n)) : lookup(x, n, &o, n->s, n->n);
	}
	return kp_cel_overload_err(n, o.t, 0);
}

static cel_val ev_index(cel_eval *x, const cel_node *n)
{
	cel_val o = ev(x, n->kid[0]);
	if (o.t == CT_ERR)
		return o;
	cel_val k = ev(x, n->kid[1]), key;
	if (k.t == CT_ERR)
		return k;
	if (o.t != CT_MAP && o.t != CT_DOMAIN)
		return kp_cel_overload_err(n, o.t, k.t);
	if (key_string(x, &k, &key) != 0) {
		cel_val e = kp_cel_err(E_CONVERT, n, NULL, 0);
		e.ta = k.t;
		return e;
	}
	if (o.t == CT_MAP) {
		cel_val dom = { .t = CT_DOMAIN, .op = o.op, .s = key.s, .n = key.n };
		return dom;
	}
	return lookup(x, n, &o, key.s, key.n);
}

/* A list literal's value is the literal; its elements are evaluated where
 * the list is used (`in`, size()), once per use, so nested lists cost their
 * size and not twice per level.  The first erroneous element, or OK. */
static cel_val list_elements(cel_eval *x, const cel_node *list)
{
	for (int i = 0; i < list->nkid; i++) {
		cel_val v = ev(x, list->kid[i]);
		if (v.t == CT_ERR)
			return v;
	}
	return (cel_val){ .t = CT_LIST, .node = list };
}

/* ---- calls ---- */

static cel_val ev_call(cel_eval *x, const cel_node *n)
{
	if (n->pre)
		return *n->pre;
	cel_val a[3];
	if (n->nkid > 3)
		return kp_cel_overload_err(n, CT_ERR, 0);   /* the checker admits no such overload */
	for (int i = 0; i < n->nkid; i++) {
		a[i] = ev(x, n->kid[i]);
		if (a[i].t == CT_LIST)
			a[i] = list_elements(x, a[i].node);
		if (a[i].t == CT_ERR)
			return a[i];
	}
	size_t bytes = 0;
	for (int i = 0; i < n->nkid; i++)
		bytes += str_bytes(&a[i]);
	if (n->op == FN_CONTAINS && n->nkid == 2 && a[0].t == CT_STRING && a[1].t == CT_STRING && a[1].n <= a[0].n)
		bytes += (a[0].n - a[1].n + 1) * a[1].n;   /* the naive search */
	if (charge(x, bytes))
		return kp_cel_err(E_STEPS, n, NULL, 0);
	for (size_t i = 0; i < kp_cel_noverloads; i++) {
		const cel_overload *o = &kp_cel_overloads[i];
		if (o->id != n->op || o->member != n->member || o->nargs != n->nkid)
			continue;
		int ok = 1;
		for (int j = 0; j < n->nkid; j++)
			ok &= a[j].t == o->arg[j];
		if (ok)
			return o->impl(a, n, &x->sc);
	}
	return kp_cel_overload_err(n, n->nkid ? a[0].t : CT_ERR, n->nkid > 1 ? a[1].t : 0);
}

/* ---- operators ---- */

/* a == b as a.Equal(b) */
static cel_val eq(const cel_node *n, const cel_val *a, const cel_val *b)
{
	switch (a->t) {
	case CT_INT:
	case CT_BOOL: return mk_bool(b->t == a->t && a->i == b->i);
	case CT_STRING: return mk_bool(b->t == CT_STRING && a->n == b->n && memcmp(a->s, b->s, a->n) == 0);
	case CT_QTY: return mk_bool(b->t == CT_QTY && !b->op && a->i == b->i);
	case CT_SEMVER:
		if (b->t == CT_SEMVER)
			return mk_bool(kp_cel_semver_cmp(&a->v, &b->v) == 0);
		break;
	}
	return kp_cel_overload_err(n, a->t, b->t);
}

static int order(const cel_val *a, const cel_val *b)
{
	if (a->t == CT_STRING) {
		int m = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
		return m ? (m < 0 ? -1 : 1) : a->n < b->n ? -1 : a->n > b->n;
	}
	return a->i < b->i ? -1 : a->i > b->i;
}

static cel_val ev_in(cel_eval *x, const cel_node *n, const cel_val *a, const cel_val *b)
{
	if (b->t == CT_LIST) {
		int found = 0;
		for (int i = 0; i < b->node->nkid; i++) {
			cel_val e = ev(x, b->node->kid[i]);
			if (e.t == CT_ERR)
				return e;
			if (charge(x, str_bytes(a) + str_bytes(&e)))
				return kp_cel_err(E_STEPS, n, NULL, 0);
			cel_val r = eq(n, a, &e);   /* an element of another type is not it, even a version */
			found |= r.t == CT_BOOL && r.i;
		}
		return mk_bool(found);
	}
	cel_val key;
	if (key_string(x, a, &key) != 0)
		return mk_bool(0);   /* cel-go: a key that is no string is not found */
	if (b->t == CT_MAP) {
		cel_val dom = { .t = CT_DOMAIN, .op = b->op, .s = key.s, .n = key.n };
		return mk_bool(present(x, b->op, &dom, NULL, 0));
	}
	if (b->t == CT_DOMAIN)
		return mk_bool(present(x, b->op, b, key.s, key.n));
	return kp_cel_overload_err(n, a->t, b->t);
}

static cel_val arith(cel_eval *x, const cel_node *n, const cel_val *a, const cel_val *b)
{
	if (n->op == OP_ADD && a->t == CT_STRING && b->t == CT_STRING) {
		if (x->sc.cap - x->sc.used < a->n + b->n + 1)
			return kp_cel_err(E_SCRATCH, n, NULL, 0);
		char *d = x->sc.buf + x->sc.used;
		memcpy(d, a->s, a->n);
		memcpy(d + a->n, b->s, b->n);
		d[a->n + b->n] = 0;
		x->sc.used += a->n + b->n + 1;
		return mk_str(d, a->n + b->n);
	}
	if (a->t != CT_INT || b->t != CT_INT)
		return kp_cel_overload_err(n, a->t, b->t);
	int64_t p = a->i, q = b->i;
	switch (n->op) {
	case OP_ADD:
		if (q > 0 ? p > INT64_MAX - q : p < INT64_MIN - q)
			return kp_cel_err(E_OVERFLOW, n, NULL, 0);
		return mk_int(p + q);
	case OP_SUB:
		if (q > 0 ? p < INT64_MIN + q : p > INT64_MAX + q)
			return kp_cel_err(E_OVERFLOW, n, NULL, 0);
		return mk_int(p - q);
	case OP_MUL:
		if (p && q && ((p == -1 && q == INT64_MIN) || (q == -1 && p == INT64_MIN) ||
			       (p > 0 ? (q > 0 ? p > INT64_MAX / q : q < INT64_MIN / p)
				      : (q > 0 ? p < INT64_MIN / q : p < INT64_MAX / q))))
			return kp_cel_err(E_OVERFLOW, n, NULL, 0);
		return mk_int(p * q);
	default:
		if (q == 0)
			return kp_cel_err(n->op == OP_DIV ? E_DIV0 : E_MOD0, n, NULL, 0);
		if (p == INT64_MIN && q == -1)
			return n->op == OP_DIV ? kp_cel_err(E_OVERFLOW, n, NULL, 0) : mk_int(0);
		return mk_int(n->op == OP_DIV ? p / q : p % q);
	}
}

static cel_val ev_bin(cel_eval *x, const cel_node *n)
{
	cel_val a = ev(x, n->kid[0]);
	if (a.t == CT_ERR)
		return a;
	cel_val b = ev(x, n->kid[1]);
	if (b.t == CT_ERR)
		return b;
	if (charge(x, str_bytes(&a) + str_bytes(&b)))
		return kp_cel_err(E_STEPS, n, NULL, 0);
	switch (n->op) {
	case OP_EQ:
		return eq(n, &a, &b);
	case OP_NE: {
		cel_val r = eq(n, &a, &b);
		if (r.t == CT_BOOL)
			r.i = !r.i;
		return r;
	}
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE: {
		if (a.t != b.t || (a.t != CT_INT && a.t != CT_STRING && a.t != CT_BOOL))
			return kp_cel_overload_err(n, a.t, b.t);
		int c = order(&a, &b);
		return mk_bool(n->op == OP_LT ? c < 0 : n->op == OP_LE ? c <= 0 : n->op == OP_GT ? c > 0 : c >= 0);
	}
	case OP_IN:
		return ev_in(x, n, &a, &b);
	}
	return arith(x, n, &a, &b);
}

/* && (absorbing false) and || (absorbing true), commutative over errors */
static cel_val ev_logic(cel_eval *x, const cel_node *n)
{
	int absorb = n->kind == CN_OR;
	cel_val err = { .t = CT_BOOL };
	for (int i = 0; i < n->nkid; i++) {
		cel_val v = ev(x, n->kid[i]);
		if (v.t == CT_BOOL) {
			if (v.i == absorb)
				return v;
		} else if (err.t != CT_ERR) {
			err = v.t == CT_ERR ? v : kp_cel_overload_err(n, v.t, 0);
		}
	}
	return err.t == CT_ERR ? err : mk_bool(!absorb);
}

static cel_val ev(cel_eval *x, const cel_node *n)
{
	cel_val v;
	if (++x->steps > KP_CEL_MAX_STEPS)
		return kp_cel_err(E_STEPS, n, NULL, 0);
	switch (n->kind) {
	case CN_INT: return mk_int(n->i);
	case CN_BOOL: return mk_bool((int)n->i);
	case CN_STR: return mk_str(n->s, n->n);
	case CN_LIST: return (cel_val){ .t = CT_LIST, .node = n };   /* see list_elements */
	case CN_DEVICE: return (cel_val){ .t = CT_DEVICE };
	case CN_VAR: return x->slots[n->i];
	case CN_BIND:
		x->slots[n->i] = ev(x, n->kid[0]);
		return ev(x, n->kid[1]);
	case CN_SELECT:
	case CN_HAS: return ev_select(x, n);
	case CN_INDEX: return ev_index(x, n);
	case CN_CALL: return ev_call(x, n);
	case CN_AND:
	case CN_OR: return ev_logic(x, n);
	case CN_NOT:
		v = ev(x, n->kid[0]);
		if (v.t == CT_BOOL)
			v.i = !v.i;
		return v.t == CT_BOOL || v.t == CT_ERR ? v : kp_cel_overload_err(n, v.t, 0);
	case CN_NEG:
		v = ev(x, n->kid[0]);
		if (v.t == CT_INT && v.i == INT64_MIN)
			return kp_cel_err(E_OVERFLOW, n, NULL, 0);
		if (v.t == CT_INT)
			v.i = -v.i;
		return v.t == CT_INT || v.t == CT_ERR ? v : kp_cel_overload_err(n, v.t, 0);
	case CN_COND:
		v = ev(x, n->kid[0]);
		if (v.t == CT_ERR)
			return v;
		if (v.t != CT_BOOL)
			return kp_cel_overload_err(n, v.t, 0);
		return ev(x, n->kid[v.i ? 1 : 2]);
	case CN_BIN: return ev_bin(x, n);
	}
	return kp_cel_overload_err(n, CT_ERR, 0);
}

int kp_cel_eval(const kp_cel *e, const kp_cel_device *d, char *msg, size_t size)
{
	if (msg && size)
		msg[0] = 0;
	if (!e || !d) {
		if (msg && size)
			snprintf(msg, size, "no expression or no device");
		return -1;
	}
	cel_val slots[KP_CEL_MAX_BINDS];
	char scratch[KP_CEL_SCRATCH];
	memset(slots, 0, sizeof slots);
	cel_eval x = { .d = d, .slots = slots, .sc = { .buf = scratch, .cap = sizeof scratch } };
	cel_val v = ev(&x, e->root);
	if (v.t == CT_BOOL)
		return v.i ? 1 : 0;
	if (v.t != CT_ERR) {
		int t = v.t, elem = v.t == CT_LIST ? v.node->elem : 0;
		v = kp_cel_err(E_RESULT, e->root, NULL, 0);
		v.ta = (uint8_t)t;
		v.tb = (uint8_t)elem;
	}
	if (msg && size)
		kp_cel_err_format(&v, msg, size);
	return -1;
}
