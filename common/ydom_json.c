/*
 * ydom_json.c — a fast path for JSON input (`kubectl get ... -o json`):
 * the events libyaml would give for strict JSON, without libyaml
 * (ydom_json.h).
 *
 * libyaml reads JSON as YAML flow style at about 68 MB/s; this scanner
 * gives ydom.c's builder the same events — the same scalars, styles and
 * marks (0-based line, column in characters, the mark of a quoted scalar at
 * its opening quote) — several times faster.  It accepts only text on which
 * it is sure libyaml agrees, and gives up (KP_YJSON_FALLBACK) on anything
 * else, so ydom.c re-reads the text with libyaml, skipping the objects
 * already delivered:
 *  - anything that is not RFC 8259 JSON (comments, single quotes, YAML
 *    flow syntax, trailing commas, several top-level values);
 *  - a raw control character or invalid UTF-8 in a string, a \u escape of a
 *    UTF-16 surrogate (libyaml refuses them), a byte-order mark;
 *  - a key whose ':' is not on its line or is over 1,000 bytes away (YAML's
 *    simple keys: libyaml would not read it as the key);
 *  - an element of an array followed by ':' (YAML's one-pair mapping in a
 *    flow sequence), checked before the element is emitted;
 *  - a tab before the first or after the last bracket (block context);
 *  - and, before it starts, a text with invalid UTF-8 or a character YAML
 *    does not print anywhere (libyaml refuses those ahead of its tokens).
 */
#include "ydom_json.h"

#include <string.h>

typedef struct scan {
	const unsigned char *d;
	size_t len, i;
	size_t line, col;        /* of d[i], as libyaml counts: characters */
	size_t line_start;       /* index where the line began */
	kp_yjson_emit_fn emit;
	void *ctx;
	char *buf;               /* a decoded string */
	size_t cap;
	int stop;                /* the emit function's error */
} scan;

enum { FALLBACK = KP_YJSON_FALLBACK };

static void mark(const scan *s, yaml_mark_t *m)
{
	m->index = s->i;
	m->line = s->line;
	m->column = s->col;
}

static int emit(scan *s, yaml_event_t *ev)
{
	int rc = s->emit(s->ctx, ev);
	if (rc != KP_OK)
		s->stop = rc;
	return rc;
}

static int simple_event(scan *s, yaml_event_type_t type)
{
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = type;
	mark(s, &ev.start_mark);
	ev.end_mark = ev.start_mark;
	if (type == YAML_DOCUMENT_START_EVENT || type == YAML_DOCUMENT_END_EVENT)
		ev.data.document_start.implicit = 1;
	return emit(s, &ev);
}

/* JSON whitespace; tabs only inside the top-level value (flow context) */
static void skip_ws(scan *s, int tabs_ok, int *tab_seen)
{
	while (s->i < s->len) {
		unsigned char c = s->d[s->i];
		if (c == ' ' || c == '\t') {
			if (c == '\t' && !tabs_ok)
				*tab_seen = 1;
			s->i++;
			s->col++;
		} else if (c == '\n' || c == '\r') {
			s->i += (c == '\r' && s->i + 1 < s->len && s->d[s->i + 1] == '\n') ? 2 : 1;
			s->line++;
			s->col = 0;
			s->line_start = s->i;
		} else {
			break;
		}
	}
}

/* the first character after whitespace from s->i (-1: the end), not consumed */
static int peek(const scan *s)
{
	for (size_t i = s->i; i < s->len; i++)
		if (!strchr(" \t\r\n", s->d[i]) || !s->d[i])
			return s->d[i];
	return -1;
}

/* in a sequence, an element must be followed by ',' or ']': YAML reads
 * `[..., "k": v]` as a one-pair mapping, so a ':' there must not let the
 * element be emitted (and, as a List item, delivered) first */
static int seq_next_ok(const scan *s, int in_seq)
{
	int c = in_seq ? peek(s) : ',';
	return c == ',' || c == ']';
}

static int grow(scan *s, size_t need)
{
	if (need <= s->cap)
		return KP_OK;
	size_t cap = s->cap ? s->cap : 256;
	while (cap < need)
		cap *= 2;
	char *b = kp_realloc(s->buf, cap);
	if (!b)
		return KP_NOMEM;
	s->buf = b;
	s->cap = cap;
	return KP_OK;
}

static int hex4(const unsigned char *p, unsigned *v)
{
	*v = 0;
	for (int k = 0; k < 4; k++) {
		unsigned c = p[k];
		unsigned x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10u : c >= 'A' && c <= 'F' ? c - 'A' + 10u : 16u;
		if (x == 16)
			return 0;
		*v = *v * 16 + x;
	}
	return 1;
}

