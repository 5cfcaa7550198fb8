/*
 * read.h — one input (a file, a pipe, stdin) read into memory, bounded: each
 * chunk is checked as it arrives, so an endless input (/dev/zero, `yes |`)
 * ends at its first NUL byte, at its size limit, or at SIGINT/SIGTERM.
 *
 *   kp_read_opts ro = { .name = "<stdin>", .limit = KP_READ_IMPORT_LIMIT, .kind = "YAML, JSON or CSV",
 *                       .hint = "raise the limit with --max-input-size SIZE", .utf8 = 1 };
 *   kp_sb sb;
 *   kp_sb_init(&sb);
 *   if (kp_read_stream(stdin, &ro, &sb, &err) != KP_OK) ...   // err says where and why
 */
#ifndef KP_READ_H
#define KP_READ_H

#include <stdio.h>
#include "kp.h"

#define KP_READ_CHUNK ((size_t)1 << 16)          /* bytes read and checked at a time */
#define KP_READ_IMPORT_LIMIT ((size_t)4 << 30)   /* one import file or stream (--max-input-size) */
#define KP_READ_SMALL_LIMIT ((size_t)64 << 20)   /* a configuration, a policy, SQL */

typedef struct kp_read_opts {
	const char *name;   /* in messages: the path, "<stdin>" */
	size_t limit;       /* the most bytes accepted; 0: KP_READ_SMALL_LIMIT */
	const char *hint;   /* after the size message ("; HINT"): how to raise the limit; NULL: none */
	const char *kind;   /* the NUL message ends ": not KIND"; NULL: it does not */
	int utf8;           /* refuse invalid UTF-8 too */
} kp_read_opts;

/* Append everything f holds to sb (NUL-terminated), chunk by chunk.
 * Returns KP_OK, or fills err and returns
 *   KP_PARSE  a NUL byte ("binary data (a NUL byte)") or, with utf8, invalid
 *             UTF-8, at NAME:LINE:COL (1-based, columns in bytes); reading
 *             stops at the chunk that holds it.  A NUL in the same chunk as
 *             invalid UTF-8 is reported first.
 *   KP_RANGE  more than limit bytes (a regular file: before reading)
 *   KP_INTR   kp_interrupted was set (checked before each read(2); a wait
 *             for data is woken by SIGINT and SIGTERM even when they come
 *             between two reads, so a slow pipe stops at once)
 *   KP_IO     a read error (the message says which)
 *   KP_NOMEM  out of memory
 * sb holds what was read so far either way; the caller releases it. */
int kp_read_stream(FILE *f, const kp_read_opts *o, kp_sb *sb, kp_err *err);

/* kp_read_stream's checks on a buffer already in memory: KP_OK, or KP_PARSE
 * for the first NUL byte or else (with o->utf8) the first invalid UTF-8
 * sequence (overlong forms, surrogates, beyond U+10FFFF, cut by the end). */
int kp_text_check(const kp_read_opts *o, const char *data, size_t len, kp_err *err);

/* "4Gi (4294967296 bytes)" when n is a multiple of Ki, Mi, Gi or Ti, else
 * "1000 bytes"; returns buf. */
const char *kp_fmt_size(size_t n, char *buf, size_t size);

#endif
