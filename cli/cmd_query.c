/*
 * cmd_query.c — `kplan query DB [--format table|csv|json|markdown] SQL|-`:
 * run SQL with every kplan function registered and print the rows.
 */
#include "cli.h"
#include "../common/db.h"
#include "../common/read.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>

const char cmd_query_help[] =
	"usage: kplan query [options] DB SQL|-\n"
	"\n"
	"Run SQL (one or more statements; - reads them from standard input) on DB with\n"
	"kplan's SQL functions (kplan_quantity, ...) registered, and print each result.\n"
	"DB is opened read-only: a statement that would change it (INSERT, DELETE,\n"
	"CREATE TABLE, ...) or ATTACH another file is refused before it runs; TEMP\n"
	"tables may be written.  --write opens DB for writing and allows everything.\n"
	"Options may come anywhere; SQL that starts with - (a -- comment) goes after --.\n"
	"\n"
	"Options:\n"
	"  --format FMT   table (default), csv, json or markdown\n"
	"  --no-header    leave out the header row (table, csv, markdown)\n"
	"  --write        allow statements that change DB (one transaction per statement\n"
	"                 unless the SQL has its own BEGIN/COMMIT)\n"
	"  -h, --help     this help\n"
	"\n"
	"Examples:\n"
	"  kplan query cluster.db 'SELECT name, unschedulable FROM node'\n"
	"  kplan query --format json cluster.db \"SELECT kplan_quantity('1.5Gi') AS bytes\"\n";

enum { F_TABLE, F_CSV, F_JSON, F_MARKDOWN };

typedef struct result {
	int ncols;
	char **names;
	char **cells;        /* rows * ncols, NULL = SQL NULL */
	int *types;          /* SQLITE_INTEGER, ... per cell */
	size_t nrows, cap;
} result;

static void result_free(result *r)
{
	for (int i = 0; i < r->ncols; i++)
		kp_free(r->names[i]);
	for (size_t i = 0; i < r->nrows * (size_t)r->ncols; i++)
		kp_free(r->cells[i]);
	kp_free(r->names);
	kp_free(r->cells);
	kp_free(r->types);
	memset(r, 0, sizeof *r);
}

static size_t utf8_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void put_csv(const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void put_md(const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", stdout);
		else if (*s == '\n')
			fputs("<br>", stdout);
		else
			putchar(*s);
	}
}

static void print_result(const result *r, int fmt, int header, int *first_json)
{
	size_t nc = (size_t)r->ncols;
	if (fmt == F_JSON) {
		kp_sb sb;
		kp_sb_init(&sb);
		if (!*first_json)
			kp_sb_addc(&sb, '\n');
		kp_sb_addc(&sb, '[');
		for (size_t i = 0; i < r->nrows; i++) {
			kp_sb_adds(&sb, i ? ",\n {" : "{");
			for (size_t j = 0; j < nc; j++) {
				const char *v = r->cells[i * nc + j];
				int t = r->types[i * nc + j];
				if (j)
					kp_sb_addc(&sb, ',');
				kp_sb_add_json_str(&sb, r->names[j]);
				kp_sb_addc(&sb, ':');
				if (!v)
					kp_sb_adds(&sb, "null");
				else if (t == SQLITE_INTEGER || t == SQLITE_FLOAT)
					kp_sb_adds(&sb, v);
				else
					kp_sb_add_json_str(&sb, v);
			}
			kp_sb_addc(&sb, '}');
		}
		kp_sb_adds(&sb, "]\n");
		fputs(kp_sb_str(&sb), stdout);
		kp_sb_release(&sb);
		*first_json = 0;
		return;
	}
	if (fmt == F_CSV) {
		if (header) {
			for (size_t j = 0; j < nc; j++) {
				if (j)
					putchar(',');
				put_csv(r->names[j]);
			}
			putchar('\n');
		}
		for (size_t i = 0; i < r->nrows; i++) {
			for (size_t j = 0; j < nc; j++) {
				if (j)
					putchar(',');
				put_csv(r->cells[i * nc + j]);
			}
			putchar('\n');
		}
		return;
	}
	if (fmt == F_MARKDOWN) {
		if (header) {
			printf("|");
			for (size_t j = 0; j < nc; j++) {
				putchar(' ');
				put_md(r->names[j]);
				printf(" |");
			}
			printf("\n|");
			for (size_t j = 0; j < nc; j++)
				printf("---|");
			putchar('\n');
		}
		for (size_t i = 0; i < r->nrows; i++) {
			printf("|");
			for (size_t j = 0; j < nc; j++) {
				putchar(' ');
				put_md(r->cells[i * nc + j]);
				printf(" |");
			}
			putchar('\n');
		}
		return;
	}
	/* table: columns padded to their widest cell, numbers right-aligned */
	size_t *w = kp_calloc(nc, sizeof *w);
	if (!w)
		return;
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
			printf("%s%s%*s", j ? "  " : "", r->names[j], j + 1 < nc ? (int)(w[j] - utf8_width(r->names[j])) : 0, "");
		putchar('\n');
		for (size_t j = 0; j < nc; j++) {
			printf("%s", j ? "  " : "");
			for (size_t k = 0; k < w[j]; k++)
				putchar('-');
		}
		putchar('\n');
	}
	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t j = 0; j < nc; j++) {
			const char *v = r->cells[i * nc + j];
			int t = r->types[i * nc + j];
			int pad = (int)(w[j] - (v ? utf8_width(v) : 0));
			int num = t == SQLITE_INTEGER || t == SQLITE_FLOAT;
			if (j)
				fputs("  ", stdout);
			if (num)
				printf("%*s%s", pad, "", v);
			else
				printf("%s%*s", v ? v : "", j + 1 < nc ? pad : 0, "");
		}
		putchar('\n');
	}
	kp_free(w);
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

