/*
 * ytext.c — a document's text cut out of its file, positions kept (ytext.h).
 * Columns are in characters, as libyaml counts them (yaml_mark_t.column).
 */
#include "ytext.h"
#include "ydom.h"
#include "kp.h"

#include <string.h>

#define NPOS ((size_t)-1)

/* offset of the first byte of 1-based line `line`, NPOS past the end */
static size_t line_start(const char *text, size_t len, unsigned line)
{
	size_t p = 0;
	for (unsigned l = 1; l < line; l++) {
		const char *nl = p < len ? memchr(text + p, '\n', len - p) : NULL;
		if (!nl)
			return NPOS;
		p = (size_t)(nl - text) + 1;
	}
	return p;
}

/* offset of character col (1-based) of the line at p; NPOS when the line is shorter */
static size_t column_at(const char *text, size_t len, size_t p, unsigned col)
{
	for (unsigned k = 1; k < col; k++) {
		if (p >= len || text[p] == '\n')
			return NPOS;
		p++;
		while (p < len && ((unsigned char)text[p] & 0xC0) == 0x80)
			p++;
	}
	return p;
}

static size_t line_end(const char *text, size_t len, size_t p)
{
	const char *nl = p < len ? memchr(text + p, '\n', len - p) : NULL;
	return nl ? (size_t)(nl - text) : len;
}

/* "---" or "..." at the start of a line, alone or before a blank (YAML 1.2 §9.1.4) */
static int is_marker(const char *l, size_t rest)
{
	return rest >= 3 && (!memcmp(l, "---", 3) || !memcmp(l, "...", 3)) &&
	       (rest == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r' || l[3] == '\n');
}

char *kp_ytext_cut(const char *text, size_t len, unsigned line, unsigned col)
{
	size_t b = line && col ? line_start(text, len, line) : NPOS;
	size_t p = b == NPOS ? NPOS : column_at(text, len, b, col);
	if (p == NPOS)
		return NULL;
	size_t e = line_end(text, len, p);
	while (e < len) {
		e++;   /* past the newline: the next line */
		const char *l = text + e;
		size_t rest = len - e, ind = 0, k;
		if (is_marker(l, rest))
			break;
		while (ind < rest && l[ind] == ' ')
			ind++;
		for (k = ind; k < rest && (l[k] == ' ' || l[k] == '\t'); k++)
			;
		int blank = k == rest || l[k] == '\n' || l[k] == '\r' || l[k] == '#';
		if (col > 1 && !blank && ind < col - 1)
			break;   /* back out of the node's block */
		e = line_end(text, len, e);
	}
	size_t n = (size_t)(line - 1) + (col - 1) + (e - p);
	char *out = kp_malloc(n + 1);
	if (!out)
		return NULL;
	memset(out, '\n', line - 1);
	memset(out + line - 1, ' ', col - 1);
	memcpy(out + (line - 1) + (col - 1), text + p, e - p);
	out[n] = 0;
	return out;
}

int kp_ytext_literal_indent(const char *text, size_t len, unsigned line, unsigned col, const char *value, size_t vlen)
{
	size_t b = line && col ? line_start(text, len, line) : NPOS;
	size_t p = b == NPOS ? NPOS : column_at(text, len, b, col);
	if (p == NPOS || p >= len || text[p] != '|')
		return -1;
	p = line_end(text, len, p);   /* the header: indicators, a comment */
	if (p >= len)
		return -1;
	p++;
	long n = -1;
	for (size_t v = 0; v < vlen;) {
		if (p > len)
			return -1;
		const char *nl = memchr(value + v, '\n', vlen - v);
		size_t seg = nl ? (size_t)(nl - (value + v)) : vlen - v;
		size_t olen = line_end(text, len, p) - p, body = olen;
		const char *ol = text + p;
		if (body && ol[body - 1] == '\r')
			body--;
		if (seg) {
			/* the file's line is the value's line after n spaces */
			if (body < seg || memcmp(ol + body - seg, value + v, seg))
				return -1;
			for (size_t k = 0; k < body - seg; k++)
				if (ol[k] != ' ')
					return -1;
			if (n < 0)
				n = (long)(body - seg);
			else if ((size_t)n != body - seg)
				return -1;
		} else {
			for (size_t k = 0; k < olen; k++)
				if (ol[k] != ' ' && ol[k] != '\t' && ol[k] != '\r')
					return -1;
		}
		p += olen + 1;
		v += seg + (nl ? 1 : 0);
	}
	return n > 0 && n < 4096 ? (int)n : -1;
}

char *kp_ytext_shift(const char *value, size_t vlen, unsigned lines, unsigned indent)
{
	size_t nonempty = 0;
	for (size_t v = 0; v < vlen;) {
		const char *nl = memchr(value + v, '\n', vlen - v);
		size_t seg = nl ? (size_t)(nl - (value + v)) : vlen - v;
		nonempty += seg > 0;
		v += seg + (nl ? 1 : 0);
	}
	char *out = kp_malloc((size_t)lines + vlen + nonempty * indent + 1), *o = out;
	if (!out)
		return NULL;
	memset(o, '\n', lines);
	o += lines;
	for (size_t v = 0; v < vlen;) {
		const char *nl = memchr(value + v, '\n', vlen - v);
		size_t seg = nl ? (size_t)(nl - (value + v)) : vlen - v;
		if (seg) {
			memset(o, ' ', indent);
			o += indent;
		}
		memcpy(o, value + v, seg + (nl ? 1 : 0));
		o += seg + (nl ? 1 : 0);
		v += seg + (nl ? 1 : 0);
	}
	*o = 0;
	return out;
}

int kp_ytext_same(const char *yaml, const char *json)
{
	kp_arena a;
	kp_arena_init(&a, 16 * 1024);
	kp_err e = { 0 };
	kp_ynode *doc;
	int same = 0;
	if (yaml && json && kp_yaml_parse_one(yaml, strlen(yaml), "", &a, &doc, &e) == KP_OK && doc) {
		kp_sb sb;
		kp_sb_init(&sb);
		kp_ynode_to_json(doc, &sb);
		same = kp_sb_ok(&sb) && !strcmp(kp_sb_str(&sb), json);
		kp_sb_release(&sb);
	}
	kp_arena_release(&a);
	return same;
}
