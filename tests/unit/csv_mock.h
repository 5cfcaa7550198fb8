/*
 * csv_mock.h — the import batch the CSV reader's unit tests give it
 * (test_csv.c: kplan's tables and CSV syntax; test_openb.c: the openb trace).
 *
 * The reader is tested without a database: this file provides its own
 * kp_import_arena/node/pod/invalid/skipped and, for the openb GPUs,
 * kp_import_first_time/device_class/resource_slice/claim_template, that
 * print every object they get into one text, one line per object, and each
 * case compares that text (and the final error, "FILE:LINE:COL: OBJECT: msg")
 * with what it wants.  Absent fields (NULL, INT64_MIN, 0) are left out of
 * the dump; fields the readers never set are flagged UNEXPECTED.
 *
 * Included by one test program each (it defines the kp_import_* functions).
 */
#ifndef KP_CSV_MOCK_H
#define KP_CSV_MOCK_H

#include "importers/import.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>

/* ---- mock import batch ---- */

struct kp_import {
	kp_arena arena;
	int skip_invalid;
	int quiet;                /* do not record (allocation failure loop) */
	kp_sb out;
	long nodes, pods, invalid, with_memory;
	long scalar_gpu;          /* resources named alibabacloud.com/gpu-milli (openb no longer has them) */
	/* openb GPUs as DRA objects */
	long slices, devices, classes, templates, gpu_pods;
	int64_t device_milli;     /* sum of the devices' milli capacity */
	int64_t claim_milli;      /* sum over GPU pods of their template's count x milli */
	char **once;              /* kp_import_first_time's keys (kp_strdup: allocation failures reach it) */
	size_t nonce;
	struct tmpl { char *name; int64_t milli; } *tmpl;   /* templates stored: count x milli they ask */
	size_t ntmpl;
};

kp_arena *kp_import_arena(kp_import *imp) { return &imp->arena; }

static int lookup_template(const kp_import *imp, const char *name, int64_t *milli);

void kp_import_skipped(kp_import *imp, const char *kind) { (void)imp; (void)kind; }

static void put_str(kp_sb *sb, const char *s)
{
	if (!s) {
		kp_sb_adds(sb, "~");
		return;
	}
	for (; *s; s++) {
		if (*s == '\n')
			kp_sb_adds(sb, "\\n");
		else if (*s == '\r')
			kp_sb_adds(sb, "\\r");
		else
			kp_sb_addc(sb, *s);
	}
}

static void put_kvs(kp_sb *sb, const char *what, kp_kvs kv)
{
	if (!kv.n) {
		if (kv.v)
			kp_sb_printf(sb, " %s=EMPTY-NOT-NULL", what);
		return;
	}
	kp_sb_printf(sb, " %s{", what);
	for (size_t i = 0; i < kv.n; i++) {
		kp_sb_adds(sb, i ? "," : "");
		put_str(sb, kv.v[i].key);
		kp_sb_addc(sb, '=');
		put_str(sb, kv.v[i].value);
	}
	kp_sb_addc(sb, '}');
}

static void put_ress(kp_import *imp, const char *what, kp_ress r)
{
	kp_sb_printf(&imp->out, " %s{", what);
	if (r.v && !r.n)
		kp_sb_adds(&imp->out, "EMPTY-NOT-NULL");
	for (size_t i = 0; i < r.n; i++) {
		kp_sb_printf(&imp->out, "%s%s=%lld", i ? "," : "", r.v[i].name, (long long)r.v[i].value);
		if (strcmp(r.v[i].name, "alibabacloud.com/gpu-milli") == 0)
			imp->scalar_gpu++;
		if (strcmp(r.v[i].name, "memory") == 0)
			imp->with_memory++;
	}
	kp_sb_addc(&imp->out, '}');
}

static void put_time(kp_sb *sb, const char *what, int64_t t)
{
	if (t != INT64_MIN)
		kp_sb_printf(sb, " %s=%lld", what, (long long)t);
}

