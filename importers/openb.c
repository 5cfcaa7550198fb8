/*
 * openb.c — the Alibaba "openb" GPU trace (cluster-trace-gpu-v2023): one
 * row of its node or pod table into kp_node_in / kp_pod_in, and the GPUs as
 * DRA devices (issue 18; docs/gpu-devices.md):
 *
 * - a GPU node publishes a ResourceSlice of driver gpu.openb.kplan.io, pool
 *   = the node, with one device per GPU (gpu-0, gpu-1, ...): capacity
 *   `milli` = 1000, allowMultipleAllocations (shared GPUs), attributes
 *   `index` and `model`;
 * - a GPU pod names a ResourceClaimTemplate of its shape: a shared pod
 *   (num_gpu 1, gpu_milli < 1000) asks one device with `milli` =
 *   gpu_milli of its capacity; a whole-GPU pod asks num_gpu devices with all
 *   1000 of theirs; the DeviceClass gpu.openb.kplan.io selects the driver's
 *   devices.  The class and each template are stored once per import.
 *
 * So a share lives on one GPU: two 600-milli pods no longer fit one GPU, and
 * the scattered leftovers of half-used GPUs are not one free GPU.  The
 * trace's creation_time is a label (alibabacloud.com/creation-time), not the
 * queue's timestamp: the trace's scheduler took the pods in file order
 * (kplan: import order).
 */
#include "csv_int.h"
#include "../common/names.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define GPU_DRIVER KP_OPENB_GPU_DRIVER
#define GPU_CLASS KP_OPENB_GPU_CLASS
#define GPU_CAPACITY "milli"
#define GPU_MILLI_PER 1000
#define CREATION_LABEL "alibabacloud.com/creation-time"

static char *i64_text(csv_ctx *c, int64_t v)
{
	return kp_arena_printf(c->arena, "%lld", (long long)v);
}

/* memory_mib: MiB that fit bytes in an int64 */
static int cell_mib(csv_ctx *c, size_t i, int64_t *mib)
{
	int rc = kp_csv_cell_count(c, i, 1, mib);
	if (rc == KP_OK && *mib > INT64_MAX / 1048576)
		rc = kp_csv_bad(c, i, KP_RANGE, "column 'memory_mib': '%s' MiB out of range", kp_csv_cell(c, i));
	return rc;
}

int kp_openb_node_row(csv_ctx *c, kp_node_in *n)
{
	int64_t cpu = 0, mib = 0, gpu = 0;
	const char *model = NULL;
	int rc = KP_OK;
	for (size_t i = 0; i < c->ncols && rc == KP_OK; i++) {
		switch (c->cols[i].kind) {
		case K_CPU_MILLI: rc = kp_csv_cell_count(c, i, 1, &cpu); break;
		case K_MEMORY_MIB: rc = cell_mib(c, i, &mib); break;
		case K_GPU:
			rc = kp_csv_cell_count(c, i, 1, &gpu);
			if (rc == KP_OK && gpu > 4096)
				rc = kp_csv_bad(c, i, KP_RANGE, "column 'gpu': %s GPUs on one node (at most 4096)", kp_csv_cell(c, i));
			break;
		case K_MODEL: model = kp_csv_opt(c, i); break;
		default: break;
		}
	}
	if (rc != KP_OK)
		return rc;
	kp_res *r = kp_arena_alloc(c->arena, 3 * sizeof *r);
	kp_kv *l = kp_arena_alloc(c->arena, 3 * sizeof *l);
	char *count = i64_text(c, gpu);
	if (!r || !l || !count)
		return kp_csv_oom(c);
	n->allocatable.v = r;
	r[n->allocatable.n++] = (kp_res){ "cpu", cpu };
	r[n->allocatable.n++] = (kp_res){ "memory", mib * 1048576 };
	r[n->allocatable.n++] = (kp_res){ "pods", OPENB_NODE_PODS };
	n->capacity = n->allocatable;
	n->labels.v = l;
	kp_csv_kvs_add(&n->labels, HOSTNAME, n->name);
	if (model)
		kp_csv_kvs_add(&n->labels, GPU_MODEL, model);
	kp_csv_kvs_add(&n->labels, GPU_COUNT, count);
	c->gpus = gpu;
	c->gpu_model = model;
	return KP_OK;
}

