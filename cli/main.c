/*
 * main.c — `kplan <command> [options]`: the command table, help, version,
 * and the one place that exits.  Commands live in cli/cmd_<verb>.c.
 */
#include "cli.h"
#include "../common/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <stdarg.h>
#include <unistd.h>
#include <time.h>
#include <signal.h>
#include <sqlite3.h>

static sqlite3 *volatile interrupt_db;

static void on_signal(int sig)
{
	(void)sig;
	kp_interrupted = 1;
	if (interrupt_db)
		sqlite3_interrupt(interrupt_db);   /* safe from a signal handler; the shell does the same */
}

void kp_cli_on_interrupt(struct sqlite3 *db)
{
	interrupt_db = db;
}

static int cmd_help(int argc, char **argv);
static const char cmd_help_help[] =
	"usage: kplan help [COMMAND]\n"
	"\n"
	"Show the list of commands, or the help of one command (same as 'kplan COMMAND --help').\n";

static const kp_command commands[] = {
	{ "init", cmd_init, cmd_init_help, "create a kplan database (idempotent)" },
	{ "import", cmd_import, cmd_import_help, "load Kubernetes YAML/JSON, CSV or openb files, in one transaction" },
	{ "plan", cmd_plan, cmd_plan_help, "place every pending pod as kube-scheduler would; append a run" },
	{ "explain", cmd_explain, cmd_explain_help, "why one pod went where it went (filters, scores)" },
	{ "capacity", cmd_capacity, cmd_capacity_help, "how many more replicas fit; nodes needed; surviving a node or zone" },
	{ "fix", cmd_fix, cmd_fix_help, "for each unschedulable pod, the smallest checked change that makes it fit" },
	{ "settings", cmd_settings, cmd_settings_help, "the kube version and feature gates DB is planned as" },
	{ "report", cmd_report, cmd_report_help, "a run as text, markdown, csv, json or html; compare two runs" },
	{ "query", cmd_query, cmd_query_help, "run SQL with kplan's functions; table, csv, json or markdown out" },
	{ "shell", cmd_shell, cmd_shell_help, "the sqlite3 shell on DB with kplan's SQL functions loaded" },
	{ "help", cmd_help, cmd_help_help, "show help for kplan or one command" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *f)
{
	fprintf(f, "usage: kplan [--version] [--help] <command> [options]\n\n"
		   "kplan plans where kube-scheduler would place every pod of a cluster, offline, in SQLite.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "   %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nSee 'kplan help <command>' or 'kplan <command> --help' for one command.  Options may\n"
		   "come before or after the arguments ('--' ends them; shell: before DB only).\n"
		   "Exit status: 0 ok, 1 error, 2 unschedulable pods (plan --fail-on-unschedulable),\n"
		   "3 database busy, 64 usage error, 130 interrupted.\n");
}

static const kp_command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* the command closest to a mistyped one, NULL when none is close */
static const char *closest_command(const char *typed)
{
	const char *names[NCOMMANDS];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	return kp_closest(typed, names, NCOMMANDS);
}

static int cmd_help(int argc, char **argv)
{
	if (kp_cli_wants_help(argc, argv, cmd_help_help))
		return KP_EXIT_OK;
	if (argc < 2) {
		print_usage(stdout);
		return KP_EXIT_OK;
	}
	if (argc > 2)
		return kp_cli_usage("help", "too many arguments");
	const kp_command *c = find_command(argv[1]);
	const char *near = c ? NULL : closest_command(argv[1]);
	if (!c)
		return kp_cli_usage("help", "'%s' is not a kplan command%s%s%s", argv[1], near ? "; did you mean '" : "",
				    near ? near : "", near ? "'?" : "");
	fputs(c->help, stdout);
	return KP_EXIT_OK;
}

int kp_cli_exit_code(int code)
{
	switch (code) {
	case KP_OK: return KP_EXIT_OK;
	case KP_BUSY: return KP_EXIT_BUSY;
	case KP_USAGE: return KP_EXIT_USAGE;
	case KP_INTR: return KP_EXIT_INTERRUPTED;
	default: return KP_EXIT_ERROR;
	}
}

int kp_cli_fail(const kp_err *err)
{
	char buf[4096];
	fprintf(stderr, "kplan: %s\n", kp_err_format(err, buf, sizeof buf));
	return kp_cli_exit_code(err->code ? err->code : KP_ERROR);
}

int kp_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "kplan %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'kplan %s --help'\n", cmd);
	return KP_EXIT_USAGE;
}

