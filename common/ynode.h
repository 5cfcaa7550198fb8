/*
 * ynode.h — the tree a YAML/JSON object is read into, and the callback that
 * receives each object: the types ydom.h's readers share with the reading
 * thread of ydom_pipe.c (a header of its own, so that neither depends on the
 * other).
 */
#ifndef KP_YNODE_H
#define KP_YNODE_H

#include <stddef.h>
#include <stdint.h>
#include "kp.h"

enum { KP_Y_SCALAR = 1, KP_Y_MAP = 2, KP_Y_SEQ = 3 };

typedef struct kp_ynode kp_ynode;
typedef struct kp_ypair { kp_ynode *key, *value; } kp_ypair;

struct kp_ynode {
	uint8_t type;
	uint8_t plain;           /* scalar: written without quotes (may be null/int/bool) */
	unsigned line, col;
	size_t n;                /* scalar: byte length; map: pairs; seq: items */
	uint64_t weight;
	union {
		char *str;           /* scalar, NUL-terminated */
		kp_ynode **items;    /* seq */
		kp_ypair *pairs;     /* map */
	} u;
};

typedef struct kp_yobj_info {
	unsigned doc;            /* 0-based document index in the stream */
	int in_list;             /* 1: an element of a List's items */
	const char *list_kind;   /* the List's kind when known before items, else NULL */
	/* the object holds a duplicate key: dup is the earliest second key,
	 * dup_first the key it repeats; else both NULL */
	const kp_ynode *dup, *dup_first;
} kp_yobj_info;

/* Return KP_OK to go on; anything else stops the walk and is returned. */
typedef int (*kp_yobj_fn)(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err);

#endif
