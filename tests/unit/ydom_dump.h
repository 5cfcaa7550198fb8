/*
 * ydom_dump.h — a ydom reading as text, node by node (type, line, column,
 * plain or quoted, text, weight), each object with its info, then the
 * result: to compare two readers of the same input (test_ydom_json.c, and
 * the JSON oracle of tests/fuzz/fuzz_yaml.c).
 */
#ifndef KP_YDOM_DUMP_H
#define KP_YDOM_DUMP_H

#include <stdlib.h>
#include <string.h>
#include "../../common/ydom.h"

/* one reading: each object's dump, then the result */
static inline int dump_node(kp_sb *sb, const kp_ynode *n, int depth)
{
	if (depth > 600)
		return 0;
	kp_sb_printf(sb, "%d@%u:%u%s w%llu", n->type, n->line, n->col, n->plain ? "p" : "", (unsigned long long)n->weight);
	if (n->type == KP_Y_SCALAR) {
		kp_sb_addc(sb, '[');
		kp_sb_add_json_str(sb, n->u.str);
		kp_sb_printf(sb, "/%zu]", n->n);
	} else if (n->type == KP_Y_SEQ) {
		kp_sb_printf(sb, "(%zu:", n->n);
		for (size_t i = 0; i < n->n; i++)
			dump_node(sb, n->u.items[i], depth + 1), kp_sb_addc(sb, ',');
		kp_sb_addc(sb, ')');
	} else {
		kp_sb_printf(sb, "{%zu:", n->n);
		for (size_t i = 0; i < n->n; i++) {
			dump_node(sb, n->u.pairs[i].key, depth + 1);
			kp_sb_addc(sb, '=');
			dump_node(sb, n->u.pairs[i].value, depth + 1);
			kp_sb_addc(sb, ',');
		}
		kp_sb_addc(sb, '}');
	}
	return 0;
}

typedef struct reading { kp_sb sb; long objects, stop_at; } reading;

static inline int dump_on_obj(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err)
{
	reading *r = ctx;
	kp_sb_printf(&r->sb, "obj doc=%u list=%d kind=%s dup=%s:", info->doc, info->in_list,
		     info->list_kind ? info->list_kind : "-", info->dup ? info->dup->u.str : "-");
	dump_node(&r->sb, obj, 0);
	kp_sb_addc(&r->sb, '\n');
	if (++r->objects == r->stop_at)
		return kp_err_set(err, KP_PARSE, "stopped by the test");
	return KP_OK;
}

/* the reading of data as a string ("" on out of memory) */
static inline char *read_with(const char *reader, const char *data, size_t len, long stop_at)
{
	if (reader)
		setenv("KPLAN_JSON_READER", reader, 1);
	else
		unsetenv("KPLAN_JSON_READER");
	reading r = { .stop_at = stop_at };
	kp_sb_init(&r.sb);
	kp_arena a;
	kp_arena_init(&a, 4096);
	kp_err err = { 0 };
	int rc = kp_yaml_each_object(data, len, "t.json", &a, dump_on_obj, &r, &err);
	char msg[2048];
	kp_sb_printf(&r.sb, "rc=%d %s\n", rc, rc ? kp_err_format(&err, msg, sizeof msg) : "");
	kp_arena_release(&a);
	char *s = kp_strdup(kp_sb_ok(&r.sb) ? kp_sb_str(&r.sb) : "");
	kp_sb_release(&r.sb);
	unsetenv("KPLAN_JSON_READER");
	return s;
}

#endif
