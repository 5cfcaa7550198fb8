/*
 * kp.c — kplan's shared vocabulary (see kp.h): errors, the allocation
 * wrapper, the arena, the string buffer, the hash and RFC 3339 times.
 */
#define _GNU_SOURCE
#include "kp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ctype.h>

volatile sig_atomic_t kp_interrupted;

/* ---- errors ---- */

int kp_err_setv(kp_err *err, int code, const char *fmt, va_list ap)
{
	if (!err || err->code != KP_OK)
		return code;
	err->code = code;
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	return code;
}

int kp_err_set(kp_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(err, code, fmt, ap);
	va_end(ap);
	return code;
}

void kp_err_locate(kp_err *err, const char *file, unsigned line, unsigned col, const char *object)
{
	if (!err)
		return;
	if (file && !err->file[0])
		snprintf(err->file, sizeof err->file, "%s", file);
	if (line && !err->line) {
		err->line = line;
		err->col = col;
	}
	if (object && object[0] && !err->object[0])
		snprintf(err->object, sizeof err->object, "%s", object);
}

void kp_err_clear(kp_err *err)
{
	if (err)
		memset(err, 0, sizeof *err);
}

const char *kp_err_format(const kp_err *err, char *buf, size_t size)
{
	kp_sb sb;
	kp_sb_init(&sb);
	if (err->file[0]) {
		kp_sb_adds(&sb, err->file);
		if (err->line)
			kp_sb_printf(&sb, ":%u:%u", err->line, err->col);
		kp_sb_adds(&sb, ": ");
	}
	if (err->object[0]) {
		kp_sb_adds(&sb, err->object);
		kp_sb_adds(&sb, ": ");
	}
	kp_sb_adds(&sb, err->msg[0] ? err->msg : "unknown error");
	if (size) {
		size_t n = sb.len < size - 1 ? sb.len : size - 1;
		memcpy(buf, kp_sb_str(&sb), n);
		buf[n] = 0;
	}
	kp_sb_release(&sb);
	return buf;
}

/* ---- allocation ---- */

static long fail_countdown = -1;

void kp_alloc_fail_after(long n) { fail_countdown = n; }

static int should_fail(void)
{
	if (fail_countdown < 0)
		return 0;
	if (fail_countdown == 0)
		return 1;
	fail_countdown--;
	return 0;
}

void *kp_malloc(size_t n) { return should_fail() ? NULL : malloc(n ? n : 1); }
void *kp_calloc(size_t c, size_t s) { return should_fail() ? NULL : calloc(c ? c : 1, s ? s : 1); }
void *kp_realloc(void *p, size_t n) { return should_fail() ? NULL : realloc(p, n ? n : 1); }
void kp_free(void *p) { free(p); }

