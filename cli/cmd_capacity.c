/*
 * cmd_capacity.c — `kplan capacity DB`: capacity planning with the real
 * planner (README "Capacity planning").
 *
 *   --pod FILE | --workload NS/NAME   how many more replicas fit after the
 *                                     pending pods, where, and why not one more
 *   --nodes-needed --node-template F  how many nodes of that shape to add so
 *                                     that every pending pod fits
 *   --survive node|zone               does everything still fit after losing
 *                                     the worst node or zone
 *
 * Every answer comes from plan runs in what-if scenarios (planner/whatif.h):
 * dry runs (kp_plan_opts.dry_run), each rolled back, read through the
 * on_pod / on_node hooks; nothing is left in run or placement.  The answer is
 * then written in one transaction to the capacity_* tables (schema.sql,
 * "capacity").
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/plan.h"
#include "../planner/whatif.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <time.h>
#include <stdarg.h>
#include <stdint.h>

const char cmd_capacity_help[] =
	"usage: kplan capacity [options] DB --pod FILE | --workload NS/NAME\n"
	"       kplan capacity [options] DB --nodes-needed --node-template FILE\n"
	"       kplan capacity [options] DB --survive node|zone\n"
	"\n"
	"Capacity planning with the real planner: every answer is a plan of a what-if\n"
	"scenario (dry runs: nothing is added to run or placement); the answer, with the\n"
	"quality certificate of its plan (nodes used per pool against a lower bound,\n"
	"stranded capacity), is appended to the capacity_* tables and shown by\n"
	"`kplan report`.\n"
	"\n"
	"Options:\n"
	"  --pod FILE                a Pod, or a workload whose pod template is used (YAML or\n"
	"                            JSON, read by the importer): how many more copies fit after\n"
	"                            the pending pods, per node and per pool, and why the next\n"
	"                            one does not\n"
	"  --workload NS/NAME        the same for an imported workload (NS/KIND/NAME when the\n"
	"                            name is ambiguous): more replicas, as --scale adds them\n"
	"  --max N                   try at most N replicas (default: what the free capacity\n"
	"                            could hold for the pod's scarcest resource, plus 1)\n"
	"  --pool-label KEY          the node label that names a pool, for the replicas per pool\n"
	"                            and the quality certificate (default\n"
	"                            node.kubernetes.io/instance-type)\n"
	"  --nodes-needed            how many nodes like --node-template must be added so that\n"
	"                            every pending pod fits (exponential, then binary search)\n"
	"  --node-template FILE      a Node manifest (exactly one Node)\n"
	"  --max-nodes N             search up to N added nodes (default 1000)\n"
	"  --survive node|zone       re-plan without each node (or zone, label\n"
	"                            topology.kubernetes.io/zone): pods left unschedulable and\n"
	"                            the headroom per resource; the worst one\n"
	"  --limit K                 --survive: only the K most loaded nodes (or zones)\n"
	"  --preemption              let DefaultPreemption run (default: no preemption)\n"
	"  --seed N                  tie-break seed of the plans (default 1)\n"
	"  --config FILE             a KubeSchedulerConfiguration, as for `kplan plan`\n"
	"  --format text|json        the summary on stdout (default text)\n"
	"  -q, --quiet               no summary, no progress line\n"
	"  -h, --help                this help\n"
	"\n"
	"Examples:\n"
	"  kplan capacity cluster.db --pod web.yaml\n"
	"  kplan capacity cluster.db --workload shop/web --pool-label pool\n"
	"  kplan capacity cluster.db --nodes-needed --node-template m5-4xlarge.yaml\n"
	"  kplan capacity cluster.db --survive zone\n";

#define CAP_MAX_REPLICAS 1000000
#define POOL_LABEL_DEFAULT "node.kubernetes.io/instance-type"

/* ---- small vectors ---- */

typedef struct unfit {
	char *ns, *name, *msg;
} unfit;

typedef struct res_total {
	char name[64];
	int64_t alloc, free;
} res_total;

/* The quality certificate of a plan (planner/quality.h): its plan_quality and
 * plan_stranded rows, read inside the dry run (on_quality) and written to
 * capacity_quality and capacity_stranded with the answer; the columns are
 * the same in both tables. */
enum { Q_POOL, Q_STRANDED };
static const char *const q_cols[] = {
	[Q_POOL] = "pool, nodes, nodes_used, pods, bound, bound_by, requests_bound, large_pods_bound, anti_affinity_bound, gap_pct",
	[Q_STRANDED] = "pool, resource, nodes, allocatable, free, stranded, stranded_nodes, stranded_pct, exhausted_by",
};
static const char *const q_order[] = {
	[Q_POOL] = "pool = '(none)', pool",
	[Q_STRANDED] = "pool = '(none)', pool, resource <> 'cpu', resource <> 'memory', resource",
};
static const char *const q_src[] = { [Q_POOL] = "plan_quality", [Q_STRANDED] = "plan_stranded" };
static const char *const q_dst[] = { [Q_POOL] = "capacity_quality", [Q_STRANDED] = "capacity_stranded" };
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

static void qual_release(qual *q)
{
	for (int i = 0; i < q->n; i++)
		for (int k = 0; k < q->v[i].n; k++)
			sqlite3_value_free(q->v[i].v[k]);
	kp_free(q->v);
	memset(q, 0, sizeof *q);
}

/* *dst = src, src left empty */
static void qual_take(qual *dst, qual *src)
{
	qual_release(dst);
	*dst = *src;
	memset(src, 0, sizeof *src);
}

/* what one plan run says */
typedef struct outcome {
	long copies, copies_placed;           /* pods of the scenario (id < 0) */
	int64_t first_fail_id;                /* the first copy left out (0 none) */
	char *first_fail_msg;
	int64_t copy_class;
	int64_t *copy_nodes;                  /* node id of each placed copy */
	long ncopy_nodes, cap_copy_nodes;
	long unsched;                         /* imported pods (id > 0) without a node: unschedulable or evicted */
	long displaced, displaced_lost;       /* pods the scenario took off a node; of them without a node */
	unfit *unfits;                        /* the first 50 of unsched */
	int nunfits;
	long never;                           /* of unsched: not even an empty added node would take them */
	unfit *nevers;                        /* the first 50 of those */
	int nnevers;
	res_total res[32];                    /* per resource over the nodes of the run */
	int nres;
	res_total tmpl[32];                   /* resources of the first added node (id < 0) */
	int ntmpl;
	int64_t tmpl_node;
	qual q;                               /* with cap.want_quality: the plan's quality certificate */
} outcome;

static void unfits_release(unfit *v, int n)
{
	for (int i = 0; i < n; i++) {
		kp_free(v[i].ns);
		kp_free(v[i].name);
		kp_free(v[i].msg);
	}
	kp_free(v);
}

static void outcome_release(outcome *o)
{
	kp_free(o->first_fail_msg);
	kp_free(o->copy_nodes);
	unfits_release(o->unfits, o->nunfits);
	unfits_release(o->nevers, o->nnevers);
	qual_release(&o->q);
	memset(o, 0, sizeof *o);
}

typedef struct cap {
	sqlite3 *db;
	kp_err *err;
	uint64_t seed;
	int preemption;
	const char *config;
	outcome *cur;
	long plans;
	int progress_on;
	kp_progress prog;
	/* the probe run of --pod / --workload: what the spec requests and the
	 * default --max, read inside the run's transaction (a --pod spec's class
	 * exists only there) */
	int probe;
	kp_sb *probe_req;
	int64_t probe_max;
	int want_quality;                     /* read the plans' quality certificates (outcome.q) */
	const char *pool_label;
} cap;

static int requests_text(cap *c, int64_t class_id, kp_sb *sb);
static int default_max(cap *c, int64_t class_id, int64_t *out);

/* keep the first 50 pods of a list; -1 when out of memory */
static int add_unfit(unfit **v, int *n, const kp_plan_pod *p)
{
	if (*n >= 50)
		return 0;
	if (!*v && !(*v = kp_calloc(50, sizeof **v)))
		return -1;
	unfit *u = &(*v)[(*n)++];
	u->ns = kp_strdup(p->ns);
	u->name = kp_strdup(p->name);
	u->msg = kp_strdup(p->message ? p->message : p->action);
	return u->ns && u->name && u->msg ? 0 : -1;
}

