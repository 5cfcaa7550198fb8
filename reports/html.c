/*
 * html.c — the report as ONE self-contained HTML page (report.h): inline CSS,
 * inline SVG charts, a small inline script; no network (a Content-Security-
 * Policy forbids any), no external fonts or images.  Responsive: tables and
 * charts scroll sideways on a phone.
 *
 * Charts (each an <svg> with a stable id; tests count their elements):
 *   chart-util     utilisation per node after the plan, nodes sorted by load,
 *                  one <rect class="bar"> per node x resource the node has,
 *                  one colour per resource; <g class="node" data-node=NAME>
 *   chart-heat     node x resource heat map, one <rect class="cell"> per node x
 *                  resource the node has (<rect class="na"> where it has none)
 *   chart-dist     per resource, a histogram of the nodes' utilisation before
 *                  and after: 10 bins, <rect class="bar before|after" data-n=N>
 *   chart-reasons  unschedulable reasons, one <rect class="bar"> per reason
 * The charts show resources some pod requests, and at most NODE_CAP nodes
 * (the most loaded; a note says so); tables show at most TABLE_CAP rows.
 *
 * Every string from the database is HTML-escaped; none is placed in the
 * script.  The script sorts tables by a click on a header, and on load marks
 * <body data-ok="1"> (data-ok="0" and data-errors when any script error
 * happened) with the element counts of each chart (data-util-bars, ...); with
 * #selftest in the URL it also sorts every table both ways and checks the
 * order (data-sort-ok).
 */
#include "report.h"

#include <string.h>
#include <math.h>

#define NODE_CAP 100
#define TABLE_CAP 500
#define RES_CAP 10
#define REASON_CAP 20

static const char *const palette[RES_CAP] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
	"#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#7f7f7f",
};

static void esc(kp_sb *out, const char *s)
{
	const char *run = s;
	for (; *s; s++) {
		const char *rep;
		switch (*s) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: continue;
		}
		kp_sb_add(out, run, (size_t)(s - run));
		kp_sb_adds(out, rep);
		run = s + 1;
	}
	kp_sb_add(out, run, (size_t)(s - run));
}

/* at most max characters (UTF-8 aware), then an ellipsis */
static void esc_trunc(kp_sb *out, const char *s, size_t max)
{
	size_t chars = 0, i = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (chars == max)
				break;
			chars++;
		}
	}
	if (!s[i]) {
		esc(out, s);
		return;
	}
	char *cut = kp_strndup(s, i);
	if (!cut) {
		out->failed = 1;
		return;
	}
	esc(out, cut);
	kp_free(cut);
	kp_sb_adds(out, "\xe2\x80\xa6");
}

static const char css[] =
	":root{--fg:#1d2330;--muted:#5b6475;--line:#d9dee7;--bg:#fff;--card:#f3f5f9;--link:#2a5db0}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;color:var(--fg);"
	"background:var(--bg)}\n"
	"header,nav,main,footer{max-width:1120px;margin:0 auto;padding:0 16px}\n"
	"h1{font-size:1.5rem;margin:20px 0 4px}\n"
	"h2{font-size:1.2rem;margin:30px 0 6px;padding-bottom:4px;border-bottom:1px solid var(--line)}\n"
	"h3{font-size:1rem;margin:16px 0 4px}\n"
	".sub,.note{color:var(--muted);margin:4px 0 8px}\n"
	"nav{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:.9rem;padding-top:6px}\n"
	"a{color:var(--link);text-decoration:none}\n"
	".cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(118px,1fr));gap:10px;margin:14px 0}\n"
	".card{background:var(--card);border-radius:8px;padding:10px 12px}\n"
	".card b{display:block;font-size:1.45rem;font-variant-numeric:tabular-nums}\n"
	".card span{color:var(--muted);font-size:.85rem}\n"
	".scroll,.chart{overflow-x:auto;-webkit-overflow-scrolling:touch}\n"
	"table{border-collapse:collapse;font-size:.88rem}\n"
	"th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;white-space:nowrap}\n"
	"td.long{white-space:normal;min-width:16em}\n"
	"details{margin:8px 0}summary{cursor:pointer;color:var(--link)}\n"
	"th{background:var(--card);white-space:nowrap}\n"
	"table.sortable th{cursor:pointer;user-select:none}\n"
	"th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
	"th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".chart svg{display:block;width:100%;min-width:520px;height:auto}\n"
	"svg text{font-family:system-ui,sans-serif;font-size:11px;fill:#1d2330}\n"
	"svg .grid{stroke:#e1e5ec;stroke-width:1}\n"
	"svg .tick{stroke:#1d2330;stroke-width:1.5}\n"
	"svg .na{fill:#f1f1f1}\n"
	"svg .over{stroke:#b00020;stroke-width:1}\n"
	"figure{margin:18px 0}\n"
	"figcaption{font-weight:600;margin-bottom:4px}\n"
	"footer{color:var(--muted);font-size:.85rem;padding:30px 16px}\n"
	"@media (max-width:600px){body{font-size:14px}h1{font-size:1.25rem}th,td{padding:3px 5px}"
	".card b{font-size:1.2rem}}\n";

