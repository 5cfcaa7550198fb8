/*
 * udf.c — kplan's SQL functions, one table, one registration function shared
 * by the CLI (compiled with -DSQLITE_CORE) and the loadable extension
 * build/kplan.so (compiled without it; entry point sqlite3_kplan_init).
 *
 *   sqlite> .load build/kplan
 *   sqlite> SELECT kplan_quantity('1.5Gi'), kplan_quantity('250m', 'cpu');
 *   1610612736|250
 *
 * Every function is DETERMINISTIC and INNOCUOUS; given NULL it returns NULL,
 * given a value it cannot use it raises an SQL error — never a crash.
 */
#include "udf.h"
#ifndef SQLITE_CORE
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#endif

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include "../common/kp.h"
#include "../common/quantity.h"
#include "scores.h"
#include "../common/json.h"

static int any_null(int argc, sqlite3_value **argv)
{
	for (int i = 0; i < argc; i++)
		if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
			return 1;
	return 0;
}

/* an integer argument, or an SQL error; returns 0 on error (already reported) */
static int int_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn, int64_t *out)
{
	int t = sqlite3_value_numeric_type(v);
	if (t != SQLITE_INTEGER) {
		char msg[200];
		snprintf(msg, sizeof msg, "%s: expected an integer argument", fn);
		sqlite3_result_error(ctx, msg, -1);
		return 0;
	}
	*out = sqlite3_value_int64(v);
	return 1;
}

static const char *text_arg(sqlite3_value *v)
{
	const unsigned char *t = sqlite3_value_text(v);
	return t ? (const char *)t : "";
}

/* kplan_quantity(text [, resource]) -> integer in kplan's units:
 * millicores when resource is 'cpu', else the base unit (bytes, counts). */
static void fn_quantity(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || (argc > 1 && sqlite3_value_type(argv[1]) == SQLITE_NULL))
		return;
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	int milli = argc > 1 && kp_resource_is_milli((const char *)sqlite3_value_text(argv[1]));
	if (!text) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	kp_err err = { 0 };
	int64_t v;
	if (kp_quantity_parse(text, milli, &v, &err) != KP_OK) {
		char msg[1200];
		snprintf(msg, sizeof msg, "kplan_quantity: %s", err.msg);
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	sqlite3_result_int64(ctx, v);
}

/* kplan_tolerates(tol_key, tol_operator, tol_value, tol_effect, taint_key, taint_value, taint_effect
 * [, comparison_operators]): the 8th argument 1 lets Gt/Lt compare
 * (TaintTolerationComparisonOperators); without it they tolerate nothing */
static void fn_tolerates(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	/* NULL toleration fields are empty fields; a NULL taint key is no taint */
	if (sqlite3_value_type(argv[4]) == SQLITE_NULL || sqlite3_value_type(argv[6]) == SQLITE_NULL)
		return;
	const char *op = sqlite3_value_type(argv[1]) == SQLITE_NULL ? "Equal" : text_arg(argv[1]);
	if (strcmp(op, "Equal") && strcmp(op, "Exists") && strcmp(op, "Gt") && strcmp(op, "Lt") && op[0]) {
		sqlite3_result_error(ctx, "kplan_tolerates: operator must be Equal, Exists, Gt or Lt", -1);
		return;
	}
	int cmp = argc > 7 && sqlite3_value_int(argv[7]) != 0;
	sqlite3_result_int(ctx, kp_tolerates_str(text_arg(argv[0]), op, text_arg(argv[2]), text_arg(argv[3]),
						 text_arg(argv[4]), text_arg(argv[5]), text_arg(argv[6]), cmp));
}

/* kplan_match_expression(operator, label_value_or_NULL, values_json) */
static void fn_match_expression(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[2]) == SQLITE_NULL)
		return;
	kp_arena a;
	kp_arena_init(&a, 1024);
	kp_json *vals = kp_json_parse(text_arg(argv[2]), &a);
	if (!vals || vals->type != KP_J_ARR) {
		kp_arena_release(&a);
		sqlite3_result_error(ctx, "kplan_match_expression: values must be a JSON array of strings", -1);
		return;
	}
	const char **v = kp_arena_alloc(&a, (vals->n ? vals->n : 1) * sizeof *v);
	if (!v) {
		kp_arena_release(&a);
		sqlite3_result_error_nomem(ctx);
		return;
	}
	for (size_t i = 0; i < vals->n; i++) {
		if (vals->items[i]->type != KP_J_STR) {
			kp_arena_release(&a);
			sqlite3_result_error(ctx, "kplan_match_expression: values must be a JSON array of strings", -1);
			return;
		}
		v[i] = vals->items[i]->str;
	}
	const char *value = sqlite3_value_type(argv[1]) == SQLITE_NULL ? NULL : text_arg(argv[1]);
	int r = kp_match_expression_str(text_arg(argv[0]), value, v, vals->n);
	kp_arena_release(&a);
	if (r < 0)
		sqlite3_result_error(ctx, "kplan_match_expression: operator must be In, NotIn, Exists, DoesNotExist, Gt or Lt", -1);
	else
		sqlite3_result_int(ctx, r);
}

