/*
 * ydom.c — YAML/JSON documents as trees (see ydom.h), built from libyaml's
 * event stream with an explicit stack (no recursion on input depth), bounded
 * depth and bounded alias expansion.
 */
#include "ydom.h"
#include "ydom_pipe.h"
#include "ydom_json.h"

#include <yaml.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/* ---- anchors: hash chained by index, truncatable (newest entries last) ---- */

/* height: levels of collections the node spans (scalar 0), aliases expanded */
typedef struct anchor { char *name; kp_ynode *node; int next; unsigned height; } anchor;

typedef struct anchors {
	anchor *v;
	size_t n, cap;
	int *buckets;            /* 1024 heads, -1 = empty */
} anchors;

#define ANCHOR_BUCKETS 1024

static int anchors_init(anchors *t)
{
	memset(t, 0, sizeof *t);
	t->buckets = kp_malloc(sizeof(int) * ANCHOR_BUCKETS);
	if (!t->buckets)
		return KP_NOMEM;
	for (int i = 0; i < ANCHOR_BUCKETS; i++)
		t->buckets[i] = -1;
	return KP_OK;
}

static unsigned anchor_hash(const char *s) { return (unsigned)(kp_hash64(s, strlen(s), 0) % ANCHOR_BUCKETS); }

static int anchors_add(anchors *t, const char *name, kp_ynode *node)
{
	if (KP_GROW(t->v, t->n, t->cap, 16))
		return KP_NOMEM;
	char *copy = kp_strdup(name);
	if (!copy)
		return KP_NOMEM;
	unsigned h = anchor_hash(name);
	t->v[t->n] = (anchor){ copy, node, t->buckets[h], 0 };
	t->buckets[h] = (int)t->n;
	t->n++;
	return KP_OK;
}

static const anchor *anchors_find(const anchors *t, const char *name)
{
	for (int i = t->buckets[anchor_hash(name)]; i >= 0; i = t->v[i].next)
		if (strcmp(t->v[i].name, name) == 0)
			return &t->v[i];
	return NULL;
}

static void anchors_truncate(anchors *t, size_t n)
{
	while (t->n > n) {
		anchor *e = &t->v[--t->n];
		t->buckets[anchor_hash(e->name)] = e->next;
		kp_free(e->name);
	}
}

static void anchors_release(anchors *t)
{
	anchors_truncate(t, 0);
	kp_free(t->v);
	kp_free(t->buckets);
}

/* ---- builder ---- */

typedef struct frame {
	kp_ynode *node;
	size_t first;            /* index of this frame's first child in the child stack */
	int streaming;           /* this is the root's `items` sequence, delivered item by item */
	long anchor;             /* index of the node's anchor, -1 = none */
	unsigned height;         /* largest height of a child so far */
} frame;

typedef struct builder {
	const char *file;
	kp_err *err;
	kp_arena doc_arena, item_arena;
	anchors anchors;
	frame *frames;
	size_t nframes, cap_frames;
	kp_ynode **kids;         /* children of all open frames, stacked */
	size_t nkids, cap_kids;
	kp_ynode *root;
	/* streaming of List items */
	const char *root_kind;   /* value of the root mapping's `kind`, when seen */
	int streamed;            /* items were delivered */
	unsigned doc;
	int json;                /* the text starts with { or [: name JSON in messages */
	kp_arena *user_arena;
	kp_yobj_fn fn;
	void *ctx;
	kp_ypipe *pipe;          /* two threads: objects go to the caller's through it */
	long delivered;          /* objects handed to fn (or the pipe) so far */
	long skip;               /* deliver none of the first skip (a re-read after the JSON fast path) */
	size_t item_anchor_mark;
	/* earliest duplicate key {second, first} of the document outside
	 * streamed items, and of the item being built */
	const kp_ynode *doc_dup[2], *item_dup[2];
} builder;

static int fail_at(builder *b, int code, unsigned line, unsigned col, const char *fmt, const char *arg)
{
	kp_err_set(b->err, code, fmt, arg);
	kp_err_locate(b->err, b->file, line, col, NULL);
	return code;
}

static int in_stream_item(const builder *b)
{
	for (size_t i = 0; i < b->nframes; i++)
		if (b->frames[i].streaming)
			return 1;
	return 0;
}

static kp_arena *node_arena(builder *b) { return in_stream_item(b) ? &b->item_arena : &b->doc_arena; }

