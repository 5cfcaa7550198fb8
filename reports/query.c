/*
 * query.c — `kplan query`'s result sets (query.h): the rows of a statement,
 * read as text (a blob as x'hex'), and rendered as a table (columns padded
 * to their widest cell, numbers right-aligned), CSV, JSON (an array of
 * objects, numbers as numbers) or Markdown.
 */
#include "query.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

void kp_report_rows_release(kp_report_rows *r)
{
	for (int i = 0; i < r->ncols && r->names; i++)
		kp_free(r->names[i]);
	for (size_t i = 0; i < r->nrows * (size_t)r->ncols; i++)
		kp_free(r->cells[i]);
	kp_free(r->names);
	kp_free(r->cells);
	kp_free(r->types);
	memset(r, 0, sizeof *r);
}

static char *hex_blob(const unsigned char *b, int n)
{
	char *s = kp_malloc((size_t)n * 2 + 4);   /* x' hex ' NUL */
	if (!s)
		return NULL;
	s[0] = 'x';
	s[1] = '\'';
	for (int i = 0; i < n; i++)
		snprintf(s + 2 + 2 * i, 3, "%02x", b[i]);
	strcpy(s + 2 + 2 * n, "'");
	return s;
}

int kp_report_rows_read(sqlite3 *db, sqlite3_stmt *s, kp_report_rows *r, kp_err *err)
{
	int nc = sqlite3_column_count(s);
	r->ncols = nc;
	r->names = kp_calloc((size_t)(nc ? nc : 1), sizeof *r->names);
	if (!r->names)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	for (int j = 0; j < nc; j++)
		if (!(r->names[j] = kp_strdup(sqlite3_column_name(s, j))))
			return kp_err_set(err, KP_NOMEM, "out of memory");
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (!nc)
			continue;
		if (r->nrows == r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 64;
			char **cells = kp_realloc(r->cells, cap * (size_t)nc * sizeof *cells);
			if (!cells)
				return kp_err_set(err, KP_NOMEM, "out of memory");
			r->cells = cells;
			int *types = kp_realloc(r->types, cap * (size_t)nc * sizeof *types);
			if (!types)
				return kp_err_set(err, KP_NOMEM, "out of memory");
			r->types = types;
			r->cap = cap;
		}
		for (int j = 0; j < nc; j++) {
			size_t k = r->nrows * (size_t)nc + (size_t)j;
			int t = sqlite3_column_type(s, j);
			r->types[k] = t;
			r->cells[k] = NULL;
			if (t == SQLITE_NULL)
				continue;
			if (t == SQLITE_BLOB)
				r->cells[k] = hex_blob(sqlite3_column_blob(s, j), sqlite3_column_bytes(s, j));
			else
				r->cells[k] = kp_strdup((const char *)sqlite3_column_text(s, j));
			if (!r->cells[k])
				return kp_err_set(err, KP_NOMEM, "out of memory");
		}
		r->nrows++;
	}
	if (rc != SQLITE_DONE)
		return kp_err_set(err, rc == SQLITE_BUSY ? KP_BUSY : KP_ERROR, "%s", sqlite3_errmsg(db));
	return KP_OK;
}

/* ---- rendering ---- */

static size_t utf8_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void add_md(kp_sb *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			kp_sb_adds(out, "\\|");
		else if (*s == '\n')
			kp_sb_adds(out, "<br>");
		else
			kp_sb_addc(out, *s);
	}
}

static void render_json(const kp_report_rows *r, int first, kp_sb *out)
{
	size_t nc = (size_t)r->ncols;
	if (!first)
		kp_sb_addc(out, '\n');
	kp_sb_addc(out, '[');
	for (size_t i = 0; i < r->nrows; i++) {
		kp_sb_adds(out, i ? ",\n {" : "{");
		for (size_t j = 0; j < nc; j++) {
			const char *v = r->cells[i * nc + j];
			int t = r->types[i * nc + j];
			if (j)
				kp_sb_addc(out, ',');
			kp_sb_add_json_str(out, r->names[j]);
			kp_sb_addc(out, ':');
			if (!v)
				kp_sb_adds(out, "null");
			else if (t == SQLITE_INTEGER || t == SQLITE_FLOAT)
				kp_sb_adds(out, v);
			else
				kp_sb_add_json_str(out, v);
		}
		kp_sb_addc(out, '}');
	}
	kp_sb_adds(out, "]\n");
}

