/*
 * quantity.h — Kubernetes resource.Quantity parsing, exactly.
 *
 * Grammar (k8s.io/apimachinery/pkg/api/resource/quantity.go):
 *   <quantity> ::= <signedNumber><suffix>
 *   <suffix>   ::= "" | n | u | m | k | M | G | T | P | E
 *                | Ki | Mi | Gi | Ti | Pi | Ei
 *                | e<signedNumber> | E<signedNumber>
 * "1.5Gi", "500m", "1e3", "0.5", "+1", ".5" are valid; "1.5.0", "1Q", "" are not.
 *
 * The result is an exact integer: the value times 1000 when milli is set
 * (MilliValue, used for cpu), else the value (Value), rounded up — away from
 * zero — to the next integer, as Kubernetes rounds.  Overflow of int64 is an
 * error (KP_RANGE), never a wrap.
 *
 *   int64_t v; kp_quantity_parse("1.5Gi", 0, &v, &err);   -> 1610612736
 *   kp_quantity_parse("100m", 1, &v, &err);                -> 100
 *   kp_quantity_parse("0.1", 0, &v, &err);                 -> 1 (rounded up)
 */
#ifndef KP_QUANTITY_H
#define KP_QUANTITY_H

#include <stdint.h>
#include <stddef.h>
#include "kp.h"

/* Longest quantity text accepted (kplan limit; Kubernetes has none). */
#define KP_QUANTITY_MAX_LEN 256

/* Parse s (NUL-terminated).  milli: 1 = MilliValue (cpu), 0 = Value.
 * Returns KP_OK, KP_PARSE (syntax; message names the bad part) or KP_RANGE
 * (does not fit int64).  Negative quantities parse (callers reject them). */
int kp_quantity_parse(const char *s, int milli, int64_t *out, kp_err *err);

/* Same for a buffer that need not be NUL-terminated. */
int kp_quantity_parsen(const char *s, size_t n, int milli, int64_t *out, kp_err *err);

/* 1 when this resource is measured in millis by kplan (only "cpu"). */
int kp_resource_is_milli(const char *resource);

/* An amount of a resource as kplan capacity shows it, in the reasons the
 * planner writes (planner/capacity*.c) and in the text summary
 * (reports/capacity_text.c): cpu in cores (millicores below 10), memory and
 * ephemeral-storage in Ki/Mi/Gi/Ti, others as is.  Cannot fail; truncates
 * to size. */
void kp_capacity_fmt_amount(const char *res, int64_t v, char *buf, size_t size);

#endif
