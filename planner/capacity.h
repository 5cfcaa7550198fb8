/*
 * capacity.h — capacity planning with the real planner
 * (docs/capacity-planning.md): how many more replicas of a spec fit, how many nodes of a shape
 * the pending pods need, whether the cluster survives losing a node, a zone
 * or any label domain.  Every answer comes from dry plan runs of what-if
 * scenarios (plan.h, whatif.h), on the same baseline as `kplan plan`.
 *
 *   kp_capacity_opts o = { .survive = "zone" };      // seed 0: KP_DEFAULT_SEED
 *   kp_capacity_answer a;
 *   if (kp_capacity_run(db, &o, NULL, &a, &err) == KP_OK)
 *           puts(kp_sb_str(&a.result));               // JSON: the whole answer
 *   kp_capacity_answer_release(&a);
 *
 * The answer is appended to the capacity_* tables (schema.sql, "capacity") in
 * one transaction unless o.no_record; the dry runs write nothing to the main
 * schema (their rows, for the quality certificate, go to TEMP tables), so
 * with no_record the database may be opened read-only.
 */
#ifndef KP_CAPACITY_H
#define KP_CAPACITY_H

#include <stdint.h>
#include <stddef.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "../common/quantity.h"   /* kp_capacity_fmt_amount */

struct kp_whatif_importer;

#define KP_CAPACITY_MAX_REPLICAS 1000000
#define KP_CAPACITY_MAX_TEMPLATES 16

typedef struct kp_capacity_opts {
	/* one question: pod_file or workload; ntemplates > 0 (nodes needed); survive */
	const char *pod_file;        /* --pod FILE */
	const char *workload;        /* --workload NS/NAME */
	long max;                    /* --max; 0: from free capacity */
	const char *templates[KP_CAPACITY_MAX_TEMPLATES];   /* --node-template, repeatable */
	int ntemplates;
	long max_nodes;              /* 0: 1000 */
	const char *survive;         /* "node", "zone" (topology.kubernetes.io/zone) or a node label key */
	long limit;                  /* --survive: the most loaded K domains; 0 all */
	int survive_replan;          /* --survive-replan: every pod planned again per domain (the baseline's
	                              * placements not kept; docs/capacity-planning.md) */
	/* the baseline, as `kplan plan` takes it */
	uint64_t seed;               /* 0: KP_DEFAULT_SEED */
	int no_preemption;
	const char *config;          /* NULL: the latest imported configuration, else kube's defaults */
	const char *kube_version, *feature_gates;   /* NULL: the database's settings (plan.h) */
	const char *pool_label;      /* NULL: node.kubernetes.io/instance-type */
	int no_record;               /* answer only: write nothing (read-only databases) */
	long from_run;               /* > 0: start from the state run from_run left (plan --from-run) */
	/* reads --pod and --node-template files, names added replicas (whatif.h;
	 * the CLI's: cli/whatif_import.h); NULL: those questions fail */
	const struct kp_whatif_importer *importer;
} kp_capacity_opts;

struct kp_capacity_answer;

typedef struct kp_capacity_hooks {
	/* long work (--survive): DONE of TOTAL domains ("node", "zone", ...) */
	void (*progress)(void *ctx, const char *unit, long done, long total);
	/* the answer is complete (a->id set when it is recorded): called before
	 * COMMIT, non-zero rolls the record back (a lost summary means nothing
	 * was written) */
	int (*before_commit)(void *ctx, const struct kp_capacity_answer *a);
	void *ctx;
} kp_capacity_hooks;

typedef struct kp_capacity_answer {
	int64_t id;                  /* capacity_run.id; 0 when not recorded */
	const char *kind;            /* pod | nodes-needed | survive-node | survive-zone | survive-label */
	char subject[1100];
	int64_t value, bound;        /* INT64_MIN: NULL (capacity_run.answer, .bound) */
	const char *status;
	char *reason;
	kp_sb result;                /* JSON object: the whole answer (capacity_run.result; its text
	                              * summary is rendered from it, reports/capacity_text.c) */
	kp_sb options;               /* JSON: the options (capacity_run.options) */
	long plans;                  /* plan runs made */
	double elapsed;
} kp_capacity_answer;

/* Ask o's question of db.  KP_OK with *out filled (release it in any case);
 * KP_USAGE for a question that is not one (no mode, two modes, ...); other
 * errors with a message in err (a bad --pod file: the importer's
 * FILE:LINE:COL).  SIGINT (kp_interrupted): KP_INTR, nothing written. */
int kp_capacity_run(sqlite3 *db, const kp_capacity_opts *o, const kp_capacity_hooks *h, kp_capacity_answer *out,
		    kp_err *err);
void kp_capacity_answer_release(kp_capacity_answer *a);

#endif
