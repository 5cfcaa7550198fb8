/*
 * html_gpu.c — the HTML report's GPU fragmentation chart (html.c; the
 * sections gpu and gpu_nodes, docs/reports.md "GPU fragmentation"):
 *
 *   chart-gpu   every node of gpu_nodes, ranked by frag_milli (most first,
 *               then free_milli, then name): three step areas over the
 *               ranking, <path class="area milli|free|frag" data-n=NODES
 *               data-samples=STEPS>: the node's GPU milli (grey), its free
 *               milli (blue) and of that the fragmented milli (red); up to
 *               TIP_CAP nodes one transparent <rect class="gnode"> each,
 *               whose <title> gives the row's numbers
 *
 * Every number drawn is a cell of gpu_nodes; the caption's totals are the
 * cells of gpu.  Over SAMPLE_CAP nodes a path has SAMPLE_CAP steps, each the
 * node in the middle of its share of the ranking (as chart-cluster).
 */
#include "html.h"

#include <string.h>

#define SAMPLE_CAP 1500
#define TIP_CAP 300
#define X0 56
#define PW 680
#define Y0 16
#define PH 190

typedef struct gnode {
	double milli, free_, frag;
	const char *name;
	size_t row;
} gnode;

static int cmp_frag(const void *a, const void *b, void *ctx)
{
	const gnode *x = a, *y = b;
	(void)ctx;
	if (x->frag != y->frag)
		return x->frag > y->frag ? -1 : 1;
	if (x->free_ != y->free_)
		return x->free_ > y->free_ ? -1 : 1;
	return strcmp(x->name, y->name);
}

static double num(const kp_rtable *t, size_t row, const char *col)
{
	int c = kp_rtable_col(t, col);
	return c < 0 ? 0 : kp_rcell_num(kp_rtable_cell(t, row, c));
}

static const char *text(const kp_rtable *t, size_t row, const char *col)
{
	int c = kp_rtable_col(t, col);
	const kp_rcell *v = c < 0 ? NULL : kp_rtable_cell(t, row, c);
	return v && v->type == KP_RV_TEXT ? v->s : "";
}

static double gy(double v, double max)
{
	return Y0 + PH - PH * (v < 0 ? 0 : v > max ? max : v) / max;
}

/* one step area over the ranking: field 0 milli, 1 free, 2 frag */
static void area(kp_sb *out, const gnode *g, size_t n, int field, double max)
{
	static const char *const cls[] = { "milli", "free", "frag" }, *const fill[] = { "#dfe3ea", "#4e79a7", "#e15759" };
	size_t s = n < SAMPLE_CAP ? n : SAMPLE_CAP;
	kp_sb_printf(out, "<path class=\"area %s\" data-n=\"%zu\" data-samples=\"%zu\" fill=\"%s\" d=\"M%d %d", cls[field], n,
		     s, fill[field], X0, Y0 + PH);
	for (size_t j = 0; j < s; j++) {
		size_t k = n <= SAMPLE_CAP ? j : (size_t)(((double)j + 0.5) * (double)n / (double)s);
		double v = field == 0 ? g[k].milli : field == 1 ? g[k].free_ : g[k].frag;
		kp_sb_printf(out, "V%.1fH%.2f", gy(v, max), X0 + (double)PW * (double)(j + 1) / (double)s);
	}
	kp_sb_printf(out, "V%dZ\"/>\n", Y0 + PH);
}

/* the y axis in GPUs (1000 milli), a line every step GPUs */
static void axis(kp_sb *out, double max)
{
	int gpus = (int)(max / 1000), step = gpus <= 8 ? 1 : gpus <= 16 ? 2 : gpus <= 40 ? 5 : 10;
	for (int k = 0; k <= gpus; k += step) {
		double y = gy(k * 1000.0, max);
		kp_sb_printf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			     "text-anchor=\"end\">%d</text>", X0, y, X0 + PW, y, X0 - 4, y + 4, k);
	}
	kp_sb_printf(out, "<text x=\"4\" y=\"%d\" transform=\"rotate(-90 12 %d)\">GPUs</text>\n", Y0 + PH / 2, Y0 + PH / 2);
}

