/*
 * http_extender_config.c — the `extenders:` list of a
 * KubeSchedulerConfiguration (v1 and v1beta3 spell it alike), read and
 * validated as kube-scheduler reads it:
 *
 *   extenders:
 *   - urlPrefix: http://127.0.0.1:8888/scheduler
 *     filterVerb: filter
 *     prioritizeVerb: prioritize
 *     preemptVerb: preempt
 *     weight: 2
 *     httpTimeout: 2s
 *     nodeCacheCapable: true
 *     managedResources: [{name: example.com/foo, ignoredByScheduler: true}]
 *     ignorable: false
 *
 * Validation is kube's validateExtenders (apis/config/validation
 * validation.go): weight > 0 when prioritizeVerb is set, at most one
 * bindVerb, managedResources names that are extended resource names and
 * not repeated; its messages are kube's field errors ("extenders[0].weight:
 * Invalid value: 0: must have a positive weight applied to it").  kube
 * validates nothing about preemptVerb, and neither does kplan (it is called
 * by plan_extender_preempt.c).  A tlsConfig with insecure and a CA is
 * refused as client-go's TLSConfigFor refuses it.  Every error has FILE:LINE:COL.
 */
#include "http_extender.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

typedef struct ctx { const char *source; kp_err *err; char *why; size_t nwhy; } ctx;

static int bad(ctx *c, const kp_ynode *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(ctx *c, const kp_ynode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(c->err, KP_PARSE, fmt, ap);
	va_end(ap);
	kp_err_locate(c->err, c->source, at ? at->line : 0, at ? at->col : 0, "KubeSchedulerConfiguration");
	if (c->why && !c->why[0])
		snprintf(c->why, c->nwhy, "has HTTP extenders kplan cannot use");
	return KP_PARSE;
}

static int only_keys(ctx *c, const kp_ynode *m, const char *path, const char *const *allowed)
{
	if (m->type != KP_Y_MAP)
		return bad(c, m, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(m));
	const kp_ynode *k = kp_ymap_unknown_key(m, allowed);
	return k ? bad(c, k, "%s: unknown field '%s'", path, k->u.str) : KP_OK;
}

/* a string field into out (size n); absent leaves out as it is */
static int get_str(ctx *c, const kp_ynode *m, const char *key, const char *path, char *out, size_t n)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	if (!v || kp_ynode_is_null(v))
		return KP_OK;
	if (v->type != KP_Y_SCALAR)
		return bad(c, v, "%s.%s: expected a string", path, key);
	if (strlen(v->u.str) >= n)
		return bad(c, v, "%s.%s: longer than kplan reads (%zu bytes)", path, key, n - 1);
	snprintf(out, n, "%s", v->u.str);
	return KP_OK;
}

static int get_bool(ctx *c, const kp_ynode *m, const char *key, const char *path, int *out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	if (!v || kp_ynode_is_null(v))
		return KP_OK;
	if (v->type == KP_Y_SCALAR && (!strcmp(v->u.str, "true") || !strcmp(v->u.str, "false"))) {
		*out = v->u.str[0] == 't';
		return KP_OK;
	}
	return bad(c, v, "%s.%s: expected true or false", path, key);
}

/* Go's time.ParseDuration, in milliseconds (sub-millisecond parts round
 * down): "30s", "1m30s", "1.5s", "500ms", "-1s", "0" */
static int parse_duration(const char *s, int64_t *ms)
{
	int neg = 0;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!strcmp(s, "0")) {
		*ms = 0;
		return 0;
	}
	if (!*s)
		return -1;
	double total = 0;
	while (*s) {
		if (!isdigit((unsigned char)*s) && *s != '.')
			return -1;
		char *end;
		double v = strtod(s, &end);
		if (end == s)
			return -1;
		s = end;
		static const struct { const char *u; double ms; } units[] = {
			{ "ns", 1e-6 }, { "us", 1e-3 }, { "\xc2\xb5s", 1e-3 }, { "\xce\xbcs", 1e-3 }, { "ms", 1 },
			{ "s", 1e3 }, { "m", 60e3 }, { "h", 3600e3 },
		};
		size_t best = 0;
		double mul = 0;
		for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
			size_t l = strlen(units[i].u);
			if (!strncmp(s, units[i].u, l) && l > best && (s[l] == 0 || isdigit((unsigned char)s[l]) || s[l] == '.')) {
				best = l;
				mul = units[i].ms;
			}
		}
		if (!best)
			return -1;
		s += best;
		total += v * mul;
	}
	if (total > 9.2e15)
		return -1;
	*ms = (int64_t)total * (neg ? -1 : 1);
	return 0;
}

