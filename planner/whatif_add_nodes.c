/*
 * whatif_add_nodes.c — --add-nodes FILE[:COUNT] (whatif.h): COUNT copies of
 * the Node in FILE, named TEMPLATE-whatif-1, -2, ... (the first numbers no
 * node has), label kubernetes.io/hostname set to that name, and a pending
 * pod for each DaemonSet whose controller would run one there.
 *
 * Contract: FILE is read with the importer itself (every check and message
 * of `kplan import`, through the caller's importer: whatif.h) and holds
 * exactly one Node, and ResourceSlices of that Node's own devices, nothing
 * else; each added node gets a copy of those slices (whatif_add_slices.c).
 * Added nodes get negative ids.
 */
#include "whatif_int.h"

#include <stdio.h>
#include <string.h>

/* the template's child rows, read once: values per row */
typedef struct trows {
	int ncols, nrows;
	sqlite3_value **v;           /* nrows * ncols; column 0 (node_id) unused */
} trows;

enum { NCHILD = 4 };

typedef struct tmpl {
	char *name;
	int unschedulable;
	int64_t created;
	int has_created;
	trows rows[NCHILD];
	wi_slices *slices;           /* its ResourceSlices; NULL: none */
	long nslices;
} tmpl;

/* node_resource, node_label, node_taint, node_image: read from the
 * template's database, written for each added node with the same columns */
static const char *const child_sql[NCHILD][2] = {
	{ kp_sql_whatif_add_nodes_read_resource, kp_sql_whatif_add_nodes_insert_resource },
	{ kp_sql_whatif_add_nodes_read_label, kp_sql_whatif_add_nodes_insert_label },
	{ kp_sql_whatif_add_nodes_read_taint, kp_sql_whatif_add_nodes_insert_taint },
	{ kp_sql_whatif_add_nodes_read_image, kp_sql_whatif_add_nodes_insert_image },
};

static void tmpl_release(tmpl *t)
{
	kp_free(t->name);
	wi_slices_free(t->slices);
	for (int k = 0; k < NCHILD; k++) {
		for (int i = 0; i < t->rows[k].nrows * t->rows[k].ncols; i++)
			sqlite3_value_free(t->rows[k].v[i]);
		kp_free(t->rows[k].v);
	}
	memset(t, 0, sizeof *t);
}