int kp_cli_unknown_option(const char *cmd, const char *a)
{
	const kp_command *k = find_command(cmd);
	size_t w = strcspn(a, " \t\n\r="), line = strcspn(a, "\n");
	if (a[w] && a[w] != '=') {   /* no option has a space in its name: SQL starting with a comment "-- ..." */
		int cut = line > 40 ? 40 : (int)line;
		while (cut > 0 && (a[cut] & 0xC0) == 0x80)   /* not inside a UTF-8 character */
			cut--;
		return kp_cli_usage(cmd, "'%.*s%s' is not an option: put '--' before an argument that starts with '-'",
				    cut, a, a[cut] ? "..." : "");
	}
	if (strncmp(a, "--", 2) || !a[2] || !k)
		return kp_cli_usage(cmd, "unknown option '%s'", a);
	/* a long option that was not taken: given a value, ambiguous, or close to one */
	static char names[64][KP_CLI_OPTNAME];
	const char *ptr[64], *name = a + 2, *eq = strchr(name, '=');
	int len = eq ? (int)(eq - name) : (int)strlen(name);
	size_t n = kp_cli_help_options(k->help, names, 64), prefixed = 0;
	char typed[KP_CLI_OPTNAME * 2], list[512] = "";
	snprintf(typed, sizeof typed, "%.*s", len, name);
	for (size_t i = 0; i < n; i++) {
		ptr[i] = names[i];
		if (eq && !strcmp(names[i], typed))
			return kp_cli_usage(cmd, "option '--%s' takes no value", typed);
		if (len && !strncmp(names[i], typed, (size_t)len) && strlen(list) + strlen(names[i]) + 8 < sizeof list)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s'--%s'", prefixed++ ? ", " : "", names[i]);
	}
	if (prefixed > 1)
		return kp_cli_usage(cmd, "option '--%s' is ambiguous: %s", typed, list);
	const char *best = kp_closest(typed, ptr, n);
	if (best)
		return kp_cli_usage(cmd, "unknown option '--%s'; did you mean '--%s'?", typed, best);
	return kp_cli_usage(cmd, "unknown option '--%s'", typed);
}

int kp_cli_bad_option(const char *cmd, int c, char **argv)
{
	const char *a = argv[optind - 1];
	if (c == ':')
		return kp_cli_usage(cmd, "option '%s' needs a value", a);
	if (strncmp(a, "--", 2) && optopt > ' ' && optopt < 127)   /* a short option, maybe in a cluster (-qz) */
		return kp_cli_usage(cmd, "unknown option '-%c'", optopt);
	const char *eq = strchr(a, '=');
	if (optopt && eq)
		return kp_cli_usage(cmd, "option '%.*s' takes no value", (int)(eq - a), a);
	return kp_cli_unknown_option(cmd, a);
}

int kp_cli_wants_help(int argc, char **argv, const char *help)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(help, stdout);
			return 1;
		}
	}
	return 0;
}

int kp_cli_progress_enabled(int quiet) { return !quiet && isatty(STDERR_FILENO); }

double kp_cli_now(void) { return kp_now(); }

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_usage(stderr);
		return KP_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("kplan %s\n", KPLAN_VERSION);
		return KP_EXIT_OK;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		print_usage(stdout);
		return KP_EXIT_OK;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	const kp_command *c = find_command(name);
	if (!c) {
		const char *near = closest_command(name);
		fprintf(stderr, "kplan: '%s' is not a kplan command%s%s%s See 'kplan --help'.\n", name,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : ".");
		return KP_EXIT_USAGE;
	}
	int rc = c->fn(argc - 1, argv + 1);
	if (kp_interrupted && rc != KP_EXIT_OK)
		rc = KP_EXIT_INTERRUPTED;
	/* import and plan print their summaries before COMMIT and roll back
	 * when stdout fails, so by now only read-only commands can get here */
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc == KP_EXIT_OK) {
		fprintf(stderr, "kplan: error writing output: %s\n", strerror(errno));
		return KP_EXIT_ERROR;
	}
	exit(rc);
}
