/*
 * fuzz_keys.h — the duplicate-key oracle the yaml and config targets share.
 *
 * keys_scan() reads the input with libyaml's event API alone (no ydom) and
 * says whether some mapping has two keys with the same string value: the
 * rule ydom.c enforces, found a second, independent way.  keys_tree_ok()
 * walks a tree ydom built and checks that no mapping in it holds two equal
 * keys (merged keys included).  The targets abort() when ydom and the scan
 * disagree.
 */
#ifndef KP_FUZZ_KEYS_H
#define KP_FUZZ_KEYS_H

#include "common/kp.h"
#include "../../common/ydom.h"

#include <yaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct keys_str { const char *s; size_t n; } keys_str;

static int keys_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const keys_str *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->s, y->s, n);
	return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* 1 when two of the n strings are equal (sorts v) */
static int keys_repeat(keys_str *v, size_t n)
{
	kp_sort(v, n, sizeof *v, keys_cmp, NULL);
	for (size_t i = 1; i < n; i++)
		if (!keys_cmp(&v[i - 1], &v[i], NULL))
			return 1;
	return 0;
}

/* Inputs ydom rewrites before libyaml reads them (JSON strings holding DEL,
 * C1 controls, U+2028/9, U+FEFF, U+FFFE/F): the scan would read other text. */
static int keys_rewritten(const uint8_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (d[i] == 0x7F || (d[i] == 0xC2 && i + 1 < n && d[i + 1] >= 0x80 && d[i + 1] <= 0x9F) ||
		    ((d[i] == 0xE2 || d[i] == 0xEF) && i + 2 < n &&
		     ((d[i + 1] == 0x80 && (d[i + 2] == 0xA8 || d[i + 2] == 0xA9)) ||
		      (d[i + 1] == 0xBB && d[i + 2] == 0xBF) || (d[i + 1] == 0xBF && d[i + 2] >= 0xBE))))
			return 1;
	return 0;
}

typedef struct keys_frame { int map; size_t first; } keys_frame;   /* first: its keys in the key stack */
typedef struct keys_anchor { char *name; char *value; size_t n; } keys_anchor;   /* value NULL: a collection */

/* 1: some mapping repeats a key; 0: none; -1: not comparable (a syntax
 * error first, a collection or unknown alias as a key, rewritten input).
 * first_doc: stop after the first document (kp_yaml_parse_one). */