/* the rows of the template's child table k, copied out of m */
static int read_rows(wctx *c, sqlite3 *m, int k, trows *r)
{
	sqlite3_stmt *s;
	int rc = KP_OK;
	if (sqlite3_prepare_v2(m, child_sql[k][0], -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "--add-nodes: %s", sqlite3_errmsg(m));
	r->ncols = sqlite3_column_count(s);
	int cap = 0;
	while (!rc && sqlite3_step(s) == SQLITE_ROW) {
		if (r->nrows == cap) {
			cap = cap ? cap * 2 : 16;
			sqlite3_value **v = kp_realloc(r->v, (size_t)cap * (size_t)r->ncols * sizeof *v);
			if (!v) {
				rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
				break;
			}
			r->v = v;
		}
		for (int j = 0; j < r->ncols; j++)
			r->v[r->nrows * r->ncols + j] = sqlite3_value_dup(sqlite3_column_value(s, j));
		r->nrows++;
	}
	sqlite3_finalize(s);
	return rc;
}

/* Read the Node template with the importer itself (every check and message
 * of `kplan import`), into a database in memory. */
static int read_template(wctx *c, wi_op *op, tmpl *t)
{
	memset(t, 0, sizeof *t);
	sqlite3 *m = NULL;
	kp_whatif_counts n;
	int rc = wi_import(c, op->file, "--add-nodes", op->value, &m, &n);
	if (rc == KP_NOMEM && !m)
		return rc;
	long nslices = 0;
	if (!rc && wi_slices_count(c, op, m, &nslices))
		rc = c->err->code;
	long nodes = n.nodes, others = n.pods + n.workloads + n.others - nslices;
	if (!rc && (nodes != 1 || others)) {
		rc = kp_err_set(c->err, KP_ERROR, "--add-nodes '%s': a node template holds exactly one Node, and "
				"ResourceSlices of its devices, nothing else (%s holds %ld Node%s and %ld other object%s)",
				op->value, op->file, nodes, nodes == 1 ? "" : "s", others, others == 1 ? "" : "s");
	}
	sqlite3_stmt *s = NULL;
	if (!rc && sqlite3_prepare_v2(m, kp_sql_whatif_add_nodes_template, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW) {
		t->name = kp_strdup((const char *)sqlite3_column_text(s, 0));
		t->unschedulable = sqlite3_column_int(s, 1);
		t->has_created = sqlite3_column_type(s, 2) != SQLITE_NULL;
		t->created = sqlite3_column_int64(s, 2);
		if (!t->name)
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	} else if (!rc) {
		rc = kp_err_set(c->err, KP_IO, "--add-nodes '%s': cannot read the template back: %s", op->value, sqlite3_errmsg(m));
	}
	sqlite3_finalize(s);
	for (int k = 0; k < NCHILD && !rc; k++)
		rc = read_rows(c, m, k, &t->rows[k]);
	if (!rc)
		rc = wi_slices_read(c, op, m, t->name, &t->slices, &t->nslices);
	sqlite3_close(m);
	return rc;
}

/* ---- the DaemonSet pods of added nodes ---- */

/* temp.kp_whatif_dsfail := the (DaemonSet class, added node) pairs a static
 * filter turns away: node affinity and taints, the filters' own SQL, as the
 * importer uses it for imported nodes */
static int daemon_failures(wctx *c)
{
	if (wi_exec_all(c, "DaemonSets of added nodes", kp_sql_whatif_add_nodes_ds_classes))
		return c->err->code;
	const char *const filters[] = { kp_sql_filters_node_affinity, kp_sql_filters_taint_toleration };
	for (int f = 0; f < 2; f++) {
		sqlite3_stmt *st, *ins;
		if (sqlite3_prepare_v2(c->db, filters[f], -1, &st, NULL) != SQLITE_OK)
			return wi_db_fail(c, "DaemonSets of added nodes");
		if (sqlite3_prepare_v2(c->db, kp_sql_whatif_add_nodes_ds_fail, -1, &ins, NULL) != SQLITE_OK) {
			sqlite3_finalize(st);
			return wi_db_fail(c, "DaemonSets of added nodes");
		}
		int rc;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (sqlite3_column_int64(st, 1) >= 0)
				continue;   /* only the added nodes */
			sqlite3_reset(ins);
			sqlite3_bind_int64(ins, 1, sqlite3_column_int64(st, 0));
			sqlite3_bind_int64(ins, 2, sqlite3_column_int64(st, 1));
			if (sqlite3_step(ins) != SQLITE_DONE) {
				rc = SQLITE_ERROR;
				break;
			}
		}
		sqlite3_finalize(ins);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return wi_db_fail(c, "DaemonSets of added nodes");
	}
	return KP_OK;
}

/* one DaemonSet pod (a row of add_nodes_ds_pods.sql), named as the
 * controller names it: DS-SUFFIX, the first index no pod has (*idx counts
 * per DaemonSet) */
static int daemon_pod(wctx *c, wi_op *op, sqlite3_stmt *s, int64_t *idx)
{
	wi_pod p;
	memset(&p, 0, sizeof p);
	p.workload_id = sqlite3_column_int64(s, 0);
	p.ns = (const char *)sqlite3_column_text(s, 1);
	const char *ds = (const char *)sqlite3_column_text(s, 2);
	p.owner_kind = "DaemonSet";
	p.owner_name = ds;
	p.owner_uid = (const char *)sqlite3_column_text(s, 3);
	const char *hash = (const char *)sqlite3_column_text(s, 4);
	p.class_id = sqlite3_column_int64(s, 5);
	p.labels = (const char *)sqlite3_column_text(s, 6);
	p.batch = sqlite3_column_int64(s, 7);
	p.daemon_node = (const char *)sqlite3_column_text(s, 8);
	if (hash) {
		p.extra[p.nextra++] = "controller-revision-hash";
		p.extra[p.nextra++] = hash;
	}
	char name[700], suffix[6];
	int used = 1;
	while (used == 1) {
		kp_pod_suffix(p.ns, ds, (*idx)++, suffix);
		snprintf(name, sizeof name, "%s-%s", ds, suffix);
		used = wi_pod_name_used(c, p.ns, name);
	}
	if (used < 0)
		return c->err->code;
	p.name = name;
	int rc = wi_add_pod(c, op, &p);
	if (!rc)
		op->added++;
	return rc;
}

/* pending pods of every DaemonSet whose controller would run one on the
 * nodes op added: the template (with the controller's tolerations) passes
 * node affinity and tolerates the taints */
static int daemon_pods(wctx *c, wi_op *op)
{
	int64_t nds;
	if (wi_query_int(c, kp_sql_whatif_add_nodes_ds_count, 0, NULL, &nds))
		return c->err->code;
	if (!nds)
		return KP_OK;
	if (daemon_failures(c))
		return c->err->code;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_add_nodes_ds_pods, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "DaemonSets of added nodes");
	sqlite3_bind_int(s, 1, op->seq);
	int rc = KP_OK, step;
	int64_t last_wl = 0, idx = 0;
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_int64(s, 0) != last_wl) {
			last_wl = sqlite3_column_int64(s, 0);
			idx = 0;
		}
		rc = daemon_pod(c, op, s, &idx);
	}
	sqlite3_finalize(s);
	if (!rc && step != SQLITE_DONE)
		rc = wi_db_fail(c, "DaemonSets of added nodes");
	return rc;
}

/* ---- the nodes ---- */

/* the statements that write an added node */
typedef struct node_stmts {
	sqlite3_stmt *node, *child[NCHILD], *host, *rec;
} node_stmts;

