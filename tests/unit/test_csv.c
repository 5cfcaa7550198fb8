/*
 * test_csv.c — unit tests of the CSV reader (importers/csv.c, openb.c).
 *
 * The reader is tested without a database: this file provides its own
 * kp_import_arena/node/pod/invalid/skipped and, for the openb GPUs,
 * kp_import_first_time/device_class/resource_slice/claim_template, that
 * print every object they get into one text, one line per object, and each
 * case compares that text (and the final error, "FILE:LINE:COL: OBJECT: msg")
 * with what it wants.  Absent fields (NULL, INT64_MIN, 0) are left out of
 * the dump; fields the readers never set are flagged UNEXPECTED.
 *
 * The last test reads the openb trace from KP_SHARED_DATA (default
 * ../shared/data) and is skipped when it is absent.
 */
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

/* ---- cases ---- */

typedef struct tcase {
	const char *name;
	const char *format;   /* NULL = detect */
	int skip;             /* --skip-invalid */
	const char *in;
	int rc;
	const char *want;     /* dump, then "error FILE:LINE:COL: OBJECT: msg" when rc != 0 */
} tcase;

#define EFF "(want NoSchedule, PreferNoSchedule or NoExecute)"
/* what openb's GPU rows publish */
#define GPU_MILLI "gpu.openb.kplan.io/milli=1000"
#define GPU_ATTR "gpu.openb.kplan.io/"
#define GPU_CLASS_LINE(line) "class gpu.openb.kplan.io @" #line ":1 api=resource.k8s.io/v1 selectors{" \
	"device.driver == \"gpu.openb.kplan.io\"@spec.selectors[0].cel.expression}\n"
#define GPU_CT(pod) "[{\"container\":\"" pod "\",\"request\":null}]"