/* the length of a valid UTF-8 sequence at p (of at most n bytes), 0 if invalid */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
	if (!k || k > n)
		return 0;
	unsigned cp = k == 1 ? c : k == 2 ? c & 0x1Fu : k == 3 ? c & 0x0Fu : c & 0x07u;
	for (size_t j = 1; j < k; j++) {
		if ((p[j] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[j] & 0x3Fu);
	}
	static const unsigned min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < min[k] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return k;
}

/* a string at s->i (its opening quote) decoded into s->buf; *n its length */
static int string(scan *s, size_t *n)
{
	size_t o = 0, i = s->i + 1, col = s->col + 1;
	for (;;) {
		if (i >= s->len)
			return FALLBACK;
		unsigned char c = s->d[i];
		if (grow(s, o + 8))
			return KP_NOMEM;
		if (c == '"') {
			i++, col++;
			break;
		}
		if (c < 0x20)
			return FALLBACK;
		if (c == '\\') {
			if (i + 1 >= s->len)
				return FALLBACK;
			unsigned char e = s->d[i + 1];
			const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
			const char *at = e ? strchr(from, e) : NULL;
			if (at) {
				s->buf[o++] = to[at - from];
				i += 2, col += 2;
				continue;
			}
			unsigned v;
			if (e != 'u' || i + 6 > s->len || !hex4(s->d + i + 2, &v) || (v >= 0xD800 && v <= 0xDFFF))
				return FALLBACK;
			if (v < 0x80) {
				s->buf[o++] = (char)v;
			} else if (v < 0x800) {
				s->buf[o++] = (char)(0xC0 | (v >> 6));
				s->buf[o++] = (char)(0x80 | (v & 0x3F));
			} else {
				s->buf[o++] = (char)(0xE0 | (v >> 12));
				s->buf[o++] = (char)(0x80 | ((v >> 6) & 0x3F));
				s->buf[o++] = (char)(0x80 | (v & 0x3F));
			}
			i += 6, col += 6;
			continue;
		}
		size_t k = utf8_len(s->d + i, s->len - i);
		if (!k)
			return FALLBACK;
		if (grow(s, o + k + 1))
			return KP_NOMEM;
		memcpy(s->buf + o, s->d + i, k);
		o += k, i += k, col++;
	}
	*n = o;
	s->i = i;
	s->col = col;
	return KP_OK;
}

static int scalar(scan *s, const yaml_mark_t *m, const char *v, size_t n, int quoted)
{
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = YAML_SCALAR_EVENT;
	ev.start_mark = *m;
	ev.end_mark = *m;
	ev.data.scalar.value = (yaml_char_t *)v;
	ev.data.scalar.length = n;
	ev.data.scalar.plain_implicit = !quoted;
	ev.data.scalar.quoted_implicit = quoted;
	ev.data.scalar.style = quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE;
	return emit(s, &ev);
}

/* a number or true/false/null: a plain scalar */
static int plain(scan *s, int in_seq)
{
	const unsigned char *d = s->d;
	size_t i = s->i, e = i;
	if (d[e] == 't' || d[e] == 'f' || d[e] == 'n') {
		const char *w = d[e] == 't' ? "true" : d[e] == 'f' ? "false" : "null";
		size_t wl = strlen(w);
		if (s->len - e < wl || memcmp(d + e, w, wl))
			return FALLBACK;
		e += wl;
	} else {
		if (e < s->len && d[e] == '-')
			e++;
		if (e >= s->len || d[e] < '0' || d[e] > '9')
			return FALLBACK;
		if (d[e] == '0')
			e++;
		else
			while (e < s->len && d[e] >= '0' && d[e] <= '9')
				e++;
		if (e < s->len && d[e] == '.') {
			if (++e >= s->len || d[e] < '0' || d[e] > '9')
				return FALLBACK;
			while (e < s->len && d[e] >= '0' && d[e] <= '9')
				e++;
		}
		if (e < s->len && (d[e] == 'e' || d[e] == 'E')) {
			e++;
			if (e < s->len && (d[e] == '+' || d[e] == '-'))
				e++;
			if (e >= s->len || d[e] < '0' || d[e] > '9')
				return FALLBACK;
			while (e < s->len && d[e] >= '0' && d[e] <= '9')
				e++;
		}
	}
	/* what follows must end a plain scalar for YAML too */
	if (e < s->len && !strchr(" \t\r\n,]}", d[e]))
		return FALLBACK;
	yaml_mark_t m;
	mark(s, &m);
	s->col += e - i;
	s->i = e;
	if (!seq_next_ok(s, in_seq))
		return FALLBACK;
	return scalar(s, &m, (const char *)d + i, e - i, 0);
}

static int value(scan *s, int depth, int in_seq);