/* window.onerror first, so that an error anywhere later is recorded */
static const char head_script[] =
	"window.kpErrors=[];window.onerror=function(m,s,l){window.kpErrors.push(String(m)+' (line '+l+')');"
	"var b=document.body;if(b){b.setAttribute('data-ok','0');b.setAttribute('data-errors',window.kpErrors.join(' | '));}};";

static const char main_script[] =
	"(function () {\n"
	"'use strict';\n"
	"var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };\n"
	"function key(td, num) {\n"
	"  if (!num) return td.textContent;\n"
	"  var v = td.getAttribute('data-v');\n"
	"  return v === null || v === '' ? -Infinity : parseFloat(v);\n"
	"}\n"
	"function sortBy(table, col, dir) {\n"
	"  var th = table.tHead.rows[0].cells[col], num = th.getAttribute('data-type') === 'num';\n"
	"  var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
	"  rows.sort(function (a, b) {\n"
	"    var x = col < 0 ? 0 : key(a.cells[col], num), y = col < 0 ? 0 : key(b.cells[col], num);\n"
	"    var c = num ? (x < y ? -1 : x > y ? 1 : 0) : String(x).localeCompare(String(y));\n"
	"    return dir * c || (+a.getAttribute('data-i') - +b.getAttribute('data-i'));\n"
	"  });\n"
	"  each(rows, function (r) { body.appendChild(r); });\n"
	"  each(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });\n"
	"  th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');\n"
	"}\n"
	"function ordered(table, col, dir) {\n"
	"  var num = table.tHead.rows[0].cells[col].getAttribute('data-type') === 'num', rows = table.tBodies[0].rows;\n"
	"  for (var i = 1; i < rows.length; i++) {\n"
	"    var x = key(rows[i - 1].cells[col], num), y = key(rows[i].cells[col], num);\n"
	"    var c = num ? (x < y ? -1 : x > y ? 1 : 0) : String(x).localeCompare(String(y));\n"
	"    if (dir * c > 0) return false;\n"
	"  }\n"
	"  return true;\n"
	"}\n"
	"var tables = document.querySelectorAll('table.sortable');\n"
	"each(tables, function (t) {\n"
	"  each(t.tHead.rows[0].cells, function (th, i) {\n"
	"    th.tabIndex = 0;\n"
	"    var go = function () { sortBy(t, i, th.getAttribute('aria-sort') === 'ascending' ? -1 : 1); };\n"
	"    th.addEventListener('click', go);\n"
	"    th.addEventListener('keydown', function (e) {\n"
	"      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); }\n"
	"    });\n"
	"  });\n"
	"});\n"
	"var body = document.body;\n"
	"function count(id, sel) { var s = document.getElementById(id); return s ? s.querySelectorAll(sel).length : -1; }\n"
	"body.setAttribute('data-util-bars', count('chart-util', 'rect.bar'));\n"
	"body.setAttribute('data-heat-cells', count('chart-heat', 'rect.cell'));\n"
	"body.setAttribute('data-dist-bars', count('chart-dist', 'rect.bar'));\n"
	"body.setAttribute('data-reason-bars', count('chart-reasons', 'rect.bar'));\n"
	"body.setAttribute('data-tables', tables.length);\n"
	"if (location.hash === '#selftest') {\n"
	"  var ok = true;\n"
	"  each(tables, function (t) {\n"
	"    var n = t.tHead.rows[0].cells.length;\n"
	"    for (var c = 0; c < n; c++) {\n"
	"      sortBy(t, c, 1); if (!ordered(t, c, 1)) ok = false;\n"
	"      sortBy(t, c, -1); if (!ordered(t, c, -1)) ok = false;\n"
	"    }\n"
	"    var rows = Array.prototype.slice.call(t.tBodies[0].rows);\n"
	"    rows.sort(function (a, b) { return +a.getAttribute('data-i') - +b.getAttribute('data-i'); });\n"
	"    each(rows, function (r) { t.tBodies[0].appendChild(r); });\n"
	"  });\n"
	"  body.setAttribute('data-sort-ok', ok ? '1' : '0');\n"
	"}\n"
	"if (!window.kpErrors.length) body.setAttribute('data-ok', '1');\n"
	"})();\n";

