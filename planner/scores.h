/*
 * scores.h — kube-scheduler's score formulas and matching helpers as plain C
 * functions.  The planner calls them in its loop; udf.c registers each one as
 * a kplan_* SQL function so the same arithmetic is available in SQL.
 * Formulas: kube-scheduler-semantics.md §7 (noderesources, imagelocality, helper/shape_score.go).
 */
#ifndef KP_SCORES_H
#define KP_SCORES_H

#include <stdint.h>
#include <stddef.h>

#define KP_MAX_NODE_SCORE 100

/* LeastAllocated per resource: (alloc - requested) * 100 / alloc; 0 when
 * requested > alloc; -1 when alloc == 0 (the resource is skipped). */
int64_t kp_least_allocated(int64_t requested, int64_t alloc);
/* MostAllocated per resource: min(requested, alloc) * 100 / alloc; -1 when alloc == 0. */
int64_t kp_most_allocated(int64_t requested, int64_t alloc);

/* RequestedToCapacityRatio shape: points (utilization 0..100, score 0..10). */
typedef struct kp_shape_point { int64_t util, score; } kp_shape_point;
/* Per resource: the broken-linear function at requested*100/alloc (score
 * already scaled to 0..100); -1 when alloc == 0. */
int64_t kp_rtcr(int64_t requested, int64_t alloc, const kp_shape_point *shape, size_t n);

/* BalancedAllocation: fractions f_i = min(1, requested_i / alloc_i);
 * (1 - std(f)) * 100 truncated; std = |f1 - f2| / 2 for two. */
int64_t kp_balanced_allocation(const double *fractions, size_t n);
/* kube 1.20's balancedResourceScorer: the cpu and memory fractions of
 * allocatable (requested / allocatable, 1 when allocatable is 0); 0 when
 * either is at least 1, else (1 - |cpu - memory|) * 100, truncated */
int64_t kp_balanced_allocation_1_20(double cpu_fraction, double memory_fraction);

/* ImageLocality from the sum of scaled image sizes and the container count. */
int64_t kp_image_locality(int64_t sum, int64_t containers);

/* Gt / Lt tolerations (TaintTolerationComparisonOperators): the taint's
 * integer value compared with the toleration's */
enum { KP_TOL_EQUAL = 0, KP_TOL_GT = 1, KP_TOL_LT = 2, KP_TOL_NEVER = 3 };
int kp_tolerates_cmp(int op, int64_t tol, int64_t taint);
/* Toleration (key, operator, value, effect) tolerates taint (key, value, effect);
 * empty strings as kube's empty fields; cmp_ops: Gt/Lt compare (else they
 * tolerate nothing).  Returns 1 or 0. */
int kp_tolerates_str(const char *tkey, const char *top, const char *tvalue, const char *teffect,
		     const char *key, const char *value, const char *effect, int cmp_ops);

/* A node selector requirement against one label value (NULL = absent):
 * op In NotIn Exists DoesNotExist Gt Lt; values as an array.  Returns 1, 0,
 * or -1 for an unknown operator.  A requirement kube cannot parse (In/NotIn
 * with a value that is not a valid label value) matches nothing, as in
 * nodeaffinity.go, which ignores terms that fail to parse. */
int kp_match_expression_str(const char *op, const char *value, const char *const *values, size_t n);

/* Kubernetes label syntax (apimachinery validation): a value is empty or at
 * most 63 characters [A-Za-z0-9] with [-_.] inside; a key is an optional DNS
 * subdomain prefix (<= 253) and '/' before a name like a value (1..63). */
int kp_valid_label_value(const char *v);
int kp_valid_label_key(const char *k);

#endif
