/*
 * cel_check.c — the CEL subset's checker: resolves names (`device`,
 * cel.bind() variables) and function overloads, computes every node's static
 * type, and refuses at compile time what kube's type checker refuses (with
 * cel-go's wording: "found no matching overload for '_==_' applied to
 * '(int, string)'", "undeclared reference to 'x'", "undefined field 'f'") and
 * what kplan does not evaluate ("unsupported: ...").
 *
 * Types follow kube's DRA environment (dynamic-resource-allocation/cel/
 * compile.go): device is kubernetes.DRADevice with driver (string),
 * allowMultipleAllocations (bool), attributes map(string, map(string, any))
 * and capacity map(string, map(string, kubernetes.Quantity)).  An attribute
 * value is `any` — known only at runtime — so it checks against every type
 * (CT_DYN) and cel_eval.c dispatches on the value.
 *
 * Literal quantities and versions (quantity('1Gi'), semver('1.2.3')) are
 * computed here once.  A quantity kplan cannot hold exactly (finer than a
 * milli-unit, or beyond int64 milli-units) is refused here with its
 * position; invalid text is left to fail at runtime, as in kube.
 */
#include "cel_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct cel_scope {
	const char *name;
	int slot;
	uint8_t type, elem;
} cel_scope;

typedef struct cel_checker {
	kp_arena *arena;
	cel_scope scope[KP_CEL_MAX_BINDS];
	int nscope;
	int failed;
	kp_cel_pos *pos;
	char *msg;
	size_t size;
} cel_checker;

