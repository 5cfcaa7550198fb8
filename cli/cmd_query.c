/*
 * cmd_query.c — `kplan query DB [--format table|csv|json|markdown] SQL|-`:
 * run SQL with every kplan function registered and print the rows (read and
 * rendered by reports/query.c).
 */
#include "cli.h"
#include "../common/db.h"
#include "../common/read.h"
#include "../reports/query.h"

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

/* one result set on stdout */
static int print_rows(const kp_report_rows *r, int fmt, int header, int *first_json, kp_err *err)
{
	kp_sb out;
	kp_sb_init(&out);
	int rc = kp_report_rows_render(r, fmt, header, *first_json, &out);
	if (rc == KP_OK)
		fwrite(kp_sb_str(&out), 1, out.len, stdout);
	else
		kp_err_set(err, KP_NOMEM, "out of memory");
	kp_sb_release(&out);
	*first_json &= fmt != KP_ROWS_JSON;
	return rc;
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
	int fmt = KP_ROWS_TABLE, header = 1, write = 0, c;
	if (kp_cli_wants_help(argc, argv, cmd_query_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "table"))
				fmt = KP_ROWS_TABLE;
			else if (!strcmp(optarg, "csv"))
				fmt = KP_ROWS_CSV;
			else if (!strcmp(optarg, "json"))
				fmt = KP_ROWS_JSON;
			else if (!strcmp(optarg, "markdown"))
				fmt = KP_ROWS_MARKDOWN;
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
		kp_report_rows r = { 0 };
		rc = kp_report_rows_read(db, s, &r, &err);
		if (rc != KP_OK && !write && guard.denied[0]) {   /* VACUUM's ATTACH is asked when it runs */
			err.code = KP_OK;
			rc = refused(&err, nstmt, sqlite3_sql(s), guard.denied);
		}
		if (rc == KP_OK && r.ncols)
			rc = print_rows(&r, fmt, header, &first_json, &err);
		kp_report_rows_release(&r);
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
