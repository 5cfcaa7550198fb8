/*
 * snapshot_int.h — what the snapshot's files share (private to
 * planner/snapshot*.c):
 *
 *   snapshot.c           the snapshot in use: node and pod lookups, topology
 *                        keys, placing and removing pods, release;
 *   snapshot_match.c     the string table and the matching primitives (label
 *                        selectors, node selector requirements, tolerations);
 *   snapshot_load.c      kp_snap_load: the loader below, nodes, pods,
 *                        what-if moves, default-spreading selectors,
 *                        namespaces, disruption budgets;
 *   snapshot_classes.c   the scheduling classes (the pod specs);
 *   snapshot_counters.c  the incremental topology counters.
 *
 * The loader reads the queries of queries/snapshot/ (embedded at build time
 * as kp_sql_snapshot_*).  Everything it loads lives in the snapshot's arena;
 * the first error wins and is in L->err.
 */
#ifndef KP_SNAPSHOT_INT_H
#define KP_SNAPSHOT_INT_H

#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "snapshot.h"
#include "../common/json.h"

/* One kp_snap_load. */
typedef struct kp_loader {
	sqlite3 *db;
	kp_snap *s;
	kp_err *err;
	kp_arena tmp;                /* parsed JSON; released after the load */
	int32_t *node_of_sid;        /* node name sid -> node index */
	int32_t node_of_sid_len;
	int64_t *class_ids;          /* sorted db ids of classes, for lookup */
} kp_loader;

/* KP_IO with the database's message about loading `what`; returns the code */
int kp_ld_db_fail(kp_loader *L, const char *what);
static inline int kp_ld_nomem(kp_loader *L) { return kp_err_set(L->err, KP_NOMEM, "out of memory loading the cluster"); }

/* n bytes (at least 1) of the snapshot's arena; NULL when out of memory */
static inline void *kp_ld_alloc(kp_loader *L, size_t n) { return kp_arena_alloc(&L->s->arena, n ? n : 1); }

/* s interned (-1 when NULL or out of memory) */
static inline kp_sid kp_ld_intern(kp_loader *L, const unsigned char *s)
{
	return s ? kp_strtab_intern(&L->s->strs, (const char *)s) : -1;
}

static inline const char *kp_ld_col(sqlite3_stmt *st, int i) { return (const char *)sqlite3_column_text(st, i); }

/* Prepare sql (KP_INTR when interrupted: a query that ends early looks
 * complete, so no new one starts). */
int kp_ld_prepare(kp_loader *L, const char *sql, sqlite3_stmt **st);
/* 1 when sql compiles against this database (a table or column an older
 * import did not make: 0, and the caller reads the older form) */
int kp_ld_has_sql(kp_loader *L, const char *sql);
/* *n = the single integer sql returns (a count) */
int kp_ld_count(kp_loader *L, const char *sql, int *n);
/* index of the class with this database id (after kp_snap_load_classes), -1 */
int kp_ld_class(const kp_loader *L, int64_t id);

/* kp_sort comparator of kp_label by key */
int kp_ld_cmp_label(const void *a, const void *b, void *ctx);
/* NoSchedule, PreferNoSchedule, NoExecute; "" or NULL: KP_EFFECT_ANY; -1 unknown */
int kp_ld_effect(const char *e);
/* JSON array of strings -> interned ids (arena); NULL text: none */
int kp_ld_strs(kp_loader *L, const char *text, kp_sid **out, uint32_t *n);
/* one requirement from key, operator and a JSON array of values; ctx names
 * it in errors */
int kp_ld_req(kp_loader *L, kp_sreq *r, const char *key, const char *op, kp_json *vals, const char *ctx);
/* canonical selector JSON ([[key, op, [vals]], ...] or null) -> kp_sel */
int kp_ld_sel(kp_loader *L, const char *text, kp_sel *out);

/* snapshot_classes.c: every scheduling class (needs the nodes' resources) */
int kp_snap_load_classes(kp_loader *L);
/* snapshot_kube.c: the version-dependent inputs (request variants, declared features) */
int kp_snap_load_kube(kp_loader *L);

/* snapshot_storage.c: the volumes (storage.h) into s->st, or nothing */
int kp_snap_load_storage(kp_loader *L);
/* node selector terms JSON ([{"matchExpressions":[[k, op, [v]]], "matchFields":
 * [...]}], or "matchLabelExpressions") -> terms in the arena; ctx names it */
int kp_ld_terms(kp_loader *L, const char *text, kp_nterm **out, uint32_t *n, const char *ctx);
/* snapshot_dra.c: Dynamic Resource Allocation (dra.h) into s->dra, or nothing */
int kp_snap_load_dra(kp_loader *L);

/* snapshot_match.c */
/* 1 and *out when s is a whole decimal int64, else 0 */
int kp_snap_parse_i64(const char *s, int64_t *out);
void kp_strtab_release(kp_strtab *t);

#endif
