/*
 * cmd_settings.c — `kplan settings DB [NAME [VALUE]]`: the kube version and
 * feature gates a database is planned as (common/kube_db.h), kept in its
 * meta table; and the --kube-version / --feature-gates options the planning
 * commands share.
 */
#include "cli.h"
#include "../common/db.h"
#include "../common/kube_db.h"
#include "../common/suggest.h"

#include <getopt.h>
#include <string.h>

const char cmd_settings_help[] =
	"usage: kplan settings [options] DB [NAME [VALUE]]\n"
	"\n"
	"Show or change what DB is planned as: every plan, explain, capacity and fix on\n"
	"it uses these unless its own --kube-version or --feature-gates says otherwise.\n"
	"Without NAME: every setting and its value; NAME alone: its value; NAME VALUE:\n"
	"set it (checked first; DB is unchanged when it is refused).\n"
	"\n"
	"Settings:\n"
	"  kube-version              the kube-scheduler to plan as, 1.31 to 1.37\n"
	"                            (unset: 1.37, the newest)\n"
	"  feature-gates             Name=true|false,... as kube's --feature-gates takes\n"
	"                            them, over the version's defaults (unset: none)\n"
	"\n"
	"Options:\n"
	"  --unset NAME              remove the setting (back to its default)\n"
	"  --gates                   every feature gate kplan knows: its default in the\n"
	"                            version, its value with the settings, and what\n"
	"                            kplan models of it\n"
	"  --json                    print as JSON\n"
	"  -h, --help                this help\n"
	"\n"
	"See docs/kube-versions.md for what changes between versions and each gate.\n";

