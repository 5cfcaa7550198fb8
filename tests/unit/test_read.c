/*
 * test_read.c — kp_read_stream (common/read.c): UTF-8 sequences cut by a
 * chunk boundary, the position of a NUL or a bad byte in a later chunk, the
 * size limit at exactly limit and limit + 1 bytes (a regular file and a
 * pipe), kp_interrupted, a read cut short by a signal (EINTR) with and
 * without kp_interrupted, SIGTERM between the reads of a slow pipe (the read
 * is not cut short: kplan must still stop at once), and kp_text_check /
 * kp_fmt_size.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/read.h"
#include "tap.h"

#define CHUNK KP_READ_CHUNK

static const kp_read_opts text = { .name = "t", .limit = 1 << 24, .kind = "YAML", .utf8 = 1 };

/* data in a temporary regular file, rewound */
static FILE *file_of(const char *data, size_t len)
{
	FILE *f = tmpfile();
	if (!f || fwrite(data, 1, len, f) != len || fseek(f, 0, SEEK_SET) != 0)
		abort();
	return f;
}

/* data from a child through a pipe, after delay_ms (0: at once) */
static FILE *pipe_of(const char *data, size_t len, int delay_ms, pid_t *child)
{
	int fd[2];
	if (pipe(fd) != 0)
		abort();
	*child = fork();
	if (*child == 0) {
		close(fd[0]);
		if (delay_ms)
			usleep((useconds_t)delay_ms * 1000);
		size_t off = 0;
		while (off < len) {
			ssize_t n = write(fd[1], data + off, len - off);
			if (n <= 0)
				_exit(1);
			off += (size_t)n;
		}
		_exit(0);
	}
	close(fd[1]);
	return fdopen(fd[0], "rb");
}

static void reap(FILE *f, pid_t child)
{
	fclose(f);
	kill(child, SIGKILL);   /* done writing, or still waiting to */
	waitpid(child, NULL, 0);
}

/* read data (from a regular file) with o; the return code, err and the length read */
static int read_all(const kp_read_opts *o, const char *data, size_t len, kp_err *err, size_t *got)
{
	FILE *f = file_of(data, len);
	kp_sb sb;
	kp_sb_init(&sb);
	kp_err_clear(err);
	int rc = kp_read_stream(f, o, &sb, err);
	*got = sb.len;
	if (rc == KP_OK && (sb.len != len || memcmp(sb.buf, data, len) != 0 || sb.buf[len] != 0))
		rc = KP_ERROR;   /* not what was written */
	kp_sb_release(&sb);
	fclose(f);
	return rc;
}

static void split_sequences(char *buf)
{
	static const char *const seq[] = { "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80" };
	kp_err err;
	size_t got;
	for (int s = 0; s < 3; s++) {
		size_t n = strlen(seq[s]);
		for (size_t cut = 1; cut < n; cut++) {   /* cut bytes of the sequence in the first chunk */
			size_t at = CHUNK - cut;
			memset(buf, 'a', 2 * CHUNK);
			memcpy(buf + at, seq[s], n);
			TAP_EQ_I64(read_all(&text, buf, 2 * CHUNK, &err, &got), KP_OK,
				   "a %zu-byte sequence with %zu byte(s) in the first chunk is valid", n, cut);
			buf[at + n - 1] = 'a';   /* its last byte gone */
			TAP_EQ_I64(read_all(&text, buf, 2 * CHUNK, &err, &got), KP_PARSE,
				   "the same sequence without its last byte is invalid");
			TAP_OK(err.line == 1 && err.col == at + 1 && strstr(err.msg, "invalid UTF-8"),
			       "... at 1:%zu, where it starts (got %u:%u %s)", at + 1, err.line, err.col, err.msg);
		}
	}
	/* cut by the end of the input */
	memset(buf, 'a', CHUNK);
	memcpy(buf + CHUNK - 1, "\xE2\x82", 2);
	TAP_EQ_I64(read_all(&text, buf, CHUNK + 1, &err, &got), KP_PARSE, "a sequence cut by the end is invalid");
	TAP_EQ_I64(err.col, CHUNK, "... at the column where it starts");
	kp_read_opts raw = text;
	raw.utf8 = 0;
	TAP_EQ_I64(read_all(&raw, buf, CHUNK + 1, &err, &got), KP_OK, "... and read as it is without utf8");
}

