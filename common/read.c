/*
 * read.c — one input read into memory, bounded and checked chunk by chunk
 * (see read.h).  Chunks are read straight into the buffer, which never grows
 * past the limit, so an endless input costs at most limit bytes.  Reads are
 * read(2) calls on the stream's descriptor, each waiting in pselect with
 * SIGINT and SIGTERM unblocked only there: a signal that comes while kplan is
 * between two reads still wakes the wait, so a slow pipe is never read on
 * after an interrupt (fread would wait for a whole chunk).
 */
#include "read.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first invalid UTF-8 sequence of s[0..len), or len.  With more (input
 * still to come) a sequence cut by the end is not judged yet: *tail is where
 * it starts (len when none), and checking resumes there. */
static size_t utf8_scan(const unsigned char *s, size_t len, int more, size_t *tail)
{
	size_t i = 0;
	*tail = len;
	while (i < len) {
		uint64_t w;
		if (len - i >= 8 && (memcpy(&w, s + i, 8), !(w & 0x8080808080808080ULL))) {
			i += 8;   /* eight ASCII bytes */
			continue;
		}
		unsigned char c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t n;
		uint32_t cp;
		if ((c & 0xE0) == 0xC0) {
			n = 2;
			cp = c & 0x1F;
		} else if ((c & 0xF0) == 0xE0) {
			n = 3;
			cp = c & 0x0F;
		} else if ((c & 0xF8) == 0xF0) {
			n = 4;
			cp = c & 0x07;
		} else {
			return i;
		}
		if (i + n > len) {
			if (!more)
				return i;
			*tail = i;
			return len;
		}
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += n;
	}
	return len;
}

/* line and column (1-based, columns in bytes) of byte offset off of data */
static void position(const char *data, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = 1;
	size_t bol = 0;
	const char *nl;
	while (bol < off && (nl = memchr(data + bol, '\n', off - bol))) {
		l++;
		bol = (size_t)(nl - data) + 1;
	}
	*line = l;
	*col = (unsigned)(off - bol + 1);
}

const char *kp_fmt_size(size_t n, char *buf, size_t size)
{
	static const char *const unit[] = { "Ti", "Gi", "Mi", "Ki" };
	for (int i = 0; i < 4; i++) {
		size_t u = (size_t)1 << (10 * (4 - i));
		if (u && n >= u && n % u == 0) {
			snprintf(buf, size, "%zu%s (%zu bytes)", n / u, unit[i], n);
			return buf;
		}
	}
	snprintf(buf, size, "%zu byte%s", n, n == 1 ? "" : "s");
	return buf;
}

/* a bad byte at offset off of data: its message, located */
static int bad_byte(const kp_read_opts *o, const char *data, size_t off, kp_err *err)
{
	unsigned l, c;
	position(data, off, &l, &c);
	if (data[off])
		kp_err_set(err, KP_PARSE, "invalid UTF-8 (byte 0x%02x)", (unsigned char)data[off]);
	else
		kp_err_set(err, KP_PARSE, "binary data (a NUL byte)%s%s", o->kind ? ": not " : "", o->kind ? o->kind : "");
	kp_err_locate(err, o->name, l, c, NULL);
	return KP_PARSE;
}

int kp_text_check(const kp_read_opts *o, const char *data, size_t len, kp_err *err)
{
	const char *nul = len ? memchr(data, 0, len) : NULL;
	if (nul)
		return bad_byte(o, data, (size_t)(nul - data), err);
	size_t tail, bad = o->utf8 ? utf8_scan((const unsigned char *)data, len, 0, &tail) : len;
	return bad < len ? bad_byte(o, data, bad, err) : KP_OK;
}

static int too_big(const kp_read_opts *o, size_t limit, kp_err *err)
{
	char lim[64];
	kp_err_set(err, KP_RANGE, "input larger than %s%s%s", kp_fmt_size(limit, lim, sizeof lim), o->hint ? "; " : "",
		   o->hint ? o->hint : "");
	kp_err_locate(err, o->name, 0, 0, NULL);
	return KP_RANGE;
}