static int run_stmt(sqlite3 *db, sqlite3_stmt *s, result *r, kp_err *err)
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

/* the SQL of `query DB -`; NULL with err set */
static char *read_stdin(kp_err *err)
{
	kp_read_opts ro = { .name = "<stdin>", .limit = KP_READ_SMALL_LIMIT, .kind = "SQL",
			    .hint = "the most kplan reads as SQL" };
	kp_sb sb;
	kp_sb_init(&sb);
	if (kp_read_stream(stdin, &ro, &sb, err) != KP_OK) {
		kp_sb_release(&sb);
		return NULL;
	}
	if (!sb.buf)
		return kp_strdup("");
	return sb.buf;
}

/* the message for statement n that the read-only guard refused */
static int refused(kp_err *err, int n, const char *sql, const char *denied)
{
	while (sql && (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '\r'))
		sql++;
	if (sql && !sqlite3_strnicmp(sql, "vacuum", 6))
		denied = "vacuum (VACUUM and VACUUM INTO write files)";
	return kp_err_set(err, KP_ERROR, "statement %d would %s: the database is opened read-only (use --write to "
			  "change it)", n, denied);
}

int cmd_query(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "no-header", no_argument, NULL, 'n' },
		{ "write", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int fmt = F_TABLE, header = 1, write = 0, c;
	if (kp_cli_wants_help(argc, argv, cmd_query_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "table"))
				fmt = F_TABLE;
			else if (!strcmp(optarg, "csv"))
				fmt = F_CSV;
			else if (!strcmp(optarg, "json"))
				fmt = F_JSON;
			else if (!strcmp(optarg, "markdown"))
				fmt = F_MARKDOWN;
			else
				return kp_cli_usage("query", "unknown format '%s' (want table, csv, json or markdown)", optarg);
			break;
		case 'n': header = 0; break;
		case 'w': write = 1; break;
		default:
			return kp_cli_bad_option("query", c, argv);
		}
	}
	if (argc - optind != 2)
		return kp_cli_usage("query", argc - optind < 2 ? "missing DB or SQL" : "too many arguments "
			"(quote the SQL as one argument)");
	const char *path = argv[optind];
	kp_err err = { 0 };
	char *sql = strcmp(argv[optind + 1], "-") ? kp_strdup(argv[optind + 1]) : read_stdin(&err);
	if (!sql) {
		kp_err_set(&err, KP_NOMEM, "out of memory reading SQL");
		return kp_cli_fail(&err);
	}
	sqlite3 *db;
	if (cli_db_open(path, write ? 0 : KP_DB_READONLY, &db, NULL, &err) != KP_OK) {
		kp_free(sql);
		return kp_cli_fail(&err);
	}
	kp_cli_on_interrupt(db);
	kp_db_guard guard;
	if (!write)
		kp_db_guard_on(db, &guard, KP_GUARD_QUERY);
	const char *tail = sql;
	int first_json = 1, rc = KP_OK, nstmt = 0;
	while (rc == KP_OK && tail && *tail) {
		sqlite3_stmt *s = NULL;
		const char *next;
		if (sqlite3_prepare_v2(db, tail, -1, &s, &next) != SQLITE_OK) {
			rc = !write && guard.denied[0] ? refused(&err, nstmt + 1, tail, guard.denied)
						       : kp_err_set(&err, KP_ERROR, "%s", sqlite3_errmsg(db));
			break;
		}
		nstmt += s != NULL;
		tail = next;
		if (!s)
			continue;   /* whitespace or a comment */
		result r = { 0 };
		rc = run_stmt(db, s, &r, &err);
		if (rc != KP_OK && !write && guard.denied[0]) {   /* VACUUM's ATTACH is asked when it runs */
			err.code = KP_OK;
			rc = refused(&err, nstmt, sqlite3_sql(s), guard.denied);
		}
		if (rc == KP_OK && r.ncols)
			print_result(&r, fmt, header, &first_json);
		result_free(&r);
		sqlite3_finalize(s);
	}
	kp_free(sql);
	kp_cli_on_interrupt(NULL);
	if (!write)
		kp_db_guard_off(db);
	kp_db_close(db);
	if (rc != KP_OK) {
		kp_err_locate(&err, NULL, 0, 0, NULL);
		return kp_cli_fail(&err);
	}
	return KP_EXIT_OK;
}
