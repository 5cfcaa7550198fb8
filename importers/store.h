/*
 * store.h — an import batch as the format readers see it: the calls that
 * store one object, report a bad one or count a kind kplan skips, and the
 * batch's options, counts and progress (set and read through import.h).
 *
 *   kp_node_in n = { ... };                  // strings in kp_import_arena(imp)
 *   if (kp_import_node(imp, "nodes.yaml", &n, &err) != KP_OK)
 *           return err.code;                 // duplicate in this batch, I/O
 *
 * A format reader (csv.c, k8s*.c) includes this header, never import.h: the
 * readers sit below the batch's driver (import.c, import_read.c), which
 * calls them, and above the writers (store*.c), which they call.
 */
#ifndef KP_STORE_H
#define KP_STORE_H

#include <stdint.h>
#include <stddef.h>
#include "../common/kp.h"
#include "model.h"

typedef struct kp_import kp_import;

/* The most pods kplan generates for one workload (replicas beyond it are refused). */
#define KP_MAX_WORKLOAD_PODS 2000000

/* Called for every object skipped with --skip-invalid (err says why). */
typedef void (*kp_import_warn_fn)(void *ctx, const kp_err *err);

typedef struct kp_import_stats {
	long nodes, pods, generated_pods, workloads, priority_classes, pdbs, services,
	     namespaces, scheduler_configs, skipped_kinds, invalid, files;
	/* storage (issue 16): imported, not planned yet; generated_pvcs: claims
	 * made as the StatefulSet and ephemeral volume controllers would */
	long storage_classes, pvs, pvcs, generated_pvcs, csi_nodes, csi_drivers, csi_capacities;
	/* Dynamic Resource Allocation (issue 17): imported, not planned yet;
	 * generated_claims: ResourceClaims made from templates for pods, as the
	 * resourceclaim controller would */
	long device_classes, resource_slices, resource_claims, generated_claims, claim_templates;
	long long bytes;
	/* the skipped objects per "apiVersion Kind", most first (set before
	 * before_commit is called) */
	size_t nskipped;
	const char *const *skipped_names;
	const long *skipped_counts;
} kp_import_stats;

/* Progress of an import (kp_import_opts.progress), every few objects while
 * the files are read, then once per workload while pods are generated. */
enum { KP_IMPORT_READING, KP_IMPORT_EXPANDING };
typedef struct kp_import_progress {
	int phase;              /* KP_IMPORT_READING or KP_IMPORT_EXPANDING */
	long long bytes;        /* read so far: the files done and the current one up to its latest object */
	long objects;           /* objects stored so far (nodes, pods, workloads) */
	long done, total;       /* EXPANDING: workloads expanded of total */
	long generated_pods;    /* EXPANDING: pods generated so far */
} kp_import_progress;

typedef struct kp_import_opts {
	int skip_invalid;           /* report bad objects and go on */
	const char *format;         /* NULL = detect; "yaml", "json", "csv", "openb" */
	size_t max_input_size;      /* the most bytes of one file or stream; 0 = KP_READ_IMPORT_LIMIT (4 GiB) */
	const char *size_hint;      /* ends the message of a bigger one: how to raise the limit; may be NULL */
	kp_import_warn_fn warn;     /* may be NULL */
	void *warn_ctx;
	/* may be NULL: an object kept or skipped that the user should know
	 * about (a kind kplan skips that makes pods), with its position */
	kp_import_warn_fn note;
	void *note_ctx;
	/* called just before COMMIT with the final counts; non-zero rolls the
	 * batch back (the CLI prints its summary here, so a lost summary means
	 * nothing was imported) */
	int (*before_commit)(void *ctx, const kp_import_stats *st, int64_t batch);
	void *commit_ctx;
	/* may be NULL: progress for a meter (the CLI's, on a terminal) */
	void (*progress)(void *ctx, const kp_import_progress *p);
	void *progress_ctx;
} kp_import_opts;

/* --- for the format readers --- */

/* The arena for one object; the reader resets it between objects. */
kp_arena *kp_import_arena(kp_import *imp);
/* Objects a reader derives and stores once per import (the openb DeviceClass
 * and claim templates): 1 the first time key is asked, then 0; -1 out of memory. */
int kp_import_first_time(kp_import *imp, const char *key);

/* Store one object (store_objects.c).  file names the source for messages
 * and the `source` column.  Returns KP_OK or an error (duplicate in this
 * batch, I/O, interrupted). */
int kp_import_node(kp_import *imp, const char *file, const kp_node_in *n, kp_err *err);
int kp_import_pod(kp_import *imp, const char *file, const kp_pod_in *p, kp_err *err);
int kp_import_workload(kp_import *imp, const char *file, const kp_workload_in *w, kp_err *err);
int kp_import_priority_class(kp_import *imp, const char *file, const kp_priority_class_in *pc, kp_err *err);
int kp_import_pdb(kp_import *imp, const char *file, const kp_pdb_in *pdb, kp_err *err);
int kp_import_service(kp_import *imp, const char *file, const kp_service_in *svc, kp_err *err);
int kp_import_namespace(kp_import *imp, const char *file, const kp_namespace_in *ns, kp_err *err);
int kp_import_sched_config(kp_import *imp, const char *file, const kp_sched_config_in *sc, kp_err *err);
/* storage objects (store_storage.c) */
int kp_import_storage_class(kp_import *imp, const char *file, const kp_storage_class_in *sc, kp_err *err);
int kp_import_pv(kp_import *imp, const char *file, const kp_pv_in *pv, kp_err *err);
int kp_import_pvc(kp_import *imp, const char *file, const kp_pvc_in *pvc, kp_err *err);
int kp_import_csi_node(kp_import *imp, const char *file, const kp_csi_node_in *n, kp_err *err);
int kp_import_csi_driver(kp_import *imp, const char *file, const kp_csi_driver_in *d, kp_err *err);
int kp_import_csi_capacity(kp_import *imp, const char *file, const kp_csi_capacity_in *c, kp_err *err);
/* DRA objects (store_dra.c) */
int kp_import_device_class(kp_import *imp, const char *file, const kp_device_class_in *d, kp_err *err);
int kp_import_resource_slice(kp_import *imp, const char *file, const kp_resource_slice_in *s, kp_err *err);
int kp_import_resource_claim(kp_import *imp, const char *file, const kp_resource_claim_in *rc, kp_err *err);
int kp_import_claim_template(kp_import *imp, const char *file, const kp_resource_claim_template_in *t, kp_err *err);
/* the Workload API (store_gang.c; docs/gangs.md) */
int kp_import_pod_group(kp_import *imp, const char *file, const kp_pod_group_in *g, kp_err *err);
int kp_import_sched_workload(kp_import *imp, const char *file, const kp_sched_workload_in *w, kp_err *err);

/* An object could not be read.  With skip_invalid: report it through the
 * warn callback, count it, clear err and return KP_OK; otherwise return
 * err->code so the caller stops.  err must be set and located. */
int kp_import_invalid(kp_import *imp, kp_err *err);

/* Count an object of a kind kplan does not use (ConfigMap, CRDs, ...); kind
 * is "apiVersion Kind" ("batch/v1 CronJob"). */
void kp_import_skipped(kp_import *imp, const char *kind);
/* Pass err (set and located) to the note callback, then clear it. */
void kp_import_note(kp_import *imp, kp_err *err);

/* naming generated pods: kp_pod_suffix (common/names.h) */
#include "../common/names.h"

#endif