static int on_pod(void *ctx, const kp_plan_pod *p)
{
	cap *c = ctx;
	outcome *o = c->cur;
	int placed = p->node != NULL && strcmp(p->action, "evict") && strcmp(p->action, "unschedulable");
	int lost = !strcmp(p->action, "unschedulable") || !strcmp(p->action, "evict");
	if (p->pod_id < 0) {
		/* a pod of the scenario: the copies of --pod / --workload, or the
		 * DaemonSet pods of added nodes (--nodes-needed: not counted) */
		o->copies++;
		if (!o->copy_class) {
			o->copy_class = p->class_id;
			if (c->probe && (requests_text(c, p->class_id, c->probe_req) || default_max(c, p->class_id, &c->probe_max)))
				return c->err->code;
		}
		if (placed) {
			o->copies_placed++;
			if (KP_GROW(o->copy_nodes, o->ncopy_nodes, o->cap_copy_nodes, 256))
				return kp_err_set(c->err, KP_NOMEM, "out of memory");
			o->copy_nodes[o->ncopy_nodes++] = p->node_id;
		} else if (lost && (!o->first_fail_id || p->pod_id < o->first_fail_id)) {
			kp_free(o->first_fail_msg);
			o->first_fail_msg = kp_strdup(p->message ? p->message : "unschedulable");
			o->first_fail_id = p->pod_id;
			if (!o->first_fail_msg)
				return kp_err_set(c->err, KP_NOMEM, "out of memory");
		}
		return KP_OK;
	}
	if (p->displaced && strcmp(p->action, "keep")) {
		o->displaced++;
		o->displaced_lost += lost;
	}
	if (!lost)
		return KP_OK;
	o->unsched++;
	o->never += p->fits_empty_added == 0;
	if (add_unfit(&o->unfits, &o->nunfits, p) || (p->fits_empty_added == 0 && add_unfit(&o->nevers, &o->nnevers, p)))
		return kp_err_set(c->err, KP_NOMEM, "out of memory");
	return KP_OK;
}

static void add_res(res_total *v, int *n, const char *name, int64_t alloc, int64_t free)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(v[i].name, name)) {
			v[i].alloc += alloc;
			v[i].free += free;
			return;
		}
	if (*n == 32)
		return;
	snprintf(v[*n].name, sizeof v[*n].name, "%s", name);
	v[*n].alloc = alloc;
	v[*n].free = free;
	(*n)++;
}

static int on_node(void *ctx, const kp_plan_node *n)
{
	cap *c = ctx;
	outcome *o = c->cur;
	int64_t free = n->allocatable > n->requested ? n->allocatable - n->requested : 0;
	add_res(o->res, &o->nres, n->resource, n->allocatable, free);
	if (n->node_id < 0 && (!o->tmpl_node || o->tmpl_node == n->node_id)) {
		o->tmpl_node = n->node_id;
		add_res(o->tmpl, &o->ntmpl, n->resource, n->allocatable, n->allocatable);
	}
	return KP_OK;
}

/* the dry run's plan_quality and plan_stranded rows, into c->cur->q */
static int on_quality(void *ctx, sqlite3 *db, int64_t run_id)
{
	cap *c = ctx;
	qual *q = &c->cur->q;
	for (int t = Q_POOL; t <= Q_STRANDED; t++) {
		char sql[512];
		snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE run_id = ?1 ORDER BY %s", q_cols[t], q_src[t], q_order[t]);
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
			return kp_err_set(c->err, KP_IO, "cannot read the plan quality: %s", sqlite3_errmsg(db));
		sqlite3_bind_int64(s, 1, run_id);
		int nc = sqlite3_column_count(s), rc = KP_OK, step;
		while (rc == KP_OK && (step = sqlite3_step(s)) == SQLITE_ROW) {
			if (KP_GROW(q->v, q->n, q->cap, 16)) {
				rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
				break;
			}
			qrow *r = &q->v[q->n++];
			r->table = t;
			r->n = 0;
			for (int k = 0; k < nc && k < Q_MAXCOLS; k++)
				if (!(r->v[r->n++] = sqlite3_value_dup(sqlite3_column_value(s, k))))
					rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		}
		if (rc == KP_OK && step != SQLITE_DONE)
			rc = kp_err_set(c->err, kp_interrupted ? KP_INTR : KP_IO, "cannot read the plan quality: %s",
					kp_interrupted ? "interrupted" : sqlite3_errmsg(db));
		sqlite3_finalize(s);
		if (rc)
			return rc;
	}
	return KP_OK;
}

/* One dry plan run of the scenario given as (option, value) pairs; *o holds what it says. */
static int plan_once(cap *c, const char *const *wopts, int nw, outcome *o)
{
	memset(o, 0, sizeof *o);
	kp_whatif *w = NULL;
	if (nw && !(w = kp_whatif_new()))
		return kp_err_set(c->err, KP_NOMEM, "out of memory");
	for (int i = 0; i < nw; i++)
		if (kp_whatif_add(w, wopts[2 * i], wopts[2 * i + 1], c->err) != KP_OK) {
			kp_whatif_free(w);
			return c->err->code;
		}
	kp_plan_opts po = { .seed = c->seed, .no_preemption = !c->preemption, .config_file = c->config, .dry_run = 1,
			    .whatif = w, .on_pod = on_pod, .on_node = on_node, .result_ctx = c,
			    .on_quality = c->want_quality ? on_quality : NULL, .pool_label = c->pool_label };
	kp_plan_result r;
	c->cur = o;
	int rc = kp_plan_run(c->db, &po, &r, c->err);
	c->cur = NULL;
	kp_whatif_free(w);
	c->plans++;
	return rc;
}

/* ---- output helpers ---- */

