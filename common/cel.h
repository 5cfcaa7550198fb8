/*
 * cel.h — the subset of CEL (the Common Expression Language) that DRA device
 * selectors use, compiled once and evaluated per device: a DeviceClass's
 * spec.selectors[].cel.expression and a ResourceClaim request's selectors.
 *
 * The language, its types and functions, what is refused and why are in
 * docs/cel.md.  In short: the `device` variable (driver, attributes,
 * capacity, allowMultipleAllocations), literals of int, bool and string,
 * lists, `== != < <= > >=`, `in`, `+ - * / %` on int (overflow is an error),
 * `&& || !` with CEL's commutative error semantics, `? :`, has(),
 * cel.bind(), the string functions contains/startsWith/endsWith/size/
 * lowerAscii/upperAscii, and Kubernetes' semver() and quantity() libraries.
 * Anything else is refused at compile time with what and where (KP_PARSE).
 *
 *   kp_cel *e; kp_cel_pos pos; char msg[256];
 *   if (kp_cel_compile("device.attributes[\"gpu.example.com\"].model == 'A100'", &e, &pos, msg, sizeof msg) != KP_OK)
 *           fprintf(stderr, "%d:%d: %s\n", pos.line, pos.col, msg);
 *   kp_cel_device d = { .driver = "gpu.example.com", .lookup = my_lookup, .ctx = my_device };
 *   switch (kp_cel_eval(e, &d, msg, sizeof msg)) { case 1: match; case 0: no match; case -1: error (msg) }
 *   kp_cel_free(e);
 */
#ifndef KP_CEL_H
#define KP_CEL_H

#include <stddef.h>
#include <stdint.h>
#include "kp.h"

/* kube's limit on the length of a selector expression (CELSelectorExpressionMaxLength) */
#define KP_CEL_MAX_LEN 10240
/* kplan's limits: nesting of the expression tree, cel.bind() variables in one expression */
#define KP_CEL_MAX_DEPTH 100
#define KP_CEL_MAX_BINDS 16
/* bytes of strings one evaluation may build (string +, lowerAscii, upperAscii, semver(s, true)) */
#define KP_CEL_SCRATCH 4096
/* steps one evaluation may take — a node visited, or 64 bytes of string compared or copied
 * (kube's CELSelectorExpressionMaxCost is 1,000,000 too): without loops only lists and long
 * strings bound by cel.bind() and used again and again come near it */
#define KP_CEL_MAX_STEPS 1000000

typedef struct kp_cel kp_cel;                 /* a compiled expression (owns its memory) */
typedef struct kp_cel_pos { int line, col; } kp_cel_pos;   /* 1-based, within the expression text */

/* Compile src (NUL-terminated).  KP_OK and *out, or KP_PARSE with msg (what is
 * wrong or unsupported, e.g. "unsupported: the macro 'exists'") and *pos (the
 * line and column, in characters, of the construct); msg is at most size
 * bytes.  KP_NOMEM ("out of memory") when an allocation fails.  *out is NULL
 * on failure; pos and msg may be NULL.  Never crashes on any input: the
 * text is bounded (KP_CEL_MAX_LEN bytes, valid UTF-8) and so is its nesting
 * (KP_CEL_MAX_DEPTH). */
int kp_cel_compile(const char *src, kp_cel **out, kp_cel_pos *pos, char *msg, size_t size);
/* Free a compiled expression; NULL does nothing. */
void kp_cel_free(kp_cel *e);

enum { KP_CEL_NONE, KP_CEL_INT, KP_CEL_BOOL, KP_CEL_STRING, KP_CEL_VERSION, KP_CEL_QUANTITY };

/* A value the device provides.  INT: i; BOOL: b; STRING: s (NUL-terminated
 * UTF-8); VERSION: s, the semantic version text as the ResourceSlice holds it
 * (parsed as blang/semver's Parse does; invalid text is a runtime error);
 * QUANTITY: i in milli-units — kp_quantity_parse(text, 1, ...), MilliValue —
 * whatever the resource (so "80Gi" is 85899345920000 and "500m" is 500).  A
 * capacity finer than a milli-unit ("1n") cannot be represented: return NONE
 * for it, which makes its use a runtime error rather than a wrong answer.
 * Strings must stay valid until kp_cel_eval returns. */
typedef struct kp_cel_val {
	int type;
	int64_t i;
	int b;
	const char *s;
} kp_cel_val;

/* The device the expression sees.  lookup(ctx, map, domain, name, out):
 * map 0 is device.attributes, map 1 device.capacity; domain is the
 * qualified domain ("gpu.example.com") — the caller maps a ResourceSlice's
 * unqualified names to the driver's domain, as kube does; name the
 * attribute or capacity name.  Return 1 and fill *out when present, 0 when
 * absent.  With name NULL the question is whether the map has the domain at
 * all (`"d" in device.attributes`); *out is then not read.  lookup may be
 * NULL: every map is empty.  allow_multiple: device.allowMultipleAllocations. */
typedef int (*kp_cel_lookup)(void *ctx, int map, const char *domain, const char *name, kp_cel_val *out);
typedef struct kp_cel_device {
	const char *driver;
	int allow_multiple;
	kp_cel_lookup lookup;
	void *ctx;
} kp_cel_device;

/* Evaluate e for device d: 1 true, 0 false, -1 runtime error (msg set, e.g.
 * "no such key: model"; kube's text where kube has one).  A runtime error is
 * not "false": in kube the device does not match and the allocation fails
 * with the error; the caller decides.  No allocation; stack use is bounded
 * (about KP_CEL_SCRATCH bytes plus KP_CEL_MAX_DEPTH frames) and so is the
 * work (KP_CEL_MAX_STEPS, then an error); safe to call from several threads
 * on one compiled expression. */
int kp_cel_eval(const kp_cel *e, const kp_cel_device *d, char *msg, size_t size);

#endif
