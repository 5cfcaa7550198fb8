/*
 * k8s_dra.c — the readers of the Dynamic Resource Allocation kinds that
 * describe devices (resource.k8s.io, issue 17; imported, not planned yet):
 * DeviceClass and ResourceSlice; and the pieces every DRA reader shares
 * (k8s_int.h): CEL selectors with where their text is, qualified names,
 * quantities, node selectors, device tolerations.
 *
 * Contract: as every reader (k8s_int.h): unknown fields are ignored, a field
 * of the wrong type or value is refused at its position with its path as
 * written in the file.  resource.k8s.io/v1 and v1beta2 have one shape;
 * v1beta1 is converted as the API server converts it
 * (pkg/apis/resource/v1beta1/conversion.go): a device's `basic` fields are
 * the device's own.  Values are checked as validateResourceSliceSpec and
 * validateDeviceClassSpec check them (pkg/apis/resource/validation), where
 * an allocator would read them: exactly one node selection, a pool with a
 * slice count, exactly one value per attribute, request policies only with
 * allowMultipleAllocations, counter sets.  An attribute or capacity name
 * without a domain is in the driver's domain ("An unqualified name is
 * implicitly prefixed with the driver name"): "model" of driver
 * gpu.example.com is domain gpu.example.com, name model.  A taint's effect
 * is kept as written when it is none of None, NoSchedule, NoExecute: kube's
 * API says consumers treat an unknown effect like None.  List-type
 * attributes (ints, bools, strings, versions: DRAListTypeAttributes, alpha)
 * are refused, as is a device naming one attribute twice (once with the
 * driver's domain, once without), whose value kube would pick by map order.
 *
 *   devices: [{name: gpu-0, attributes: {model: {string: A100}}}]   (driver gpu.example.com)
 *     -> device gpu-0, attribute gpu.example.com / model = 'A100' (string)
 */
#include "k8s_int.h"
#include "../common/quantity.h"
#include "../common/ytext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* paths in messages: DPATH bytes, cut to fit */
#define DPATH (PATHMAX * 2)
static void pathf(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pathf(char *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, DPATH, fmt, ap);
	va_end(ap);
}

/* ---- shared pieces ---- */

int kp_k8s_dra_beta1(const objhead *h)
{
	if (!h->api_version)
		return -1;
	return !strcmp(h->api_version, "resource.k8s.io/v1beta1");
}

/* line `line` (1-based) of c->ytext and the bytes from there, through a
 * forward cursor: objects and their fields come in file order */
static const char *ytext_line(kctx *c, unsigned line, size_t *rest)
{
	if (c->ycur_text != c->ytext || !c->ycur_line || line < c->ycur_line) {
		c->ycur_text = c->ytext;
		c->ycur_line = 1;
		c->ycur_off = 0;
	}
	while (c->ycur_line < line) {
		const char *nl = c->ycur_off < c->ylen ? memchr(c->ytext + c->ycur_off, '\n', c->ylen - c->ycur_off) : NULL;
		if (!nl)
			return NULL;
		c->ycur_off = (size_t)(nl - c->ytext) + 1;
		c->ycur_line++;
	}
	*rest = c->ylen - c->ycur_off;
	return c->ytext + c->ycur_off;
}

/* Where the text of scalar v starts: a literal block's first line (each of
 * its lines a line of the file at the same column), past a quote, or the
 * scalar itself. */
static void cel_where(kctx *c, const kp_ynode *v, kp_cel *out)
{
	size_t rest;
	out->line = v->line + c->yline;
	out->col = v->col + c->ycol;
	out->block = 0;
	const char *l = c->ytext ? ytext_line(c, out->line, &rest) : NULL;
	if (!l)
		return;
	int ind = kp_ytext_literal_indent(l, rest, 1, out->col, v->u.str, v->n);
	if (ind > 0) {
		out->line++;
		out->col = (unsigned)ind + 1;
		out->block = 1;
		return;
	}
	size_t p = 0;
	for (unsigned k = 1; k < out->col && p < rest && l[p] != '\n'; k++) {
		p++;
		while (p < rest && ((unsigned char)l[p] & 0xC0) == 0x80)
			p++;
	}
	if (p < rest && (l[p] == '"' || l[p] == '\''))
		out->col++;
}

