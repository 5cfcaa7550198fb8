/*
 * csv.c — the report as one CSV stream (report.h, docs/reports.md).
 *
 * Every section is a block of rows whose first field names the section; the
 * block starts with its header row, whose first field is "section":
 *
 *   section,key,value
 *   summary,run,1
 *   section,node,resource,allocatable,...
 *   node_usage,gen-a-1,cpu,7910,...
 *
 * so `grep '^node_usage,'` gives one table.  Values are raw: base units
 * (millicores, bytes), percentages as numbers, empty for NULL.  Fields are
 * quoted (RFC 4180) when they hold a comma, a quote or a line break.
 */
#include "report.h"

#include <string.h>

void kp_report_csv_field(kp_sb *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		kp_sb_adds(out, s);
		return;
	}
	kp_sb_addc(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			kp_sb_addc(out, '"');
		kp_sb_addc(out, *s);
	}
	kp_sb_addc(out, '"');
}

int kp_report_csv(const kp_report *r, kp_sb *out)
{
	char buf[64];
	for (int i = 0; i < r->ntables; i++) {
		const kp_rtable *t = &r->tables[i];
		kp_sb_adds(out, "section");
		for (int j = 0; j < t->ncols; j++) {
			kp_sb_addc(out, ',');
			kp_report_csv_field(out, t->cols[j].key);
		}
		kp_sb_addc(out, '\n');
		for (size_t k = 0; k < t->nrows; k++) {
			kp_report_csv_field(out, t->id);
			for (int j = 0; j < t->ncols; j++) {
				kp_sb_addc(out, ',');
				kp_report_csv_field(out, kp_report_raw(t, k, j, buf, sizeof buf));
			}
			kp_sb_addc(out, '\n');
		}
	}
	return kp_sb_ok(out) ? KP_OK : KP_NOMEM;
}
