/*
 * json.c — see json.h.  Recursive descent, depth bounded by 64.
 */
#include "json.h"

#include <string.h>
#include <stdlib.h>

typedef struct jp { const char *p; kp_arena *a; int depth; } jp;

static void ws(jp *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return 0;
	}
	*out = v;
	return 1;
}

static char *jstring(jp *j)
{
	/* j->p at the opening quote; decoded length <= raw length */
	const char *start = ++j->p;
	size_t raw = 0;
	while (start[raw] && start[raw] != '"') {
		if (start[raw] == '\\' && start[raw + 1])
			raw++;
		raw++;
	}
	if (start[raw] != '"')
		return NULL;
	char *out = kp_arena_alloc(j->a, raw * 2 + 1), *o = out;
	if (!out)
		return NULL;
	const char *p = start;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p != '\\') {
			*o++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned cp;
			if (!hex4(p + 1, &cp) || cp == 0)
				return NULL;
			p += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				unsigned lo;
				if (p[1] != '\\' || p[2] != 'u' || !hex4(p + 3, &lo) || lo < 0xDC00 || lo > 0xDFFF)
					return NULL;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				p += 6;
			}
			if (cp < 0x80) {
				*o++ = (char)cp;
			} else if (cp < 0x800) {
				*o++ = (char)(0xC0 | (cp >> 6));
				*o++ = (char)(0x80 | (cp & 0x3F));
			} else if (cp < 0x10000) {
				*o++ = (char)(0xE0 | (cp >> 12));
				*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
				*o++ = (char)(0x80 | (cp & 0x3F));
			} else {
				*o++ = (char)(0xF0 | (cp >> 18));
				*o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
				*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
				*o++ = (char)(0x80 | (cp & 0x3F));
			}
			break;
		}
		default:
			return NULL;
		}
		p++;
	}
	*o = 0;
	j->p = p + 1;
	return out;
}

static kp_json *value(jp *j);

static kp_json *container(jp *j, int obj)
{
	kp_json *v = kp_arena_alloc(j->a, sizeof *v);
	if (!v || ++j->depth > 64)
		return NULL;
	v->type = obj ? KP_J_OBJ : KP_J_ARR;
	j->p++;
	size_t cap = 8, n = 0;
	kp_json **items = kp_arena_alloc(j->a, cap * sizeof *items);
	if (!items)
		return NULL;
	ws(j);
	if (*j->p == (obj ? '}' : ']')) {
		j->p++;
		j->depth--;
		v->items = items;
		return v;
	}
	for (;;) {
		if (n + 2 > cap) {
			kp_json **more = kp_arena_alloc(j->a, cap * 2 * sizeof *more);
			if (!more)
				return NULL;
			memcpy(more, items, n * sizeof *items);
			items = more;
			cap *= 2;
		}
		ws(j);
		if (obj) {
			if (*j->p != '"')
				return NULL;
			kp_json *k = value(j);
			if (!k)
				return NULL;
			items[n++] = k;
			ws(j);
			if (*j->p++ != ':')
				return NULL;
		}
		kp_json *x = value(j);
		if (!x)
			return NULL;
		items[n++] = x;
		ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == (obj ? '}' : ']')) {
			j->p++;
			break;
		}
		return NULL;
	}
	v->items = items;
	v->n = obj ? n / 2 : n;
	j->depth--;
	return v;
}

static kp_json *value(jp *j)
{
	ws(j);
	kp_json *v;
	switch (*j->p) {
	case '[':
		return container(j, 0);
	case '{':
		return container(j, 1);
	case '"':
		v = kp_arena_alloc(j->a, sizeof *v);
		if (!v || !(v->str = jstring(j)))
			return NULL;
		v->type = KP_J_STR;
		return v;
	default:
		break;
	}
	v = kp_arena_alloc(j->a, sizeof *v);
	if (!v)
		return NULL;
	if (!strncmp(j->p, "null", 4)) {
		v->type = KP_J_NULL;
		j->p += 4;
		return v;
	}
	if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
		v->type = KP_J_BOOL;
		v->str = *j->p == 't' ? "true" : "false";
		j->p += *j->p == 't' ? 4 : 5;
		return v;
	}
	const char *s = j->p;
	if (*j->p == '-')
		j->p++;
	if (!(*j->p >= '0' && *j->p <= '9'))
		return NULL;
	while ((*j->p >= '0' && *j->p <= '9') || *j->p == '.' || *j->p == 'e' || *j->p == 'E' || *j->p == '+' ||
	       *j->p == '-')
		j->p++;
	v->type = KP_J_NUM;
	v->str = kp_arena_strndup(j->a, s, (size_t)(j->p - s));
	return v->str ? v : NULL;
}

kp_json *kp_json_parse(const char *text, kp_arena *a)
{
	if (!text)
		return NULL;
	jp j = { text, a, 0 };
	kp_json *v = value(&j);
	if (!v)
		return NULL;
	ws(&j);
	return *j.p ? NULL : v;
}
