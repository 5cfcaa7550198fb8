/*
 * html.c — the report as ONE self-contained HTML page (report.h): inline CSS,
 * inline SVG charts, a small inline script; no network (a Content-Security-
 * Policy forbids any), no external fonts or images.  Responsive: tables and
 * charts scroll sideways on a phone.
 *
 * Charts (html_charts.c; tests count their elements): chart-cluster, the whole
 * cluster per pool and resource, first; chart-rebalance for a rebalance run;
 * chart-util, chart-heat (the most loaded nodes), chart-dist; and here
 * chart-reasons, unschedulable reasons, one <rect class="bar"> per reason;
 * chart-gpu (html_gpu.c) when the run has GPU fragmentation rows.
 * Tables show at most TABLE_CAP rows, each in a box that scrolls sideways.
 *
 * Every string from the database is HTML-escaped; none is placed in the
 * script.  The script sorts tables by a click on a header, and on load marks
 * <body data-ok="1"> (data-ok="0" and data-errors when any script error
 * happened) with the element counts of each chart (data-util-bars, ...); with
 * #selftest in the URL it also sorts every table both ways and checks the
 * order (data-sort-ok), and measures the layout: the page's width, elements
 * outside the viewport but not in a scroll box, wide tables and how many of
 * them scroll in their box (data-scroll-width, data-outside, data-wide-*).
 */
#include "html.h"

#include <string.h>
#include <math.h>

#define TABLE_CAP 500
#define REASON_CAP 20