/* kplan_least_allocated / kplan_most_allocated(requested, allocatable): 0..100,
 * NULL when allocatable is 0 (kube leaves the resource out) */
static void alloc_score(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, int most)
{
	int64_t req, alloc;
	if (!int_arg(ctx, argv[0], fn, &req) || !int_arg(ctx, argv[1], fn, &alloc))
		return;
	/* (alloc - req) * 100 and req * 100 must fit in 64 bits */
	if (req < 0 || alloc < 0 || req > INT64_MAX / 100 || alloc > INT64_MAX / 100) {
		char msg[200];
		snprintf(msg, sizeof msg, "%s: arguments out of range", fn);
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	int64_t v = most ? kp_most_allocated(req, alloc) : kp_least_allocated(req, alloc);
	if (v >= 0)
		sqlite3_result_int64(ctx, v);
}

static void fn_least_allocated(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	if (any_null(argc, argv))
		return;
	alloc_score(ctx, argv, "kplan_least_allocated", 0);
}

static void fn_most_allocated(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	if (any_null(argc, argv))
		return;
	alloc_score(ctx, argv, "kplan_most_allocated", 1);
}

/* kplan_requested_to_capacity_ratio(requested, allocatable, shape_json):
 * shape as [[utilization, score], ...] or [{"utilization": u, "score": s}, ...] */
static void fn_rtcr(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	if (any_null(argc, argv))
		return;
	int64_t req, alloc;
	if (!int_arg(ctx, argv[0], "kplan_requested_to_capacity_ratio", &req) ||
	    !int_arg(ctx, argv[1], "kplan_requested_to_capacity_ratio", &alloc))
		return;
	if (req < 0 || alloc < 0 || req > INT64_MAX / 100) {
		sqlite3_result_error(ctx, "kplan_requested_to_capacity_ratio: arguments out of range", -1);
		return;
	}
	kp_arena a;
	kp_arena_init(&a, 1024);
	kp_json *j = kp_json_parse(text_arg(argv[2]), &a);
	kp_shape_point pts[32];
	size_t n = 0;
	int ok = j && j->type == KP_J_ARR && j->n >= 1 && j->n <= 32;
	for (size_t i = 0; ok && i < j->n; i++) {
		kp_json *p = j->items[i], *u = NULL, *sc = NULL;
		if (p->type == KP_J_ARR && p->n == 2) {
			u = p->items[0];
			sc = p->items[1];
		} else if (p->type == KP_J_OBJ) {
			for (size_t k = 0; k < p->n; k++) {
				if (!strcmp(p->items[2 * k]->str, "utilization"))
					u = p->items[2 * k + 1];
				if (!strcmp(p->items[2 * k]->str, "score"))
					sc = p->items[2 * k + 1];
			}
		}
		ok = u && sc && u->type == KP_J_NUM && sc->type == KP_J_NUM;
		if (ok) {
			pts[n].util = atoll(u->str);
			pts[n].score = atoll(sc->str);
			ok = pts[n].util >= 0 && pts[n].util <= 100 && pts[n].score >= 0 && pts[n].score <= 10 &&
			     (n == 0 || pts[n].util > pts[n - 1].util);
			n++;
		}
	}
	kp_arena_release(&a);
	if (!ok) {
		sqlite3_result_error(ctx, "kplan_requested_to_capacity_ratio: shape must be 1..32 points "
				     "[utilization 0..100 increasing, score 0..10]", -1);
		return;
	}
	int64_t v = kp_rtcr(req, alloc, pts, n);
	if (v >= 0)
		sqlite3_result_int64(ctx, v);
}

/* kplan_balanced_allocation(requested1, allocatable1, requested2, allocatable2, ...) */
static void fn_balanced(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	if (argc < 2 || argc % 2 || argc > 64) {
		sqlite3_result_error(ctx, "kplan_balanced_allocation: pass (requested, allocatable) pairs", -1);
		return;
	}
	if (any_null(argc, argv))
		return;
	double f[32];
	size_t n = 0;
	for (int i = 0; i < argc; i += 2) {
		int64_t req, alloc;
		if (!int_arg(ctx, argv[i], "kplan_balanced_allocation", &req) ||
		    !int_arg(ctx, argv[i + 1], "kplan_balanced_allocation", &alloc))
			return;
		if (req < 0 || alloc < 0) {
			sqlite3_result_error(ctx, "kplan_balanced_allocation: arguments out of range", -1);
			return;
		}
		if (alloc == 0)
			continue;
		double x = (double)req / (double)alloc;
		f[n++] = x > 1 ? 1 : x;
	}
	sqlite3_result_int64(ctx, kp_balanced_allocation(f, n));
}

/* kplan_image_locality(sum_of_scaled_image_bytes, containers) */
static void fn_image_locality(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	if (any_null(argc, argv))
		return;
	int64_t sum, n;
	if (!int_arg(ctx, argv[0], "kplan_image_locality", &sum) || !int_arg(ctx, argv[1], "kplan_image_locality", &n))
		return;
	if (sum < 0 || n < 1 || n > 1000000) {
		sqlite3_result_error(ctx, "kplan_image_locality: arguments out of range", -1);
		return;
	}
	sqlite3_result_int64(ctx, kp_image_locality(sum, n));
}

/* kplan_selector_match(selector_json, labels_json): kplan's canonical
 * selectors ([[key, op, [values]], ...]; NULL matches nothing) against a JSON
 * object of labels, e.g. from json_group_object(key, value). */
static void fn_selector_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_int(ctx, 0);
		return;
	}
	kp_arena a;
	kp_arena_init(&a, 2048);
	kp_json *sel = kp_json_parse(text_arg(argv[0]), &a);
	kp_json *labels = sqlite3_value_type(argv[1]) == SQLITE_NULL ? NULL : kp_json_parse(text_arg(argv[1]), &a);
	int ok = sel && sel->type == KP_J_ARR && (sqlite3_value_type(argv[1]) == SQLITE_NULL ||
						  (labels && labels->type == KP_J_OBJ));
	int match = 1;
	for (size_t i = 0; ok && match && i < sel->n; i++) {
		kp_json *r = sel->items[i];
		ok = r->type == KP_J_ARR && r->n == 3 && r->items[0]->type == KP_J_STR && r->items[1]->type == KP_J_STR &&
		     r->items[2]->type == KP_J_ARR;
		if (!ok)
			break;
		const char *value = NULL;
		for (size_t k = 0; labels && k < labels->n; k++)
			if (!strcmp(labels->items[2 * k]->str, r->items[0]->str) && labels->items[2 * k + 1]->type == KP_J_STR)
				value = labels->items[2 * k + 1]->str;
		kp_json *vals = r->items[2];
		size_t nv = vals->n;
		const char **v = kp_arena_alloc(&a, (nv ? nv : 1) * sizeof *v);
		if (!v) {
			kp_arena_release(&a);
			sqlite3_result_error_nomem(ctx);
			return;
		}
		for (size_t k = 0; k < nv; k++)
			v[k] = vals->items[k]->type == KP_J_STR ? vals->items[k]->str : "";
		int m = kp_match_expression_str(r->items[1]->str, value, v, nv);
		ok = m >= 0;
		match = m == 1;
	}
	kp_arena_release(&a);
	if (!ok)
		sqlite3_result_error(ctx, "kplan_selector_match: malformed selector or labels JSON", -1);
	else
		sqlite3_result_int(ctx, match);
}

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_text(ctx, KPLAN_VERSION, -1, SQLITE_STATIC);
}