static void render_csv(const kp_report_rows *r, int header, kp_sb *out)
{
	size_t nc = (size_t)r->ncols;
	if (header) {
		for (size_t j = 0; j < nc; j++) {
			if (j)
				kp_sb_addc(out, ',');
			kp_report_csv_field(out, r->names[j]);
		}
		kp_sb_addc(out, '\n');
	}
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t j = 0; j < nc; j++) {
			if (j)
				kp_sb_addc(out, ',');
			kp_report_csv_field(out, r->cells[i * nc + j]);
		}
		kp_sb_addc(out, '\n');
	}
}

static void render_markdown(const kp_report_rows *r, int header, kp_sb *out)
{
	size_t nc = (size_t)r->ncols;
	if (header) {
		kp_sb_addc(out, '|');
		for (size_t j = 0; j < nc; j++) {
			kp_sb_addc(out, ' ');
			add_md(out, r->names[j]);
			kp_sb_adds(out, " |");
		}
		kp_sb_adds(out, "\n|");
		for (size_t j = 0; j < nc; j++)
			kp_sb_adds(out, "---|");
		kp_sb_addc(out, '\n');
	}
	for (size_t i = 0; i < r->nrows; i++) {
		kp_sb_addc(out, '|');
		for (size_t j = 0; j < nc; j++) {
			kp_sb_addc(out, ' ');
			add_md(out, r->cells[i * nc + j]);
			kp_sb_adds(out, " |");
		}
		kp_sb_addc(out, '\n');
	}
}

/* columns padded to their widest cell, numbers right-aligned */
static int render_table(const kp_report_rows *r, int header, kp_sb *out)
{
	size_t nc = (size_t)r->ncols;
	size_t *w = kp_calloc(nc, sizeof *w);
	if (!w)
		return KP_NOMEM;
	for (size_t j = 0; j < nc; j++)
		w[j] = header ? utf8_width(r->names[j]) : 0;
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t j = 0; j < nc; j++) {
			const char *v = r->cells[i * nc + j];
			size_t x = v ? utf8_width(v) : 0;
			if (x > w[j])
				w[j] = x;
		}
	if (header) {
		for (size_t j = 0; j < nc; j++)
			kp_sb_printf(out, "%s%s%*s", j ? "  " : "", r->names[j],
				     j + 1 < nc ? (int)(w[j] - utf8_width(r->names[j])) : 0, "");
		kp_sb_addc(out, '\n');
		for (size_t j = 0; j < nc; j++) {
			kp_sb_adds(out, j ? "  " : "");
			for (size_t k = 0; k < w[j]; k++)
				kp_sb_addc(out, '-');
		}
		kp_sb_addc(out, '\n');
	}
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t j = 0; j < nc; j++) {
			const char *v = r->cells[i * nc + j];
			int t = r->types[i * nc + j];
			int pad = (int)(w[j] - (v ? utf8_width(v) : 0));
			int num = t == SQLITE_INTEGER || t == SQLITE_FLOAT;
			if (j)
				kp_sb_adds(out, "  ");
			if (num)
				kp_sb_printf(out, "%*s%s", pad, "", v);
			else
				kp_sb_printf(out, "%s%*s", v ? v : "", j + 1 < nc ? pad : 0, "");
		}
		kp_sb_addc(out, '\n');
	}
	kp_free(w);
	return KP_OK;
}

int kp_report_rows_render(const kp_report_rows *r, int fmt, int header, int first, kp_sb *out)
{
	int rc = KP_OK;
	if (fmt == KP_ROWS_JSON)
		render_json(r, first, out);
	else if (fmt == KP_ROWS_CSV)
		render_csv(r, header, out);
	else if (fmt == KP_ROWS_MARKDOWN)
		render_markdown(r, header, out);
	else
		rc = render_table(r, header, out);
	return rc == KP_OK && !kp_sb_ok(out) ? KP_NOMEM : rc;
}
