/*
 * csv_int.h — what the CSV reader's parts share: csv.c (the reader, kplan's
 * node and pod tables) and openb.c (the openb GPU trace, its GPUs published
 * as DRA devices).  Not for other modules: they include csv.h.
 */
#ifndef KP_CSV_INT_H
#define KP_CSV_INT_H

#include <stddef.h>
#include <stdint.h>
#include "store.h"

#define OPENB_NAMESPACE "openb"
#define OPENB_NODE_PODS 110                 /* kubelet's default maxPods */
#define GPU_MODEL "alibabacloud.com/gpu-card-model"
#define GPU_COUNT "alibabacloud.com/gpu-count"
#define HOSTNAME "kubernetes.io/hostname"

enum fmt { FMT_NONE = -1, FMT_NODES, FMT_PODS, FMT_OPENB_NODES, FMT_OPENB_PODS };

enum kind {
	K_NAME, K_NAMESPACE, K_NODE, K_PHASE, K_RES, K_PRIORITY, K_PRIORITY_CLASS,
	K_PREEMPTION, K_SCHEDULER, K_LABELS, K_NODE_SELECTOR, K_TOLERATIONS, K_TAINTS,
	K_UNSCHEDULABLE, K_CREATED, K_OWNER, K_IMAGE, K_HOST_PORTS,
	/* openb */
	K_CPU_MILLI, K_MEMORY_MIB, K_GPU, K_MODEL, K_NUM_GPU, K_GPU_MILLI, K_GPU_SPEC,
	K_QOS, K_POD_PHASE, K_CREATION_TIME, K_IGNORED,
};

typedef struct colspec { const char *name; enum kind kind; } colspec;

typedef struct column { enum kind kind; char *name; } column;
typedef struct field { size_t off, len; } field;

typedef struct csv_ctx {
	kp_import *imp;
	const char *file;
	kp_err *err;
	kp_arena *arena;
	int openb_only;          /* format "openb" */
	enum fmt fmt;            /* FMT_NONE until the header is read */
	column *cols;
	size_t ncols;
	size_t name_col, ns_col; /* SIZE_MAX when absent */
	/* the current record: fields copied into buf, NUL-terminated */
	kp_sb buf;
	field *fields;
	size_t nfields, cap;
	unsigned nul_col;        /* 1-based field holding a NUL byte, 0 = none */
	unsigned line;           /* physical line where the current record starts */
	/* the current row */
	unsigned bad_col;
	char object[384];
	int stop, rc;
	/* openb: the current row's GPUs (openb.c) */
	int64_t gpus, gpu_milli;     /* a node's GPUs; a pod's GPUs and milli per GPU */
	const char *gpu_model;
} csv_ctx;


/* csv.c: cells and errors of the current row */
const char *kp_csv_cell(const csv_ctx *c, size_t i);
const char *kp_csv_opt(const csv_ctx *c, size_t i);          /* NULL when empty */
int kp_csv_cell_count(csv_ctx *c, size_t i, int required, int64_t *out);
__attribute__((format(printf, 4, 5)))
int kp_csv_bad(csv_ctx *c, size_t i, int code, const char *fmt, ...);
int kp_csv_oom(csv_ctx *c);
void kp_csv_kvs_add(kp_kvs *kv, const char *key, const char *value);
size_t kp_csv_count_items(const char *s, char sep);
int kp_csv_next_item(const char **p, char sep, const char **item, size_t *len);

/* openb.c: one row of the trace into n / p (KP_OK or a row error), then,
 * once the node or pod is stored, what it publishes: a GPU node's
 * ResourceSlice; the DeviceClass and the ResourceClaimTemplate of a GPU
 * pod's shape (once per import).  KP_OK or a fatal error. */
int kp_openb_node_row(csv_ctx *c, kp_node_in *n);
int kp_openb_pod_row(csv_ctx *c, kp_pod_in *p, kp_container *ct);
int kp_openb_publish(csv_ctx *c, const kp_node_in *n);
int kp_openb_publish_pod(csv_ctx *c, const kp_pod_in *p);

#endif