static void fmt_amount(const char *res, int64_t v, char *buf, size_t size)
{
	if (!strcmp(res, "cpu")) {
		/* whole cpus; millicores below 10 cpus; else cpus with one decimal,
		 * so that amounts side by side read in one unit */
		if (v % 1000 == 0)
			snprintf(buf, size, "%lld", (long long)(v / 1000));
		else if (v >= 10000)
			snprintf(buf, size, "%.1f", (double)v / 1000);
		else
			snprintf(buf, size, "%lldm", (long long)v);
	} else if (!strcmp(res, "memory") || !strcmp(res, "ephemeral-storage")) {
		static const char *const u[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
		int k = 0;
		double d = (double)v;
		while (k < 5 && d >= 1024) {
			d /= 1024;
			k++;
		}
		if (d == (double)(int64_t)d)
			snprintf(buf, size, "%lld%s", (long long)d, u[k]);
		else
			snprintf(buf, size, "%.1f%s", d, u[k]);
	} else {
		snprintf(buf, size, "%lld", (long long)v);
	}
}

/* ---- writing ---- */

/* schema.sql's capacity section (CREATE TABLE IF NOT EXISTS), for databases made before it */
static int ensure_tables(sqlite3 *db, kp_err *err)
{
	return kp_db_schema_section(db, "capacity", "capacity tables", err);
}

/* the answer, as the modes fill it */
typedef struct answer {
	const char *kind;
	char subject[1100];
	int64_t value, bound;                 /* INT64_MIN: NULL */
	const char *status;
	char *reason;
	kp_sb result;                         /* JSON object */
	kp_sb text;                           /* the human summary */
	kp_sb rows;                           /* SQL statements' parameters are bound below; rows are kept here */
	qual q;                               /* the quality certificate of the plan that gives the answer */
	char q_of[1200];                      /* which plan that is; "" none */
} answer;

/* rows of the detail tables, kept until the write transaction */
typedef struct row {
	int table;                            /* T_* */
	char *a, *b;                          /* text columns */
	int64_t v[6];
} row;
enum { T_NODE, T_POOL, T_SEARCH, T_DOMAIN, T_HEADROOM, T_UNFIT };

typedef struct rows {
	row *v;
	int n, cap;
} rows;

static int add_row(rows *r, int table, const char *a, const char *b, int64_t v0, int64_t v1, int64_t v2, int64_t v3,
		   int64_t v4, int64_t v5)
{
	if (KP_GROW(r->v, r->n, r->cap, 64))
		return -1;
	row *x = &r->v[r->n++];
	x->table = table;
	x->a = a ? kp_strdup(a) : NULL;
	x->b = b ? kp_strdup(b) : NULL;
	int64_t v[6] = { v0, v1, v2, v3, v4, v5 };
	memcpy(x->v, v, sizeof v);
	return (a && !x->a) || (b && !x->b) ? -1 : 0;
}

static void rows_release(rows *r)
{
	for (int i = 0; i < r->n; i++) {
		kp_free(r->v[i].a);
		kp_free(r->v[i].b);
	}
	kp_free(r->v);
}

static const char *const row_sql[] = {
	[T_NODE] = "INSERT INTO capacity_node(capacity_id, node, pool, replicas) VALUES(?1, ?2, ?3, ?4)",
	[T_POOL] = "INSERT INTO capacity_pool(capacity_id, pool, nodes, nodes_used, replicas) VALUES(?1, ?2, ?4, ?5, ?6)",
	[T_SEARCH] = "INSERT INTO capacity_search(capacity_id, step, nodes, unschedulable, fits) VALUES(?1, ?4, ?5, ?6, ?7)",
	[T_DOMAIN] = "INSERT INTO capacity_domain(capacity_id, domain, nodes, pods_displaced, pods_lost, unschedulable, "
		     "extra_unschedulable, survives) VALUES(?1, ?2, ?4, ?5, ?6, ?7, ?8, ?8 <= 0)",
	[T_HEADROOM] = "INSERT INTO capacity_headroom(capacity_id, domain, resource, allocatable, free) VALUES(?1, ?2, ?3, ?4, ?5)",
	[T_UNFIT] = "INSERT INTO capacity_unfit(capacity_id, namespace, pod, reason) VALUES(?1, ?2, ?3, ?10)",
};

typedef struct write_ctx {
	int quiet, json;
	answer *a;
	rows *rows;
	const char *options;
	double t0;
	long plans;
} write_ctx;

static int write_answer(cap *c, write_ctx *w, int64_t *id_out)
{
	sqlite3 *db = c->db;
	kp_err *err = c->err;
	answer *a = w->a;
	int rc = kp_db_begin(db, err);
	if (rc)
		return rc;
	char now[32];
	kp_format_time((int64_t)time(NULL), now, sizeof now);
	if ((rc = ensure_tables(db, err)) ||
	    (rc = kp_db_exec(db, err, "cannot write the capacity tables", "INSERT INTO capacity_run(started, kind, subject, options, answer, bound, status, "
				       "reason, result, plans, elapsed, kplan) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
			      "ttttnnttt" "idt", now, a->kind, a->subject, w->options, a->value, a->bound, a->status, a->reason,
			      kp_sb_str(&a->result), (int64_t)w->plans, kp_cli_now() - w->t0, KPLAN_VERSION)))
		goto out;
	int64_t id = sqlite3_last_insert_rowid(db);
	*id_out = id;
	for (int i = 0; i < w->rows->n && !rc; i++) {
		const row *x = &w->rows->v[i];
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(db, row_sql[x->table], -1, &s, NULL) != SQLITE_OK) {
			rc = kp_err_set(err, KP_IO, "cannot write the capacity tables: %s", sqlite3_errmsg(db));
			break;
		}
		int np = sqlite3_bind_parameter_count(s);
		sqlite3_bind_int64(s, 1, id);
		if (np >= 2 && x->a)
			sqlite3_bind_text(s, 2, x->a, -1, SQLITE_STATIC);
		if (np >= 3 && x->b && x->table != T_UNFIT)
			sqlite3_bind_text(s, 3, x->b, -1, SQLITE_STATIC);
		for (int k = 0; k < 6 && k + 4 <= np; k++)
			sqlite3_bind_int64(s, k + 4, x->v[k]);
		if (x->table == T_UNFIT) {
			/* a = namespace, b = "name\nreason" */
			const char *nl = x->b ? strchr(x->b, '\n') : NULL;
			sqlite3_bind_text(s, 3, x->b ? x->b : "", nl ? (int)(nl - x->b) : -1, SQLITE_STATIC);
			sqlite3_bind_text(s, 10, nl ? nl + 1 : "", -1, SQLITE_STATIC);
		}
		int step = sqlite3_step(s);
		sqlite3_finalize(s);
		if (step != SQLITE_DONE)
			rc = kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the capacity tables: %s",
					kp_interrupted ? "interrupted" : sqlite3_errmsg(db));
	}
	for (int i = 0; i < a->q.n && !rc; i++) {
		const qrow *x = &a->q.v[i];
		char sql[512], ph[8 * Q_MAXCOLS] = "";
		for (int k = 0; k < x->n; k++)
			snprintf(ph + strlen(ph), sizeof ph - strlen(ph), ", ?%d", k + 2);
		snprintf(sql, sizeof sql, "INSERT INTO %s(capacity_id, %s) VALUES(?1%s)", q_dst[x->table], q_cols[x->table], ph);
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
			rc = kp_err_set(err, KP_IO, "cannot write the capacity tables: %s", sqlite3_errmsg(db));
			break;
		}
		sqlite3_bind_int64(s, 1, id);
		for (int k = 0; k < x->n; k++)
			sqlite3_bind_value(s, k + 2, x->v[k]);
		int step = sqlite3_step(s);
		sqlite3_finalize(s);
		if (step != SQLITE_DONE)
			rc = kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the capacity tables: %s",
					kp_interrupted ? "interrupted" : sqlite3_errmsg(db));
	}
	if (rc)
		goto out;
	/* the summary, before COMMIT: a lost summary means nothing was written */
	if (!w->quiet) {
		if (c->progress_on)
			kp_progress_clear(&c->prog);
		if (w->json)
			printf("{\"capacity_id\":%lld,%s\n", (long long)id, kp_sb_str(&a->result) + 1);
		else
			printf("capacity %lld: %s", (long long)id, kp_sb_str(&a->text));
		fflush(stdout);
		if (ferror(stdout)) {
			rc = kp_err_set(err, KP_IO, "error writing output");
			goto out;
		}
	}
	rc = kp_db_commit(db, err);
	return rc;
out:
	kp_db_rollback(db);
	return rc;
}

/* ---- the quality certificate in the summary ---- */

static void json_value(kp_sb *j, sqlite3_value *v)
{
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER: kp_sb_printf(j, "%lld", (long long)sqlite3_value_int64(v)); break;
	case SQLITE_FLOAT: kp_sb_printf(j, "%.1f", sqlite3_value_double(v)); break;
	case SQLITE_NULL: kp_sb_adds(j, "null"); break;
	default: kp_sb_add_json_str(j, (const char *)sqlite3_value_text(v)); break;
	}
}

/* the rows of table t as a JSON array of objects named by q_cols */
static void quality_json(kp_sb *j, const qual *q, int t)
{
	kp_sb_adds(j, "[");
	int first = 1;
	for (int i = 0; i < q->n; i++) {
		if (q->v[i].table != t)
			continue;
		kp_sb_adds(j, first ? "{" : ",{");
		first = 0;
		const char *col = q_cols[t];
		for (int k = 0; k < q->v[i].n; k++) {
			size_t len = strcspn(col, ",");
			kp_sb_adds(j, k ? ",\"" : "\"");
			kp_sb_add(j, col, len);
			kp_sb_adds(j, "\":");
			json_value(j, q->v[i].v[k]);
			col += len;
			col += strspn(col, ", ");
		}
		kp_sb_adds(j, "}");
	}
	kp_sb_adds(j, "]");
}

/* Append the answer's certificate to its summary (text) and result (JSON,
 * inside its outer object): per pool the nodes used against the lower bound
 * and the gap, and the stranded capacity. */
static void quality_summary(answer *a, const char *pool_label)
{
	kp_sb *t = &a->text, *j = &a->result;
	if (!a->q_of[0] || !j->buf || !j->len || j->buf[j->len - 1] != '}')
		return;
	j->buf[--j->len] = 0;
	kp_sb_adds(j, ",\"quality\":{\"plan\":");
	kp_sb_add_json_str(j, a->q_of);
	kp_sb_adds(j, ",\"pool_label\":");
	kp_sb_add_json_str(j, pool_label);
	kp_sb_adds(j, ",\"pools\":");
	quality_json(j, &a->q, Q_POOL);
	kp_sb_adds(j, ",\"stranded\":");
	quality_json(j, &a->q, Q_STRANDED);
	kp_sb_adds(j, "}}");
	kp_sb_printf(t, "quality of %s (pools by label %s):\n%-30s %6s %10s %6s %6s %-28s %s\n", a->q_of, pool_label, "pool",
		     "nodes", "nodes_used", "pods", "bound", "bound_by", "gap");
	int stranded = 0;
	for (int i = 0; i < a->q.n; i++) {
		sqlite3_value *const *v = a->q.v[i].v;
		if (a->q.v[i].table == Q_STRANDED) {
			stranded += sqlite3_value_int64(v[5]) > 0;
			continue;
		}
		char gap[32] = "-";
		if (sqlite3_value_type(v[9]) != SQLITE_NULL)
			snprintf(gap, sizeof gap, "%.1f %%", sqlite3_value_double(v[9]));
		const char *by = (const char *)sqlite3_value_text(v[5]);
		kp_sb_printf(t, "%-30s %6lld %10lld %6lld %6lld %-28s %s\n", (const char *)sqlite3_value_text(v[0]),
			     (long long)sqlite3_value_int64(v[1]), (long long)sqlite3_value_int64(v[2]),
			     (long long)sqlite3_value_int64(v[3]), (long long)sqlite3_value_int64(v[4]), by ? by : "-", gap);
	}
	if (!stranded) {
		kp_sb_adds(t, "stranded capacity: none\n");
		return;
	}
	kp_sb_adds(t, "stranded capacity (free on used nodes where another resource is exhausted):\n");
	for (int i = 0; i < a->q.n; i++) {
		sqlite3_value *const *v = a->q.v[i].v;
		if (a->q.v[i].table != Q_STRANDED || sqlite3_value_int64(v[5]) <= 0)
			continue;
		const char *res = (const char *)sqlite3_value_text(v[1]);
		char st[64], al[64];
		fmt_amount(res, sqlite3_value_int64(v[5]), st, sizeof st);
		fmt_amount(res, sqlite3_value_int64(v[3]), al, sizeof al);
		kp_sb_printf(t, "  %s: %s %s of %s (%.1f %%) on %lld of %lld used nodes; exhausted: %s\n",
			     (const char *)sqlite3_value_text(v[0]), res, st, al, sqlite3_value_double(v[7]),
			     (long long)sqlite3_value_int64(v[6]), (long long)sqlite3_value_int64(v[2]),
			     sqlite3_value_type(v[8]) == SQLITE_NULL ? "-" : (const char *)sqlite3_value_text(v[8]));
	}
}

