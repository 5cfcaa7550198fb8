/*
 * cel_lib.c — the functions of the CEL subset and their overload table:
 * CEL's string functions (size, contains, startsWith, endsWith) and
 * ext.Strings' lowerAscii/upperAscii; Kubernetes' semver library
 * (apiserver/pkg/cel/library/semverlib.go over blang/semver v4) and quantity
 * library (library/quantity.go); the messages of runtime errors.
 *
 * Quantities are int64 milli-units (MilliValue), exact: a text finer than a
 * milli-unit or beyond int64 milli-units is an error (E_QTY_FINE,
 * E_QTY_RANGE), never rounded; add/sub/mul that leave int64 are an error
 * (E_QTY_RESULT) where kube's arbitrary-precision decimals go on.
 *
 *   semver("1.2.3-rc.1") < semver("1.2.3")          compare: -1
 *   quantity("1.5Gi") -> 1610612736000 milli-units
 *   quantity("1n")    -> E_QTY_FINE (kube: 1 nano)
 *
 * No function allocates: strings they build (lowerAscii, semver(s, true))
 * go to the evaluation's scratch buffer; when it is full the result is an
 * error (E_SCRATCH).
 */
#include "cel_int.h"
#include "quantity.h"

#include <stdio.h>
#include <string.h>

cel_val kp_cel_err(int kind, const cel_node *at, const char *s, size_t n)
{
	cel_val v = { .t = CT_ERR, .op = (uint8_t)kind, .node = at, .s = s, .n = n };
	return v;
}

cel_val kp_cel_overload_err(const cel_node *at, int ta, int tb)
{
	cel_val v = kp_cel_err(E_OVERLOAD, at, NULL, 0);
	v.ta = (uint8_t)ta;
	v.tb = (uint8_t)tb;
	return v;
}

static cel_val mk_int(int64_t i) { cel_val v = { .t = CT_INT, .i = i }; return v; }
static cel_val mk_bool(int b) { cel_val v = { .t = CT_BOOL, .i = b != 0 }; return v; }

/* ---- semver (blang/semver v4) ---- */

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int alnum_dash(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'))
			return 0;
	}
	return 1;
}