char *kp_strndup(const char *s, size_t n)
{
	char *d = kp_malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

int kp_grow_array(void *arrp, size_t elem, size_t newcap)
{
	/* through memcpy: arrp points at a T *, not a void * */
	void *old, *p;
	memcpy(&old, arrp, sizeof old);
	if (!elem || newcap > SIZE_MAX / elem || !(p = kp_realloc(old, newcap * elem)))
		return -1;
	memcpy(arrp, &p, sizeof p);
	return 0;
}

char *kp_strdup(const char *s) { return s ? kp_strndup(s, strlen(s)) : NULL; }

/* ---- arena ---- */

struct kp_arena_block {
	kp_arena_block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

void kp_arena_init(kp_arena *a, size_t block_size)
{
	memset(a, 0, sizeof *a);
	a->block_size = block_size ? block_size : 64 * 1024;
}

void *kp_arena_alloc(kp_arena *a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (a->limit && a->total + n > a->limit)
		return NULL;
	kp_arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t sz = n > a->block_size ? n : a->block_size;
		b = kp_malloc(sizeof *b + sz);
		if (!b)
			return NULL;
		b->size = sz;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *kp_arena_strndup(kp_arena *a, const char *s, size_t n)
{
	char *d = kp_arena_alloc(a, n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

char *kp_arena_strdup(kp_arena *a, const char *s) { return s ? kp_arena_strndup(a, s, strlen(s)) : NULL; }

char *kp_arena_printf(kp_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *d = kp_arena_alloc(a, (size_t)n + 1);
	if (!d)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(d, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return d;
}

void kp_arena_reset(kp_arena *a)
{
	/* keep the oldest (last in the list) block of default size, free the rest */
	kp_arena_block *b = a->head, *keep = NULL;
	while (b) {
		kp_arena_block *next = b->next;
		if (!next && b->size == a->block_size)
			keep = b;
		else
			kp_free(b);
		b = next;
	}
	if (keep) {
		keep->used = 0;
		keep->next = NULL;
	}
	a->head = keep;
	a->total = 0;
}

void kp_arena_adopt(kp_arena *dst, kp_arena *src)
{
	kp_arena_block *b = src->head;
	if (!b)
		return;
	while (b->next)
		b = b->next;
	b->next = dst->head;
	dst->head = src->head;
	dst->total += src->total;
	src->head = NULL;
	src->total = 0;
}

void kp_arena_release(kp_arena *a)
{
	kp_arena_block *b = a->head;
	while (b) {
		kp_arena_block *next = b->next;
		kp_free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}

/* ---- string buffer ---- */

void kp_sb_init(kp_sb *sb) { memset(sb, 0, sizeof *sb); }

void kp_sb_release(kp_sb *sb)
{
	kp_free(sb->buf);
	memset(sb, 0, sizeof *sb);
}

void kp_sb_reset(kp_sb *sb)
{
	sb->len = 0;
	sb->failed = 0;
	if (sb->buf)
		sb->buf[0] = 0;
}

static int sb_grow(kp_sb *sb, size_t extra)
{
	if (sb->failed)
		return 0;
	if (sb->len + extra + 1 <= sb->cap)
		return 1;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *p = kp_realloc(sb->buf, cap);
	if (!p) {
		sb->failed = 1;
		return 0;
	}
	sb->buf = p;
	sb->cap = cap;
	return 1;
}

void kp_sb_add(kp_sb *sb, const char *s, size_t n)
{
	if (!sb_grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

void kp_sb_adds(kp_sb *sb, const char *s) { kp_sb_add(sb, s, strlen(s)); }

void kp_sb_addc(kp_sb *sb, char c) { kp_sb_add(sb, &c, 1); }

void kp_sb_printf(kp_sb *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !sb_grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void kp_sb_add_json_str(kp_sb *sb, const char *s)
{
	if (!s) {
		kp_sb_adds(sb, "null");
		return;
	}
	kp_sb_addc(sb, '"');
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *run = p;
	for (; *p; p++) {
		if (*p >= 0x20 && *p != '"' && *p != '\\')
			continue;
		kp_sb_add(sb, (const char *)run, (size_t)(p - run));
		switch (*p) {
		case '"': kp_sb_adds(sb, "\\\""); break;
		case '\\': kp_sb_adds(sb, "\\\\"); break;
		case '\n': kp_sb_adds(sb, "\\n"); break;
		case '\r': kp_sb_adds(sb, "\\r"); break;
		case '\t': kp_sb_adds(sb, "\\t"); break;
		default: kp_sb_printf(sb, "\\u%04x", *p); break;
		}
		run = p + 1;
	}
	kp_sb_add(sb, (const char *)run, (size_t)(p - run));
	kp_sb_addc(sb, '"');
}

/* ---- hash ---- */

uint64_t kp_hash64(const void *data, size_t n, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL ^ (seed * 0x9e3779b97f4a7c15ULL);
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	/* splitmix64 finaliser: FNV's low bits are weak */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

/* ---- time ---- */

double kp_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)**p))
			return 0;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	*out = v;
	return 1;
}

/* days from 1970-01-01 to y-m-d (proleptic Gregorian), Howard Hinnant's algorithm */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

int kp_parse_time(const char *s, int64_t *out)
{
	int Y, M, D, h, m, sec;
	const char *p = s;
	if (!digits(&p, 4, &Y) || *p++ != '-' || !digits(&p, 2, &M) || *p++ != '-' ||
	    !digits(&p, 2, &D) || (*p != 'T' && *p != 't' && *p != ' '))
		return KP_PARSE;
	p++;
	if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &m) || *p++ != ':' ||
	    !digits(&p, 2, &sec))
		return KP_PARSE;
	if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60)
		return KP_PARSE;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return KP_PARSE;
		while (isdigit((unsigned char)*p))
			p++;
	}
	int64_t off = 0;
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p == '-' ? -1 : 1, oh, om;
		p++;
		if (!digits(&p, 2, &oh) || *p++ != ':' || !digits(&p, 2, &om))
			return KP_PARSE;
		off = sign * (oh * 3600 + om * 60);
	} else {
		return KP_PARSE;
	}
	if (*p)
		return KP_PARSE;
	*out = days_from_civil(Y, (unsigned)M, (unsigned)D) * 86400 + h * 3600 + m * 60 + sec - off;
	return KP_OK;
}

void kp_format_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!gmtime_r(&tt, &tm)) {
		snprintf(buf, size, "%lld", (long long)t);
		return;
	}
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- sorting ---- */

void kp_sort(void *base, size_t n, size_t size, kp_cmp_fn cmp, void *ctx)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, ctx);
}

int kp_cmp_str(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kp_cmp_i64(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

int kp_cmp_i32(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

long kp_find_i64(const int64_t *v, size_t n, int64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == key ? (long)lo : -1;
}
