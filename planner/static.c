/*
 * static.c — the static filter predicates, in SQL (the files in queries/filters,
 * embedded at build time), evaluated once per scheduling class, never per
 * pod: NodeUnschedulable, TaintToleration and NodeAffinity depend only on the
 * pod's spec and the node's labels, taints and flags.  The result becomes, per
 * class, a bitset of nodes that pass and, per failing node, the reason of the
 * first failing plugin in filter order.  Two more bitsets per class (node
 * affinity alone, taints alone) feed PodTopologySpread's node inclusion
 * policies.
 */
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "static.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>


static const struct {
	int plugin;
	const char *sql;
} filters[] = {
	{ KP_P_NODE_UNSCHEDULABLE, kp_sql_filters_node_unschedulable },
	{ KP_P_TAINT_TOLERATION, kp_sql_filters_taint_toleration },
	{ KP_P_NODE_AFFINITY, kp_sql_filters_node_affinity },
};

/* index of reason text in s->reasons (interned) */
int kp_reason_intern(kp_snap *s, const char *plugin, const char *msg, int unresolvable)
{
	for (int i = 0; i < s->nreasons; i++)
		if (s->reasons[i].plugin == plugin && !strcmp(s->reasons[i].msg, msg))
			return i;
	if (KP_GROW(s->reasons, s->nreasons, s->cap_reasons, 64))
		return -1;
	char *copy = kp_strdup(msg);
	if (!copy)
		return -1;
	s->reasons[s->nreasons] = (kp_reason){ plugin, copy, (uint8_t)unresolvable };
	return s->nreasons++;
}

static int find_class(const kp_snap *s, int64_t id)
{
	int lo = 0, hi = s->nclasses;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->classes[mid].db_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nclasses && s->classes[lo].db_id == id ? lo : -1;
}

static int share_static(sqlite3 *db, kp_snap *s, int32_t *rep_of, kp_err *err);

int kp_static_filters(sqlite3 *db, kp_snap *s, const kp_profile *pf, kp_err *err)
{
	size_t words = ((size_t)s->nnodes + 63) / 64;
	int rc = KP_OK;
	if (sqlite3_exec(db, "CREATE TEMP TABLE IF NOT EXISTS kp_classes(class_id INTEGER PRIMARY KEY);"
			     "DELETE FROM temp.kp_classes;", NULL, NULL, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot prepare static filters: %s", sqlite3_errmsg(db));
	sqlite3_stmt *ins;
	if (sqlite3_prepare_v2(db, "INSERT INTO temp.kp_classes(class_id) VALUES(?1)", -1, &ins, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot prepare static filters: %s", sqlite3_errmsg(db));
	for (int i = 0; i < s->nclasses && !rc; i++) {
		kp_class *c = &s->classes[i];
		if (!c->needed)
			continue;
		c->static_shared = 0;
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, c->db_id);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = kp_err_set(err, KP_IO, "cannot prepare static filters: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(ins);
	/* one set of arrays per distinct static spec: the first class of each
	 * owns them, the others (static_shared, rep_of) point at them */
	int32_t *rep_of = kp_malloc((size_t)(s->nclasses ? s->nclasses : 1) * sizeof *rep_of);
	if (!rep_of)
		return rc ? rc : kp_err_set(err, KP_NOMEM, "out of memory");
	if (!rc)
		rc = share_static(db, s, rep_of, err);
	for (int i = 0; i < s->nclasses && !rc; i++) {
		kp_class *c = &s->classes[i];
		if (!c->needed || c->static_shared)
			continue;
		c->feasible = kp_malloc(words ? words * sizeof(uint64_t) : 8);
		c->affinity_ok = kp_malloc(words ? words * sizeof(uint64_t) : 8);
		c->taints_ok = kp_malloc(words ? words * sizeof(uint64_t) : 8);
		c->static_reason = kp_malloc((size_t)(s->nnodes ? s->nnodes : 1) * sizeof(int32_t));
		c->static_rank = kp_malloc((size_t)(s->nnodes ? s->nnodes : 1) * sizeof(int64_t));
		if (!c->feasible || !c->static_reason || !c->affinity_ok || !c->taints_ok || !c->static_rank) {
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
			break;
		}
		memset(c->feasible, 0xff, words * sizeof(uint64_t));
		memset(c->affinity_ok, 0xff, words * sizeof(uint64_t));
		memset(c->taints_ok, 0xff, words * sizeof(uint64_t));
		for (int n = 0; n < s->nnodes; n++) {
			c->static_reason[n] = -1;
			c->static_rank[n] = 0;
		}
	}
	for (int i = 0; i < s->nclasses; i++) {
		kp_class *c = &s->classes[i];
		if (!c->needed || !c->static_shared)
			continue;
		const kp_class *rep = &s->classes[rep_of[i]];
		c->feasible = rep->feasible;
		c->affinity_ok = rep->affinity_ok;
		c->taints_ok = rep->taints_ok;
		c->static_reason = rep->static_reason;
		c->static_rank = rep->static_rank;
	}
	kp_free(rep_of);
	if (rc)
		return rc;
	/* in filter order: the first failing plugin names the node's reason */
	for (size_t f = 0; f < sizeof filters / sizeof filters[0] && !rc; f++) {
		int plugin = filters[f].plugin;
		int enabled = pf->filter[plugin];
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, filters[f].sql, -1, &st, NULL) != SQLITE_OK) {
			rc = kp_err_set(err, KP_IO, "static filter %s: %s", kp_plugin_names[plugin], sqlite3_errmsg(db));
			break;
		}
		if (plugin == KP_P_TAINT_TOLERATION) {   /* taint_toleration.sql: the version's rules */
			sqlite3_bind_int(st, 1, kp_kube_on(&s->kube, KP_FG_TAINT_TOLERATION_COMPARISON_OPERATORS));
			sqlite3_bind_int(st, 2, s->kube.minor >= 35);
		}
		int step, last_r = -1;
		char *last_msg = NULL;   /* the reason of the previous row: rows of one reason come in runs */
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			int ci = find_class(s, sqlite3_column_int64(st, 0));
			int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 1));
			if (ci < 0 || ni < 0)
				continue;
			kp_class *c = &s->classes[ci];
			/* NodeUnschedulable and TaintToleration are both "taints" for nodeTaintsPolicy */
			if (plugin == KP_P_NODE_AFFINITY)
				c->affinity_ok[ni >> 6] &= ~(1ULL << (ni & 63));
			else if (plugin == KP_P_TAINT_TOLERATION)
				c->taints_ok[ni >> 6] &= ~(1ULL << (ni & 63));
			if (!enabled)
				continue;
			int64_t rank = sqlite3_column_int64(st, 4);
			int earlier_plugin = c->static_reason[ni] >= 0 && s->reasons[c->static_reason[ni]].plugin !=
										kp_plugin_names[plugin];
			if (earlier_plugin)
				continue;
			if (c->static_reason[ni] >= 0 && rank >= c->static_rank[ni])
				continue;
			const char *msg = (const char *)sqlite3_column_text(st, 3);
			int r = last_r;
			if (r < 0 || !msg || strcmp(msg, last_msg)) {
				r = kp_reason_intern(s, kp_plugin_names[plugin], msg ? msg : "", 1);
				if (r < 0) {
					rc = kp_err_set(err, KP_NOMEM, "out of memory");
					break;
				}
				last_r = r;
				last_msg = s->reasons[r].msg;
			}
			c->static_reason[ni] = r;
			c->static_rank[ni] = rank;
			c->feasible[ni >> 6] &= ~(1ULL << (ni & 63));
		}
		if (!rc && step != SQLITE_DONE)
			rc = kp_err_set(err, KP_IO, "static filter %s: %s", kp_plugin_names[plugin], sqlite3_errmsg(db));
		sqlite3_finalize(st);
	}
	return rc;
}