static int fail(cel_checker *c, const cel_node *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(cel_checker *c, const cel_node *at, const char *fmt, ...)
{
	if (c->failed)
		return -1;
	c->failed = KP_PARSE;
	if (c->pos) {
		c->pos->line = at->line;
		c->pos->col = at->col;
	}
	if (c->msg && c->size) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->msg, c->size, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int nomem(cel_checker *c)
{
	if (!c->failed) {
		c->failed = KP_NOMEM;
		if (c->msg && c->size)
			snprintf(c->msg, c->size, "out of memory");
	}
	return -1;
}

const char *kp_cel_type_name(int t, int elem)
{
	static const char *const lists[] = {
		"list(error)", "list(any)", "list(int)", "list(bool)", "list(string)",
		"list(kubernetes.Semver)", "list(kubernetes.Quantity)",
	};
	switch (t) {
	case CT_ERR: return "error";
	case CT_DYN: return "any";
	case CT_INT: return "int";
	case CT_BOOL: return "bool";
	case CT_STRING: return "string";
	case CT_SEMVER: return "kubernetes.Semver";
	case CT_QTY: return "kubernetes.Quantity";
	case CT_LIST: return elem >= 0 && elem <= CT_QTY ? lists[elem] : "list";
	case CT_DEVICE: return "kubernetes.DRADevice";
	case CT_MAP: return elem ? "map(string, map(string, kubernetes.Quantity))" : "map(string, map(string, any))";
	case CT_DOMAIN: return elem ? "map(string, kubernetes.Quantity)" : "map(string, any)";
	}
	return "?";
}

static const char *tname(const cel_node *n) { return kp_cel_type_name(n->type, n->elem); }

static int is_scalar(int t) { return t >= CT_DYN && t <= CT_QTY; }

/* functions of kube's CEL environment that kplan does not evaluate */
static const char *const unsupported_fns[] = {
	"int", "uint", "double", "string", "bytes", "bool", "dyn", "type", "duration", "timestamp",
	"getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear", "getHours",
	"getMilliseconds", "getMinutes", "getMonth", "getSeconds",
	"charAt", "indexOf", "lastIndexOf", "replace", "split", "substring", "trim", "join", "quote",
	"format", "reverse", "strings.quote", "find", "findAll", "isSorted", "sum", "min", "max",
	"url", "isURL", "getScheme", "getHost", "getHostname", "getPort", "getEscapedPath", "getQuery",
	"ip", "isIP", "cidr", "isCIDR", "ip.isCanonical", "family", "isUnspecified", "isLoopback",
	"isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast", "containsIP", "containsCIDR",
	"prefixLength", "masked", "sets.contains", "sets.equivalent", "sets.intersects",
	"asApproximateFloat", "div", "divInt", "optional.of", "optional.ofNonZeroValue", "optional.none",
	"hasValue", "value", "or", "orValue", "image", "isImage", "containerImage", "registry",
	"repository", "tag", "digest",
};

static int unknown_function(cel_checker *c, const cel_node *n, const char *name)
{
	if (strcmp(name, "matches") == 0)
		return fail(c, n, "unsupported: the function 'matches' (kplan does not evaluate regular expressions)");
	if (strcmp(name, "includes") == 0)
		return fail(c, n, "unsupported: the function 'includes' (list-type attributes)");
	for (size_t i = 0; i < sizeof unsupported_fns / sizeof unsupported_fns[0]; i++)
		if (strcmp(name, unsupported_fns[i]) == 0)
			return fail(c, n, "unsupported: the function '%s'", name);
	return fail(c, n, "undeclared reference to '%s'", name);
}

static int check(cel_checker *c, cel_node *n);

static int check_kids(cel_checker *c, cel_node *n, int from)
{
	for (int i = from; i < n->nkid; i++)
		if (check(c, n->kid[i]) != 0)
			return -1;
	return 0;
}

static int check_list(cel_checker *c, cel_node *n)
{
	if (check_kids(c, n, 0) != 0)
		return -1;
	int elem = CT_DYN, typed = -1;
	for (int i = 0; i < n->nkid; i++) {
		const cel_node *k = n->kid[i];
		if (!is_scalar(k->type))
			return fail(c, k, "unsupported: a list holding %s", tname(k));
		if (k->type == CT_DYN)
			continue;
		if (typed >= 0 && k->type != typed)
			return fail(c, k, "expected type '%s' but found '%s'", kp_cel_type_name(typed, 0), tname(k));
		typed = k->type;
	}
	/* a list of typed values and attribute values holds any */
	int any = 0;
	for (int i = 0; i < n->nkid; i++)
		any |= n->kid[i]->type == CT_DYN;
	if (typed >= 0 && !any)
		elem = typed;
	n->type = CT_LIST;
	n->elem = (uint8_t)elem;
	return 0;
}

static int check_ident(cel_checker *c, cel_node *n)
{
	for (int i = c->nscope - 1; i >= 0; i--) {
		if (strcmp(c->scope[i].name, n->s) == 0) {
			n->kind = CN_VAR;
			n->i = c->scope[i].slot;
			n->type = c->scope[i].type;
			n->elem = c->scope[i].elem;
			return 0;
		}
	}
	if (strcmp(n->s, "device") == 0) {
		n->kind = CN_DEVICE;
		n->type = CT_DEVICE;
		return 0;
	}
	return fail(c, n, "undeclared reference to '%s'", n->s);
}

static int device_field(const char *f)
{
	static const char *const names[] = { "driver", "attributes", "capacity", "allowMultipleAllocations" };
	for (int i = 0; i < 4; i++)
		if (strcmp(f, names[i]) == 0)
			return i;
	return -1;
}

/* x.f and has(x.f) */
static int check_select(cel_checker *c, cel_node *n)
{
	if (check(c, n->kid[0]) != 0)
		return -1;
	const cel_node *x = n->kid[0];
	int has = n->kind == CN_HAS;
	switch (x->type) {
	case CT_DEVICE: {
		int f = device_field(n->s);
		if (f < 0)
			return fail(c, n, "undefined field '%s'", n->s);
		n->op = (uint8_t)f;
		static const uint8_t types[] = { CT_STRING, CT_MAP, CT_MAP, CT_BOOL };
		n->type = types[f];
		n->elem = f == DF_CAPACITY;
		break;
	}
	case CT_MAP:
		n->type = CT_DOMAIN;
		n->elem = x->elem;
		break;
	case CT_DOMAIN:
		n->type = x->elem ? CT_QTY : CT_DYN;
		break;
	case CT_DYN:
		return fail(c, n, "unsupported: %s a field of an attribute value", has ? "has() on" : "selecting");
	default:
		return fail(c, n, "type '%s' does not support field selection", tname(x));
	}
	if (has) {
		n->type = CT_BOOL;
		n->elem = 0;
	}
	return 0;
}

static int check_index(cel_checker *c, cel_node *n)
{
	if (check_kids(c, n, 0) != 0)
		return -1;
	const cel_node *x = n->kid[0], *k = n->kid[1];
	if (x->type == CT_LIST)
		return fail(c, n, "unsupported: indexing a list");
	if (x->type == CT_DYN)
		return fail(c, n, "unsupported: indexing an attribute value");
	if ((x->type != CT_MAP && x->type != CT_DOMAIN) || (k->type != CT_STRING && k->type != CT_DYN))
		return fail(c, n, "found no matching overload for '_[_]' applied to '(%s, %s)'", tname(x), tname(k));
	n->type = x->type == CT_MAP ? CT_DOMAIN : x->elem ? CT_QTY : CT_DYN;
	n->elem = x->type == CT_MAP ? x->elem : 0;
	return 0;
}

static int arg_fits(int param, int arg) { return param == arg || arg == CT_DYN; }

/* "int.(string)" or "(int, string)" as cel-go writes an application */
static void applied_to(const cel_node *n, char *buf, size_t size)
{
	size_t k = 0;
	int i = 0;
	buf[0] = 0;
	if (n->member) {
		k += (size_t)snprintf(buf + k, size - k, "%s.", tname(n->kid[0]));
		i = 1;
	}
	if (k < size)
		k += (size_t)snprintf(buf + k, size - k, "(");
	for (int first = i; i < n->nkid && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%s", i > first ? ", " : "", tname(n->kid[i]));
	if (k < size)
		snprintf(buf + k, size - k, ")");
}

/* quantity('1Gi') and semver('1.2.3') once, at compile time */
static int precompute(cel_checker *c, cel_node *n)
{
	if ((n->op != FN_QUANTITY && n->op != FN_SEMVER) || n->nkid != 1 || n->kid[0]->kind != CN_STR)
		return 0;
	const cel_node *lit = n->kid[0];
	cel_val *v = kp_arena_alloc(c->arena, sizeof *v);
	if (!v)
		return nomem(c);
	if (n->op == FN_SEMVER) {
		if (kp_cel_semver_parse(lit->s, lit->n, &v->v, NULL, 0) != 0)
			return 0;   /* invalid: a runtime error, as in kube */
		v->t = CT_SEMVER;
		v->s = lit->s;
		v->n = lit->n;
		n->pre = v;
		return 0;
	}
	int rc = kp_cel_qty_parse(lit->s, lit->n, &v->i);
	if (rc == E_QTY_FINE)
		return fail(c, lit, "unsupported: quantity '%.*s' is finer than a milli-unit (kplan compares quantities in milli-units)",
			    (int)(lit->n > 64 ? 64 : lit->n), lit->s);
	if (rc == E_QTY_RANGE)
		return fail(c, lit, "unsupported: quantity '%.*s' is beyond kplan's range (int64 milli-units)",
			    (int)(lit->n > 64 ? 64 : lit->n), lit->s);
	if (rc == 0) {
		v->t = CT_QTY;
		n->pre = v;
	}
	return 0;
}

static int check_call(cel_checker *c, cel_node *n)
{
	/* pkg.fn(...) of kube's libraries (sets.contains, optional.of): a qualified name, not a receiver */
	if (n->member && n->kid[0]->kind == CN_IDENT) {
		char q[160];
		snprintf(q, sizeof q, "%s.%s", n->kid[0]->s, n->s);
		for (size_t i = 0; i < sizeof unsupported_fns / sizeof unsupported_fns[0]; i++)
			if (strcmp(q, unsupported_fns[i]) == 0)
				return fail(c, n, "unsupported: the function '%s'", q);
	}
	if (check_kids(c, n, 0) != 0)
		return -1;
	if (strcmp(n->s, "size") == 0 && n->nkid == 1 && (n->kid[0]->type == CT_MAP || n->kid[0]->type == CT_DOMAIN))
		return fail(c, n, "unsupported: size() of a map");
	int named = 0, matched = 0, result = -1;
	for (size_t i = 0; i < kp_cel_noverloads; i++) {
		const cel_overload *o = &kp_cel_overloads[i];
		if (strcmp(o->name, n->s) != 0)
			continue;
		named = 1;
		if (o->member != n->member || o->nargs != n->nkid)
			continue;
		int ok = 1;
		for (int a = 0; a < n->nkid; a++)
			ok &= arg_fits(o->arg[a], n->kid[a]->type);
		if (!ok)
			continue;
		if (!matched++)
			n->op = o->id;
		result = result < 0 || result == o->result ? o->result : CT_DYN;
	}
	if (!named)
		return unknown_function(c, n, n->s);
	if (!matched) {
		char buf[256];
		applied_to(n, buf, sizeof buf);
		return fail(c, n, "found no matching overload for '%s' applied to '%s'", n->s, buf);
	}
	n->type = (uint8_t)result;
	return precompute(c, n);
}

static int check_logic(cel_checker *c, cel_node *n)
{
	if (check_kids(c, n, 0) != 0)
		return -1;
	const char *op = n->kind == CN_AND ? "_&&_" : n->kind == CN_OR ? "_||_" : "!_";
	for (int i = 0; i < n->nkid; i++) {
		const cel_node *k = n->kid[i];
		if (k->type == CT_BOOL || k->type == CT_DYN)
			continue;
		if (n->kind == CN_NOT)
			return fail(c, n, "found no matching overload for '%s' applied to '(%s)'", op, tname(k));
		const cel_node *other = n->kid[i ? i - 1 : 1];
		return fail(c, n, "found no matching overload for '%s' applied to '(%s, %s)'", op,
			    tname(i ? other : k), tname(i ? k : other));
	}
	n->type = CT_BOOL;
	return 0;
}

static int check_cond(cel_checker *c, cel_node *n)
{
	if (check_kids(c, n, 0) != 0)
		return -1;
	const cel_node *k = n->kid[0], *a = n->kid[1], *b = n->kid[2];
	int same = a->type == b->type && a->elem == b->elem;
	int dyn = (a->type == CT_DYN && is_scalar(b->type)) || (b->type == CT_DYN && is_scalar(a->type));
	if ((k->type != CT_BOOL && k->type != CT_DYN) || (!same && !dyn))
		return fail(c, n, "found no matching overload for '_?_:_' applied to '(%s, %s, %s)'", tname(k),
			    tname(a), tname(b));
	n->type = same ? a->type : CT_DYN;
	n->elem = same ? a->elem : 0;
	return 0;
}

static const char *const op_names[] = { "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "@in", "_+_", "_-_", "_*_", "_/_", "_%_" };

static int check_in(cel_checker *c, cel_node *n, const cel_node *a, const cel_node *b)
{
	int ok;
	switch (b->type) {
	case CT_LIST:
		ok = is_scalar(a->type) && (a->type == CT_DYN || b->elem == CT_DYN || a->type == b->elem);
		break;
	case CT_MAP:
	case CT_DOMAIN:
		ok = a->type == CT_STRING || a->type == CT_DYN;
		break;
	case CT_DYN:
		return fail(c, n, "unsupported: 'in' on an attribute value");
	default:
		ok = 0;
	}
	if (!ok)
		return fail(c, n, "found no matching overload for '@in' applied to '(%s, %s)'", tname(a), tname(b));
	n->type = CT_BOOL;
	return 0;
}

static int check_bin(cel_checker *c, cel_node *n)
{
	if (check_kids(c, n, 0) != 0)
		return -1;
	const cel_node *a = n->kid[0], *b = n->kid[1];
	int ta = a->type, tb = b->type, ok = 0;
	if (n->op == OP_IN)
		return check_in(c, n, a, b);
	if ((n->op == OP_EQ || n->op == OP_NE) && (!is_scalar(ta) || !is_scalar(tb)))
		return fail(c, n, "unsupported: '%s' on %s values", n->op == OP_EQ ? "==" : "!=",
			    tname(is_scalar(ta) ? b : a));
	if (n->op == OP_ADD && ta == CT_LIST && tb == CT_LIST)
		return fail(c, n, "unsupported: list concatenation");
	int t = ta == CT_DYN ? tb : ta;   /* the known type of the two, if any */
	switch (n->op) {
	case OP_EQ:
	case OP_NE:
		ok = ta == tb || ta == CT_DYN || tb == CT_DYN;
		n->type = CT_BOOL;
		break;
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		ok = (ta == tb || ta == CT_DYN || tb == CT_DYN) &&
		     (t == CT_INT || t == CT_STRING || t == CT_BOOL || t == CT_DYN);
		n->type = CT_BOOL;
		break;
	case OP_ADD:
		ok = (ta == tb || ta == CT_DYN || tb == CT_DYN) && (t == CT_INT || t == CT_STRING || t == CT_DYN);
		n->type = (uint8_t)t;
		break;
	default:
		ok = (ta == tb || ta == CT_DYN || tb == CT_DYN) && (t == CT_INT || t == CT_DYN);
		n->type = (uint8_t)t;
	}
	if (!ok)
		return fail(c, n, "found no matching overload for '%s' applied to '(%s, %s)'", op_names[n->op], tname(a),
			    tname(b));
	return 0;
}

static int check_bind(cel_checker *c, cel_node *n)
{
	if (check(c, n->kid[0]) != 0)
		return -1;
	if (c->nscope >= KP_CEL_MAX_BINDS)
		return fail(c, n, "kplan limit: more than %d cel.bind() in one expression", KP_CEL_MAX_BINDS);
	cel_scope *s = &c->scope[c->nscope++];
	s->name = n->s;
	s->slot = (int)n->i;
	s->type = n->kid[0]->type;
	s->elem = n->kid[0]->elem;
	int rc = check(c, n->kid[1]);
	c->nscope--;
	n->type = n->kid[1]->type;
	n->elem = n->kid[1]->elem;
	return rc;
}

static int check(cel_checker *c, cel_node *n)
{
	switch (n->kind) {
	case CN_INT: n->type = CT_INT; return 0;
	case CN_BOOL: n->type = CT_BOOL; return 0;
	case CN_STR: n->type = CT_STRING; return 0;
	case CN_LIST: return check_list(c, n);
	case CN_IDENT: return check_ident(c, n);
	case CN_SELECT:
	case CN_HAS: return check_select(c, n);
	case CN_INDEX: return check_index(c, n);
	case CN_CALL: return check_call(c, n);
	case CN_AND:
	case CN_OR:
	case CN_NOT: return check_logic(c, n);
	case CN_NEG:
		if (check(c, n->kid[0]) != 0)
			return -1;
		if (n->kid[0]->type != CT_INT && n->kid[0]->type != CT_DYN)
			return fail(c, n, "found no matching overload for '-_' applied to '(%s)'", tname(n->kid[0]));
		n->type = n->kid[0]->type;
		return 0;
	case CN_COND: return check_cond(c, n);
	case CN_BIN: return check_bin(c, n);
	case CN_BIND: return check_bind(c, n);
	}
	return fail(c, n, "internal error: node kind %d", n->kind);
}

int kp_cel_check(cel_node *root, kp_arena *arena, kp_cel_pos *pos, char *msg, size_t size)
{
	cel_checker c = { .arena = arena, .pos = pos, .msg = msg, .size = size };
	if (check(&c, root) != 0)
		return c.failed;
	if (root->type != CT_BOOL && root->type != CT_DYN) {
		fail(&c, root, "must evaluate to bool or the unknown type, not %s", tname(root));
		return c.failed;
	}
	return KP_OK;
}
