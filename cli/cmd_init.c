/*
 * cmd_init.c — `kplan init DB`: create a kplan database (idempotent).
 */
#include "cli.h"
#include "../common/db.h"

#include <getopt.h>
#include <string.h>

const char cmd_init_help[] =
	"usage: kplan init DB\n"
	"\n"
	"Create the kplan schema in DB (a SQLite file).  Running it on an existing kplan\n"
	"database does nothing; a database of a newer kplan, or a SQLite file that is not\n"
	"a kplan database, is refused.  `kplan import` creates DB the same way when the\n"
	"file does not exist yet; the other commands refuse a DB that does not exist.\n"
	"\n"
	"Example:\n"
	"  kplan init cluster.db\n";

int cmd_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	if (kp_cli_wants_help(argc, argv, cmd_init_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	if ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1)   /* none but -h, --help */
		return kp_cli_bad_option("init", c, argv);
	if (argc - optind != 1)
		return kp_cli_usage("init", argc - optind < 1 ? "missing DB" : "too many arguments");
	const char *path = argv[optind];
	kp_err err = { 0 };
	sqlite3 *db;
	int created;
	if (cli_db_open(path, KP_DB_CREATE, &db, &created, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_db_close(db);
	printf("%s %s (schema version %d)\n", created ? "created" : "already initialised:", path, KP_SCHEMA_VERSION);
	return KP_EXIT_OK;
}