/* strconv.ParseUint(s, 10, 64): 0, or -1 with Go's message */
static int parse_u64(const char *s, size_t n, uint64_t *out, char *msg, size_t size)
{
	uint64_t v = 0;
	if (n == 0 || !all_digits(s, n)) {
		if (msg)
			snprintf(msg, size, "strconv.ParseUint: parsing \"%.*s\": invalid syntax", (int)n, s);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10) {
			if (msg)
				snprintf(msg, size, "strconv.ParseUint: parsing \"%.*s\": value out of range", (int)n, s);
			return -1;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int semver_num(const char *what, const char *s, size_t n, uint64_t *out, char *msg, size_t size)
{
	if (!all_digits(s, n)) {
		if (msg)
			snprintf(msg, size, "Invalid character(s) found in %s number \"%.*s\"", what, (int)n, s);
		return -1;
	}
	if (n > 1 && s[0] == '0') {
		if (msg)
			snprintf(msg, size, "%c%s number must not contain leading zeroes \"%.*s\"", what[0] - 32, what + 1,
				 (int)n, s);
		return -1;
	}
	return parse_u64(s, n, out, msg, size);
}

/* each '.'-separated identifier of s[0..n) through fn; -1 at the first that fails */
static int each_ident(const char *s, size_t n, int (*fn)(const char *, size_t, char *, size_t), char *msg, size_t size)
{
	size_t i = 0;
	for (;;) {
		size_t j = i;
		while (j < n && s[j] != '.')
			j++;
		if (fn(s + i, j - i, msg, size) != 0)
			return -1;
		if (j >= n)
			return 0;
		i = j + 1;
	}
}

static int pre_ident(const char *s, size_t n, char *msg, size_t size)
{
	uint64_t u;
	if (n == 0) {
		if (msg)
			snprintf(msg, size, "Prerelease is empty");
		return -1;
	}
	if (all_digits(s, n)) {
		if (n > 1 && s[0] == '0') {
			if (msg)
				snprintf(msg, size, "Numeric PreRelease version must not contain leading zeroes \"%.*s\"", (int)n, s);
			return -1;
		}
		return parse_u64(s, n, &u, msg, size);
	}
	if (!alnum_dash(s, n)) {
		if (msg)
			snprintf(msg, size, "Invalid character(s) found in prerelease \"%.*s\"", (int)n, s);
		return -1;
	}
	return 0;
}

static int build_ident(const char *s, size_t n, char *msg, size_t size)
{
	if (n == 0) {
		if (msg)
			snprintf(msg, size, "Build meta data is empty");
		return -1;
	}
	if (!alnum_dash(s, n)) {
		if (msg)
			snprintf(msg, size, "Invalid character(s) found in build meta data \"%.*s\"", (int)n, s);
		return -1;
	}
	return 0;
}

int kp_cel_semver_parse(const char *s, size_t n, cel_semver *v, char *msg, size_t size)
{
	if (msg && size)
		msg[0] = 0;
	if (!msg)
		size = 0;
	if (n == 0) {
		if (size)
			snprintf(msg, size, "Version string empty");
		return -1;
	}
	const char *d1 = memchr(s, '.', n);
	const char *d2 = d1 ? memchr(d1 + 1, '.', n - (size_t)(d1 + 1 - s)) : NULL;
	if (!d2) {
		if (size)
			snprintf(msg, size, "No Major.Minor.Patch elements found");
		return -1;
	}
	cel_semver r = { 0 };
	if (semver_num("major", s, (size_t)(d1 - s), &r.major, size ? msg : NULL, size) != 0 ||
	    semver_num("minor", d1 + 1, (size_t)(d2 - d1 - 1), &r.minor, size ? msg : NULL, size) != 0)
		return -1;
	const char *p = d2 + 1, *end = s + n;
	const char *plus = memchr(p, '+', (size_t)(end - p));
	const char *pend = plus ? plus : end;
	const char *dash = memchr(p, '-', (size_t)(pend - p));
	const char *patch_end = dash ? dash : pend;
	if (semver_num("patch", p, (size_t)(patch_end - p), &r.patch, size ? msg : NULL, size) != 0)
		return -1;
	if (dash) {
		r.pre = dash + 1;
		r.npre = (size_t)(pend - dash - 1);
		if (each_ident(r.pre, r.npre, pre_ident, size ? msg : NULL, size) != 0)
			return -1;
		if (r.npre == 0)
			r.pre = dash + 1;   /* "1.2.3-" : an empty prerelease, refused above */
	}
	if (plus && each_ident(plus + 1, (size_t)(end - plus - 1), build_ident, size ? msg : NULL, size) != 0)
		return -1;
	if (v)
		*v = r;
	return 0;
}

/* next identifier of a prerelease list at *p (< end) */
static void next_ident(const char **p, const char *end, const char **s, size_t *n)
{
	*s = *p;
	while (*p < end && **p != '.')
		(*p)++;
	*n = (size_t)(*p - *s);
	if (*p < end)
		(*p)++;
}

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

int kp_cel_semver_cmp(const cel_semver *a, const cel_semver *b)
{
	int c = cmp_u64(a->major, b->major);
	if (!c)
		c = cmp_u64(a->minor, b->minor);
	if (!c)
		c = cmp_u64(a->patch, b->patch);
	if (c)
		return c;
	if (!a->npre || !b->npre)
		return a->npre ? -1 : b->npre ? 1 : 0;   /* a release is greater than its prereleases */
	const char *pa = a->pre, *ea = a->pre + a->npre, *pb = b->pre, *eb = b->pre + b->npre;
	for (;;) {
		if (pa >= ea || pb >= eb)
			return pa < ea ? 1 : pb < eb ? -1 : 0;
		const char *sa, *sb;
		size_t na, nb;
		next_ident(&pa, ea, &sa, &na);
		next_ident(&pb, eb, &sb, &nb);
		int da = all_digits(sa, na), db = all_digits(sb, nb);
		if (da != db)
			return da ? -1 : 1;   /* numeric identifiers sort first */
		if (da) {
			uint64_t ua = 0, ub = 0;
			parse_u64(sa, na, &ua, NULL, 0);
			parse_u64(sb, nb, &ub, NULL, 0);
			c = cmp_u64(ua, ub);
		} else {
			int m = memcmp(sa, sb, na < nb ? na : nb);
			c = m ? (m < 0 ? -1 : 1) : cmp_u64(na, nb);
		}
		if (c)
			return c;
	}
}

/* semverlib.go normalizeAndParse's text: no "v", no leading zeros, .0 for
 * missing minor and patch.  0 and out[0..*outn), or -1 (E_SEMVER_NORM) */
static int semver_normalize(const char *s, size_t n, char *out, size_t *outn)
{
	if (n && s[0] == 'v') {
		s++;
		n--;
	}
	size_t k = 0, i = 0;
	int parts = 0;
	for (;;) {
		size_t j = i;
		while (j < n && (s[j] != '.' || parts == 2))
			j++;
		const char *p = s + i;
		size_t pn = j - i;
		if (pn > 1) {
			while (pn && *p == '0') {
				p++;
				pn--;
			}
			if (!pn || *p < '0' || *p > '9')
				out[k++] = '0';
		}
		memcpy(out + k, p, pn);
		k += pn;
		parts++;
		if (j >= n) {
			if (parts < 3 && (memchr(s + i, '+', j - i) || memchr(s + i, '-', j - i)))
				return -1;
			break;
		}
		out[k++] = '.';
		i = j + 1;
	}
	for (; parts < 3; parts++) {
		out[k++] = '.';
		out[k++] = '0';
	}
	*outn = k;
	return 0;
}

static cel_val semver_of(const char *s, size_t n, const cel_node *at)
{
	cel_val v = { .t = CT_SEMVER, .s = s, .n = n };
	if (kp_cel_semver_parse(s, n, &v.v, NULL, 0) != 0)
		return kp_cel_err(E_SEMVER, at, s, n);
	return v;
}

/* the text semver(s, true) parses, in the scratch buffer */
static cel_val normalized(const cel_val *a, const cel_node *call, cel_scratch *sc, const char **s, size_t *n)
{
	cel_val ok = { .t = CT_BOOL };
	*s = a[0].s;
	*n = a[0].n;
	if (!a[1].i)
		return ok;
	if (sc->cap - sc->used < a[0].n + 8)
		return kp_cel_err(E_SCRATCH, call, NULL, 0);
	char *out = sc->buf + sc->used;
	if (semver_normalize(a[0].s, a[0].n, out, n) != 0)
		return kp_cel_err(E_SEMVER_NORM, call, a[0].s, a[0].n);
	sc->used += *n;
	*s = out;
	return ok;
}

static cel_val f_semver(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	const char *s = a[0].s;
	size_t n = a[0].n;
	if (call->nkid == 2) {
		cel_val r = normalized(a, call, sc, &s, &n);
		if (r.t == CT_ERR)
			return r;
	}
	return semver_of(s, n, call);
}

static cel_val f_is_semver(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	const char *s = a[0].s;
	size_t n = a[0].n;
	if (call->nkid == 2) {
		cel_val r = normalized(a, call, sc, &s, &n);
		if (r.t == CT_ERR)
			return r.op == E_SEMVER_NORM ? mk_bool(0) : r;
	}
	return mk_bool(kp_cel_semver_parse(s, n, NULL, NULL, 0) == 0);
}

static int64_t u64_as_int(uint64_t u)
{
	/* Go's int64(uint64) conversion: two's complement wrap */
	return u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - ((uint64_t)1 << 63)) + INT64_MIN;
}

static cel_val f_major(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)sc;
	const cel_semver *v = &a[0].v;
	return mk_int(u64_as_int(call->op == FN_MAJOR ? v->major : call->op == FN_MINOR ? v->minor : v->patch));
}