static int prepare_node_stmts(wctx *c, node_stmts *n)
{
	memset(n, 0, sizeof *n);
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_add_nodes_insert, -1, &n->node, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c->db, kp_sql_whatif_add_nodes_hostname, -1, &n->host, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c->db, kp_sql_whatif_add_nodes_record, -1, &n->rec, NULL) != SQLITE_OK)
		return wi_db_fail(c, "adding nodes");
	for (int k = 0; k < NCHILD; k++)
		if (sqlite3_prepare_v2(c->db, child_sql[k][1], -1, &n->child[k], NULL) != SQLITE_OK)
			return wi_db_fail(c, "adding nodes");
	return KP_OK;
}

static void finalize_node_stmts(node_stmts *n)
{
	sqlite3_finalize(n->node);
	sqlite3_finalize(n->host);
	sqlite3_finalize(n->rec);
	for (int k = 0; k < NCHILD; k++)
		sqlite3_finalize(n->child[k]);
}

/* TEMPLATE-whatif-N: the first number (after *number) no node, imported or added, has */
static int node_name(wctx *c, const tmpl *t, int64_t *number, char *name, size_t size)
{
	int used = 1;
	while (used == 1) {
		snprintf(name, size, "%s-whatif-%lld", t->name, (long long)++*number);
		sqlite3_stmt *q = wi_stmt(c, WI_Q_NODE_USED);
		if (!q) {
			used = -1;
			break;
		}
		sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
		int step = sqlite3_step(q);
		used = step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(q);
	}
	if (used < 0)
		return c->err->code ? c->err->code : wi_db_fail(c, "adding nodes");
	return KP_OK;
}

/* one node like the template, named name: its row, its child rows, its hostname, its record */
static int add_node(wctx *c, wi_op *op, const tmpl *t, node_stmts *n, const char *name)
{
	int rc = KP_OK;
	int64_t id = WI_ID_BASE + ++c->w->nodes_made;
	sqlite3_reset(n->node);
	sqlite3_bind_int64(n->node, 1, id);
	sqlite3_bind_text(n->node, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(n->node, 3, t->unschedulable);
	if (t->has_created)
		sqlite3_bind_int64(n->node, 4, t->created);
	else
		sqlite3_bind_null(n->node, 4);
	sqlite3_bind_text(n->node, 5, op->file, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(n->node) != SQLITE_DONE)
		return wi_db_fail(c, "adding nodes");
	for (int k = 0; k < NCHILD && !rc; k++)
		for (int r = 0; r < t->rows[k].nrows && !rc; r++) {
			sqlite3_stmt *s = n->child[k];
			sqlite3_reset(s);
			sqlite3_bind_int64(s, 1, id);
			for (int j = 1; j < t->rows[k].ncols; j++)
				sqlite3_bind_value(s, j + 1, t->rows[k].v[r * t->rows[k].ncols + j]);
			if (sqlite3_step(s) != SQLITE_DONE)
				rc = wi_db_fail(c, "adding nodes");
		}
	sqlite3_reset(n->host);
	sqlite3_bind_int64(n->host, 1, id);
	sqlite3_bind_text(n->host, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_reset(n->rec);
	sqlite3_bind_int64(n->rec, 1, id);
	sqlite3_bind_text(n->rec, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(n->rec, 3, op->seq);
	if (!rc && (sqlite3_step(n->host) != SQLITE_DONE || sqlite3_step(n->rec) != SQLITE_DONE))
		rc = wi_db_fail(c, "adding nodes");
	if (!rc)
		rc = wi_slices_add(c, t->slices, name);
	if (!rc)
		op->nodes++;
	return rc;
}

int wi_apply_add_nodes(wctx *c, wi_op *op)
{
	tmpl t;
	if (read_template(c, op, &t)) {
		tmpl_release(&t);
		return c->err->code;
	}
	node_stmts n;
	int rc = prepare_node_stmts(c, &n);
	int64_t number = 0;
	for (long i = 0; i < op->count && !rc; i++) {
		if (kp_interrupted) {
			rc = kp_err_set(c->err, KP_INTR, "interrupted");
			break;
		}
		char name[600];
		if ((rc = node_name(c, &t, &number, name, sizeof name)))
			break;
		rc = add_node(c, op, &t, &n, name);
	}
	finalize_node_stmts(&n);
	if (!rc)
		rc = daemon_pods(c, op);
	if (!rc) {
		kp_sb_printf(&op->effect, "%ld node%s added from template %s (", op->nodes, op->nodes == 1 ? "" : "s", t.name);
		wi_add_names(c, &op->effect, kp_sql_whatif_add_nodes_names, op->seq);
		kp_sb_adds(&op->effect, ")");
		if (t.nslices) {
			long nd = wi_slices_devices(t.slices);
			kp_sb_printf(&op->effect, ", each with %ld device%s in %ld ResourceSlice%s of its own", nd,
				     nd == 1 ? "" : "s", t.nslices, t.nslices == 1 ? "" : "s");
		}
		if (op->added)
			kp_sb_printf(&op->effect, "; %ld DaemonSet pod%s for %s", op->added, op->added == 1 ? "" : "s",
				     op->nodes == 1 ? "it" : "them");
	}
	tmpl_release(&t);
	return rc;
}
