/*
 * ydom.h — YAML/JSON documents as small trees (libyaml events -> nodes).
 *
 * JSON is read by the same parser (YAML 1.1 flow style).  Every node keeps
 * its 1-based line and column for messages.  Aliases point at the anchored
 * node (a DAG, never copied); each node's `weight` is its size with aliases
 * expanded, and a document heavier than KP_YAML_MAX_WEIGHT, or nested deeper
 * than KP_YAML_MAX_DEPTH, is refused — an alias bomb costs nothing.
 *
 * kp_yaml_each_object() calls fn once per object: a top-level mapping, or —
 * for a `kind: List` (or any top-level mapping whose `items` sequence comes
 * before a kind that does not end in "List") — once per element of `items`,
 * each built and freed in turn, so a 1 GB `kubectl get pods -A -o yaml` never
 * sits in memory as one tree.
 *
 * Keys are unique in a mapping, compared by their string value (`1` and "1"
 * collide, as after kubectl's YAML-to-JSON conversion); keys a merge key
 * (`<<`) brings in are overridden by the mapping's own, not duplicates.  An
 * object holding a duplicate is still delivered, with info->dup set, and fn
 * refuses it (naming it); a duplicate in a List outside its items, or in
 * kp_yaml_parse_one's document, is a KP_PARSE error of the parse.
 */
#ifndef KP_YDOM_H
#define KP_YDOM_H

#include <stddef.h>
#include <stdint.h>
#include "kp.h"

#define KP_YAML_MAX_DEPTH 512
#define KP_YAML_MAX_WEIGHT 20000000ULL

#include "ynode.h"   /* kp_ynode, kp_yobj_info, kp_yobj_fn */

/* Parse data (len bytes, need not be NUL-terminated) and call fn per object.
 * Nodes live in arena `a`, which is reset before each object (do not keep
 * pointers across calls).  Empty documents are skipped.  Syntax errors are
 * KP_PARSE with file/line/col set. */
int kp_yaml_each_object(const char *data, size_t len, const char *file, kp_arena *a,
			kp_yobj_fn fn, void *ctx, kp_err *err);

/* Parse exactly one document (the first) into a tree in arena a; *out is NULL
 * for an empty stream.  Used for configuration files. */
int kp_yaml_parse_one(const char *data, size_t len, const char *file, kp_arena *a,
		      kp_ynode **out, kp_err *err);

/* The error for a duplicate key (KP_PARSE): `duplicate key "K" (first at line
 * L, column C)` located at the second key in file, naming object (may be NULL). */
int kp_yaml_dup_error(kp_err *err, const char *file, const kp_ynode *dup, const kp_ynode *first,
		      const char *object);

/* Lookups; NULL when absent. A null scalar counts as absent in kp_ymap_get. */
kp_ynode *kp_ymap_get(const kp_ynode *map, const char *key);
/* The first key of mapping m not in allowed (NULL-terminated), NULL when
 * every key is (the strict-fields checks of the configuration readers). */
const kp_ynode *kp_ymap_unknown_key(const kp_ynode *m, const char *const *allowed);
int kp_ynode_is_null(const kp_ynode *n);
const char *kp_ynode_type_name(const kp_ynode *n);   /* "mapping", "sequence", "string", "null", ... */

/* Serialise a tree as compact JSON (scalars that look like YAML ints,
 * floats, bools and nulls when plain become JSON numbers/bools/null). */
void kp_ynode_to_json(const kp_ynode *n, kp_sb *sb);

#endif