static int keys_scan(const uint8_t *data, size_t size, int first_doc)
{
	if (keys_rewritten(data, size))
		return -1;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		abort();
	yaml_parser_set_input_string(&p, data, size);
	keys_frame *fr = NULL;
	keys_str *keys = NULL;
	keys_anchor *an = NULL;
	char **owned = NULL;
	size_t nfr = 0, cfr = 0, nk = 0, ck = 0, na = 0, ca = 0, no = 0, co = 0;
	int res = 0, done = 0;
	/* whether the next node of the innermost frame is a key */
#define KEY_NEXT() (nfr && fr[nfr - 1].map && (nk - fr[nfr - 1].first) % 2 == 0)
	while (!done && res == 0) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			res = -1;
			break;
		}
		const char *anchor = NULL, *val = NULL;
		size_t vlen = 0;
		int is_key = KEY_NEXT(), node = 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			node = 0;
			break;
		case YAML_DOCUMENT_END_EVENT:
			done = first_doc;
			na = 0;
			node = 0;
			break;
		case YAML_SCALAR_EVENT:
			anchor = (const char *)ev.data.scalar.anchor;
			val = (const char *)ev.data.scalar.value;
			vlen = ev.data.scalar.length;
			break;
		case YAML_ALIAS_EVENT: {
			size_t i = na;
			while (i > 0 && strcmp(an[i - 1].name, (const char *)ev.data.alias.anchor))
				i--;
			if (!i || (is_key && !an[i - 1].value))
				res = -1;
			else if (is_key) {
				val = an[i - 1].value;
				vlen = an[i - 1].n;
			}
			break;
		}
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (is_key)
				res = -1;
			anchor = ev.type == YAML_SEQUENCE_START_EVENT ? (const char *)ev.data.sequence_start.anchor
								      : (const char *)ev.data.mapping_start.anchor;
			if (KP_GROW(fr, nfr, cfr, 16))
				abort();
			/* the collection takes a value slot of its parent first */
			if (nfr) {
				if (KP_GROW(keys, nk, ck, 64))
					abort();
				keys[nk++] = (keys_str){ NULL, 0 };
			}
			fr[nfr++] = (keys_frame){ ev.type == YAML_MAPPING_START_EVENT, nk };
			node = 0;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: {
			keys_frame f = fr[--nfr];
			if (f.map) {
				size_t n = (nk - f.first) / 2;
				keys_str *k = malloc((n ? n : 1) * sizeof *k);
				if (!k)
					abort();
				for (size_t i = 0; i < n; i++)
					k[i] = keys[f.first + 2 * i];
				if (keys_repeat(k, n))
					res = 1;
				free(k);
			}
			nk = f.first;
			node = 0;
			break;
		}
		default:
			node = 0;
			break;
		}
		if (res == 0 && node && nfr) {
			/* a scalar or alias in a collection: record it (keys matter) */
			char *copy = NULL;
			if (is_key) {
				copy = malloc(vlen + 1);
				if (!copy || KP_GROW(owned, no, co, 64))
					abort();
				memcpy(copy, val, vlen);
				copy[vlen] = 0;
				owned[no++] = copy;
			}
			if (KP_GROW(keys, nk, ck, 64))
				abort();
			keys[nk++] = (keys_str){ copy, vlen };
		}
		if (res == 0 && anchor) {
			if (KP_GROW(an, na, ca, 16))
				abort();
			char *name = strdup(anchor), *v = NULL;
			if (!name || KP_GROW(owned, no, co, 64))
				abort();
			owned[no++] = name;
			if (ev.type == YAML_SCALAR_EVENT) {
				v = malloc(vlen + 1);
				if (!v || KP_GROW(owned, no, co, 64))
					abort();
				memcpy(v, val, vlen);
				v[vlen] = 0;
				owned[no++] = v;
			}
			an[na++] = (keys_anchor){ name, v, vlen };
		}
		yaml_event_delete(&ev);
	}
#undef KEY_NEXT
	yaml_parser_delete(&p);
	for (size_t i = 0; i < no; i++)
		free(owned[i]);
	free(owned);
	free(fr);
	free(keys);
	free(an);
	return res;
}

/* No mapping under n holds two equal keys; *budget bounds the nodes visited
 * (aliases make a DAG that can be large expanded). */
static int keys_tree_ok(const kp_ynode *n, long *budget)
{
	if (!n || --*budget < 0)
		return 1;
	if (n->type == KP_Y_SEQ) {
		for (size_t i = 0; i < n->n; i++)
			if (!keys_tree_ok(n->u.items[i], budget))
				return 0;
	} else if (n->type == KP_Y_MAP) {
		keys_str *k = malloc((n->n ? n->n : 1) * sizeof *k);
		if (!k)
			abort();
		for (size_t i = 0; i < n->n; i++)
			k[i] = (keys_str){ n->u.pairs[i].key->u.str, n->u.pairs[i].key->n };
		int rep = keys_repeat(k, n->n);
		free(k);
		if (rep)
			return 0;
		for (size_t i = 0; i < n->n; i++)
			if (!keys_tree_ok(n->u.pairs[i].value, budget))
				return 0;
	}
	return 1;
}

static int keys_is_dup_error(const kp_err *err) { return !strncmp(err->msg, "duplicate key ", 14); }

static void keys_fail(const char *what)
{
	fprintf(stderr, "fuzz: duplicate-key oracle: %s\n", what);
	abort();
}

#endif