int kp_k8s_dra_selectors(kctx *c, const kp_ynode *m, const char *path, kp_cels *out)
{
	const kp_ynode *seq;
	char p[DPATH];
	memset(out, 0, sizeof *out);
	pathf(p, "%s.selectors", path);
	if (kp_k8s_get_seq(c, m, "selectors", p, &seq) != KP_OK)
		return KP_PARSE;
	if (!seq || !seq->n)
		return KP_OK;
	if (seq->n > 32)
		return kp_k8s_bad(c, seq, "%s: must have at most 32 entries, got %zu", p, seq->n);
	out->v = kp_arena_alloc(c->a, seq->n * sizeof *out->v);
	if (!out->v)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i], *cel;
		char q[DPATH], r[DPATH];
		const char *expr;
		pathf(q, "%s[%zu]", p, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", q, kp_ynode_type_name(e));
		pathf(r, "%s.cel", q);
		if (kp_k8s_get_map(c, e, "cel", r, &cel) != KP_OK)
			return KP_PARSE;
		if (!cel)
			return kp_k8s_bad(c, e, "%s: required (the only kind of selector)", r);
		pathf(r, "%s.cel.expression", q);
		if (kp_k8s_get_str(c, cel, "expression", r, &expr) != KP_OK)
			return KP_PARSE;
		if (!expr || !expr[0])
			return kp_k8s_bad(c, cel, "%s: required", r);
		const kp_ynode *x = kp_ymap_get(cel, "expression");
		if (x->n > 10240)
			return kp_k8s_bad(c, x, "%s: %zu bytes, more than the 10240 kube allows", r, x->n);
		cel_where(c, x, &out->v[i]);
		out->v[i].expr = expr;
		if (!(out->v[i].path = kp_arena_strdup(c->a, r)))
			return kp_k8s_nomem(c);
	}
	out->n = seq->n;
	return KP_OK;
}

int kp_k8s_dra_quantity(kctx *c, const kp_ynode *q, const char *path, int64_t *value, const char **text)
{
	if (!q || q->type != KP_Y_SCALAR || kp_ynode_is_null(q))
		return kp_k8s_bad(c, q, "%s: expected a quantity, got a %s", path, q ? kp_ynode_type_name(q) : "null");
	kp_err qe = { 0 };
	if (kp_quantity_parse(q->u.str, 0, value, &qe) != KP_OK) {
		kp_err_set(c->err, qe.code, "%s: %s", path, qe.msg);
		kp_k8s_locate(c, c->err, q->line, q->col);
		return qe.code;
	}
	*text = q->u.str;
	return KP_OK;
}

/* a C identifier of at most 32 characters (validateCIdentifier) */
static int c_identifier(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 32 || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_'))
			return 0;
	return 1;
}

int kp_k8s_dra_qualify(kctx *c, const kp_ynode *at, const char *path, const char *name, const char *driver,
		       const char **domain, const char **id)
{
	const char *slash = strchr(name, '/');
	*domain = driver;
	*id = name;
	if (slash) {
		if (strchr(slash + 1, '/'))
			return kp_k8s_bad(c, at, "%s: '%s' must not contain more than one slash", path, name);
		if (slash == name || slash - name > 63)
			return kp_k8s_bad(c, at, "%s: '%s': the domain must be 1 to 63 characters", path, name);
		if (!(*domain = kp_arena_strndup(c->a, name, (size_t)(slash - name))))
			return kp_k8s_nomem(c);
		*id = slash + 1;
	}
	if (!c_identifier(*id))
		return kp_k8s_bad(c, at, "%s: '%s' is not a C identifier of at most 32 characters (letters, digits and "
				  "'_', not starting with a digit)", path, *id);
	return KP_OK;
}

int kp_k8s_dra_node_selector(kctx *c, const kp_ynode *m, const char *key, const char *path, int *has,
			     kp_node_term **terms, size_t *n)
{
	const kp_ynode *ns, *t;
	char p[DPATH];
	*has = 0;
	*terms = NULL;
	*n = 0;
	if (kp_k8s_get_map(c, m, key, path, &ns) != KP_OK)
		return KP_PARSE;
	if (!ns)
		return KP_OK;
	*has = 1;
	pathf(p, "%s.nodeSelectorTerms", path);
	if (kp_k8s_get_seq(c, ns, "nodeSelectorTerms", p, &t) != KP_OK)
		return KP_PARSE;
	if (!t || !t->n)
		return kp_k8s_bad(c, t ? t : ns, "%s: must have at least one term", p);
	*terms = kp_arena_alloc(c->a, t->n * sizeof **terms);
	if (!*terms)
		return kp_k8s_nomem(c);
	memset(*terms, 0, t->n * sizeof **terms);
	for (size_t i = 0; i < t->n; i++) {
		char q[DPATH];
		pathf(q, "%s[%zu]", p, i);
		if (kp_k8s_get_node_term(c, t->u.items[i], q, &(*terms)[i]) != KP_OK)
			return KP_PARSE;
	}
	*n = t->n;
	return KP_OK;
}

