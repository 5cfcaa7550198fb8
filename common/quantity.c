/*
 * quantity.c — exact parsing of Kubernetes resource quantities (see
 * quantity.h), behaving as resource.ParseQuantity followed by Value() or
 * MilliValue() in k8s.io/apimachinery.
 *
 * Contract:
 *   - Accepted text: [+-] digits [. digits] suffix, with at least one digit
 *     (".5" and "5." are valid, "." and "Gi" are not), suffix one of
 *     "" n u m k M G T P E Ki Mi Gi Ti Pi Ei, or e/E followed by [+-]digits.
 *     No whitespace anywhere.  Anything else is KP_PARSE.
 *   - The result is the exact value (times 1000 when milli is set) rounded
 *     away from zero to an integer: "0.1" -> 1, "-0.1" -> -1, "1n" -> 1.
 *     No floating point is used.
 *   - A result outside int64 is KP_RANGE, never wrapped or capped.
 *   - An exponent outside [-2147483647, 2147483647] is KP_PARSE (Kubernetes
 *     keeps it in an int32 scale and rejects the rest); within that range any
 *     exponent is handled in time proportional to the text length.
 *   - Text longer than KP_QUANTITY_MAX_LEN bytes is KP_PARSE.
 *   - *out is written only on KP_OK.  No allocation; the functions cannot
 *     fail in any other way and are safe to call from several threads.
 *
 * Method: the significant digits are collected into a small decimal digit
 * array with a power-of-ten exponent; a binary suffix multiplies the array by
 * 2^(10k) through repeated doubling; then the integer part is read, one is
 * added when a non-zero digit lies after the point, and the magnitude is
 * checked against int64 (2^63 - 1, or 2^63 for a negative result).
 *
 *   int64_t v; kp_err e = {0};
 *   kp_quantity_parse("1.5Gi", 0, &v, &e);   -> KP_OK, v = 1610612736
 *   kp_quantity_parse("250m", 1, &v, &e);    -> KP_OK, v = 250
 *   kp_quantity_parse("1.5.0", 0, &v, &e);   -> KP_PARSE, "invalid quantity '1.5.0': unknown suffix '.0'"
 */
#include "quantity.h"

#include <string.h>
#include <stdio.h>

/* Room for every digit of the text plus what 2^60 adds (19 digits). */
#define QTY_DIGITS (KP_QUANTITY_MAX_LEN + 32)

/* Largest exponent Kubernetes accepts after e/E (its scale is an int32 that
 * is negated, so MinInt32 is excluded too). */
#define QTY_MAX_EXP INT64_C(2147483647)

/* How much of an over-long text an error message quotes. */
#define QTY_QUOTE_MAX 40

/* Decimal number: digit[0] is the least significant digit. */
typedef struct qty_num {
	unsigned char digit[QTY_DIGITS];
	size_t len;
} qty_num;