static kp_ynode *new_node(builder *b, int type, const yaml_mark_t *m)
{
	kp_ynode *n = kp_arena_alloc(node_arena(b), sizeof *n);
	if (!n) {
		kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
		return NULL;
	}
	n->type = (uint8_t)type;
	n->line = (unsigned)m->line + 1;
	n->col = (unsigned)m->column + 1;
	n->weight = 1;
	return n;
}

static int push_kid(builder *b, kp_ynode *n)
{
	if (b->nkids == b->cap_kids) {
		size_t cap = b->cap_kids ? b->cap_kids * 2 : 256;
		kp_ynode **v = kp_realloc(b->kids, cap * sizeof *v);
		if (!v)
			return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
		b->kids = v;
		b->cap_kids = cap;
	}
	b->kids[b->nkids++] = n;
	return KP_OK;
}

static int deliver(builder *b, kp_ynode *obj, int in_list)
{
	const kp_ynode **dup = in_list ? b->item_dup : b->doc_dup;
	kp_yobj_info info = { b->doc, in_list, NULL, dup[0], dup[1] };
	dup[0] = dup[1] = NULL;
	b->delivered++;
	if (b->skip > 0) {   /* the JSON fast path delivered it already */
		b->skip--;
		return KP_OK;
	}
	if (in_list && b->root_kind)
		info.list_kind = b->root_kind;
	int rc;
	if (b->pipe) {
		rc = kp_ypipe_put(b->pipe, obj, &info, in_list ? &b->item_arena : NULL);
		if (rc != KP_OK && b->err->code == KP_OK)
			kp_err_set(b->err, rc, "import stopped");
		return rc;
	}
	kp_arena_reset(b->user_arena);
	rc = b->fn(b->ctx, obj, &info, b->err);
	if (rc != KP_OK && b->err->code == KP_OK)
		kp_err_set(b->err, rc, "import stopped");
	return rc;
}

static int ends_with_list(const char *s)
{
	size_t n = strlen(s);
	return n >= 4 && strcmp(s + n - 4, "List") == 0;
}

/* A finished node goes to its parent (or becomes the root).  height: the
 * levels of collections it spans with aliases expanded; an alias can put a
 * deep node under a deep parent, and readers of the tree recurse on it. */
static int attach(builder *b, kp_ynode *n, unsigned height)
{
	if (n->weight > KP_YAML_MAX_WEIGHT)
		return fail_at(b, KP_PARSE, n->line, n->col,
			       "document too large after alias expansion (over %s nodes)", "20000000");
	if (b->nframes + height > KP_YAML_MAX_DEPTH)
		return fail_at(b, KP_PARSE, n->line, n->col, "nesting deeper than %s levels after alias expansion",
			       "512");
	if (b->nframes == 0) {
		b->root = n;
		return KP_OK;
	}
	frame *f = &b->frames[b->nframes - 1];
	if (height > f->height)
		f->height = height;
	if (f->streaming) {
		int rc = deliver(b, n, 1);
		kp_arena_reset(&b->item_arena);
		anchors_truncate(&b->anchors, b->item_anchor_mark);
		b->streamed = 1;
		return rc;
	}
	if (f->node->type == KP_Y_MAP && ((b->nkids - f->first) % 2) == 0 && n->type != KP_Y_SCALAR)
		return fail_at(b, KP_PARSE, n->line, n->col, "%s", "mapping keys must be scalars");
	/* remember the root mapping's kind: it decides whether `items` streams */
	if (b->nframes == 1 && f->node->type == KP_Y_MAP && ((b->nkids - f->first) % 2) == 1 &&
	    n->type == KP_Y_SCALAR) {
		kp_ynode *key = b->kids[b->nkids - 1];
		if (strcmp(key->u.str, "kind") == 0)
			b->root_kind = n->u.str;
	}
	return push_kid(b, n);
}