static void bad_bytes(char *buf)
{
	kp_err err;
	size_t got;
	/* lines of 9 bytes and a newline; a NUL in the fourth chunk */
	for (size_t i = 0; i < 5 * CHUNK; i++)
		buf[i] = i % 10 == 9 ? '\n' : 'x';
	size_t at = 3 * CHUNK + 12345;
	buf[at] = 0;
	TAP_EQ_I64(read_all(&text, buf, 5 * CHUNK, &err, &got), KP_PARSE, "a NUL in the fourth chunk");
	TAP_OK(err.line == at / 10 + 1 && err.col == at % 10 + 1, "... at its line and column (%u:%u)", err.line,
	       err.col);
	TAP_EQ_STR(err.msg, "binary data (a NUL byte): not YAML", "... the message names the kind");
	TAP_EQ_STR(err.file, "t", "... and the file");
	TAP_EQ_I64(got, 4 * CHUNK, "... reading stopped at that chunk");
	/* invalid UTF-8 before a NUL of the same chunk: the NUL is reported */
	buf[at - 5] = (char)0xFF;
	TAP_EQ_I64(read_all(&text, buf, 5 * CHUNK, &err, &got), KP_PARSE, "0xFF and a NUL in one chunk");
	TAP_OK(strstr(err.msg, "NUL") != NULL, "... the NUL is reported (%s)", err.msg);
	buf[at] = 'x';
	TAP_EQ_I64(read_all(&text, buf, 5 * CHUNK, &err, &got), KP_PARSE, "0xFF alone");
	TAP_EQ_STR(err.msg, "invalid UTF-8 (byte 0xff)", "... is invalid UTF-8");
	TAP_EQ_I64(err.col, (at - 5) % 10 + 1, "... at its column");
	kp_read_opts noname = text;
	noname.kind = NULL;
	buf[at - 5] = 0;
	TAP_EQ_I64(read_all(&noname, buf, 5 * CHUNK, &err, &got), KP_PARSE, "a NUL without kind");
	TAP_EQ_STR(err.msg, "binary data (a NUL byte)", "... the message without \"not\"");
	TAP_EQ_I64(kp_text_check(&text, buf, 5 * CHUNK, &err), KP_PARSE, "kp_text_check: the same NUL");
	TAP_OK(err.line == (at - 5) / 10 + 1 && err.col == (at - 5) % 10 + 1, "... at the same place");
	TAP_EQ_I64(kp_text_check(&text, "a: \xC3\xA9\n", 6, &err), KP_OK, "kp_text_check: valid text");
	TAP_EQ_I64(kp_text_check(&text, NULL, 0, &err), KP_OK, "kp_text_check: nothing");
}

static void limits(char *buf)
{
	kp_err err;
	size_t got;
	kp_read_opts o = { .name = "big.yaml", .limit = 3 * CHUNK + 7, .hint = "raise it with --max SIZE" };
	memset(buf, 'a', 4 * CHUNK);
	TAP_EQ_I64(read_all(&o, buf, o.limit, &err, &got), KP_OK, "a regular file of exactly the limit is read");
	TAP_EQ_I64(read_all(&o, buf, o.limit + 1, &err, &got), KP_RANGE, "one byte more is refused");
	TAP_EQ_I64(got, 0, "... before reading (its size says so)");
	TAP_EQ_STR(err.msg, "input larger than 196615 bytes; raise it with --max SIZE", "... the message names the limit");
	TAP_EQ_STR(err.file, "big.yaml", "... and the file");
	for (int extra = 0; extra < 2; extra++) {
		pid_t child;
		FILE *f = pipe_of(buf, o.limit + (size_t)extra, 0, &child);
		kp_sb sb;
		kp_sb_init(&sb);
		kp_err_clear(&err);
		int rc = kp_read_stream(f, &o, &sb, &err);
		TAP_EQ_I64(rc, extra ? KP_RANGE : KP_OK, "a pipe of the limit%s", extra ? " and one byte" : "");
		TAP_OK(sb.cap <= o.limit + 2, "... the buffer grew to %zu bytes, not beyond the limit", sb.cap);
		kp_sb_release(&sb);
		reap(f, child);
	}
	o.limit = (size_t)4 << 30;
	o.hint = NULL;
	FILE *f = file_of("x", 1);
	kp_sb sb;
	kp_sb_init(&sb);
	TAP_EQ_I64(kp_read_stream(f, &o, &sb, &err), KP_OK, "a limit of 4 GiB reads a small file");
	TAP_EQ_I64(sb.len, 1, "... all of it");
	kp_sb_release(&sb);
	fclose(f);
	char s[64];
	TAP_EQ_STR(kp_fmt_size((size_t)4 << 30, s, sizeof s), "4Gi (4294967296 bytes)", "kp_fmt_size 4Gi");
	TAP_EQ_STR(kp_fmt_size((size_t)64 << 20, s, sizeof s), "64Mi (67108864 bytes)", "kp_fmt_size 64Mi");
	TAP_EQ_STR(kp_fmt_size(3072, s, sizeof s), "3Ki (3072 bytes)", "kp_fmt_size 3Ki");
	TAP_EQ_STR(kp_fmt_size(1000, s, sizeof s), "1000 bytes", "kp_fmt_size 1000");
	TAP_EQ_STR(kp_fmt_size(1, s, sizeof s), "1 byte", "kp_fmt_size 1");
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}
static void on_alarm_interrupt(int sig)
{
	(void)sig;
	alarms++;
	kp_interrupted = 1;
}