static void put_opt(kp_sb *sb, const char *what, const char *s)
{
	if (s) {
		kp_sb_printf(sb, " %s=", what);
		put_str(sb, s);
	}
}

int kp_import_node(kp_import *imp, const char *file, const kp_node_in *n, kp_err *err)
{
	kp_sb *sb = &imp->out;
	(void)file;
	if (strcmp(n->name, "dup") == 0)
		return kp_err_set(err, KP_ERROR, "duplicate node 'dup' in this batch");
	imp->nodes++;
	if (imp->quiet)
		return KP_OK;
	kp_sb_adds(sb, "node ");
	put_str(sb, n->name);
	kp_sb_printf(sb, " @%u:%u", n->pos.line, n->pos.col);
	put_time(sb, "created", n->created);
	if (n->unschedulable)
		kp_sb_adds(sb, " unschedulable");
	put_kvs(sb, "labels", n->labels);
	if (n->ntaints) {
		kp_sb_adds(sb, " taints{");
		for (size_t i = 0; i < n->ntaints; i++) {
			kp_sb_adds(sb, i ? "," : "");
			put_str(sb, n->taints[i].key);
			kp_sb_addc(sb, '=');
			put_str(sb, n->taints[i].value);
			kp_sb_addc(sb, ':');
			put_str(sb, n->taints[i].effect);
		}
		kp_sb_addc(sb, '}');
	}
	put_ress(imp, "alloc", n->allocatable);
	if (n->capacity.v == n->allocatable.v && n->capacity.n == n->allocatable.n)
		kp_sb_adds(sb, " cap=alloc");
	else
		put_ress(imp, "cap", n->capacity);
	if (n->uid || n->nimages || (n->taints && !n->ntaints))
		kp_sb_adds(sb, " UNEXPECTED");
	kp_sb_addc(sb, '\n');
	return KP_OK;
}

