/*
 * json.c — the report as one JSON object (report.h, docs/reports.md):
 *
 *   {"kplan_report": 1, "kind": "run", "run": 1,
 *    "summary": {"run": 1, "seed": 1, ...},
 *    "nodes": [{"node": "gen-a-1", "zone": "eu-west-1a", ...}, ...], ...}
 *
 * One key per section, in a fixed order; a key/value section is an object,
 * the others arrays of row objects keyed by column.  Numbers are raw (base
 * units, percentages 0..100), NULL is null.  One row per line, so diffs of
 * two reports read well.
 */
#include "report.h"

static void value(kp_sb *out, const kp_rtable *t, size_t row, int col)
{
	const kp_rcell *c = kp_rtable_cell(t, row, col);
	char buf[64];
	if (c->type == KP_RV_TEXT)
		kp_sb_add_json_str(out, c->s);
	else if (c->type == KP_RV_NULL)
		kp_sb_adds(out, "null");
	else
		kp_sb_adds(out, kp_report_raw(t, row, col, buf, sizeof buf));
}

int kp_report_json(const kp_report *r, kp_sb *out)
{
	kp_sb_printf(out, "{\"kplan_report\": 1,\n\"kind\": \"%s\",\n", r->compare ? "compare" : "run");
	if (r->compare)
		kp_sb_printf(out, "\"run_a\": %lld,\n\"run_b\": %lld", (long long)r->run_a, (long long)r->run_b);
	else
		kp_sb_printf(out, "\"run\": %lld", (long long)r->run_a);
	for (int i = 0; i < r->ntables; i++) {
		const kp_rtable *t = &r->tables[i];
		kp_sb_adds(out, ",\n");
		kp_sb_add_json_str(out, t->id);
		if (t->kv) {
			kp_sb_adds(out, ": {");
			for (size_t k = 0; k < t->nrows; k++) {
				kp_sb_adds(out, k ? ",\n  " : "\n  ");
				const kp_rcell *key = kp_rtable_cell(t, k, 0);
				kp_sb_add_json_str(out, key->type == KP_RV_TEXT ? key->s : "");
				kp_sb_adds(out, ": ");
				value(out, t, k, 1);
			}
			kp_sb_adds(out, t->nrows ? "\n}" : "}");
			continue;
		}
		kp_sb_adds(out, ": [");
		for (size_t k = 0; k < t->nrows; k++) {
			kp_sb_adds(out, k ? ",\n  {" : "\n  {");
			for (int j = 0; j < t->ncols; j++) {
				if (j)
					kp_sb_adds(out, ", ");
				kp_sb_add_json_str(out, t->cols[j].key);
				kp_sb_adds(out, ": ");
				value(out, t, k, j);
			}
			kp_sb_addc(out, '}');
		}
		kp_sb_adds(out, t->nrows ? "\n]" : "]");
	}
	kp_sb_adds(out, "\n}\n");
	return kp_sb_ok(out) ? KP_OK : KP_NOMEM;
}