/* spec.resourceClaims of a GPU pod: one claim "gpu" from its shape's template */
static int pod_claim(csv_ctx *c, kp_pod_in *p, kp_container *ct, int64_t ngpu, int64_t milli)
{
	kp_pod_claim *pc = kp_arena_alloc(c->arena, sizeof *pc);
	kp_sb js;
	if (!pc)
		return kp_csv_oom(c);
	memset(pc, 0, sizeof *pc);
	pc->name = "gpu";
	pc->template_name = milli < GPU_MILLI_PER ? kp_arena_printf(c->arena, "gpu-share-%lld", (long long)milli)
						  : kp_arena_printf(c->arena, "gpu-whole-%lld", (long long)ngpu);
	kp_sb_init(&js);
	kp_sb_adds(&js, "[{\"container\":");
	kp_sb_add_json_str(&js, ct->name);
	kp_sb_adds(&js, ",\"request\":null}]");
	pc->containers = kp_sb_ok(&js) ? kp_arena_strdup(c->arena, js.buf) : NULL;
	kp_sb_release(&js);
	if (!pc->template_name || !pc->containers)
		return kp_csv_oom(c);
	p->claims = pc;
	p->nclaims = 1;
	c->gpus = ngpu;
	c->gpu_milli = milli;
	return KP_OK;
}

/* gpu_spec "A|B": required node affinity on the GPU model label */
static int gpu_spec(csv_ctx *c, kp_pod_in *p, const char *spec)
{
	const char *q = spec, *item;
	size_t len, i = c->ncols;
	kp_node_term *t = kp_arena_alloc(c->arena, sizeof *t);
	kp_req *e = kp_arena_alloc(c->arena, sizeof *e);
	const char **v = kp_arena_alloc(c->arena, kp_csv_count_items(spec, '|') * sizeof *v);
	if (!t || !e || !v)
		return kp_csv_oom(c);
	memset(t, 0, sizeof *t);
	memset(e, 0, sizeof *e);
	for (size_t j = 0; j < c->ncols; j++)
		if (c->cols[j].kind == K_GPU_SPEC)
			i = j;
	while (kp_csv_next_item(&q, '|', &item, &len)) {
		if (!len)
			return kp_csv_bad(c, i, KP_PARSE, "column 'gpu_spec': empty gpu model in '%s'", spec);
		size_t j = 0;
		while (j < e->values.n && !(strlen(v[j]) == len && !memcmp(v[j], item, len)))
			j++;
		if (j < e->values.n)
			continue;    /* the gpuspec files repeat models: "V100M32|V100M32" */
		if (!(v[e->values.n++] = kp_arena_strndup(c->arena, item, len)))
			return kp_csv_oom(c);
	}
	e->key = GPU_MODEL;
	e->op = "In";
	e->values.v = v;
	t->exprs = e;
	t->nexprs = 1;
	p->required_terms = t;
	p->nrequired = 1;
	p->has_required_node_affinity = 1;
	return KP_OK;
}