int kp_import_pod(kp_import *imp, const char *file, const kp_pod_in *p, kp_err *err)
{
	kp_sb *sb = &imp->out;
	(void)file;
	(void)err;
	imp->pods++;
	if (imp->quiet)
		return KP_OK;
	kp_sb_adds(sb, "pod ");
	put_str(sb, p->namespace_);
	kp_sb_addc(sb, '/');
	put_str(sb, p->name);
	kp_sb_printf(sb, " @%u:%u", p->pos.line, p->pos.col);
	put_opt(sb, "node", p->node_name);
	put_opt(sb, "phase", p->phase);
	put_time(sb, "created", p->created);
	if (p->has_priority)
		kp_sb_printf(sb, " priority=%lld", (long long)p->priority);
	put_opt(sb, "class", p->priority_class);
	put_opt(sb, "preemption", p->preemption_policy);
	put_opt(sb, "scheduler", p->scheduler_name);
	if (p->owner.kind || p->owner.name || p->owner.uid) {
		kp_sb_adds(sb, " owner=");
		put_str(sb, p->owner.kind);
		kp_sb_addc(sb, '/');
		put_str(sb, p->owner.name);
		if (p->owner.uid)
			kp_sb_adds(sb, "/UID");
	}
	put_kvs(sb, "labels", p->labels);
	put_kvs(sb, "selector", p->node_selector);
	if (p->ntolerations) {
		kp_sb_adds(sb, " tolerations{");
		for (size_t i = 0; i < p->ntolerations; i++) {
			const kp_toleration *t = &p->tolerations[i];
			kp_sb_adds(sb, i ? "," : "");
			put_str(sb, t->key);
			kp_sb_addc(sb, '|');
			put_str(sb, t->op);
			kp_sb_addc(sb, '|');
			put_str(sb, t->value);
			kp_sb_addc(sb, '|');
			put_str(sb, t->effect);
			if (t->seconds != INT64_MIN)
				kp_sb_adds(sb, "|SECONDS");
		}
		kp_sb_addc(sb, '}');
	}
	if (p->has_required_node_affinity || p->nrequired) {
		kp_sb_printf(sb, " affinity[%d]{", p->has_required_node_affinity);
		for (size_t i = 0; i < p->nrequired; i++) {
			const kp_node_term *t = &p->required_terms[i];
			kp_sb_printf(sb, "%s(w%lld", i ? "," : "", (long long)t->weight);
			for (size_t j = 0; j < t->nexprs; j++) {
				kp_sb_printf(sb, " %s %s", t->exprs[j].key, t->exprs[j].op);
				for (size_t k = 0; k < t->exprs[j].values.n; k++)
					kp_sb_printf(sb, "%s%s", k ? "|" : " ", t->exprs[j].values.v[k]);
			}
			if (t->nfields)
				kp_sb_adds(sb, " FIELDS");
			kp_sb_addc(sb, ')');
		}
		kp_sb_addc(sb, '}');
	}
	for (size_t i = 0; i < p->ncontainers; i++) {
		const kp_container *c = &p->containers[i];
		kp_sb_printf(sb, " container[%d ", c->kind);
		put_str(sb, c->name);
		put_opt(sb, "image", c->image);
		put_ress(imp, "req", c->requests);
		if (c->limits.n)
			kp_sb_adds(sb, " LIMITS");
		for (size_t j = 0; j < c->nports; j++)
			kp_sb_printf(sb, " port=%lld:%lld/%s%s", (long long)c->ports[j].host_port,
				     (long long)c->ports[j].container_port, c->ports[j].protocol,
				     c->ports[j].host_ip ? "@IP" : "");
		kp_sb_addc(sb, ']');
	}
	if (p->nclaims) {
		kp_sb_adds(sb, " claims{");
		for (size_t i = 0; i < p->nclaims; i++) {
			const kp_pod_claim *c = &p->claims[i];
			kp_sb_adds(sb, i ? "," : "");
			put_str(sb, c->name);
			put_opt(sb, "claim", c->claim_name);
			put_opt(sb, "template", c->template_name);
			put_opt(sb, "containers", c->containers);
			if (c->has_status || c->status_claim)
				kp_sb_adds(sb, " UNEXPECTED");
			if (c->template_name && !lookup_template(imp, c->template_name, &imp->claim_milli))
				kp_sb_adds(sb, " TEMPLATE-NOT-STORED");
		}
		kp_sb_addc(sb, '}');
		imp->gpu_pods++;
	}
	if (p->uid || p->nominated_node || p->start_time != INT64_MIN || p->terminating ||
	    p->host_network || p->scheduling_gates || p->pvc_volumes || p->overhead.n ||
	    p->npreferred || p->npod_terms || p->nspreads || (p->tolerations && !p->ntolerations) ||
	    (p->containers[0].ports && !p->containers[0].nports))
		kp_sb_adds(sb, " UNEXPECTED");
	kp_sb_addc(sb, '\n');
	return KP_OK;
}

/* ---- the DRA objects openb publishes ---- */

int kp_import_first_time(kp_import *imp, const char *key)
{
	for (size_t i = 0; i < imp->nonce; i++)
		if (strcmp(imp->once[i], key) == 0)
			return 0;
	char **v = kp_realloc(imp->once, (imp->nonce + 1) * sizeof *v);
	if (!v)
		return -1;
	imp->once = v;
	if (!(v[imp->nonce] = kp_strdup(key)))
		return -1;
	imp->nonce++;
	return 1;
}

/* a quantity: [domain/]name=value, then its text when it is not the value's */
static void put_qty(kp_sb *sb, const kp_dra_qty *q)
{
	char num[32];
	if (q->domain)
		kp_sb_printf(sb, "%s/", q->domain);
	put_str(sb, q->name);
	kp_sb_printf(sb, "=%lld", (long long)q->value);
	snprintf(num, sizeof num, "%lld", (long long)q->value);
	if (!q->text || strcmp(q->text, num) != 0) {
		kp_sb_adds(sb, "(text ");
		put_str(sb, q->text);
		kp_sb_addc(sb, ')');
	}
}

