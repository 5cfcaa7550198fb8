/*
 * kp.h — kplan's shared vocabulary: return codes, the error record, the
 * allocation wrapper, a bump arena, a growable string buffer and a hash.
 *
 * Every fallible function returns int (KP_OK = 0 or a negative KP_* code) and,
 * when it fails, fills a caller-owned kp_err.  The first error wins: later
 * kp_err_set() calls on an error that is already set do nothing, so the
 * innermost, most precise message survives.
 *
 *   kp_err e = {0};
 *   if (kp_quantity_parse("1.5Gi", 0, &v, &e) != KP_OK) fprintf(stderr, "%s\n", e.msg);
 */
#ifndef KP_H
#define KP_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>

#define KPLAN_VERSION "0.1.0"

enum {
	KP_OK = 0,
	KP_ERROR = -1,   /* generic failure, message in kp_err */
	KP_NOMEM = -2,   /* allocation failed */
	KP_IO = -3,      /* file or database I/O */
	KP_PARSE = -4,   /* bad input: syntax, type or value */
	KP_RANGE = -5,   /* value out of range (overflow, negative) */
	KP_BUSY = -6,    /* database locked by another writer */
	KP_USAGE = -7,   /* bad command line */
	KP_INTR = -8,    /* interrupted (SIGINT/SIGTERM) */
};

/* Set by the CLI's SIGINT/SIGTERM handler.  Long loops (objects of an
 * import, pods of a plan) check it and stop with KP_INTR; the caller rolls
 * back.  The one process-wide flag, as a signal handler needs. */
extern volatile sig_atomic_t kp_interrupted;

/* Where an error was found; file may be NULL, line/col are 1-based, 0 = unknown. */
typedef struct kp_err {
	int code;
	char file[512];
	unsigned line, col;
	char object[384];     /* "Pod default/web-0", "" when unknown */
	char msg[1024];
} kp_err;

/* Set the error if none is set yet.  Returns code, so callers can write
 * `return kp_err_set(err, KP_PARSE, "...")`.  err may be NULL. */
int kp_err_set(kp_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int kp_err_setv(kp_err *err, int code, const char *fmt, va_list ap);
/* Fill location fields that are still empty (file, line, col, object). */
void kp_err_locate(kp_err *err, const char *file, unsigned line, unsigned col, const char *object);
void kp_err_clear(kp_err *err);
/* "FILE:LINE:COL: OBJECT: msg" with empty parts left out; returns buf. */
const char *kp_err_format(const kp_err *err, char *buf, size_t size);

/* Allocation goes through these so tests can fail the Nth allocation
 * (kp_alloc_fail_after(n): the n-th call from now returns NULL; -1 = never). */
void *kp_malloc(size_t n);
void *kp_calloc(size_t count, size_t size);
void *kp_realloc(void *p, size_t n);
/* KP_GROW(arr, n, cap, first): room for element n of the array arr, of
 * which cap elements are allocated (cap: an integer lvalue of any type).
 * When n >= cap, arr is reallocated to twice cap (first when cap is 0) and cap
 * set.  0, or -1 when out of memory (arr and cap unchanged). */
#define KP_GROW(arr, n, cap, first)                                                                        \
	((size_t)(n) < (size_t)(cap) ? 0                                                                   \
	 : kp_grow_array(&(arr), sizeof *(arr), (size_t)(cap) ? (size_t)(cap) * 2 : (size_t)(first)) ? -1 \
	 : ((cap) = (cap) ? (cap) * 2 : (first), 0))
/* KP_GROW's reallocation: the array pointer at arrp to newcap elements of elem bytes; 0 or -1 */
int kp_grow_array(void *arrp, size_t elem, size_t newcap);
char *kp_strdup(const char *s);
char *kp_strndup(const char *s, size_t n);
void kp_free(void *p);
void kp_alloc_fail_after(long n);

/* Bump arena: many small allocations freed at once.  kp_arena_reset keeps
 * the first block for reuse.  Allocations are 8-byte aligned and zeroed. */
typedef struct kp_arena_block kp_arena_block;
typedef struct kp_arena {
	kp_arena_block *head;
	size_t block_size;
	size_t total;        /* bytes handed out since last reset */
	size_t limit;        /* 0 = none; beyond it allocations fail */
} kp_arena;
void kp_arena_init(kp_arena *a, size_t block_size);
void *kp_arena_alloc(kp_arena *a, size_t n);
char *kp_arena_strndup(kp_arena *a, const char *s, size_t n);
char *kp_arena_strdup(kp_arena *a, const char *s);
char *kp_arena_printf(kp_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kp_arena_reset(kp_arena *a);
/* Move every block of src into dst (src is left empty). */
void kp_arena_adopt(kp_arena *dst, kp_arena *src);
void kp_arena_release(kp_arena *a);

/* Growable NUL-terminated buffer.  On allocation failure `failed` is set,
 * further appends do nothing and kp_sb_ok() returns 0. */
typedef struct kp_sb {
	char *buf;
	size_t len, cap;
	int failed;
} kp_sb;
void kp_sb_init(kp_sb *sb);
void kp_sb_release(kp_sb *sb);
void kp_sb_reset(kp_sb *sb);
void kp_sb_add(kp_sb *sb, const char *s, size_t n);
void kp_sb_adds(kp_sb *sb, const char *s);
void kp_sb_addc(kp_sb *sb, char c);
void kp_sb_printf(kp_sb *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kp_sb_add_json_str(kp_sb *sb, const char *s);   /* "..." with JSON escapes; NULL -> null */
static inline int kp_sb_ok(const kp_sb *sb) { return !sb->failed; }
static inline const char *kp_sb_str(const kp_sb *sb) { return sb->buf ? sb->buf : ""; }

/* 64-bit hash of bytes (FNV-1a folded through a 64-bit finaliser); stable
 * across platforms and runs: it names scheduling classes in the database. */
uint64_t kp_hash64(const void *data, size_t n, uint64_t seed);

/* Parse an RFC 3339 timestamp ("2020-05-29T15:59:24Z", fractions and
 * offsets allowed) to Unix seconds.  Returns KP_OK or KP_PARSE. */
int kp_parse_time(const char *s, int64_t *out);
/* seconds on the monotonic clock (for durations) */
double kp_now(void);
/* Format Unix seconds as "YYYY-MM-DDTHH:MM:SSZ" into buf (>= 21 bytes). */
void kp_format_time(int64_t t, char *buf, size_t size);

/* Sort with a context pointer handed to every comparison (no file-scope
 * comparator state); an empty or NULL array is fine.  The order is glibc's
 * qsort_r's, the same algorithm as qsort: equal elements may come out in any
 * order, so comparators that decide what users see are total orders. */
typedef int (*kp_cmp_fn)(const void *a, const void *b, void *ctx);
void kp_sort(void *base, size_t n, size_t size, kp_cmp_fn cmp, void *ctx);
/* kp_cmp_fn for an array of char *: strcmp order */
int kp_cmp_str(const void *a, const void *b, void *ctx);
/* kp_cmp_fn for an array of int64_t: ascending */
int kp_cmp_i64(const void *a, const void *b, void *ctx);
/* kp_cmp_fn for an array of int32_t: ascending */
int kp_cmp_i32(const void *a, const void *b, void *ctx);
/* The index of key in v[0..n) sorted ascending, or -1 (v may be NULL when n is 0). */
long kp_find_i64(const int64_t *v, size_t n, int64_t key);

#endif
