/*
 * whatif_add_slices.c — the ResourceSlices of a node template (--add-nodes
 * FILE[:COUNT], whatif.h; issue 17): FILE may hold, besides its Node,
 * ResourceSlices of that Node's own devices (spec.nodeName: the Node's name).
 * Each added node gets a copy of each of them, with its devices, their
 * attributes, capacities, counters and taints and the slice's shared
 * counters, in TEMP copies of resource_slice and its child tables:
 *
 *   spec.nodeName        the added node's name
 *   metadata.name        the template slice's name + "-" + the added node's name
 *   spec.pool.name       the template pool's name + "-" + the added node's name
 *                        (a pool of each added node's own, as a driver
 *                        publishes one per node)
 *   generation, resourceSliceCount, devices: as in the template
 *
 * Refused: a slice that is not node-local to the template's Node
 * (nodeSelector, allNodes, perDeviceNodeSelection, another nodeName), named
 * FILE:LINE:COL (where the object starts); slices in a database made before
 * the DRA tables (where no pod can claim a device).  Scenario rows get
 * negative ids (WI_ID_BASE).  The main schema is only read.
 */
#include "whatif_int.h"

#include <stdio.h>
#include <string.h>

/* the tables copied, parents first: read from the template's database
 * (column 0 the row's id, NULL for a table without one; column 1 its
 * parent's id, NULL for a slice; then the values), written with ?1 the new
 * id, ?2 the new parent's id (a slice: the added node's name), ?3... the
 * values */
enum { T_SLICE, T_SLICE_COUNTER, T_DEVICE, T_ATTR, T_CAP, T_COUNTER, T_TAINT, NTAB };
static const struct {
	const char *table, *read, *insert;
	int parent;
} tab[NTAB] = {
	{ "resource_slice", kp_sql_whatif_add_nodes_read_slice, kp_sql_whatif_add_nodes_insert_slice, -1 },
	{ "slice_counter", kp_sql_whatif_add_nodes_read_slice_counter, kp_sql_whatif_add_nodes_insert_slice_counter,
	  T_SLICE },
	{ "slice_device", kp_sql_whatif_add_nodes_read_device, kp_sql_whatif_add_nodes_insert_device, T_SLICE },
	{ "device_attribute", kp_sql_whatif_add_nodes_read_device_attribute,
	  kp_sql_whatif_add_nodes_insert_device_attribute, T_DEVICE },
	{ "device_capacity", kp_sql_whatif_add_nodes_read_device_capacity,
	  kp_sql_whatif_add_nodes_insert_device_capacity, T_DEVICE },
	{ "device_counter", kp_sql_whatif_add_nodes_read_device_counter, kp_sql_whatif_add_nodes_insert_device_counter,
	  T_DEVICE },
	{ "device_taint", kp_sql_whatif_add_nodes_read_device_taint, kp_sql_whatif_add_nodes_insert_device_taint,
	  T_DEVICE },
};

struct wi_slices {
	int ncols[NTAB], nrows[NTAB];
	sqlite3_value **v[NTAB];     /* nrows * ncols values per table */
	sqlite3_stmt *ins[NTAB];     /* on the scenario's database, prepared on first use */
	long nslices, ndevices;
};

void wi_slices_free(wi_slices *s)
{
	if (!s)
		return;
	for (int k = 0; k < NTAB; k++) {
		for (int i = 0; i < s->nrows[k] * s->ncols[k]; i++)
			sqlite3_value_free(s->v[k][i]);
		kp_free(s->v[k]);
		sqlite3_finalize(s->ins[k]);
	}
	kp_free(s);
}

/* the rows of table k, copied out of m */
static int read_table(wctx *c, sqlite3 *m, int k, wi_slices *s)
{
	sqlite3_stmt *q;
	int rc = KP_OK, cap = 0, step;
	if (sqlite3_prepare_v2(m, tab[k].read, -1, &q, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "--add-nodes: reading the template's %s: %s", tab[k].table,
				  sqlite3_errmsg(m));
	int n = s->ncols[k] = sqlite3_column_count(q);
	while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
		if (s->nrows[k] == cap) {
			cap = cap ? cap * 2 : 16;
			sqlite3_value **v = kp_realloc(s->v[k], (size_t)cap * (size_t)n * sizeof *v);
			if (!v) {
				rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
				break;
			}
			s->v[k] = v;
		}
		for (int j = 0; j < n; j++)
			s->v[k][s->nrows[k] * n + j] = sqlite3_value_dup(sqlite3_column_value(q, j));
		s->nrows[k]++;
	}
	sqlite3_finalize(q);
	return rc;
}

