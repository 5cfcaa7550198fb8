/*
 * progress.c — the one progress line of import, plan and report: on stderr,
 * only when it is a terminal and --quiet was not given, redrawn in place with
 * \r at most 10 times a second, cleared (\r ESC[K) before the final output.
 *
 *   kp_progress p;
 *   kp_progress_init(&p, quiet);
 *   for (...) kp_progress_count(&p, "planned", done, total, "pods");
 *   kp_progress_clear(&p);
 *   // kplan: planned 52,000 of 150,000 pods (48,000 pods/s, ETA 2 s)
 *
 * The rate is measured from the first sample, so the time spent before the
 * work began (opening, loading) does not slow it down.
 */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#define KP_PROGRESS_INTERVAL 0.1    /* seconds between two lines */
#define KP_PROGRESS_WARMUP 0.05     /* seconds of samples before the first line */

void kp_progress_init(kp_progress *p, int quiet)
{
	memset(p, 0, sizeof *p);
	p->on = kp_cli_progress_enabled(quiet);
}

void kp_progress_restart(kp_progress *p)
{
	p->started = 0;
}

int kp_progress_due(kp_progress *p, double done)
{
	if (!p->on)
		return 0;
	double now = kp_cli_now();
	if (!p->started) {
		p->started = 1;
		p->t0 = now;
		p->d0 = done;
		return 0;
	}
	if (now - p->t0 < KP_PROGRESS_WARMUP || now - p->last < KP_PROGRESS_INTERVAL)
		return 0;
	p->last = now;
	return 1;
}

char *kp_fmt_count(double v, char *buf, size_t size)
{
	char digits[32];
	if (!(v >= 0) || v > 9e18)
		v = 0;
	snprintf(digits, sizeof digits, "%.0f", v);
	size_t n = strlen(digits), o = 0;
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	if (size)
		buf[o < size ? o : size - 1] = 0;
	return buf;
}

char *kp_fmt_eta(double s, char *buf, size_t size)
{
	if (!(s >= 0) || s > 359999) {   /* NaN, negative or 100 hours and more */
		snprintf(buf, size, "?");
		return buf;
	}
	s = ceil(s);
	if (s < 60)
		snprintf(buf, size, "%.0f s", s);
	else if (s < 3600)
		snprintf(buf, size, "%d min %02d s", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, size, "%d h %02d min", (int)s / 3600, (int)s % 3600 / 60);
	return buf;
}

/* an amount: "52,000" or, for "MB", bytes as "12.3" megabytes */
static char *amount(double v, const char *unit, char *buf, size_t size)
{
	if (!strcmp(unit, "MB")) {
		snprintf(buf, size, "%.1f", v / 1e6);
		return buf;
	}
	return kp_fmt_count(v, buf, size);
}

const char *kp_progress_rate(const kp_progress *p, double done, double total, const char *unit, char *buf,
			     size_t size)
{
	double dt = kp_cli_now() - p->t0;
	double rate = dt > 0 ? (done - p->d0) / dt : 0;
	char r[48], eta[32];
	if (rate <= 0) {
		snprintf(buf, size, "(0 %s/s)", unit);
		return buf;
	}
	amount(rate, unit, r, sizeof r);
	if (total > 0 && done <= total)
		snprintf(buf, size, "(%s %s/s, ETA %s)", r, unit, kp_fmt_eta((total - done) / rate, eta, sizeof eta));
	else
		snprintf(buf, size, "(%s %s/s)", r, unit);
	return buf;
}

void kp_progress_show(kp_progress *p, const char *fmt, ...)
{
	if (!p->on)
		return;
	va_list ap;
	fputs("\rkplan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	fflush(stderr);
	p->drawn = 1;
}

void kp_progress_count(kp_progress *p, const char *verb, double done, double total, const char *unit)
{
	if (!kp_progress_due(p, done))
		return;
	char d[32], t[32], rate[96];
	kp_progress_rate(p, done, total, unit, rate, sizeof rate);
	if (total > 0)
		kp_progress_show(p, "%s %s of %s %s %s", verb, amount(done, unit, d, sizeof d),
				 amount(total, unit, t, sizeof t), unit, rate);
	else
		kp_progress_show(p, "%s %s %s %s", verb, amount(done, unit, d, sizeof d), unit, rate);
}

void kp_progress_clear(kp_progress *p)
{
	if (!p->drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->drawn = 0;
}
