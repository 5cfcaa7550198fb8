/*
 * config_merge.c — the configuration a plan runs with (profile.h,
 * kp_config_load): `--config default`, `--config FILE` (a ConfigMap holding
 * one too), or the imported ones, merged per schedulerName.
 *
 * A cluster runs one scheduler per configuration: kube-scheduler with its
 * own schedules default-scheduler's pods, and a second scheduler, configured
 * by a ConfigMap, the pods of its schedulerName (pkg/scheduler/profile: one
 * framework per schedulerName; a pod whose name no profile has is left to
 * other schedulers).  So a plan takes, per schedulerName, the profile of the
 * latest imported document naming it, and kube's default profile for
 * default-scheduler when none does (apis/config/v1/defaults.go: a
 * configuration without profiles has exactly that one).  A profile kplan
 * cannot run only leaves its own pods unplanned, with the reason.
 */
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "profile.h"
#include "../common/read.h"
#include "../common/ydom.h"
#include "../common/ytext.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nomem(kp_err *err) { return kp_err_set(err, KP_NOMEM, "out of memory"); }

/* ---- --config FILE ---- */

/* When text is a ConfigMap, *own gets the KubeSchedulerConfiguration of its
 * data (as import finds it: the data value that mentions the kind), placed
 * as in the file when it is a literal block scalar (ytext.h); else as it is,
 * named "FILE[data.KEY]" in source.  Not a ConfigMap: *own stays NULL. */
static int configmap_value(const char *file, const char *text, size_t len, char **own, char *source, size_t n,
			   kp_err *err)
{
	kp_arena a;
	kp_arena_init(&a, 16 * 1024);
	kp_ynode *doc = NULL;
	kp_err e = { 0 };
	int rc = KP_OK;
	*own = NULL;
	/* not YAML, not a mapping: kp_config_parse says what is wrong */
	if (kp_yaml_parse_one(text, len, file, &a, &doc, &e) != KP_OK || !doc || doc->type != KP_Y_MAP)
		goto out;
	const kp_ynode *kind = kp_ymap_get(doc, "kind"), *data = kp_ymap_get(doc, "data"), *v = NULL;
	if (!kind || kind->type != KP_Y_SCALAR || strcmp(kind->u.str, "ConfigMap"))
		goto out;
	const char *key = NULL;
	for (size_t i = 0; data && data->type == KP_Y_MAP && i < data->n; i++) {
		const kp_ynode *x = data->u.pairs[i].value;
		if (x->type != KP_Y_SCALAR || !strstr(x->u.str, "KubeSchedulerConfiguration"))
			continue;
		if (v) {
			rc = kp_err_set(err, KP_PARSE, "ConfigMap: data.%s and data.%s both hold a KubeSchedulerConfiguration; "
				       "give --config the one to use as a file", key, data->u.pairs[i].key->u.str);
			kp_err_locate(err, file, x->line, x->col, NULL);
			goto out;
		}
		v = x;
		key = data->u.pairs[i].key->u.str;
	}
	if (!v) {
		rc = kp_err_set(err, KP_PARSE, "ConfigMap: no KubeSchedulerConfiguration in its data");
		kp_err_locate(err, file, doc->line, doc->col, NULL);
		goto out;
	}
	int ind = kp_ytext_literal_indent(text, len, v->line, v->col, v->u.str, v->n);
	if (ind > 0) {
		*own = kp_ytext_shift(v->u.str, v->n, v->line, (unsigned)ind);
	} else {
		*own = kp_strndup(v->u.str, v->n);
		snprintf(source, n, "%s[data.%s]", file, key);
	}
	if (!*own)
		rc = nomem(err);
out:
	kp_arena_release(&a);
	return rc;
}