/* ---- quantity ---- */

/* 1 when the (valid) quantity text is a whole number of milli-units */
static int qty_exact_milli(const char *s, size_t n)
{
	char dig[KP_QUANTITY_MAX_LEN + 1];
	size_t i = 0, nd = 0;
	int64_t e = 0;   /* value = digits x 10^e x suffix */
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	for (int frac = 0; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++) {
		if (s[i] == '.') {
			frac = 1;
			continue;
		}
		if (nd < sizeof dig)
			dig[nd++] = s[i];
		e -= frac;
	}
	while (nd && dig[nd - 1] == '0') {
		nd--;
		e++;
	}
	size_t k = 0;
	while (k < nd && dig[k] == '0')
		k++;
	if (k == nd)
		return 1;   /* zero */
	const char *suf = s + i;
	size_t sn = n - i;
	int bin = 0;
	int64_t exp10 = 0;
	if (sn == 2 && suf[1] == 'i') {
		static const char bins[] = "KMGTPE";
		const char *b = strchr(bins, suf[0]);
		if (!b || !suf[0])
			return 0;
		bin = (int)(b - bins) + 1;
	} else if (sn == 1) {
		static const char dec[] = "numkMGTPE";
		static const int pw[] = { -9, -6, -3, 3, 6, 9, 12, 15, 18 };
		const char *d = strchr(dec, suf[0]);
		if (!d || !suf[0])
			return 0;
		exp10 = pw[d - dec];
	} else if (sn > 1) {
		int neg = suf[1] == '-';
		for (size_t j = suf[1] == '+' || suf[1] == '-' ? 2 : 1; j < sn; j++)
			if (exp10 < INT64_C(1) << 40)   /* at most 2^31 - 1: checked by kp_quantity_parse */
				exp10 = exp10 * 10 + (suf[j] - '0');
		exp10 = neg ? -exp10 : exp10;
	}
	int64_t j = -(e + exp10 + 3);   /* 10^j must divide digits x 2^(10 bin) */
	if (j <= 0)
		return 1;
	if (!bin || j > 10 * bin)
		return 0;
	/* the digits (not divisible by 10) must be divisible by 5^j; then they are odd, and 2^(10 bin) >= 2^j */
	for (int64_t t = 0; t < j; t++) {
		unsigned rem = 0;
		for (size_t q = k; q < nd; q++) {
			unsigned cur = rem * 10 + (unsigned)(dig[q] - '0');
			dig[q] = (char)('0' + cur / 5);
			rem = cur % 5;
		}
		if (rem)
			return 0;
	}
	return 1;
}