/* standard base64 (Go's []byte in YAML/JSON); NULL on bad input or no memory */
static unsigned char *base64_decode(const char *in, size_t *len)
{
	size_t n = strlen(in);
	unsigned char *out = kp_malloc(n / 4 * 3 + 3);
	if (!out)
		return NULL;
	uint32_t acc = 0;
	int bits = 0;
	size_t o = 0, pad = 0;
	for (size_t i = 0; i < n; i++) {
		int ch = (unsigned char)in[i], v;
		if (ch == '=') {
			pad++;
			continue;
		}
		if (pad || ch == '\n' || ch == '\r' || ch == ' ') {
			if (ch == '\n' || ch == '\r' || ch == ' ')
				continue;
			kp_free(out);
			return NULL;
		}
		if (ch >= 'A' && ch <= 'Z')
			v = ch - 'A';
		else if (ch >= 'a' && ch <= 'z')
			v = ch - 'a' + 26;
		else if (ch >= '0' && ch <= '9')
			v = ch - '0' + 52;
		else if (ch == '+')
			v = 62;
		else if (ch == '/')
			v = 63;
		else {
			kp_free(out);
			return NULL;
		}
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	*len = o;
	return out;
}

/* apimachinery's IsQualifiedName: [prefix/]name, name 1..63 of
 * [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, prefix a DNS subdomain */
static int qualified_name(const char *s)
{
	const char *slash = strrchr(s, '/'), *name = slash ? slash + 1 : s;
	size_t n = strlen(name);
	if (!n || n > 63 || !isalnum((unsigned char)name[0]) || !isalnum((unsigned char)name[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("-_.", name[i]))
			return 0;
	if (!slash)
		return 1;
	size_t pl = (size_t)(slash - s);
	if (!pl || pl > 253 || memchr(s, '/', pl))
		return 0;
	/* a DNS subdomain: labels of [a-z0-9-], each starting and ending alphanumeric */
	for (size_t i = 0; i < pl; i++) {
		char ch = s[i];
		int first = i == 0 || s[i - 1] == '.', last = i + 1 == pl || s[i + 1] == '.';
		if (ch == '.' ? first : !(islower((unsigned char)ch) || isdigit((unsigned char)ch) || (ch == '-' && !first && !last)))
			return 0;
	}
	return s[pl - 1] != '.';
}

/* v1helper.IsExtendedResourceName: not native (has a '/', not kubernetes.io/),
 * no "requests." prefix, and "requests." + name a qualified name */
static int extended_resource_name(const char *s)
{
	if (!strchr(s, '/') || strstr(s, "kubernetes.io/") || !strncmp(s, "requests.", 9))
		return 0;
	char buf[600];
	snprintf(buf, sizeof buf, "requests.%s", s);
	return qualified_name(buf);
}

static int read_tls(ctx *c, kp_hext *x, const kp_ynode *t, const char *path)
{
	static const char *const keys[] = { "insecure", "serverName", "certFile", "keyFile", "caFile", "certData",
					    "keyData", "caData", NULL };
	if (only_keys(c, t, path, keys) || get_bool(c, t, "insecure", path, &x->insecure) ||
	    get_str(c, t, "serverName", path, x->server_name, sizeof x->server_name) ||
	    get_str(c, t, "certFile", path, x->cert_file, sizeof x->cert_file) ||
	    get_str(c, t, "keyFile", path, x->key_file, sizeof x->key_file) ||
	    get_str(c, t, "caFile", path, x->ca_file, sizeof x->ca_file))
		return KP_PARSE;
	static const char *const data[] = { "certData", "keyData", "caData" };
	unsigned char **dst[] = { &x->cert_data, &x->key_data, &x->ca_data };
	size_t *len[] = { &x->cert_len, &x->key_len, &x->ca_len };
	for (int k = 0; k < 3; k++) {
		const kp_ynode *v = kp_ymap_get(t, data[k]);
		if (!v || kp_ynode_is_null(v))
			continue;
		if (v->type != KP_Y_SCALAR || !(*dst[k] = base64_decode(v->u.str, len[k])))
			return bad(c, v, "%s.%s: expected base64 data", path, data[k]);
	}
	/* client-go TLSConfigFor: a CA with insecure is refused */
	if (x->insecure && (x->ca_file[0] || x->ca_data))
		return bad(c, t, "%s: specifying a root certificates file with the insecure flag is not allowed", path);
	return KP_OK;
}

static int read_managed(ctx *c, kp_hext *x, const kp_ynode *l, const char *path, kp_hexts *all)
{
	if (l->type != KP_Y_SEQ)
		return bad(c, l, "%s.managedResources: expected a list", path);
	if (l->n > KP_MAX_MANAGED)
		return bad(c, l, "%s.managedResources: at most %d resources", path, KP_MAX_MANAGED);
	for (size_t j = 0; j < l->n; j++) {
		const kp_ynode *e = l->u.items[j];
		char mp[96];
		snprintf(mp, sizeof mp, "%s.managedResources[%zu]", path, j);
		static const char *const keys[] = { "name", "ignoredByScheduler", NULL };
		if (only_keys(c, e, mp, keys))
			return KP_PARSE;
		char *name = x->managed[x->nmanaged].name;
		name[0] = 0;
		if (get_str(c, e, "name", mp, name, sizeof x->managed[0].name) ||
		    get_bool(c, e, "ignoredByScheduler", mp, &x->managed[x->nmanaged].ignored_by_scheduler))
			return KP_PARSE;
		const kp_ynode *at = kp_ymap_get(e, "name") ? kp_ymap_get(e, "name") : e;
		if (!extended_resource_name(name))
			return bad(c, at, "%s.name: Invalid value: \"%s\": is an invalid extended resource name", mp, name);
		/* kube: a name managed twice, in any extender of the list */
		for (int k = 0; k <= all->n; k++) {
			const kp_hext *o = &all->v[k];
			for (int m = 0; m < (o == x ? x->nmanaged : o->nmanaged); m++)
				if (!strcmp(o->managed[m].name, name))
					return bad(c, at, "%s.name: Invalid value: \"%s\": duplicate extender managed resource name",
						   mp, name);
		}
		x->nmanaged++;
	}
	return KP_OK;
}

static int read_one(ctx *c, kp_hext *x, const kp_ynode *e, int i, kp_hexts *all)
{
	char path[48];
	snprintf(path, sizeof path, "extenders[%d]", i);
	static const char *const keys[] = { "urlPrefix", "filterVerb", "preemptVerb", "prioritizeVerb", "weight",
					    "bindVerb", "enableHTTPS", "tlsConfig", "httpTimeout", "nodeCacheCapable",
					    "managedResources", "ignorable", NULL };
	if (only_keys(c, e, path, keys))
		return KP_PARSE;
	x->index = i;
	x->timeout_ms = KP_HEXT_DEFAULT_TIMEOUT_MS;
	if (get_str(c, e, "urlPrefix", path, x->url_prefix, sizeof x->url_prefix) ||
	    get_str(c, e, "filterVerb", path, x->filter_verb, sizeof x->filter_verb) ||
	    get_str(c, e, "prioritizeVerb", path, x->prioritize_verb, sizeof x->prioritize_verb) ||
	    get_str(c, e, "preemptVerb", path, x->preempt_verb, sizeof x->preempt_verb) ||
	    get_str(c, e, "bindVerb", path, x->bind_verb, sizeof x->bind_verb) ||
	    get_bool(c, e, "enableHTTPS", path, &x->enable_https) ||
	    get_bool(c, e, "nodeCacheCapable", path, &x->node_cache_capable) ||
	    get_bool(c, e, "ignorable", path, &x->ignorable))
		return KP_PARSE;
	const kp_ynode *v = kp_ymap_get(e, "weight");
	if (v && !kp_ynode_is_null(v)) {
		char *end;
		x->weight = v->type == KP_Y_SCALAR ? strtoll(v->u.str, &end, 10) : 0;
		if (v->type != KP_Y_SCALAR || !v->u.str[0] || *end)
			return bad(c, v, "%s.weight: expected an integer", path);
	}
	if (x->prioritize_verb[0] && x->weight <= 0)
		return bad(c, v ? v : e, "%s.weight: Invalid value: %lld: must have a positive weight applied to it", path,
			   (long long)x->weight);
	if (!x->url_prefix[0])
		return bad(c, e, "%s.urlPrefix: required: the extender's address", path);
	if ((v = kp_ymap_get(e, "httpTimeout")) && !kp_ynode_is_null(v)) {
		if (v->type != KP_Y_SCALAR || parse_duration(v->u.str, &x->timeout_ms))
			return bad(c, v, "%s.httpTimeout: expected a duration such as 30s or 500ms", path);
		if (x->timeout_ms == 0)
			x->timeout_ms = KP_HEXT_DEFAULT_TIMEOUT_MS;   /* NewHTTPExtender: 0 means the default */
	}
	const kp_ynode *t = kp_ymap_get(e, "tlsConfig");
	if (t && !kp_ynode_is_null(t) && read_tls(c, x, t, path))
		return KP_PARSE;
	const kp_ynode *m = kp_ymap_get(e, "managedResources");
	if (m && !kp_ynode_is_null(m) && read_managed(c, x, m, path, all))
		return KP_PARSE;
	return KP_OK;
}

static void release_one(kp_hext *x)
{
	kp_free(x->cert_data);
	kp_free(x->key_data);
	kp_free(x->ca_data);
}

int kp_hexts_parse(const kp_ynode *list, const char *source, kp_hexts **out, char *why, size_t nwhy, kp_err *err)
{
	ctx c = { source, err, why, nwhy };
	*out = NULL;
	if (!list || kp_ynode_is_null(list))
		return KP_OK;
	if (list->type != KP_Y_SEQ)
		return bad(&c, list, "extenders: expected a list");
	if (!list->n)
		return KP_OK;
	if (list->n > KP_MAX_HTTP_EXTENDERS)
		return bad(&c, list, "extenders: %zu extenders, more than kplan calls (%d)", list->n, KP_MAX_HTTP_EXTENDERS);
	kp_hexts *l = kp_calloc(1, sizeof *l);
	if (!l)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	l->refs = 1;
	int binders = 0, rc = KP_OK;
	for (size_t i = 0; i < list->n && !rc; i++) {
		rc = read_one(&c, &l->v[l->n], list->u.items[i], (int)i, l);
		binders += l->v[l->n].bind_verb[0] != 0;
		l->n++;
	}
	if (!rc && binders > 1)
		rc = bad(&c, list, "extenders: Invalid value: \"found %d extenders implementing bind\": only one extender "
			 "can implement bind", binders);
	if (rc) {
		kp_hexts_unref(l);
		return rc;
	}
	/* buildExtenders: the ignorable ones go to the tail, in order */
	kp_hext tmp[KP_MAX_HTTP_EXTENDERS];
	int k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < l->n; i++)
			if (l->v[i].ignorable == pass)
				tmp[k++] = l->v[i];
	memcpy(l->v, tmp, (size_t)l->n * sizeof *tmp);
	*out = l;
	return KP_OK;
}

kp_hexts *kp_hexts_ref(kp_hexts *l)
{
	if (l)
		l->refs++;
	return l;
}

void kp_hexts_unref(kp_hexts *l)
{
	if (!l || --l->refs > 0)
		return;
	for (int i = 0; i < l->n; i++)
		release_one(&l->v[i]);
	kp_free(l);
}

void kp_hexts_to_json(const kp_hexts *l, kp_sb *sb)
{
	kp_sb_addc(sb, '[');
	for (int i = 0; l && i < l->n; i++) {
		const kp_hext *x = &l->v[i];
		kp_sb_adds(sb, i ? ",{\"urlPrefix\":" : "{\"urlPrefix\":");
		kp_sb_add_json_str(sb, x->url_prefix);
		const char *verbs[] = { "filterVerb", x->filter_verb, "prioritizeVerb", x->prioritize_verb, "preemptVerb",
					x->preempt_verb, "bindVerb", x->bind_verb };
		for (int k = 0; k < 8; k += 2)
			if (verbs[k + 1][0]) {
				kp_sb_printf(sb, ",\"%s\":", verbs[k]);
				kp_sb_add_json_str(sb, verbs[k + 1]);
			}
		kp_sb_printf(sb, ",\"weight\":%lld,\"httpTimeoutMs\":%lld,\"nodeCacheCapable\":%s,\"ignorable\":%s",
			     (long long)x->weight, (long long)x->timeout_ms, x->node_cache_capable ? "true" : "false",
			     x->ignorable ? "true" : "false");
		if (x->nmanaged) {
			kp_sb_adds(sb, ",\"managedResources\":[");
			for (int m = 0; m < x->nmanaged; m++) {
				kp_sb_adds(sb, m ? ",{\"name\":" : "{\"name\":");
				kp_sb_add_json_str(sb, x->managed[m].name);
				kp_sb_printf(sb, ",\"ignoredByScheduler\":%s}", x->managed[m].ignored_by_scheduler ? "true" : "false");
			}
			kp_sb_addc(sb, ']');
		}
		kp_sb_addc(sb, '}');
	}
	kp_sb_addc(sb, ']');
}
