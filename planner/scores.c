/*
 * scores.c — see scores.h.  Integer arithmetic exactly as kube's Go code does
 * it (integer division truncates); floats only where kube uses float64.
 */
#include "scores.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>

int64_t kp_least_allocated(int64_t requested, int64_t alloc)
{
	if (alloc == 0)
		return -1;
	if (requested > alloc)
		return 0;
	return (alloc - requested) * KP_MAX_NODE_SCORE / alloc;
}

int64_t kp_most_allocated(int64_t requested, int64_t alloc)
{
	if (alloc == 0)
		return -1;
	if (requested > alloc)
		requested = alloc;
	return requested * KP_MAX_NODE_SCORE / alloc;
}

/* helper.BuildBrokenLinearFunction with scores scaled by 10 */
static int64_t broken_linear(int64_t p, const kp_shape_point *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p <= s[i].util) {
			if (i == 0)
				return s[0].score * 10;
			return s[i - 1].score * 10 +
			       (s[i].score * 10 - s[i - 1].score * 10) * (p - s[i - 1].util) / (s[i].util - s[i - 1].util);
		}
	}
	return n ? s[n - 1].score * 10 : 0;
}

int64_t kp_rtcr(int64_t requested, int64_t alloc, const kp_shape_point *shape, size_t n)
{
	if (alloc == 0)
		return -1;
	if (requested > alloc)
		return broken_linear(100, shape, n);
	return broken_linear(requested * 100 / alloc, shape, n);
}

int64_t kp_balanced_allocation(const double *f, size_t n)
{
	double std = 0;
	if (n == 2) {
		std = fabs(f[0] - f[1]) / 2;
	} else if (n > 2) {
		double mean = 0, var = 0;
		for (size_t i = 0; i < n; i++)
			mean += f[i];
		mean /= (double)n;
		for (size_t i = 0; i < n; i++)
			var += (f[i] - mean) * (f[i] - mean);
		std = sqrt(var / (double)n);
	}
	return (int64_t)((1 - std) * KP_MAX_NODE_SCORE);
}

int64_t kp_balanced_allocation_1_20(double cpu, double memory)
{
	if (cpu >= 1 || memory >= 1)
		return 0;
	return (int64_t)((1 - fabs(cpu - memory)) * KP_MAX_NODE_SCORE);
}

#define MB (1024LL * 1024)
int64_t kp_image_locality(int64_t sum, int64_t containers)
{
	int64_t min_t = 23 * MB, max_t = 1000 * MB * containers;
	if (max_t <= min_t)
		return 0;
	if (sum < min_t)
		sum = min_t;
	else if (sum > max_t)
		sum = max_t;
	return KP_MAX_NODE_SCORE * (sum - min_t) / (max_t - min_t);
}

static int alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

int kp_valid_label_value(const char *v)
{
	size_t n = strlen(v);
	if (n == 0)
		return 1;
	if (n > 63 || !alnum(v[0]) || !alnum(v[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!alnum(v[i]) && v[i] != '-' && v[i] != '_' && v[i] != '.')
			return 0;
	return 1;
}

int kp_valid_label_key(const char *k)
{
	const char *slash = strchr(k, '/');
	const char *name = slash ? slash + 1 : k;
	if (!*name || !kp_valid_label_value(name))
		return 0;
	if (slash) {
		size_t n = (size_t)(slash - k);
		if (n == 0 || n > 253)
			return 0;
		/* DNS-1123 subdomain: lowercase alphanumerics, '-' and '.', alphanumeric at the ends */
		for (size_t i = 0; i < n; i++) {
			char c = k[i];
			int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
			if (!ok || ((i == 0 || i == n - 1) && (c == '-' || c == '.')))
				return 0;
		}
	}
	return 1;
}

static int parse_i64(const char *s, long long *out);

int kp_tolerates_cmp(int op, int64_t tol, int64_t taint)
{
	return op == KP_TOL_GT ? taint > tol : op == KP_TOL_LT ? taint < tol : 0;
}

int kp_tolerates_str(const char *tkey, const char *top, const char *tvalue, const char *teffect,
		     const char *key, const char *value, const char *effect, int cmp_ops)
{
	tkey = tkey ? tkey : "";
	tvalue = tvalue ? tvalue : "";
	teffect = teffect ? teffect : "";
	value = value ? value : "";
	int exists = top && !strcmp(top, "Exists");
	int gt = top && !strcmp(top, "Gt"), lt = top && !strcmp(top, "Lt");
	/* "", Equal and Exists; Gt and Lt only with TaintTolerationComparisonOperators
	 * (core/v1 toleration.go ToleratesTaint, 1.35+) */
	if (top && top[0] && strcmp(top, "Equal") && !exists && !((gt || lt) && cmp_ops))
		return 0;
	if (teffect[0] && strcmp(teffect, effect ? effect : ""))
		return 0;
	if (tkey[0] && strcmp(tkey, key ? key : ""))
		return 0;
	if (!tkey[0] && !exists)
		return 0;
	if (exists)
		return 1;
	if (gt || lt) {   /* both values parse as base-10 int64, else not tolerated */
		long long a, b;
		return parse_i64(tvalue, &a) && parse_i64(value, &b) && kp_tolerates_cmp(gt ? KP_TOL_GT : KP_TOL_LT, a, b);
	}
	return strcmp(tvalue, value) == 0;
}

static int parse_i64(const char *s, long long *out)
{
	if (!s || !*s)
		return 0;
	errno = 0;
	char *end;
	*out = strtoll(s, &end, 10);
	return !errno && !*end;
}

int kp_match_expression_str(const char *op, const char *value, const char *const *values, size_t n)
{
	if (!op)
		return -1;
	if (!strcmp(op, "In") || !strcmp(op, "NotIn")) {
		for (size_t i = 0; i < n; i++)
			if (!kp_valid_label_value(values[i]))
				return 0;   /* the requirement does not parse: the term matches nothing */
		int found = 0;
		for (size_t i = 0; value && i < n; i++)
			found |= strcmp(values[i], value) == 0;
		return op[0] == 'I' ? found : !found;
	}
	if (!strcmp(op, "Exists"))
		return value != NULL;
	if (!strcmp(op, "DoesNotExist"))
		return value == NULL;
	if (!strcmp(op, "Gt") || !strcmp(op, "Lt")) {
		long long v, w;
		if (!value || n != 1 || !parse_i64(value, &v) || !parse_i64(values[0], &w))
			return 0;
		return op[0] == 'G' ? v > w : v < w;
	}
	return -1;
}