static int open_frame(builder *b, kp_ynode *n, long anchor)
{
	if (b->nframes >= KP_YAML_MAX_DEPTH)
		return fail_at(b, KP_PARSE, n->line, n->col, "nesting deeper than %s levels", "512");
	if (KP_GROW(b->frames, b->nframes, b->cap_frames, 32))
		return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
	int streaming = 0;
	/* only kp_yaml_each_object streams (kp_yaml_parse_one has no callback) */
	if ((b->fn || b->pipe) && n->type == KP_Y_SEQ && b->nframes == 1) {
		frame *root = &b->frames[0];
		if (root->node->type == KP_Y_MAP && ((b->nkids - root->first) % 2) == 1) {
			kp_ynode *key = b->kids[b->nkids - 1];
			if (strcmp(key->u.str, "items") == 0 && (!b->root_kind || ends_with_list(b->root_kind)))
				streaming = 1;
		}
	}
	b->frames[b->nframes++] = (frame){ n, b->nkids, streaming, anchor, 0 };
	if (streaming)
		b->item_anchor_mark = b->anchors.n;
	n->n = (size_t)-1;       /* open: an alias to it would be a cycle */
	return KP_OK;
}

/* Scalar keys, hashed by string value: checking a large mapping, or merging
 * many (aliased) mappings, must cost their size, not its square. */
typedef struct keyset { const kp_ynode **v; size_t n, cap; } keyset;

static int same_key(const kp_ynode *a, const kp_ynode *b) { return a->n == b->n && !memcmp(a->u.str, b->u.str, a->n); }

/* 1: key added, 0: an equal key is there (*had), KP_NOMEM */
static int keyset_add(keyset *ks, const kp_ynode *key, const kp_ynode **had)
{
	if (2 * (ks->n + 1) > ks->cap) {
		size_t cap = ks->cap ? ks->cap * 2 : 64;
		const kp_ynode **v = kp_calloc(cap, sizeof *v);
		if (!v)
			return KP_NOMEM;
		for (size_t i = 0; i < ks->cap; i++) {
			if (!ks->v[i])
				continue;
			size_t j = kp_hash64(ks->v[i]->u.str, ks->v[i]->n, 0) & (cap - 1);
			while (v[j])
				j = (j + 1) & (cap - 1);
			v[j] = ks->v[i];
		}
		kp_free(ks->v);
		ks->v = v;
		ks->cap = cap;
	}
	size_t j = kp_hash64(key->u.str, key->n, 0) & (ks->cap - 1);
	for (; ks->v[j]; j = (j + 1) & (ks->cap - 1))
		if (same_key(ks->v[j], key)) {
			if (had)
				*had = ks->v[j];
			return 0;
		}
	ks->v[j] = key;
	ks->n++;
	return 1;
}

/* Remember a duplicate key for the object being built (its delivery refuses
 * it) or the document; the earliest second key wins. */
static void note_dup(builder *b, const kp_ynode *second, const kp_ynode *first)
{
	const kp_ynode **d = in_stream_item(b) ? b->item_dup : b->doc_dup;
	if (!d[0] || second->line < d[0]->line || (second->line == d[0]->line && second->col < d[0]->col)) {
		d[0] = second;
		d[1] = first;
	}
}

/* Every key written in the mapping kids[first..first+2*npairs) (`<<`
 * included) once: a pair scan up to DUP_SCAN_MAX keys, a hash above.  The
 * first repeat (in order) is noted. */
#define DUP_SCAN_MAX 16
static int check_keys(builder *b, size_t first, size_t npairs)
{
	if (npairs < 2)
		return KP_OK;   /* (kids may still be NULL) */
	kp_ynode **kv = b->kids + first;
	if (npairs <= DUP_SCAN_MAX) {
		for (size_t i = 1; i < npairs; i++)
			for (size_t j = 0; j < i; j++)
				if (same_key(kv[2 * i], kv[2 * j])) {
					note_dup(b, kv[2 * i], kv[2 * j]);
					return KP_OK;
				}
		return KP_OK;
	}
	keyset ks = { NULL, 0, 64 };
	while (ks.cap < 2 * npairs)
		ks.cap *= 2;
	if (!(ks.v = kp_calloc(ks.cap, sizeof *ks.v)))
		return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
	int rc = KP_OK;
	for (size_t i = 0; i < npairs; i++) {
		const kp_ynode *had;
		int added = keyset_add(&ks, kv[2 * i], &had);
		if (added < 0) {
			rc = kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
			break;
		}
		if (!added) {
			note_dup(b, kv[2 * i], had);
			break;
		}
	}
	kp_free(ks.v);
	return rc;
}

/* Build a mapping's pairs from kids[first..first+count); YAML merge keys
 * (`<<: *anchor` or `<<: [*a, *b]`) add the pairs of the merged mappings
 * whose keys the mapping does not set itself (earlier merged maps win). */
