/*
 * capacity_int.h — what the capacity modules share (capacity.c: the run, the
 * baseline, the dry runs and the record; capacity_fit.c: --pod/--workload;
 * capacity_nodes.c: --nodes-needed; capacity_survive.c: --survive).  Not a
 * public header: see capacity.h.
 */
#ifndef KP_CAPACITY_INT_H
#define KP_CAPACITY_INT_H

#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "capacity.h"
#include "plan.h"
#include "survive.h"

#include <stdint.h>
#include <stddef.h>

#define KP_CAP_POOL_LABEL "node.kubernetes.io/instance-type"
#define KP_CAP_ZONE_LABEL "topology.kubernetes.io/zone"

/* a pod: namespace, name, priority, kube's reason */
typedef struct cap_pod {
	char *ns, *name, *msg;
	int64_t priority;
	int never;                            /* not even an empty added node would take it */
} cap_pod;

typedef struct res_total {
	char name[64];
	int64_t alloc, free;
} res_total;

/* The quality certificate of a plan (quality.h): its plan_quality and
 * plan_stranded rows, read inside the dry run (on_quality) and written to
 * capacity_quality and capacity_stranded with the answer. */
enum { Q_POOL, Q_STRANDED };
#define Q_MAXCOLS 10
typedef struct qrow {
	int table;                            /* Q_* */
	int n;
	sqlite3_value *v[Q_MAXCOLS];
} qrow;
typedef struct qual {
	qrow *v;
	int n, cap;
} qual;

/* one imported pod of the baseline plan, by pod id */
typedef struct base_pod {
	int64_t id;
	int placed;
} base_pod;

/* what one plan run says */
typedef struct outcome {
	long copies, copies_placed;           /* pods of the scenario (id < 0) */
	/* copies in gangs (docs/gangs.md): gangs tried and with minCount placed;
	 * the one being counted (copies come gang by gang) */
	long gangs, gangs_placed, gang_cur_placed;
	char *gang_cur;
	int32_t gang_min, gang_size;
	int64_t first_fail_id;                /* the first copy left out (0 none) */
	char *first_fail_msg;
	int64_t copy_class;
	int64_t *copy_nodes;                  /* node id of each placed copy */
	long ncopy_nodes, cap_copy_nodes;
	long unsched;                         /* imported pods (id > 0) without a node: unschedulable or evicted */
	long displaced, displaced_lost;       /* pods the scenario took off a node; of them without a node */
	cap_pod *unfits;                      /* the first 50 of unsched */
	int nunfits;
	long never;                           /* of unsched: not even an empty added node would take them */
	cap_pod *nevers;                      /* the first 50 of those */
	int nnevers;
	/* with cap.base: against the baseline, pods placed there and not here
	 * (lost), and the other way round (gained): counts, the first 50 */
	long lost, gained;
	cap_pod *losts, *gains;
	int nlosts, ngains;
	/* with cap.want_ids: the ids of every imported pod without a node, and
	 * of those never to fit (fits_empty_added == 0) */
	int64_t *unsched_ids, *never_ids;
	long nunsched_ids, cap_unsched_ids, nnever_ids, cap_never_ids;
	res_total res[32];                    /* per resource over the nodes of the run */
	int nres;
	res_total tmpl[32];                   /* resources of the first added node (id < 0) */
	int64_t gpu_need;                     /* GPU milli of the imported pods pending before the run that can fit an added node */
	int ntmpl;
	int64_t tmpl_node;
	qual q;                               /* with cap.want_quality: the plan's quality certificate */
	kp_plan_result r;                     /* the run's counts */
} outcome;

/* rows of the detail tables, kept until the write transaction */
enum { T_NODE, T_POOL, T_SEARCH, T_DOMAIN, T_HEADROOM, T_UNFIT, T_POD };
typedef struct row {
	int table;                            /* T_* */
	char *a, *b, *c, *d;                  /* text columns */
	int64_t v[6];
} row;
typedef struct rows {
	row *v;
	int n, cap;
} rows;

typedef struct cap {
	sqlite3 *db;
	kp_err *err;
	const kp_capacity_opts *o;
	const kp_capacity_hooks *h;
	kp_capacity_answer *a;
	uint64_t seed;
	const char *pool_label;
	outcome *cur;
	/* the probe run of --pod / --workload: what the spec requests and the
	 * default --max, read inside the run's transaction (a --pod spec's class
	 * exists only there) */
	int probe;
	kp_sb *probe_req;
	int64_t probe_max;
	int want_quality;                     /* read the plans' quality certificates (outcome.q) */
	int want_ids;                         /* outcome.unsched_ids, .never_ids */
	/* the baseline: the plan of the cluster as it is, with the options of
	 * `kplan plan` */
	kp_plan_result base_r;
	base_pod *base;                       /* every imported pod, by id; NULL: not kept */
	long nbase, cap_base;
	int collect;                          /* the baseline run: fill base */
	int track;                            /* compare each run's pods with base (outcome.lost, .gained) */
	rows rows;
	int step;                             /* capacity_search.step */
	qual q;                               /* the certificate of the plan that gives the answer */
	char q_of[1200];                      /* which plan that is; "" none */
	kp_plan_opts survive_opts;            /* --survive: the kept baseline's options (survive.h) */
} cap;

/* capacity.c */
int cap_plan_once(cap *c, const char *const *wopts, int nw, outcome *o);
void cap_outcome_release(outcome *o);
/* the options of a dry plan run reporting to c (no what-if, no on_quality) */
void cap_plan_opts(cap *c, kp_plan_opts *po);
/* --survive (survive.h): the baseline kept in memory (*why: NULL, or what
 * the incremental evaluation does not model), and one domain's plan from it */
int cap_survive_open(cap *c, outcome *base, kp_survive **out, const char **why);
int cap_survive_eval(cap *c, kp_survive *sv, const char *label, const char *value, outcome *o);
/* the last gang of copies counted (before reading gangs, gangs_placed) */
void cap_gang_close(outcome *o);
void cap_pods_release(cap_pod *v, int n);
void cap_qual_release(qual *q);
void cap_qual_take(qual *dst, qual *src);
int cap_add_row(cap *c, int table, const char *a, const char *b, int64_t v0, int64_t v1, int64_t v2, int64_t v3,
		int64_t v4, int64_t v5);
int cap_add_pod_row(cap *c, int table, const char *domain, const char *change, const cap_pod *p);
void cap_pod_json(kp_sb *j, const cap_pod *p);
void cap_pods_json(kp_sb *j, const cap_pod *v, int n);
void cap_sort_base(cap *c);
void cap_baseline_json(cap *c, kp_sb *j);
int cap_nomem(cap *c);
/* a prepared statement of embedded SQL; NULL with err set */
sqlite3_stmt *cap_prepare(cap *c, const char *sql);
int cap_step_fail(cap *c, sqlite3_stmt *s);

/* the modes */
int cap_fit(cap *c);            /* capacity_fit.c */
int cap_requests_text(cap *c, int64_t class_id, kp_sb *sb);
int cap_default_max(cap *c, int64_t class_id, int64_t *out);
int cap_nodes_needed(cap *c);   /* capacity_nodes.c */
int cap_survive(cap *c);        /* capacity_survive.c */

#endif