/* ---- the data the charts need ---- */

typedef struct chart_data {
	const kp_rtable *res, *nodes, *usage, *reasons;
	int nres;
	const char *res_name[RES_CAP];
	size_t *ustart, *ucount;     /* per nodes row: its rows in usage */
	size_t *order;               /* nodes rows by load after, most loaded first */
	size_t nshown;
} chart_data;

static const char *text_cell(const kp_rtable *t, size_t row, int col)
{
	const kp_rcell *c = col >= 0 ? kp_rtable_cell(t, row, col) : NULL;
	return c && c->type == KP_RV_TEXT ? c->s : "";
}

/* a node in chart order: load after the plan, most loaded first, then by name */
typedef struct node_key {
	int null;
	double load;
	const char *name;
	size_t row;
} node_key;

static int cmp_load(const void *a, const void *b)
{
	const node_key *x = a, *y = b;
	if (x->null != y->null)
		return x->null - y->null;
	if (x->load != y->load)
		return x->load > y->load ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void chart_data_release(chart_data *d)
{
	kp_free(d->ustart);
	kp_free(d->ucount);
	kp_free(d->order);
}

static int chart_data_init(const kp_report *r, chart_data *d)
{
	memset(d, 0, sizeof *d);
	d->res = kp_report_table(r, "resources");
	d->nodes = kp_report_table(r, "nodes");
	d->usage = kp_report_table(r, "node_usage");
	d->reasons = kp_report_table(r, "unschedulable_reasons");
	if (!d->res || !d->nodes || !d->usage || !d->reasons)
		return KP_ERROR;
	/* resources some pod requests, on nodes that have them */
	int rn = kp_rtable_col(d->res, "resource"), ra = kp_rtable_col(d->res, "allocatable"),
	    rb = kp_rtable_col(d->res, "requested_before"), rq = kp_rtable_col(d->res, "requested_after");
	for (size_t i = 0; i < d->res->nrows && d->nres < RES_CAP; i++)
		if (kp_rcell_num(kp_rtable_cell(d->res, i, ra)) > 0 &&
		    (kp_rcell_num(kp_rtable_cell(d->res, i, rb)) > 0 || kp_rcell_num(kp_rtable_cell(d->res, i, rq)) > 0))
			d->res_name[d->nres++] = text_cell(d->res, i, rn);
	size_t n = d->nodes->nrows ? d->nodes->nrows : 1;
	d->ustart = kp_calloc(n, sizeof *d->ustart);
	d->ucount = kp_calloc(n, sizeof *d->ucount);
	d->order = kp_calloc(n, sizeof *d->order);
	if (!d->ustart || !d->ucount || !d->order)
		return KP_NOMEM;
	/* both tables are ordered by node name: walk them together */
	int nn = kp_rtable_col(d->nodes, "node"), un = kp_rtable_col(d->usage, "node");
	size_t u = 0;
	for (size_t i = 0; i < d->nodes->nrows; i++) {
		const char *name = text_cell(d->nodes, i, nn);
		while (u < d->usage->nrows && strcmp(text_cell(d->usage, u, un), name) < 0)
			u++;
		d->ustart[i] = u;
		while (u < d->usage->nrows && !strcmp(text_cell(d->usage, u, un), name))
			u++;
		d->ucount[i] = u - d->ustart[i];
	}
	node_key *keys = kp_calloc(n, sizeof *keys);
	if (!keys)
		return KP_NOMEM;
	int nl = kp_rtable_col(d->nodes, "load_after");
	for (size_t i = 0; i < d->nodes->nrows; i++) {
		const kp_rcell *c = kp_rtable_cell(d->nodes, i, nl);
		keys[i] = (node_key){ c->type == KP_RV_NULL, kp_rcell_num(c), text_cell(d->nodes, i, nn), i };
	}
	kp_sort(keys, d->nodes->nrows, sizeof *keys, cmp_load);
	for (size_t i = 0; i < d->nodes->nrows; i++)
		d->order[i] = keys[i].row;
	kp_free(keys);
	d->nshown = d->nodes->nrows < NODE_CAP ? d->nodes->nrows : NODE_CAP;
	return KP_OK;
}

/* the usage row of node (nodes row i) and resource, or -1 when the node does not have it */
static long usage_row(const chart_data *d, size_t i, const char *res)
{
	int ur = kp_rtable_col(d->usage, "resource"), ua = kp_rtable_col(d->usage, "allocatable");
	for (size_t k = d->ustart[i]; k < d->ustart[i] + d->ucount[i]; k++)
		if (!strcmp(text_cell(d->usage, k, ur), res))
			return kp_rcell_num(kp_rtable_cell(d->usage, k, ua)) > 0 ? (long)k : -1;
	return -1;
}

static double usage_pct(const chart_data *d, long k, const char *col)
{
	return kp_rcell_num(kp_rtable_cell(d->usage, (size_t)k, kp_rtable_col(d->usage, col)));
}

static void cap_note(kp_sb *out, const chart_data *d)
{
	if (d->nshown < d->nodes->nrows)
		kp_sb_printf(out, "<p class=\"note\">Showing the %zu most loaded of %zu nodes; the Nodes table, "
			     "csv and json have every node.</p>\n", d->nshown, d->nodes->nrows);
}

static void legend(kp_sb *out, const chart_data *d, int y)
{
	int x = 180;
	for (int k = 0; k < d->nres; k++) {
		kp_sb_printf(out, "<rect class=\"swatch\" x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			     "<text x=\"%d\" y=\"%d\">", x, y, palette[k], x + 14, y + 9);
		esc(out, d->res_name[k]);
		kp_sb_adds(out, "</text>");
		x += 24 + 7 * (int)strlen(d->res_name[k]);
	}
	kp_sb_addc(out, '\n');
}

/* utilisation after the plan, one row of bars per node, the most loaded first */
static void chart_util(kp_sb *out, const chart_data *d)
{
	const int x0 = 180, pw = 560, bh = d->nshown > 40 ? 4 : 7;
	int rowh = d->nres * (bh + 1) + 8, top = 40;
	int h = top + (int)d->nshown * rowh + 10;
	int nn = kp_rtable_col(d->nodes, "node");
	kp_sb_adds(out, "<figure><figcaption>Utilisation per node after the plan</figcaption>\n");
	kp_sb_adds(out, "<p class=\"note\">Requested share of allocatable, one bar per resource; the black tick is "
		   "before the plan. Nodes by load, most loaded first.</p>\n");
	cap_note(out, d);
	kp_sb_printf(out, "<div class=\"chart\"><svg id=\"chart-util\" class=\"chart-util\" viewBox=\"0 0 760 %d\" "
		     "role=\"img\" aria-label=\"utilisation per node\" xmlns=\"http://www.w3.org/2000/svg\">\n", h);
	legend(out, d, 2);
	for (int p = 0; p <= 100; p += 25) {
		int x = x0 + pw * p / 100;
		kp_sb_printf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
			     "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d%%</text>\n",
			     x, top - 4, x, h - 6, x, top - 8, p);
	}
	for (size_t s = 0; s < d->nshown; s++) {
		size_t i = d->order[s];
		const char *name = text_cell(d->nodes, i, nn);
		int y = top + (int)s * rowh;
		kp_sb_adds(out, "<g class=\"node\" data-node=\"");
		esc(out, name);
		kp_sb_printf(out, "\"><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", x0 - 6, y + rowh / 2 + 3);
		esc_trunc(out, name, 26);
		kp_sb_adds(out, "<title>");
		esc(out, name);
		kp_sb_adds(out, "</title></text>");
		for (int k = 0; k < d->nres; k++) {
			long u = usage_row(d, i, d->res_name[k]);
			if (u < 0)
				continue;
			double pa = usage_pct(d, u, "percent_after"), pb = usage_pct(d, u, "percent_before");
			double w = pa > 100 ? 100 : pa < 0 ? 0 : pa, wb = pb > 100 ? 100 : pb < 0 ? 0 : pb;
			int by = y + 4 + k * (bh + 1);
			kp_sb_printf(out, "<rect class=\"bar%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
				     "<title>", pa > 100 ? " over" : "", x0, by, pw * w / 100, bh, palette[k]);
			esc(out, name);
			kp_sb_adds(out, " ");
			esc(out, d->res_name[k]);
			kp_sb_printf(out, ": %.1f%% after, %.1f%% before</title></rect>", pa, pb);
			kp_sb_printf(out, "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
				     x0 + pw * wb / 100, by, x0 + pw * wb / 100, by + bh);
		}
		kp_sb_adds(out, "</g>\n");
	}
	kp_sb_adds(out, "</svg></div></figure>\n");
}