int kp_cel_qty_parse(const char *s, size_t n, int64_t *milli)
{
	kp_err err = { 0 };
	int64_t m;
	int rc = kp_quantity_parsen(s, n, 1, &m, &err);
	if (rc == KP_PARSE)
		return E_QTY_SYNTAX;
	if (rc != KP_OK)
		return E_QTY_RANGE;
	if (!qty_exact_milli(s, n))
		return E_QTY_FINE;
	*milli = m;
	return 0;
}

static cel_val f_quantity(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)sc;
	cel_val v = { .t = CT_QTY };
	int rc = kp_cel_qty_parse(a[0].s, a[0].n, &v.i);
	return rc ? kp_cel_err(rc, call, a[0].s, a[0].n) : v;
}

static cel_val f_is_quantity(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)call;
	(void)sc;
	kp_err err = { 0 };
	int64_t m;
	return mk_bool(kp_quantity_parsen(a[0].s, a[0].n, 1, &m, &err) != KP_PARSE);
}

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

/* isGreaterThan, isLessThan, compareTo on quantities or versions */
static cel_val f_compare(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)sc;
	int c = a[0].t == CT_QTY ? cmp_i64(a[0].i, a[1].i) : kp_cel_semver_cmp(&a[0].v, &a[1].v);
	if (call->op == FN_COMPARE)
		return mk_int(c);
	return mk_bool(call->op == FN_GREATER ? c > 0 : c < 0);
}

static cel_val f_qty_int(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)sc;
	int64_t m = a[0].i;
	switch (call->op) {
	case FN_SIGN: return mk_int(m > 0 ? 1 : m < 0 ? -1 : 0);
	case FN_IS_INTEGER: return mk_bool(m % 1000 == 0);
	default: return m % 1000 ? kp_cel_err(E_NOT_INT, call, NULL, 0) : mk_int(m / 1000);
	}
}

static int mul_ok(int64_t a, int64_t b, int64_t *r)
{
	if (a == 0 || b == 0) {
		*r = 0;
		return 1;
	}
	if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
		return 0;
	if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
		return 0;
	*r = a * b;
	return 1;
}

/* add, sub (quantity or int) and mul (int); the result is one kube holds by pointer (see cel_eval.c's equality) */
static cel_val f_qty_arith(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)sc;
	cel_val v = { .t = CT_QTY, .op = 1 };
	int64_t x = a[0].i, b = a[1].i;
	int ok;
	if (call->op == FN_MUL) {
		ok = mul_ok(x, b, &v.i);
	} else {
		ok = a[1].t == CT_QTY || mul_ok(b, 1000, &b);
		if (ok && call->op == FN_SUB)
			ok = b > 0 ? x >= INT64_MIN + b : x <= INT64_MAX + b;
		else if (ok)
			ok = b > 0 ? x <= INT64_MAX - b : x >= INT64_MIN - b;
		if (ok)
			v.i = call->op == FN_SUB ? x - b : x + b;
	}
	return ok ? v : kp_cel_err(E_QTY_RESULT, call, NULL, 0);
}

