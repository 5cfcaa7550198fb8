/*
 * report.h — `kplan report`: one data model gathered from a run's tables by
 * SQL (nothing is recomputed), and five renderers over it.
 *
 * A report is a list of tables ("sections"), each with a stable id (the JSON
 * key, the CSV section name, the HTML anchor), typed columns with stable keys,
 * and rows of cells read straight from SQLite.  Renderers only format:
 *
 *   kp_report *r;
 *   kp_report_opts o = { .run = 0 };          // 0: the latest run
 *   if (kp_report_build(db, &o, &r, &err) == KP_OK) {
 *           kp_sb out; kp_sb_init(&out);
 *           kp_report_render(r, KP_REPORT_JSON, &out);
 *           ...
 *           kp_report_free(r);
 *   }
 *
 * Units in the tables are kplan's base units (cpu in millicores, memory and
 * storage in bytes, percentages 0..100 with one decimal); csv and json print
 * them raw, text, markdown and html print them for people (7910m, 29.9Gi).
 */
#ifndef KP_REPORT_H
#define KP_REPORT_H

#include <sqlite3.h>
#include "../common/kp.h"

enum { KP_REPORT_TEXT, KP_REPORT_MARKDOWN, KP_REPORT_CSV, KP_REPORT_JSON, KP_REPORT_HTML };

/* how a column's numbers read for people */
enum {
	KP_RU_NONE,      /* text, counts, ids: as they are */
	KP_RU_PCT,       /* 57.1% */
	KP_RU_AMOUNT,    /* an amount of the resource named in column res_col */
	KP_RU_CPU,       /* millicores */
	KP_RU_BYTES,
	KP_RU_SECONDS,
};

enum { KP_RV_NULL, KP_RV_INT, KP_RV_REAL, KP_RV_TEXT };

typedef struct kp_rcell {
	int type;          /* KP_RV_* */
	int64_t i;
	double d;
	const char *s;     /* in the report's arena */
} kp_rcell;

typedef struct kp_rcol {
	const char *key;   /* stable: JSON key, CSV header */
	int unit;          /* KP_RU_* */
	int res_col;       /* KP_RU_AMOUNT: index of the column naming the resource */
} kp_rcol;

typedef struct kp_rtable {
	const char *id;    /* stable: JSON key, CSV section, HTML id */
	const char *title;
	const char *note;  /* one line for people, or NULL */
	int kv;            /* key/value pairs (columns key, value): a JSON object */
	int ncols;
	const kp_rcol *cols;
	size_t nrows, cap;
	kp_rcell *cells;   /* nrows * ncols */
} kp_rtable;

#define KP_REPORT_MAX_TABLES 48   /* run_specs has 38, cmp_specs 5 */

typedef struct kp_report {
	kp_arena arena;
	int compare;               /* 1: --compare run_a run_b */
	int64_t run_a, run_b;      /* run_b == run_a unless compare */
	int no_timing;
	int ntables;
	kp_rtable tables[KP_REPORT_MAX_TABLES];
} kp_report;

typedef struct kp_report_opts {
	int64_t run;         /* 0: the latest */
	int64_t compare_a, compare_b;   /* both > 0: a comparison report */
	int no_timing;       /* leave out start times and durations (stable output) */
	const char *db_name; /* for messages ("no run 7 in 'x.db'"); NULL: "the database" */
	/* may be NULL: called after each section is gathered (done of total) */
	void (*progress)(void *ctx, int done, int total);
	void *progress_ctx;
} kp_report_opts;

/* Gather the report from db (only SELECTs).  A missing run is KP_ERROR with
 * a message naming it.  The caller frees *out with kp_report_free. */
int kp_report_build(sqlite3 *db, const kp_report_opts *o, kp_report **out, kp_err *err);
void kp_report_free(kp_report *r);

/* Append the report in format fmt (KP_REPORT_*) to out; KP_NOMEM when the
 * buffer could not grow. */
int kp_report_render(const kp_report *r, int fmt, kp_sb *out);
int kp_report_text(const kp_report *r, kp_sb *out);
int kp_report_markdown(const kp_report *r, kp_sb *out);
int kp_report_csv(const kp_report *r, kp_sb *out);
/* one CSV field (RFC 4180: quoted when it holds a comma, a quote or a line
 * break; quotes doubled); NULL adds nothing */
void kp_report_csv_field(kp_sb *out, const char *s);
int kp_report_json(const kp_report *r, kp_sb *out);
int kp_report_html(const kp_report *r, kp_sb *out);

/* Helpers the renderers share (model.c). */
const kp_rtable *kp_report_table(const kp_report *r, const char *id);   /* NULL when absent */
int kp_rtable_col(const kp_rtable *t, const char *key);                 /* -1 when absent */
static inline const kp_rcell *kp_rtable_cell(const kp_rtable *t, size_t row, int col)
{
	return &t->cells[row * (size_t)t->ncols + (size_t)col];
}
/* The cell as people read it (unit applied; NULL -> "-"); returns buf. */
const char *kp_report_human(const kp_rtable *t, size_t row, int col, char *buf, size_t size);
/* The cell as machines read it (raw number or text; NULL -> ""); returns buf or the text itself. */
const char *kp_report_raw(const kp_rtable *t, size_t row, int col, char *buf, size_t size);
/* A column's header for people: the key with '_' as ' '; returns buf. */
const char *kp_report_header(const kp_rcol *c, char *buf, size_t size);
/* "run 3" or "runs 1 and 2" etc.: the report's title line, into buf */
const char *kp_report_title(const kp_report *r, char *buf, size_t size);
/* the cell's number (int or real) as a double; 0 for NULL and text */
double kp_rcell_num(const kp_rcell *c);
/* 1 when a column holds numbers (right-aligned, sorted numerically) */
int kp_rtable_numeric(const kp_rtable *t, int col);

#endif
