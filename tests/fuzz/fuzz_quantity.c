/*
 * fuzz_quantity.c — libFuzzer target for kp_quantity_parsen (quantity.c).
 *
 * Besides ASan/UBSan, it checks what must hold for every text:
 *  - a result is written only on KP_OK; every failure is KP_PARSE or KP_RANGE
 *    with a message;
 *  - both parses (Value and MilliValue) agree on the syntax: one is KP_PARSE
 *    exactly when the other is;
 *  - Value rounds x up (away from zero) and MilliValue rounds 1000x up, so
 *    when both succeed with v = Value, m = MilliValue:
 *    x > 0: 1000(v-1) < m <= 1000v;  x < 0: 1000v <= m < 1000(v+1); x = 0: both 0;
 *    in particular m >= v for a non-negative value;
 *  - for a bare number N (no suffix): N"k" as Value, N"e3" as Value and N as
 *    MilliValue are the same number, and N"m" as MilliValue equals N as Value.
 * A broken invariant aborts (libFuzzer reports it as a crash).
 */
#include "common/kp.h"
#include "../../common/quantity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what, const uint8_t *s, size_t n)
{
	fprintf(stderr, "fuzz_quantity: %s for '%.*s'\n", what, (int)n, (const char *)s);
	abort();
}

static int parse(const char *s, size_t n, int milli, int64_t *out)
{
	kp_err err = { 0 };
	int64_t sentinel = INT64_C(0x5a5a5a5a5a5a5a5a);
	*out = sentinel;
	int rc = kp_quantity_parsen(s, n, milli, out, &err);
	if (rc != KP_OK) {
		if (rc != KP_PARSE && rc != KP_RANGE)
			fail("unexpected return code", (const uint8_t *)s, n);
		if (*out != sentinel)
			fail("result written on failure", (const uint8_t *)s, n);
		if (!err.msg[0] || err.code != rc)
			fail("failure without a message", (const uint8_t *)s, n);
	}
	return rc;
}

static int bare_number(const uint8_t *s, size_t n)
{
	size_t i = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	if (i == n)
		return 0;
	for (; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
			return 0;
	return 1;
}

static void same(const uint8_t *data, size_t size, const char *suffix, int milli, int want_rc, int64_t want)
{
	char buf[KP_QUANTITY_MAX_LEN + 8];
	size_t k = strlen(suffix);
	if (size + k > KP_QUANTITY_MAX_LEN)
		return;
	memcpy(buf, data, size);
	memcpy(buf + size, suffix, k);
	int64_t got;
	int rc = parse(buf, size + k, milli, &got);
	if (rc != want_rc || (rc == KP_OK && got != want))
		fail(suffix, data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	int64_t v, m;
	int rv = parse(s, size, 0, &v);
	int rm = parse(s, size, 1, &m);
	if ((rv == KP_PARSE) != (rm == KP_PARSE))
		fail("Value and MilliValue disagree on the syntax", data, size);
	if (rv == KP_OK && rm == KP_OK) {
		if (v == 0 || m == 0) {
			if (v != m)
				fail("zero in one unit only", data, size);
		} else if (v > 0) {
			if (m <= 0 || m / 1000 > v || (m / 1000 == v && m % 1000 != 0) || m <= (v - 1) * 1000)
				fail("MilliValue out of (1000(v-1), 1000v]", data, size);
		} else {
			if (m >= 0 || -(m / 1000) > -v || (m / 1000 == v && m % 1000 != 0) || m >= (v + 1) * 1000)
				fail("MilliValue out of [1000v, 1000(v+1))", data, size);
		}
	}
	if (rv == KP_OK && rm == KP_RANGE && v >= 0 && v <= INT64_MAX / 1000)
		fail("MilliValue overflows although 1000 x Value fits", data, size);
	if (rv == KP_RANGE && rm == KP_OK)
		fail("Value overflows but MilliValue does not", data, size);
	if (bare_number(data, size) && rv != KP_PARSE) {
		same(data, size, "k", 0, rm, m);
		same(data, size, "e3", 0, rm, m);
		same(data, size, "E+3", 0, rm, m);
		same(data, size, "m", 1, rv, v);
		same(data, size, "e-3", 1, rv, v);
	}
	return 0;
}
