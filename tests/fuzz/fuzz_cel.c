/*
 * fuzz_cel.c — libFuzzer target for the CEL subset (common/cel*.c):
 * kp_cel_compile on the input text, then kp_cel_eval on three devices.
 *
 * Besides ASan/UBSan (and the C stack: nesting is bounded), it checks what
 * must hold for every text:
 *  - compile returns KP_OK with an expression, or KP_PARSE / KP_NOMEM with
 *    a message, no expression and (KP_PARSE) a position inside the text;
 *  - evaluation returns 1, 0 or -1, -1 with a message, and the same answer
 *    twice (no hidden state);
 *  - CEL's logical operators absorb errors: wherever both compile,
 *    `true || (E)` is 1 and `false && (E)` is 0 whatever E does, `(E) || true`
 *    and `(E) && false` likewise, and `!(E)` is the negation of E (an error
 *    staying an error).
 * A broken invariant aborts (libFuzzer reports it as a crash).
 */
#include "common/kp.h"
#include "../../common/cel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what, const char *src)
{
	fprintf(stderr, "fuzz_cel: %s for '%s'\n", what, src);
	abort();
}

typedef struct fz_attr { int map; const char *domain, *name; int type; int64_t i; const char *s; } fz_attr;

static const fz_attr attrs[] = {
	{ 0, "gpu.example.com", "model", KP_CEL_STRING, 0, "LATEST-GPU-MODEL" },
	{ 0, "gpu.example.com", "index", KP_CEL_INT, 3, NULL },
	{ 0, "gpu.example.com", "ok", KP_CEL_BOOL, 1, NULL },
	{ 0, "gpu.example.com", "driverVersion", KP_CEL_VERSION, 0, "1.2.3-rc.1+b" },
	{ 0, "gpu.example.com", "bad", KP_CEL_VERSION, 0, "1.2" },
	{ 0, "gpu.example.com", "none", KP_CEL_NONE, 0, NULL },
	{ 0, "dra.example.com", "name", KP_CEL_STRING, 0, "fish" },
	{ 1, "gpu.example.com", "memory", KP_CEL_QUANTITY, INT64_C(85899345920000), NULL },
	{ 1, "gpu.example.com", "cores", KP_CEL_QUANTITY, 1500, NULL },
	{ 1, "gpu.example.com", "wrong", KP_CEL_STRING, 0, "x" },
};

/* ctx: 0 the full table, 1 nothing, 2 only the second domain */
static int lookup(void *ctx, int map, const char *domain, const char *name, kp_cel_val *out)
{
	int which = (int)(intptr_t)ctx;
	if (which == 1)
		return 0;
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		const fz_attr *a = &attrs[i];
		if (a->map != map || strcmp(a->domain, domain) != 0 || (which == 2 && strcmp(domain, "dra.example.com")))
			continue;
		if (!name)
			return 1;
		if (strcmp(a->name, name) != 0)
			continue;
		out->type = a->type;
		out->i = a->i;
		out->b = (int)a->i;
		out->s = a->s;
		return 1;
	}
	return 0;
}

static const kp_cel_device devices[] = {
	{ "gpu.example.com", 1, lookup, (void *)0 },
	{ "", 0, lookup, (void *)1 },
	{ "dra.example.com", 0, lookup, (void *)2 },
};
#define NDEV (sizeof devices / sizeof devices[0])

static int count_lines(const char *s)
{
	int n = 1;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* compile src: NULL when refused (after checking the refusal) */
static kp_cel *compile(const char *src)
{
	kp_cel *e = (kp_cel *)&e;
	kp_cel_pos pos = { -1, -1 };
	char msg[256] = "";
	int rc = kp_cel_compile(src, &e, &pos, msg, sizeof msg);
	if (rc == KP_OK) {
		if (!e)
			fail("KP_OK without an expression", src);
		return e;
	}
	if (e)
		fail("an expression on failure", src);
	if ((rc != KP_PARSE && rc != KP_NOMEM) || !msg[0])
		fail("a failure without a code or message", src);
	if (rc == KP_PARSE && (pos.line < 1 || pos.col < 1 || pos.line > count_lines(src)))
		fail("a position outside the text", src);
	return NULL;
}

static void eval_all(const kp_cel *e, const char *src, int *res)
{
	for (size_t d = 0; d < NDEV; d++) {
		char msg[256] = "", msg2[256] = "";
		int r = kp_cel_eval(e, &devices[d], msg, sizeof msg);
		int r2 = kp_cel_eval(e, &devices[d], msg2, sizeof msg2);
		if (r < -1 || r > 1)
			fail("a result that is not 1, 0 or -1", src);
		if (r == -1 && !msg[0])
			fail("an error without a message", src);
		if (r != r2 || strcmp(msg, msg2) != 0)
			fail("two evaluations differ", src);
		res[d] = r;
	}
}

/* the oracles: fmt wraps src ("%s" once); want: -2 = the negation of res, else that constant */
static void wrapped(const char *fmt, const char *src, const int *res, int want, char *buf, size_t size)
{
	if ((size_t)snprintf(buf, size, fmt, src) >= size)
		return;
	kp_cel *w = compile(buf);
	if (!w)
		return;
	int got[NDEV];
	eval_all(w, buf, got);
	kp_cel_free(w);
	for (size_t d = 0; d < NDEV; d++) {
		int expect = want != -2 ? want : res[d] == -1 ? -1 : !res[d];
		if (got[d] != expect) {
			fprintf(stderr, "fuzz_cel: device %zu: %d, want %d\n", d, got[d], expect);
			fail(fmt, src);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > KP_CEL_MAX_LEN + 16)
		return 0;
	char src[KP_CEL_MAX_LEN + 17];
	memcpy(src, data, size);
	src[size] = 0;
	kp_cel *e = compile(src);
	if (!e)
		return 0;
	int res[NDEV];
	eval_all(e, src, res);
	kp_cel_free(e);
	static char buf[KP_CEL_MAX_LEN + 64];
	wrapped("true || (\n%s\n)", src, res, 1, buf, sizeof buf);
	wrapped("false && (\n%s\n)", src, res, 0, buf, sizeof buf);
	wrapped("(\n%s\n) || true", src, res, 1, buf, sizeof buf);
	wrapped("(\n%s\n) && false", src, res, 0, buf, sizeof buf);
	wrapped("!(\n%s\n)", src, res, -2, buf, sizeof buf);
	return 0;
}
