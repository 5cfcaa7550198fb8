/*
 * whatif_int.h — what the what-if modules share (private to planner/whatif*.c).
 *
 * Where each part of a scenario lives (whatif.h has the rules):
 *   whatif.c            the kp_whatif object, kp_whatif_add, kp_whatif_apply
 *                       (one apply function per option kind, in order)
 *   whatif_parse.c      each option's syntax, kubectl's label selectors
 *   whatif_sql.c        running the scenario's SQL (queries/whatif/),
 *                       files read through the caller's importer
 *   whatif_tables.c     the TEMP copies of the cluster's tables; adding a pod
 *   whatif_nodes.c      --remove-nodes, --cordon, --drain
 *   whatif_add_nodes.c  --add-nodes (and the DaemonSet pods of added nodes)
 *   whatif_add_slices.c the ResourceSlices of a node template, per added node
 *   whatif_scale.c      --scale
 *   whatif_add_pods.c   add-pods (kplan capacity --pod)
 *   whatif_fix.c        remove-pods, untaint, relax (kplan fix's candidates)
 *   whatif_mode.c       --from-run, --mode full, --strategy
 *   whatif_record.c     run_scenario, run_node, run_pod; the CLI's lines
 */
#ifndef KP_WHATIF_INT_H
#define KP_WHATIF_INT_H

#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "whatif.h"
#include "../common/names.h"   /* kp_pod_suffix: pods named as the importer names them */

/* option kinds, in the order they are applied (whatif.h) */
enum { WI_FROM_RUN, WI_REMOVE, WI_CORDON, WI_DRAIN, WI_ADD, WI_SCALE, WI_ADD_PODS, WI_REMOVE_PODS, WI_MOVE_PODS,
       WI_UNTAINT, WI_RELAX, WI_MODE, WI_STRATEGY, WI_NKINDS };
/* the option names, as kp_whatif_add takes them and run_scenario.option records them */
extern const char *const wi_kind_names[WI_NKINDS];

enum { WI_STRAT_LEAST, WI_STRAT_MOST, WI_STRAT_BALANCED, WI_STRAT_FGD, WI_STRAT_PACK, WI_STRAT_K120, WI_NSTRATS };
extern const char *const wi_strat_names[WI_NSTRATS];

/* ids of scenario objects: negative, ascending in creation order, never an imported row's */
#define WI_ID_BASE (-1000000000000LL)
#define WI_MAX_ADD 100000

/* One option.  Fields by kind (whatif_parse.c fills them):
 *   remove-nodes, cordon, drain: node (a name) or selector (JSON requirements)
 *   add-nodes, add-pods: file, count
 *   scale: ns, wkind (NULL: any), wname, replicas, relative
 *   untaint: node (the key), selector (the value; NULL: any)
 *   relax: replicas (the class id), wkind (what), wname (the argument)
 *   from-run: count (the run id)
 *   strategy: strategy */
typedef struct wi_op {
	int kind, given;             /* given: position on the command line */
	char *value;                 /* as given */
	char *node;
	char *selector;
	char *file;
	long count;
	char *ns, *wkind, *wname;
	int64_t replicas;
	int relative;                /* scale NS/W=+N: replicas is added to the current count */
	int strategy;
	/* what it did (kp_whatif_apply, kp_whatif_record) */
	int seq;
	long nodes, pending, added, removed;
	int nothing_selected;        /* a selector or name that selected no node */
	kp_sb effect, result;
} wi_op;

struct kp_whatif {
	wi_op *ops;
	int nops, cap, ngiven;
	int tables;                  /* the temp tables were made */
	int64_t nodes_made, pods_made;
	int64_t rows_made;           /* ResourceSlices and devices of added nodes (negative ids) */
	int have_created;
	int64_t created;             /* creationTimestamp of added pods; INT64_MIN: unknown */
	const kp_whatif_importer *importer;   /* borrowed; NULL: none */
};