static const struct option settings_opts[] = {
	{ "unset", required_argument, NULL, 'u' },
	{ "gates", no_argument, NULL, 'g' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int kp_cli_kube_version_arg(const char *cmd, const char *arg)
{
	int minor;
	kp_err e = { 0 };
	if (kp_kube_parse_version(arg, &minor, &e))
		return kp_cli_usage(cmd, "--kube-version: %s", e.msg);
	return KP_EXIT_OK;
}

void kp_cli_kube_options_json(const char *version, const char *gates, kp_sb *sb)
{
	if (version) {
		kp_sb_printf(sb, ",\"kube_version\":");
		kp_sb_add_json_str(sb, version);
	}
	if (gates) {
		kp_sb_printf(sb, ",\"feature_gates\":");
		kp_sb_add_json_str(sb, gates);
	}
}

static const char *const names[] = { "kube-version", "feature-gates" };
static const char *const keys[] = { KP_SETTING_KUBE_VERSION, KP_SETTING_FEATURE_GATES };

static int setting_index(const char *name)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(name, names[i]))
			return i;
	const char *best = kp_closest(name, names, 2);
	kp_cli_usage("settings", "no setting '%s'%s%s%s (the settings: kube-version, feature-gates)", name,
		     best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
	return -1;
}

/* write (value != NULL) or remove one meta row, checking the result first */
static int store(sqlite3 *db, int i, const char *value, kp_err *err)
{
	if (kp_db_begin(db, err))
		return err->code;
	/* check what the settings would be: the pair must resolve */
	char other[2048];
	int rc = kp_kube_setting(db, keys[!i], other, sizeof other, err);
	kp_kube k;
	if (!rc) {
		const char *v = i == 0 ? value : (other[0] ? other : NULL);
		const char *g = i == 1 ? value : (other[0] ? other : NULL);
		rc = kp_kube_resolve(NULL, v, NULL, 1, &k, err);
		if (!rc && g)
			rc = kp_kube_set_gates(&k, g, i == 1 ? "feature-gates" : "the database's feature-gates setting", err);
	}
	if (!rc)
		rc = kp_kube_store_setting(db, keys[i], value, err);
	if (rc) {
		kp_db_rollback(db);
		return rc;
	}
	return kp_db_commit(db, err);
}

static void print_gates(const kp_kube *k, int json)
{
	static const char *const model[] = { ['B'] = "on and off", ['O'] = "on only", ['F'] = "off only",
					     ['N'] = "no effect on a plan" };
	if (json)
		printf("{\"kube_version\":\"1.%d\",\"gates\":[", k->minor);
	else
		printf("%-48s %-8s %-6s %s\n", "GATE", "DEFAULT", "VALUE", "KPLAN MODELS");
	int first = 1;
	for (int g = 0; g < KP_FG_COUNT; g++) {
		int d = kp_kube_default(g, k->minor);
		if (d < 0)
			continue;
		const char *m = model[(unsigned char)kp_gates[g].kplan];
		if (json) {
			printf("%s{\"name\":\"%s\",\"default\":%s,\"value\":%s,\"set\":%s,\"kplan\":\"%s\"}", first ? "" : ",",
			       kp_gates[g].name, d ? "true" : "false", k->on[g] ? "true" : "false", k->set[g] ? "true" : "false", m);
			first = 0;
		} else {
			printf("%-48s %-8s %-6s %s\n", kp_gates[g].name, d ? "true" : "false", k->on[g] ? "true" : "false", m);
		}
	}
	if (json)
		printf("]}\n");
}

static int show(sqlite3 *db, int only, int gates, int json, kp_err *err)
{
	char val[2][2048];
	for (int i = 0; i < 2; i++)
		if (kp_kube_setting(db, keys[i], val[i], sizeof val[i], err))
			return err->code;
	if (gates) {
		kp_kube k;
		if (kp_kube_resolve(db, NULL, NULL, 0, &k, err))
			return err->code;
		print_gates(&k, json);
		return KP_OK;
	}
	if (only >= 0 && !json) {
		printf("%s\n", val[only]);
		return KP_OK;
	}
	if (json) {
		printf("{");
		for (int i = 0, n = 0; i < 2; i++) {
			if (only >= 0 && i != only)
				continue;
			printf("%s\"%s\":", n++ ? "," : "", names[i]);
			if (val[i][0]) {
				kp_sb sb;
				kp_sb_init(&sb);
				kp_sb_add_json_str(&sb, val[i]);
				printf("%s", kp_sb_str(&sb));
				kp_sb_release(&sb);
			} else {
				printf("null");
			}
		}
		printf("}\n");
		return KP_OK;
	}
	printf("kube-version   %s\n", val[0][0] ? val[0] : "(unset: 1.37)");
	printf("feature-gates  %s\n", val[1][0] ? val[1] : "(unset: the version's defaults)");
	return KP_OK;
}

int cmd_settings(int argc, char **argv)
{
	if (kp_cli_wants_help(argc, argv, cmd_settings_help))
		return KP_EXIT_OK;
	int c, li, gates = 0, json = 0;
	const char *unset = NULL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", settings_opts, &li)) != -1) {
		switch (c) {
		case 'u': unset = optarg; break;
		case 'g': gates = 1; break;
		case 'j': json = 1; break;
		default: return kp_cli_bad_option("settings", c, argv);
		}
	}
	int nargs = argc - optind;
	if (nargs < 1)
		return kp_cli_usage("settings", "missing DB");
	if (nargs > 3)
		return kp_cli_usage("settings", "too many arguments");
	if ((unset || gates) && nargs > 1)
		return kp_cli_usage("settings", "--%s takes no NAME or VALUE", unset ? "unset" : "gates");
	int i = -1;
	if ((unset && (i = setting_index(unset)) < 0) || (nargs >= 2 && (i = setting_index(argv[optind + 1])) < 0))
		return KP_EXIT_USAGE;
	int write = unset || nargs == 3;
	kp_err err = { 0 };
	sqlite3 *db;
	if (cli_db_open(argv[optind], write ? 0 : KP_DB_READONLY, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	int rc = write ? store(db, i, unset ? NULL : argv[optind + 2], &err) : show(db, i, gates, json, &err);
	kp_db_close(db);
	if (rc)
		return err.code == KP_USAGE ? kp_cli_usage("settings", "%s", kp_err_format(&err, (char[2048]){ 0 }, 2048))
					    : kp_cli_fail(&err);
	return fflush(stdout) || ferror(stdout) ? KP_EXIT_ERROR : KP_EXIT_OK;
}