/* ---- --pod / --workload ---- */

typedef struct node_pool {
	int64_t id;
	char *name, *pool;
	long replicas;
} node_pool;

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int load_nodes(cap *c, const char *label, node_pool **out, int *n)
{
	sqlite3_stmt *s;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(c->db, "SELECT n.id, n.name, COALESCE(l.value, '(none)') FROM node n LEFT JOIN node_label l "
				      "ON l.node_id = n.id AND l.key = ?1 ORDER BY n.id", -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "%s", sqlite3_errmsg(c->db));
	sqlite3_bind_text(s, 1, label, -1, SQLITE_STATIC);
	int cap_ = 0, rc = KP_OK, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (KP_GROW(*out, *n, cap_, 64)) {
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
			break;
		}
		node_pool *x = &(*out)[(*n)++];
		x->id = sqlite3_column_int64(s, 0);
		x->name = kp_strdup((const char *)sqlite3_column_text(s, 1));
		x->pool = kp_strdup((const char *)sqlite3_column_text(s, 2));
		x->replicas = 0;
		if (!x->name || !x->pool) {
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_err_set(c->err, kp_interrupted ? KP_INTR : KP_IO, "%s", kp_interrupted ? "interrupted" : sqlite3_errmsg(c->db));
	sqlite3_finalize(s);
	return rc;
}

static void nodes_release(node_pool *v, int n)
{
	for (int i = 0; i < n; i++) {
		kp_free(v[i].name);
		kp_free(v[i].pool);
	}
	kp_free(v);
}

/* The default --max: over the nodes, the replicas the free capacity (allocatable
 * minus the bound pods' requests; free pod slots) holds for the scarcest
 * resource the pod requests, plus 1; CAP_MAX_REPLICAS when a node has no limit. */
static int default_max(cap *c, int64_t class_id, int64_t *out)
{
	static const char sql[] =
		"WITH req AS (SELECT resource, value FROM class_request WHERE class_id = ?1 AND value > 0 AND resource <> 'pods'),\n"
		" per_res AS (\n"
		"  SELECT n.id AS node_id, max(0, COALESCE(r.allocatable, 0) - COALESCE((SELECT sum(q2.value) FROM pod p\n"
		"   JOIN class_request q2 ON q2.class_id = p.class_id AND q2.resource = q.resource WHERE p.node_name = n.name\n"
		"   AND p.phase NOT IN ('Succeeded', 'Failed')), 0)) / q.value AS k\n"
		"  FROM node n CROSS JOIN req q LEFT JOIN node_resource r ON r.node_id = n.id AND r.resource = q.resource\n"
		"  UNION ALL\n"
		"  SELECT n.id, max(0, r.allocatable - (SELECT count(*) FROM pod p WHERE p.node_name = n.name\n"
		"   AND p.phase NOT IN ('Succeeded', 'Failed'))) FROM node n JOIN node_resource r ON r.node_id = n.id\n"
		"   AND r.resource = 'pods'),\n"
		" per AS (SELECT node_id, min(k) AS k FROM per_res GROUP BY node_id)\n"
		"SELECT COALESCE(sum(min(k, ?2)), 0), (SELECT count(*) FROM node) - count(*) FROM per";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "%s", sqlite3_errmsg(c->db));
	sqlite3_bind_int64(s, 1, class_id);
	sqlite3_bind_int64(s, 2, CAP_MAX_REPLICAS);
	int step = sqlite3_step(s);
	int64_t sum = step == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	int64_t unlimited = step == SQLITE_ROW ? sqlite3_column_int64(s, 1) : 0;
	sqlite3_finalize(s);
	if (step != SQLITE_ROW)
		return kp_err_set(c->err, kp_interrupted ? KP_INTR : KP_IO, "%s", kp_interrupted ? "interrupted" : sqlite3_errmsg(c->db));
	*out = unlimited || sum + 1 > CAP_MAX_REPLICAS ? CAP_MAX_REPLICAS : sum + 1;
	return KP_OK;
}

static int requests_text(cap *c, int64_t class_id, kp_sb *sb)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT resource, value FROM class_request WHERE class_id = ?1 AND value > 0 "
				      "ORDER BY resource <> 'cpu', resource <> 'memory', resource", -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "%s", sqlite3_errmsg(c->db));
	sqlite3_bind_int64(s, 1, class_id);
	int n = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		char buf[64];
		const char *res = (const char *)sqlite3_column_text(s, 0);
		fmt_amount(res, sqlite3_column_int64(s, 1), buf, sizeof buf);
		kp_sb_printf(sb, "%s%s %s", n++ ? ", " : "", res, buf);
	}
	sqlite3_finalize(s);
	if (!n)
		kp_sb_adds(sb, "nothing");
	return KP_OK;
}

/* what-if option for n copies of the spec */
static void copies_opt(const char *pod_file, const char *workload, long n, char *opt, size_t size, const char **name)
{
	if (pod_file) {
		snprintf(opt, size, "%s:%ld", pod_file, n);
		*name = "add-pods";
	} else {
		snprintf(opt, size, "%s=+%ld", workload, n);
		*name = "scale";
	}
}

static int mode_pod(cap *c, const char *pod_file, const char *workload, int64_t max, const char *pool_label, answer *a,
		    rows *rws)
{
	char opt[2200];
	const char *wo[2];
	outcome probe, run;
	memset(&run, 0, sizeof run);
	/* probe: one copy (checks the file or the workload; gives the spec's class) */
	copies_opt(pod_file, workload, 1, opt, sizeof opt, &wo[0]);
	wo[1] = opt;
	kp_sb req;
	kp_sb_init(&req);
	c->probe = 1;
	c->probe_req = &req;
	int rc = plan_once(c, wo, 1, &probe);
	c->probe = 0;
	long pending_unsched = probe.unsched;
	outcome_release(&probe);
	if (rc) {
		kp_sb_release(&req);
		return rc;
	}
	int defaulted = max <= 0;
	if (defaulted)
		max = c->probe_max;
	snprintf(a->subject, sizeof a->subject, "%s", pod_file ? pod_file : workload);
	copies_opt(pod_file, workload, (long)max, opt, sizeof opt, &wo[0]);
	c->want_quality = 1;
	rc = plan_once(c, wo, 1, &run);
	c->want_quality = 0;
	if (rc) {
		outcome_release(&run);
		kp_sb_release(&req);
		return rc;
	}
	node_pool *nodes = NULL;
	int nn = 0;
	if ((rc = load_nodes(c, pool_label, &nodes, &nn))) {
		outcome_release(&run);
		kp_sb_release(&req);
		return rc;
	}
	/* replicas per node: node ids sorted, counted, matched to the sorted nodes */
	kp_sort(run.copy_nodes, (size_t)run.ncopy_nodes, sizeof *run.copy_nodes, cmp_i64);
	for (long i = 0, k = 0; i < run.ncopy_nodes; i++) {
		while (k < nn && nodes[k].id < run.copy_nodes[i])
			k++;
		if (k < nn && nodes[k].id == run.copy_nodes[i])
			nodes[k].replicas++;
	}
	long fits = run.copies_placed;
	qual_take(&a->q, &run.q);
	snprintf(a->q_of, sizeof a->q_of, "the plan with the %ld replica%s placed", fits, fits == 1 ? "" : "s");
	a->kind = "pod";
	a->value = fits;
	a->bound = max;
	int limited = run.first_fail_id != 0;
	a->status = limited ? "limited" : "max-reached";
	a->reason = kp_strdup(limited ? run.first_fail_msg
				      : "--max reached: every replica tried fits (more may fit; raise --max)");
	kp_sb *t = &a->text, *j = &a->result;
	kp_sb_printf(t, "%ld more replica%s of %s (requests: %s) fit%s after the pending pods (%ld of them "
		     "unschedulable); %lld tried%s\n", fits, fits == 1 ? "" : "s", a->subject, kp_sb_str(&req),
		     fits == 1 ? "s" : "", pending_unsched, (long long)max, defaulted ? " (the bound from free capacity, plus 1)" : "");
	if (limited)
		kp_sb_printf(t, "the next one does not fit: %s\n", a->reason);
	else
		kp_sb_printf(t, "%s\n", a->reason);
	kp_sb_adds(j, "{\"kind\":\"pod\",\"subject\":");
	kp_sb_add_json_str(j, a->subject);
	kp_sb_adds(j, ",\"requests\":");
	kp_sb_add_json_str(j, kp_sb_str(&req));
	kp_sb_printf(j, ",\"fits\":%ld,\"tried\":%lld,\"max_default\":%s,\"pending_unschedulable\":%ld,\"next_reason\":", fits,
		     (long long)max, defaulted ? "true" : "false", pending_unsched);
	kp_sb_add_json_str(j, limited ? a->reason : NULL);
	kp_sb_adds(j, ",\"pool_label\":");
	kp_sb_add_json_str(j, pool_label);
	/* per node (those with replicas), per pool (every pool) */
	kp_sb_adds(j, ",\"nodes\":[");
	int first = 1;
	if (fits)
		kp_sb_printf(t, "%-30s %-24s %s\n", "node", "pool", "replicas");
	for (int i = 0; i < nn && !rc; i++) {
		if (!nodes[i].replicas)
			continue;
		kp_sb_printf(t, "%-30s %-24s %ld\n", nodes[i].name, nodes[i].pool, nodes[i].replicas);
		kp_sb_adds(j, first ? "{\"node\":" : ",{\"node\":");
		first = 0;
		kp_sb_add_json_str(j, nodes[i].name);
		kp_sb_adds(j, ",\"pool\":");
		kp_sb_add_json_str(j, nodes[i].pool);
		kp_sb_printf(j, ",\"replicas\":%ld}", nodes[i].replicas);
		if (add_row(rws, T_NODE, nodes[i].name, nodes[i].pool, nodes[i].replicas, 0, 0, 0, 0, 0))
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	}
	kp_sb_adds(j, "],\"pools\":[");
	kp_sb_printf(t, "per pool (label %s):\n%-30s %6s %10s %s\n", pool_label, "pool", "nodes", "nodes_used", "replicas");
	/* pools in name order: a simple selection over the few pool names */
	first = 1;
	char last[512] = "";
	int have_last = 0;
	for (;;) {
		const char *next = NULL;
		for (int i = 0; i < nn; i++)
			if ((!have_last || strcmp(nodes[i].pool, last) > 0) && (!next || strcmp(nodes[i].pool, next) < 0))
				next = nodes[i].pool;
		if (!next || rc)
			break;
		snprintf(last, sizeof last, "%s", next);
		have_last = 1;
		long pn = 0, used = 0, reps = 0;
		for (int i = 0; i < nn; i++)
			if (!strcmp(nodes[i].pool, last)) {
				pn++;
				used += nodes[i].replicas > 0;
				reps += nodes[i].replicas;
			}
		kp_sb_printf(t, "%-30s %6ld %10ld %ld\n", last, pn, used, reps);
		kp_sb_adds(j, first ? "{\"pool\":" : ",{\"pool\":");
		first = 0;
		kp_sb_add_json_str(j, last);
		kp_sb_printf(j, ",\"nodes\":%ld,\"nodes_used\":%ld,\"replicas\":%ld}", pn, used, reps);
		if (add_row(rws, T_POOL, last, NULL, pn, used, reps, 0, 0, 0))
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	}
	kp_sb_adds(j, "]}");
	nodes_release(nodes, nn);
	outcome_release(&run);
	kp_sb_release(&req);
	return rc;
}