/* Multiply by two in place.  The caller guarantees room for one more digit. */
static void qty_double(qty_num *x)
{
	unsigned carry = 0;
	for (size_t i = 0; i < x->len; i++) {
		unsigned d = x->digit[i] * 2u + carry;
		x->digit[i] = (unsigned char)(d % 10u);
		carry = d / 10u;
	}
	if (carry)
		x->digit[x->len++] = (unsigned char)carry;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Decimal power (n u m k M G T P E) of a one-letter suffix; 0 if not one. */
static int decimal_suffix(char c, int64_t *exp10)
{
	switch (c) {
	case 'n': *exp10 = -9; return 1;
	case 'u': *exp10 = -6; return 1;
	case 'm': *exp10 = -3; return 1;
	case 'k': *exp10 = 3; return 1;
	case 'M': *exp10 = 6; return 1;
	case 'G': *exp10 = 9; return 1;
	case 'T': *exp10 = 12; return 1;
	case 'P': *exp10 = 15; return 1;
	case 'E': *exp10 = 18; return 1;
	default: return 0;
	}
}

/* Power of two of a two-letter binary suffix (Ki .. Ei); 0 if not one. */
static int binary_suffix(char c0, char c1, int *exp2)
{
	static const char letters[] = "KMGTPE";
	if (c1 != 'i' || c0 == 0)
		return 0;
	const char *p = strchr(letters, c0);
	if (!p)
		return 0;
	*exp2 = 10 * (int)(p - letters + 1);
	return 1;
}

static int range_error(kp_err *err, const char *s, size_t n, int milli)
{
	return kp_err_set(err, KP_RANGE, "quantity '%.*s' out of range: %s does not fit int64",
			  (int)n, s, milli ? "value in millis" : "value");
}

int kp_quantity_parsen(const char *s, size_t n, int milli, int64_t *out, kp_err *err)
{
	if (!s)
		return kp_err_set(err, KP_PARSE, "invalid quantity: no text");
	if (n == 0)
		return kp_err_set(err, KP_PARSE, "invalid quantity '': empty");
	if (n > KP_QUANTITY_MAX_LEN)
		return kp_err_set(err, KP_PARSE, "invalid quantity '%.*s...': longer than %d bytes",
				  QTY_QUOTE_MAX, s, KP_QUANTITY_MAX_LEN);

	/* ---- scan: sign, integer digits, fraction digits ---- */
	size_t i = 0;
	int negative = 0;
	if (s[i] == '+' || s[i] == '-')
		negative = s[i++] == '-';
	size_t int_start = i;
	while (i < n && is_digit(s[i]))
		i++;
	size_t int_end = i, frac_start = i, frac_end = i;
	if (i < n && s[i] == '.') {
		frac_start = ++i;
		while (i < n && is_digit(s[i]))
			i++;
		frac_end = i;
	}
	if (int_end == int_start && frac_end == frac_start)
		return kp_err_set(err, KP_PARSE, "invalid quantity '%.*s': expected a number", (int)n, s);

	/* ---- suffix ---- */
	const char *suf = s + i;
	size_t suf_len = n - i;
	int64_t exp10 = 0;       /* power of ten from the suffix or exponent */
	int exp2 = 0;            /* power of two from a binary suffix */
	if (suf_len == 0) {
		/* plain number */
	} else if (suf_len == 1 && decimal_suffix(suf[0], &exp10)) {
		/* n u m k M G T P E */
	} else if (suf_len == 2 && binary_suffix(suf[0], suf[1], &exp2)) {
		/* Ki .. Ei */
	} else if (suf_len >= 2 && (suf[0] == 'e' || suf[0] == 'E')) {
		size_t j = 1;
		int exp_negative = 0;
		if (suf[j] == '+' || suf[j] == '-')
			exp_negative = suf[j++] == '-';
		if (j == suf_len)
			return kp_err_set(err, KP_PARSE, "invalid quantity '%.*s': exponent '%.*s' has no digits",
					  (int)n, s, (int)suf_len, suf);
		int64_t e = 0;
		for (; j < suf_len; j++) {
			if (!is_digit(suf[j]))
				return kp_err_set(err, KP_PARSE, "invalid quantity '%.*s': unknown suffix '%.*s'",
						  (int)n, s, (int)suf_len, suf);
			if (e > (QTY_MAX_EXP - (suf[j] - '0')) / 10)
				return kp_err_set(err, KP_PARSE, "invalid quantity '%.*s': exponent '%.*s' out of range",
						  (int)n, s, (int)suf_len, suf);
			e = e * 10 + (suf[j] - '0');
		}
		exp10 = exp_negative ? -e : e;
	} else {
		return kp_err_set(err, KP_PARSE, "invalid quantity '%.*s': unknown suffix '%.*s'",
				  (int)n, s, (int)suf_len, suf);
	}

	/* ---- exact value: x * 10^e10, x a digit array without leading or
	 * trailing zeros ---- */
	qty_num x;
	x.len = 0;
	/* all digits, integer part then fraction, most significant first */
	size_t total = (int_end - int_start) + (frac_end - frac_start);
	size_t first = 0;        /* index (in that sequence) of the first non-zero */
	size_t last = total;     /* one past the last non-zero */
#define QTY_DIGIT_AT(k) ((k) < int_end - int_start ? s[int_start + (k)] : s[frac_start + (k) - (int_end - int_start)])
	while (first < total && QTY_DIGIT_AT(first) == '0')
		first++;
	if (first == total) {
		/* zero, whatever the suffix or exponent */
		if (out)
			*out = 0;
		return KP_OK;
	}
	while (QTY_DIGIT_AT(last - 1) == '0')
		last--;
	for (size_t k = last; k > first; k--)
		x.digit[x.len++] = (unsigned char)(QTY_DIGIT_AT(k - 1) - '0');
#undef QTY_DIGIT_AT
	/* digits dropped after `last` were trailing zeros: each one is a factor of ten;
	 * fraction digits divide by ten each.  |e10| < 2^31 + KP_QUANTITY_MAX_LEN + 3. */
	int64_t e10 = exp10 + (int64_t)(total - last) - (int64_t)(frac_end - frac_start) + (milli ? 3 : 0);
	for (int k = 0; k < exp2; k++)
		qty_double(&x);

	/* ---- integer part, rounded away from zero ---- */
	/* The value is x * 10^e10 with x >= 1, so once x.len + e10 digits exceed
	 * 19 it is at least 10^19 > 2^63. */
	int64_t int_digits = (int64_t)x.len + e10;
	if (int_digits > 19)
		return range_error(err, s, n, milli);
	uint64_t mag = 0;
	int fraction = 0;
	if (int_digits <= 0) {
		fraction = 1;    /* 0 < value < 1 */
	} else {
		for (int64_t k = 0; k < int_digits; k++) {
			/* position k from the most significant digit; beyond x, zeros */
			int64_t pos = (int64_t)x.len - 1 - k;
			unsigned d = pos >= 0 ? x.digit[pos] : 0;
			mag = mag * 10u + d;     /* at most 19 digits: no uint64 overflow */
		}
		for (int64_t pos = (int64_t)x.len - 1 - int_digits; pos >= 0; pos--) {
			if (x.digit[pos]) {
				fraction = 1;
				break;
			}
		}
	}
	mag += (uint64_t)fraction;
	uint64_t limit = negative ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
	if (mag > limit)
		return range_error(err, s, n, milli);
	if (out) {
		if (!negative)
			*out = (int64_t)mag;
		else if (mag == (uint64_t)INT64_MAX + 1u)
			*out = INT64_MIN;
		else
			*out = -(int64_t)mag;
	}
	return KP_OK;
}

int kp_quantity_parse(const char *s, int milli, int64_t *out, kp_err *err)
{
	if (!s)
		return kp_quantity_parsen(NULL, 0, milli, out, err);
	/* Measure at most one byte past the limit, so a huge string costs nothing. */
	size_t n = 0;
	while (n <= KP_QUANTITY_MAX_LEN && s[n])
		n++;
	return kp_quantity_parsen(s, n, milli, out, err);
}

int kp_resource_is_milli(const char *resource)
{
	return resource && strcmp(resource, "cpu") == 0;
}

void kp_capacity_fmt_amount(const char *res, int64_t v, char *buf, size_t size)
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
