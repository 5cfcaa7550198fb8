/*
 * html_charts.c — the charts of the HTML report (html.c), each an inline SVG
 * drawn from the report's tables (report.h); html.h says what they share.
 *
 *   chart-cluster   the whole cluster at a glance: per pool (and all nodes)
 *                   and resource, the nodes' utilisation sorted from the most
 *                   to the least used, before and after; one <svg
 *                   class="panel"> per pool x resource holding a <path
 *                   class="curve before"> and a <path class="curve after">
 *                   (data-n: nodes, data-samples: steps drawn, one "H" each)
 *   chart-rebalance a rebalance run: each node the moves touch, before and
 *                   after per resource, freed nodes first; <g class="rnode"
 *                   data-node data-freed>, <rect class="bar before|after">
 *   chart-util      the most loaded nodes after the plan, one <rect
 *                   class="bar"> per node x resource; <g class="node">
 *   chart-heat      node x resource heat map, <rect class="cell">
 *   chart-dist      per resource, a histogram of node utilisation before and
 *                   after: 10 bins, <rect class="bar before|after" data-n=N>
 *
 * Every number drawn is a cell of a table (node_usage, rebalance_nodes,
 * nodes, resources) or a count or mean of them; the captions say which.
 */
#include "html.h"

#include <string.h>
#include <math.h>

#define NODE_CAP 100     /* chart-util, chart-heat: the most loaded nodes */
#define POOL_CAP 8       /* chart-cluster: the largest pools */
#define SAMPLE_CAP 200   /* chart-cluster: steps per curve */
#define REBAL_CAP 150    /* chart-rebalance: nodes */
#define SAMPLE_NOTE "200 steps"
#define POOL_LABEL_TEXT "node.kubernetes.io/instance-type"

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

static int cmp_load(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const node_key *x = a, *y = b;
	if (x->null != y->null)
		return x->null - y->null;
	if (x->load != y->load)
		return x->load > y->load ? -1 : 1;
	return strcmp(x->name, y->name);
}

void chart_data_release(chart_data *d)
{
	kp_free(d->ustart);
	kp_free(d->ucount);
	kp_free(d->order);
	kp_free(d->rstart);
	kp_free(d->rcount);
}

/* a node's rows in rebalance_nodes (contiguous: freed first, then by name) */
typedef struct rb_group {
	const char *name;
	size_t start, count;
} rb_group;

static int cmp_group(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const rb_group *)a)->name, ((const rb_group *)b)->name);
}

/* rstart/rcount per nodes row, when the run is a rebalance */
static int index_rebalance(chart_data *d, size_t n)
{
	d->rstart = kp_calloc(n, sizeof *d->rstart);
	d->rcount = kp_calloc(n, sizeof *d->rcount);
	if (!d->rstart || !d->rcount)
		return KP_NOMEM;
	if (!d->rbn || !d->rbn->nrows)
		return KP_OK;
	rb_group *g = kp_calloc(d->rbn->nrows, sizeof *g);
	if (!g)
		return KP_NOMEM;
	int bn = kp_rtable_col(d->rbn, "node"), nn = kp_rtable_col(d->nodes, "node");
	size_t ng = 0;
	for (size_t i = 0; i < d->rbn->nrows; i++) {
		const char *name = text_cell(d->rbn, i, bn);
		if (!ng || strcmp(g[ng - 1].name, name))
			g[ng++] = (rb_group){ name, i, 0 };
		g[ng - 1].count++;
	}
	kp_sort(g, ng, sizeof *g, cmp_group, NULL);
	/* nodes is ordered by name too: walk both */
	for (size_t i = 0, k = 0; i < d->nodes->nrows && k < ng; i++) {
		const char *name = text_cell(d->nodes, i, nn);
		while (k < ng && strcmp(g[k].name, name) < 0)
			k++;
		if (k < ng && !strcmp(g[k].name, name)) {
			d->rstart[i] = g[k].start;
			d->rcount[i] = g[k].count;
		}
	}
	kp_free(g);
	return KP_OK;
}