static int stopped(const kp_read_opts *o, kp_err *err)
{
	kp_err_set(err, KP_INTR, "interrupted");
	kp_err_locate(err, o->name, 0, 0, NULL);
	return KP_INTR;
}

/* room for n more bytes and the NUL, the capacity doubling up to most + 1 */
static int reserve(kp_sb *sb, size_t n, size_t most)
{
	size_t need = sb->len + n + 1;
	if (need <= sb->cap)
		return KP_OK;
	size_t cap = sb->cap ? sb->cap : KP_READ_CHUNK + 1;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if (cap > most + 1 && most + 1 >= need)
		cap = most + 1;
	char *p = kp_realloc(sb->buf, cap);
	if (!p) {
		sb->failed = 1;
		return KP_NOMEM;
	}
	sb->buf = p;
	sb->cap = cap;
	return KP_OK;
}

/* One read(2) of at most want bytes from fd: waits for data (or the end) with
 * SIGINT and SIGTERM blocked outside pselect, so kp_interrupted cannot be set
 * after the check here and before the wait.  The bytes read, 0 at the end,
 * -1 with errno (EINTR: a signal; the caller checks kp_interrupted). */
static ssize_t read_some(int fd, char *p, size_t want)
{
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &stop, &old) != 0)
		return read(fd, p, want);
	int ready = 1, e = 0;
	if (kp_interrupted) {
		ready = -1;
		e = EINTR;
	} else if (fd < FD_SETSIZE) {
		fd_set rd;
		FD_ZERO(&rd);
		FD_SET(fd, &rd);
		if ((ready = pselect(fd + 1, &rd, NULL, NULL, NULL, &old)) < 0)
			e = errno;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ready < 0) {
		errno = e;
		return -1;
	}
	return read(fd, p, want);
}

int kp_read_stream(FILE *f, const kp_read_opts *o, kp_sb *sb, kp_err *err)
{
	size_t limit = o->limit ? o->limit : KP_READ_SMALL_LIMIT;
	if (limit > SIZE_MAX / 4)
		limit = SIZE_MAX / 4;
	size_t start = sb->len, checked = 0;   /* offsets from start; UTF-8 before checked is valid */
	int fd = fileno(f);
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > limit)
		return too_big(o, limit, err);
	if (sb->failed)
		return kp_err_set(err, KP_NOMEM, "out of memory reading '%s'", o->name);
	for (;;) {
		if (kp_interrupted)
			return stopped(o, err);
		size_t got = sb->len - start, want = KP_READ_CHUNK;
		if (limit - got < want)
			want = limit - got + 1;   /* one byte beyond the limit says it is exceeded */
		if (reserve(sb, want, start + limit + 1) != KP_OK)
			return kp_err_set(err, KP_NOMEM, "out of memory reading '%s' (%zu bytes read)", o->name, got);
		char *p = sb->buf + sb->len;
		ssize_t r = read_some(fd, p, want);
		if (r < 0) {
			int e = errno;
			if (kp_interrupted)
				return stopped(o, err);
			if (e == EINTR || e == EAGAIN)
				continue;   /* another signal, or a descriptor not yet ready: read on */
			return kp_err_set(err, KP_IO, "cannot read '%s': %s", o->name, strerror(e ? e : EIO));
		}
		size_t n = (size_t)r;
		sb->len += n;
		sb->buf[sb->len] = 0;
		const char *data = sb->buf + start;
		const char *nul = n ? memchr(p, 0, n) : NULL;
		if (nul)
			return bad_byte(o, data, (size_t)(nul - data), err);
		if (o->utf8) {
			/* at the end (n == 0) a sequence cut short is judged */
			size_t tail, bad = utf8_scan((const unsigned char *)data + checked, sb->len - start - checked,
						     n > 0, &tail);
			if (bad < sb->len - start - checked)
				return bad_byte(o, data, checked + bad, err);
			checked += tail;
		}
		if (sb->len - start > limit)
			return too_big(o, limit, err);
		if (n == 0)
			break;   /* the end */
	}
	return KP_OK;
}
