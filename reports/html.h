/*
 * html.h — what the HTML page (html.c) and its charts (html_charts.c) share;
 * not part of report.h.
 */
#ifndef KP_REPORT_HTML_H
#define KP_REPORT_HTML_H

#include "report.h"

#define RES_CAP 10

extern const char *const kp_html_palette[RES_CAP];

/* s HTML-escaped (& < > " '); at most max characters, then an ellipsis */
void kp_html_esc(kp_sb *out, const char *s);
void kp_html_esc_trunc(kp_sb *out, const char *s, size_t max);

/* the tables the charts read, and indexes over them */
typedef struct chart_data {
	const kp_rtable *res, *nodes, *usage, *reasons;
	const kp_rtable *rbn;        /* rebalance_nodes: a rebalance run only, else NULL */
	const kp_rtable *quality;    /* plan quality per pool, or NULL */
	int nres;
	const char *res_name[RES_CAP];
	size_t *ustart, *ucount;     /* per nodes row: its rows in usage */
	size_t *rstart, *rcount;     /* per nodes row: its rows in rbn (none: not touched by a move) */
	size_t *order;               /* nodes rows by load after, most loaded first */
	size_t nshown;
} chart_data;

/* KP_OK, KP_ERROR when a table is missing (no charts), KP_NOMEM; release it in any case */
int chart_data_init(const kp_report *r, chart_data *d);
void chart_data_release(chart_data *d);

void chart_cluster(kp_sb *out, const chart_data *d);
void chart_rebalance(kp_sb *out, const chart_data *d);
void chart_util(kp_sb *out, const chart_data *d);
void chart_heat(kp_sb *out, const chart_data *d);
void chart_dist(kp_sb *out, const chart_data *d);
/* html_gpu.c: the GPU fragmentation per node (section gpu_nodes), nothing without it */
void chart_gpu(kp_sb *out, const kp_report *r);

#endif
