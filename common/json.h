/*
 * json.h — a small JSON reader for the values kplan itself writes into the
 * database (selectors, value lists).  Trees live in an arena.  Numbers are
 * kept as text.  Input from anywhere else is still parsed safely: any
 * deviation is an error, depth is bounded.
 */
#ifndef KP_JSON_H
#define KP_JSON_H

#include <stddef.h>
#include "kp.h"

enum { KP_J_NULL, KP_J_BOOL, KP_J_NUM, KP_J_STR, KP_J_ARR, KP_J_OBJ };

typedef struct kp_json kp_json;
struct kp_json {
	int type;
	size_t n;                /* items (ARR), pairs (OBJ) */
	char *str;               /* STR, NUM (text), BOOL ("true"/"false") */
	kp_json **items;         /* ARR: n items; OBJ: 2n (key, value) */
};

/* Parse NUL-terminated text; NULL on a syntax error or out of memory. */
kp_json *kp_json_parse(const char *text, kp_arena *a);

#endif