/* a light-to-dark blue by percentage; red above 100 % */
static void heat_colour(double p, char *buf, size_t size, int *dark)
{
	if (p > 100) {
		snprintf(buf, size, "hsl(0,70%%,45%%)");
		*dark = 1;
		return;
	}
	double l = 96 - 0.6 * (p < 0 ? 0 : p);
	snprintf(buf, size, "hsl(212,65%%,%.0f%%)", l);
	*dark = l < 62;
}

static void chart_heat(kp_sb *out, const chart_data *d)
{
	const int x0 = 180, top = 34, rowh = 16;
	int cw = d->nres ? 560 / d->nres : 560;
	if (cw > 110)
		cw = 110;
	int h = top + (int)d->nshown * rowh + 8, labels = d->nshown <= 60;
	int nn = kp_rtable_col(d->nodes, "node");
	kp_sb_adds(out, "<figure><figcaption>Node \xc3\x97 resource heat map (after the plan)</figcaption>\n");
	cap_note(out, d);
	kp_sb_printf(out, "<div class=\"chart\"><svg id=\"chart-heat\" class=\"chart-heat\" viewBox=\"0 0 760 %d\" "
		     "role=\"img\" aria-label=\"heat map\" xmlns=\"http://www.w3.org/2000/svg\">\n", h);
	for (int k = 0; k < d->nres; k++) {
		kp_sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x0 + k * cw + cw / 2, top - 10);
		esc_trunc(out, d->res_name[k], (size_t)(cw / 7));
		kp_sb_adds(out, "</text>");
	}
	kp_sb_addc(out, '\n');
	for (size_t s = 0; s < d->nshown; s++) {
		size_t i = d->order[s];
		const char *name = text_cell(d->nodes, i, nn);
		int y = top + (int)s * rowh;
		kp_sb_adds(out, "<g class=\"row\" data-node=\"");
		esc(out, name);
		kp_sb_printf(out, "\"><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", x0 - 6, y + 12);
		esc_trunc(out, name, 26);
		kp_sb_adds(out, "</text>");
		for (int k = 0; k < d->nres; k++) {
			long u = usage_row(d, i, d->res_name[k]);
			int x = x0 + k * cw;
			if (u < 0) {
				kp_sb_printf(out, "<rect class=\"na\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", x + 1,
					     y + 1, cw - 2, rowh - 2);
				continue;
			}
			double pa = usage_pct(d, u, "percent_after");
			char col[40];
			int dark;
			heat_colour(pa, col, sizeof col, &dark);
			kp_sb_printf(out, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
				     x + 1, y + 1, cw - 2, rowh - 2, col);
			esc(out, name);
			kp_sb_adds(out, " ");
			esc(out, d->res_name[k]);
			kp_sb_printf(out, ": %.1f%%</title></rect>", pa);
			if (labels)
				kp_sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"%s>%.0f%%</text>", x + cw / 2,
					     y + 12, dark ? " style=\"fill:#fff\"" : "", pa);
		}
		kp_sb_adds(out, "</g>\n");
	}
	kp_sb_adds(out, "</svg></div></figure>\n");
}

