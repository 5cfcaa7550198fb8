/*
 * cli.h — kplan's command table and what every command shares.
 *
 * Adding a command:
 *  1. write cli/cmd_<verb>.c with `int cmd_<verb>(int argc, char **argv)` and
 *     its help text `extern const char cmd_<verb>_help[]` (usage line first);
 *  2. add one row to `commands[]` in cli/main.c;
 *  3. add it to the README's command list and to the tests in tests/t/.
 * Commands return an exit code (KP_EXIT_*); only main() calls exit().
 */
#ifndef KP_CLI_H
#define KP_CLI_H

#include <stdio.h>
#include "../common/kp.h"

struct sqlite3;

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
extern const char cmd_init_help[], cmd_import_help[], cmd_query_help[], cmd_plan_help[], cmd_explain_help[];
extern const char cmd_report_help[];

/* Print "kplan: <formatted error>" to stderr and return the exit code for it. */
int kp_cli_fail(const kp_err *err);
/* Usage error: "kplan <cmd>: msg" + "see 'kplan <cmd> --help'"; returns KP_EXIT_USAGE. */
int kp_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 when argv has -h/--help before a "--"; prints help to stdout. */
int kp_cli_wants_help(int argc, char **argv, const char *help);
/* Exit code for a KP_* code. */
int kp_cli_exit_code(int code);
/* 1 when stderr is a terminal and --quiet was not given */
int kp_cli_progress_enabled(int quiet);
double kp_cli_now(void);
/* SIGINT/SIGTERM set kp_interrupted and interrupt the statement running on db
 * (NULL: none yet); commands call it once they have their connection. */
void kp_cli_on_interrupt(struct sqlite3 *db);

#endif