static int load_file(const char *file, kp_config *cfg, kp_err *err)
{
	FILE *f = fopen(file, "rb");
	if (!f)
		return kp_err_set(err, KP_IO, "cannot open '%s': %s", file, strerror(errno));
	kp_read_opts ro = { .name = file, .kind = "YAML or JSON", .hint = "the most kplan reads for a scheduler configuration" };
	kp_sb sb;
	kp_sb_init(&sb);
	int rc = kp_read_stream(f, &ro, &sb, err);
	fclose(f);
	if (rc != KP_OK) {
		kp_sb_release(&sb);
		return rc;
	}
	char dir[1024], source[1300];
	snprintf(dir, sizeof dir, "%s", file);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof dir, ".");
	snprintf(source, sizeof source, "%s", file);
	char *own = NULL;
	rc = configmap_value(file, kp_sb_str(&sb), sb.len, &own, source, sizeof source, err);
	if (!rc) {
		kp_config_set_base_dir(cfg, dir);
		rc = kp_config_parse(own ? own : kp_sb_str(&sb), own ? strlen(own) : sb.len, source, cfg, err);
	}
	kp_free(own);
	kp_sb_release(&sb);
	return rc;
}

/* ---- the imported configurations ---- */

static int taken(const kp_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nprofiles; i++)
		if (!strcmp(cfg->profiles[i].scheduler_name, name))
			return 1;
	for (int i = 0; i < cfg->nskipped; i++)
		if (!strcmp(cfg->skipped[i].scheduler_name, name))
			return 1;
	return 0;
}

static int grow(void **v, int n, size_t size)
{
	void *nv = kp_realloc(*v, (size_t)(n + 1) * size);
	if (!nv)
		return KP_NOMEM;
	*v = nv;
	return KP_OK;
}

/* move the profiles of one document whose names are not taken yet into
 * cfg; desc gets "SOURCE: profiles a, b [not run]" in front (the documents
 * come latest first: desc lists them in import order), nothing when none */
static int take(kp_config *cfg, kp_config *one, const char *source, kp_sb *desc)
{
	kp_sb names;
	kp_sb_init(&names);
	int n = 0;
	for (int i = 0; i < one->nprofiles; i++) {
		kp_profile *p = &one->profiles[i];
		if (taken(cfg, p->scheduler_name))
			continue;
		if (grow((void **)&cfg->profiles, cfg->nprofiles, sizeof *cfg->profiles)) {
			kp_sb_release(&names);
			return KP_NOMEM;
		}
		cfg->profiles[cfg->nprofiles++] = *p;
		p->added_affinity_json = NULL;   /* owned by cfg now */
		p->next = 0;
		p->hext = NULL;
		kp_sb_printf(&names, "%s%s", n++ ? ", " : "", p->scheduler_name);
	}
	for (int i = 0; i < one->nskipped; i++) {
		kp_profile_skip *k = &one->skipped[i];
		if (taken(cfg, k->scheduler_name))
			continue;
		if (grow((void **)&cfg->skipped, cfg->nskipped, sizeof *cfg->skipped)) {
			kp_sb_release(&names);
			return KP_NOMEM;
		}
		cfg->skipped[cfg->nskipped++] = *k;
		k->why = NULL;
		kp_sb_printf(&names, "%s%s [not run]", n++ ? ", " : "", k->scheduler_name);
	}
	int rc = kp_sb_ok(&names) ? KP_OK : KP_NOMEM;
	if (n && !rc) {
		kp_sb d;
		kp_sb_init(&d);
		kp_sb_printf(&d, "%s: profile%s %s%s%s", source, n == 1 ? "" : "s", kp_sb_str(&names), desc->len ? "; " : "",
			     kp_sb_str(desc));
		rc = kp_sb_ok(&d) ? KP_OK : KP_NOMEM;
		kp_sb_release(desc);
		*desc = d;
	}
	kp_sb_release(&names);
	return rc;
}

/* one row of scheduler_config: its YAML when it still reads as the stored
 * document (errors then point into yaml_file), else the JSON */
