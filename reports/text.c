/*
 * text.c — the report as plain text for a terminal (report.h): one block per
 * section, a title underlined with dashes, columns padded to their widest
 * cell, numbers right-aligned and in units people read (7910m, 29.9Gi, 57.1%).
 */
#include "report.h"

#include <string.h>

/* characters, not bytes: UTF-8 continuation bytes do not count */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

/* tabs, newlines and other control characters would break the columns */
static void add_clean(kp_sb *out, const char *s)
{
	for (; *s; s++)
		kp_sb_addc(out, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

static void pad(kp_sb *out, size_t n)
{
	while (n--)
		kp_sb_addc(out, ' ');
}

static void underline(kp_sb *out, const char *title, char c)
{
	kp_sb_adds(out, title);
	kp_sb_addc(out, '\n');
	for (size_t i = width(title); i; i--)
		kp_sb_addc(out, c);
	kp_sb_addc(out, '\n');
}

static int table(const kp_rtable *t, kp_sb *out)
{
	size_t nc = (size_t)t->ncols;
	char buf[96], hb[96];
	size_t *w = kp_calloc(nc, sizeof *w);
	int *num = kp_calloc(nc, sizeof *num);
	if (!w || !num) {
		kp_free(w);
		kp_free(num);
		return KP_NOMEM;
	}
	for (size_t j = 0; j < nc; j++) {
		w[j] = t->kv ? 0 : width(kp_report_header(&t->cols[j], hb, sizeof hb));
		num[j] = !t->kv && kp_rtable_numeric(t, (int)j);
	}
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t j = 0; j < nc; j++) {
			size_t x = width(kp_report_human(t, i, (int)j, buf, sizeof buf));
			if (x > w[j])
				w[j] = x;
		}
	if (!t->kv) {
		for (size_t j = 0; j < nc; j++) {
			const char *h = kp_report_header(&t->cols[j], hb, sizeof hb);
			if (j)
				kp_sb_adds(out, "  ");
			if (num[j])
				pad(out, w[j] - width(h));
			kp_sb_adds(out, h);
			if (!num[j] && j + 1 < nc)
				pad(out, w[j] - width(h));
		}
		kp_sb_addc(out, '\n');
		for (size_t j = 0; j < nc; j++) {
			if (j)
				kp_sb_adds(out, "  ");
			for (size_t k = 0; k < w[j]; k++)
				kp_sb_addc(out, '-');
		}
		kp_sb_addc(out, '\n');
	}
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t j = 0; j < nc; j++) {
			const char *v = kp_report_human(t, i, (int)j, buf, sizeof buf);
			size_t x = width(v);
			if (j)
				kp_sb_adds(out, "  ");
			if (num[j])
				pad(out, w[j] - x);
			add_clean(out, v);
			if (!num[j] && j + 1 < nc)
				pad(out, w[j] - x);
		}
		kp_sb_addc(out, '\n');
	}
	kp_free(w);
	kp_free(num);
	return KP_OK;
}

int kp_report_text(const kp_report *r, kp_sb *out)
{
	char title[160];
	underline(out, kp_report_title(r, title, sizeof title), '=');
	for (int i = 0; i < r->ntables; i++) {
		const kp_rtable *t = &r->tables[i];
		kp_sb_addc(out, '\n');
		underline(out, t->title, '-');
		if (t->note)
			kp_sb_printf(out, "(%s)\n", t->note);
		if (!t->nrows) {
			kp_sb_adds(out, "(none)\n");
			continue;
		}
		if (table(t, out) != KP_OK)
			return KP_NOMEM;
	}
	return kp_sb_ok(out) ? KP_OK : KP_NOMEM;
}