static void put_cels(kp_sb *sb, kp_cels sel)
{
	if (!sel.n)
		return;
	kp_sb_adds(sb, " selectors{");
	for (size_t i = 0; i < sel.n; i++) {
		kp_sb_adds(sb, i ? "," : "");
		put_str(sb, sel.v[i].expr);
		kp_sb_addc(sb, '@');
		put_str(sb, sel.v[i].path);
	}
	kp_sb_addc(sb, '}');
}

int kp_import_device_class(kp_import *imp, const char *file, const kp_device_class_in *d, kp_err *err)
{
	kp_sb *sb = &imp->out;
	(void)file;
	(void)err;
	imp->classes++;
	if (imp->quiet)
		return KP_OK;
	kp_sb_adds(sb, "class ");
	put_str(sb, d->name);
	kp_sb_printf(sb, " @%u:%u", d->pos.line, d->pos.col);
	put_opt(sb, "api", d->api_version);
	put_cels(sb, d->selectors);
	if (d->extended_resource || d->config)
		kp_sb_adds(sb, " UNEXPECTED");
	kp_sb_addc(sb, '\n');
	return KP_OK;
}

int kp_import_resource_slice(kp_import *imp, const char *file, const kp_resource_slice_in *s, kp_err *err)
{
	kp_sb *sb = &imp->out;
	(void)file;
	(void)err;
	imp->slices++;
	imp->devices += (long)s->ndevices;
	for (size_t i = 0; i < s->ndevices; i++)
		for (size_t j = 0; j < s->devices[i].ncaps; j++)
			if (s->devices[i].caps[j].q.name && strcmp(s->devices[i].caps[j].q.name, "milli") == 0)
				imp->device_milli += s->devices[i].caps[j].q.value;
	if (imp->quiet)
		return KP_OK;
	kp_sb_adds(sb, "slice ");
	put_str(sb, s->name);
	kp_sb_printf(sb, " @%u:%u", s->pos.line, s->pos.col);
	put_opt(sb, "api", s->api_version);
	put_opt(sb, "driver", s->driver);
	put_opt(sb, "pool", s->pool);
	kp_sb_printf(sb, " gen=%lld count=%lld", (long long)s->generation, (long long)s->slice_count);
	put_opt(sb, "node", s->node_name);
	kp_sb_adds(sb, " devices{");
	for (size_t i = 0; i < s->ndevices; i++) {
		const kp_dra_device *d = &s->devices[i];
		kp_sb_adds(sb, i ? "," : "");
		put_str(sb, d->name);
		kp_sb_adds(sb, "[");
		if (d->allow_multiple)
			kp_sb_adds(sb, "multi ");
		kp_sb_adds(sb, "cap{");
		for (size_t j = 0; j < d->ncaps; j++) {
			const kp_dra_capacity *c = &d->caps[j];
			kp_sb_adds(sb, j ? "," : "");
			put_qty(sb, &c->q);
			if (c->has_default || c->has_min || c->has_max || c->has_step || c->has_valid || c->nvalid)
				kp_sb_adds(sb, " POLICY");
		}
		kp_sb_adds(sb, "} attrs{");
		for (size_t j = 0; j < d->nattrs; j++) {
			const kp_dra_attr *a = &d->attrs[j];
			kp_sb_adds(sb, j ? "," : "");
			if (a->domain)
				kp_sb_printf(sb, "%s/", a->domain);
			put_str(sb, a->name);
			kp_sb_addc(sb, '=');
			if (a->type && strcmp(a->type, "int") == 0)
				kp_sb_printf(sb, "%lld", (long long)a->ival);
			else if (a->type && strcmp(a->type, "string") == 0) {
				kp_sb_addc(sb, '"');
				put_str(sb, a->sval);
				kp_sb_addc(sb, '"');
			} else {
				put_str(sb, a->type);
				kp_sb_addc(sb, ':');
				put_str(sb, a->sval);
			}
		}
		kp_sb_addc(sb, '}');
		if (d->ncounters || d->ntaints || d->binds_to_node || d->node_name || d->all_nodes ||
		    d->has_selector || d->nterms)
			kp_sb_adds(sb, " UNEXPECTED");
		kp_sb_addc(sb, ']');
	}
	kp_sb_addc(sb, '}');
	if (s->all_nodes || s->per_device || s->has_selector || s->nterms || s->ncounters)
		kp_sb_adds(sb, " UNEXPECTED");
	kp_sb_addc(sb, '\n');
	return KP_OK;
}