static const tcase cases[] = {
	/* ---- kplan node table ---- */
	{ "nodes: every column", NULL, 0,
	  "node,cpu,memory,ephemeral-storage,pods,labels,taints,unschedulable,created,nvidia.com/gpu,hugepages-2Mi\n"
	  "n1,4,16Gi,100Gi,110,zone=a;disk=ssd,gpu=true:NoSchedule;spot:PreferNoSchedule,true,2024-01-02T03:04:05Z,2,1Gi\n"
	  "n2,500m,,,,,,0,1700000000,,\n"
	  "n3,,,,, kubernetes.io/hostname = custom ; ,,false,,,\n",
	  KP_OK,
	  "node n1 @2:1 created=1704164645 unschedulable labels{zone=a,disk=ssd,kubernetes.io/hostname=n1} "
	  "taints{gpu=true:NoSchedule,spot=~:PreferNoSchedule} alloc{cpu=4000,memory=17179869184,"
	  "ephemeral-storage=107374182400,pods=110,nvidia.com/gpu=2,hugepages-2Mi=1073741824} cap=alloc\n"
	  "node n2 @3:1 created=1700000000 labels{kubernetes.io/hostname=n2} alloc{cpu=500} cap=alloc\n"
	  "node n3 @4:1 labels{kubernetes.io/hostname=custom} alloc{} cap=alloc\n" },
	{ "nodes: columns in any order, short rows are empty values", NULL, 0,
	  "node,unschedulable,memory,taints\n"
	  "a,1,1Mi\n"
	  "b\n",
	  KP_OK,
	  "node a @2:1 unschedulable labels{kubernetes.io/hostname=a} alloc{memory=1048576} cap=alloc\n"
	  "node b @3:1 labels{kubernetes.io/hostname=b} alloc{} cap=alloc\n" },
	{ "nodes: header only", NULL, 0, "node,cpu\n", KP_OK, "" },
	{ "empty file", NULL, 0, "", KP_OK, "" },
	{ "blank lines only", "openb", 0, "\n \r\n\n", KP_OK, "" },

	/* ---- kplan pod table ---- */
	{ "pods: every column", NULL, 0,
	  "namespace,pod,node,phase,cpu,memory,ephemeral-storage,priority,priority_class,preemption_policy,"
	  "scheduler,labels,node_selector,tolerations,created,owner,image,host_ports,example.com/foo\n"
	  "prod,web-0,n1,Running,250m,1Gi,2Gi,1000,high,Never,my-sched,app=web;tier=fe,disktype=ssd,"
	  "k1=v1:NoSchedule;k2:NoExecute;k3;k4=v4;:PreferNoSchedule;*,2023-11-14T22:13:20Z,"
	  "ReplicaSet/web-abc,nginx:1.25,8080;9090/UDP;53/SCTP,3\n"
	  ",pending,,,,,,-5,,PreemptLowerPriority,,,,,,,,,\n",
	  KP_OK,
	  "pod prod/web-0 @2:1 node=n1 phase=Running created=1700000000 priority=1000 class=high "
	  "preemption=Never scheduler=my-sched owner=ReplicaSet/web-abc labels{app=web,tier=fe} "
	  "selector{disktype=ssd} tolerations{k1|Equal|v1|NoSchedule,k2|Exists|~|NoExecute,k3|Exists|~|~,"
	  "k4|Equal|v4|~,~|Exists|~|PreferNoSchedule,~|Exists|~|~} container[0 web-0 image=nginx:1.25 "
	  "req{cpu=250,memory=1073741824,ephemeral-storage=2147483648,example.com/foo=3} "
	  "port=8080:8080/TCP port=9090:9090/UDP port=53:53/SCTP]\n"
	  "pod default/pending @3:1 priority=-5 preemption=PreemptLowerPriority container[0 pending req{}]\n" },
	{ "pods: header starting with pod", NULL, 0,
	  "pod,cpu,namespace\n"
	  "p1,1,kube-system\n"
	  "p2,0.1\n",
	  KP_OK,
	  "pod kube-system/p1 @2:1 container[0 p1 req{cpu=1000}]\n"
	  "pod default/p2 @3:1 container[0 p2 req{cpu=100}]\n" },

	/* ---- openb: a GPU node publishes a ResourceSlice <node>-gpus, a GPU pod
	 * names a template of its shape (the class and each template once) ---- */
	{ "openb nodes: detected", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "openb-node-0000,64000,262144,2,P100\n"
	  "openb-node-0001,32000,262144,0,\n",
	  KP_OK,
	  "node openb-node-0000 @2:1 labels{kubernetes.io/hostname=openb-node-0000,"
	  "alibabacloud.com/gpu-card-model=P100,alibabacloud.com/gpu-count=2} alloc{cpu=64000,"
	  "memory=274877906944,pods=110} cap=alloc\n"
	  "slice openb-node-0000-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io "
	  "pool=openb-node-0000 gen=1 count=1 node=openb-node-0000 devices{"
	  "gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0," GPU_ATTR "model=\"P100\"}],"
	  "gpu-1[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=1," GPU_ATTR "model=\"P100\"}]}\n"
	  "node openb-node-0001 @3:1 labels{kubernetes.io/hostname=openb-node-0001,"
	  "alibabacloud.com/gpu-count=0} alloc{cpu=32000,memory=274877906944,pods=110} cap=alloc\n" },
	{ "openb nodes: --format openb", "openb", 0,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "n,8000,32768,1,T4\n",
	  KP_OK,
	  "node n @2:1 labels{kubernetes.io/hostname=n,alibabacloud.com/gpu-card-model=T4,"
	  "alibabacloud.com/gpu-count=1} alloc{cpu=8000,memory=34359738368,pods=110} cap=alloc\n"
	  "slice n-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io pool=n gen=1 count=1 node=n "
	  "devices{gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0," GPU_ATTR "model=\"T4\"}]}\n" },
	{ "openb nodes: GPUs without a model: devices without the model attribute", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "n,8000,32768,1,\n",
	  KP_OK,
	  "node n @2:1 labels{kubernetes.io/hostname=n,alibabacloud.com/gpu-count=1} "
	  "alloc{cpu=8000,memory=34359738368,pods=110} cap=alloc\n"
	  "slice n-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io pool=n gen=1 count=1 node=n "
	  "devices{gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0}]}\n" },
	{ "openb pods: every column", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
	  "openb-pod-0009,12000,16384,1,1000,V100M16|V100M32,LS,Running,4975773,12902960,4975773\n"
	  "openb-pod-1523,14000,0,1,1000,,Burstable,Succeeded,10611842,10615828,10611842\n"
	  "openb-pod-0017,88000,327680,8,1000,G2,Burstable,Pending,9437497,10769854,\n"
	  "openb-pod-0046,2000,1024,0,0,A10|G2|T4|V100M32|V100M32,,,,,\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-whole-1 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=1000}}\n"
	  "pod openb/openb-pod-0009 @2:1 labels{alibabacloud.com/qos=LS,alibabacloud.com/trace-phase=Running,"
	  "alibabacloud.com/creation-time=4975773} affinity[1]{(w0 alibabacloud.com/gpu-card-model In "
	  "V100M16|V100M32)} container[0 openb-pod-0009 req{cpu=12000,memory=17179869184}] "
	  "claims{gpu template=gpu-whole-1 containers=" GPU_CT("openb-pod-0009") "}\n"
	  "pod openb/openb-pod-1523 @3:1 labels{alibabacloud.com/qos=Burstable,"
	  "alibabacloud.com/trace-phase=Succeeded,alibabacloud.com/creation-time=10611842} "
	  "container[0 openb-pod-1523 req{cpu=14000}] "
	  "claims{gpu template=gpu-whole-1 containers=" GPU_CT("openb-pod-1523") "}\n"
	  "template openb/gpu-whole-8 @4:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=8 cap{milli=1000}}\n"
	  "pod openb/openb-pod-0017 @4:1 labels{alibabacloud.com/qos=Burstable,"
	  "alibabacloud.com/trace-phase=Pending,alibabacloud.com/creation-time=9437497} "
	  "affinity[1]{(w0 alibabacloud.com/gpu-card-model In G2)} "
	  "container[0 openb-pod-0017 req{cpu=88000,memory=343597383680}] "
	  "claims{gpu template=gpu-whole-8 containers=" GPU_CT("openb-pod-0017") "}\n"
	  "pod openb/openb-pod-0046 @5:1 affinity[1]{(w0 alibabacloud.com/gpu-card-model In "
	  "A10|G2|T4|V100M32)} container[0 openb-pod-0046 req{cpu=2000,memory=1073741824}]\n" },
	{ "openb pods: the 5-column multigpu files", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "openb-pod-0001,6000,12288,1,460\n"
	  "openb-pod-9000,64000,262144,4,1000\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-share-460 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=460}}\n"
	  "pod openb/openb-pod-0001 @2:1 container[0 openb-pod-0001 req{cpu=6000,memory=12884901888}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("openb-pod-0001") "}\n"
	  "template openb/gpu-whole-4 @3:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=4 cap{milli=1000}}\n"
	  "pod openb/openb-pod-9000 @3:1 container[0 openb-pod-9000 req{cpu=64000,memory=274877906944}] "
	  "claims{gpu template=gpu-whole-4 containers=" GPU_CT("openb-pod-9000") "}\n" },
	{ "openb pods: a shared pod asks gpu_milli of one device", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "s,1000,1024,1,460\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-share-460 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=460}}\n"
	  "pod openb/s @2:1 container[0 s req{cpu=1000,memory=1073741824}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("s") "}\n" },
	{ "openb pods: a whole-GPU pod asks num_gpu devices with all their milli", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "w,1000,1024,2,1000\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-whole-2 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=2 cap{milli=1000}}\n"
	  "pod openb/w @2:1 container[0 w req{cpu=1000,memory=1073741824}] "
	  "claims{gpu template=gpu-whole-2 containers=" GPU_CT("w") "}\n" },
	{ "openb pods: the class and each shape's template are stored once", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "a,1,1,1,460\n"
	  "b,1,1,2,1000\n"
	  "c,1,1,1,460\n"
	  "cpu,1,1,0,0\n"
	  "d,1,1,2,1000\n"
	  "e,1,1,1,500\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-share-460 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=460}}\n"
	  "pod openb/a @2:1 container[0 a req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("a") "}\n"
	  "template openb/gpu-whole-2 @3:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=2 cap{milli=1000}}\n"
	  "pod openb/b @3:1 container[0 b req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-whole-2 containers=" GPU_CT("b") "}\n"
	  "pod openb/c @4:1 container[0 c req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("c") "}\n"
	  "pod openb/cpu @5:1 container[0 cpu req{cpu=1,memory=1048576}]\n"
	  "pod openb/d @6:1 container[0 d req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-whole-2 containers=" GPU_CT("d") "}\n"
	  "template openb/gpu-share-500 @7:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=500}}\n"
	  "pod openb/e @7:1 container[0 e req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-share-500 containers=" GPU_CT("e") "}\n" },
	{ "openb pods: optional columns in another order", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,qos\n"
	  "p,1000,1,0,0,7,BE\n",
	  KP_OK,
	  "pod openb/p @2:1 labels{alibabacloud.com/qos=BE,alibabacloud.com/creation-time=7} "
	  "container[0 p req{cpu=1000,memory=1048576}]\n" },
	{ "openb pods: creation_time is a label, not the queue's timestamp (0 kept, empty absent)", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time\n"
	  "late,1,1,0,0,,,,900\n"
	  "first,1,1,0,0,,,,0\n"
	  "none,1,1,0,0,,,,\n",
	  KP_OK,
	  "pod openb/late @2:1 labels{alibabacloud.com/creation-time=900} container[0 late req{cpu=1,memory=1048576}]\n"
	  "pod openb/first @3:1 labels{alibabacloud.com/creation-time=0} container[0 first req{cpu=1,memory=1048576}]\n"
	  "pod openb/none @4:1 container[0 none req{cpu=1,memory=1048576}]\n" },

	/* ---- format selection ---- */
	{ "--format openb on a kplan header", "openb", 0,
	  "node,cpu\nn1,1\n", KP_PARSE,
	  "error t.csv:1:1: not an openb trace header (want 'sn,cpu_milli,memory_mib,gpu,model' or "
	  "'name,cpu_milli,memory_mib,num_gpu,gpu_milli')" },
	{ "--format openb on a reordered openb header", "openb", 0,
	  "sn,memory_mib,cpu_milli,gpu,model\n", KP_PARSE,
	  "error t.csv:1:1: not an openb trace header (want 'sn,cpu_milli,memory_mib,gpu,model' or "
	  "'name,cpu_milli,memory_mib,num_gpu,gpu_milli')" },
	{ "--format csv detects", "csv", 0,
	  "pod\np\n", KP_OK, "pod default/p @2:1 container[0 p req{}]\n" },
	{ "--format yaml is refused", "yaml", 0,
	  "node\nn\n", KP_USAGE, "error t.csv: the csv reader cannot read format 'yaml'" },
	{ "unknown header", NULL, 0,
	  "host,cpu\nn1,1\n", KP_PARSE,
	  "error t.csv:1:1: unknown csv header starting with 'host' (want 'node', 'pod', "
	  "'namespace,pod' or an openb trace header)" },
	{ "namespace without pod", NULL, 0,
	  "namespace,node\n", KP_PARSE,
	  "error t.csv:1:1: unknown csv header starting with 'namespace' (want 'node', 'pod', "
	  "'namespace,pod' or an openb trace header)" },

	/* ---- header errors (fatal) ---- */
	{ "unknown column", NULL, 0,
	  "node,cpu,colour\nn1,1,red\n", KP_PARSE, "error t.csv:1:3: unknown column 'colour'" },
	{ "unknown column in openb", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu\n", KP_PARSE,
	  "error t.csv:1:6: unknown column 'gpu'" },
	{ "pods is not a pod column", NULL, 0,
	  "pod,pods\n", KP_PARSE, "error t.csv:1:2: unknown column 'pods'" },
	{ "duplicate column", NULL, 0,
	  "node,cpu, memory ,memory\nn1,1,1,1\n", KP_PARSE, "error t.csv:1:4: duplicate column 'memory'" },
	{ "empty column name", NULL, 0,
	  "\n\nnode,cpu,\nn1,1\n", KP_PARSE, "error t.csv:3:3: empty column name" },
	{ "header names are case-sensitive", NULL, 0,
	  "node,CPU\n", KP_PARSE, "error t.csv:1:2: unknown column 'CPU'" },

	/* ---- row errors ---- */
	{ "bad quantity", NULL, 0,
	  "node,cpu\nn1,1.5.0\nn2,1\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'cpu': invalid quantity '1.5.0': unknown suffix '.0'\n"
	  "error t.csv:2:2: Node n1: column 'cpu': invalid quantity '1.5.0': unknown suffix '.0'" },
	{ "negative quantity", NULL, 0,
	  "pod,memory\np1,-1Gi\n", KP_RANGE,
	  "invalid t.csv:2:2: Pod default/p1: column 'memory': negative quantity '-1Gi'\n"
	  "error t.csv:2:2: Pod default/p1: column 'memory': negative quantity '-1Gi'" },
	{ "quantity out of range", NULL, 0,
	  "node,memory\nn1,100Ei\n", KP_RANGE,
	  "invalid t.csv:2:2: Node n1: column 'memory': quantity '100Ei' out of range: value does not fit int64\n"
	  "error t.csv:2:2: Node n1: column 'memory': quantity '100Ei' out of range: value does not fit int64" },
	{ "openb: bad integer", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,12a,1,0,\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'cpu_milli': bad integer '12a' (want a non-negative integer)\n"
	  "error t.csv:2:2: Node n1: column 'cpu_milli': bad integer '12a' (want a non-negative integer)" },
	{ "openb: negative integer", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,-2,1000\n", KP_RANGE,
	  "invalid t.csv:2:4: Pod openb/p1: column 'num_gpu': negative value '-2'\n"
	  "error t.csv:2:4: Pod openb/p1: column 'num_gpu': negative value '-2'" },
	{ "openb: decimal point", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1.5,0,0\n", KP_PARSE,
	  "invalid t.csv:2:3: Pod openb/p1: column 'memory_mib': bad integer '1.5' (want a non-negative integer)\n"
	  "error t.csv:2:3: Pod openb/p1: column 'memory_mib': bad integer '1.5' (want a non-negative integer)" },
	{ "openb: integer overflow", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,99999999999999999999,1,0,0\n", KP_RANGE,
	  "invalid t.csv:2:2: Pod openb/p1: column 'cpu_milli': integer '99999999999999999999' out of range\n"
	  "error t.csv:2:2: Pod openb/p1: column 'cpu_milli': integer '99999999999999999999' out of range" },
	{ "openb: memory overflow", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,1,9000000000000000,0,\n", KP_RANGE,
	  "invalid t.csv:2:3: Node n1: column 'memory_mib': '9000000000000000' MiB out of range\n"
	  "error t.csv:2:3: Node n1: column 'memory_mib': '9000000000000000' MiB out of range" },
	{ "openb: missing value", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1\n", KP_PARSE,
	  "invalid t.csv:2:4: Node n1: column 'gpu': missing value\n"
	  "error t.csv:2:4: Node n1: column 'gpu': missing value" },
	{ "openb: empty model in gpu_spec", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np,1,1,1,1000,T4||G2\n", KP_PARSE,
	  "invalid t.csv:2:6: Pod openb/p: column 'gpu_spec': empty gpu model in 'T4||G2'\n"
	  "error t.csv:2:6: Pod openb/p: column 'gpu_spec': empty gpu model in 'T4||G2'" },
	{ "openb: a share spread over GPUs is refused", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,2,500\n", KP_PARSE,
	  "invalid t.csv:2:5: Pod openb/p1: column 'gpu_milli': 500 milli on each of 2 GPUs (a pod shares one "
	  "GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)\n"
	  "error t.csv:2:5: Pod openb/p1: column 'gpu_milli': 500 milli on each of 2 GPUs (a pod shares one "
	  "GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)" },
	{ "openb: more than one GPU's milli is refused", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,1,1200\n", KP_RANGE,
	  "invalid t.csv:2:5: Pod openb/p1: column 'gpu_milli': 1200 milli of one GPU (at most 1000)\n"
	  "error t.csv:2:5: Pod openb/p1: column 'gpu_milli': 1200 milli of one GPU (at most 1000)" },
	{ "openb: too many GPUs for one pod", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,4097,1000\n", KP_RANGE,
	  "invalid t.csv:2:4: Pod openb/p1: column 'num_gpu': 4097 GPUs (at most 4096)\n"
	  "error t.csv:2:4: Pod openb/p1: column 'num_gpu': 4097 GPUs (at most 4096)" },
	{ "openb: too many GPUs on one node", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,4097,G2\n", KP_RANGE,
	  "invalid t.csv:2:4: Node n1: column 'gpu': 4097 GPUs on one node (at most 4096)\n"
	  "error t.csv:2:4: Node n1: column 'gpu': 4097 GPUs on one node (at most 4096)" },
	{ "openb: empty name", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n,1,1,0,0\n", KP_PARSE,
	  "invalid t.csv:2:1: missing pod name\n"
	  "error t.csv:2:1: missing pod name" },
	{ "empty node name", NULL, 0,
	  "node,cpu\n  ,1\n", KP_PARSE,
	  "invalid t.csv:2:1: missing node name\n"
	  "error t.csv:2:1: missing node name" },
	{ "empty pod name (second column)", NULL, 0,
	  "namespace,pod\nkube-system,\n", KP_PARSE,
	  "invalid t.csv:2:2: missing pod name\n"
	  "error t.csv:2:2: missing pod name" },
	{ "too many fields", NULL, 0,
	  "node,cpu\nn1,1,2\n", KP_PARSE,
	  "invalid t.csv:2:3: Node n1: too many fields: 3 (the header has 2)\n"
	  "error t.csv:2:3: Node n1: too many fields: 3 (the header has 2)" },
	{ "bad boolean", NULL, 0,
	  "node,unschedulable\nn1,yes\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'unschedulable': bad boolean 'yes' (want true, false, 1 or 0)\n"
	  "error t.csv:2:2: Node n1: column 'unschedulable': bad boolean 'yes' (want true, false, 1 or 0)" },
	{ "bad taint effect", NULL, 0,
	  "node,taints\nn1,a=b:NoSchedule;c=d:Sometimes\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: bad taint effect 'Sometimes' in 'c=d:Sometimes' " EFF "\n"
	  "error t.csv:2:2: Node n1: bad taint effect 'Sometimes' in 'c=d:Sometimes' " EFF },
	{ "taint without effect", NULL, 0,
	  "node,taints\nn1,a=b\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: bad taint 'a=b' (want key[=value]:Effect)\n"
	  "error t.csv:2:2: Node n1: bad taint 'a=b' (want key[=value]:Effect)" },
	{ "taint with empty key", NULL, 0,
	  "node,taints\nn1,=b:NoExecute\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: taint '=b:NoExecute' has an empty key\n"
	  "error t.csv:2:2: Node n1: taint '=b:NoExecute' has an empty key" },
	{ "bad toleration effect", NULL, 0,
	  "pod,tolerations\np,k:noschedule\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: bad toleration effect 'noschedule' in 'k:noschedule' " EFF "\n"
	  "error t.csv:2:2: Pod default/p: bad toleration effect 'noschedule' in 'k:noschedule' " EFF },
	{ "toleration with value but no key", NULL, 0,
	  "pod,tolerations\np,=v\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: toleration '=v' has an empty key\n"
	  "error t.csv:2:2: Pod default/p: toleration '=v' has an empty key" },
	{ "bad label", NULL, 0,
	  "node,labels\nn1,a=b;zone\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'labels': bad label 'zone' (want key=value)\n"
	  "error t.csv:2:2: Node n1: column 'labels': bad label 'zone' (want key=value)" },
	{ "duplicate label", NULL, 0,
	  "pod,node_selector\np,a=1;a=2\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'node_selector': duplicate node selector key 'a'\n"
	  "error t.csv:2:2: Pod default/p: column 'node_selector': duplicate node selector key 'a'" },
	{ "bad time", NULL, 0,
	  "node,created\nn1,yesterday\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'created': bad time 'yesterday' (want RFC 3339 or Unix seconds)\n"
	  "error t.csv:2:2: Node n1: column 'created': bad time 'yesterday' (want RFC 3339 or Unix seconds)" },
	{ "bad priority", NULL, 0,
	  "pod,priority\np,high\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'priority': bad integer 'high'\n"
	  "error t.csv:2:2: Pod default/p: column 'priority': bad integer 'high'" },
	{ "priority out of int32", NULL, 0,
	  "pod,priority\np,2147483648\n", KP_RANGE,
	  "invalid t.csv:2:2: Pod default/p: column 'priority': integer '2147483648' out of range\n"
	  "error t.csv:2:2: Pod default/p: column 'priority': integer '2147483648' out of range" },
	{ "bad phase", NULL, 0,
	  "pod,phase\np,running\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'phase': bad value 'running' (want Pending, Running, "
	  "Succeeded, Failed or Unknown)\n"
	  "error t.csv:2:2: Pod default/p: column 'phase': bad value 'running' (want Pending, Running, "
	  "Succeeded, Failed or Unknown)" },
	{ "bad preemption policy", NULL, 0,
	  "pod,preemption_policy\np,Always\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'preemption_policy': bad value 'Always' (want "
	  "PreemptLowerPriority or Never)\n"
	  "error t.csv:2:2: Pod default/p: column 'preemption_policy': bad value 'Always' (want "
	  "PreemptLowerPriority or Never)" },
	{ "bad owner", NULL, 0,
	  "pod,owner\np,ReplicaSet\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: bad owner 'ReplicaSet' (want Kind/name)\n"
	  "error t.csv:2:2: Pod default/p: bad owner 'ReplicaSet' (want Kind/name)" },
	{ "bad host port", NULL, 0,
	  "pod,host_ports\np,80;70000\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: bad host port '70000' (want PORT or PORT/PROTOCOL, port 1-65535, "
	  "protocol TCP, UDP or SCTP)\n"
	  "error t.csv:2:2: Pod default/p: bad host port '70000' (want PORT or PORT/PROTOCOL, port 1-65535, "
	  "protocol TCP, UDP or SCTP)" },
	{ "bad extended resource quantity", NULL, 0,
	  "pod,nvidia.com/gpu\np,one\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'nvidia.com/gpu': invalid quantity 'one': expected a number\n"
	  "error t.csv:2:2: Pod default/p: column 'nvidia.com/gpu': invalid quantity 'one': expected a number" },
	{ "import error (duplicate) is located and stops", NULL, 1,
	  "node\nok\ndup\nlater\n", KP_ERROR,
	  "node ok @2:1 labels{kubernetes.io/hostname=ok} alloc{} cap=alloc\n"
	  "error t.csv:3:1: Node dup: duplicate node 'dup' in this batch" },

	/* ---- CSV syntax (fatal) ---- */
	{ "missing closing quote spanning lines", NULL, 1,
	  "node,labels\nn1,a=b\nn2,\"a=b\nc=d\n\nn3,x=y\n", KP_PARSE,
	  "node n1 @2:1 labels{a=b,kubernetes.io/hostname=n1} alloc{} cap=alloc\n"
	  "error t.csv:3:2: missing closing quote" },
	{ "missing closing quote in the header", NULL, 0,
	  "\"node,cpu\nn1,1\n", KP_PARSE, "error t.csv:1:1: missing closing quote" },
	{ "quote inside an unquoted field", NULL, 1,
	  "node,cpu\nn1,1\"2\nn2,1\n", KP_PARSE,
	  "error t.csv:2:2: misplaced quote (a quote inside an unquoted field, or text after a closing quote)" },
	{ "text after a closing quote, after a multi-line field", NULL, 1,
	  "node,labels,cpu\n\"n\n1\",\"a=b\"x,1\n", KP_PARSE,
	  "error t.csv:2:2: misplaced quote (a quote inside an unquoted field, or text after a closing quote)" },

	/* ---- skip mode ---- */
	{ "skip mode goes on after bad rows", NULL, 1,
	  "node,cpu,taints\n"
	  "a,1\n"
	  "b,x\n"
	  "c,2,k:Bad\n"
	  "d,3,k:NoSchedule\n",
	  KP_OK,
	  "node a @2:1 labels{kubernetes.io/hostname=a} alloc{cpu=1000} cap=alloc\n"
	  "invalid t.csv:3:2: Node b: column 'cpu': invalid quantity 'x': expected a number\n"
	  "invalid t.csv:4:3: Node c: bad taint effect 'Bad' in 'k:Bad' " EFF "\n"
	  "node d @5:1 labels{kubernetes.io/hostname=d} taints{k=~:NoSchedule} alloc{cpu=3000} cap=alloc\n" },
	{ "skip mode: openb", NULL, 1,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "p1,1,1,0,0,9\n"
	  "p2,1,1,0,0\n",
	  KP_OK,
	  "invalid t.csv:2:6: Pod openb/p1: too many fields: 6 (the header has 5)\n"
	  "pod openb/p2 @3:1 container[0 p2 req{cpu=1,memory=1048576}]\n" },

	{ "skip mode: openb GPU rows refused publish nothing", NULL, 1,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "bad1,1,1,2,500\n"
	  "bad2,1,1,1,1200\n"
	  "ok,1,1,1,1000\n",
	  KP_OK,
	  "invalid t.csv:2:5: Pod openb/bad1: column 'gpu_milli': 500 milli on each of 2 GPUs (a pod shares one "
	  "GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)\n"
	  "invalid t.csv:3:5: Pod openb/bad2: column 'gpu_milli': 1200 milli of one GPU (at most 1000)\n"
	  GPU_CLASS_LINE(4)
	  "template openb/gpu-whole-1 @4:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=1000}}\n"
	  "pod openb/ok @4:1 container[0 ok req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-whole-1 containers=" GPU_CT("ok") "}\n" },
	{ "skip mode: an openb GPU node after a bad one", NULL, 1,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "bad,1,1,x,T4\n"
	  "n,1,1,1,\n",
	  KP_OK,
	  "invalid t.csv:2:4: Node bad: column 'gpu': bad integer 'x' (want a non-negative integer)\n"
	  "node n @3:1 labels{kubernetes.io/hostname=n,alibabacloud.com/gpu-count=1} "
	  "alloc{cpu=1,memory=1048576,pods=110} cap=alloc\n"
	  "slice n-gpus @3:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io pool=n gen=1 count=1 node=n "
	  "devices{gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0}]}\n" },

	/* ---- line endings, quoting, blank lines ---- */
	{ "CRLF line endings", NULL, 0,
	  "node,cpu,labels\r\nn1,1,a=b\r\n\r\nn2,2,\r\n", KP_OK,
	  "node n1 @2:1 labels{a=b,kubernetes.io/hostname=n1} alloc{cpu=1000} cap=alloc\n"
	  "node n2 @4:1 labels{kubernetes.io/hostname=n2} alloc{cpu=2000} cap=alloc\n" },
	{ "CRLF with a bad row: line numbers", NULL, 1,
	  "pod,cpu\r\np1,1\r\np2,zz\r\n", KP_OK,
	  "pod default/p1 @2:1 container[0 p1 req{cpu=1000}]\n"
	  "invalid t.csv:3:2: Pod default/p2: column 'cpu': invalid quantity 'zz': expected a number\n" },
	{ "quoted fields with commas, quotes and newlines", NULL, 1,
	  "pod,labels,image,cpu\n"
	  "\"p,1\",\"a=x,y;b=\"\"q\"\"\",img,1\n"
	  "\"p\n2\",,\"i\r\nj\",\n"
	  "last,,,\"\n"
	  "zz\"\n"
	  "after,,,1\n",
	  KP_OK,
	  "pod default/p,1 @2:1 labels{a=x,y,b=\"q\"} container[0 p,1 image=img req{cpu=1000}]\n"
	  "pod default/p\\n2 @3:1 container[0 p\\n2 image=i\\r\\nj req{}]\n"
	  "invalid t.csv:6:4: Pod default/last: column 'cpu': invalid quantity '\nzz': expected a number\n"
	  "pod default/after @8:1 container[0 after req{cpu=1000}]\n" },
	{ "blank lines, no final newline", NULL, 0,
	  "\n\nnode\n\nn1\n  \t\nn2", KP_OK,
	  "node n1 @5:1 labels{kubernetes.io/hostname=n1} alloc{} cap=alloc\n"
	  "node n2 @7:1 labels{kubernetes.io/hostname=n2} alloc{} cap=alloc\n" },
	{ "UTF-8 byte order mark", NULL, 0,
	  "\xEF\xBB\xBFnode\nn1\n", KP_OK,
	  "node n1 @2:1 labels{kubernetes.io/hostname=n1} alloc{} cap=alloc\n" },
	{ "list items are trimmed; a second header is just a row", NULL, 0,
	  "node,taints,labels\nn1, a = b : NoSchedule ; c:NoExecute ;, x = 1 \n"
	  "pod,tolerations,host_ports\n", KP_PARSE,
	  "node n1 @2:1 labels{x=1,kubernetes.io/hostname=n1} taints{a=b:NoSchedule,c=~:NoExecute} "
	  "alloc{} cap=alloc\n"
	  "invalid t.csv:3:2: Node pod: bad taint 'tolerations' (want key[=value]:Effect)\n"
	  "error t.csv:3:2: Node pod: bad taint 'tolerations' (want key[=value]:Effect)" },
	{ "spaces inside tolerations and host ports are trimmed", NULL, 0,
	  "pod,tolerations,host_ports\np, k = v : NoExecute ; * , 80 / UDP ; 81\n", KP_OK,
	  "pod default/p @2:1 tolerations{k|Equal|v|NoExecute,~|Exists|~|~} container[0 p req{} "
	  "port=80:80/UDP port=81:81/TCP]\n" },
	{ "quoted header names are trimmed", NULL, 0,
	  "\" node \",\" cpu\"\nn1,2\n", KP_OK,
	  "node n1 @2:1 labels{kubernetes.io/hostname=n1} alloc{cpu=2000} cap=alloc\n" },
};

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

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
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