int chart_data_init(const kp_report *r, chart_data *d)
{
	memset(d, 0, sizeof *d);
	d->res = kp_report_table(r, "resources");
	d->nodes = kp_report_table(r, "nodes");
	d->usage = kp_report_table(r, "node_usage");
	d->reasons = kp_report_table(r, "unschedulable_reasons");
	d->rbn = kp_report_table(r, "rebalance_nodes");
	d->quality = kp_report_table(r, "quality");
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
	if (!d->ustart || !d->ucount || !d->order || index_rebalance(d, n) != KP_OK)
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
	kp_sort(keys, d->nodes->nrows, sizeof *keys, cmp_load, NULL);
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

/* a legend line: one swatch per resource colour */
static void legend(kp_sb *out, const chart_data *d)
{
	kp_sb_adds(out, "<p class=\"legend\">");
	for (int k = 0; k < d->nres; k++) {
		kp_sb_printf(out, "<span class=\"sw\" style=\"background:%s\"></span>", kp_html_palette[k]);
		kp_html_esc(out, d->res_name[k]);
		kp_sb_adds(out, " ");
	}
	kp_sb_adds(out, "</p>\n");
}

/* the width of the node names' column: the longest shown name, up to 26 characters */
static int label_width(const chart_data *d)
{
	int nn = kp_rtable_col(d->nodes, "node"), most = 0;
	for (size_t s = 0; s < d->nshown; s++) {
		const char *p = text_cell(d->nodes, d->order[s], nn);
		int c = 0;
		for (; *p && c < 27; p++)
			c += ((unsigned char)*p & 0xC0) != 0x80;
		if (c > most)
			most = c > 26 ? 26 : c;
	}
	int w = 16 + most * 13 / 2;
	return w < 48 ? 48 : w > 180 ? 180 : w;
}

/* a chart's <svg> opening: its own width, drawn at 0.92 to 1.4 times that (it scrolls in its box when wider) */
static void svg_open(kp_sb *out, const char *id, int w, int h, const char *label)
{
	kp_sb_printf(out, "<div class=\"chart\"><svg id=\"%s\" class=\"%s\" viewBox=\"0 0 %d %d\" style=\"min-width:%dpx;"
		     "max-width:%dpx\" role=\"img\" aria-label=\"%s\" xmlns=\"http://www.w3.org/2000/svg\">\n", id, id, w, h,
		     w * 92 / 100, w * 7 / 5, label);
}

/* a legend line above a chart: before drawn as before_css says, after as the label says */
static void legend_html(kp_sb *out, const char *before_css, const char *after)
{
	kp_sb_printf(out, "<p class=\"legend\"><span class=\"sw\" style=\"%s\"></span>before "
		     "<span class=\"sw\" style=\"background:linear-gradient(90deg,%s,%s,%s)\"></span>", before_css,
		     kp_html_palette[0], kp_html_palette[1], kp_html_palette[2]);
	kp_html_esc(out, after);
	kp_sb_adds(out, "</p>\n");
}

/* ---- chart-cluster ---- */

/* the rebalance_nodes row of nodes row i and resource res, or -1 */
static long rbn_row(const chart_data *d, size_t i, const char *res)
{
	int rr = kp_rtable_col(d->rbn, "resource");
	for (size_t k = d->rstart[i]; k < d->rstart[i] + d->rcount[i]; k++)
		if (!strcmp(text_cell(d->rbn, k, rr), res))
			return (long)k;
	return -1;
}

/* node i's percentage of resource k before (the plan, or a rebalance run's
 * moves) and after; 0 when the node does not have the resource */
static int node_pct(const chart_data *d, size_t i, int k, double *before, double *after)
{
	long u = usage_row(d, i, d->res_name[k]);
	if (u < 0)
		return 0;
	*after = usage_pct(d, u, "percent_after");
	if (!d->rbn) {
		*before = usage_pct(d, u, "percent_before");
		return 1;
	}
	long b = d->rcount[i] ? rbn_row(d, i, d->res_name[k]) : -1;
	*before = b < 0 ? *after : kp_rcell_num(kp_rtable_cell(d->rbn, (size_t)b, kp_rtable_col(d->rbn, "percent_before")));
	return 1;
}

static int cmp_desc(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

typedef struct pool_group {
	const char *name;
	size_t nodes;
} pool_group;

static int cmp_pool_name(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the largest pools first, then by name */
static int cmp_pool(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const pool_group *x = a, *y = b;
	if (x->nodes != y->nodes)
		return x->nodes > y->nodes ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* the pools of the nodes table, largest first; *n of them */
static pool_group *pools(const chart_data *d, size_t *n)
{
	size_t nn = d->nodes->nrows;
	int pc = kp_rtable_col(d->nodes, "pool");
	const char **names = kp_calloc(nn ? nn : 1, sizeof *names);
	pool_group *g = kp_calloc(nn ? nn : 1, sizeof *g);
	if (!names || !g) {
		kp_free(names);
		kp_free(g);
		return NULL;
	}
	for (size_t i = 0; i < nn; i++)
		names[i] = text_cell(d->nodes, i, pc);
	kp_sort(names, nn, sizeof *names, cmp_pool_name, NULL);
	*n = 0;
	for (size_t i = 0; i < nn; i++) {
		if (!*n || strcmp(g[*n - 1].name, names[i]))
			g[(*n)++] = (pool_group){ names[i], 0 };
		g[*n - 1].nodes++;
	}
	kp_free(names);
	kp_sort(g, *n, sizeof *g, cmp_pool, NULL);
	return g;
}

#define PX0 36
#define PW 160
#define PY0 20
#define PH 70

static double py(double v)
{
	return PY0 + PH - PH * (v > 100 ? 100 : v < 0 ? 0 : v) / 100;
}

/* one curve: v (n values, most used first) as steps; at most SAMPLE_CAP
 * steps, each the node at the middle of its share of the ranking */
static void curve(kp_sb *out, const double *v, size_t n, int after, const char *colour)
{
	size_t s = n < SAMPLE_CAP ? n : SAMPLE_CAP;
	kp_sb_printf(out, "<path class=\"curve %s\" data-n=\"%zu\" data-samples=\"%zu\" ", after ? "after" : "before", n, s);
	if (after)
		kp_sb_printf(out, "fill=\"%s\" fill-opacity=\"0.22\" stroke=\"%s\" stroke-width=\"1.5\" d=\"M%d %d", colour,
			     colour, PX0, PY0 + PH);
	else
		kp_sb_adds(out, "fill=\"none\" stroke=\"#3c4350\" stroke-width=\"1.2\" stroke-dasharray=\"3 2\" d=\"");
	for (size_t j = 0; j < s; j++) {
		size_t rank = n <= SAMPLE_CAP ? j : (size_t)(((double)j + 0.5) * (double)n / (double)s);
		double x1 = PX0 + (double)PW * (double)(j + 1) / (double)s;
		if (!j && !after)
			kp_sb_printf(out, "M%d %.1fH%.1f", PX0, py(v[rank]), x1);
		else
			kp_sb_printf(out, "V%.1fH%.1f", py(v[rank]), x1);
	}
	kp_sb_printf(out, "%s\"/>", after ? "V90Z" : "");
}

static double mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

static size_t over(const double *v, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += v[i] > 100;
	return c;
}

/* one panel: resource k over the nodes of pool (NULL: every node) */
static void panel(kp_sb *out, const chart_data *d, const char *pool, int k, double *vb, double *va)
{
	int pc = kp_rtable_col(d->nodes, "pool");
	size_t n = 0;
	for (size_t i = 0; i < d->nodes->nrows; i++)
		if ((!pool || !strcmp(text_cell(d->nodes, i, pc), pool)) && node_pct(d, i, k, &vb[n], &va[n]))
			n++;
	if (!n) {
		kp_sb_adds(out, "<div></div>\n");   /* keeps the resources in columns */
		return;
	}
	kp_sort(vb, n, sizeof *vb, cmp_desc, NULL);
	kp_sort(va, n, sizeof *va, cmp_desc, NULL);
	const char *res = d->res_name[k];
	kp_sb_adds(out, "<svg class=\"panel\" viewBox=\"0 0 200 122\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "data-resource=\"");
	kp_html_esc(out, res);
	kp_sb_adds(out, "\" aria-label=\"");
	kp_html_esc(out, res);
	kp_sb_adds(out, "\"><title>");
	kp_html_esc(out, res);
	kp_sb_printf(out, ", %zu nodes: before max %.1f%%, middle %.1f%%, min %.1f%%; after max %.1f%%, middle %.1f%%, "
		     "min %.1f%%</title>", n, vb[0], vb[n / 2], vb[n - 1], va[0], va[n / 2], va[n - 1]);
	kp_sb_adds(out, "<text x=\"2\" y=\"12\" style=\"font-weight:600\">");
	kp_html_esc_trunc(out, res, 30);
	kp_sb_printf(out, "</text><text x=\"2\" y=\"119\">%zu node%s%s</text>", n, n == 1 ? "" : "s",
		     n > SAMPLE_CAP ? ", " SAMPLE_NOTE : "");
	for (int p = 0; p <= 100; p += 50)
		kp_sb_printf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.0f\" x2=\"%d\" y2=\"%.0f\"/>"
			     "<text class=\"ax\" x=\"%d\" y=\"%.0f\" text-anchor=\"end\">%d%%</text>", PX0,
			     py(p), PX0 + PW, py(p), PX0 - 3, py(p) + 4, p);
	curve(out, va, n, 1, kp_html_palette[k]);
	curve(out, vb, n, 0, NULL);
	kp_sb_printf(out, "<text x=\"2\" y=\"106\">mean %.1f%% \xe2\x86\x92 %.1f%%</text>", mean(vb, n), mean(va, n));
	size_t ob = over(vb, n), oa = over(va, n);
	if (ob || oa)
		kp_sb_printf(out, "<text x=\"198\" y=\"119\" text-anchor=\"end\" style=\"fill:#b00020\">over 100%%: %zu "
			     "\xe2\x86\x92 %zu</text>", ob, oa);
	kp_sb_adds(out, "</svg>\n");
}

/* the pool's row of panels; pool NULL: every node */
static void pool_row(kp_sb *out, const chart_data *d, const pool_group *g, size_t nodes, double *vb, double *va)
{
	const kp_rtable *q = d->quality;
	if (g) {
		kp_sb_adds(out, "<div class=\"pool\" data-pool=\"");
		kp_html_esc(out, g->name);
		kp_sb_adds(out, "\"><h3>pool ");
		kp_html_esc(out, g->name);
		kp_sb_printf(out, " <small class=\"note\">%zu node%s", g->nodes, g->nodes == 1 ? "" : "s");
		int qp = q ? kp_rtable_col(q, "pool") : -1, qu = q ? kp_rtable_col(q, "used") : -1,
		    qb = q ? kp_rtable_col(q, "bound") : -1;
		for (size_t i = 0; q && qp >= 0 && qu >= 0 && qb >= 0 && i < q->nrows; i++)
			if (!strcmp(text_cell(q, i, qp), g->name))
				kp_sb_printf(out, "; plan quality: %.0f used, bound %.0f",
					     kp_rcell_num(kp_rtable_cell(q, i, qu)), kp_rcell_num(kp_rtable_cell(q, i, qb)));
		kp_sb_adds(out, "</small></h3>\n");
	} else {
		kp_sb_printf(out, "<div class=\"pool\" data-all=\"1\"><h3>all pools <small class=\"note\">%zu nodes</small>"
			     "</h3>\n", nodes);
	}
	kp_sb_adds(out, "<div class=\"panels\">\n");
	for (int k = 0; k < d->nres; k++)
		panel(out, d, g ? g->name : NULL, k, vb, va);
	kp_sb_adds(out, "</div></div>\n");
}

/* the whole cluster at a glance: per pool and resource, every node's
 * utilisation, sorted, before and after */
void chart_cluster(kp_sb *out, const chart_data *d)
{
	size_t np = 0, nn = d->nodes->nrows;
	pool_group *g = pools(d, &np);
	double *vb = kp_calloc(nn ? nn : 1, sizeof *vb), *va = kp_calloc(nn ? nn : 1, sizeof *va);
	if (!g || !vb || !va) {
		out->failed = 1;
		goto done;
	}
	const char *when = d->rbn ? "the moves" : "the plan";
	kp_sb_printf(out, "<figure><figcaption>The whole cluster: node utilisation before and after %s</figcaption>\n",
		     when);
	kp_sb_adds(out, "<p class=\"note\">Per pool (label " POOL_LABEL_TEXT ", as in Plan quality) and resource: "
		   "every node that has the resource, ranked from the most to the least used, each curve sorted on its "
		   "own; height: requested share of allocatable, drawn up to 100%; pool (none): nodes without the label. "
		   "Colour: after ");
	kp_sb_adds(out, d->rbn ? "the moves (percent_after in Node utilisation); dashed: before them (percent_before in "
			  "Rebalance: nodes for the nodes the moves touch, percent_after in Node utilisation for the others)."
			: "the plan (percent_after in Node utilisation); dashed: before it (percent_before).");
	kp_sb_printf(out, " Mean: the average of those percentages. Over %d nodes a curve is drawn as %d steps, each "
		     "the node in the middle of its 1/%d of the ranking.</p>\n", SAMPLE_CAP, SAMPLE_CAP, SAMPLE_CAP);
	legend_html(out, "height:0;border-top:2px dashed #3c4350;vertical-align:middle;border-radius:0",
		    d->rbn ? "after the moves (resource colour)" : "after the plan (resource colour)");
	if (np > POOL_CAP)
		kp_sb_printf(out, "<p class=\"note\">Showing the %d largest of %zu pools; the Nodes table has every node's "
			     "pool.</p>\n", POOL_CAP, np);
	kp_sb_adds(out, "<div id=\"chart-cluster\">\n");
	if (np > 1)
		pool_row(out, d, NULL, nn, vb, va);
	for (size_t p = 0; p < np && p < POOL_CAP; p++)
		pool_row(out, d, &g[p], nn, vb, va);
	kp_sb_adds(out, "</div></figure>\n");
done:
	kp_free(g);
	kp_free(vb);
	kp_free(va);
}

/* ---- chart-rebalance ---- */

static int res_index(const chart_data *d, const char *res)
{
	for (int k = 0; k < d->nres; k++)
		if (!strcmp(d->res_name[k], res))
			return k;
	return -1;
}

static void rebalance_row(kp_sb *out, const chart_data *d, size_t first, size_t count, int y, int x0, int cw)
{
	const kp_rtable *t = d->rbn;
	int cn = kp_rtable_col(t, "node"), cr = kp_rtable_col(t, "resource"), cf = kp_rtable_col(t, "freed"),
	    co = kp_rtable_col(t, "moves_out"), ci = kp_rtable_col(t, "moves_in"),
	    cb = kp_rtable_col(t, "percent_before"), ca = kp_rtable_col(t, "percent_after");
	const char *name = text_cell(t, first, cn);
	int freed = kp_rcell_num(kp_rtable_cell(t, first, cf)) != 0;
	double mo = kp_rcell_num(kp_rtable_cell(t, first, co)), mi = kp_rcell_num(kp_rtable_cell(t, first, ci));
	kp_sb_adds(out, "<g class=\"rnode\" data-node=\"");
	kp_html_esc(out, name);
	kp_sb_printf(out, "\" data-freed=\"%d\"><title>", freed);
	kp_html_esc(out, name);
	kp_sb_printf(out, "%s, %.0f pods out, %.0f in; before the moves \xe2\x86\x92 after:", freed ? " (freed)" : "", mo, mi);
	for (size_t r = first; r < first + count; r++) {
		if (res_index(d, text_cell(t, r, cr)) < 0)
			continue;
		kp_sb_adds(out, " ");
		kp_html_esc(out, text_cell(t, r, cr));
		kp_sb_printf(out, " %.1f%% \xe2\x86\x92 %.1f%%;", kp_rcell_num(kp_rtable_cell(t, r, cb)),
			     kp_rcell_num(kp_rtable_cell(t, r, ca)));
	}
	kp_sb_printf(out, "</title><text x=\"150\" y=\"%d\" text-anchor=\"end\">", y + 14);
	kp_html_esc_trunc(out, name, 22);
	kp_sb_adds(out, "</text>");
	if (freed)
		kp_sb_printf(out, "<rect class=\"tag\" x=\"156\" y=\"%d\" width=\"38\" height=\"15\" rx=\"3\" fill=\"#b00020\"/>"
			     "<text x=\"175\" y=\"%d\" text-anchor=\"middle\" style=\"fill:#fff\">freed</text>", y + 3, y + 14);
	kp_sb_printf(out, "<text x=\"%d\" y=\"%d\">\xe2\x88\x92%.0f +%.0f</text>", freed ? 198 : 156, y + 14, mo, mi);
	for (size_t r = first; r < first + count; r++) {
		int k = res_index(d, text_cell(t, r, cr));
		if (k < 0)
			continue;
		double pb = kp_rcell_num(kp_rtable_cell(t, r, cb)), pa = kp_rcell_num(kp_rtable_cell(t, r, ca));
		double wb = pb > 100 ? 100 : pb < 0 ? 0 : pb, wa = pa > 100 ? 100 : pa < 0 ? 0 : pa;
		int x = x0 + k * cw, tw = cw - 16;
		kp_sb_printf(out, "<rect class=\"bar before\" data-pct=\"%.1f\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"7\"/>"
			     "<rect class=\"bar after\" data-pct=\"%.1f\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"7\" "
			     "fill=\"%s\"/>", pb, x, y + 3, tw * wb / 100, pa, x, y + 11, tw * wa / 100, kp_html_palette[k]);
	}
	kp_sb_adds(out, "</g>\n");
}

/* a rebalance run: each node the moves touch, before and after them */
void chart_rebalance(kp_sb *out, const chart_data *d)
{
	const kp_rtable *t = d->rbn;
	if (!t)
		return;
	int cn = kp_rtable_col(t, "node"), cf = kp_rtable_col(t, "freed");
	size_t groups = 0, freed = 0;
	for (size_t i = 0; i < t->nrows; i++)
		if (!i || strcmp(text_cell(t, i, cn), text_cell(t, i - 1, cn))) {
			groups++;
			freed += kp_rcell_num(kp_rtable_cell(t, i, cf)) != 0;
		}
	size_t shown = groups < REBAL_CAP ? groups : REBAL_CAP;
	const int x0 = 240, cw = 120, top = 26, rowh = 22;
	int w = x0 + (d->nres ? d->nres : 1) * cw, h = top + (int)(shown ? shown : 1) * rowh + 6;
	kp_sb_printf(out, "<figure><figcaption>Rebalance: the %zu nodes the moves touch, %zu freed</figcaption>\n",
		     groups, freed);
	kp_sb_adds(out, "<p class=\"note\">Per node and resource, the requested share of allocatable before the moves "
		   "(grey, upper bar) and after them (colour, lower bar): percent_before and percent_after in Rebalance: "
		   "nodes. Freed: the node's app pods all leave (what stays are DaemonSet and static pods); "
		   "\xe2\x88\x92out +in: the pods that leave and arrive. Freed nodes first.</p>\n");
	if (shown < groups)
		kp_sb_printf(out, "<p class=\"note\">Showing the first %zu of %zu nodes; the table Rebalance: nodes, csv "
			     "and json have them all.</p>\n", shown, groups);
	kp_sb_printf(out, "<div class=\"chart\"><svg id=\"chart-rebalance\" viewBox=\"0 0 %d %d\" style=\"min-width:%dpx;"
		     "max-width:%dpx\" role=\"img\" aria-label=\"nodes before and after the moves\" "
		     "xmlns=\"http://www.w3.org/2000/svg\">\n", w, h, w, w * 3 / 2);
	for (int k = 0; k < d->nres; k++) {
		kp_sb_printf(out, "<rect class=\"track\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", x0 + k * cw, top,
			     cw - 16, (int)shown * rowh);
		kp_sb_printf(out, "<text x=\"%d\" y=\"%d\" style=\"font-weight:600\">", x0 + k * cw, top - 8);
		kp_html_esc_trunc(out, d->res_name[k], 14);
		kp_sb_adds(out, "</text>");
	}
	kp_sb_addc(out, '\n');
	if (!groups)
		kp_sb_printf(out, "<text x=\"10\" y=\"%d\">No move.</text>\n", top + 14);
	size_t i = 0;
	for (size_t s = 0; s < shown; s++) {
		size_t first = i;
		while (i < t->nrows && !strcmp(text_cell(t, i, cn), text_cell(t, first, cn)))
			i++;
		rebalance_row(out, d, first, i - first, top + (int)s * rowh, x0, cw);
	}
	kp_sb_adds(out, "</svg></div></figure>\n");
}

/* utilisation after the plan, one row of bars per node, the most loaded first */
void chart_util(kp_sb *out, const chart_data *d)
{
	const int x0 = label_width(d), pw = 300, bh = d->nshown > 40 ? 4 : 7, w = x0 + pw + 20;
	int rowh = d->nres * (bh + 1) + 8, top = 24;
	int h = top + (int)d->nshown * rowh + 10;
	int nn = kp_rtable_col(d->nodes, "node");
	kp_sb_adds(out, "<figure><figcaption>Utilisation per node after the plan</figcaption>\n");
	kp_sb_adds(out, "<p class=\"note\">Requested share of allocatable, one bar per resource; the black tick is "
		   "before the plan. Nodes by load, most loaded first.</p>\n");
	cap_note(out, d);
	legend(out, d);
	svg_open(out, "chart-util", w, h, "utilisation per node");
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
		kp_html_esc(out, name);
		kp_sb_printf(out, "\"><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", x0 - 6, y + rowh / 2 + 3);
		kp_html_esc_trunc(out, name, 26);
		kp_sb_adds(out, "<title>");
		kp_html_esc(out, name);
		kp_sb_adds(out, "</title></text>");
		for (int k = 0; k < d->nres; k++) {
			long u = usage_row(d, i, d->res_name[k]);
			if (u < 0)
				continue;
			double pa = usage_pct(d, u, "percent_after"), pb = usage_pct(d, u, "percent_before");
			double w = pa > 100 ? 100 : pa < 0 ? 0 : pa, wb = pb > 100 ? 100 : pb < 0 ? 0 : pb;
			int by = y + 4 + k * (bh + 1);
			kp_sb_printf(out, "<rect class=\"bar%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
				     "<title>", pa > 100 ? " over" : "", x0, by, pw * w / 100, bh, kp_html_palette[k]);
			kp_html_esc(out, name);
			kp_sb_adds(out, " ");
			kp_html_esc(out, d->res_name[k]);
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

void chart_heat(kp_sb *out, const chart_data *d)
{
	const int x0 = label_width(d), top = 34, rowh = 16;
	int cw = d->nres ? 560 / d->nres : 560;
	if (cw > 75)
		cw = 75;
	int w = x0 + (d->nres ? d->nres : 1) * cw + 8;
	int h = top + (int)d->nshown * rowh + 8, labels = d->nshown <= 60;
	int nn = kp_rtable_col(d->nodes, "node");
	kp_sb_adds(out, "<figure><figcaption>Node \xc3\x97 resource heat map (after the plan)</figcaption>\n");
	cap_note(out, d);
	svg_open(out, "chart-heat", w, h, "heat map");
	for (int k = 0; k < d->nres; k++) {
		kp_sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x0 + k * cw + cw / 2, top - 10);
		kp_html_esc_trunc(out, d->res_name[k], (size_t)(cw / 7));
		kp_sb_adds(out, "</text>");
	}
	kp_sb_addc(out, '\n');
	for (size_t s = 0; s < d->nshown; s++) {
		size_t i = d->order[s];
		const char *name = text_cell(d->nodes, i, nn);
		int y = top + (int)s * rowh;
		kp_sb_adds(out, "<g class=\"row\" data-node=\"");
		kp_html_esc(out, name);
		kp_sb_printf(out, "\"><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", x0 - 6, y + 12);
		kp_html_esc_trunc(out, name, 26);
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
			kp_html_esc(out, name);
			kp_sb_adds(out, " ");
			kp_html_esc(out, d->res_name[k]);
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
void chart_dist(kp_sb *out, const chart_data *d)
{
	const int ph = 170, bw = 32;
	kp_sb_adds(out, "<figure><figcaption>Node utilisation before and after the plan</figcaption>\n");
	kp_sb_adds(out, "<p class=\"note\">Per resource, the number of nodes in each 10% band of requested "
		   "allocatable (percent_before and percent_after of every node_usage row).</p>\n");
	legend_html(out, "background:#c3c8d1", "after (resource colour)");
	kp_sb_adds(out, "<div id=\"chart-dist\" class=\"panels wide\">\n");
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
		int px = 10, py = 0, base = py + ph - 36, hh = ph - 70;
		kp_sb_printf(out, "<svg class=\"panel\" viewBox=\"0 0 380 %d\" role=\"img\" aria-label=\"utilisation "
			     "distribution\" xmlns=\"http://www.w3.org/2000/svg\">", ph);
		kp_sb_adds(out, "<g class=\"panel\" data-resource=\"");
		kp_html_esc(out, d->res_name[k]);
		kp_sb_printf(out, "\"><text x=\"%d\" y=\"%d\" style=\"font-weight:600\">", px, py + 14);
		kp_html_esc(out, d->res_name[k]);
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
				     after[b], x + bw / 2, base - ha, bw / 2 - 1, ha, kp_html_palette[k], b * 10,
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
		kp_sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">100%%</text></g></svg>\n",
			     px + 10 * (bw + 3), base + 14);
	}
	kp_sb_adds(out, "</div></figure>\n");
}