/* a stored template's devices x milli; 0 when it was not stored */
static int lookup_template(const kp_import *imp, const char *name, int64_t *milli)
{
	for (size_t i = 0; i < imp->ntmpl; i++)
		if (strcmp(imp->tmpl[i].name, name) == 0) {
			*milli += imp->tmpl[i].milli;
			return 1;
		}
	return 0;
}

int kp_import_claim_template(kp_import *imp, const char *file, const kp_resource_claim_template_in *t, kp_err *err)
{
	kp_sb *sb = &imp->out;
	int64_t milli = 0;
	(void)file;
	imp->templates++;
	for (size_t i = 0; i < t->spec.nreqs; i++)
		for (size_t j = 0; j < t->spec.reqs[i].ncaps; j++)
			if (t->spec.reqs[i].caps[j].name && strcmp(t->spec.reqs[i].caps[j].name, "milli") == 0)
				milli += t->spec.reqs[i].count * t->spec.reqs[i].caps[j].value;
	/* the test's own bookkeeping: libc, out of reach of kp_alloc_fail_after */
	struct tmpl *v = realloc(imp->tmpl, (imp->ntmpl + 1) * sizeof *v);
	if (!v || !(v[imp->ntmpl].name = strdup(t->name ? t->name : "")))
		return kp_err_set(err, KP_NOMEM, "test: out of memory");
	imp->tmpl = v;
	v[imp->ntmpl++].milli = milli;
	if (imp->quiet)
		return KP_OK;
	kp_sb_adds(sb, "template ");
	put_str(sb, t->namespace_);
	kp_sb_addc(sb, '/');
	put_str(sb, t->name);
	kp_sb_printf(sb, " @%u:%u", t->pos.line, t->pos.col);
	put_opt(sb, "api", t->api_version);
	kp_sb_adds(sb, " requests{");
	for (size_t i = 0; i < t->spec.nreqs; i++) {
		const kp_dra_request *r = &t->spec.reqs[i];
		kp_sb_adds(sb, i ? "," : "");
		put_str(sb, r->name);
		if (r->sub && *r->sub) {
			kp_sb_addc(sb, '/');
			put_str(sb, r->sub);
		}
		put_opt(sb, "class", r->device_class);
		put_opt(sb, "mode", r->mode);
		kp_sb_printf(sb, " count=%lld cap{", (long long)r->count);
		for (size_t j = 0; j < r->ncaps; j++) {
			kp_sb_adds(sb, j ? "," : "");
			put_qty(sb, &r->caps[j]);
		}
		kp_sb_addc(sb, '}');
		put_cels(sb, r->selectors);
		if (r->first_available || r->admin_access || r->ntols || r->seq || r->sub_seq)
			kp_sb_adds(sb, " UNEXPECTED");
	}
	kp_sb_addc(sb, '}');
	if (t->spec.ncons || t->spec.config)
		kp_sb_adds(sb, " UNEXPECTED");
	kp_sb_addc(sb, '\n');
	return KP_OK;
}