int kp_openb_pod_row(csv_ctx *c, kp_pod_in *p, kp_container *ct)
{
	int64_t cpu = 0, mib = 0, ngpu = 0, gmilli = 0, created = -1;
	size_t gmilli_col = 0, ngpu_col = 0;
	const char *qos = NULL, *phase = NULL, *spec = NULL;
	int rc = KP_OK;
	c->gpus = c->gpu_milli = 0;
	for (size_t i = 0; i < c->ncols && rc == KP_OK; i++) {
		switch (c->cols[i].kind) {
		case K_CPU_MILLI: rc = kp_csv_cell_count(c, i, 1, &cpu); break;
		case K_MEMORY_MIB: rc = cell_mib(c, i, &mib); break;
		case K_NUM_GPU: rc = kp_csv_cell_count(c, i, 1, &ngpu); ngpu_col = i; break;
		case K_GPU_MILLI: rc = kp_csv_cell_count(c, i, 1, &gmilli); gmilli_col = i; break;
		case K_GPU_SPEC: spec = kp_csv_opt(c, i); break;
		case K_QOS: qos = kp_csv_opt(c, i); break;
		case K_POD_PHASE: phase = kp_csv_opt(c, i); break;
		case K_CREATION_TIME: rc = kp_csv_cell_count(c, i, 0, &created); break;
		default: break;
		}
	}
	if (rc != KP_OK)
		return rc;
	if (ngpu > 4096)
		return kp_csv_bad(c, ngpu_col, KP_RANGE, "column 'num_gpu': %lld GPUs (at most 4096)", (long long)ngpu);
	if (ngpu && gmilli > GPU_MILLI_PER)
		return kp_csv_bad(c, gmilli_col, KP_RANGE, "column 'gpu_milli': %lld milli of one GPU (at most %d)",
				  (long long)gmilli, GPU_MILLI_PER);
	if (ngpu > 1 && gmilli && gmilli < GPU_MILLI_PER)
		return kp_csv_bad(c, gmilli_col, KP_PARSE, "column 'gpu_milli': %lld milli on each of %lld GPUs (a pod "
				  "shares one GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)",
				  (long long)gmilli, (long long)ngpu);

	kp_res *r = kp_arena_alloc(c->arena, 2 * sizeof *r);
	kp_kv *l = kp_arena_alloc(c->arena, 3 * sizeof *l);
	if (!r || !l)
		return kp_csv_oom(c);
	if (cpu > 0)
		r[ct->requests.n++] = (kp_res){ "cpu", cpu };
	if (mib > 0)
		r[ct->requests.n++] = (kp_res){ "memory", mib * 1048576 };
	if (ct->requests.n)
		ct->requests.v = r;
	p->labels.v = l;
	if (qos)
		kp_csv_kvs_add(&p->labels, "alibabacloud.com/qos", qos);
	if (phase)
		kp_csv_kvs_add(&p->labels, "alibabacloud.com/trace-phase", phase);
	if (created >= 0) {
		char *t = i64_text(c, created);
		if (!t)
			return kp_csv_oom(c);
		kp_csv_kvs_add(&p->labels, CREATION_LABEL, t);
	}
	if (!p->labels.n)
		p->labels.v = NULL;
	if (ngpu > 0 && gmilli > 0 && (rc = pod_claim(c, p, ct, ngpu, gmilli)) != KP_OK)
		return rc;
	return spec ? gpu_spec(c, p, spec) : KP_OK;
}

/* ---- what the rows publish ---- */