/* per resource: how many nodes fall in each 10 % band, before and after */
static void chart_dist(kp_sb *out, const chart_data *d)
{
	const int pw = 370, ph = 170, bw = 32;
	int rows = (d->nres + 1) / 2, h = 26 + (rows ? rows : 1) * ph;
	kp_sb_adds(out, "<figure><figcaption>Node utilisation before and after the plan</figcaption>\n");
	kp_sb_adds(out, "<p class=\"note\">Per resource, the number of nodes in each 10% band of requested "
		   "allocatable (every node, not only those drawn above); grey: before, colour: after.</p>\n");
	kp_sb_printf(out, "<div class=\"chart\"><svg id=\"chart-dist\" class=\"chart-dist\" viewBox=\"0 0 760 %d\" "
		     "role=\"img\" aria-label=\"utilisation distribution\" xmlns=\"http://www.w3.org/2000/svg\">\n", h);
	kp_sb_adds(out, "<rect class=\"swatch\" x=\"10\" y=\"4\" width=\"10\" height=\"10\" fill=\"#c3c8d1\"/>"
		   "<text x=\"24\" y=\"13\">before</text><rect class=\"swatch\" x=\"80\" y=\"4\" width=\"10\" "
		   "height=\"10\" fill=\"#4e79a7\"/><text x=\"94\" y=\"13\">after (resource colour)</text>\n");
	for (int k = 0; k < d->nres; k++) {
		int before[10] = { 0 }, after[10] = { 0 }, max = 1;
		for (size_t i = 0; i < d->nodes->nrows; i++) {
			long u = usage_row(d, i, d->res_name[k]);
			if (u < 0)
				continue;
			double pb = usage_pct(d, u, "percent_before"), pa = usage_pct(d, u, "percent_after");
			int b = pb < 0 ? 0 : pb >= 90 ? 9 : (int)(pb / 10), a = pa < 0 ? 0 : pa >= 90 ? 9 : (int)(pa / 10);
			before[b]++;
			after[a]++;
		}
		for (int b = 0; b < 10; b++) {
			if (before[b] > max)
				max = before[b];
			if (after[b] > max)
				max = after[b];
		}
		int px = 10 + (k % 2) * (pw + 10), py = 26 + (k / 2) * ph, base = py + ph - 36, hh = ph - 70;
		kp_sb_adds(out, "<g class=\"panel\" data-resource=\"");
		esc(out, d->res_name[k]);
		kp_sb_printf(out, "\"><text x=\"%d\" y=\"%d\" style=\"font-weight:600\">", px, py + 14);
		esc(out, d->res_name[k]);
		kp_sb_printf(out, "</text><line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", px, base,
			     px + 10 * (bw + 3), base);
		for (int b = 0; b < 10; b++) {
			int x = px + b * (bw + 3);
			double hb = (double)hh * before[b] / max, ha = (double)hh * after[b] / max;
			kp_sb_printf(out, "<rect class=\"bar before\" data-n=\"%d\" x=\"%d\" y=\"%.1f\" width=\"%d\" "
				     "height=\"%.1f\" fill=\"#c3c8d1\"><title>%d%%\xe2\x80\x93%d%%: %d nodes before</title></rect>",
				     before[b], x, base - hb, bw / 2 - 1, hb, b * 10, b == 9 ? 100 : b * 10 + 10, before[b]);
			kp_sb_printf(out, "<rect class=\"bar after\" data-n=\"%d\" x=\"%d\" y=\"%.1f\" width=\"%d\" "
				     "height=\"%.1f\" fill=\"%s\"><title>%d%%\xe2\x80\x93%d%%: %d nodes after</title></rect>",
				     after[b], x + bw / 2, base - ha, bw / 2 - 1, ha, palette[k], b * 10,
				     b == 9 ? 100 : b * 10 + 10, after[b]);
			if (before[b])
				kp_sb_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" style=\"font-size:9px\">%d"
					     "</text>", x + bw / 4, base - hb - 2, before[b]);
			if (after[b])
				kp_sb_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" style=\"font-size:9px\">%d"
					     "</text>", x + bw * 3 / 4, base - ha - 2, after[b]);
			if (b % 2 == 0)
				kp_sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d%%</text>", x, base + 14,
					     b * 10);
		}
		kp_sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">100%%</text></g>\n", px + 10 * (bw + 3),
			     base + 14);
	}
	kp_sb_adds(out, "</svg></div></figure>\n");
}

