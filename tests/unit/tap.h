/*
 * tap.h — a minimal TAP producer for kplan's C unit tests (run by prove).
 *
 *   TAP_OK(cond, "name %d", i);  TAP_EQ_I64(got, want, "case %s", c->name);
 *   return tap_done();           prints the plan and returns the exit status
 */
#ifndef KP_TAP_H
#define KP_TAP_H

#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <inttypes.h>

static int tap_n, tap_failed;

#define TAP_OK(cond, ...) do { \
	int tap_c_ = !!(cond); \
	tap_n++; if (!tap_c_) tap_failed++; \
	printf("%s %d - ", tap_c_ ? "ok" : "not ok", tap_n); printf(__VA_ARGS__); printf("\n"); \
	if (!tap_c_) printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	fflush(stdout); \
} while (0)

#define TAP_EQ_I64(got, want, ...) do { \
	int64_t tap_g_ = (int64_t)(got), tap_w_ = (int64_t)(want); \
	TAP_OK(tap_g_ == tap_w_, __VA_ARGS__); \
	if (tap_g_ != tap_w_) printf("#   got %" PRId64 ", want %" PRId64 "\n", tap_g_, tap_w_); \
} while (0)

#define TAP_EQ_STR(got, want, ...) do { \
	const char *tap_g_ = (got), *tap_w_ = (want); \
	int tap_e_ = (tap_g_ && tap_w_) ? strcmp(tap_g_, tap_w_) == 0 : tap_g_ == tap_w_; \
	TAP_OK(tap_e_, __VA_ARGS__); \
	if (!tap_e_) printf("#   got  '%s'\n#   want '%s'\n", tap_g_ ? tap_g_ : "(null)", tap_w_ ? tap_w_ : "(null)"); \
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