static int publish_slice(csv_ctx *c, const kp_node_in *n)
{
	kp_arena *a = c->arena;
	kp_resource_slice_in sl;
	kp_dra_device *d = kp_arena_alloc(a, (size_t)c->gpus * sizeof *d);
	if (!d)
		return kp_csv_oom(c);
	memset(&sl, 0, sizeof sl);
	memset(d, 0, (size_t)c->gpus * sizeof *d);
	sl.pos = n->pos;
	sl.name = kp_arena_printf(a, "%s-gpus", n->name);
	sl.api_version = "resource.k8s.io/v1";
	sl.driver = GPU_DRIVER;
	sl.pool = n->name;
	sl.generation = 1;
	sl.slice_count = 1;
	sl.node_name = n->name;
	sl.devices = d;
	sl.ndevices = (size_t)c->gpus;
	for (int64_t i = 0; i < c->gpus; i++) {
		kp_dra_attr *at = kp_arena_alloc(a, 2 * sizeof *at);
		kp_dra_capacity *cap = kp_arena_alloc(a, sizeof *cap);
		if (!at || !cap)
			return kp_csv_oom(c);
		memset(cap, 0, sizeof *cap);
		d[i].name = kp_arena_printf(a, "gpu-%lld", (long long)i);
		d[i].allow_multiple = 1;
		d[i].attrs = at;
		at[d[i].nattrs++] = (kp_dra_attr){ GPU_DRIVER, "index", "int", NULL, i };
		if (c->gpu_model)
			at[d[i].nattrs++] = (kp_dra_attr){ GPU_DRIVER, "model", "string", c->gpu_model, 0 };
		cap->q = (kp_dra_qty){ GPU_DRIVER, GPU_CAPACITY, GPU_MILLI_PER, "1000" };
		d[i].caps = cap;
		d[i].ncaps = 1;
		if (!d[i].name)
			return kp_csv_oom(c);
	}
	if (!sl.name)
		return kp_csv_oom(c);
	return kp_import_resource_slice(c->imp, c->file, &sl, c->err);
}

static int publish_class(csv_ctx *c, const kp_pos pos)
{
	int first = kp_import_first_time(c->imp, "openb:class");
	if (first <= 0)
		return first < 0 ? kp_csv_oom(c) : KP_OK;
	kp_cel *sel = kp_arena_alloc(c->arena, sizeof *sel);
	if (!sel)
		return kp_csv_oom(c);
	*sel = (kp_cel){ "device.driver == \"" GPU_DRIVER "\"", "spec.selectors[0].cel.expression", 0, 0, 0 };
	kp_device_class_in dc = { .pos = pos, .name = GPU_CLASS, .api_version = "resource.k8s.io/v1",
				  .selectors = { sel, 1 } };
	return kp_import_device_class(c->imp, c->file, &dc, c->err);
}

static int publish_template(csv_ctx *c, const kp_pod_in *p)
{
	const char *name = p->claims[0].template_name;
	char key[96];
	snprintf(key, sizeof key, "openb:%s", name);
	int first = kp_import_first_time(c->imp, key);
	if (first <= 0)
		return first < 0 ? kp_csv_oom(c) : KP_OK;
	kp_dra_request *r = kp_arena_alloc(c->arena, sizeof *r);
	kp_dra_qty *q = kp_arena_alloc(c->arena, sizeof *q);
	char *text = i64_text(c, c->gpu_milli < GPU_MILLI_PER ? c->gpu_milli : GPU_MILLI_PER);
	if (!r || !q || !text)
		return kp_csv_oom(c);
	memset(r, 0, sizeof *r);
	*q = (kp_dra_qty){ NULL, GPU_CAPACITY, c->gpu_milli < GPU_MILLI_PER ? c->gpu_milli : GPU_MILLI_PER, text };
	r->name = "gpu";
	r->sub = "";
	r->device_class = GPU_CLASS;
	r->mode = "ExactCount";
	r->count = c->gpu_milli < GPU_MILLI_PER ? 1 : c->gpus;
	r->caps = q;
	r->ncaps = 1;
	kp_resource_claim_template_in t = { .pos = p->pos, .namespace_ = OPENB_NAMESPACE, .name = name,
					    .api_version = "resource.k8s.io/v1", .spec = { .reqs = r, .nreqs = 1 } };
	return kp_import_claim_template(c->imp, c->file, &t, c->err);
}

int kp_openb_publish(csv_ctx *c, const kp_node_in *n)
{
	int rc = KP_OK;
	if (n && c->gpus > 0)
		rc = publish_slice(c, n);
	return rc;
}

/* before the pod: its shape's class and template (a pod names its template) */
int kp_openb_publish_pod(csv_ctx *c, const kp_pod_in *p)
{
	int rc = KP_OK;
	if (p->nclaims && (rc = publish_class(c, p->pos)) == KP_OK)
		rc = publish_template(c, p);
	return rc;
}
