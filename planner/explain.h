/*
 * explain.h — `kplan explain`: why a pod went where it went in a run.
 *
 *   kp_explain_opts o = { .run = 0, .ns = "shop", .name = "web-1" };
 *   kp_explain_result x;
 *   if (kp_explain_run(db, &o, &x, &err) == KP_OK)
 *           ...x.ex.nodes[x.order[0]] is the closest node...
 *   kp_explain_result_release(&x);
 *
 * The run is replayed in memory (a dry run in a read transaction; the
 * scenario in TEMP tables: a read-only database will do) with what it
 * recorded in run.options: seed, --config, --no-preemption, --reference,
 * the what-if options, --mode full, --strategy and the rebalance settings,
 * so that the replay reaches the decision the run recorded.  When it does
 * not (the database changed since the run), agrees is 0.
 *
 * The planner calls kp_explain_capture at every scheduling attempt of the
 * pod (kp_plan_opts.explain); the last one is kept: each node's verdict, and
 * — with every filter run on the node, not only up to the first failure —
 * the numbers behind it: requested against free per resource
 * (NodeResourcesFit), matching pods per domain and the skew
 * (PodTopologySpread), the pods that match the (anti-)affinity terms
 * (InterPodAffinity).
 *
 * Closest nodes (kp_explain_result.order): the nodes that passed every
 * filter, highest total score first; then the others by (1) a static filter
 * failing (taints, nodeSelector / node affinity, cordon) after the rest,
 * (2) fewer failing filter plugins, (3) nodes too small for the pod even
 * empty (allocatable below a request) after the rest, (4) a smaller
 * resource shortfall — the sum over short resources of (requested - free) /
 * requested — (5) name; nodes not evaluated (percentageOfNodesToScore, a
 * nominated node tried alone) last.
 */
#ifndef KP_EXPLAIN_H
#define KP_EXPLAIN_H

#include <stdint.h>
#include <sqlite3.h>
#include "../common/kp.h"

struct kp_cycle;
struct kp_profile;
struct kp_preempt_result;

/* NodeResourcesFit on one node, for one resource the filter checks (the
 * pod's requests and pod slots): free = allocatable - used */
typedef struct kp_explain_fit {
	int64_t requested;           /* the pod's request (pods: 1) */
	int64_t used;                /* requested by the pods on the node */
	int64_t allocatable;
} kp_explain_fit;

/* one domain (topology value) of a required spread constraint */
typedef struct kp_explain_domain {
	char *value;
	int64_t pods;                /* matching pods on its eligible nodes */
	int eligible;                /* a node in it carries every required key and passes the inclusion policies */
} kp_explain_domain;

/* one DoNotSchedule topology spread constraint of the pod */
typedef struct kp_explain_spread {
	char *key;
	int64_t max_skew, min_domains;
	int64_t min;                 /* global minimum over eligible domains (0 with fewer than minDomains) */
	int self_match;              /* the pod matches its own selector (+1 where it lands) */
	int ndomains;
	kp_explain_domain *domains;
} kp_explain_spread;

enum { KP_EXPLAIN_AFFINITY, KP_EXPLAIN_ANTI, KP_EXPLAIN_EXISTING_ANTI };

/* InterPodAffinity on one node: one required term, at the node's domain */
typedef struct kp_explain_match {
	int node;                    /* index into kp_explain.nodes */
	int kind;                    /* KP_EXPLAIN_* */
	int fails;                   /* this term rejects the node */
	char *key, *value;           /* topology key, the node's value */
	int64_t count;               /* matching pods in that domain */
	char *pods;                  /* the first of them, "ns/name (node), ..."; NULL none */
} kp_explain_match;

/* one filter plugin that fails a node, and its reasons ("r1, r2") */
typedef struct kp_explain_fail {
	const char *plugin;
	char reasons[256];
} kp_explain_fail;

#define KP_EXPLAIN_FAILS 8

typedef struct kp_explain_node {
	int64_t node_db_id;
	char node[256];
	int feasible;
	int evaluated;               /* 0: not filtered at the last attempt */
	const char *plugin;          /* first failing plugin (kube's verdict), NULL when feasible */
	char reason[512];            /* its reasons */
	uint32_t failed;             /* bit per kp_plugin id: every filter that fails the node */
	int nfails;
	kp_explain_fail fails[KP_EXPLAIN_FAILS];   /* every filter that fails it, in filter order (the first: kube's) */
	double shortfall;            /* sum over short resources of (requested - free) / requested */
	int too_small;               /* some resource's allocatable is below the pod's request: never fits */
	int64_t raw[16], norm[16];   /* per score plugin (kp_plugin ids) */
	int64_t total;
	uint32_t tiebreak;
} kp_explain_node;