/* ---- building the scenario: shared state ---- */

/* statements prepared once per apply (wi_stmt) */
enum { WI_Q_POD_INS, WI_Q_POD_LABELS, WI_Q_POD_LABEL, WI_Q_POD_REC, WI_Q_NAME_USED, WI_Q_NODE_USED, WI_Q_COUNT };

typedef struct wctx {
	sqlite3 *db;
	kp_whatif *w;
	kp_err *err;
	sqlite3_stmt *q[WI_Q_COUNT];
} wctx;

/* whatif_sql.c */
/* the error for a failed statement (KP_INTR when interrupted); returns its code */
int wi_db_fail(wctx *c, const char *what);
/* statement i, prepared on first use, reset and unbound; NULL with the error set */
sqlite3_stmt *wi_stmt(wctx *c, int i);
void wi_bind_opt_text(sqlite3_stmt *s, int i, const char *v);
/* One statement with ?1 = a (integer) and ?2 = b (text, may be NULL), the
 * parameters it has: wi_exec changes the scenario (*changes: rows changed,
 * may be NULL), wi_query_int reads one integer (0 when no row). */
int wi_exec(wctx *c, const char *sql, int64_t a, const char *b, long *changes);
int wi_query_int(wctx *c, const char *sql, int64_t a, const char *b, int64_t *out);
/* statements without parameters, several in one text; `what` names them in errors */
int wi_exec_all(wctx *c, const char *what, const char *sql);
/* "a, b, c, d, e, ... (12)": the names a query returns (?1 = a), for messages */
int wi_add_names(wctx *c, kp_sb *sb, const char *sql, int64_t a);
/* FILE imported into a new database in memory by the caller's importer: *out
 * (close it, also after an error; NULL when none was made), *n its counts.  An
 * import error becomes "OPTION 'SHOWN': message". */
int wi_import(wctx *c, const char *file, const char *option, const char *shown, sqlite3 **out, kp_whatif_counts *n);
/* the importer's name suffix of generated pod i of NS/NAME (whatif.h) */

/* whatif_tables.c */
/* the TEMP copies of the node and pod tables, and the scenario's own tables */
int wi_make_tables(wctx *c);
/* a TEMP copy of main table T (its definition, indexes and rows); _once: unless there is one */
int wi_shadow(wctx *c, const char *table);
int wi_shadow_once(wctx *c, const char *table);
/* 1 in *known when the database has the storage tables (pod_volume, pvc,
 * workload_volume, workload_claim_template); 0 for one made before them,
 * where nothing has volumes */
int wi_storage_known(wctx *c, int *known);
/* their TEMP copies (made once), with the columns a database made before
 * them lacks (import adds them to the database; here to the copies, which
 * unqualified names reach first); only when wi_storage_known said 1 */
int wi_storage_shadow(wctx *c);

/* whatif_dra.c: the resourceClaims of added pods */
typedef struct wi_claim {
	char *name, *claim_name, *tmpl, *containers;   /* a spec's resourceClaims entry */
	int64_t seq;
} wi_claim;
typedef struct wi_claims {
	wi_claim *v;
	size_t n;
	sqlite3_stmt *ins, *gen;     /* prepared by wi_dra_add_pod */
} wi_claims;
/* 1 in *known when the database has the DRA tables a scenario copies */
int wi_dra_known(wctx *c, int *known);
/* TEMP copies of pod_resource_claim and resource_claim (made once) */
int wi_dra_shadow(wctx *c);
/* the resourceClaims of Pod id (workload 0) or workload id's template
 * (workload 1) in database db (the scenario's, or an add-pods file's) */