static void chart_reasons(kp_sb *out, const chart_data *d)
{
	const kp_rtable *t = d->reasons;
	size_t n = t->nrows < REASON_CAP ? t->nrows : REASON_CAP;
	int rowh = 34, h = 10 + (n ? (int)n : 1) * rowh;
	int cr = kp_rtable_col(t, "reason"), cp = kp_rtable_col(t, "pods");
	double max = 1;
	for (size_t i = 0; i < n; i++)
		if (kp_rcell_num(kp_rtable_cell(t, i, cp)) > max)
			max = kp_rcell_num(kp_rtable_cell(t, i, cp));
	kp_sb_adds(out, "<figure><figcaption>Why pods are unschedulable</figcaption>\n");
	kp_sb_adds(out, "<p class=\"note\">Pods per decisive reason: the reasons of the nodes that pass every static filter "
		   "(taints, selectors, node affinity, cordon), or the static ones when no node passes them.</p>\n");
	if (t->nrows > n)
		kp_sb_printf(out, "<p class=\"note\">Showing the %zu most frequent of %zu reasons.</p>\n", n, t->nrows);
	kp_sb_printf(out, "<div class=\"chart\"><svg id=\"chart-reasons\" class=\"chart-reasons\" viewBox=\"0 0 760 %d\" "
		     "role=\"img\" aria-label=\"unschedulable reasons\" xmlns=\"http://www.w3.org/2000/svg\">\n", h);
	if (!n)
		kp_sb_adds(out, "<text x=\"10\" y=\"24\">No unschedulable pods.</text>\n");
	for (size_t i = 0; i < n; i++) {
		int y = 6 + (int)i * rowh;
		double v = kp_rcell_num(kp_rtable_cell(t, i, cp)), w = 640 * v / max;
		const char *reason = text_cell(t, i, cr);
		kp_sb_printf(out, "<text x=\"10\" y=\"%d\">", y + 10);
		esc_trunc(out, reason, 110);
		kp_sb_printf(out, "</text><rect class=\"bar\" x=\"10\" y=\"%d\" width=\"%.1f\" height=\"14\" "
			     "fill=\"#e15759\"><title>", y + 14, w);
		esc(out, reason);
		kp_sb_printf(out, ": %.0f pods</title></rect><text x=\"%.1f\" y=\"%d\">%.0f</text>\n", v, 16 + w, y + 25, v);
	}
	kp_sb_adds(out, "</svg></div></figure>\n");
}