/* ---- strings ---- */

static size_t utf8_len(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xC0) != 0x80;
	return k;
}

static cel_val f_size(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)call;
	(void)sc;
	return mk_int(a[0].t == CT_LIST ? a[0].node->nkid : (int64_t)utf8_len(a[0].s, a[0].n));
}

static cel_val f_match(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	(void)sc;
	const char *s = a[0].s, *t = a[1].s;
	size_t n = a[0].n, m = a[1].n;
	if (m > n)
		return mk_bool(0);
	if (call->op == FN_STARTS)
		return mk_bool(memcmp(s, t, m) == 0);
	if (call->op == FN_ENDS)
		return mk_bool(memcmp(s + n - m, t, m) == 0);
	for (size_t i = 0; i + m <= n; i++)
		if (memcmp(s + i, t, m) == 0)
			return mk_bool(1);
	return mk_bool(0);
}

static cel_val f_case(const cel_val *a, const cel_node *call, cel_scratch *sc)
{
	if (sc->cap - sc->used < a[0].n + 1)
		return kp_cel_err(E_SCRATCH, call, NULL, 0);
	char *d = sc->buf + sc->used;
	for (size_t i = 0; i < a[0].n; i++) {
		char c = a[0].s[i];
		if (call->op == FN_LOWER && c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		else if (call->op == FN_UPPER && c >= 'a' && c <= 'z')
			c = (char)(c - 32);
		d[i] = c;
	}
	d[a[0].n] = 0;
	sc->used += a[0].n + 1;
	cel_val v = { .t = CT_STRING, .s = d, .n = a[0].n };
	return v;
}

/* the overloads kube declares for these names, in the subset's types */
#define S CT_STRING
#define Q CT_QTY
#define V CT_SEMVER
#define I CT_INT
#define B CT_BOOL
const cel_overload kp_cel_overloads[] = {
	{"size", FN_SIZE, 0, 1, {S}, I, f_size},
	{"size", FN_SIZE, 0, 1, {CT_LIST}, I, f_size},
	{"size", FN_SIZE, 1, 1, {S}, I, f_size},
	{"size", FN_SIZE, 1, 1, {CT_LIST}, I, f_size},
	{"contains", FN_CONTAINS, 1, 2, {S, S}, B, f_match},
	{"startsWith", FN_STARTS, 1, 2, {S, S}, B, f_match},
	{"endsWith", FN_ENDS, 1, 2, {S, S}, B, f_match},
	{"lowerAscii", FN_LOWER, 1, 1, {S}, S, f_case},
	{"upperAscii", FN_UPPER, 1, 1, {S}, S, f_case},
	{"quantity", FN_QUANTITY, 0, 1, {S}, Q, f_quantity},
	{"isQuantity", FN_IS_QUANTITY, 0, 1, {S}, B, f_is_quantity},
	{"semver", FN_SEMVER, 0, 1, {S}, V, f_semver},
	{"semver", FN_SEMVER, 0, 2, {S, B}, V, f_semver},
	{"isSemver", FN_IS_SEMVER, 0, 1, {S}, B, f_is_semver},
	{"isSemver", FN_IS_SEMVER, 0, 2, {S, B}, B, f_is_semver},
	{"isGreaterThan", FN_GREATER, 1, 2, {Q, Q}, B, f_compare},
	{"isGreaterThan", FN_GREATER, 1, 2, {V, V}, B, f_compare},
	{"isLessThan", FN_LESS, 1, 2, {Q, Q}, B, f_compare},
	{"isLessThan", FN_LESS, 1, 2, {V, V}, B, f_compare},
	{"compareTo", FN_COMPARE, 1, 2, {Q, Q}, I, f_compare},
	{"compareTo", FN_COMPARE, 1, 2, {V, V}, I, f_compare},
	/* kube declares sign as a global function; its documentation writes q.sign(): both are accepted */
	{"sign", FN_SIGN, 0, 1, {Q}, I, f_qty_int},
	{"sign", FN_SIGN, 1, 1, {Q}, I, f_qty_int},
	{"isInteger", FN_IS_INTEGER, 1, 1, {Q}, B, f_qty_int},
	{"asInteger", FN_AS_INTEGER, 1, 1, {Q}, I, f_qty_int},
	{"add", FN_ADD, 1, 2, {Q, Q}, Q, f_qty_arith},
	{"add", FN_ADD, 1, 2, {Q, I}, Q, f_qty_arith},
	{"sub", FN_SUB, 1, 2, {Q, Q}, Q, f_qty_arith},
	{"sub", FN_SUB, 1, 2, {Q, I}, Q, f_qty_arith},
	{"mul", FN_MUL, 1, 2, {Q, I}, Q, f_qty_arith},
	{"major", FN_MAJOR, 1, 1, {V}, I, f_major},
	{"minor", FN_MINOR, 1, 1, {V}, I, f_major},
	{"patch", FN_PATCH, 1, 1, {V}, I, f_major},
};
#undef S
#undef Q
#undef V
#undef I
#undef B
const size_t kp_cel_noverloads = sizeof kp_cel_overloads / sizeof kp_cel_overloads[0];

/* ---- messages ---- */

static const char *op_name(const cel_node *n)
{
	static const char *const bin[] = { "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "@in", "_+_", "_-_", "_*_", "_/_", "_%_" };
	switch (n->kind) {
	case CN_BIN: return bin[n->op];
	case CN_AND: return "_&&_";
	case CN_OR: return "_||_";
	case CN_NOT: return "!_";
	case CN_NEG: return "-_";
	case CN_COND: return "_?_:_";
	case CN_INDEX: return "_[_]";
	case CN_CALL: return n->s;
	}
	return "?";
}

void kp_cel_err_format(const cel_val *v, char *msg, size_t size)
{
	int q = (int)(v->n > 64 ? 64 : v->n);
	const char *tb = v->tb ? kp_cel_type_name(v->tb, 0) : NULL;
	kp_err err = { 0 };
	int64_t m;
	switch (v->op) {
	case E_NO_KEY: snprintf(msg, size, "no such key: %.*s", q, v->s); break;
	case E_OVERLOAD:
		snprintf(msg, size, "no such overload: '%s' applied to '(%s%s%s)'", op_name(v->node),
			 kp_cel_type_name(v->ta, 0), tb ? ", " : "", tb ? tb : "");
		break;
	case E_OVERFLOW: snprintf(msg, size, "integer overflow"); break;
	case E_DIV0: snprintf(msg, size, "division by zero"); break;
	case E_MOD0: snprintf(msg, size, "modulus by zero"); break;
	case E_NOT_INT: snprintf(msg, size, "cannot convert value to integer"); break;
	case E_CONVERT:
		snprintf(msg, size, "type conversion error from '%s' to 'string'", kp_cel_type_name(v->ta, 0));
		break;
	case E_QTY_SYNTAX:
		kp_quantity_parsen(v->s, v->n, 1, &m, &err);
		snprintf(msg, size, "%s", err.msg);
		break;
	case E_QTY_RANGE:
		snprintf(msg, size, "kplan limit: quantity '%.*s' is beyond int64 milli-units", q, v->s);
		break;
	case E_QTY_FINE:
		snprintf(msg, size, "kplan limit: quantity '%.*s' is finer than a milli-unit", q, v->s);
		break;
	case E_QTY_RESULT: snprintf(msg, size, "kplan limit: quantity arithmetic beyond int64 milli-units"); break;
	case E_SEMVER: {
		char why[160];
		kp_cel_semver_parse(v->s, v->n, NULL, why, sizeof why);
		if (v->node && v->node->kind == CN_CALL)
			snprintf(msg, size, "%s", why);
		else
			snprintf(msg, size, "parse semantic version '%.*s': %s", q, v->s, why);
		break;
	}
	case E_SEMVER_NORM: snprintf(msg, size, "short version cannot contain PreRelease/Build meta data"); break;
	case E_SCRATCH:
		snprintf(msg, size, "kplan limit: strings built by one evaluation exceed %d bytes", KP_CEL_SCRATCH);
		break;
	case E_VALUE:
		snprintf(msg, size, "kplan: the device gives no usable value for '%.*s'", q, v->s);
		break;
	case E_STEPS:
		snprintf(msg, size, "kplan limit: the evaluation takes more than %d steps", KP_CEL_MAX_STEPS);
		break;
	case E_RESULT:
		snprintf(msg, size, "CEL result of type %s could not be converted to bool", kp_cel_type_name(v->ta, v->tb));
		break;
	default: snprintf(msg, size, "error %d", v->op);
	}
}
