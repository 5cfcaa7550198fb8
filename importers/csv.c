/*
 * csv.c — the CSV reader: kplan node and pod tables and the Alibaba "openb"
 * GPU trace (cluster-trace-gpu-v2023), turned into kp_node_in / kp_pod_in
 * and handed to kp_import_node / kp_import_pod (store.h).  docs/csv.md
 * describes the formats and the openb mapping.
 *
 *   kp_csv_read(imp, "nodes.csv", data, len, NULL, &err);      detect by header
 *   kp_csv_read(imp, "trace.csv", data, len, "openb", &err);   require openb
 *
 * Contract:
 * - The header row (the first non-blank record) picks the format: first cell
 *   `node` = node table, `pod` or `namespace,pod` = pod table, and the openb
 *   prefixes `sn,cpu_milli,memory_mib,gpu,model` / `name,cpu_milli,
 *   memory_mib,num_gpu,gpu_milli`.  An empty file imports nothing.
 * - Errors are located at FILE:LINE:COL where LINE is the physical line on
 *   which the record starts (header = line 1) and COL the 1-based field.
 * - A bad header and a CSV syntax error (a misplaced or missing quote) are
 *   fatal: the error is returned.  A bad row goes to kp_import_invalid(),
 *   which either skips it (--skip-invalid) or returns the error.
 * - Every string and array of an object lives in kp_import_arena(imp) or in
 *   this reader's record buffer; both are only valid until the next row.
 *
 * libcsv calls back with borrowed fields and cannot be stopped, so fields
 * are copied into our record buffer, the first error is kept in the context
 * and the caller checks it after each csv_parse().  Input is fed one
 * physical line at a time so that every record knows its starting line.
 */
#include "csv.h"
#include "csv_int.h"
#include "../common/quantity.h"

#include <csv.h>            /* libcsv (this folder's csv.h is ours) */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


static const colspec node_cols[] = {
	{"node", K_NAME}, {"cpu", K_RES}, {"memory", K_RES}, {"ephemeral-storage", K_RES},
	{"pods", K_RES}, {"labels", K_LABELS}, {"taints", K_TAINTS},
	{"unschedulable", K_UNSCHEDULABLE}, {"created", K_CREATED}, {NULL, K_IGNORED},
};

static const colspec pod_cols[] = {
	{"namespace", K_NAMESPACE}, {"pod", K_NAME}, {"node", K_NODE}, {"phase", K_PHASE},
	{"cpu", K_RES}, {"memory", K_RES}, {"ephemeral-storage", K_RES},
	{"priority", K_PRIORITY}, {"priority_class", K_PRIORITY_CLASS},
	{"preemption_policy", K_PREEMPTION}, {"scheduler", K_SCHEDULER},
	{"labels", K_LABELS}, {"node_selector", K_NODE_SELECTOR},
	{"tolerations", K_TOLERATIONS}, {"created", K_CREATED}, {"owner", K_OWNER},
	{"image", K_IMAGE}, {"host_ports", K_HOST_PORTS}, {NULL, K_IGNORED},
};

/* The first 5 columns of each openb table are required, in this order. */
#define OPENB_PREFIX 5
static const colspec openb_node_cols[] = {
	{"sn", K_NAME}, {"cpu_milli", K_CPU_MILLI}, {"memory_mib", K_MEMORY_MIB},
	{"gpu", K_GPU}, {"model", K_MODEL}, {NULL, K_IGNORED},
};

static const colspec openb_pod_cols[] = {
	{"name", K_NAME}, {"cpu_milli", K_CPU_MILLI}, {"memory_mib", K_MEMORY_MIB},
	{"num_gpu", K_NUM_GPU}, {"gpu_milli", K_GPU_MILLI}, {"gpu_spec", K_GPU_SPEC},
	{"qos", K_QOS}, {"pod_phase", K_POD_PHASE}, {"creation_time", K_CREATION_TIME},
	{"deletion_time", K_IGNORED}, {"scheduled_time", K_IGNORED}, {NULL, K_IGNORED},
};

static const colspec *const fmt_cols[] = { node_cols, pod_cols, openb_node_cols, openb_pod_cols };