/* the first slice that is not node-local to the template's Node, refused */
static int check_local(wctx *c, wi_op *op, sqlite3 *m, const char *node)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(m, kp_sql_whatif_add_nodes_slices_bad, -1, &q, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "--add-nodes '%s': reading the template's ResourceSlices: %s",
				  op->value, sqlite3_errmsg(m));
	sqlite3_bind_text(q, 1, node, -1, SQLITE_TRANSIENT);
	int rc = KP_OK;
	if (sqlite3_step(q) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0), *file = (const char *)sqlite3_column_text(q, 1);
		const char *nn = (const char *)sqlite3_column_text(q, 3);
		char what[700];
		if (sqlite3_column_int(q, 6))
			snprintf(what, sizeof what, "spec.perDeviceNodeSelection");
		else if (sqlite3_column_int(q, 4))
			snprintf(what, sizeof what, "spec.nodeSelector");
		else if (sqlite3_column_int(q, 5))
			snprintf(what, sizeof what, "spec.allNodes");
		else
			snprintf(what, sizeof what, "spec.nodeName '%s'", nn ? nn : "");
		rc = kp_err_set(c->err, KP_ERROR, "--add-nodes '%s': %s:%lld:1: ResourceSlice %s: %s: a node template's "
				"ResourceSlices hold its Node's own devices; only spec.nodeName: %s is allowed (not "
				"nodeSelector, allNodes, perDeviceNodeSelection or another node's name)", op->value,
				file ? file : op->file, (long long)sqlite3_column_int64(q, 2), name ? name : "?", what, node);
	}
	sqlite3_finalize(q);
	return rc;
}

int wi_slices_count(wctx *c, wi_op *op, sqlite3 *m, long *nslices)
{
	sqlite3_stmt *q;
	*nslices = 0;
	if (sqlite3_prepare_v2(m, kp_sql_whatif_add_nodes_slices_count, -1, &q, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "--add-nodes '%s': reading the template's ResourceSlices: %s",
				  op->value, sqlite3_errmsg(m));
	if (sqlite3_step(q) == SQLITE_ROW)
		*nslices = (long)sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return KP_OK;
}

int wi_slices_read(wctx *c, wi_op *op, sqlite3 *m, const char *node, wi_slices **out, long *nslices)
{
	*out = NULL;
	if (wi_slices_count(c, op, m, nslices))
		return c->err->code;
	if (!*nslices)
		return KP_OK;
	if (check_local(c, op, m, node))
		return c->err->code;
	int64_t known = 0;
	if (wi_query_int(c, kp_sql_whatif_add_nodes_dra_known, 0, NULL, &known))
		return c->err->code;
	if (known != NTAB)
		return kp_err_set(c->err, KP_ERROR, "--add-nodes '%s': %s holds ResourceSlices, but this database was made "
				  "before kplan had DRA tables (no pod in it claims a device): import into it again "
				  "(kplan import) to add them, or use a template without ResourceSlices", op->value, op->file);
	wi_slices *s = kp_calloc(1, sizeof *s);
	if (!s)
		return kp_err_set(c->err, KP_NOMEM, "out of memory");
	*out = s;
	for (int k = 0; k < NTAB; k++)
		if (read_table(c, m, k, s))
			return c->err->code;
	s->nslices = s->nrows[T_SLICE];
	s->ndevices = s->nrows[T_DEVICE];
	for (int k = 0; k < NTAB; k++)
		if (wi_shadow_once(c, tab[k].table))
			return c->err->code;
	return KP_OK;
}

long wi_slices_devices(const wi_slices *s)
{
	return s ? s->ndevices : 0;
}

/* the rows of the tables whose parent is table p, row old (the template's
 * id; p < 0: the slices), for the new parent (id, or the added node's name) */
static int copy_children(wctx *c, wi_slices *s, int p, int64_t old, int64_t id, const char *node)
{
	for (int k = 0; k < NTAB; k++) {
		if (tab[k].parent != p)
			continue;
		if (!s->ins[k] && sqlite3_prepare_v2(c->db, tab[k].insert, -1, &s->ins[k], NULL) != SQLITE_OK)
			return wi_db_fail(c, "adding the template's ResourceSlices");
		int n = s->ncols[k];
		for (int r = 0; r < s->nrows[k]; r++) {
			sqlite3_value **row = s->v[k] + r * n;
			if (p >= 0 && sqlite3_value_int64(row[1]) != old)
				continue;
			int own = sqlite3_value_type(row[0]) != SQLITE_NULL;
			int64_t nid = own ? WI_ID_BASE + ++c->w->rows_made : 0;
			sqlite3_stmt *ins = s->ins[k];
			sqlite3_reset(ins);
			sqlite3_clear_bindings(ins);
			if (own)
				sqlite3_bind_int64(ins, 1, nid);
			if (p < 0)
				sqlite3_bind_text(ins, 2, node, -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_int64(ins, 2, id);
			for (int j = 2; j < n; j++)
				sqlite3_bind_value(ins, j + 1, row[j]);
			if (sqlite3_step(ins) != SQLITE_DONE)
				return wi_db_fail(c, "adding the template's ResourceSlices");
			if (own && copy_children(c, s, k, sqlite3_value_int64(row[0]), nid, node))
				return c->err->code;
		}
	}
	return KP_OK;
}

int wi_slices_add(wctx *c, wi_slices *s, const char *node)
{
	return s ? copy_children(c, s, -1, 0, 0, node) : KP_OK;
}
