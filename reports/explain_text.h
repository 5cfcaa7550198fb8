/*
 * explain_text.h — `kplan explain`'s answer as text and as JSON
 * (reports/explain_text.c), from the explain result alone
 * (common/explain_result.h), so that reports/ needs no planner header:
 *
 *   kp_report_explain e = { .x = &x, .ns = "shop", .name = "web-1", .top = x.ex.nnodes,
 *                           .plugins = kp_plugin_names, .nplugins = KP_P_COUNT };
 *   kp_report_explain_text(&e, &out);
 */
#ifndef KP_REPORT_EXPLAIN_TEXT_H
#define KP_REPORT_EXPLAIN_TEXT_H

#include "../common/kp.h"
#include "../common/explain_result.h"

typedef struct kp_report_explain {
	const kp_explain_result *x;  /* what kp_explain_run found */
	const char *ns, *name;       /* the pod as asked */
	int top;                     /* the nodes shown: x->order[0 .. top), at most x->ex.nnodes */
	/* the names of the plugin ids the result's per-plugin arrays are
	 * indexed by (planner/profile.h: kp_plugin_names, KP_P_COUNT) */
	const char *const *plugins;
	int nplugins;
} kp_report_explain;

/* Append the explanation for people: the decision, the spread constraints,
 * each shown node's filter verdict with the numbers behind it, the scores,
 * why the winner won.  KP_OK, or KP_NOMEM when out could not grow. */
int kp_report_explain_text(const kp_report_explain *e, kp_sb *out);
/* The same as one JSON object and a newline (`kplan explain --format json`). */
int kp_report_explain_json(const kp_report_explain *e, kp_sb *out);

#endif