/* ---- --nodes-needed ---- */

typedef struct search_ctx {
	cap *c;
	const char *tmpl;
	rows *rws;
	int step;
	outcome last;                 /* of the latest evaluation */
	long ks[64], us[64];          /* evaluated: nodes added, pods left unschedulable */
	int nk;
	long last_k;                  /* nodes added in the latest evaluation */
	qual best;                    /* the certificate of the fewest nodes added that fit every pod */
	long best_k;                  /* -1: none yet */
	int frozen;                   /* the answer is known: keep best */
} search_ctx;

static int cached(const search_ctx *sc, long k, long *u)
{
	for (int i = 0; i < sc->nk; i++)
		if (sc->ks[i] == k) {
			*u = sc->us[i];
			return 1;
		}
	return 0;
}

/* plan with k template nodes added; *unsched: imported pods left without a node */
static int eval_k(search_ctx *sc, long k, long *unsched)
{
	char opt[2200];
	const char *wo[2] = { "add-nodes", opt };
	snprintf(opt, sizeof opt, "%s:%ld", sc->tmpl, k);
	outcome_release(&sc->last);
	int rc = plan_once(sc->c, wo, k > 0 ? 1 : 0, &sc->last);
	if (rc) {
		/* name the template as the user gave it, not the scenario's option */
		char pre[2300];
		snprintf(pre, sizeof pre, "--add-nodes '%s': ", opt);
		if (!strncmp(sc->c->err->msg, pre, strlen(pre))) {
			char rest[sizeof sc->c->err->msg];
			snprintf(rest, sizeof rest, "%s", sc->c->err->msg + strlen(pre));
			int code = sc->c->err->code;
			sc->c->err->code = KP_OK;
			kp_err_set(sc->c->err, code, "--node-template '%s': %s", sc->tmpl, rest);
		}
		return rc;
	}
	*unsched = sc->last.unsched;
	sc->last_k = k;
	if (!sc->frozen && *unsched == 0 && (sc->best_k < 0 || k < sc->best_k)) {
		qual_take(&sc->best, &sc->last.q);
		sc->best_k = k;
	}
	if (sc->nk < 64) {
		sc->ks[sc->nk] = k;
		sc->us[sc->nk++] = *unsched;
	}
	if (add_row(sc->rws, T_SEARCH, NULL, NULL, ++sc->step, k, *unsched, *unsched == 0, 0, 0))
		return kp_err_set(sc->c->err, KP_NOMEM, "out of memory");
	return KP_OK;
}

/* plan with k, 2k, 4k, ... nodes added (at most cap, planned last) while
 * below stop: the first count that fits every pod sets *hi, each that does
 * not *lo */
static int double_until_fit(search_ctx *sc, long k, long cap, long stop, long *lo, long *hi)
{
	for (; k < stop; k = k > cap / 2 ? cap : k * 2) {
		long u;
		int rc = eval_k(sc, k, &u);
		if (rc)
			return rc;
		if (u == 0) {
			*hi = k;
			return KP_OK;
		}
		*lo = k;
		if (k == cap)
			break;
	}
	return KP_OK;
}

/* per resource: ceil((pending requests - free capacity) / template allocatable), the max, >= 0 */
static int lower_bound(cap *c, const outcome *tmpl, int64_t *bound, char *by, size_t nby, kp_sb *detail)
{
	static const char sql[] =
		"WITH pend AS (SELECT id, class_id FROM pod WHERE node_name IS NULL AND phase NOT IN ('Succeeded', 'Failed')),\n"
		" need AS (SELECT q.resource, sum(q.value) AS v FROM pend p JOIN class_request q ON q.class_id = p.class_id\n"
		"  WHERE q.resource <> 'pods' GROUP BY q.resource\n"
		"  UNION ALL SELECT 'pods', count(*) FROM pend),\n"
		" free AS (SELECT a.resource, sum(max(0, a.allocatable - a.requested)) AS v FROM node_allocation a\n"
		"  WHERE a.resource <> 'pods' GROUP BY a.resource\n"
		"  UNION ALL SELECT 'pods', sum(max(0, r.allocatable - (SELECT count(*) FROM pod p WHERE p.node_name = n.name\n"
		"   AND p.phase NOT IN ('Succeeded', 'Failed')))) FROM node n JOIN node_resource r ON r.node_id = n.id\n"
		"   AND r.resource = 'pods')\n"
		"SELECT n.resource, n.v, COALESCE(f.v, 0) FROM need n LEFT JOIN free f ON f.resource = n.resource\n"
		"WHERE n.v > 0 ORDER BY n.resource <> 'cpu', n.resource <> 'memory', n.resource";
	sqlite3_stmt *s;
	*bound = 0;
	snprintf(by, nby, "%s", "");
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "%s", sqlite3_errmsg(c->db));
	int n = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *res = (const char *)sqlite3_column_text(s, 0);
		int64_t need = sqlite3_column_int64(s, 1), free = sqlite3_column_int64(s, 2), per = 0;
		for (int i = 0; i < tmpl->ntmpl; i++)
			if (!strcmp(tmpl->tmpl[i].name, res))
				per = tmpl->tmpl[i].alloc;
		char a1[64], a2[64], a3[64];
		fmt_amount(res, need, a1, sizeof a1);
		fmt_amount(res, free, a2, sizeof a2);
		fmt_amount(res, per, a3, sizeof a3);
		int64_t k = need <= free ? 0 : per > 0 ? (need - free + per - 1) / per : -1;
		kp_sb_printf(detail, "%s%s: pending %s, free %s, per node %s -> %s", n++ ? "; " : "", res, a1, a2, a3,
			     k < 0 ? "the template has none" : "");
		if (k >= 0)
			kp_sb_printf(detail, "%lld", (long long)k);
		if (k > *bound) {
			*bound = k;
			snprintf(by, nby, "%s", res);
		}
	}
	sqlite3_finalize(s);
	return KP_OK;
}

static void unfit_json(kp_sb *j, const unfit *v, int n)
{
	kp_sb_adds(j, "[");
	for (int i = 0; i < n; i++) {
		kp_sb_adds(j, i ? ",{\"namespace\":" : "{\"namespace\":");
		kp_sb_add_json_str(j, v[i].ns);
		kp_sb_adds(j, ",\"pod\":");
		kp_sb_add_json_str(j, v[i].name);
		kp_sb_adds(j, ",\"reason\":");
		kp_sb_add_json_str(j, v[i].msg);
		kp_sb_adds(j, "}");
	}
	kp_sb_adds(j, "]");
}

