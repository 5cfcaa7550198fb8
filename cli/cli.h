/*
 * cli.h — kplan's command table and what every command shares.
 *
 * Adding a command:
 *  1. write cli/cmd_<verb>.c with `int cmd_<verb>(int argc, char **argv)` and
 *     its help text `extern const char cmd_<verb>_help[]` (usage line first);
 *  2. add one row to `commands[]` in cli/main.c;
 *  3. add it to the README's command list, man/kplan.1 and to the tests in tests/t/.
 * Commands return an exit code (KP_EXIT_*); only main() calls exit().
 */
#ifndef KP_CLI_H
#define KP_CLI_H

#include <stdio.h>
#include "../common/kp.h"

struct sqlite3;

/* kp_db_open, then kplan's SQL functions registered on the connection (the
 * sqlite3 shell's way: whoever opens the database for a command registers
 * them).  A file this call created is removed again when that fails. */
int cli_db_open(const char *path, int flags, struct sqlite3 **db, int *created, kp_err *err);

enum {
	KP_EXIT_OK = 0,
	KP_EXIT_ERROR = 1,          /* bad input, I/O or database error */
	KP_EXIT_UNSCHEDULABLE = 2,  /* plan --fail-on-unschedulable left pods out */
	KP_EXIT_BUSY = 3,           /* database locked by another writer past the wait */
	KP_EXIT_USAGE = 64,         /* bad command line (sysexits EX_USAGE) */
	KP_EXIT_INTERRUPTED = 130,  /* SIGINT/SIGTERM; work rolled back */
};

typedef struct kp_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
	const char *summary;
} kp_command;

int cmd_init(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_shell(int argc, char **argv);
extern const char cmd_shell_help[];
int cmd_report(int argc, char **argv);
int cmd_capacity(int argc, char **argv);
extern const char cmd_capacity_help[];
int cmd_fix(int argc, char **argv);
extern const char cmd_fix_help[];
int cmd_settings(int argc, char **argv);
extern const char cmd_settings_help[];
/* --kube-version's value checked for command cmd: KP_EXIT_OK, or the usage error */
int kp_cli_kube_version_arg(const char *cmd, const char *arg);
/* ,"kube_version":"...","feature_gates":"..." for run.options (what was given) */
void kp_cli_kube_options_json(const char *version, const char *gates, kp_sb *sb);
extern const char cmd_init_help[], cmd_import_help[], cmd_query_help[], cmd_plan_help[], cmd_explain_help[];
extern const char cmd_report_help[];

/* Print "kplan: <formatted error>" to stderr and return the exit code for it. */
int kp_cli_fail(const kp_err *err);
/* Usage error: "kplan <cmd>: msg" + "see 'kplan <cmd> --help'"; returns KP_EXIT_USAGE. */
int kp_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The usage error for what getopt_long returned as c ('?' or, with an
 * optstring starting with ':' after any '+', ':' for a missing value):
 * "option '--x' needs a value", "option '--quiet' takes no value" (--quiet=1),
 * "unknown option '-z'", "unknown option '--sed'; did you mean '--seed'?" (the
 * closest long option cmd's help names) or "option '--s' is ambiguous".
 * Returns KP_EXIT_USAGE. */
int kp_cli_bad_option(const char *cmd, int c, char **argv);
/* The same for an argument a that is not one of cmd's options ("--x=v" too). */
int kp_cli_unknown_option(const char *cmd, const char *a);
/* "did you mean" (cli/suggest.c; the closest name: kp_closest in
 * common/suggest.h): the long options (without "--") a help text names in
 * its usage lines and at the start of its option lines, how many. */
enum { KP_CLI_OPTNAME = 48 };
size_t kp_cli_help_options(const char *help, char (*names)[KP_CLI_OPTNAME], size_t max);
/* 1 when argv has -h/--help before a "--"; prints help to stdout. */
int kp_cli_wants_help(int argc, char **argv, const char *help);
/* Exit code for a KP_* code. */
int kp_cli_exit_code(int code);
/* 1 when stderr is a terminal and --quiet was not given */
int kp_cli_progress_enabled(int quiet);
double kp_cli_now(void);

/* The progress line of long work (cli/progress.c), on stderr when
 * kp_cli_progress_enabled(quiet): redrawn in place at most 10 times a second,
 * "kplan: planned 52,000 of 150,000 pods (48,000 pods/s, ETA 2 s)".  The rate
 * counts from the first sample.  Clear it before printing anything else. */
typedef struct kp_progress {
	int on;              /* stderr is a terminal and not --quiet */
	int drawn;           /* a line is on the screen */
	int started;         /* the first sample was taken */
	double t0, d0;       /* time and amount of the first sample */
	double last;         /* when the last line was drawn */
} kp_progress;
void kp_progress_init(kp_progress *p, int quiet);
/* the next sample is a first one again (a new phase with its own rate) */
void kp_progress_restart(kp_progress *p);
/* Take a sample; 1 when a line is due (on, 0.05 s of samples, 0.1 s since the last line). */
int kp_progress_due(kp_progress *p, double done);
/* "(48,000 pods/s, ETA 2 s)" for done of total (total <= 0: unknown, no ETA);
 * unit "MB": done and total are bytes, shown in megabytes with one decimal. */
const char *kp_progress_rate(const kp_progress *p, double done, double total, const char *unit, char *buf,
			     size_t size);
/* Draw "\rkplan: TEXT" and clear the rest of the line (nothing when off). */
void kp_progress_show(kp_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* When due: "kplan: VERB DONE of TOTAL UNIT (RATE UNIT/s, ETA T)" (no "of TOTAL" when total <= 0). */
void kp_progress_count(kp_progress *p, const char *verb, double done, double total, const char *unit);
/* Erase the line if one is drawn ("\r\033[K"). */
void kp_progress_clear(kp_progress *p);
/* 52000 -> "52,000"; seconds -> "2 s", "1 min 05 s", "2 h 05 min" ("?" past 100 h). */
char *kp_fmt_count(double v, char *buf, size_t size);
char *kp_fmt_eta(double seconds, char *buf, size_t size);
/* SIGINT/SIGTERM set kp_interrupted and interrupt the statement running on db
 * (NULL: none yet); commands call it once they have their connection. */
void kp_cli_on_interrupt(struct sqlite3 *db);

#endif