static int merge_keys(builder *b, kp_ynode *n, size_t first, size_t count, kp_arena *a)
{
	size_t npairs = count / 2, extra = 0;
	for (size_t i = 0; i < npairs; i++) {
		kp_ynode *k = b->kids[first + 2 * i], *v = b->kids[first + 2 * i + 1];
		if (!(k->plain && !strcmp(k->u.str, "<<")))
			continue;
		if (v->type == KP_Y_MAP)
			extra += v->n;
		else if (v->type == KP_Y_SEQ)
			for (size_t j = 0; j < v->n; j++) {
				if (v->u.items[j]->type != KP_Y_MAP)
					return fail_at(b, KP_PARSE, v->line, v->col, "%s", "a merge key (<<) needs mappings");
				extra += v->u.items[j]->n;
			}
		else
			return fail_at(b, KP_PARSE, v->line, v->col, "%s", "a merge key (<<) needs a mapping");
	}
	n->u.pairs = npairs + extra ? kp_arena_alloc(a, (npairs + extra) * sizeof *n->u.pairs) : NULL;
	if (npairs + extra && !n->u.pairs)
		return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
	size_t m = 0;
	keyset ks = { NULL, 0, 0 };
	int rc = KP_OK;
	for (size_t i = 0; i < npairs; i++) {
		kp_ynode *k = b->kids[first + 2 * i];
		if (k->plain && !strcmp(k->u.str, "<<") && extra)
			continue;
		if (extra && keyset_add(&ks, k, NULL) < 0)
			rc = KP_NOMEM;
		n->u.pairs[m].key = k;
		n->u.pairs[m++].value = b->kids[first + 2 * i + 1];
	}
	for (size_t i = 0; extra && rc == KP_OK && i < npairs; i++) {
		kp_ynode *k = b->kids[first + 2 * i], *v = b->kids[first + 2 * i + 1];
		if (!(k->plain && !strcmp(k->u.str, "<<")))
			continue;
		size_t nm = v->type == KP_Y_MAP ? 1 : v->n;
		for (size_t j = 0; j < nm && rc == KP_OK; j++) {
			const kp_ynode *src = v->type == KP_Y_MAP ? v : v->u.items[j];
			for (size_t q = 0; q < src->n && rc == KP_OK; q++) {
				int added = keyset_add(&ks, src->u.pairs[q].key, NULL);
				if (added < 0)
					rc = KP_NOMEM;
				else if (added)
					n->u.pairs[m++] = src->u.pairs[q];
			}
		}
	}
	kp_free(ks.v);
	if (rc != KP_OK)
		return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
	n->n = m;
	return KP_OK;
}

static int close_frame(builder *b)
{
	frame f = b->frames[--b->nframes];
	kp_ynode *n = f.node;
	size_t count = b->nkids - f.first;
	kp_arena *a = node_arena(b);
	uint64_t w = 1;
	for (size_t i = f.first; i < b->nkids; i++) {
		w += b->kids[i]->weight;
		if (w > KP_YAML_MAX_WEIGHT)
			w = KP_YAML_MAX_WEIGHT + 1;
	}
	n->weight = w;
	if (n->type == KP_Y_SEQ) {
		n->n = count;
		n->u.items = count ? kp_arena_alloc(a, count * sizeof *n->u.items) : NULL;
		if (count && !n->u.items)
			return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
		if (count)
			memcpy(n->u.items, b->kids + f.first, count * sizeof *n->u.items);
	} else {
		if (count % 2)
			return fail_at(b, KP_PARSE, n->line, n->col, "%s", "mapping with a key and no value");
		if (check_keys(b, f.first, count / 2) != KP_OK || merge_keys(b, n, f.first, count, a) != KP_OK)
			return b->err->code;
	}
	b->nkids = f.first;
	if (f.streaming) {
		/* the items were delivered one by one; the root keeps an empty list */
		n->n = 0;
		n->u.items = NULL;
	}
	if (f.anchor >= 0 && (size_t)f.anchor < b->anchors.n && b->anchors.v[f.anchor].node == n)
		b->anchors.v[f.anchor].height = f.height + 1;
	return attach(b, n, f.height + 1);
}

/* libyaml's reader errors (bad UTF-8, control characters) carry a byte
 * offset, not a mark: turn it into a line and a column (in characters). */