/* Classes whose static spec is the same share one verdict: only the first
 * of each stays in temp.kp_classes (the SQL runs once for all of them); the
 * others are marked static_shared, with rep_of[class] the first one.  What
 * "the same" means is queries/plan/static_key.sql. */
static int share_static(sqlite3 *db, kp_snap *s, int32_t *rep_of, kp_err *err)
{
	sqlite3_stmt *st, *del = NULL;
	if (sqlite3_prepare_v2(db, kp_sql_plan_static_key, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "DELETE FROM temp.kp_classes WHERE class_id = ?1", -1, &del, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return kp_err_set(err, KP_IO, "static filters: %s", sqlite3_errmsg(db));
	}
	/* key text -> class index, open addressing */
	uint32_t nslots = 64;
	while (nslots < (uint32_t)s->nclasses * 2 + 64)
		nslots *= 2;
	int32_t *slot = kp_malloc(nslots * sizeof *slot);
	char **keys = kp_calloc(nslots, sizeof *keys);
	int rc = slot && keys ? KP_OK : kp_err_set(err, KP_NOMEM, "out of memory");
	for (uint32_t i = 0; slot && i < nslots; i++)
		slot[i] = -1;
	int step;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int ci = find_class(s, sqlite3_column_int64(st, 0));
		const char *key = (const char *)sqlite3_column_text(st, 1);
		if (ci < 0 || !key)
			continue;
		uint32_t h = (uint32_t)kp_hash64(key, strlen(key), 7) & (nslots - 1);
		while (slot[h] >= 0 && strcmp(keys[h], key))
			h = (h + 1) & (nslots - 1);
		if (slot[h] < 0) {
			if (!(keys[h] = kp_strdup(key)))
				rc = kp_err_set(err, KP_NOMEM, "out of memory");
			slot[h] = ci;
			continue;
		}
		kp_class *c = &s->classes[ci];
		rep_of[ci] = slot[h];
		c->static_shared = 1;
		sqlite3_reset(del);
		sqlite3_bind_int64(del, 1, c->db_id);
		if (sqlite3_step(del) != SQLITE_DONE)
			rc = kp_err_set(err, KP_IO, "static filters: %s", sqlite3_errmsg(db));
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_err_set(err, KP_IO, "static filters: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	sqlite3_finalize(del);
	for (uint32_t i = 0; keys && i < nslots; i++)
		kp_free(keys[i]);
	kp_free(keys);
	kp_free(slot);
	return rc;
}