/* Inputs that a NUL-terminated table cannot hold. */
static void test_nul_byte(void)
{
	static const char in[] = "node,cpu\nn\0x,1\nn2,1\n";
	static const tcase t = { "NUL byte", NULL, 1, NULL, KP_OK, NULL };
	kp_import imp;
	kp_err err;
	imp_init(&imp, 1);
	int rc = run_csv(&imp, &t, in, sizeof in - 1, &err);
	TAP_EQ_I64(rc, KP_OK, "NUL byte in a field: skipped in skip mode");
	TAP_EQ_STR(kp_sb_str(&imp.out),
		   "invalid t.csv:2:1: Node n: NUL byte in field\n"
		   "node n2 @3:1 labels{kubernetes.io/hostname=n2} alloc{cpu=1000} cap=alloc\n",
		   "NUL byte in a field: located");
	imp_release(&imp);
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

static void test_alloc_failures(void)
{
	static const long pods[5] = { 0, 2, 0, 0, 0 }, openb_nodes[5] = { 3, 0, 2, 0, 0 },
			  openb_pods[5] = { 0, 4, 0, 1, 2 };
	alloc_failures("kplan pods",
		       "namespace,pod,cpu,labels,tolerations,host_ports,owner\n"
		       "ns,p1,1,a=b;c=d,k=v:NoSchedule;*,80;90/UDP,Job/j\n"
		       "ns,\"p\n2\",2,,,,\n", pods);
	alloc_failures("openb GPU nodes",
		       "sn,cpu_milli,memory_mib,gpu,model\n"
		       "n1,1,1,2,T4\n"
		       "n2,1,1,1,\n"
		       "n3,1,1,0,\n", openb_nodes);
	alloc_failures("openb GPU pods",
		       "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time\n"
		       "p1,1,1,1,460,T4|G2,LS,Running,5\n"
		       "p2,1,1,2,1000,,,,\n"
		       "p3,1,1,1,460,,,,\n"
		       "p4,1,1,0,0,,,,7\n", openb_pods);
}

/* ---- the openb trace ---- */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

static int load(kp_import *imp, const char *dir, const char *file, kp_err *err)
{
	char path[1024];
	size_t len;
	snprintf(path, sizeof path, "%s/openb/%s", dir, file);
	char *data = read_file(path, &len);
	if (!data)
		return kp_err_set(err, KP_IO, "cannot read '%s'", path);
	int rc = kp_csv_read(imp, file, data, len, NULL, err);
	free(data);
	return rc;
}

static int has_line(const kp_import *imp, const char *line)
{
	const char *s = kp_sb_str(&imp->out);
	size_t n = strlen(line);
	for (const char *p = strstr(s, line); p; p = strstr(p + 1, line))
		if ((p == s || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

static void test_openb_files(void)
{
	const char *dir = getenv("KP_SHARED_DATA");
	char probe[1024];
	if (!dir || !*dir)
		dir = "../shared/data";
	snprintf(probe, sizeof probe, "%s/openb/openb_node_list_gpu_node.csv", dir);
	FILE *f = fopen(probe, "rb");
	if (!f) {
		tap_n++;
		printf("ok %d # SKIP ../shared/data absent\n", tap_n);
		return;
	}
	fclose(f);

	kp_import imp;
	kp_err err = {0};
	imp_init(&imp, 0);
	TAP_EQ_I64(load(&imp, dir, "openb_node_list_gpu_node.csv", &err), KP_OK,
		   "openb gpu nodes: read (%s)", err.msg[0] ? err.msg : "no error");
	TAP_EQ_I64(imp.nodes, 1213, "openb gpu nodes: 1,213 nodes");
	TAP_EQ_I64(imp.slices, 1213, "openb gpu nodes: a ResourceSlice each");
	TAP_EQ_I64(imp.devices, 6212, "openb gpu nodes: 6,212 GPUs, a device each");
	TAP_EQ_I64(imp.device_milli, 6212000, "openb gpu nodes: 1000 milli per device");
	TAP_EQ_I64(imp.scalar_gpu, 0, "openb gpu nodes: no alibabacloud.com/gpu-milli in allocatable");
	TAP_EQ_I64(imp.classes + imp.templates, 0, "openb gpu nodes: no DeviceClass nor template");
	TAP_OK(has_line(&imp, "node openb-node-0000 @2:1 labels{kubernetes.io/hostname=openb-node-0000,"
			"alibabacloud.com/gpu-card-model=P100,alibabacloud.com/gpu-count=2} alloc{cpu=64000,"
			"memory=274877906944,pods=110} cap=alloc"),
	       "openb gpu nodes: first row");
	TAP_OK(has_line(&imp, "slice openb-node-0000-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io "
			"pool=openb-node-0000 gen=1 count=1 node=openb-node-0000 devices{"
			"gpu-0[multi cap{gpu.openb.kplan.io/milli=1000} attrs{gpu.openb.kplan.io/index=0,"
			"gpu.openb.kplan.io/model=\"P100\"}],"
			"gpu-1[multi cap{gpu.openb.kplan.io/milli=1000} attrs{gpu.openb.kplan.io/index=1,"
			"gpu.openb.kplan.io/model=\"P100\"}]}"),
	       "openb gpu nodes: first row's slice, 2 P100s");
	TAP_OK(has_line(&imp, "node openb-node-1212 @1214:1 labels{kubernetes.io/hostname=openb-node-1212,"
			"alibabacloud.com/gpu-card-model=G2,alibabacloud.com/gpu-count=8} alloc{cpu=96000,"
			"memory=412316860416,pods=110} cap=alloc"),
	       "openb gpu nodes: last row");
	{
		kp_sb want;
		kp_sb_init(&want);
		kp_sb_adds(&want, "slice openb-node-1212-gpus @1214:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io "
			   "pool=openb-node-1212 gen=1 count=1 node=openb-node-1212 devices{");
		for (int i = 0; i < 8; i++)
			kp_sb_printf(&want, "%sgpu-%d[multi cap{gpu.openb.kplan.io/milli=1000} attrs{"
				     "gpu.openb.kplan.io/index=%d,gpu.openb.kplan.io/model=\"G2\"}]", i ? "," : "", i, i);
		kp_sb_addc(&want, '}');
		TAP_OK(has_line(&imp, kp_sb_str(&want)), "openb gpu nodes: last row's slice, gpu-0 to gpu-7");
		kp_sb_release(&want);
	}
	imp_release(&imp);

	imp_init(&imp, 0);
	kp_err_clear(&err);
	TAP_EQ_I64(load(&imp, dir, "openb_pod_list_default.csv", &err), KP_OK,
		   "openb default pods: read (%s)", err.msg[0] ? err.msg : "no error");
	TAP_EQ_I64(imp.pods, 8152, "openb default pods: 8,152 pods");
	TAP_EQ_I64(imp.invalid, 0, "openb default pods: none invalid");
	TAP_EQ_I64(imp.with_memory, 8151, "openb default pods: all but one request memory");
	TAP_EQ_I64(imp.scalar_gpu, 0, "openb default pods: none requests alibabacloud.com/gpu-milli");
	TAP_EQ_I64(imp.gpu_pods, 7064, "openb default pods: 7,064 with num_gpu and gpu_milli, a claim each");
	TAP_EQ_I64(imp.claim_milli, 6086800, "openb default pods: their templates ask sum of num_gpu x gpu_milli");
	TAP_EQ_I64(imp.classes, 1, "openb default pods: the DeviceClass stored once");
	TAP_EQ_I64(imp.templates, 24, "openb default pods: a template per shape (24), each stored once");
	TAP_OK(has_line(&imp, "class gpu.openb.kplan.io @2:1 api=resource.k8s.io/v1 selectors{device.driver == "
			"\"gpu.openb.kplan.io\"@spec.selectors[0].cel.expression}"),
	       "openb default pods: the DeviceClass, before the first GPU pod");
	TAP_OK(has_line(&imp, "template openb/gpu-share-460 @3:1 api=resource.k8s.io/v1 requests{gpu "
			"class=gpu.openb.kplan.io mode=ExactCount count=1 cap{milli=460}}"),
	       "openb default pods: the template of the first 460-milli pod");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-0001 @3:1 labels{alibabacloud.com/qos=LS,"
			"alibabacloud.com/trace-phase=Running,alibabacloud.com/creation-time=427061} "
			"container[0 openb-pod-0001 req{cpu=6000,memory=12884901888}] claims{gpu "
			"template=gpu-share-460 containers=[{\"container\":\"openb-pod-0001\",\"request\":null}]}"),
	       "openb default pods: a shared-GPU pod");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-0017 @19:1 labels{alibabacloud.com/qos=Burstable,"
			"alibabacloud.com/trace-phase=Succeeded,alibabacloud.com/creation-time=9437497} "
			"container[0 openb-pod-0017 req{cpu=88000,memory=343597383680}] claims{gpu "
			"template=gpu-whole-8 containers=[{\"container\":\"openb-pod-0017\",\"request\":null}]}"),
	       "openb default pods: an 8-GPU pod");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-1523 @1525:1 labels{alibabacloud.com/qos=Burstable,"
			"alibabacloud.com/trace-phase=Succeeded,alibabacloud.com/creation-time=10611842} "
			"container[0 openb-pod-1523 req{cpu=14000}] claims{gpu template=gpu-whole-1 "
			"containers=[{\"container\":\"openb-pod-1523\",\"request\":null}]}"),
	       "openb default pods: the pod with memory_mib 0");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-0061 @63:1 labels{alibabacloud.com/qos=BE,"
			"alibabacloud.com/trace-phase=Pending,alibabacloud.com/creation-time=10001278} "
			"container[0 openb-pod-0061 req{cpu=11908,memory=49392123904}] claims{gpu "
			"template=gpu-whole-1 containers=[{\"container\":\"openb-pod-0061\",\"request\":null}]}"),
	       "openb default pods: a trace-Pending pod (no scheduled_time)");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-8151 @8153:1 labels{alibabacloud.com/qos=BE,"
			"alibabacloud.com/trace-phase=Failed,alibabacloud.com/creation-time=12901761} "
			"container[0 openb-pod-8151 req{cpu=3152,memory=5872025600}] claims{gpu "
			"template=gpu-share-590 containers=[{\"container\":\"openb-pod-8151\",\"request\":null}]}"),
	       "openb default pods: last row");
	TAP_OK(!strstr(kp_sb_str(&imp.out), "created=") && !strstr(kp_sb_str(&imp.out), "UNEXPECTED") &&
	       !strstr(kp_sb_str(&imp.out), "TEMPLATE-NOT-STORED"),
	       "openb default pods: no creation timestamp, nothing unexpected, every template stored");
	imp_release(&imp);
}

int main(void)
{
	test_cases();
	test_nul_byte();
	test_alloc_failures();
	test_openb_files();
	return tap_done();
}
