/*
 * cel.c — the CEL subset's front end: kp_cel_compile (limits, then parse,
 * then check) and the lexer and recursive-descent parser of CEL's grammar
 * (cel-spec langdef.md; the grammar as docs/cel.md writes it in EBNF).
 *
 * Contract:
 *   - The text is at most KP_CEL_MAX_LEN bytes of valid UTF-8; positions are
 *     1-based lines and columns counted in characters (code points).
 *   - The tree is built in the expression's arena.  Parse recursion and tree
 *     height are bounded by KP_CEL_MAX_DEPTH, so no input can exhaust the C
 *     stack here or in cel_check.c and cel_eval.c, which recurse on the tree.
 *   - `a && b && c` and `a || b || c` become one node with n terms (no depth
 *     for long chains of alternatives, as DeviceClasses write them).
 *   - The macros has() and cel.bind() are expanded here, as cel-go's parser
 *     does; the comprehension macros (all, exists, ...) are refused here.
 *   - Syntax errors read "Syntax error: ..." (kube's message starts so),
 *     refusals "unsupported: ...", kplan's limits "kplan limit: ...".
 *
 *   kp_cel_compile("device.driver == 'gpu.example.com'", &e, &pos, msg, sizeof msg)  -> KP_OK
 *   kp_cel_compile("device.driver == ", ...)  -> KP_PARSE, 1:18 "Syntax error: unexpected end of expression"
 */
#include "cel_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
	T_EOF, T_IDENT, T_INT, T_STR, T_UINT, T_DOUBLE, T_BYTES,
	T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK, T_LBRACE, T_RBRACE,
	T_DOT, T_COMMA, T_QUEST, T_COLON, T_NOT, T_MINUS, T_PLUS, T_STAR, T_SLASH, T_PERCENT,
	T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_AND, T_OR, T_IN,
};

typedef struct cel_tok {
	int kind;
	int line, col;
	size_t off, end;       /* the token's bytes in the source */
	uint64_t u;            /* T_INT magnitude */
	int overflow;          /* T_INT: more than 2^64 - 1 */
	char *s;               /* T_IDENT, T_STR: text in the arena */
	size_t n;
} cel_tok;

typedef struct cel_parser {
	const char *src;
	size_t len, off;
	int line, col;
	cel_tok tok;
	kp_arena *arena;
	char *strbuf;          /* a string literal while it is decoded (len + 1 bytes) */
	int depth;             /* parse_expr recursion */
	int nslots;
	int failed;            /* KP_PARSE or KP_NOMEM once an error is set */
	kp_cel_pos pos;
	char *msg;
	size_t size;
} cel_parser;

static void *fail(cel_parser *p, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void *fail(cel_parser *p, int line, int col, const char *fmt, ...)
{
	if (p->failed)
		return NULL;
	p->failed = KP_PARSE;
	p->pos.line = line;
	p->pos.col = col;
	if (p->msg && p->size) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->msg, p->size, fmt, ap);
		va_end(ap);
	}
	return NULL;
}

static void *nomem(cel_parser *p)
{
	if (!p->failed) {
		p->failed = KP_NOMEM;
		if (p->msg && p->size)
			snprintf(p->msg, p->size, "out of memory");
	}
	return NULL;
}

/* ---- lexer ---- */

static int peekc(const cel_parser *p, size_t k) { return p->off + k < p->len ? (unsigned char)p->src[p->off + k] : -1; }