static const struct {
	const char *name;
	int nargs;
	void (*fn)(sqlite3_context *, int, sqlite3_value **);
} functions[] = {
	{ "kplan_quantity", 1, fn_quantity },
	{ "kplan_quantity", 2, fn_quantity },
	{ "kplan_version", 0, fn_version },
	{ "kplan_tolerates", 7, fn_tolerates },
	{ "kplan_tolerates", 8, fn_tolerates },
	{ "kplan_match_expression", 3, fn_match_expression },
	{ "kplan_least_allocated", 2, fn_least_allocated },
	{ "kplan_most_allocated", 2, fn_most_allocated },
	{ "kplan_requested_to_capacity_ratio", 3, fn_rtcr },
	{ "kplan_balanced_allocation", -1, fn_balanced },
	{ "kplan_image_locality", 2, fn_image_locality },
	{ "kplan_selector_match", 2, fn_selector_match },
};

int kp_udf_register(sqlite3 *db)
{
	for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
		int rc = sqlite3_create_function(db, functions[i].name, functions[i].nargs,
						 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
						 functions[i].fn, NULL, NULL);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

#ifndef SQLITE_CORE
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_kplan_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi)
{
	SQLITE_EXTENSION_INIT2(pApi);
	(void)pzErrMsg;
	return kp_udf_register(db);
}
#endif