static int mode_nodes_needed(cap *c, const char *tmpl, long max_nodes, answer *a, rows *rws)
{
	search_ctx sc;
	memset(&sc, 0, sizeof sc);
	sc.c = c;
	sc.tmpl = tmpl;
	sc.rws = rws;
	sc.best_k = -1;
	c->want_quality = 1;
	long u0, u;
	int rc;
	snprintf(a->subject, sizeof a->subject, "%s", tmpl);
	a->kind = "nodes-needed";
	/* the cluster as it is, then one template node (checks the file; gives its shape) */
	if ((rc = eval_k(&sc, 0, &u0)))
		goto out;
	long pending_unsched = u0;
	outcome base = sc.last;
	memset(&sc.last, 0, sizeof sc.last);
	outcome_release(&base);
	if ((rc = eval_k(&sc, 1, &u)))
		goto out;
	outcome one = sc.last;
	memset(&sc.last, 0, sizeof sc.last);
	int64_t lb;
	char by[64];
	kp_sb detail;
	kp_sb_init(&detail);
	rc = lower_bound(c, &one, &lb, by, sizeof by, &detail);
	outcome_release(&one);
	if (rc) {
		kp_sb_release(&detail);
		goto out;
	}
	a->bound = lb;
	kp_sb *t = &a->text, *j = &a->result;
	kp_sb_adds(j, "{\"kind\":\"nodes-needed\",\"template\":");
	kp_sb_add_json_str(j, tmpl);
	kp_sb_printf(j, ",\"pending_unschedulable\":%ld,\"lower_bound\":%lld,\"lower_bound_by\":", pending_unsched,
		     (long long)lb);
	kp_sb_add_json_str(j, *by ? by : NULL);
	kp_sb_adds(j, ",\"lower_bound_detail\":");
	kp_sb_add_json_str(j, kp_sb_str(&detail));
	long found = -1, below = -1, below_unsched = -1;
	const char *how = "";
	if (u0 == 0) {
		found = 0;
		how = "every pending pod fits already";
	} else {
		/* can some pods never fit? one added node per unschedulable pod (at least the bound) */
		long kcheck = u0 > lb ? u0 : (long)lb;
		if (kcheck > max_nodes)
			kcheck = max_nodes;
		if (u == 0)
			kcheck = 1;
		long uc;
		if (!cached(&sc, kcheck, &uc) && (rc = eval_k(&sc, kcheck, &uc))) {
			kp_sb_release(&detail);
			goto out;
		}
		if (uc > 0 && sc.last.never > 0) {
			/* never: not even an empty added node passes their static filters
			 * or has room for their requests */
			const outcome *o = &sc.last;
			long nv = o->never;
			a->status = "never-fit";
			kp_sb_printf(t, "%ld pending pod%s can never fit on nodes like %s: not even an empty one (only its DaemonSet "
				     "pods) passes %s taints, nodeSelector and node affinity or has room for %s requests:\n", nv,
				     nv == 1 ? "" : "s", tmpl, nv == 1 ? "its" : "their", nv == 1 ? "its" : "their");
			for (int i = 0; i < o->nnevers; i++) {
				kp_sb_printf(t, "  %s/%s: %s\n", o->nevers[i].ns, o->nevers[i].name, o->nevers[i].msg);
				kp_sb sb;
				kp_sb_init(&sb);
				kp_sb_printf(&sb, "%s\n%s", o->nevers[i].name, o->nevers[i].msg);
				if (!kp_sb_ok(&sb) || add_row(rws, T_UNFIT, o->nevers[i].ns, kp_sb_str(&sb), 0, 0, 0, 0, 0, 0))
					rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
				kp_sb_release(&sb);
			}
			if (nv > o->nnevers)
				kp_sb_printf(t, "  ... (%ld more)\n", nv - o->nnevers);
			if (uc > nv)
				kp_sb_printf(t, "%ld other pod%s left out with %ld added might fit with more\n", uc - nv,
					     uc - nv == 1 ? "" : "s", kcheck);
			kp_sb_printf(t, "lower bound from total requests: %lld (%s)\n", (long long)lb, kp_sb_str(&detail));
			{
				kp_sb sb;
				kp_sb_init(&sb);
				kp_sb_printf(&sb, "%ld pending pod%s never fit on nodes like this: %s/%s: %s", nv, nv == 1 ? "" : "s",
					     o->nnevers ? o->nevers[0].ns : "", o->nnevers ? o->nevers[0].name : "",
					     o->nnevers ? o->nevers[0].msg : "");
				a->reason = kp_sb_ok(&sb) ? kp_strdup(kp_sb_str(&sb)) : NULL;
				kp_sb_release(&sb);
			}
			a->value = INT64_MIN;
			kp_sb_printf(j, ",\"status\":\"never-fit\",\"nodes\":null,\"checked_with\":%ld,\"unschedulable_with\":%ld,"
				     "\"never_fit\":", kcheck, uc);
			unfit_json(j, o->nevers, o->nnevers);
			kp_sb_adds(j, "}");
			kp_sb_release(&detail);
			goto out;
		}
		/* lo: does not fit; hi: fits (-1: not found yet) */
		long lo, hi = -1;
		if (uc > 0) {
			/* none shown never to fit: the added nodes also took pods that
			 * fit elsewhere before, so more may help: double until all fit */
			lo = kcheck;
			if (kcheck < max_nodes)
				rc = double_until_fit(&sc, kcheck > max_nodes / 2 ? max_nodes : kcheck * 2, max_nodes,
						      max_nodes + 1, &lo, &hi);
		} else {
			/* by the plan 1 does not fit, by the bound lb - 1 does not */
			hi = kcheck;
			lo = lb - 1 > 1 ? (long)lb - 1 : 1;
			if (lo >= hi)
				lo = hi - 1;
			/* exponential from the bound */
			rc = double_until_fit(&sc, lb > 2 ? (long)lb : 2, hi, hi, &lo, &hi);
		}
		if (!rc && hi < 0) {
			found = -1;   /* --max-nodes reached */
		} else {
			/* then binary */
			while (!rc && hi - lo > 1) {
				long mid = lo + (hi - lo) / 2, um;
				if ((rc = eval_k(&sc, mid, &um)))
					break;
				if (um == 0)
					hi = mid;
				else
					lo = mid;
			}
			if (rc) {
				kp_sb_release(&detail);
				goto out;
			}
			found = hi;
			sc.frozen = 1;
			/* K - 1 with the planner too (the search assumes more nodes never hurt) */
			below = found - 1;
			if (!cached(&sc, below, &below_unsched) && (rc = eval_k(&sc, below, &below_unsched))) {
				kp_sb_release(&detail);
				goto out;
			}
		}
	}
	if (found >= 0) {
		a->status = "found";
		a->value = found;
		if (sc.best_k == found) {
			qual_take(&a->q, &sc.best);
			if (found)
				snprintf(a->q_of, sizeof a->q_of, "the plan with %ld node%s like %s added", found, found == 1 ? "" : "s",
					 tmpl);
			else
				snprintf(a->q_of, sizeof a->q_of, "%s", "the plan of the cluster as it is");
		}
		if (found == 0)
			kp_sb_printf(t, "0 nodes needed: %s\n", how);
		else
			kp_sb_printf(t, "%ld node%s like %s needed for the %ld unschedulable pending pod%s (lower bound from total "
				     "requests: %lld%s%s); checked: with %ld, %ld pod%s unschedulable\n", found,
				     found == 1 ? "" : "s", tmpl, pending_unsched, pending_unsched == 1 ? "" : "s", (long long)lb,
				     *by ? ", by " : "", by, below, below_unsched, below_unsched == 1 ? " stays" : "s stay");
		kp_sb_printf(t, "lower bound: %s\n", kp_sb_str(&detail));
		kp_sb_printf(j, ",\"status\":\"found\",\"nodes\":%ld,\"checked_below\":%ld,\"unschedulable_below\":%ld", found,
			     below, below_unsched);
	} else {
		a->status = "not-found";
		a->value = INT64_MIN;
		kp_sb_printf(t, "not found: with %ld nodes like %s (--max-nodes) pods are still unschedulable; lower bound %lld\n",
			     max_nodes, tmpl, (long long)lb);
		a->reason = kp_strdup(kp_sb_str(t));
		/* none is kept off an empty node like the template by its taints,
		 * labels or size: the pods queued before them took the room
		 * (spreading scores put those on the new nodes too), or filters
		 * that depend on other pods keep them off */
		kp_sb_printf(t, "with %ld added, %ld pod%s left out; an empty node like this passes %s taints, nodeSelector "
			     "and node affinity and has room for %s requests, so the pods placed before %s took the room, or "
			     "pod (anti-)affinity, spread constraints or host ports keep %s off:\n", sc.last_k,
			     sc.last.unsched, sc.last.unsched == 1 ? " is" : "s are", sc.last.unsched == 1 ? "its" : "their",
			     sc.last.unsched == 1 ? "its" : "their", sc.last.unsched == 1 ? "it" : "them",
			     sc.last.unsched == 1 ? "it" : "them");
		for (int i = 0; i < sc.last.nunfits && i < 5; i++)
			kp_sb_printf(t, "  %s/%s: %s\n", sc.last.unfits[i].ns, sc.last.unfits[i].name, sc.last.unfits[i].msg);
		if (sc.last.unsched > 5)
			kp_sb_printf(t, "  ... (%ld more)\n", sc.last.unsched - 5);
		kp_sb_printf(j, ",\"status\":\"not-found\",\"nodes\":null,\"max_nodes\":%ld", max_nodes);
	}
	kp_sb_printf(j, ",\"plans\":%ld}", c->plans);
	kp_sb_printf(t, "%ld plan runs\n", c->plans);
	kp_sb_release(&detail);
out:
	c->want_quality = 0;
	qual_release(&sc.best);
	outcome_release(&sc.last);
	return rc;
}