const char *const kp_html_palette[RES_CAP] = {
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

void kp_html_esc(kp_sb *out, const char *s)
{
	esc(out, s);
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

void kp_html_esc_trunc(kp_sb *out, const char *s, size_t max)
{
	esc_trunc(out, s, max);
}

static const char *text_cell(const kp_rtable *t, size_t row, int col)
{
	const kp_rcell *c = col >= 0 ? kp_rtable_cell(t, row, col) : NULL;
	return c && c->type == KP_RV_TEXT ? c->s : "";
}

static const char css[] =
	":root{--fg:#1d2330;--muted:#5b6475;--line:#d9dee7;--bg:#fff;--card:#f3f5f9;--link:#2a5db0}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;color:var(--fg);"
	"background:var(--bg);overflow-wrap:anywhere}\n"
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
	".chart svg{display:block;width:100%;min-width:680px;height:auto}\n"
	".panels{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:4px 14px}\n"
	".panels.wide{grid-template-columns:repeat(auto-fit,minmax(300px,1fr))}\n"
	".panels svg{display:block;width:100%;max-width:420px;height:auto}\n"
	".pool h3{overflow-wrap:anywhere}\n"
	".panels svg text{font-size:12px}.panels svg text.ax{font-size:10px}\n"
	".legend{font-size:.85rem;color:var(--muted);margin:2px 0 6px}\n"
	".sw{display:inline-block;width:18px;height:10px;margin:0 4px 0 10px;border-radius:2px;vertical-align:baseline}\n"
	".sw:first-child{margin-left:0}\n"
	"svg text{font-family:system-ui,sans-serif;font-size:11px;fill:#1d2330}\n"
	"svg .grid{stroke:#e1e5ec;stroke-width:1}\n"
	"svg .tick{stroke:#1d2330;stroke-width:1.5}\n"
	"svg .na{fill:#f1f1f1}\n"
	"#chart-rebalance .track{fill:#eef0f4}#chart-rebalance .before{fill:#9aa1ad}\n"
	"svg .over{stroke:#b00020;stroke-width:1}\n"
	"figure{margin:18px 0}\n"
	"figcaption{font-weight:600;margin-bottom:4px}\n"
	"footer{color:var(--muted);font-size:.85rem;padding:30px 16px}\n"
	"@media (max-width:600px){.panels{grid-template-columns:repeat(2,minmax(0,1fr))}"
	".panels svg text{font-size:13.5px}.panels svg text.ax{font-size:12px}.panels>div:empty{display:none}"
	"body{font-size:14px}h1{font-size:1.25rem}th,td{padding:3px 5px}"
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
	"body.setAttribute('data-cluster-panels', count('chart-cluster', 'svg.panel'));\n"
	"body.setAttribute('data-cluster-curves', count('chart-cluster', 'path.curve'));\n"
	"body.setAttribute('data-rebalance-nodes', count('chart-rebalance', 'g.rnode'));\n"
	"body.setAttribute('data-util-bars', count('chart-util', 'rect.bar'));\n"
	"body.setAttribute('data-heat-cells', count('chart-heat', 'rect.cell'));\n"
	"body.setAttribute('data-dist-bars', count('chart-dist', 'rect.bar'));\n"
	"body.setAttribute('data-reason-bars', count('chart-reasons', 'rect.bar'));\n"
	"body.setAttribute('data-gpu-nodes', count('chart-gpu', 'rect.gnode'));\n"
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
	"  /* layout: nothing outside the viewport but inside a scroll box; wide tables scroll in theirs */\n"
	"  var vw = document.documentElement.clientWidth, outside = [], wide = 0, scrolls = 0;\n"
	"  each(document.querySelectorAll('body *'), function (e) {\n"
	"    if (e.parentElement && e.parentElement.closest('.scroll,.chart')) return;\n"
	"    var r = e.getBoundingClientRect();\n"
	"    if (r.width && (r.right > vw + 1 || r.left < -1)) outside.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''));\n"
	"  });\n"
	"  each(document.querySelectorAll('table'), function (t) {\n"
	"    var b = t.parentElement;\n"
	"    if (t.offsetWidth <= b.clientWidth + 1) return;\n"
	"    wide++;\n"
	"    if (b.classList.contains('scroll') && getComputedStyle(b).overflowX === 'auto' && b.scrollWidth > b.clientWidth) scrolls++;\n"
	"  });\n"
	"  body.setAttribute('data-view-width', vw);\n"
	"  body.setAttribute('data-scroll-width', document.documentElement.scrollWidth);\n"
	"  body.setAttribute('data-outside', outside.length + (outside.length ? ': ' + outside.slice(0, 5).join(' ') : ''));\n"
	"  body.setAttribute('data-wide-tables', wide);\n"
	"  body.setAttribute('data-wide-scrolling', scrolls);\n"
	"}\n"
	"if (!window.kpErrors.length) body.setAttribute('data-ok', '1');\n"
	"})();\n";

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

/* the rows of a key/value table; in a closed <details> (open when open is
 * 1) when folded, else shown */
static void kv_table(kp_sb *out, const kp_rtable *t, int folded, int open)
{
	char buf[96];
	if (folded)
		kp_sb_printf(out, "<details%s><summary>every summary field</summary>", open ? " open" : "");
	kp_sb_adds(out, "<div class=\"scroll\"><table class=\"kv\"><tbody>\n");
	for (size_t i = 0; i < t->nrows; i++) {
		kp_sb_adds(out, "<tr><th scope=\"row\">");
		esc(out, kp_report_human(t, i, 0, buf, sizeof buf));
		kp_sb_adds(out, "</th><td>");
		esc(out, kp_report_human(t, i, 1, buf, sizeof buf));
		kp_sb_adds(out, "</td></tr>\n");
	}
	kp_sb_adds(out, folded ? "</tbody></table></div></details>\n" : "</tbody></table></div>\n");
}

/* a key/value table other than the summary (the volumes counts): a section
 * of its own, as table() makes for the others */
static void kv_section(kp_sb *out, const kp_rtable *t)
{
	kp_sb_adds(out, "<section id=\"");
	esc(out, t->id);
	kp_sb_adds(out, "\"><h2>");
	esc(out, t->title);
	kp_sb_adds(out, "</h2>\n");
	if (t->note) {
		kp_sb_adds(out, "<p class=\"note\">");
		esc(out, t->note);
		kp_sb_adds(out, "</p>\n");
	}
	kv_table(out, t, 0, 0);
	kp_sb_adds(out, "</section>\n");
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
		kv_table(out, sum, 1, r->compare);
	kp_sb_adds(out, "</section>\n");
	if (!r->compare) {
		chart_data d;
		int rc = chart_data_init(r, &d);
		if (rc == KP_OK) {
			kp_sb_adds(out, "<section id=\"charts\"><h2>Charts</h2>\n");
			chart_cluster(out, &d);
			chart_rebalance(out, &d);
			chart_util(out, &d);
			chart_heat(out, &d);
			chart_dist(out, &d);
			chart_reasons(out, &d);
			chart_gpu(out, r);
			kp_sb_adds(out, "</section>\n");
		}
		chart_data_release(&d);
		if (rc == KP_NOMEM)
			return KP_NOMEM;
	}
	for (int i = 0; i < r->ntables; i++)
		if (!r->tables[i].kv)
			table(out, &r->tables[i]);
		else if (&r->tables[i] != sum)
			kv_section(out, &r->tables[i]);
	kp_sb_printf(out, "</main>\n<footer>Made by kplan %s: <code>kplan report --format html</code>. "
		     "One self-contained file; no network.</footer>\n", KPLAN_VERSION);
	kp_sb_printf(out, "<script>\n%s</script>\n</body>\n</html>\n", main_script);
	return kp_sb_ok(out) ? KP_OK : KP_NOMEM;
}