static int parse_row(sqlite3_stmt *st, const kp_kube *kube, kp_config *one, kp_err *err)
{
	const char *json = (const char *)sqlite3_column_text(st, 1);
	const char *yaml = (const char *)sqlite3_column_text(st, 3);
	const char *yfile = (const char *)sqlite3_column_text(st, 4);
	memset(one, 0, sizeof *one);
	kp_config_set_kube(one, kube);
	if (!json)
		return kp_err_set(err, KP_ERROR, "scheduler_config %lld has no document", (long long)sqlite3_column_int64(st, 0));
	if (yaml && yfile && kp_ytext_same(yaml, json))
		return kp_config_parse_imported(yaml, strlen(yaml), yfile, one, err);
	char src[1300];
	snprintf(src, sizeof src, "%s (imported as scheduler_config %lld)", (const char *)sqlite3_column_text(st, 2),
		 (long long)sqlite3_column_int64(st, 0));
	return kp_config_parse_imported(json, strlen(json), src, one, err);
}

/* kube's default profile for default-scheduler, first */
static int add_default(kp_config *cfg, const kp_kube *kube)
{
	if (grow((void **)&cfg->profiles, cfg->nprofiles, sizeof *cfg->profiles))
		return KP_NOMEM;
	memmove(cfg->profiles + 1, cfg->profiles, (size_t)cfg->nprofiles * sizeof *cfg->profiles);
	kp_profile_default(&cfg->profiles[0], kube);
	cfg->nprofiles++;
	return KP_OK;
}

static void set_source(kp_config *cfg, const kp_sb *desc, int with_default)
{
	kp_sb s;
	kp_sb_init(&s);
	if (!desc->len)
		kp_sb_adds(&s, "default");
	else
		kp_sb_printf(&s, "%simported (%s)", with_default ? "default (default-scheduler) + " : "", kp_sb_str(desc));
	size_t n = s.len;
	if (n >= sizeof cfg->source) {   /* many documents: cut, on a character */
		n = sizeof cfg->source - 4;
		while (n && ((unsigned char)s.buf[n] & 0xC0) == 0x80)
			n--;
	}
	snprintf(cfg->source, sizeof cfg->source, "%.*s%s", (int)n, kp_sb_str(&s), n < s.len ? "..." : "");
	kp_sb_release(&s);
}

static int load_imported(sqlite3 *db, const kp_kube *kube, kp_config *cfg, kp_err *err)
{
	sqlite3_stmt *st;
	/* latest import first; yaml, yaml_file are missing from older databases */
	if (sqlite3_prepare_v2(db, kp_sql_config_imported, -1, &st, NULL) != SQLITE_OK &&
	    sqlite3_prepare_v2(db, kp_sql_config_imported_old, -1, &st, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot read scheduler configurations: %s", sqlite3_errmsg(db));
	memset(cfg, 0, sizeof *cfg);
	kp_sb desc;
	kp_sb_init(&desc);
	int rc = KP_OK, step = SQLITE_DONE;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		kp_config one;
		if ((rc = parse_row(st, kube, &one, err)))
			break;
		if (take(cfg, &one, (const char *)sqlite3_column_text(st, 2), &desc))
			rc = nomem(err);
		kp_config_release(&one);
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_err_set(err, KP_IO, "cannot read scheduler configurations: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	int with_default = !rc && !taken(cfg, "default-scheduler");
	if (with_default && add_default(cfg, kube))
		rc = nomem(err);
	if (!rc)
		set_source(cfg, &desc, with_default);
	kp_sb_release(&desc);
	if (rc)
		kp_config_release(cfg);
	return rc;
}

int kp_config_load(sqlite3 *db, const char *config_file, const kp_kube *kube, kp_config *cfg, kp_err *err)
{
	memset(cfg, 0, sizeof *cfg);
	if (config_file && !strcmp(config_file, "default")) {
		/* a file named default is ./default */
		kp_config_default(cfg, kube);
		return cfg->profiles ? KP_OK : nomem(err);
	}
	kp_config_set_kube(cfg, kube);
	int rc = config_file ? load_file(config_file, cfg, err) : load_imported(db, kube, cfg, err);
	if (!rc)
		kp_config_set_kube(cfg, kube);
	return rc;
}

const char *kp_config_skipped(const kp_config *cfg, const char *sched)
{
	for (int i = 0; i < cfg->nskipped; i++)
		if (!strcmp(cfg->skipped[i].scheduler_name, sched))
			return cfg->skipped[i].why;
	return NULL;
}