/* ---- small helpers ---- */

static int is_space(char c) { return c == ' ' || c == '\t'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

/* Trim a NUL-terminated string in place. */
static char *strip(char *s)
{
	size_t n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = 0;
	while (is_space(*s))
		s++;
	return s;
}

/* Number of items a `sep`-separated list can hold. */
size_t kp_csv_count_items(const char *s, char sep)
{
	size_t n = 1;
	for (; *s; s++)
		n += *s == sep;
	return n;
}

/* Next item of a `sep`-separated list starting at *p; returns 0 at the end.
 * Items are trimmed; empty items are returned too (callers skip them). */
int kp_csv_next_item(const char **p, char sep, const char **item, size_t *len)
{
	if (!*p)
		return 0;
	const char *s = *p, *e = strchr(s, sep);
	size_t n = e ? (size_t)(e - s) : strlen(s);
	*p = e ? e + 1 : NULL;
	trim(&s, &n);
	*item = s;
	*len = n;
	return 1;
}

/* Parse a non-negative decimal integer: KP_OK, KP_PARSE or KP_RANGE. */
static int parse_uint(const char *s, int64_t *out)
{
	int64_t v = 0;
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return KP_PARSE;
	for (; *s; s++) {
		if (v > (INT64_MAX - (*s - '0')) / 10)
			return KP_RANGE;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return KP_OK;
}

static int is_ext_resource(const char *name)
{
	return strchr(name, '/') || strncmp(name, "hugepages-", 10) == 0;
}

static int one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute", NULL };
static const char *const phases[] = { "Pending", "Running", "Succeeded", "Failed", "Unknown", NULL };
static const char *const preemption_policies[] = { "PreemptLowerPriority", "Never", NULL };
static const char *const protocols[] = { "TCP", "UDP", "SCTP", NULL };

/* ---- errors ---- */

/* Record an error in field i (0-based) of the current row. */
__attribute__((format(printf, 4, 5)))
int kp_csv_bad(csv_ctx *c, size_t i, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(c->err, code, fmt, ap);
	va_end(ap);
	if (!c->bad_col)
		c->bad_col = (unsigned)(i + 1);
	return code;
}

int kp_csv_oom(csv_ctx *c) { return kp_err_set(c->err, KP_NOMEM, "out of memory"); }

/* A fatal error for the whole file, located at the current record. */
static void fatal(csv_ctx *c, int code, unsigned col)
{
	kp_err_locate(c->err, c->file, c->line, col, c->object);
	c->rc = code;
	c->stop = 1;
}

/* ---- cells ---- */

const char *kp_csv_cell(const csv_ctx *c, size_t i)
{
	return i < c->nfields ? c->buf.buf + c->fields[i].off : "";
}

static const char *colname(const csv_ctx *c, size_t i) { return c->cols[i].name; }

/* Add one resource amount; the text is a Kubernetes quantity, negative values rejected. */
static int cell_quantity(csv_ctx *c, size_t i, const char *res, kp_ress *out)
{
	const char *s = kp_csv_cell(c, i);
	int64_t v;
	kp_err q = {0};
	if (!*s)
		return KP_OK;
	int rc = kp_quantity_parse(s, kp_resource_is_milli(res), &v, &q);
	if (rc != KP_OK)
		return kp_csv_bad(c, i, rc, "column '%s': %s", colname(c, i), q.msg);
	if (v < 0)
		return kp_csv_bad(c, i, KP_RANGE, "column '%s': negative quantity '%s'", colname(c, i), s);
	out->v[out->n].name = res;
	out->v[out->n].value = v;
	out->n++;
	return KP_OK;
}

/* `k=v;k2=v2` into out, which gets room for `extra` more entries. */
static int cell_kvs(csv_ctx *c, size_t i, const char *what, size_t extra, kp_kvs *out)
{
	const char *s = kp_csv_cell(c, i), *p = s, *item;
	size_t len;
	if (!*s && !extra)
		return KP_OK;
	out->v = kp_arena_alloc(c->arena, (kp_csv_count_items(s, ';') + extra) * sizeof *out->v);
	if (!out->v)
		return kp_csv_oom(c);
	while (kp_csv_next_item(&p, ';', &item, &len)) {
		if (!len)
			continue;
		const char *eq = memchr(item, '=', len);
		const char *k = item, *v = eq ? eq + 1 : NULL;
		size_t kn = eq ? (size_t)(eq - item) : 0, vn = eq ? len - kn - 1 : 0;
		trim(&k, &kn);
		if (v)
			trim(&v, &vn);
		if (!eq || !kn)
			return kp_csv_bad(c, i, KP_PARSE, "column '%s': bad %s '%.*s' (want key=value)",
				   colname(c, i), what, (int)len, item);
		char *key = kp_arena_strndup(c->arena, k, kn);
		char *val = kp_arena_strndup(c->arena, v, vn);
		if (!key || !val)
			return kp_csv_oom(c);
		for (size_t j = 0; j < out->n; j++)
			if (strcmp(out->v[j].key, key) == 0)
				return kp_csv_bad(c, i, KP_PARSE, "column '%s': duplicate %s key '%s'",
					   colname(c, i), what, key);
		out->v[out->n].key = key;
		out->v[out->n].value = val;
		out->n++;
	}
	return KP_OK;
}

static int kvs_has(const kp_kvs *kv, const char *key)
{
	for (size_t j = 0; j < kv->n; j++)
		if (strcmp(kv->v[j].key, key) == 0)
			return 1;
	return 0;
}

void kp_csv_kvs_add(kp_kvs *kv, const char *key, const char *value)
{
	kv->v[kv->n].key = key;
	kv->v[kv->n].value = value;
	kv->n++;
}

/* `key=value:Effect;key:Effect` */
static int cell_taints(csv_ctx *c, size_t i, kp_node_in *n)
{
	const char *s = kp_csv_cell(c, i), *p = s, *item;
	size_t len;
	if (!*s)
		return KP_OK;
	n->taints = kp_arena_alloc(c->arena, kp_csv_count_items(s, ';') * sizeof *n->taints);
	if (!n->taints)
		return kp_csv_oom(c);
	while (kp_csv_next_item(&p, ';', &item, &len)) {
		if (!len)
			continue;
		char *t = kp_arena_strndup(c->arena, item, len);
		if (!t)
			return kp_csv_oom(c);
		char *colon = strrchr(t, ':');
		if (!colon)
			return kp_csv_bad(c, i, KP_PARSE, "bad taint '%.*s' (want key[=value]:Effect)", (int)len, item);
		*colon = 0;
		const char *effect = strip(colon + 1);
		if (!one_of(effect, effects))
			return kp_csv_bad(c, i, KP_PARSE, "bad taint effect '%s' in '%.*s' (want NoSchedule, "
				   "PreferNoSchedule or NoExecute)", effect, (int)len, item);
		char *eq = strchr(t, '=');
		if (eq)
			*eq = 0;
		t = strip(t);
		if (!*t)
			return kp_csv_bad(c, i, KP_PARSE, "taint '%.*s' has an empty key", (int)len, item);
		kp_taint *x = &n->taints[n->ntaints++];
		x->key = t;
		x->value = eq ? strip(eq + 1) : NULL;
		x->effect = effect;
	}
	return KP_OK;
}

/* `key=value:Effect`, `key:Effect`, `key`, `key=value`, `:Effect`, `*` */
static int cell_tolerations(csv_ctx *c, size_t i, kp_pod_in *pod)
{
	const char *s = kp_csv_cell(c, i), *p = s, *item;
	size_t len;
	if (!*s)
		return KP_OK;
	pod->tolerations = kp_arena_alloc(c->arena, kp_csv_count_items(s, ';') * sizeof *pod->tolerations);
	if (!pod->tolerations)
		return kp_csv_oom(c);
	while (kp_csv_next_item(&p, ';', &item, &len)) {
		if (!len)
			continue;
		char *t = kp_arena_strndup(c->arena, item, len);
		if (!t)
			return kp_csv_oom(c);
		kp_toleration *x = &pod->tolerations[pod->ntolerations];
		x->seconds = INT64_MIN;
		x->op = "Exists";
		if (strcmp(t, "*") == 0) {
			pod->ntolerations++;
			continue;
		}
		char *colon = strrchr(t, ':');
		if (colon) {
			*colon = 0;
			x->effect = strip(colon + 1);
			if (!one_of(x->effect, effects))
				return kp_csv_bad(c, i, KP_PARSE, "bad toleration effect '%s' in '%.*s' (want "
					   "NoSchedule, PreferNoSchedule or NoExecute)", x->effect, (int)len, item);
		}
		char *eq = strchr(t, '=');
		if (eq) {
			*eq = 0;
			x->op = "Equal";
			x->value = strip(eq + 1);
		}
		t = strip(t);
		if (*t)
			x->key = t;
		else if (eq || !colon)
			return kp_csv_bad(c, i, KP_PARSE, "toleration '%.*s' has an empty key", (int)len, item);
		pod->ntolerations++;
	}
	return KP_OK;
}

/* `8080;9090/UDP` */
static int cell_host_ports(csv_ctx *c, size_t i, kp_container *ct)
{
	const char *s = kp_csv_cell(c, i), *p = s, *item;
	size_t len;
	if (!*s)
		return KP_OK;
	ct->ports = kp_arena_alloc(c->arena, kp_csv_count_items(s, ';') * sizeof *ct->ports);
	if (!ct->ports)
		return kp_csv_oom(c);
	while (kp_csv_next_item(&p, ';', &item, &len)) {
		if (!len)
			continue;
		char *t = kp_arena_strndup(c->arena, item, len);
		if (!t)
			return kp_csv_oom(c);
		char *slash = strchr(t, '/');
		const char *proto = "TCP";
		int64_t port;
		if (slash) {
			*slash = 0;
			proto = strip(slash + 1);
		}
		if (parse_uint(strip(t), &port) != KP_OK || port < 1 || port > 65535 ||
		    !one_of(proto, protocols))
			return kp_csv_bad(c, i, KP_PARSE, "bad host port '%.*s' (want PORT or PORT/PROTOCOL, "
				   "port 1-65535, protocol TCP, UDP or SCTP)", (int)len, item);
		kp_port *x = &ct->ports[ct->nports++];
		x->protocol = proto;
		x->host_port = port;
		x->container_port = port;
	}
	return KP_OK;
}

static int cell_bool(csv_ctx *c, size_t i, int *out)
{
	const char *s = kp_csv_cell(c, i);
	if (!*s || !strcmp(s, "false") || !strcmp(s, "0"))
		*out = 0;
	else if (!strcmp(s, "true") || !strcmp(s, "1"))
		*out = 1;
	else
		return kp_csv_bad(c, i, KP_PARSE, "column '%s': bad boolean '%s' (want true, false, 1 or 0)",
			   colname(c, i), s);
	return KP_OK;
}

/* RFC 3339 or integer Unix seconds; empty = INT64_MIN. */
static int cell_time(csv_ctx *c, size_t i, int64_t *out)
{
	const char *s = kp_csv_cell(c, i);
	*out = INT64_MIN;
	if (!*s)
		return KP_OK;
	if (is_digit(*s)) {
		int rc = parse_uint(s, out);
		if (rc == KP_RANGE)
			return kp_csv_bad(c, i, rc, "column '%s': time '%s' out of range", colname(c, i), s);
		if (rc == KP_OK)
			return KP_OK;
	}
	if (kp_parse_time(s, out) != KP_OK)
		return kp_csv_bad(c, i, KP_PARSE, "column '%s': bad time '%s' (want RFC 3339 or Unix seconds)",
			   colname(c, i), s);
	return KP_OK;
}

/* A signed 32-bit integer (pod priority). */
static int cell_int32(csv_ctx *c, size_t i, int64_t *out)
{
	const char *s = kp_csv_cell(c, i), *d = s + (*s == '-' || *s == '+');
	int rc = parse_uint(d, out);
	if (rc == KP_OK && *s == '-')
		*out = -*out;
	if (rc == KP_RANGE || (rc == KP_OK && (*out < INT32_MIN || *out > INT32_MAX)))
		return kp_csv_bad(c, i, KP_RANGE, "column '%s': integer '%s' out of range", colname(c, i), s);
	if (rc != KP_OK)
		return kp_csv_bad(c, i, KP_PARSE, "column '%s': bad integer '%s'", colname(c, i), s);
	return KP_OK;
}

/* An openb count: a non-negative decimal integer; empty = absent (*out untouched)
 * unless required. */
int kp_csv_cell_count(csv_ctx *c, size_t i, int required, int64_t *out)
{
	const char *s = kp_csv_cell(c, i);
	if (!*s)
		return required ? kp_csv_bad(c, i, KP_PARSE, "column '%s': missing value", colname(c, i)) : KP_OK;
	int rc = parse_uint(s, out);
	if (rc == KP_RANGE)
		return kp_csv_bad(c, i, rc, "column '%s': integer '%s' out of range", colname(c, i), s);
	if (rc != KP_OK && *s == '-' && parse_uint(s + 1, out) == KP_OK)
		return kp_csv_bad(c, i, KP_RANGE, "column '%s': negative value '%s'", colname(c, i), s);
	if (rc != KP_OK)
		return kp_csv_bad(c, i, rc, "column '%s': bad integer '%s' (want a non-negative integer)",
			   colname(c, i), s);
	return KP_OK;
}

/* An enumerated string; empty = NULL. */
static int cell_enum(csv_ctx *c, size_t i, const char *const *set, const char **out)
{
	const char *s = kp_csv_cell(c, i);
	*out = NULL;
	if (!*s)
		return KP_OK;
	if (!one_of(s, set)) {
		char want[160] = "";
		for (size_t j = 0; set[j]; j++)
			snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
				 j ? (set[j + 1] ? ", " : " or ") : "", set[j]);
		return kp_csv_bad(c, i, KP_PARSE, "column '%s': bad value '%s' (want %s)", colname(c, i), s, want);
	}
	*out = s;
	return KP_OK;
}

const char *kp_csv_opt(const csv_ctx *c, size_t i)
{
	const char *s = kp_csv_cell(c, i);
	return *s ? s : NULL;
}

/* ---- kplan tables ---- */

static int node_row(csv_ctx *c, kp_node_in *n)
{
	int rc = KP_OK;
	n->allocatable.v = kp_arena_alloc(c->arena, c->ncols * sizeof *n->allocatable.v);
	if (!n->allocatable.v)
		return kp_csv_oom(c);
	for (size_t i = 0; i < c->ncols && rc == KP_OK; i++) {
		switch (c->cols[i].kind) {
		case K_NAME: break;
		case K_RES: rc = cell_quantity(c, i, colname(c, i), &n->allocatable); break;
		case K_LABELS: rc = cell_kvs(c, i, "label", 1, &n->labels); break;
		case K_TAINTS: rc = cell_taints(c, i, n); break;
		case K_UNSCHEDULABLE: rc = cell_bool(c, i, &n->unschedulable); break;
		case K_CREATED: rc = cell_time(c, i, &n->created); break;
		default: break;
		}
	}
	if (rc != KP_OK)
		return rc;
	if (!n->labels.v && !(n->labels.v = kp_arena_alloc(c->arena, sizeof *n->labels.v)))
		return kp_csv_oom(c);
	if (!kvs_has(&n->labels, HOSTNAME))
		kp_csv_kvs_add(&n->labels, HOSTNAME, n->name);
	if (!n->allocatable.n)
		n->allocatable.v = NULL;
	n->capacity = n->allocatable;
	return KP_OK;
}

static int pod_row(csv_ctx *c, kp_pod_in *p, kp_container *ct)
{
	int rc = KP_OK;
	ct->requests.v = kp_arena_alloc(c->arena, c->ncols * sizeof *ct->requests.v);
	if (!ct->requests.v)
		return kp_csv_oom(c);
	for (size_t i = 0; i < c->ncols && rc == KP_OK; i++) {
		switch (c->cols[i].kind) {
		case K_NODE: p->node_name = kp_csv_opt(c, i); break;
		case K_PHASE: rc = cell_enum(c, i, phases, &p->phase); break;
		case K_RES: rc = cell_quantity(c, i, colname(c, i), &ct->requests); break;
		case K_PRIORITY:
			if (*kp_csv_cell(c, i)) {
				rc = cell_int32(c, i, &p->priority);
				p->has_priority = 1;
			}
			break;
		case K_PRIORITY_CLASS: p->priority_class = kp_csv_opt(c, i); break;
		case K_PREEMPTION: rc = cell_enum(c, i, preemption_policies, &p->preemption_policy); break;
		case K_SCHEDULER: p->scheduler_name = kp_csv_opt(c, i); break;
		case K_LABELS: rc = cell_kvs(c, i, "label", 0, &p->labels); break;
		case K_NODE_SELECTOR: rc = cell_kvs(c, i, "node selector", 0, &p->node_selector); break;
		case K_TOLERATIONS: rc = cell_tolerations(c, i, p); break;
		case K_CREATED: rc = cell_time(c, i, &p->created); break;
		case K_OWNER: {
			const char *s = kp_csv_cell(c, i), *slash = strchr(s, '/');
			if (!*s)
				break;
			if (!slash || slash == s || !slash[1] || strchr(slash + 1, '/'))
				return kp_csv_bad(c, i, KP_PARSE, "bad owner '%s' (want Kind/name)", s);
			if (!(p->owner.kind = kp_arena_strndup(c->arena, s, (size_t)(slash - s))))
				return kp_csv_oom(c);
			p->owner.name = slash + 1;
			break;
		}
		case K_IMAGE: ct->image = kp_csv_opt(c, i); break;
		case K_HOST_PORTS: rc = cell_host_ports(c, i, ct); break;
		default: break;
		}
	}
	if (!ct->requests.n)
		ct->requests.v = NULL;
	return rc;
}

/* ---- records ---- */

static int read_header(csv_ctx *c)
{
	const colspec *spec;
	enum fmt f = FMT_NONE;
	for (int k = FMT_OPENB_NODES; k <= FMT_OPENB_PODS && f == FMT_NONE; k++) {
		size_t j = 0;
		while (j < OPENB_PREFIX && strcmp(kp_csv_cell(c, j), fmt_cols[k][j].name) == 0)
			j++;
		if (j == OPENB_PREFIX)
			f = (enum fmt)k;
	}
	if (f == FMT_NONE && c->openb_only)
		return kp_csv_bad(c, 0, KP_PARSE, "not an openb trace header (want 'sn,cpu_milli,memory_mib,"
			   "gpu,model' or 'name,cpu_milli,memory_mib,num_gpu,gpu_milli')");
	if (f == FMT_NONE && strcmp(kp_csv_cell(c, 0), "node") == 0)
		f = FMT_NODES;
	if (f == FMT_NONE && (strcmp(kp_csv_cell(c, 0), "pod") == 0 ||
			      (strcmp(kp_csv_cell(c, 0), "namespace") == 0 && strcmp(kp_csv_cell(c, 1), "pod") == 0)))
		f = FMT_PODS;
	if (f == FMT_NONE)
		return kp_csv_bad(c, 0, KP_PARSE, "unknown csv header starting with '%s' (want 'node', 'pod', "
			   "'namespace,pod' or an openb trace header)", kp_csv_cell(c, 0));

	spec = fmt_cols[f];
	c->cols = kp_calloc(c->nfields, sizeof *c->cols);
	if (!c->cols)
		return kp_csv_oom(c);
	c->ncols = c->nfields;
	for (size_t i = 0; i < c->ncols; i++) {
		const char *name = kp_csv_cell(c, i);
		const colspec *s = spec;
		if (!*name)
			return kp_csv_bad(c, i, KP_PARSE, "empty column name");
		for (size_t j = 0; j < i; j++)
			if (strcmp(c->cols[j].name, name) == 0)
				return kp_csv_bad(c, i, KP_PARSE, "duplicate column '%s'", name);
		if (!(c->cols[i].name = kp_strdup(name)))
			return kp_csv_oom(c);
		while (s->name && strcmp(s->name, name) != 0)
			s++;
		if (s->name)
			c->cols[i].kind = s->kind;
		else if ((f == FMT_NODES || f == FMT_PODS) && is_ext_resource(name))
			c->cols[i].kind = K_RES;
		else
			return kp_csv_bad(c, i, KP_PARSE, "unknown column '%s'", name);
		if (s->kind == K_NAME)
			c->name_col = i;
		if (s->kind == K_NAMESPACE)
			c->ns_col = i;
	}
	c->fmt = f;
	return KP_OK;
}

static void read_row(csv_ctx *c)
{
	int is_node = c->fmt == FMT_NODES || c->fmt == FMT_OPENB_NODES;
	const char *name = kp_csv_cell(c, c->name_col);
	const char *ns = c->fmt == FMT_OPENB_PODS ? OPENB_NAMESPACE : kp_csv_cell(c, c->ns_col);
	kp_node_in n;
	kp_pod_in p;
	kp_container ct;
	int rc;

	if (!*ns)
		ns = "default";
	if (!*name)
		c->object[0] = 0;
	else if (is_node)
		snprintf(c->object, sizeof c->object, "Node %s", name);
	else
		snprintf(c->object, sizeof c->object, "Pod %s/%s", ns, name);
	c->bad_col = 0;
	kp_arena_reset(c->arena);

	memset(&n, 0, sizeof n);
	memset(&p, 0, sizeof p);
	memset(&ct, 0, sizeof ct);
	n.pos = p.pos = (kp_pos){ c->line, 1 };
	n.name = p.name = ct.name = name;
	p.namespace_ = ns;
	n.created = p.created = p.start_time = INT64_MIN;
	ct.kind = KP_CONTAINER_APP;
	p.containers = &ct;
	p.ncontainers = 1;

	if (!*name)
		rc = kp_csv_bad(c, c->name_col, KP_PARSE, "missing %s name", is_node ? "node" : "pod");
	else if (c->nfields > c->ncols)
		rc = kp_csv_bad(c, c->ncols, KP_PARSE, "too many fields: %zu (the header has %zu)",
			 c->nfields, c->ncols);
	else if (c->nul_col)
		rc = kp_csv_bad(c, c->nul_col - 1, KP_PARSE, "NUL byte in field");
	else if (c->fmt == FMT_NODES)
		rc = node_row(c, &n);
	else if (c->fmt == FMT_PODS)
		rc = pod_row(c, &p, &ct);
	else if (c->fmt == FMT_OPENB_NODES)
		rc = kp_openb_node_row(c, &n);
	else
		rc = kp_openb_pod_row(c, &p, &ct);

	if (rc == KP_OK && !is_node && c->fmt == FMT_OPENB_PODS && (rc = kp_openb_publish_pod(c, &p)) != KP_OK) {
		fatal(c, rc, 1);
		kp_arena_reset(c->arena);
		return;
	}
	if (rc == KP_OK) {
		rc = is_node ? kp_import_node(c->imp, c->file, &n, c->err)
			     : kp_import_pod(c->imp, c->file, &p, c->err);
		if (rc == KP_OK && c->fmt == FMT_OPENB_NODES)
			rc = kp_openb_publish(c, &n);
		if (rc == KP_PARSE || rc == KP_RANGE) {
			/* a duplicate row: an invalid object like any other */
			kp_err_locate(c->err, c->file, c->line, 1, c->object);
			rc = kp_import_invalid(c->imp, c->err);
		}
		if (rc != KP_OK)
			fatal(c, rc, 1);
	} else if (rc == KP_NOMEM) {
		fatal(c, rc, 0);
	} else {
		kp_err_locate(c->err, c->file, c->line, c->bad_col, c->object);
		rc = kp_import_invalid(c->imp, c->err);
		if (rc != KP_OK)
			fatal(c, rc, 0);
	}
	kp_arena_reset(c->arena);
}

/* libcsv: one field of the current record; copy it. */
static void on_field(void *s, size_t len, void *data)
{
	csv_ctx *c = data;
	if (c->stop)
		return;
	if (c->nfields == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		field *f = kp_realloc(c->fields, cap * sizeof *f);
		if (!f) {
			fatal(c, kp_csv_oom(c), 0);
			return;
		}
		c->fields = f;
		c->cap = cap;
	}
	const char *t = s ? s : "";
	if (!s)
		len = 0;
	if (!c->nul_col && memchr(t, 0, len))
		c->nul_col = (unsigned)(c->nfields + 1);
	trim(&t, &len);
	c->fields[c->nfields].off = c->buf.len;
	c->fields[c->nfields].len = len;
	c->nfields++;
	kp_sb_add(&c->buf, t, len);
	kp_sb_addc(&c->buf, 0);
	if (!kp_sb_ok(&c->buf))
		fatal(c, kp_csv_oom(c), 0);
}

/* libcsv: the end of a record. */
static void on_record(int term, void *data)
{
	csv_ctx *c = data;
	(void)term;
	if (c->stop)
		return;
	if (c->fmt == FMT_NONE) {
		int rc = read_header(c);
		if (rc != KP_OK)
			fatal(c, rc, c->bad_col);
	} else {
		read_row(c);
	}
	c->nfields = 0;
	c->nul_col = 0;
	c->object[0] = 0;
	kp_sb_reset(&c->buf);
}

/* A libcsv failure (csv_parse or csv_fini) at the current record. */
static void syntax_error(csv_ctx *c, int csv_err, int at_end)
{
	unsigned col = (unsigned)c->nfields + 1;
	if (csv_err == CSV_EPARSE)
		kp_err_set(c->err, KP_PARSE, at_end ? "missing closing quote"
			   : "misplaced quote (a quote inside an unquoted field, or text after a closing quote)");
	else
		kp_csv_oom(c);
	fatal(c, csv_err == CSV_EPARSE ? KP_PARSE : KP_NOMEM, col);
}

int kp_csv_read(kp_import *imp, const char *file, const char *data, size_t len,
		const char *format, kp_err *err)
{
	kp_err local = {0};
	csv_ctx c;
	struct csv_parser p;
	size_t pos = 0;
	unsigned line = 0;
	int in_quote = 0;

	if (!err)
		err = &local;
	if (format && strcmp(format, "csv") != 0 && strcmp(format, "openb") != 0) {
		kp_err_set(err, KP_USAGE, "the csv reader cannot read format '%s'", format);
		kp_err_locate(err, file, 0, 0, NULL);
		return KP_USAGE;
	}
	memset(&c, 0, sizeof c);
	c.imp = imp;
	c.file = file;
	c.err = err;
	c.arena = kp_import_arena(imp);
	c.openb_only = format && strcmp(format, "openb") == 0;
	c.fmt = FMT_NONE;
	c.name_col = c.ns_col = SIZE_MAX;
	kp_sb_init(&c.buf);
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		kp_err_locate(err, file, 0, 0, NULL);
		return kp_csv_oom(&c);
	}
	csv_set_realloc_func(&p, kp_realloc);
	csv_set_free_func(&p, kp_free);

	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)   /* UTF-8 byte order mark */
		pos = 3;
	while (pos < len && !c.stop) {
		if (kp_interrupted) {   /* blank and skipped lines store nothing that would check it */
			c.rc = kp_err_set(err, KP_INTR, "interrupted");
			c.stop = 1;
			break;
		}
		const char *s = data + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) + 1 : len - pos;
		line++;
		/* Outside a quoted field a new line starts a new record (blank
		 * lines are skipped by libcsv and re-anchored by the next line).
		 * In strict mode quotes open, double or close a quoted field, so
		 * their parity says whether the line ends inside one. */
		if (!in_quote)
			c.line = line;
		for (size_t k = 0; k < n; k++)
			in_quote ^= s[k] == '"';
		if (csv_parse(&p, s, n, on_field, on_record, &c) != n && !c.stop)
			syntax_error(&c, csv_error(&p), 0);
		pos += n;
	}
	if (!c.stop && csv_fini(&p, on_field, on_record, &c) != 0 && !c.stop)
		syntax_error(&c, csv_error(&p), 1);

	csv_free(&p);
	kp_sb_release(&c.buf);
	kp_free(c.fields);
	for (size_t i = 0; i < c.ncols; i++)
		kp_free(c.cols[i].name);
	kp_free(c.cols);
	kp_arena_reset(c.arena);
	return c.rc;
}