static int collection(scan *s, int depth, int in_seq)
{
	int map = s->d[s->i] == '{', tab = 0;
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = map ? YAML_MAPPING_START_EVENT : YAML_SEQUENCE_START_EVENT;
	mark(s, &ev.start_mark);
	ev.end_mark = ev.start_mark;
	if (map) {
		ev.data.mapping_start.implicit = 1;
		ev.data.mapping_start.style = YAML_FLOW_MAPPING_STYLE;
	} else {
		ev.data.sequence_start.implicit = 1;
		ev.data.sequence_start.style = YAML_FLOW_SEQUENCE_STYLE;
	}
	int rc = emit(s, &ev);
	if (rc)
		return rc;
	s->i++, s->col++;
	char close = map ? '}' : ']';
	skip_ws(s, 1, &tab);
	if (s->i < s->len && s->d[s->i] == close) {
		s->i++, s->col++;
		if (!seq_next_ok(s, in_seq))
			return FALLBACK;
		return simple_event(s, map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT);
	}
	for (;;) {
		if (map) {
			if (s->i >= s->len || s->d[s->i] != '"')
				return FALLBACK;
			yaml_mark_t km;
			mark(s, &km);
			size_t n, start = s->i;
			if ((rc = string(s, &n)) || (rc = scalar(s, &km, s->buf, n, 1)))
				return rc;
			skip_ws(s, 1, &tab);
			if (s->i >= s->len || s->d[s->i] != ':' || s->line != km.line || s->i - start > 1000)
				return FALLBACK;
			s->i++, s->col++;
			skip_ws(s, 1, &tab);
		}
		if ((rc = value(s, depth + 1, !map)))
			return rc;
		skip_ws(s, 1, &tab);
		if (s->i >= s->len)
			return FALLBACK;
		if (s->d[s->i] == close) {
			s->i++, s->col++;
			if (!seq_next_ok(s, in_seq))
				return FALLBACK;
			return simple_event(s, map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT);
		}
		if (s->d[s->i] != ',')
			return FALLBACK;
		s->i++, s->col++;
		skip_ws(s, 1, &tab);
	}
}

static int value(scan *s, int depth, int in_seq)
{
	if (s->i >= s->len)
		return FALLBACK;
	unsigned char c = s->d[s->i];
	if (c == '{' || c == '[')
		return collection(s, depth, in_seq);
	if (c == '"') {
		yaml_mark_t m;
		mark(s, &m);
		size_t n;
		int rc = string(s, &n);
		if (!rc && !seq_next_ok(s, in_seq))
			rc = FALLBACK;
		return rc ? rc : scalar(s, &m, s->buf, n, 1);
	}
	return plain(s, in_seq);
}

/* libyaml's reader refuses, ahead of the tokens it has delivered (it
 * decodes its input a buffer at a time), invalid UTF-8 and characters YAML
 * does not print (yaml_parser_update_buffer): with any in the text, its
 * error could come before objects the fast path would already have
 * delivered, so the fast path is not taken at all. */
static int text_clean(const unsigned char *d, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = d[i];
		if (c < 0x80) {
			if (c < 0x20 ? c != '\t' && c != '\n' && c != '\r' : c == 0x7F)
				return 0;
			i++;
			continue;
		}
		size_t k = utf8_len(d + i, len - i);
		if (!k)
			return 0;
		unsigned cp = k == 2 ? ((c & 0x1Fu) << 6) | (d[i + 1] & 0x3Fu)
			    : k == 3 ? ((c & 0x0Fu) << 12) | ((d[i + 1] & 0x3Fu) << 6) | (d[i + 2] & 0x3Fu) : 0x10000;
		if ((cp < 0xA0 && cp != 0x85) || cp == 0xFFFE || cp == 0xFFFF)
			return 0;
		i += k;
	}
	return 1;
}

int kp_yjson_events(const char *data, size_t len, kp_yjson_emit_fn fn, void *ctx)
{
	if (!text_clean((const unsigned char *)data, len))
		return FALLBACK;
	scan s;
	memset(&s, 0, sizeof s);
	s.d = (const unsigned char *)data;
	s.len = len;
	s.emit = fn;
	s.ctx = ctx;
	int tab = 0, rc;
	if ((rc = simple_event(&s, YAML_STREAM_START_EVENT)))
		return rc;
	skip_ws(&s, 0, &tab);
	if (tab || s.i >= s.len || (s.d[s.i] != '{' && s.d[s.i] != '['))
		rc = FALLBACK;
	else if (!(rc = simple_event(&s, YAML_DOCUMENT_START_EVENT)) && !(rc = collection(&s, 0, 0))) {
		skip_ws(&s, 0, &tab);
		if (tab || s.i < s.len)
			rc = FALLBACK;
		else if (!(rc = simple_event(&s, YAML_DOCUMENT_END_EVENT)))
			rc = simple_event(&s, YAML_STREAM_END_EVENT);
	}
	kp_free(s.buf);
	return s.stop ? s.stop : rc;
}