/* What explain sees at one pod's last attempt (kp_plan_opts.explain). */
typedef struct kp_explain {
	int64_t pod_db_id;           /* the pod to explain */
	int found;                   /* the pod was attempted */
	int attempts;
	int nnodes;
	kp_explain_node *nodes;      /* owned; kp_explain_release */
	int64_t weight[16];
	uint8_t scored[16];
	int chosen;                  /* index into nodes, -1 none */
	int scoring;                 /* 0: one feasible node or none, no scoring */
	char message[4096];
	char preemption[8192];       /* DefaultPreemption's candidates and choice, when it ran */
	char from_node[256];         /* the node it was on before the attempt (bound, or taken off by the scenario) */
	int nfit;                    /* resources NodeResourcesFit checks */
	char **fit_res;              /* their names */
	kp_explain_fit *fit;         /* nnodes * nfit */
	int nspread;
	kp_explain_spread *spread;
	int32_t *spread_dom;         /* nnodes * nspread: index into the constraint's domains, -1 no such label */
	int nmatch, cap_match;
	kp_explain_match *match;     /* by node */
	char decisive[1024];         /* failed: the reasons of the nodes that pass every static filter, or the
	                              * static ones when none does, "N reason, ..." (decisive.h) */
	int decisive_static;         /* ... the static ones: no node passes the static filters */
	int nomem;                   /* a capture ran out of memory: the verdicts only, no numbers */
} kp_explain;

/* Called by the planner (plan.c) at the end of each attempt of the pod:
 * chosen node (-1 none), scoring, raw / normalised scores per plugin (NULL
 * when not scoring), totals per node, avoid (rebalance: nodes the move may
 * not use; NULL). */
void kp_explain_capture(kp_explain *ex, struct kp_cycle *cy, const struct kp_profile *pf, int chosen, int scoring,
			int64_t *const *raw, int64_t *const *norm, const int64_t *total, const uint8_t *avoid);
/* DefaultPreemption's candidates and choice, for people. */
void kp_explain_preemption(kp_explain *ex, const struct kp_cycle *cy, const struct kp_preempt_result *r);
void kp_explain_release(kp_explain *e);

/* What happened to the pod: action keep, bind, move, evict, unschedulable,
 * ignored or done (kp_plan_pod), on node, from from_node. */
typedef struct kp_explain_outcome {
	char action[16];
	char node[256], from_node[256];  /* "" none */
	char message[4096];
} kp_explain_outcome;

typedef struct kp_explain_opts {
	int64_t run;                 /* 0: the latest */
	const char *ns, *name;
	const char *db_name;         /* for messages; NULL: "the database" */
} kp_explain_opts;

typedef struct kp_explain_result {
	int64_t pod_id;              /* negative: a pod the run's scenario added */
	int64_t run;                 /* 0: no run yet (a fresh plan with kube's defaults) */
	uint64_t seed;
	int no_preemption, reference;
	char mode[16];               /* pending, full, rebalance */
	char *scenario;              /* the what-if options as given ("--drain n1"), NULL none */
	char *config;                /* --config of the run, NULL none */
	char config_source[1024];
	int recorded;                /* the run has a placement row for the pod */
	kp_explain_outcome rec;      /* ... and what it says */
	kp_explain_outcome got;      /* the replay's outcome */
	int agrees;                  /* recorded and replayed: same action, same node */
	kp_explain ex;               /* the last attempt (ex.found 0: not attempted) */
	int *order;                  /* ex.nodes indexes, closest first */
} kp_explain_result;

/* Replay and explain.  KP_ERROR with a message for an unknown pod or run;
 * the replay's own errors (a --config or --add-nodes file that cannot be
 * read any more) are returned with "cannot replay run N: " first. */
int kp_explain_run(sqlite3 *db, const kp_explain_opts *o, kp_explain_result *out, kp_err *err);
void kp_explain_result_release(kp_explain_result *x);

#endif