/* a read that blocks on a pipe the child writes after 1 s, and SIGALRM
 * (no SA_RESTART) after 50 ms */
static int blocked_read(void (*handler)(int), kp_sb *sb, kp_err *err)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	pid_t child;
	FILE *f = pipe_of("a: b\n", 5, 1000, &child);
	alarms = 0;
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	kp_read_opts o = { .name = "<stdin>", .utf8 = 1 };
	kp_sb_init(sb);
	kp_err_clear(err);
	int rc = kp_read_stream(f, &o, sb, err);
	reap(f, child);
	signal(SIGALRM, SIG_DFL);
	return rc;
}

static void on_term(int sig)
{
	(void)sig;
	kp_interrupted = 1;
}

/* A pipe that gets one byte every 10 ms for 3 s, and SIGTERM from the writer
 * after its 5th byte, with SA_RESTART: a signal that lands while the reader
 * is not in a wait does not cut a read short, so only a reader that checks
 * kp_interrupted between its reads stops before the writer ends (a 64 KiB
 * fread() would read all 300 bytes).  Returns the read's result; *bytes what
 * it had read. */
static int trickle_read(kp_sb *sb, kp_err *err)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	int fd[2];
	if (pipe(fd) != 0)
		abort();
	pid_t parent = getpid(), child = fork();
	if (child == 0) {
		close(fd[0]);
		for (int i = 0; i < 300; i++) {
			if (write(fd[1], "a", 1) != 1)
				_exit(1);
			if (i == 4)
				kill(parent, SIGTERM);
			usleep(10000);
		}
		_exit(0);
	}
	close(fd[1]);
	FILE *f = fdopen(fd[0], "rb");
	kp_read_opts o = { .name = "<stdin>", .utf8 = 1 };
	kp_sb_init(sb);
	kp_err_clear(err);
	int rc = kp_read_stream(f, &o, sb, err);
	reap(f, child);
	signal(SIGTERM, SIG_DFL);
	kp_interrupted = 0;
	return rc;
}

static void signals(void)
{
	kp_sb sb;
	kp_err err;
	TAP_EQ_I64(blocked_read(on_alarm, &sb, &err), KP_OK, "a read cut short by another signal (EINTR) goes on");
	TAP_OK(alarms == 1 && sb.len == 5, "... the signal came (%d) and all 5 bytes were read (%zu)", (int)alarms, sb.len);
	kp_sb_release(&sb);
	TAP_EQ_I64(blocked_read(on_alarm_interrupt, &sb, &err), KP_INTR, "a read cut short by SIGINT/SIGTERM stops");
	TAP_EQ_STR(err.msg, "interrupted", "... says interrupted");
	TAP_EQ_STR(err.file, "<stdin>", "... and names the input");
	kp_sb_release(&sb);
	FILE *f = file_of("a: b\n", 5);
	kp_sb_init(&sb);
	kp_err_clear(&err);
	TAP_EQ_I64(kp_read_stream(f, &text, &sb, &err), KP_INTR, "kp_interrupted already set: nothing is read");
	TAP_EQ_I64(sb.len, 0, "... not a byte");
	kp_sb_release(&sb);
	fclose(f);
	kp_interrupted = 0;
	TAP_EQ_I64(trickle_read(&sb, &err), KP_INTR, "SIGTERM between the reads of a slow pipe stops the read");
	TAP_OK(sb.len >= 5 && sb.len < 100, "... at once: %zu of the 300 bytes read (the signal came after 5)", sb.len);
	kp_sb_release(&sb);
}

int main(void)
{
	char *buf = malloc(5 * CHUNK);
	if (!buf)
		return 1;
	split_sequences(buf);
	bad_bytes(buf);
	limits(buf);
	signals();
	free(buf);
	return tap_done();
}