/* the transparent hover boxes, one per node, the row's numbers in <title> */
static void tips(kp_sb *out, const kp_rtable *t, const gnode *g, size_t n, double max)
{
	double w = (double)PW / (double)n;
	for (size_t j = 0; j < n; j++) {
		size_t r = g[j].row;
		kp_sb_adds(out, "<rect class=\"gnode\" data-node=\"");
		kp_html_esc(out, g[j].name);
		kp_sb_printf(out, "\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"transparent\"><title>",
			     X0 + w * (double)j, gy(g[j].milli, max), w, Y0 + PH - gy(g[j].milli, max));
		kp_html_esc(out, g[j].name);
		kp_sb_printf(out, ": %.0f GPUs, free %.0f of %.0f milli, fragmented %.2f; free per GPU ", num(t, r, "gpus"),
			     g[j].free_, g[j].milli, g[j].frag);
		kp_html_esc(out, text(t, r, "free_list"));
		kp_sb_adds(out, "</title></rect>");
	}
	kp_sb_addc(out, '\n');
}

/* the value of key in the section gpu (raw), "-" when absent */
static void gpu_value(kp_sb *out, const kp_rtable *s, const char *key)
{
	char buf[64];
	for (size_t i = 0; s && i < s->nrows; i++) {
		const kp_rcell *k = kp_rtable_cell(s, i, 0);
		if (k->type == KP_RV_TEXT && !strcmp(k->s, key)) {
			kp_html_esc(out, kp_report_raw(s, i, 1, buf, sizeof buf));
			return;
		}
	}
	kp_sb_adds(out, "-");
}

static void caption(kp_sb *out, const kp_report *r, size_t n)
{
	const kp_rtable *s = kp_report_table(r, "gpu");
	kp_sb_printf(out, "<figure><figcaption>GPU fragmentation per node</figcaption>\n<p class=\"note\">The %zu nodes "
		     "with GPUs (gpu_nodes), ranked by fragmented GPU milli, the most first. Per node: its GPUs (grey, "
		     "milli), the free milli (blue, free_milli) and of that the fragmented milli (red, frag_milli: the "
		     "free milli the typical pod shapes cannot use, weighted). In all: ", n);
	gpu_value(out, s, "free_milli");
	kp_sb_adds(out, " milli free, ");
	gpu_value(out, s, "frag_milli");
	kp_sb_adds(out, " fragmented (");
	gpu_value(out, s, "frag_pct");
	kp_sb_adds(out, "% of the free milli; section GPU fragmentation).");
	if (n > SAMPLE_CAP)
		kp_sb_printf(out, " Over %d nodes each area is drawn as %d steps, each the node in the middle of its "
			     "1/%d of the ranking.", SAMPLE_CAP, SAMPLE_CAP, SAMPLE_CAP);
	kp_sb_adds(out, "</p>\n<p class=\"legend\"><span class=\"sw\" style=\"background:#dfe3ea\"></span>GPUs"
		   "<span class=\"sw\" style=\"background:#4e79a7\"></span>free"
		   "<span class=\"sw\" style=\"background:#e15759\"></span>fragmented</p>\n");
}

void chart_gpu(kp_sb *out, const kp_report *r)
{
	const kp_rtable *t = kp_report_table(r, "gpu_nodes");
	if (!t || !t->nrows)
		return;
	size_t n = t->nrows;
	gnode *g = kp_calloc(n, sizeof *g);
	if (!g) {
		out->failed = 1;
		return;
	}
	double max = 1000;
	for (size_t i = 0; i < n; i++) {
		g[i] = (gnode){ num(t, i, "milli"), num(t, i, "free_milli"), num(t, i, "frag_milli"), text(t, i, "node"), i };
		if (g[i].milli > max)
			max = g[i].milli;
	}
	kp_sort(g, n, sizeof *g, cmp_frag, NULL);
	caption(out, r, n);
	int w = X0 + PW + 14, h = Y0 + PH + 24;
	kp_sb_printf(out, "<div class=\"chart\"><svg id=\"chart-gpu\" class=\"chart-gpu\" viewBox=\"0 0 %d %d\" "
		     "role=\"img\" aria-label=\"GPU fragmentation per node\" xmlns=\"http://www.w3.org/2000/svg\">\n", w, h);
	axis(out, max);
	for (int f = 0; f < 3; f++)
		area(out, g, n, f, max);
	if (n <= TIP_CAP)
		tips(out, t, g, n, max);
	kp_sb_printf(out, "<text x=\"%d\" y=\"%d\">most fragmented</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">"
		     "least fragmented (%zu node%s)</text>\n", X0, h - 6, X0 + PW, h - 6, n, n == 1 ? "" : "s");
	kp_sb_adds(out, "</svg></div></figure>\n");
	kp_free(g);
}
