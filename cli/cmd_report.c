/*
 * cmd_report.c — `kplan report DB [--run N] [--format FMT] [-o FILE]
 * [--compare RUN_A RUN_B]`: a run (or two) as text, Markdown, CSV, JSON or a
 * self-contained HTML page (reports/).  The database is opened read-only.
 */
#include "cli.h"
#include "../common/db.h"
#include "../reports/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char cmd_report_help[] =
	"usage: kplan report [options] DB\n"
	"\n"
	"Report on run N of DB (default: the latest): summary, unschedulable pods grouped\n"
	"by reason, utilisation of every node and resource before and after the plan,\n"
	"most and least loaded nodes, zone, namespace and workload totals, preemptions\n"
	"and moves.  With --compare, what changed between two runs instead.  Everything\n"
	"is read from the tables 'plan' wrote; the database is opened read-only.\n"
	"\n"
	"Options:\n"
	"  --run N                  the run to report on (default: the latest)\n"
	"  --format FMT             text (default), markdown, csv, json or html\n"
	"  -o, --output FILE        write to FILE instead of standard output\n"
	"  --compare RUN_A RUN_B    pods placed differently, utilisation deltas\n"
	"  --no-timing              leave out start times and durations (stable output)\n"
	"  -q, --quiet              no summary line when writing a file, no progress line\n"
	"  -h, --help               this help\n"
	"\n"
	"Examples:\n"
	"  kplan report cluster.db\n"
	"  kplan report --format html -o report.html cluster.db\n"
	"  kplan report --compare 1 2 --format markdown cluster.db\n";

static const char *const formats[] = { "text", "markdown", "csv", "json", "html" };

static int parse_run(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (!*s || *end || errno || v <= 0)
		return -1;
	*out = v;
	return 0;
}

/* --opt VALUE or --opt=VALUE; NULL (after a usage message) when missing */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (!strncmp(a, name, n) && a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static int matches(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

/* the progress line on a terminal: sections gathered of all */
static void progress(void *ctx, int done, int total)
{
	kp_progress_count(ctx, "report: read", done, total, "sections");
}

static int write_file(const char *path, const kp_sb *sb, kp_err *err)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return kp_err_set(err, KP_IO, "cannot write '%s': %s", path, strerror(errno));
	size_t n = fwrite(kp_sb_str(sb), 1, sb->len, f);
	int bad = n != sb->len || ferror(f);
	int e = errno;
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		remove(path);
		return kp_err_set(err, KP_IO, "cannot write '%s': %s", path, strerror(e));
	}
	return KP_OK;
}

int cmd_report(int argc, char **argv)
{
	kp_report_opts o = { 0 };
	const char *path = NULL, *output = NULL, *v;
	int fmt = KP_REPORT_TEXT, quiet = 0, have_run = 0;
	if (kp_cli_wants_help(argc, argv, cmd_report_help))
		return KP_EXIT_OK;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++) {
				if (path)
					return kp_cli_usage("report", "too many arguments: '%s'", argv[i]);
				path = argv[i];
			}
			break;
		}
		if (matches(a, "--run")) {
			if (!(v = opt_value(argc, argv, &i, "--run")))
				return kp_cli_usage("report", "--run needs a run id");
			if (parse_run(v, &o.run))
				return kp_cli_usage("report", "--run needs a run id, got '%s'", v);
			have_run = 1;
		} else if (matches(a, "--format")) {
			if (!(v = opt_value(argc, argv, &i, "--format")))
				return kp_cli_usage("report", "--format needs a format");
			fmt = -1;
			for (int k = 0; k < (int)(sizeof formats / sizeof *formats); k++)
				if (!strcmp(v, formats[k]))
					fmt = k;
			if (fmt < 0)
				return kp_cli_usage("report", "unknown format '%s' (want text, markdown, csv, json or html)", v);
		} else if (!strcmp(a, "-o") || matches(a, "--output")) {
			if (!(v = opt_value(argc, argv, &i, "--output")) || !*v)
				return kp_cli_usage("report", "%s needs a file name", a);
			output = v;
		} else if (!strncmp(a, "-o", 2) && a[2]) {
			output = a + 2;
		} else if (!strcmp(a, "--compare")) {
			if (i + 2 >= argc)
				return kp_cli_usage("report", "--compare needs two run ids");
			if (parse_run(argv[i + 1], &o.compare_a) || parse_run(argv[i + 2], &o.compare_b))
				return kp_cli_usage("report", "--compare needs two run ids, got '%s' and '%s'", argv[i + 1],
						    argv[i + 2]);
			i += 2;
		} else if (!strcmp(a, "--no-timing")) {
			o.no_timing = 1;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return kp_cli_unknown_option("report", a);
		} else if (path) {
			return kp_cli_usage("report", "too many arguments: '%s'", a);
		} else {
			path = a;
		}
	}
	if (!path)
		return kp_cli_usage("report", "missing DB");
	if (have_run && o.compare_a)
		return kp_cli_usage("report", "--run and --compare do not go together");
	if (output && !strcmp(output, "-"))
		output = NULL;

	o.db_name = path;
	kp_err err = { 0 };
	sqlite3 *db;
	if (cli_db_open(path, KP_DB_READONLY, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_cli_on_interrupt(db);
	kp_progress pr;
	kp_progress_init(&pr, quiet);
	if (pr.on) {
		o.progress = progress;
		o.progress_ctx = &pr;
	}
	kp_report *r = NULL;
	int rc = kp_report_build(db, &o, &r, &err);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	if (rc != KP_OK) {
		kp_progress_clear(&pr);
		return kp_cli_fail(&err);
	}
	if (pr.drawn)
		kp_progress_show(&pr, "report: rendering %s", formats[fmt]);
	kp_sb sb;
	kp_sb_init(&sb);
	rc = kp_report_render(r, fmt, &sb);
	kp_progress_clear(&pr);
	if (rc != KP_OK) {
		kp_err_set(&err, KP_NOMEM, "out of memory rendering the report");
	} else if (output) {
		rc = write_file(output, &sb, &err);
		if (rc == KP_OK && !quiet) {
			if (r->compare)
				printf("report of runs %lld and %lld (%s) written to %s: %zu bytes\n", (long long)r->run_a,
				       (long long)r->run_b, formats[fmt], output, sb.len);
			else
				printf("report of run %lld (%s) written to %s: %zu bytes\n", (long long)r->run_a,
				       formats[fmt], output, sb.len);
		}
	} else {
		fwrite(kp_sb_str(&sb), 1, sb.len, stdout);
	}
	kp_sb_release(&sb);
	kp_report_free(r);
	return rc == KP_OK ? KP_EXIT_OK : kp_cli_fail(&err);
}