int kp_k8s_dra_tolerations(kctx *c, const kp_ynode *m, const char *path, kp_toleration **out, size_t *n)
{
	static const char *const ops[] = { "Equal", "Exists", NULL };
	static const char *const effects[] = { "None", "NoSchedule", "NoExecute", NULL };
	const kp_ynode *seq;
	char p[DPATH];
	*out = NULL;
	*n = 0;
	pathf(p, "%s.tolerations", path);
	if (kp_k8s_get_seq(c, m, "tolerations", p, &seq) != KP_OK)
		return KP_PARSE;
	if (!seq || !seq->n)
		return KP_OK;
	if (seq->n > 16)
		return kp_k8s_bad(c, seq, "%s: must have at most 16 entries, got %zu", p, seq->n);
	if (!(*out = kp_arena_alloc(c->a, seq->n * sizeof **out)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_toleration *t = &(*out)[i];
		char q[DPATH], r[DPATH];
		int has;
		memset(t, 0, sizeof *t);
		pathf(q, "%s[%zu]", p, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", q, kp_ynode_type_name(e));
		pathf(r, "%s.key", q);
		if (kp_k8s_get_str(c, e, "key", r, &t->key) != KP_OK)
			return KP_PARSE;
		pathf(r, "%s.operator", q);
		if (kp_k8s_one_of(c, e, "operator", r, ops, &t->op) != KP_OK)
			return KP_PARSE;
		pathf(r, "%s.value", q);
		if (kp_k8s_get_str(c, e, "value", r, &t->value) != KP_OK)
			return KP_PARSE;
		pathf(r, "%s.effect", q);
		if (kp_k8s_one_of(c, e, "effect", r, effects, &t->effect) != KP_OK)
			return KP_PARSE;
		pathf(r, "%s.tolerationSeconds", q);
		t->seconds = INT64_MIN;
		if (kp_k8s_get_int(c, e, "tolerationSeconds", r, &t->seconds, &has) != KP_OK)
			return KP_PARSE;
		if (!has)
			t->seconds = INT64_MIN;
		if (!t->op)
			t->op = "Equal";   /* the API's default */
		if (!strcmp(t->op, "Exists") && t->value && t->value[0])
			return kp_k8s_bad(c, kp_ymap_get(e, "value"), "%s.value: must be empty for operator Exists", q);
	}
	*n = seq->n;
	return KP_OK;
}

const char *kp_k8s_dra_json(kctx *c, const kp_ynode *n)
{
	kp_sb sb;
	kp_sb_init(&sb);
	kp_ynode_to_json(n, &sb);
	const char *s = kp_sb_ok(&sb) ? kp_arena_strdup(c->a, kp_sb_str(&sb)) : NULL;
	kp_sb_release(&sb);
	if (!s)
		kp_k8s_nomem(c);
	return s;
}

/* ---- DeviceClass ---- */

/* v1helper.IsExtendedResourceName: qualified, not a native (kubernetes.io)
 * name, not a quota "requests." name */
static int extended_resource_name(const char *s)
{
	return strchr(s, '/') && !strstr(s, "kubernetes.io/") && strncmp(s, "requests.", 9) != 0;
}

int kp_k8s_read_device_class(kctx *c, const objhead *h)
{
	kp_device_class_in d;
	const kp_ynode *cfg;
	memset(&d, 0, sizeof d);
	d.pos = (kp_pos){ h->obj->line, h->obj->col };
	d.name = h->name;
	d.api_version = h->api_version ? h->api_version : "resource.k8s.io/v1";
	if (kp_k8s_dra_selectors(c, h->spec, "spec", &d.selectors) != KP_OK ||
	    kp_k8s_get_str(c, h->spec, "extendedResourceName", "spec.extendedResourceName", &d.extended_resource) != KP_OK ||
	    kp_k8s_get_seq(c, h->spec, "config", "spec.config", &cfg) != KP_OK ||
	    kp_k8s_dra_config(c, cfg, "spec.config", NULL) != KP_OK)
		return KP_PARSE;
	if (d.extended_resource && !extended_resource_name(d.extended_resource))
		return kp_k8s_bad(c, kp_ymap_get(h->spec, "extendedResourceName"),
				  "spec.extendedResourceName: '%s' is not an extended resource name (DOMAIN/NAME, not in "
			   "kubernetes.io, not starting with 'requests.')", d.extended_resource);
	if (cfg && !(d.config = kp_k8s_dra_json(c, cfg)))
		return KP_NOMEM;
	return kp_import_device_class(c->imp, c->file, &d, c->err);
}

/* ---- ResourceSlice: devices ---- */

/* semver.org 2.0.0, as validateDeviceAttributeVersionValue's regexp */
static int semver(const char *s)
{
	for (int part = 0; part < 3; part++) {
		if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
		if (part < 2 && *s++ != '.')
			return 0;
	}
	for (int sect = 0; sect < 2; sect++) {
		if (*s != (sect ? '+' : '-'))
			continue;
		do {
			const char *b = ++s;
			int digits = 1;
			while ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '-') {
				digits &= *s >= '0' && *s <= '9';
				s++;
			}
			if (s == b || (!sect && digits && *b == '0' && s - b > 1))
				return 0;
		} while (*s == '.');
	}
	return *s == 0;
}

/* one attribute (key name, value v) of a device */
static int read_attr(kctx *c, const kp_ynode *key, const kp_ynode *v, const char *path, const char *driver,
		     kp_dra_attr *a)
{
	static const char *const kinds[] = { "int", "bool", "string", "version", "ints", "bools", "strings", "versions" };
	char p[DPATH];
	int set = 0, which = -1;
	pathf(p, "%s.%s", path, key->u.str);
	if (kp_k8s_dra_qualify(c, key, p, key->u.str, driver, &a->domain, &a->name) != KP_OK)
		return KP_PARSE;
	if (v->type != KP_Y_MAP)
		return kp_k8s_bad(c, v, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(v));
	for (int k = 0; k < 8; k++)
		if (kp_ymap_get(v, kinds[k])) {
			set++;
			which = k;
		}
	if (set != 1)
		return kp_k8s_bad(c, v, "%s: exactly one of int, bool, string, version must be set, got %d", p, set);
	if (which >= 4)
		return kp_k8s_bad(c, kp_ymap_get(v, kinds[which]), "%s.%s: list-type attributes (DRAListTypeAttributes, "
				  "alpha) are not supported by kplan", p, kinds[which]);
	char q[DPATH];
	pathf(q, "%s.%s", p, kinds[which]);
	a->type = kinds[which];
	if (which == 0)
		return kp_k8s_get_int(c, v, "int", q, &a->ival, NULL);
	if (which == 1) {
		int b;
		if (kp_k8s_get_bool(c, v, "bool", q, &b) != KP_OK)
			return KP_PARSE;
		a->ival = b;
		return KP_OK;
	}
	if (kp_k8s_get_str(c, v, kinds[which], q, &a->sval) != KP_OK)
		return KP_PARSE;
	if (strlen(a->sval) > 64)
		return kp_k8s_bad(c, kp_ymap_get(v, kinds[which]), "%s: longer than 64 characters", q);
	if (which == 3 && !semver(a->sval))
		return kp_k8s_bad(c, kp_ymap_get(v, "version"), "%s: '%s' is not a semantic version (semver.org 2.0.0)", q,
				  a->sval);
	return KP_OK;
}

static int read_attrs(kctx *c, const kp_ynode *m, const char *path, const char *driver, kp_dra_device *d)
{
	if (!m || !m->n)
		return KP_OK;
	if (!(d->attrs = kp_arena_alloc(c->a, m->n * sizeof *d->attrs)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < m->n; i++) {
		kp_dra_attr *a = &d->attrs[i];
		memset(a, 0, sizeof *a);
		if (read_attr(c, m->u.pairs[i].key, m->u.pairs[i].value, path, driver, a) != KP_OK)
			return KP_PARSE;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(d->attrs[j].domain, a->domain) && !strcmp(d->attrs[j].name, a->name))
				return kp_k8s_bad(c, m->u.pairs[i].key, "%s: '%s' and '%s' are the same attribute %s/%s (a name "
						  "without a domain is in the driver's)", path, m->u.pairs[j].key->u.str,
						  m->u.pairs[i].key->u.str, a->domain, a->name);
	}
	d->nattrs = m->n;
	return KP_OK;
}

/* capacity.X.requestPolicy (consumable capacity), checked as validateRequestPolicy */
static int read_policy(kctx *c, const kp_ynode *rp, const char *path, kp_dra_capacity *k)
{
	const kp_ynode *vv, *vr;
	const char *t;
	char p[DPATH];
	pathf(p, "%s.default", path);
	if ((k->has_default = kp_ymap_get(rp, "default") != NULL) &&
	    kp_k8s_dra_quantity(c, kp_ymap_get(rp, "default"), p, &k->def, &t) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.validValues", path);
	if (kp_k8s_get_seq(c, rp, "validValues", p, &vv) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.validRange", path);
	if (kp_k8s_get_map(c, rp, "validRange", p, &vr) != KP_OK)
		return KP_PARSE;
	if (vv && vv->n && vr)
		return kp_k8s_bad(c, vr, "%s: exactly one policy can be specified, not validValues and validRange", path);
	if (((vv && vv->n) || vr) && !k->has_default)
		return kp_k8s_bad(c, rp, "%s.default: required with %s", path, vr ? "validRange" : "validValues");
	if (vv && vv->n) {
		if (vv->n > 10)
			return kp_k8s_bad(c, vv, "%s.validValues: must have at most 10 entries", path);
		if (!(k->valid = kp_arena_alloc(c->a, vv->n * sizeof *k->valid)))
			return kp_k8s_nomem(c);
		int found = 0;
		for (size_t i = 0; i < vv->n; i++) {
			pathf(p, "%s.validValues[%zu]", path, i);
			if (kp_k8s_dra_quantity(c, vv->u.items[i], p, &k->valid[i], &t) != KP_OK)
				return KP_PARSE;
			if (i && k->valid[i] < k->valid[i - 1])
				return kp_k8s_bad(c, vv->u.items[i], "%s: values must be sorted in ascending order", p);
			if (k->valid[i] > k->q.value)
				return kp_k8s_bad(c, vv->u.items[i], "%s: larger than the capacity value", p);
			found |= k->valid[i] == k->def;
		}
		k->has_valid = 1;
		k->nvalid = vv->n;
		if (!found)
			return kp_k8s_bad(c, kp_ymap_get(rp, "default"), "%s.default: not one of validValues", path);
	}
	if (!vr)
		return KP_OK;
	const char *const keys[] = { "min", "max", "step" };
	int64_t *vals[] = { &k->min, &k->max, &k->step };
	int *has[] = { &k->has_min, &k->has_max, &k->has_step };
	for (int i = 0; i < 3; i++) {
		pathf(p, "%s.validRange.%s", path, keys[i]);
		if ((*has[i] = kp_ymap_get(vr, keys[i]) != NULL) &&
		    kp_k8s_dra_quantity(c, kp_ymap_get(vr, keys[i]), p, vals[i], &t) != KP_OK)
			return KP_PARSE;
	}
	if (!k->has_min)
		return kp_k8s_bad(c, vr, "%s.validRange.min: required", path);
	if (k->min > k->q.value || (k->has_max && (k->max < k->min || k->max > k->q.value)))
		return kp_k8s_bad(c, vr, "%s.validRange: must hold min <= max <= the capacity value", path);
	if (k->def < k->min || (k->has_max && k->def > k->max))
		return kp_k8s_bad(c, kp_ymap_get(rp, "default"), "%s.default: outside validRange", path);
	if (k->has_step && k->step <= 0)
		return kp_k8s_bad(c, kp_ymap_get(vr, "step"), "%s.validRange.step: must be greater than zero", path);
	if (k->has_step && ((k->def - k->min) % k->step || (k->has_max && (k->max - k->min) % k->step)))
		return kp_k8s_bad(c, kp_ymap_get(vr, "step"), "%s.validRange.step: default and max must be min plus a "
				  "multiple of step", path);
	return KP_OK;
}

static int read_caps(kctx *c, const kp_ynode *m, const char *path, const char *driver, kp_dra_device *d)
{
	if (!m || !m->n)
		return KP_OK;
	if (!(d->caps = kp_arena_alloc(c->a, m->n * sizeof *d->caps)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < m->n; i++) {
		const kp_ynode *key = m->u.pairs[i].key, *v = m->u.pairs[i].value, *rp;
		kp_dra_capacity *k = &d->caps[i];
		char p[DPATH], q[DPATH];
		memset(k, 0, sizeof *k);
		pathf(p, "%s.%s", path, key->u.str);
		if (kp_k8s_dra_qualify(c, key, p, key->u.str, driver, &k->q.domain, &k->q.name) != KP_OK)
			return KP_PARSE;
		if (v->type != KP_Y_MAP)
			return kp_k8s_bad(c, v, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(v));
		pathf(q, "%s.value", p);
		if (!kp_ymap_get(v, "value"))
			return kp_k8s_bad(c, v, "%s: required", q);
		if (kp_k8s_dra_quantity(c, kp_ymap_get(v, "value"), q, &k->q.value, &k->q.text) != KP_OK)
			return KP_PARSE;
		pathf(q, "%s.requestPolicy", p);
		if (kp_k8s_get_map(c, v, "requestPolicy", q, &rp) != KP_OK)
			return KP_PARSE;
		if (rp && !d->allow_multiple)
			return kp_k8s_bad(c, rp, "%s: only allowed when allowMultipleAllocations is true", q);
		if (rp && read_policy(c, rp, q, k) != KP_OK)
			return KP_PARSE;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(d->caps[j].q.domain, k->q.domain) && !strcmp(d->caps[j].q.name, k->q.name))
				return kp_k8s_bad(c, key, "%s: '%s' and '%s' are the same capacity %s/%s (a name without a "
						  "domain is in the driver's)", path, m->u.pairs[j].key->u.str, key->u.str,
						  k->q.domain, k->q.name);
	}
	d->ncaps = m->n;
	return KP_OK;
}

/* a list of counter sets (sharedCounters: key "name"; consumesCounters:
 * key "counterSet"), each {KEY, counters: {name: {value}}}, flattened */
static int read_counter_sets(kctx *c, const kp_ynode *seq, const char *path, const char *key, size_t max,
			     kp_dra_counter **out, size_t *n)
{
	size_t total = 0;
	*out = NULL;
	*n = 0;
	if (!seq || !seq->n)
		return KP_OK;
	if (seq->n > max)
		return kp_k8s_bad(c, seq, "%s: must have at most %zu entries, got %zu", path, max, seq->n);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i], *cs;
		char p[DPATH], q[DPATH];
		const char *set;
		pathf(p, "%s[%zu]", path, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		pathf(q, "%s.%s", p, key);
		if (kp_k8s_get_str(c, e, key, q, &set) != KP_OK)
			return KP_PARSE;
		if (!set || !set[0])
			return kp_k8s_bad(c, e, "%s: required", q);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(kp_ymap_get(seq->u.items[j], key)->u.str, set))
				return kp_k8s_bad(c, kp_ymap_get(e, key), "%s: '%s' twice", q, set);
		pathf(q, "%s.counters", p);
		if (kp_k8s_get_map(c, e, "counters", q, &cs) != KP_OK)
			return KP_PARSE;
		if (!cs || !cs->n)
			return kp_k8s_bad(c, cs ? cs : e, "%s: required", q);
		if (cs->n > 32)
			return kp_k8s_bad(c, cs, "%s: must have at most 32 counters", q);
		kp_dra_counter *v = kp_arena_alloc(c->a, (total + cs->n) * sizeof *v);
		if (!v)
			return kp_k8s_nomem(c);
		if (total)
			memcpy(v, *out, total * sizeof *v);
		*out = v;
		for (size_t k = 0; k < cs->n; k++) {
			const kp_ynode *val = cs->u.pairs[k].value;
			kp_dra_counter *ct = &v[total++];
			char r[DPATH];
			ct->set = set;
			ct->name = cs->u.pairs[k].key->u.str;
			pathf(r, "%s.%s", q, ct->name);
			if (val->type != KP_Y_MAP || !kp_ymap_get(val, "value"))
				return kp_k8s_bad(c, val, "%s: expected a mapping with a value", r);
			pathf(r, "%s.%s.value", q, ct->name);
			if (kp_k8s_dra_quantity(c, kp_ymap_get(val, "value"), r, &ct->value, &ct->text) != KP_OK)
				return KP_PARSE;
		}
	}
	*n = total;
	return KP_OK;
}

static int read_taints(kctx *c, const kp_ynode *seq, const char *path, kp_dra_device *d)
{
	if (!seq || !seq->n)
		return KP_OK;
	if (seq->n > 16)
		return kp_k8s_bad(c, seq, "%s: must have at most 16 taints", path);
	if (!(d->taints = kp_arena_alloc(c->a, seq->n * sizeof *d->taints)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_dra_taint *t = &d->taints[i];
		char p[DPATH], q[DPATH];
		pathf(p, "%s[%zu]", path, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		pathf(q, "%s.key", p);
		if (kp_k8s_get_str(c, e, "key", q, &t->key) != KP_OK)
			return KP_PARSE;
		if (!t->key || !t->key[0])
			return kp_k8s_bad(c, e, "%s: required", q);
		pathf(q, "%s.value", p);
		if (kp_k8s_get_str(c, e, "value", q, &t->value) != KP_OK)
			return KP_PARSE;
		pathf(q, "%s.effect", p);
		if (kp_k8s_get_str(c, e, "effect", q, &t->effect) != KP_OK)
			return KP_PARSE;
		if (!t->effect || !t->effect[0])
			return kp_k8s_bad(c, e, "%s: required", q);
		pathf(q, "%s.timeAdded", p);
		if (kp_k8s_get_time(c, e, "timeAdded", q, &t->time_added) != KP_OK)
			return KP_PARSE;
	}
	d->ntaints = seq->n;
	return KP_OK;
}

/* a device's own node selection (perDeviceNodeSelection) */
static int device_nodes(kctx *c, const kp_ynode *b, const kp_ynode *e, const char *bp, const char *path, int per_device,
			kp_dra_device *d)
{
	char p[DPATH];
	int set = 0;
	pathf(p, "%s.nodeName", bp);
	if (kp_k8s_get_str(c, b, "nodeName", p, &d->node_name) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.nodeSelector", bp);
	if (kp_k8s_dra_node_selector(c, b, "nodeSelector", p, &d->has_selector, &d->terms, &d->nterms) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.allNodes", bp);
	if (kp_k8s_get_bool(c, b, "allNodes", p, &d->all_nodes) != KP_OK)
		return KP_PARSE;
	int given = d->node_name || d->has_selector || kp_ymap_get(b, "allNodes");
	if (!per_device) {
		if (given)
			return kp_k8s_bad(c, e, "%s: nodeName, nodeSelector and allNodes can only be set if "
					  "perDeviceNodeSelection is true in the ResourceSlice spec", path);
		return KP_OK;
	}
	if (d->node_name && !d->node_name[0])
		return kp_k8s_bad(c, kp_ymap_get(b, "nodeName"), "%s.nodeName: must not be empty", bp);
	if (kp_ymap_get(b, "allNodes") && !d->all_nodes)
		return kp_k8s_bad(c, kp_ymap_get(b, "allNodes"), "%s.allNodes: must be either unset or set to true", bp);
	set = (d->node_name != NULL) + d->has_selector + d->all_nodes;
	if (set != 1)
		return kp_k8s_bad(c, e, "%s: exactly one of nodeName, nodeSelector, or allNodes is required when "
				  "perDeviceNodeSelection is set to true in the ResourceSlice spec", path);
	return KP_OK;
}

static int read_device(kctx *c, const kp_ynode *e, const char *path, const char *driver, int beta1, int per_device,
		       kp_dra_device *d)
{
	const kp_ynode *b = e, *attrs, *caps, *cons, *taints;
	char bp[DPATH], p[DPATH];
	memset(d, 0, sizeof *d);
	if (e->type != KP_Y_MAP)
		return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(e));
	pathf(p, "%s.name", path);
	if (kp_k8s_get_str(c, e, "name", p, &d->name) != KP_OK)
		return KP_PARSE;
	if (!d->name || !d->name[0])
		return kp_k8s_bad(c, e, "%s: required", p);
	pathf(bp, "%s%s", path, beta1 ? ".basic" : "");
	if (beta1 && kp_k8s_get_map(c, e, "basic", bp, &b) != KP_OK)
		return KP_PARSE;
	if (!b)
		return per_device ? kp_k8s_bad(c, e, "%s: exactly one of nodeName, nodeSelector, or allNodes is required "
					       "when perDeviceNodeSelection is set to true in the ResourceSlice spec", path)
				  : KP_OK;   /* a v1beta1 device without `basic`: a name only */
	pathf(p, "%s.allowMultipleAllocations", bp);
	if (kp_k8s_get_bool(c, b, "allowMultipleAllocations", p, &d->allow_multiple) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.bindsToNode", bp);
	if (kp_k8s_get_bool(c, b, "bindsToNode", p, &d->binds_to_node) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.attributes", bp);
	if (kp_k8s_get_map(c, b, "attributes", p, &attrs) != KP_OK || read_attrs(c, attrs, p, driver, d) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.capacity", bp);
	if (kp_k8s_get_map(c, b, "capacity", p, &caps) != KP_OK || read_caps(c, caps, p, driver, d) != KP_OK)
		return KP_PARSE;
	if (d->nattrs + d->ncaps > 32)
		return kp_k8s_bad(c, e, "%s: more than 32 attributes and capacities", path);
	pathf(p, "%s.consumesCounters", bp);
	if (kp_k8s_get_seq(c, b, "consumesCounters", p, &cons) != KP_OK ||
	    read_counter_sets(c, cons, p, "counterSet", 2, &d->counters, &d->ncounters) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.taints", bp);
	if (kp_k8s_get_seq(c, b, "taints", p, &taints) != KP_OK || read_taints(c, taints, p, d) != KP_OK)
		return KP_PARSE;
	return device_nodes(c, b, e, bp, path, per_device, d);
}

/* ---- ResourceSlice ---- */

/* spec.pool and the slice's node selection (exactly one of four) */
static int slice_pool_nodes(kctx *c, const kp_ynode *spec, kp_resource_slice_in *s)
{
	const kp_ynode *pool;
	int has;
	if (kp_k8s_get_str(c, spec, "driver", "spec.driver", &s->driver) != KP_OK ||
	    kp_k8s_get_map(c, spec, "pool", "spec.pool", &pool) != KP_OK)
		return KP_PARSE;
	if (!s->driver || !s->driver[0])
		return kp_k8s_bad(c, spec, "spec.driver: required");
	if (!pool)
		return kp_k8s_bad(c, spec, "spec.pool: required");
	if (kp_k8s_get_str(c, pool, "name", "spec.pool.name", &s->pool) != KP_OK ||
	    kp_k8s_get_int(c, pool, "generation", "spec.pool.generation", &s->generation, NULL) != KP_OK ||
	    kp_k8s_get_int(c, pool, "resourceSliceCount", "spec.pool.resourceSliceCount", &s->slice_count, &has) != KP_OK)
		return KP_PARSE;
	if (!s->pool || !s->pool[0])
		return kp_k8s_bad(c, pool, "spec.pool.name: required");
	if (s->generation < 0)
		return kp_k8s_bad(c, kp_ymap_get(pool, "generation"), "spec.pool.generation: must not be negative");
	if (s->slice_count <= 0)
		return kp_k8s_bad(c, has ? kp_ymap_get(pool, "resourceSliceCount") : pool,
				  "spec.pool.resourceSliceCount: must be greater than zero");
	if (kp_k8s_get_str(c, spec, "nodeName", "spec.nodeName", &s->node_name) != KP_OK ||
	    kp_k8s_get_bool(c, spec, "allNodes", "spec.allNodes", &s->all_nodes) != KP_OK ||
	    kp_k8s_get_bool(c, spec, "perDeviceNodeSelection", "spec.perDeviceNodeSelection", &s->per_device) != KP_OK)
		return KP_PARSE;
	if (s->node_name && !s->node_name[0])
		return kp_k8s_bad(c, kp_ymap_get(spec, "nodeName"), "spec.nodeName: must be either unset or set to a "
				  "non-empty string");
	if (kp_ymap_get(spec, "allNodes") && !s->all_nodes)
		return kp_k8s_bad(c, kp_ymap_get(spec, "allNodes"), "spec.allNodes: must be either unset or set to true");
	if (kp_ymap_get(spec, "perDeviceNodeSelection") && !s->per_device)
		return kp_k8s_bad(c, kp_ymap_get(spec, "perDeviceNodeSelection"),
				  "spec.perDeviceNodeSelection: must be either unset or set to true");
	char set[128] = "";
	int nset = 0;
	const char *names[] = { "nodeName", "nodeSelector", "allNodes", "perDeviceNodeSelection" };
	int given[] = { s->node_name != NULL, kp_ymap_get(spec, "nodeSelector") != NULL, s->all_nodes, s->per_device };
	for (int i = 0; i < 4; i++)
		if (given[i]) {
			snprintf(set + strlen(set), sizeof set - strlen(set), "%s%s", nset++ ? ", " : "", names[i]);
		}
	if (nset != 1)
		return kp_k8s_bad(c, spec, "spec: exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is "
				  "required%s%s%s", nset ? ", but several are set (" : "", set, nset ? ")" : "");
	if (kp_k8s_dra_node_selector(c, spec, "nodeSelector", "spec.nodeSelector", &s->has_selector, &s->terms,
				     &s->nterms) != KP_OK)
		return KP_PARSE;
	if (s->has_selector && s->nterms != 1)
		return kp_k8s_bad(c, kp_ymap_get(spec, "nodeSelector"), "spec.nodeSelector.nodeSelectorTerms: must have "
				  "exactly one term");
	return KP_OK;
}

int kp_k8s_read_resource_slice(kctx *c, const objhead *h)
{
	kp_resource_slice_in s;
	const kp_ynode *devs, *shared;
	memset(&s, 0, sizeof s);
	s.pos = (kp_pos){ h->obj->line, h->obj->col };
	s.name = h->name;
	s.api_version = h->api_version ? h->api_version : "resource.k8s.io/v1";
	if (!h->spec)
		return kp_k8s_bad(c, h->obj, "spec: required");
	if (slice_pool_nodes(c, h->spec, &s) != KP_OK ||
	    kp_k8s_get_seq(c, h->spec, "devices", "spec.devices", &devs) != KP_OK ||
	    kp_k8s_get_seq(c, h->spec, "sharedCounters", "spec.sharedCounters", &shared) != KP_OK)
		return KP_PARSE;
	if (devs && shared)
		return kp_k8s_bad(c, shared, "spec: only one of sharedCounters or devices is allowed");
	if (read_counter_sets(c, shared, "spec.sharedCounters", "name", 8, &s.counters, &s.ncounters) != KP_OK)
		return KP_PARSE;
	int beta1 = kp_k8s_dra_beta1(h);
	if (devs && devs->n) {
		if (devs->n > 128)
			return kp_k8s_bad(c, devs, "spec.devices: must have at most 128 devices, got %zu", devs->n);
		if (!(s.devices = kp_arena_alloc(c->a, devs->n * sizeof *s.devices)))
			return kp_k8s_nomem(c);
		int advanced = 0;
		for (size_t i = 0; i < devs->n; i++) {
			const kp_ynode *e = devs->u.items[i];
			char p[DPATH];
			pathf(p, "spec.devices[%zu]", i);
			int b1 = beta1 >= 0 ? beta1 : e->type == KP_Y_MAP && kp_ymap_get(e, "basic") != NULL;
			if (read_device(c, e, p, s.driver, b1, s.per_device, &s.devices[i]) != KP_OK)
				return KP_PARSE;
			advanced |= s.devices[i].ntaints || s.devices[i].ncounters;
			for (size_t j = 0; j < i; j++)
				if (!strcmp(s.devices[j].name, s.devices[i].name))
					return kp_k8s_bad(c, kp_ymap_get(e, "name"), "%s.name: '%s' twice in the slice", p,
							  s.devices[i].name);
		}
		if (advanced && devs->n > 64)
			return kp_k8s_bad(c, devs, "spec.devices: at most 64 devices when a device has taints or consumes "
					  "counters, got %zu", devs->n);
		s.ndevices = devs->n;
	}
	return kp_import_resource_slice(c->imp, c->file, &s, c->err);
}