int wi_dra_read(wctx *c, sqlite3 *db, int64_t id, int workload, wi_claims *cl);
void wi_dra_free(wi_claims *cl);
/* scenario pod id (ns/pod) gets cl's entries and the claims its templates make */
int wi_dra_add_pod(wctx *c, wi_claims *cl, int64_t id, const char *ns, const char *pod);
/* --scale of workload wid: *has = 1 (the TEMP copies made, cl its
 * template's entries) when the database has DRA tables and the workload's
 * template or pods name resourceClaims */
int wi_dra_scale(wctx *c, int64_t wid, wi_claims *cl, int *has);

typedef struct wi_pod {
	const char *ns, *name, *owner_kind, *owner_name, *owner_uid, *daemon_node, *labels;
	int64_t class_id, workload_id, batch;
	const char *extra[8];        /* label key, value pairs */
	int nextra;
} wi_pod;

/* a pending pod of the scenario (a new negative id), its labels, and its row for run_pod */
int wi_add_pod(wctx *c, wi_op *op, const wi_pod *p);
/* 1 when a pod NS/NAME exists (in the scenario or imported), 0 not, <0 error */
int wi_pod_name_used(wctx *c, const char *ns, const char *name);

/* whatif_parse.c: op's fields from value; KP_USAGE naming the option */
int wi_parse_op(wi_op *op, const char *option, const char *value, kp_err *err);

/* one per option kind: change the scenario, say what it did in op->effect */
int wi_apply_remove(wctx *c, wi_op *op);                 /* whatif_nodes.c */
int wi_apply_cordon(wctx *c, wi_op *op, int drain);
int wi_apply_add_nodes(wctx *c, wi_op *op);              /* whatif_add_nodes.c */

/* whatif_add_slices.c: the ResourceSlices of the node template imported into
 * m, whose Node is named node — refused unless each is node-local to it
 * (spec.nodeName: node), and in a database without the DRA tables.  *out
 * NULL (and *nslices 0) when the template has none; free it also after an
 * error.  The TEMP copies of the slice tables are made here. */
typedef struct wi_slices wi_slices;
int wi_slices_count(wctx *c, wi_op *op, sqlite3 *m, long *nslices);
int wi_slices_read(wctx *c, wi_op *op, sqlite3 *m, const char *node, wi_slices **out, long *nslices);
/* a copy of each for the added node named node (NULL s: nothing) */
int wi_slices_add(wctx *c, wi_slices *s, const char *node);
long wi_slices_devices(const wi_slices *s);
void wi_slices_free(wi_slices *s);   /* NULL ok */
int wi_apply_scale(wctx *c, wi_op *op);                  /* whatif_scale.c */
int wi_apply_add_pods(wctx *c, wi_op *op);               /* whatif_add_pods.c */
int wi_apply_remove_pods(wctx *c, wi_op *op);            /* whatif_fix.c */
int wi_apply_move_pods(wctx *c, wi_op *op);              /* whatif_fix.c */
int wi_apply_untaint(wctx *c, wi_op *op);
int wi_apply_relax(wctx *c, wi_op *op);
int wi_apply_from_run(wctx *c, wi_op *op);               /* whatif_mode.c */
int wi_apply_full(wctx *c, wi_op *op);
void wi_apply_strategy(kp_config *cfg, wi_op *op);

/* whatif_gang.c: add-pods of a spec in a scheduling group (docs/gangs.md) */
typedef struct wi_gang {
	int on;                      /* the copies come in gangs */
	char *group;                 /* the PodGroup the spec names */
	int64_t min_count, size;     /* its minCount (1: basic); copies per gang */
} wi_gang;
/* the spec's group (file database m; id: the Pod's or workload's); an
 * error when it names a PodGroup the cluster lacks.  Free g->group. */
int wi_gang_spec(wctx *c, wi_op *op, sqlite3 *m, int workload, int64_t id, const char *ns, wi_gang *g);
/* copy number made (0-based) with pod id pod_id joins its gang */
int wi_gang_add_pod(wctx *c, const wi_gang *g, const char *ns, int64_t pod_id, long made);

#endif