int kp_import_invalid(kp_import *imp, kp_err *err)
{
	char buf[2048];
	imp->invalid++;
	if (!imp->quiet)
		kp_sb_printf(&imp->out, "invalid %s\n", kp_err_format(err, buf, sizeof buf));
	if (!imp->skip_invalid)
		return err->code;
	kp_err_clear(err);
	return KP_OK;
}

static void imp_init(kp_import *imp, int skip)
{
	memset(imp, 0, sizeof *imp);
	kp_arena_init(&imp->arena, 0);
	kp_sb_init(&imp->out);
	imp->skip_invalid = skip;
}

static void imp_release(kp_import *imp)
{
	for (size_t i = 0; i < imp->nonce; i++)
		kp_free(imp->once[i]);
	kp_free(imp->once);
	for (size_t i = 0; i < imp->ntmpl; i++)
		free(imp->tmpl[i].name);
	free(imp->tmpl);
	kp_arena_release(&imp->arena);
	kp_sb_release(&imp->out);
}

/* ---- cases and how they run ---- */

typedef struct tcase {
	const char *name;
	const char *format;   /* NULL = detect */
	int skip;             /* --skip-invalid */
	const char *in;
	int rc;
	const char *want;     /* dump, then "error FILE:LINE:COL: OBJECT: msg" when rc != 0 */
} tcase;

static int run_csv(kp_import *imp, const tcase *t, const char *data, size_t len, kp_err *err)
{
	kp_err_clear(err);
	int rc = kp_csv_read(imp, "t.csv", data, len, t->format, err);
	if (rc != KP_OK) {
		char buf[2048];
		kp_sb_printf(&imp->out, "error %s", kp_err_format(err, buf, sizeof buf));
	}
	return rc;
}

/* each case: return code, dump and messages, err.code */
static void run_cases(const tcase *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const tcase *t = &cases[i];
		kp_import imp;
		kp_err err;
		imp_init(&imp, t->skip);
		int rc = run_csv(&imp, t, t->in, strlen(t->in), &err);
		TAP_EQ_I64(rc, t->rc, "%s: return code", t->name);
		TAP_EQ_STR(kp_sb_str(&imp.out), t->want, "%s: objects and messages", t->name);
		if (rc != KP_OK)
			TAP_EQ_I64(err.code, rc, "%s: err.code matches", t->name);
		imp_release(&imp);
	}
}

/* Every allocation made while reading fails once in turn: the reader must
 * report out of memory (or succeed) and leak nothing (ASan checks).  Once
 * it succeeds, it must have stored want (nodes, pods, slices, classes,
 * templates). */
static void alloc_failures(const char *name, const char *in, const long want[5])
{
	static const tcase t = { "oom", NULL, 0, NULL, KP_OK, NULL };
	int bad = 0;
	long n;
	for (n = 0; n < 10000; n++) {
		kp_import imp;
		kp_err err;
		imp_init(&imp, 0);
		imp.quiet = 1;
		kp_alloc_fail_after(n);
		int rc = run_csv(&imp, &t, in, strlen(in), &err);
		kp_alloc_fail_after(-1);
		if (rc != KP_OK && (rc != KP_NOMEM || err.code != KP_NOMEM ||
				    strcmp(err.msg, "out of memory") != 0)) {
			printf("# %s: allocation %ld: rc %d: %s\n", name, n, rc, err.msg);
			bad++;
		}
		imp_release(&imp);
		if (rc == KP_OK) {
			long got[5] = { imp.nodes, imp.pods, imp.slices, imp.classes, imp.templates };
			for (int i = 0; i < 5; i++)
				if (got[i] != want[i]) {
					printf("# %s: count %d: got %ld, want %ld\n", name, i, got[i], want[i]);
					bad++;
				}
			break;
		}
	}
	TAP_OK(bad == 0 && n > 3 && n < 10000,
	       "allocation failures, %s: out of memory each time, %ld allocations", name, n);
}

#endif