/* ---- --survive ---- */

typedef struct domain {
	char *name;
	double load;
	long nodes;
} domain;

static int cmp_load(const void *a, const void *b)
{
	const domain *x = a, *y = b;
	if (x->load != y->load)
		return x->load < y->load ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int load_domains(cap *c, int zone, domain **out, int *n)
{
	/* load: the mean over cpu and memory of requested / allocatable (bound pods) */
	static const char sql_node[] =
		"SELECT n.name, COALESCE((SELECT avg(CASE WHEN a.allocatable > 0 THEN 1.0 * a.requested / a.allocatable "
		"ELSE 0 END) FROM node_allocation a WHERE a.node_id = n.id AND a.resource IN ('cpu', 'memory')), 0), 1 "
		"FROM node n";
	static const char sql_zone[] =
		"SELECT l.value, COALESCE((SELECT avg(CASE WHEN a.allocatable > 0 THEN 1.0 * a.requested / a.allocatable "
		"ELSE 0 END) FROM node_allocation a JOIN node_label z ON z.node_id = a.node_id AND "
		"z.key = 'topology.kubernetes.io/zone' AND z.value = l.value WHERE a.resource IN ('cpu', 'memory')), 0), "
		"count(*) FROM node_label l WHERE l.key = 'topology.kubernetes.io/zone' GROUP BY l.value";
	sqlite3_stmt *s;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(c->db, zone ? sql_zone : sql_node, -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "%s", sqlite3_errmsg(c->db));
	int capn = 0, rc = KP_OK;
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (KP_GROW(*out, *n, capn, 64)) {
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
			break;
		}
		domain *d = &(*out)[(*n)++];
		d->name = kp_strdup((const char *)sqlite3_column_text(s, 0));
		d->load = sqlite3_column_double(s, 1);
		d->nodes = sqlite3_column_int(s, 2);
		if (!d->name) {
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
			break;
		}
	}
	sqlite3_finalize(s);
	if (!rc)
		kp_sort(*out, (size_t)*n, sizeof **out, cmp_load);
	return rc;
}

static int mode_survive(cap *c, int zone, long limit, answer *a, rows *rws)
{
	domain *d = NULL;
	int nd = 0, rc;
	const char *what = zone ? "zone" : "node";
	a->kind = zone ? "survive-zone" : "survive-node";
	snprintf(a->subject, sizeof a->subject, "%s", what);
	if ((rc = load_domains(c, zone, &d, &nd)))
		goto out;
	outcome base;
	if ((rc = plan_once(c, NULL, 0, &base)))
		goto out;
	long base_unsched = base.unsched;
	outcome_release(&base);
	qual worst_q = { 0 };
	int neval = limit > 0 && limit < nd ? (int)limit : nd;
	kp_sb *t = &a->text, *j = &a->result;
	kp_sb_printf(t, "losing one %s: %d of %d %ss evaluated%s; without a failure %ld pod%s %s unschedulable\n", what, neval,
		     nd, what, neval < nd ? " (the most loaded, --limit)" : "", base_unsched, base_unsched == 1 ? "" : "s",
		     base_unsched == 1 ? "is" : "are");
	kp_sb_printf(t, "%-28s %5s %9s %5s %13s %-8s %s\n", what, "nodes", "displaced", "lost", "unschedulable", "survives",
		     "headroom after re-placement (free of allocatable)");
	kp_sb_adds(j, "{\"kind\":");
	kp_sb_add_json_str(j, a->kind);
	kp_sb_printf(j, ",\"domains\":%d,\"evaluated\":%d,\"baseline_unschedulable\":%ld,\"results\":[", nd, neval, base_unsched);
	int worst = -1;
	long worst_extra = -1;
	double worst_head = 2;
	long failing = 0;
	char worst_text[1024] = "";
	kp_progress_init(&c->prog, !c->progress_on);
	for (int i = 0; i < neval && !rc; i++) {
		char sel[700];
		if (zone)
			snprintf(sel, sizeof sel, "topology.kubernetes.io/zone=%s", d[i].name);
		else
			snprintf(sel, sizeof sel, "%s", d[i].name);
		const char *wo[2] = { "remove-nodes", sel };
		outcome o;
		if (kp_progress_due(&c->prog, (double)i)) {
			char a1[32], a2[32], rate[96];
			kp_progress_show(&c->prog, "capacity: evaluated %s of %s %ss %s", kp_fmt_count((double)i, a1, sizeof a1),
					 kp_fmt_count((double)neval, a2, sizeof a2), what,
					 kp_progress_rate(&c->prog, (double)i, (double)neval, what, rate, sizeof rate));
		}
		c->want_quality = 1;
		rc = plan_once(c, wo, 1, &o);
		c->want_quality = 0;
		if (rc) {
			outcome_release(&o);
			break;
		}
		long extra = o.unsched - base_unsched;
		int survives = extra <= 0;
		failing += !survives;
		kp_sb head;
		kp_sb_init(&head);
		double minfrac = 2;
		int nh = 0;
		for (int r = 0; r < o.nres; r++) {
			const res_total *x = &o.res[r];
			if (strcmp(x->name, "cpu") && strcmp(x->name, "memory") && strcmp(x->name, "pods") && !x->alloc)
				continue;
			char f[64], al[64];
			fmt_amount(x->name, x->free, f, sizeof f);
			fmt_amount(x->name, x->alloc, al, sizeof al);
			kp_sb_printf(&head, "%s%s %s of %s", nh++ ? ", " : "", x->name, f, al);
			double frac = x->alloc ? (double)x->free / (double)x->alloc : 0;
			if ((!strcmp(x->name, "cpu") || !strcmp(x->name, "memory")) && frac < minfrac)
				minfrac = frac;
			if (add_row(rws, T_HEADROOM, d[i].name, x->name, x->alloc, x->free, 0, 0, 0, 0))
				rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		}
		kp_sb_printf(t, "%-28s %5ld %9ld %5ld %13ld %-8s %s\n", d[i].name, d[i].nodes, o.displaced, o.displaced_lost,
			     o.unsched, survives ? "yes" : "no", kp_sb_str(&head));
		kp_sb_adds(j, i ? ",{\"domain\":" : "{\"domain\":");
		kp_sb_add_json_str(j, d[i].name);
		kp_sb_printf(j, ",\"nodes\":%ld,\"pods_displaced\":%ld,\"pods_lost\":%ld,\"unschedulable\":%ld,"
			     "\"extra_unschedulable\":%ld,\"survives\":%s,\"headroom\":[", d[i].nodes, o.displaced,
			     o.displaced_lost, o.unsched, extra, survives ? "true" : "false");
		for (int r = 0; r < o.nres; r++) {
			kp_sb_adds(j, r ? ",{\"resource\":" : "{\"resource\":");
			kp_sb_add_json_str(j, o.res[r].name);
			kp_sb_printf(j, ",\"allocatable\":%lld,\"free\":%lld}", (long long)o.res[r].alloc, (long long)o.res[r].free);
		}
		kp_sb_adds(j, "]}");
		if (add_row(rws, T_DOMAIN, d[i].name, NULL, d[i].nodes, o.displaced, o.displaced_lost, o.unsched, extra,
			    base_unsched))
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		/* worst: the most pods left out, then the least cpu/memory headroom */
		if (extra > worst_extra || (extra == worst_extra && minfrac < worst_head)) {
			worst = i;
			qual_take(&worst_q, &o.q);
			worst_extra = extra;
			worst_head = minfrac;
			snprintf(worst_text, sizeof worst_text, "%s %s: %ld more pod%s unschedulable (%ld of the %ld displaced "
				 "lost); headroom %s", what, d[i].name, extra > 0 ? extra : 0, extra == 1 ? "" : "s",
				 o.displaced_lost, o.displaced, kp_sb_str(&head));
		}
		kp_sb_release(&head);
		outcome_release(&o);
	}
	kp_progress_clear(&c->prog);
	if (rc)
		goto out;
	kp_sb_adds(j, "],\"worst\":");
	kp_sb_add_json_str(j, worst >= 0 ? d[worst].name : NULL);
	a->value = failing == 0;
	a->bound = neval;
	a->status = failing ? "fails" : "survives";
	if (worst >= 0) {
		a->reason = kp_strdup(worst_text);
		kp_sb_printf(t, "worst: %s\n", worst_text);
		qual_take(&a->q, &worst_q);
		snprintf(a->q_of, sizeof a->q_of, "the plan without %s %s (the worst)", what, d[worst].name);
	}
	if (!neval)
		kp_sb_printf(t, "no %s to lose%s\n", what, zone ? " (no node has the label topology.kubernetes.io/zone)" : "");
	kp_sb_printf(t, "%s: %s\n", failing ? "does not survive" : "survives",
		     failing ? "losing some of them leaves pods unschedulable that fit now"
			     : "every pod that fits now still fits after losing any one of them");
	kp_sb_printf(j, ",\"survives\":%s,\"failing\":%ld}", failing ? "false" : "true", failing);
out:
	qual_release(&worst_q);
	for (int i = 0; i < nd; i++)
		kp_free(d[i].name);
	kp_free(d);
	return rc;
}