/* ---- tables ---- */

static void table(kp_sb *out, const kp_rtable *t)
{
	char buf[96], raw[64];
	size_t n = t->nrows < TABLE_CAP ? t->nrows : TABLE_CAP;
	kp_sb_adds(out, "<section id=\"");
	esc(out, t->id);
	kp_sb_adds(out, "\"><h2>");
	esc(out, t->title);
	kp_sb_printf(out, " <small class=\"note\">(%zu)</small></h2>\n", t->nrows);
	if (t->note) {
		kp_sb_adds(out, "<p class=\"note\">");
		esc(out, t->note);
		kp_sb_adds(out, "</p>\n");
	}
	if (!t->nrows) {
		kp_sb_adds(out, "<p>None.</p></section>\n");
		return;
	}
	if (n < t->nrows)
		kp_sb_printf(out, "<p class=\"note\">Showing the first %zu of %zu rows; csv and json have them all.</p>\n",
			     n, t->nrows);
	int *num = kp_calloc((size_t)t->ncols, sizeof *num);
	if (!num) {
		out->failed = 1;
		return;
	}
	kp_sb_adds(out, "<div class=\"scroll\"><table class=\"sortable\" data-section=\"");
	esc(out, t->id);
	kp_sb_adds(out, "\"><thead><tr>");
	for (int j = 0; j < t->ncols; j++) {
		num[j] = kp_rtable_numeric(t, j);
		kp_sb_printf(out, "<th%s scope=\"col\">", num[j] ? " class=\"num\" data-type=\"num\"" : "");
		esc(out, kp_report_header(&t->cols[j], buf, sizeof buf));
		kp_sb_adds(out, "</th>");
	}
	kp_sb_adds(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		kp_sb_printf(out, "<tr data-i=\"%zu\">", i);
		for (int j = 0; j < t->ncols; j++) {
			if (num[j]) {
				kp_sb_adds(out, "<td class=\"num\" data-v=\"");
				esc(out, kp_report_raw(t, i, j, raw, sizeof raw));
				kp_sb_adds(out, "\">");
				esc(out, kp_report_human(t, i, j, buf, sizeof buf));
			} else {
				const char *v = kp_report_human(t, i, j, buf, sizeof buf);
				kp_sb_adds(out, strlen(v) > 40 ? "<td class=\"long\">" : "<td>");
				esc(out, v);
			}
			kp_sb_adds(out, "</td>");
		}
		kp_sb_adds(out, "</tr>\n");
	}
	kp_sb_adds(out, "</tbody></table></div></section>\n");
	kp_free(num);
}

static void kv_table(kp_sb *out, const kp_rtable *t, int open)
{
	char buf[96];
	kp_sb_printf(out, "<details%s><summary>every summary field</summary><div class=\"scroll\"><table class=\"kv\">"
		     "<tbody>\n", open ? " open" : "");
	for (size_t i = 0; i < t->nrows; i++) {
		kp_sb_adds(out, "<tr><th scope=\"row\">");
		esc(out, kp_report_human(t, i, 0, buf, sizeof buf));
		kp_sb_adds(out, "</th><td>");
		esc(out, kp_report_human(t, i, 1, buf, sizeof buf));
		kp_sb_adds(out, "</td></tr>\n");
	}
	kp_sb_adds(out, "</tbody></table></div></details>\n");
}

/* the summary's value for key, as people read it ("-" when absent) */
static const char *kv_get(const kp_rtable *t, const char *key, char *buf, size_t size)
{
	for (size_t i = 0; t && i < t->nrows; i++) {
		const kp_rcell *k = kp_rtable_cell(t, i, 0);
		if (k->type == KP_RV_TEXT && !strcmp(k->s, key))
			return kp_report_human(t, i, 1, buf, size);
	}
	snprintf(buf, size, "-");
	return buf;
}