/* consume one byte; columns count characters, so continuation bytes do not move them */
static void adv(cel_parser *p)
{
	unsigned char c = (unsigned char)p->src[p->off++];
	if (c == '\n') {
		p->line++;
		p->col = 1;
	} else if ((c & 0xC0) != 0x80) {
		p->col++;
	}
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static int hex_val(int c) { return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }
static int is_ident_start(int c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_ident(int c) { return is_ident_start(c) || is_digit(c); }

/* append code point cp as UTF-8 */
static size_t put_utf8(char *d, uint32_t cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xC0 | (cp >> 6));
		d[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xE0 | (cp >> 12));
		d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		d[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	d[0] = (char)(0xF0 | (cp >> 18));
	d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	d[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* One escape sequence after the backslash (cel-go's unescape for strings:
 * \x, \u, \U and octal escapes are code points).  0 or -1 (error set). */
static int lex_escape(cel_parser *p, char *d, size_t *dn)
{
	int line = p->line, col = p->col - 1;
	int c = peekc(p, 0);
	static const char simple[] = "abfnrtv\\?\"'`", value[] = "\a\b\f\n\r\t\v\\?\"'`";
	const char *k = c > 0 ? strchr(simple, c) : NULL;
	if (k && *k) {
		adv(p);
		d[(*dn)++] = value[k - simple];
		return 0;
	}
	uint32_t cp = 0;
	int digits = c == 'x' || c == 'X' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
	if (digits) {
		adv(p);
		for (int i = 0; i < digits; i++) {
			if (!is_hex(peekc(p, 0)))
				return fail(p, line, col, "Syntax error: invalid escape sequence"), -1;
			cp = cp * 16 + (uint32_t)hex_val(peekc(p, 0));
			adv(p);
		}
	} else if (c >= '0' && c <= '3') {
		for (int i = 0; i < 3; i++) {
			int o = peekc(p, 0);
			if (o < '0' || o > '7')
				return fail(p, line, col, "Syntax error: invalid escape sequence"), -1;
			cp = cp * 8 + (uint32_t)(o - '0');
			adv(p);
		}
	} else {
		return fail(p, line, col, "Syntax error: invalid escape sequence"), -1;
	}
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return fail(p, line, col, "Syntax error: invalid code point U+%X in an escape sequence", (unsigned)cp), -1;
	*dn += put_utf8(d + *dn, cp);
	return 0;
}

/* A string literal at p->off (after any prefix); raw: no escapes. */
static int lex_string(cel_parser *p, int raw)
{
	int q = peekc(p, 0);
	int triple = peekc(p, 1) == q && peekc(p, 2) == q;
	int line = p->tok.line, col = p->tok.col;
	char *d = p->strbuf;   /* decoded text is never longer than its source */
	size_t dn = 0;
	for (int i = 0; i < (triple ? 3 : 1); i++)
		adv(p);
	for (;;) {
		int c = peekc(p, 0);
		if (c < 0)
			return fail(p, line, col, "Syntax error: unterminated string literal"), -1;
		if (c == q && (!triple || (peekc(p, 1) == q && peekc(p, 2) == q))) {
			for (int i = 0; i < (triple ? 3 : 1); i++)
				adv(p);
			break;
		}
		if (!triple && (c == '\n' || c == '\r'))
			return fail(p, line, col, "Syntax error: newline in a string literal (use a triple-quoted string)"), -1;
		if (c == '\\' && !raw) {
			adv(p);
			if (lex_escape(p, d, &dn) != 0)
				return -1;
			continue;
		}
		d[dn++] = (char)c;
		adv(p);
	}
	p->tok.kind = T_STR;
	p->tok.s = kp_arena_strndup(p->arena, d, dn);
	p->tok.n = dn;
	return p->tok.s ? 0 : (nomem(p), -1);
}

static void lex_number(cel_parser *p)
{
	cel_tok *t = &p->tok;
	t->kind = T_INT;
	if (peekc(p, 0) == '0' && (peekc(p, 1) == 'x' || peekc(p, 1) == 'X') && is_hex(peekc(p, 2))) {
		adv(p);
		adv(p);
		while (is_hex(peekc(p, 0))) {
			if (t->u > UINT64_MAX / 16)
				t->overflow = 1;
			t->u = t->u * 16 + (uint64_t)hex_val(peekc(p, 0));
			adv(p);
		}
	} else {
		while (is_digit(peekc(p, 0))) {
			uint64_t dg = (uint64_t)(peekc(p, 0) - '0');
			if (t->u > (UINT64_MAX - dg) / 10)
				t->overflow = 1;
			t->u = t->u * 10 + dg;
			adv(p);
		}
		int c = peekc(p, 0);
		int exp_at = (c == 'e' || c == 'E') ? 1 : 0;
		if (c == '.' && is_digit(peekc(p, 1))) {
			t->kind = T_DOUBLE;
			adv(p);
			while (is_digit(peekc(p, 0)))
				adv(p);
			c = peekc(p, 0);
			exp_at = (c == 'e' || c == 'E');
		}
		if (exp_at) {
			size_t k = 1;
			if (peekc(p, k) == '+' || peekc(p, k) == '-')
				k++;
			if (is_digit(peekc(p, k))) {
				t->kind = T_DOUBLE;
				while (k--)
					adv(p);
				while (is_digit(peekc(p, 0)))
					adv(p);
			}
		}
		if (t->kind == T_DOUBLE)
			return;
	}
	if (peekc(p, 0) == 'u' || peekc(p, 0) == 'U') {
		t->kind = T_UINT;
		adv(p);
	}
}

static const char *const reserved[] = {
	"as", "break", "const", "continue", "else", "for", "function", "if", "import", "let",
	"loop", "package", "namespace", "return", "var", "void", "while",
};

static int lex_ident(cel_parser *p)
{
	cel_tok *t = &p->tok;
	/* string prefixes: r, b and both, either case */
	size_t k = 0;
	int raw = 0, bytes = 0;
	while (k < 2) {
		int c = peekc(p, k) | 0x20;
		if (c == 'r' && !raw)
			raw = 1;
		else if (c == 'b' && !bytes)
			bytes = 1;
		else
			break;
		k++;
		int q = peekc(p, k);
		if (q == '"' || q == '\'') {
			while (k--)
				adv(p);
			if (lex_string(p, raw) != 0)
				return -1;
			if (bytes)
				t->kind = T_BYTES;
			return 0;
		}
	}
	size_t start = p->off;
	while (is_ident(peekc(p, 0)))
		adv(p);
	t->n = p->off - start;
	t->s = kp_arena_strndup(p->arena, p->src + start, t->n);
	if (!t->s)
		return nomem(p), -1;
	t->kind = T_IDENT;
	if (strcmp(t->s, "in") == 0) {
		t->kind = T_IN;
		return 0;
	}
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strcmp(t->s, reserved[i]) == 0)
			return fail(p, t->line, t->col, "Syntax error: reserved identifier: %s", t->s), -1;
	return 0;
}

static int lex_punct(cel_parser *p)
{
	static const struct { const char *s; int kind; } ops[] = {
		{"==", T_EQ}, {"!=", T_NE}, {"<=", T_LE}, {">=", T_GE}, {"&&", T_AND}, {"||", T_OR},
		{"(", T_LPAREN}, {")", T_RPAREN}, {"[", T_LBRACK}, {"]", T_RBRACK}, {"{", T_LBRACE},
		{"}", T_RBRACE}, {".", T_DOT}, {",", T_COMMA}, {"?", T_QUEST}, {":", T_COLON},
		{"!", T_NOT}, {"-", T_MINUS}, {"+", T_PLUS}, {"*", T_STAR}, {"/", T_SLASH},
		{"%", T_PERCENT}, {"<", T_LT}, {">", T_GT},
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t n = strlen(ops[i].s);
		if (p->off + n <= p->len && memcmp(p->src + p->off, ops[i].s, n) == 0) {
			while (n--)
				adv(p);
			p->tok.kind = ops[i].kind;
			return 0;
		}
	}
	/* one character, all its bytes, for the message */
	size_t n = 1;
	while (p->off + n < p->len && ((unsigned char)p->src[p->off + n] & 0xC0) == 0x80)
		n++;
	return fail(p, p->line, p->col, "Syntax error: unexpected character '%.*s'", (int)n, p->src + p->off), -1;
}

/* the next token into p->tok; -1 on a lexical error */
static int next(cel_parser *p)
{
	for (;;) {
		int c = peekc(p, 0);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			adv(p);
		} else if (c == '/' && peekc(p, 1) == '/') {
			while (peekc(p, 0) >= 0 && peekc(p, 0) != '\n')
				adv(p);
		} else {
			break;
		}
	}
	cel_tok *t = &p->tok;
	memset(t, 0, sizeof *t);
	t->line = p->line;
	t->col = p->col;
	t->off = p->off;
	int c = peekc(p, 0), rc = 0;
	if (c < 0)
		t->kind = T_EOF;
	else if (is_digit(c) || (c == '.' && is_digit(peekc(p, 1))))
		lex_number(p);
	else if (c == '"' || c == '\'')
		rc = lex_string(p, 0);
	else if (is_ident_start(c))
		rc = lex_ident(p);
	else
		rc = lex_punct(p);
	t->end = p->off;
	return rc;
}

/* "unexpected 'TOKEN'" for the current token */
static void *unexpected(cel_parser *p)
{
	cel_tok *t = &p->tok;
	if (t->kind == T_EOF)
		return fail(p, t->line, t->col, "Syntax error: unexpected end of expression");
	size_t n = t->end - t->off;
	return fail(p, t->line, t->col, "Syntax error: unexpected '%.*s'%s", (int)(n > 40 ? 40 : n),
		    p->src + t->off, n > 40 ? "..." : "");
}

static int expect(cel_parser *p, int kind)
{
	if (p->tok.kind != kind) {
		unexpected(p);
		return -1;
	}
	return next(p);
}

/* ---- tree ---- */

static cel_node *mk(cel_parser *p, int kind, int line, int col)
{
	cel_node *n = kp_arena_alloc(p->arena, sizeof *n);
	if (!n)
		return nomem(p);
	n->kind = (uint8_t)kind;
	n->line = line;
	n->col = col;
	n->depth = 1;
	return n;
}

/* attach kids (copied into the arena) and bound the height */
static cel_node *with_kids(cel_parser *p, cel_node *n, cel_node *const *kids, int nkid)
{
	if (!n)
		return NULL;
	n->kid = kp_arena_alloc(p->arena, sizeof *n->kid * (size_t)(nkid ? nkid : 1));
	if (!n->kid)
		return nomem(p);
	int d = 0;
	for (int i = 0; i < nkid; i++) {
		n->kid[i] = kids[i];
		if (kids[i]->depth > d)
			d = kids[i]->depth;
	}
	n->nkid = nkid;
	if (d + 1 > KP_CEL_MAX_DEPTH)
		return fail(p, n->line, n->col, "kplan limit: the expression is nested more than %d levels deep",
			    KP_CEL_MAX_DEPTH);
	n->depth = (uint8_t)(d + 1);
	return n;
}

static cel_node *mk2(cel_parser *p, int kind, int op, const cel_tok *at, cel_node *a, cel_node *b)
{
	cel_node *kids[2] = { a, b };
	cel_node *n = mk(p, kind, at->line, at->col);
	if (n)
		n->op = (uint8_t)op;
	return with_kids(p, n, kids, b ? 2 : 1);
}

/* a growable list of nodes on the heap while parsing */
typedef struct cel_nodes { cel_node **v; int n, cap; } cel_nodes;

static int push(cel_parser *p, cel_nodes *l, cel_node *x)
{
	if (!x)
		return -1;
	if (KP_GROW(l->v, l->n, l->cap, 4) != 0)
		return nomem(p), -1;
	l->v[l->n++] = x;
	return 0;
}

static cel_node *parse_expr(cel_parser *p);

/* expr {, expr} [,] up to close; the opening token is consumed */
static int parse_list(cel_parser *p, int close, int trailing_comma, cel_nodes *l)
{
	while (p->tok.kind != close) {
		if (p->tok.kind == T_QUEST)
			return fail(p, p->tok.line, p->tok.col, "unsupported: optional list element '?'"), -1;
		if (push(p, l, parse_expr(p)) != 0)
			return -1;
		if (p->tok.kind != T_COMMA)
			break;
		if (next(p) != 0)
			return -1;
		if (p->tok.kind == close && !trailing_comma)
			return unexpected(p), -1;
	}
	return expect(p, close);
}

static const char *const comprehension_macros[] = {
	"all", "exists", "exists_one", "map", "filter", "transformList", "transformMap",
	"transformMapEntry", "optMap", "optFlatMap", "existsOne",
};

/* name(args) or target.name(args), with the macros expanded */
static cel_node *make_call(cel_parser *p, const cel_tok *name, cel_node *target, cel_nodes *args)
{
	if (!target && strcmp(name->s, "has") == 0) {
		if (args->n != 1 || args->v[0]->kind != CN_SELECT)
			return fail(p, name->line, name->col, "invalid argument to has() macro");
		cel_node *sel = args->v[0];
		sel->kind = CN_HAS;   /* has(x.f): the select node becomes the test */
		sel->line = name->line;
		sel->col = name->col;
		return sel;
	}
	if (target) {
		for (size_t i = 0; i < sizeof comprehension_macros / sizeof comprehension_macros[0]; i++)
			if (strcmp(name->s, comprehension_macros[i]) == 0)
				return fail(p, name->line, name->col, "unsupported: the macro '%s'", name->s);
	}
	if (target && target->kind == CN_IDENT && strcmp(target->s, "cel") == 0 && strcmp(name->s, "bind") == 0) {
		if (args->n != 3)
			return fail(p, name->line, name->col, "cel.bind() takes 3 arguments, not %d", args->n);
		if (args->v[0]->kind != CN_IDENT)
			return fail(p, args->v[0]->line, args->v[0]->col,
				    "cel.bind() variable names must be simple identifiers");
		if (p->nslots >= KP_CEL_MAX_BINDS)
			return fail(p, name->line, name->col, "kplan limit: more than %d cel.bind() in one expression",
				    KP_CEL_MAX_BINDS);
		cel_node *b = mk(p, CN_BIND, target->line, target->col);
		if (!b)
			return NULL;
		b->s = args->v[0]->s;
		b->n = args->v[0]->n;
		b->i = p->nslots++;
		return with_kids(p, b, args->v + 1, 2);
	}
	cel_node *c = mk(p, CN_CALL, name->line, name->col);
	if (!c)
		return NULL;
	c->s = name->s;
	c->n = name->n;
	if (target) {
		c->member = 1;
		cel_nodes all = { 0 };
		int rc = push(p, &all, target);
		for (int i = 0; rc == 0 && i < args->n; i++)
			rc = push(p, &all, args->v[i]);
		c = rc == 0 ? with_kids(p, c, all.v, all.n) : NULL;
		kp_free(all.v);
		return c;
	}
	return with_kids(p, c, args->v, args->n);
}

/* IDENT [ '(' args ')' ] after the identifier token was read into name */
static cel_node *parse_call_args(cel_parser *p, const cel_tok *name, cel_node *target)
{
	cel_nodes args = { 0 };
	cel_node *r = NULL;
	if (next(p) == 0 && parse_list(p, T_RPAREN, 0, &args) == 0)
		r = make_call(p, name, target, &args);
	kp_free(args.v);
	return r;
}

static cel_node *parse_primary(cel_parser *p)
{
	cel_tok t = p->tok;
	switch (t.kind) {
	case T_INT: {
		if (t.overflow || t.u > (uint64_t)INT64_MAX)
			return fail(p, t.line, t.col, "invalid int literal");
		cel_node *n = mk(p, CN_INT, t.line, t.col);
		if (n)
			n->i = (int64_t)t.u;
		return next(p) == 0 ? n : NULL;
	}
	case T_STR: {
		cel_node *n = mk(p, CN_STR, t.line, t.col);
		if (n) {
			n->s = t.s;
			n->n = t.n;
		}
		return next(p) == 0 ? n : NULL;
	}
	case T_UINT:
		return fail(p, t.line, t.col, "unsupported: unsigned integer literal (uint)");
	case T_DOUBLE:
		return fail(p, t.line, t.col, "unsupported: floating-point literal (double)");
	case T_BYTES:
		return fail(p, t.line, t.col, "unsupported: bytes literal");
	case T_LPAREN: {
		if (next(p) != 0)
			return NULL;
		cel_node *e = parse_expr(p);
		return e && expect(p, T_RPAREN) == 0 ? e : NULL;
	}
	case T_LBRACK: {
		cel_nodes l = { 0 };
		cel_node *n = NULL;
		if (next(p) == 0 && parse_list(p, T_RBRACK, 1, &l) == 0)
			n = with_kids(p, mk(p, CN_LIST, t.line, t.col), l.v, l.n);
		kp_free(l.v);
		return n;
	}
	case T_LBRACE:
		return fail(p, t.line, t.col, "unsupported: map literal");
	case T_DOT:
		return fail(p, t.line, t.col, "unsupported: a leading '.' (root-scoped name)");
	case T_IDENT:
		break;
	default:
		return unexpected(p);
	}
	if (strcmp(t.s, "true") == 0 || strcmp(t.s, "false") == 0) {
		cel_node *n = mk(p, CN_BOOL, t.line, t.col);
		if (n)
			n->i = t.s[0] == 't';
		return next(p) == 0 ? n : NULL;
	}
	if (strcmp(t.s, "null") == 0)
		return fail(p, t.line, t.col, "unsupported: null");
	if (next(p) != 0)
		return NULL;
	if (p->tok.kind == T_LPAREN)
		return parse_call_args(p, &t, NULL);
	cel_node *n = mk(p, CN_IDENT, t.line, t.col);
	if (n) {
		n->s = t.s;
		n->n = t.n;
	}
	return n;
}

/* only identifiers and selections: what may name a message type */
static int is_qualified_name(const cel_node *n)
{
	while (n->kind == CN_SELECT)
		n = n->kid[0];
	return n->kind == CN_IDENT;
}

static cel_node *parse_member(cel_parser *p)
{
	cel_node *e = parse_primary(p);
	while (e) {
		cel_tok t = p->tok;
		if (t.kind == T_DOT) {
			if (next(p) != 0)
				return NULL;
			if (p->tok.kind == T_QUEST)
				return fail(p, t.line, t.col, "unsupported: optional field selection '.?'");
			if (p->tok.kind != T_IDENT)
				return unexpected(p);
			cel_tok name = p->tok;
			if (next(p) != 0)
				return NULL;
			if (p->tok.kind == T_LPAREN) {
				e = parse_call_args(p, &name, e);
				continue;
			}
			cel_node *s = mk2(p, CN_SELECT, 0, &t, e, NULL);
			if (s) {
				s->s = name.s;
				s->n = name.n;
			}
			e = s;
		} else if (t.kind == T_LBRACK) {
			if (next(p) != 0)
				return NULL;
			if (p->tok.kind == T_QUEST)
				return fail(p, t.line, t.col, "unsupported: optional index '[?'");
			cel_node *k = parse_expr(p);
			if (!k || expect(p, T_RBRACK) != 0)
				return NULL;
			e = mk2(p, CN_INDEX, 0, &t, e, k);
		} else if (t.kind == T_LBRACE && is_qualified_name(e)) {
			return fail(p, t.line, t.col, "unsupported: message construction");
		} else {
			break;
		}
	}
	return e;
}

/* unary: member | ('!' | '-') unary; each operator is a level of nesting (!!!!x is 4) */
static cel_node *parse_unary(cel_parser *p)
{
	cel_tok t = p->tok;
	if (t.kind != T_NOT && t.kind != T_MINUS)
		return parse_member(p);
	if (++p->depth > KP_CEL_MAX_DEPTH) {
		p->depth--;
		return fail(p, t.line, t.col, "kplan limit: the expression is nested more than %d levels deep",
			    KP_CEL_MAX_DEPTH);
	}
	cel_node *r = NULL;
	if (next(p) != 0) {
		p->depth--;
		return NULL;
	}
	/* -123 is one literal (so -9223372036854775808 is an int), as in CEL's grammar */
	if (t.kind == T_MINUS && p->tok.kind == T_INT) {
		cel_tok lit = p->tok;
		p->depth--;
		if (lit.overflow || lit.u > (uint64_t)INT64_MAX + 1)
			return fail(p, t.line, t.col, "invalid int literal");
		cel_node *n = mk(p, CN_INT, t.line, t.col);
		if (n)
			n->i = lit.u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)lit.u;
		if (!n || next(p) != 0)
			return NULL;
		/* a member after the literal applies to it: -1.foo() is -(1.foo()) in CEL, rare enough to refuse */
		if (p->tok.kind == T_DOT || p->tok.kind == T_LBRACK)
			return fail(p, p->tok.line, p->tok.col, "unsupported: a selection or index on a negative literal");
		return n;
	}
	cel_node *x = parse_unary(p);
	if (x)
		r = mk2(p, t.kind == T_NOT ? CN_NOT : CN_NEG, 0, &t, x, NULL);
	p->depth--;
	return r;
}

static cel_node *parse_binary(cel_parser *p, int level);

static int binary_op(int kind, int level)
{
	static const struct { int tok, op, level; } ops[] = {
		{T_STAR, OP_MUL, 2}, {T_SLASH, OP_DIV, 2}, {T_PERCENT, OP_MOD, 2},
		{T_PLUS, OP_ADD, 1}, {T_MINUS, OP_SUB, 1},
		{T_EQ, OP_EQ, 0}, {T_NE, OP_NE, 0}, {T_LT, OP_LT, 0}, {T_LE, OP_LE, 0},
		{T_GT, OP_GT, 0}, {T_GE, OP_GE, 0}, {T_IN, OP_IN, 0},
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (ops[i].tok == kind && ops[i].level == level)
			return ops[i].op;
	return -1;
}

/* level 0: relations, 1: + -, 2: * / %; all left-associative */
static cel_node *parse_binary(cel_parser *p, int level)
{
	cel_node *l = level == 2 ? parse_unary(p) : parse_binary(p, level + 1);
	while (l) {
		int op = binary_op(p->tok.kind, level);
		if (op < 0)
			break;
		cel_tok t = p->tok;
		if (next(p) != 0)
			return NULL;
		cel_node *r = level == 2 ? parse_unary(p) : parse_binary(p, level + 1);
		l = r ? mk2(p, CN_BIN, op, &t, l, r) : NULL;
	}
	return l;
}

/* a chain of terms joined by && (and) or || (or): one node with n kids */
static cel_node *parse_chain(cel_parser *p, int or)
{
	cel_node *first = or ? parse_chain(p, 0) : parse_binary(p, 0);
	int tok = or ? T_OR : T_AND;
	if (!first || p->tok.kind != tok)
		return first;
	cel_tok t = p->tok;
	cel_nodes l = { 0 };
	cel_node *r = NULL;
	if (push(p, &l, first) == 0) {
		while (p->tok.kind == tok) {
			if (next(p) != 0 || push(p, &l, or ? parse_chain(p, 0) : parse_binary(p, 0)) != 0)
				break;
		}
		if (!p->failed)
			r = with_kids(p, mk(p, or ? CN_OR : CN_AND, t.line, t.col), l.v, l.n);
	}
	kp_free(l.v);
	return r;
}

static cel_node *parse_expr(cel_parser *p)
{
	if (++p->depth > KP_CEL_MAX_DEPTH) {
		fail(p, p->tok.line, p->tok.col, "kplan limit: the expression is nested more than %d levels deep",
		     KP_CEL_MAX_DEPTH);
		p->depth--;
		return NULL;
	}
	cel_node *c = parse_chain(p, 1), *r = c;
	if (c && p->tok.kind == T_QUEST) {
		cel_tok t = p->tok;
		cel_node *k[3] = { c, NULL, NULL };
		r = NULL;
		if (next(p) == 0 && (k[1] = parse_chain(p, 1)) && expect(p, T_COLON) == 0 && (k[2] = parse_expr(p)))
			r = with_kids(p, mk(p, CN_COND, t.line, t.col), k, 3);
	}
	p->depth--;
	return r;
}

int kp_cel_parse(const char *src, size_t len, kp_arena *arena, cel_node **root, int *nslots,
		 kp_cel_pos *pos, char *msg, size_t size)
{
	cel_parser p = { .src = src, .len = len, .line = 1, .col = 1, .arena = arena, .msg = msg, .size = size };
	cel_node *r = NULL;
	p.strbuf = kp_malloc(len + 1);
	if (p.strbuf && next(&p) == 0) {
		r = parse_expr(&p);
		if (r && p.tok.kind != T_EOF)
			r = unexpected(&p);
	}
	kp_free(p.strbuf);
	if (!r || p.failed) {
		if (!p.failed)
			nomem(&p);
		if (pos)
			*pos = p.pos;
		return p.failed;
	}
	*root = r;
	*nslots = p.nslots;
	return KP_OK;
}

/* ---- kp_cel_compile ---- */

/* length of the longest valid UTF-8 prefix of s[0..n) */
static size_t utf8_valid(const unsigned char *s, size_t n, int *line, int *col)
{
	size_t i = 0;
	*line = 1;
	*col = 1;
	while (i < n) {
		unsigned c = s[i];
		size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
		if (!k || i + k > n)
			return i;
		uint32_t cp = k == 1 ? c : k == 2 ? (c & 0x1F) : k == 3 ? (c & 0x0F) : (c & 0x07);
		for (size_t j = 1; j < k; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + j] & 0x3F);
		}
		static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
		if (cp < min[k] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		if (c == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
		i += k;
	}
	return i;
}

static int refuse(kp_cel_pos *pos, int line, int col, char *msg, size_t size, const char *text)
{
	if (pos) {
		pos->line = line;
		pos->col = col;
	}
	if (msg && size)
		snprintf(msg, size, "%s", text);
	return KP_PARSE;
}

int kp_cel_compile(const char *src, kp_cel **out, kp_cel_pos *pos, char *msg, size_t size)
{
	*out = NULL;
	if (pos)
		pos->line = pos->col = 0;
	if (msg && size)
		msg[0] = 0;
	if (!src)
		return refuse(pos, 1, 1, msg, size, "no expression");
	size_t len = 0;
	while (len <= KP_CEL_MAX_LEN && src[len])
		len++;
	char text[96];
	if (len > KP_CEL_MAX_LEN) {
		snprintf(text, sizeof text, "the expression is longer than %d bytes (kube's limit)", KP_CEL_MAX_LEN);
		return refuse(pos, 1, 1, msg, size, text);
	}
	int line, col;
	if (utf8_valid((const unsigned char *)src, len, &line, &col) != len)
		return refuse(pos, line, col, msg, size, "Syntax error: invalid UTF-8");
	kp_cel *e = kp_calloc(1, sizeof *e);
	if (!e) {
		refuse(pos, 0, 0, msg, size, "out of memory");
		return KP_NOMEM;
	}
	kp_arena_init(&e->arena, 4096);
	int rc = kp_cel_parse(src, len, &e->arena, &e->root, &e->nslots, pos, msg, size);
	if (rc == KP_OK)
		rc = kp_cel_check(e->root, &e->arena, pos, msg, size);
	if (rc != KP_OK) {
		kp_cel_free(e);
		return rc;
	}
	*out = e;
	return KP_OK;
}

void kp_cel_free(kp_cel *e)
{
	if (!e)
		return;
	kp_arena_release(&e->arena);
	kp_free(e);
}