/* ---- the command ---- */

static int parse_count(const char *opt, const char *v, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || !*v || n < min || n > max || v[0] == '-' || v[0] == '+')
		return kp_cli_usage("capacity", "%s needs an integer from %ld to %ld, got '%s'", opt, min, max, v);
	*out = n;
	return KP_EXIT_OK;
}

int cmd_capacity(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pod", required_argument, NULL, 'p' },
		{ "workload", required_argument, NULL, 'w' },
		{ "max", required_argument, NULL, 'm' },
		{ "pool-label", required_argument, NULL, 'L' },
		{ "nodes-needed", no_argument, NULL, 'N' },
		{ "node-template", required_argument, NULL, 't' },
		{ "max-nodes", required_argument, NULL, 'M' },
		{ "survive", required_argument, NULL, 'S' },
		{ "limit", required_argument, NULL, 'l' },
		{ "preemption", no_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pod_file = NULL, *workload = NULL, *tmpl = NULL, *survive = NULL, *config = NULL;
	const char *pool_label = POOL_LABEL_DEFAULT;
	long max = 0, max_nodes = 1000, limit = 0;
	int nodes_needed = 0, preemption = 0, quiet = 0, json = 0, c, li, have_max = 0, have_max_nodes = 0, have_limit = 0;
	uint64_t seed = KP_DEFAULT_SEED;
	if (kp_cli_wants_help(argc, argv, cmd_capacity_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", opts, &li)) != -1) {
		int u = KP_EXIT_OK;
		switch (c) {
		case 'p': pod_file = optarg; break;
		case 'w': workload = optarg; break;
		case 'm': u = parse_count("--max", optarg, 1, CAP_MAX_REPLICAS, &max); have_max = 1; break;
		case 'L':
			if (!*optarg)
				return kp_cli_usage("capacity", "--pool-label needs a label key");
			pool_label = optarg;
			break;
		case 'N': nodes_needed = 1; break;
		case 't': tmpl = optarg; break;
		case 'M': u = parse_count("--max-nodes", optarg, 1, 100000, &max_nodes); have_max_nodes = 1; break;
		case 'S':
			if (strcmp(optarg, "node") && strcmp(optarg, "zone"))
				return kp_cli_usage("capacity", "--survive takes 'node' or 'zone', got '%s'", optarg);
			survive = optarg;
			break;
		case 'l': u = parse_count("--limit", optarg, 1, 100000000, &limit); have_limit = 1; break;
		case 'P': preemption = 1; break;
		case 's': {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-')
				return kp_cli_usage("capacity", "--seed needs a non-negative integer, got '%s'", optarg);
			seed = v;
			break;
		}
		case 'c': config = optarg; break;
		case 'f':
			if (!strcmp(optarg, "json"))
				json = 1;
			else if (strcmp(optarg, "text"))
				return kp_cli_usage("capacity", "--format takes text or json, got '%s'", optarg);
			break;
		case 'q': quiet = 1; break;
		default:
			return kp_cli_bad_option("capacity", c, argv);
		}
		if (u != KP_EXIT_OK)
			return u;
	}
	if (argc - optind != 1)
		return kp_cli_usage("capacity", argc - optind < 1 ? "missing DB" : "too many arguments");
	int modes = (pod_file || workload) + nodes_needed + (survive != NULL);
	if (modes != 1)
		return kp_cli_usage("capacity", modes ? "--pod/--workload, --nodes-needed and --survive are separate questions: "
						       "ask one" : "what to ask: --pod FILE, --workload NS/NAME, --nodes-needed "
						       "--node-template FILE or --survive node|zone");
	if (pod_file && workload)
		return kp_cli_usage("capacity", "--pod and --workload: give one");
	if (pod_file && !*pod_file)
		return kp_cli_usage("capacity", "--pod needs a file");
	if (workload) {
		const char *sl = strchr(workload, '/');
		if (!sl || sl == workload || !sl[1] || strchr(workload, '='))
			return kp_cli_usage("capacity", "--workload needs NAMESPACE/NAME (or NAMESPACE/KIND/NAME), got '%s'", workload);
	}
	if (nodes_needed && (!tmpl || !*tmpl))
		return kp_cli_usage("capacity", "--nodes-needed needs --node-template FILE");
	if (tmpl && !nodes_needed)
		return kp_cli_usage("capacity", "--node-template goes with --nodes-needed");
	if (have_max && !(pod_file || workload))
		return kp_cli_usage("capacity", "--max goes with --pod or --workload");
	if (have_max_nodes && !nodes_needed)
		return kp_cli_usage("capacity", "--max-nodes goes with --nodes-needed");
	if (have_limit && !survive)
		return kp_cli_usage("capacity", "--limit goes with --survive");
	const char *path = argv[optind];
	kp_err err = { 0 };
	sqlite3 *db;
	if (kp_db_open(path, 0, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_cli_on_interrupt(db);
	cap cp;
	memset(&cp, 0, sizeof cp);
	cp.db = db;
	cp.err = &err;
	cp.seed = seed;
	cp.preemption = preemption;
	cp.config = config;
	cp.pool_label = pool_label;
	cp.progress_on = kp_cli_progress_enabled(quiet);
	kp_progress_init(&cp.prog, !cp.progress_on);
	answer a;
	memset(&a, 0, sizeof a);
	a.value = a.bound = INT64_MIN;
	kp_sb_init(&a.result);
	kp_sb_init(&a.text);
	rows rws = { 0 };
	double t0 = kp_cli_now();
	int rc;
	if (pod_file || workload)
		rc = mode_pod(&cp, pod_file, workload, max, pool_label, &a, &rws);
	else if (nodes_needed)
		rc = mode_nodes_needed(&cp, tmpl, max_nodes, &a, &rws);
	else
		rc = mode_survive(&cp, !strcmp(survive, "zone"), limit, &a, &rws);
	if (!rc)
		quality_summary(&a, pool_label);
	if (!rc && (!kp_sb_ok(&a.result) || !kp_sb_ok(&a.text)))
		rc = kp_err_set(&err, KP_NOMEM, "out of memory");
	kp_sb opt;
	kp_sb_init(&opt);
	kp_sb_printf(&opt, "{\"seed\":%llu,\"preemption\":%s,\"config\":", (unsigned long long)seed, preemption ? "true" : "false");
	kp_sb_add_json_str(&opt, config);
	kp_sb_adds(&opt, ",\"pool_label\":");
	kp_sb_add_json_str(&opt, pool_label);
	if (pod_file || workload) {
		kp_sb_adds(&opt, pod_file ? ",\"pod\":" : ",\"workload\":");
		kp_sb_add_json_str(&opt, pod_file ? pod_file : workload);
		if (have_max)
			kp_sb_printf(&opt, ",\"max\":%ld", max);
	} else if (nodes_needed) {
		kp_sb_adds(&opt, ",\"node_template\":");
		kp_sb_add_json_str(&opt, tmpl);
		kp_sb_printf(&opt, ",\"max_nodes\":%ld", max_nodes);
	} else {
		kp_sb_adds(&opt, ",\"survive\":");
		kp_sb_add_json_str(&opt, survive);
		if (have_limit)
			kp_sb_printf(&opt, ",\"limit\":%ld", limit);
	}
	kp_sb_adds(&opt, "}");
	int64_t id = 0;
	if (!rc) {
		write_ctx w = { quiet, json, &a, &rws, kp_sb_str(&opt), t0, cp.plans };
		rc = write_answer(&cp, &w, &id);
	}
	kp_progress_clear(&cp.prog);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	kp_sb_release(&opt);
	kp_sb_release(&a.result);
	kp_sb_release(&a.text);
	kp_free(a.reason);
	qual_release(&a.q);
	rows_release(&rws);
	if (rc) {
		if (kp_interrupted)
			kp_err_set(&err, KP_INTR, "interrupted");
		if (err.code == KP_USAGE)
			return kp_cli_usage("capacity", "%s", err.msg);
		int code = kp_cli_fail(&err);
		fprintf(stderr, "kplan: %snothing was written\n", kp_interrupted ? "interrupted: " : "");
		return code;
	}
	return KP_EXIT_OK;
}