static void offset_position(const char *data, size_t len, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		unsigned char ch = (unsigned char)data[i];
		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xC0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static void parser_error(builder *b, yaml_parser_t *p, const char *data, size_t len)
{
	const yaml_mark_t *m = &p->problem_mark;
	if (p->error == YAML_MEMORY_ERROR) {
		kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
		return;
	}
	const char *what = b->json ? "invalid JSON (read as YAML)" : "invalid YAML";
	if (p->context)
		kp_err_set(b->err, KP_PARSE, "%s: %s %s", what, p->problem ? p->problem : "syntax error", p->context);
	else
		kp_err_set(b->err, KP_PARSE, "%s: %s", what, p->problem ? p->problem : "syntax error");
	unsigned line = (unsigned)m->line + 1, col = (unsigned)m->column + 1;
	if (p->error == YAML_READER_ERROR)
		offset_position(data, len, p->problem_offset, &line, &col);
	kp_err_locate(b->err, b->file, line, col, NULL);
}

/* JSON allows any character but U+0000..U+001F, '"' and '\\' raw inside a
 * string; YAML (which reads our JSON) refuses DEL, C1 controls, U+FFFE and
 * U+FFFF and folds NEL, U+2028 and U+2029 as line breaks.  Inside JSON
 * strings those are rewritten as \u escapes, which YAML decodes to the same
 * characters.  Returns a new buffer (the caller frees it) or NULL when there
 * is nothing to rewrite (or no memory: the parser then reports them). */
static int json_special(const unsigned char *d, size_t i, size_t len, unsigned *cp, size_t *n)
{
	if (d[i] == 0x7F) {
		*cp = 0x7F, *n = 1;
		return 1;
	}
	if (d[i] == 0xC2 && i + 1 < len && d[i + 1] >= 0x80 && d[i + 1] <= 0x9F) {
		*cp = d[i + 1], *n = 2;
		return 1;
	}
	if (i + 2 < len && ((d[i] == 0xE2 && d[i + 1] == 0x80 && (d[i + 2] == 0xA8 || d[i + 2] == 0xA9)) ||
			    (d[i] == 0xEF && d[i + 1] == 0xBB && d[i + 2] == 0xBF) ||
			    (d[i] == 0xEF && d[i + 1] == 0xBF && (d[i + 2] == 0xBE || d[i + 2] == 0xBF)))) {
		*cp = ((unsigned)(d[i] & 0x0F) << 12) | ((unsigned)(d[i + 1] & 0x3F) << 6) | (d[i + 2] & 0x3Fu);
		*n = 3;
		return 1;
	}
	return 0;
}

static char *json_escape_specials(const char *data, size_t len, size_t *outlen)
{
	const unsigned char *d = (const unsigned char *)data;
	size_t extra = 0;
	for (int pass = 0; pass < 2; pass++) {
		char *out = NULL;
		size_t o = 0;
		if (pass) {
			if (!extra)
				return NULL;
			out = kp_malloc(len + extra + 1);
			if (!out)
				return NULL;
		}
		int in_str = 0, esc = 0;
		unsigned cp;
		size_t n;
		for (size_t i = 0; i < len; i++) {
			if (in_str && !esc && json_special(d, i, len, &cp, &n)) {
				if (pass)
					o += (size_t)sprintf(out + o, "\\u%04X", cp);
				else
					extra += 6 - n;
				i += n - 1;
				continue;
			}
			if (in_str) {
				if (esc)
					esc = 0;
				else if (d[i] == '\\')
					esc = 1;
				else if (d[i] == '"')
					in_str = 0;
			} else if (d[i] == '"') {
				in_str = 1;
			}
			if (pass)
				out[o++] = (char)d[i];
		}
		if (pass) {
			out[o] = 0;
			*outlen = o;
			return out;
		}
	}
	return NULL;
}

static int handle_event(builder *b, yaml_event_t *ev)
{
	kp_ynode *n;
	const char *anchor = NULL;
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		b->root = NULL;
		b->root_kind = NULL;
		b->streamed = 0;
		return KP_OK;
	case YAML_DOCUMENT_END_EVENT: {
		int rc = KP_OK;
		if (b->root && (b->fn || b->pipe)) {
			int empty = b->root->type == KP_Y_SCALAR && kp_ynode_is_null(b->root);
			/* a List whose items were streamed has nothing left to
			 * deliver; a duplicate outside its items fails the parse */
			if (!empty && !b->streamed)
				rc = deliver(b, b->root, 0);
			else if (b->doc_dup[0])
				rc = kp_yaml_dup_error(b->err, b->file, b->doc_dup[0], b->doc_dup[1], NULL);
		}
		b->doc_dup[0] = b->doc_dup[1] = NULL;
		if (b->pipe)
			kp_ypipe_drain(b->pipe);   /* its items may point into the document */
		if (b->fn || b->pipe) {
			kp_arena_reset(&b->doc_arena);
			anchors_truncate(&b->anchors, 0);
			b->root = NULL;
		}
		b->doc++;
		return rc;
	}
	case YAML_SCALAR_EVENT:
		n = new_node(b, KP_Y_SCALAR, &ev->start_mark);
		if (!n)
			return KP_NOMEM;
		if (memchr(ev->data.scalar.value, 0, ev->data.scalar.length))
			return fail_at(b, KP_PARSE, n->line, n->col, "%s", "NUL character in a string");
		n->u.str = kp_arena_strndup(node_arena(b), (const char *)ev->data.scalar.value,
					    ev->data.scalar.length);
		if (!n->u.str)
			return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
		n->n = ev->data.scalar.length;
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ||
			   ev->data.scalar.style == YAML_ANY_SCALAR_STYLE;
		anchor = (const char *)ev->data.scalar.anchor;
		if (anchor && anchors_add(&b->anchors, anchor, n) != KP_OK)
			return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
		return attach(b, n, 0);
	case YAML_ALIAS_EVENT: {
		const struct anchor *an = anchors_find(&b->anchors, (const char *)ev->data.alias.anchor);
		n = an ? an->node : NULL;
		if (!n)
			return fail_at(b, KP_PARSE, (unsigned)ev->start_mark.line + 1,
				       (unsigned)ev->start_mark.column + 1, "unknown alias '*%s'",
				       (const char *)ev->data.alias.anchor);
		if (n->type != KP_Y_SCALAR && n->n == (size_t)-1)
			return fail_at(b, KP_PARSE, (unsigned)ev->start_mark.line + 1,
				       (unsigned)ev->start_mark.column + 1, "recursive alias '*%s'",
				       (const char *)ev->data.alias.anchor);
		return attach(b, n, an->height);
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		int seq = ev->type == YAML_SEQUENCE_START_EVENT;
		n = new_node(b, seq ? KP_Y_SEQ : KP_Y_MAP, &ev->start_mark);
		if (!n)
			return KP_NOMEM;
		anchor = seq ? (const char *)ev->data.sequence_start.anchor
			     : (const char *)ev->data.mapping_start.anchor;
		if (anchor && anchors_add(&b->anchors, anchor, n) != KP_OK)
			return kp_err_set(b->err, KP_NOMEM, "out of memory reading YAML");
		return open_frame(b, n, anchor ? (long)b->anchors.n - 1 : -1);
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return close_frame(b);
	default:
		return KP_OK;
	}
}

/* the JSON fast path (ydom_json.c): 1, or 0 with KPLAN_JSON_READER=libyaml;
 * 2 with =fast (no libyaml after it gives up: an error, for tests) */
static int json_fast(void)
{
	const char *r = getenv("KPLAN_JSON_READER");
	return !r ? 1 : !strcmp(r, "libyaml") ? 0 : !strcmp(r, "fast") ? 2 : 1;
}

static int json_emit(void *ctx, yaml_event_t *ev)
{
	if (kp_interrupted)
		return kp_err_set(((builder *)ctx)->err, KP_INTR, "interrupted");
	return handle_event(ctx, ev);
}

/* after the JSON fast path gave up: the builder as new, except that the
 * objects it delivered are not delivered again */
static int builder_restart(builder *b)
{
	if (b->pipe)
		kp_ypipe_drain(b->pipe);
	b->skip = b->delivered;
	b->delivered = 0;
	b->nframes = b->nkids = 0;
	b->root = NULL;
	b->root_kind = NULL;
	b->streamed = 0;
	b->doc = 0;
	b->item_anchor_mark = 0;
	b->doc_dup[0] = b->doc_dup[1] = b->item_dup[0] = b->item_dup[1] = NULL;
	anchors_truncate(&b->anchors, 0);
	kp_arena_reset(&b->doc_arena);
	kp_arena_reset(&b->item_arena);
	return KP_OK;
}

static int run(const char *data, size_t len, const char *file, kp_arena *user_arena, kp_yobj_fn fn, void *ctx,
	       kp_ypipe *pipe, kp_ynode **one, kp_arena *one_arena, kp_err *err)
{
	builder b;
	memset(&b, 0, sizeof b);
	b.file = file;
	b.err = err;
	b.fn = fn;
	b.ctx = ctx;
	b.pipe = pipe;
	b.user_arena = user_arena;
	for (size_t i = 0; i < len; i++) {
		if (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')
			continue;
		b.json = data[i] == '{' || data[i] == '[';
		break;
	}
	kp_arena_init(&b.doc_arena, 64 * 1024);
	kp_arena_init(&b.item_arena, 64 * 1024);
	if (anchors_init(&b.anchors) != KP_OK)
		return kp_err_set(err, KP_NOMEM, "out of memory reading YAML");

	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		anchors_release(&b.anchors);
		return kp_err_set(err, KP_NOMEM, "out of memory reading YAML");
	}
	char *rewritten = NULL;
	if (b.json) {
		size_t n;
		rewritten = json_escape_specials(data, len, &n);
		if (rewritten) {
			data = rewritten;
			len = n;
		}
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	int rc = KP_OK, done = 0;
	int fast = b.json && !rewritten && !one ? json_fast() : 0;
	if (fast) {
		rc = kp_yjson_events(data, len, json_emit, &b);
		done = rc != KP_YJSON_FALLBACK;
		if (!done && fast == 2)
			rc = fail_at(&b, KP_PARSE, 0, 0, "%s", "not JSON the fast path reads (KPLAN_JSON_READER=fast)");
		else if (!done)
			rc = builder_restart(&b);
	}
	while (!done && rc == KP_OK) {
		yaml_event_t ev;
		if (kp_interrupted) {   /* skipped kinds and big documents store nothing that would check it */
			rc = kp_err_set(err, KP_INTR, "interrupted");
			break;
		}
		if (!yaml_parser_parse(&p, &ev)) {
			parser_error(&b, &p, data, len);
			rc = err->code ? err->code : KP_PARSE;
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		if (one && ev.type == YAML_DOCUMENT_END_EVENT) {
			done = 1;
		} else {
			rc = handle_event(&b, &ev);
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (pipe)
		kp_ypipe_drain(pipe);   /* the objects handed over may point into the arenas */
	kp_free(rewritten);
	if (one && rc == KP_OK && b.doc_dup[0])
		rc = kp_yaml_dup_error(err, file, b.doc_dup[0], b.doc_dup[1], NULL);
	if (one) {
		/* hand the tree over: its arena becomes the caller's */
		if (rc == KP_OK) {
			*one = b.root;
			*one_arena = b.doc_arena;
		} else {
			kp_arena_release(&b.doc_arena);
		}
	} else {
		kp_arena_release(&b.doc_arena);
	}
	kp_arena_release(&b.item_arena);
	anchors_release(&b.anchors);
	kp_free(b.frames);
	kp_free(b.kids);
	if (rc != KP_OK && err->code == KP_OK)
		kp_err_set(err, rc, "cannot read YAML");
	return rc;
}

/* the producer's side of a two-thread read */
typedef struct pipe_args { const char *data; size_t len; const char *file; } pipe_args;

static int pipe_parse(kp_ypipe *pipe, void *arg, kp_err *perr)
{
	const pipe_args *a = arg;
	return run(a->data, a->len, a->file, NULL, NULL, NULL, pipe, NULL, NULL, perr);
}

/* two threads for big inputs; KPLAN_READ_THREADS=1 forces one, =2 two */
static int use_pipe(size_t len)
{
	const char *t = getenv("KPLAN_READ_THREADS");
	if (t && !strcmp(t, "1"))
		return 0;
	return (t && !strcmp(t, "2")) || len >= KP_YPIPE_MIN_BYTES;
}

int kp_yaml_each_object(const char *data, size_t len, const char *file, kp_arena *a,
			kp_yobj_fn fn, void *ctx, kp_err *err)
{
	if (use_pipe(len)) {
		pipe_args pa = { data, len, file };
		return kp_ypipe_run(pipe_parse, &pa, a, fn, ctx, err);
	}
	return run(data, len, file, a, fn, ctx, NULL, NULL, NULL, err);
}

int kp_yaml_parse_one(const char *data, size_t len, const char *file, kp_arena *a,
		      kp_ynode **out, kp_err *err)
{
	kp_arena tree;
	*out = NULL;
	kp_arena_init(&tree, 64 * 1024);
	int rc = run(data, len, file, NULL, NULL, NULL, NULL, out, &tree, err);
	if (rc == KP_OK)
		kp_arena_adopt(a, &tree);   /* the caller releases a */
	return rc;
}

int kp_yaml_dup_error(kp_err *err, const char *file, const kp_ynode *dup, const kp_ynode *first,
		      const char *object)
{
	/* the key as a JSON string, cut short: the positions must fit */
	kp_sb q;
	kp_sb_init(&q);
	kp_sb_add_json_str(&q, dup->u.str);
	const char *s = kp_sb_ok(&q) ? kp_sb_str(&q) : "?";
	size_t len = strlen(s), cut = len;
	if (len > 200)
		for (cut = 200; cut && ((unsigned char)s[cut] & 0xC0) == 0x80; cut--)
			;
	kp_err_set(err, KP_PARSE, "duplicate key %.*s%s (first at line %u, column %u)", (int)cut, s,
		   cut < len ? "..." : "", first->line, first->col);
	kp_sb_release(&q);
	kp_err_locate(err, file, dup->line, dup->col, object && object[0] ? object : NULL);
	return KP_PARSE;
}

/* ---- lookups ---- */

int kp_ynode_is_null(const kp_ynode *n)
{
	if (!n)
		return 1;
	if (n->type != KP_Y_SCALAR || !n->plain)
		return 0;
	const char *s = n->u.str;
	return s[0] == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
	       strcmp(s, "NULL") == 0;
}

kp_ynode *kp_ymap_get(const kp_ynode *map, const char *key)
{
	if (!map || map->type != KP_Y_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++) {
		const kp_ynode *k = map->u.pairs[i].key;
		if (k->type == KP_Y_SCALAR && strcmp(k->u.str, key) == 0)
			return kp_ynode_is_null(map->u.pairs[i].value) ? NULL : map->u.pairs[i].value;
	}
	return NULL;
}

static int is_bool_word(const char *s, int *val)
{
	static const char *const t[] = { "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON" };
	static const char *const f[] = { "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF" };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (strcmp(s, t[i]) == 0) {
			*val = 1;
			return 1;
		}
		if (strcmp(s, f[i]) == 0) {
			*val = 0;
			return 1;
		}
	}
	return 0;
}

/* JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int is_json_number(const char *s)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return 0;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == 0;
}

const kp_ynode *kp_ymap_unknown_key(const kp_ynode *m, const char *const *allowed)
{
	for (size_t i = 0; i < m->n; i++) {
		const char *const *a = allowed;
		while (*a && strcmp(*a, m->u.pairs[i].key->u.str))
			a++;
		if (!*a)
			return m->u.pairs[i].key;
	}
	return NULL;
}

const char *kp_ynode_type_name(const kp_ynode *n)
{
	if (!n || kp_ynode_is_null(n))
		return "null";
	if (n->type == KP_Y_MAP)
		return "mapping";
	if (n->type == KP_Y_SEQ)
		return "sequence";
	int b;
	if (n->plain && is_bool_word(n->u.str, &b))
		return "boolean";
	if (n->plain && is_json_number(n->u.str))
		return "number";
	return "string";
}

void kp_ynode_to_json(const kp_ynode *n, kp_sb *sb)
{
	if (!n || kp_ynode_is_null(n)) {
		kp_sb_adds(sb, "null");
		return;
	}
	switch (n->type) {
	case KP_Y_SCALAR: {
		int b;
		if (n->plain && is_bool_word(n->u.str, &b))
			kp_sb_adds(sb, b ? "true" : "false");
		else if (n->plain && is_json_number(n->u.str))
			kp_sb_adds(sb, n->u.str);
		else
			kp_sb_add_json_str(sb, n->u.str);
		break;
	}
	case KP_Y_SEQ:
		kp_sb_addc(sb, '[');
		for (size_t i = 0; i < n->n; i++) {
			if (i)
				kp_sb_addc(sb, ',');
			kp_ynode_to_json(n->u.items[i], sb);
		}
		kp_sb_addc(sb, ']');
		break;
	case KP_Y_MAP:
		kp_sb_addc(sb, '{');
		for (size_t i = 0; i < n->n; i++) {
			if (i)
				kp_sb_addc(sb, ',');
			kp_sb_add_json_str(sb, n->u.pairs[i].key->u.str);
			kp_sb_addc(sb, ':');
			kp_ynode_to_json(n->u.pairs[i].value, sb);
		}
		kp_sb_addc(sb, '}');
		break;
	}
}