static void cards(kp_sb *out, const kp_rtable *sum)
{
	static const char *const keys[][2] = {
		{ "nodes", "nodes" }, { "pods", "pods" }, { "pending", "pending" }, { "bind", "bound by the plan" },
		{ "move", "moved" }, { "evict", "evicted" }, { "unschedulable", "unschedulable" },
		{ "evictions", "preemption evictions" },
	};
	char buf[96];
	kp_sb_adds(out, "<div class=\"cards\">");
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		kp_sb_adds(out, "<div class=\"card\" data-key=\"");
		esc(out, keys[i][0]);
		kp_sb_adds(out, "\"><b>");
		esc(out, kv_get(sum, keys[i][0], buf, sizeof buf));
		kp_sb_adds(out, "</b><span>");
		esc(out, keys[i][1]);
		kp_sb_adds(out, "</span></div>");
	}
	kp_sb_adds(out, "</div>\n");
}

int kp_report_html(const kp_report *r, kp_sb *out)
{
	char title[160], buf[96], buf2[96];
	const kp_rtable *sum = kp_report_table(r, "summary");
	kp_report_title(r, title, sizeof title);
	kp_sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>");
	esc(out, title);
	kp_sb_printf(out, "</title>\n<style>\n%s</style>\n<script>%s</script>\n</head>\n", css, head_script);
	kp_sb_printf(out, "<body data-ok=\"0\" data-kind=\"%s\">\n<header><h1>", r->compare ? "compare" : "run");
	esc(out, title);
	kp_sb_adds(out, "</h1><p class=\"sub\">");
	if (r->compare) {
		kp_sb_printf(out, "%s pods placed differently", kv_get(sum, "pods_changed", buf, sizeof buf));
	} else {
		kp_sb_adds(out, "seed ");
		esc(out, kv_get(sum, "seed", buf, sizeof buf));
		kp_sb_adds(out, " \xc2\xb7 configuration ");
		esc(out, kv_get(sum, "config_source", buf, sizeof buf));
		kp_sb_adds(out, " \xc2\xb7 kplan ");
		esc(out, kv_get(sum, "kplan", buf, sizeof buf));
		if (!r->no_timing) {
			kp_sb_adds(out, " \xc2\xb7 started ");
			esc(out, kv_get(sum, "started", buf, sizeof buf));
			kp_sb_adds(out, " \xc2\xb7 ");
			esc(out, kv_get(sum, "elapsed_seconds", buf2, sizeof buf2));
			kp_sb_adds(out, " s");
		}
	}
	kp_sb_adds(out, "</p></header>\n<nav>");
	if (!r->compare)
		kp_sb_adds(out, "<a href=\"#charts\">charts</a>");
	for (int i = 1; i < r->ntables; i++) {
		kp_sb_adds(out, "<a href=\"#");
		esc(out, r->tables[i].id);
		kp_sb_adds(out, "\">");
		esc(out, r->tables[i].title);
		kp_sb_adds(out, "</a>");
	}
	kp_sb_adds(out, "</nav>\n<main>\n<section id=\"summary\"><h2>Summary</h2>\n");
	if (!r->compare)
		cards(out, sum);
	if (sum)
		kv_table(out, sum, r->compare);
	kp_sb_adds(out, "</section>\n");
	if (!r->compare) {
		chart_data d;
		int rc = chart_data_init(r, &d);
		if (rc == KP_OK) {
			kp_sb_adds(out, "<section id=\"charts\"><h2>Charts</h2>\n");
			chart_util(out, &d);
			chart_heat(out, &d);
			chart_dist(out, &d);
			chart_reasons(out, &d);
			kp_sb_adds(out, "</section>\n");
		}
		chart_data_release(&d);
		if (rc == KP_NOMEM)
			return KP_NOMEM;
	}
	for (int i = 0; i < r->ntables; i++)
		if (!r->tables[i].kv)
			table(out, &r->tables[i]);
	kp_sb_printf(out, "</main>\n<footer>Made by kplan %s: <code>kplan report --format html</code>. "
		     "One self-contained file; no network.</footer>\n", KPLAN_VERSION);
	kp_sb_printf(out, "<script>\n%s</script>\n</body>\n</html>\n", main_script);
	return kp_sb_ok(out) ? KP_OK : KP_NOMEM;
}
