/*
 * cmd_shell.c — `kplan shell DB [SQL...]`: the stock sqlite3 shell on DB with
 * kplan's loadable extension pre-loaded (`sqlite3 -cmd ".load .../kplan" DB`),
 * so every kplan_* function works there as in `kplan query`.
 *
 * The extension is looked up as $KPLAN_SO, then kplan.so next to the kplan
 * binary (the build tree: build/kplan, build/kplan.so), then
 * ../lib/kplan/kplan.so relative to it (what `make install` lays out:
 * PREFIX/bin/kplan, PREFIX/lib/kplan/kplan.so).
 */
#include "cli.h"
#include "../common/db.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char cmd_shell_help[] =
	"usage: kplan shell [options] DB [SQL...]\n"
	"\n"
	"Open DB in the sqlite3 command-line shell with kplan's SQL functions loaded\n"
	"(the extension kplan.so, as `.load`), for interactive queries.  SQL arguments\n"
	"are run by sqlite3 and the shell exits; without them it reads standard input\n"
	"(interactive on a terminal).  DB must exist (kplan init or import makes one).\n"
	"The options come before DB: what follows DB goes to sqlite3 as it is, its own\n"
	"options too (kplan shell DB -csv -header \"SELECT ...\").\n"
	"\n"
	"Options:\n"
	"  --sqlite3 PATH  the sqlite3 shell to run (default: sqlite3 from PATH)\n"
	"  -h, --help      this help\n"
	"\n"
	"The extension is $KPLAN_SO when set, else kplan.so next to the kplan binary,\n"
	"else ../lib/kplan/kplan.so relative to it (the installed layout).\n"
	"Needs the sqlite3 shell (Debian: apt-get install sqlite3); exit 1 without it.\n"
	"\n"
	"Examples:\n"
	"  kplan shell cluster.db\n"
	"  echo \"SELECT kplan_quantity('1Gi');\" | kplan shell cluster.db\n"
	"  kplan shell cluster.db \"SELECT count(*) FROM plan WHERE action = 'bind'\"\n";

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_exec(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* sqlite3 on PATH, into buf; 0 when there is none */
static int find_in_path(const char *name, char *buf, size_t n)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		return 0;
	while (*path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		int w = len ? snprintf(buf, n, "%.*s/%s", (int)len, path, name) : snprintf(buf, n, "./%s", name);
		if (w > 0 && (size_t)w < n && is_exec(buf))
			return 1;
		path += len + (end ? 1 : 0);
	}
	return 0;
}

/* the extension, into buf; 0 when not found (tried lists where it looked) */
static int find_extension(char *buf, size_t n, kp_sb *tried)
{
	const char *env = getenv("KPLAN_SO");
	if (env && *env) {
		kp_sb_printf(tried, "$KPLAN_SO=%s", env);
		if (is_file(env) && strlen(env) < n) {
			strcpy(buf, env);
			return 1;
		}
		return 0;
	}
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0)
		return 0;
	exe[len] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = 0;
	static const char *const rel[] = { "kplan.so", "../lib/kplan/kplan.so" };
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		int w = snprintf(buf, n, "%s/%s", exe, rel[i]);
		kp_sb_printf(tried, "%s%s", i ? ", " : "", w > 0 && (size_t)w < n ? buf : rel[i]);
		if (w > 0 && (size_t)w < n && is_file(buf))
			return 1;
	}
	return 0;
}

int cmd_shell(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sqlite3", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *shell = NULL;
	int c;
	optind = 1;
	opterr = 0;
	/* options before DB only ('+'): what follows DB goes to sqlite3 as it is,
	 * SQL and sqlite3's own options (-csv, -header, --help) alike */
	while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': shell = optarg; break;
		case 'h': fputs(cmd_shell_help, stdout); return KP_EXIT_OK;
		default: return kp_cli_bad_option("shell", c, argv);
		}
	}
	if (argc - optind < 1)
		return kp_cli_usage("shell", "missing DB");
	const char *path = argv[optind];

	char sqlite3_path[PATH_MAX];
	if (shell) {
		if (!is_exec(shell)) {
			fprintf(stderr, "kplan: shell: %s: not an executable file\n", shell);
			return KP_EXIT_ERROR;
		}
		snprintf(sqlite3_path, sizeof sqlite3_path, "%s", shell);
	} else if (!find_in_path("sqlite3", sqlite3_path, sizeof sqlite3_path)) {
		fprintf(stderr, "kplan: shell: the sqlite3 shell is not installed (Debian: apt-get install sqlite3); "
				"`kplan query` runs SQL without it\n");
		return KP_EXIT_ERROR;
	}
	char so[PATH_MAX];
	kp_sb tried;
	kp_sb_init(&tried);
	if (!find_extension(so, sizeof so, &tried)) {
		fprintf(stderr, "kplan: shell: cannot find kplan's SQLite extension kplan.so (looked at %s); "
				"set KPLAN_SO to its path\n", kp_sb_str(&tried));
		kp_sb_release(&tried);
		return KP_EXIT_ERROR;
	}
	kp_sb_release(&tried);

	/* check the database as every kplan command does (only init and import create one) */
	sqlite3 *db;
	kp_err err = { 0 };
	if (cli_db_open(path, 0, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_db_close(db);

	/* .load takes the file without ".so" (SQLite adds it) and finds the entry
	 * point sqlite3_kplan_init from the name; quote it for the shell's parser */
	size_t sl = strlen(so);
	if (sl > 3 && !strcmp(so + sl - 3, ".so"))
		so[sl - 3] = 0;
	kp_sb load;
	kp_sb_init(&load);
	if (!strchr(so, '\'')) {
		kp_sb_printf(&load, ".load '%s'", so);
	} else {
		kp_sb_adds(&load, ".load \"");
		for (const char *p = so; *p; p++) {
			if (*p == '"' || *p == '\\')
				kp_sb_addc(&load, '\\');
			kp_sb_addc(&load, *p);
		}
		kp_sb_addc(&load, '"');
	}
	int extra = argc - optind - 1;
	char **av = kp_calloc((size_t)extra + 6, sizeof *av);
	if (!av || !kp_sb_ok(&load)) {
		kp_sb_release(&load);
		kp_free(av);
		kp_err_set(&err, KP_NOMEM, "out of memory");
		return kp_cli_fail(&err);
	}
	int k = 0;
	av[k++] = sqlite3_path;
	av[k++] = "-cmd";
	av[k++] = (char *)kp_sb_str(&load);
	av[k++] = (char *)path;
	for (int i = 0; i < extra; i++)
		av[k++] = argv[optind + 1 + i];
	av[k] = NULL;
	fflush(stdout);
	fflush(stderr);
	execv(sqlite3_path, av);
	fprintf(stderr, "kplan: shell: cannot run %s: %s\n", sqlite3_path, strerror(errno));
	kp_sb_release(&load);
	kp_free(av);
	return KP_EXIT_ERROR;
}
