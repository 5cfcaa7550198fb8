/*
 * markdown.c — the report as GitHub-flavoured Markdown (report.h): a heading
 * per section and a pipe table; cells are escaped so that names and reasons
 * never turn into markup (|, *, `, [, ], <, >, &, \ and word-edge _).
 */
#include "report.h"

#include <ctype.h>
#include <string.h>

static void add_escaped(kp_sb *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		switch (c) {
		case '|': case '*': case '`': case '[': case ']': case '\\': case '#': case '~':
			kp_sb_addc(out, '\\');
			kp_sb_addc(out, (char)c);
			break;
		case '<': kp_sb_adds(out, "&lt;"); break;
		case '>': kp_sb_adds(out, "&gt;"); break;
		case '&': kp_sb_adds(out, "&amp;"); break;
		case '_':
			/* inside a word (config_source) GFM keeps it; at a word edge it could start emphasis */
			if (p > s && isalnum((unsigned char)p[-1]) && isalnum((unsigned char)p[1]))
				kp_sb_addc(out, '_');
			else
				kp_sb_adds(out, "\\_");
			break;
		default:
			kp_sb_addc(out, c < 0x20 || c == 0x7f ? ' ' : (char)c);
		}
	}
}

static void table(const kp_rtable *t, kp_sb *out)
{
	char buf[96];
	if (t->kv) {
		kp_sb_adds(out, "| | |\n|---|---|\n");
	} else {
		kp_sb_addc(out, '|');
		for (int j = 0; j < t->ncols; j++) {
			kp_sb_addc(out, ' ');
			add_escaped(out, kp_report_header(&t->cols[j], buf, sizeof buf));
			kp_sb_adds(out, " |");
		}
		kp_sb_adds(out, "\n|");
		for (int j = 0; j < t->ncols; j++)
			kp_sb_adds(out, kp_rtable_numeric(t, j) ? "---:|" : "---|");
		kp_sb_addc(out, '\n');
	}
	for (size_t i = 0; i < t->nrows; i++) {
		kp_sb_addc(out, '|');
		for (int j = 0; j < t->ncols; j++) {
			kp_sb_addc(out, ' ');
			add_escaped(out, kp_report_human(t, i, j, buf, sizeof buf));
			kp_sb_adds(out, " |");
		}
		kp_sb_addc(out, '\n');
	}
}

int kp_report_markdown(const kp_report *r, kp_sb *out)
{
	char title[160];
	kp_sb_adds(out, "# ");
	add_escaped(out, kp_report_title(r, title, sizeof title));
	kp_sb_addc(out, '\n');
	for (int i = 0; i < r->ntables; i++) {
		const kp_rtable *t = &r->tables[i];
		kp_sb_adds(out, "\n## ");
		add_escaped(out, t->title);
		kp_sb_adds(out, "\n\n");
		if (t->note) {
			add_escaped(out, t->note);
			kp_sb_adds(out, "\n\n");
		}
		if (!t->nrows) {
			kp_sb_adds(out, "(none)\n");
			continue;
		}
		table(t, out);
	}
	return kp_sb_ok(out) ? KP_OK : KP_NOMEM;
}
