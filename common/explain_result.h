/*
 * explain_result.h — the result of `kplan explain` as data: what the planner
 * fills (planner/explain.c, kp_explain_run in planner/explain.h) and the
 * renderers read (reports/explain_text.c).  Plain structs, no behaviour:
 * they live in common/ so that reports/ can render them without including
 * the planner.  The arrays marked "per plugin" are indexed by the planner's
 * plugin ids (planner/profile.h, KP_P_*); whoever renders them is given the
 * names (kp_plugin_names).
 */
#ifndef KP_EXPLAIN_RESULT_H
#define KP_EXPLAIN_RESULT_H

#include <stdint.h>

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
/* room for the per-plugin arrays (the planner's plugin count is below it;
 * `failed` is a 32-bit mask) */
#define KP_EXPLAIN_PLUGINS 32

typedef struct kp_explain_node {
	int64_t node_db_id;
	char node[256];
	int feasible;
	int evaluated;               /* 0: not filtered at the last attempt */
	const char *plugin;          /* first failing plugin (kube's verdict), NULL when feasible */
	char reason[512];            /* its reasons */
	uint32_t failed;             /* bit per plugin id: every filter that fails the node */
	int nfails;
	kp_explain_fail fails[KP_EXPLAIN_FAILS];   /* every filter that fails it, in filter order (the first: kube's) */
	double shortfall;            /* sum over short resources of (requested - free) / requested */
	int too_small;               /* some resource's allocatable is below the pod's request: never fits */
	int64_t raw[KP_EXPLAIN_PLUGINS], norm[KP_EXPLAIN_PLUGINS];   /* per plugin (score plugins) */
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
	int64_t weight[KP_EXPLAIN_PLUGINS];        /* per plugin: score weight */
	uint8_t scored[KP_EXPLAIN_PLUGINS];        /* per plugin: 1 for the score plugins that ran */
	int chosen;                  /* index into nodes, -1 none */
	int scoring;                 /* 0: one feasible node or none, no scoring */
	char message[4096];
	char preemption[8192];       /* DefaultPreemption's candidates and choice, when it ran */
	char devices[4096];          /* the pod's ResourceClaims: allocated, or what they ask and the devices
	                              * the allocator takes on the chosen node; "" without claims */
	char volumes[4096];          /* the pod's volumes: each claim, the PV behind it or what VolumeBinding
	                              * would do on the chosen node; "" for a pod without volumes */
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
	int tie_rank;                /* ties went to the seeded node ranking (--tie-break node-rank) */
} kp_explain;

/* What happened to the pod: action keep, bind, move, evict, unschedulable,
 * ignored or done (kp_plan_pod), on node, from from_node. */
typedef struct kp_explain_outcome {
	char action[16];
	char node[256], from_node[256];  /* "" none */
	char message[4096];
} kp_explain_outcome;

typedef struct kp_explain_result {
	int64_t pod_id;              /* negative: a pod the run's scenario added */
	int64_t run;                 /* 0: no run yet (a fresh plan with kube's defaults) */
	uint64_t seed;
	int no_preemption, reference;
	char mode[16];               /* pending, full, rebalance */
	char *scenario;              /* the what-if options as given ("--drain n1"), NULL none */
	char *config;                /* --config of the run, NULL none */
	char config_source[1024];
	char kube[1100];             /* "kube 1.37 (feature gates: ...)": what the replay planned as */
	int recorded;                /* the run has a placement row for the pod */
	kp_explain_outcome rec;      /* ... and what it says */
	kp_explain_outcome got;      /* the replay's outcome */
	int agrees;                  /* recorded and replayed: same action, same node */
	kp_explain ex;               /* the last attempt (ex.found 0: not attempted) */
	int *order;                  /* ex.nodes indexes, closest first */
} kp_explain_result;

#endif
