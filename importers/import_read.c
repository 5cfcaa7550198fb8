/*
 * import_read.c — what an import batch reads (import.h): paths, directories
 * and buffers, each input's format chosen and handed to its reader (csv.c or
 * k8s*.c).
 *
 * Contract:
 *  - a directory is read recursively in name order, hidden entries skipped,
 *    taking *.yaml *.yml *.json *.csv (any case); "-" is stdin;
 *  - every input is checked as text (common/read.h: no NUL byte, valid
 *    UTF-8, at most opts.max_input_size bytes) before it is parsed; an empty
 *    one is an error;
 *  - the format is opts.format when given, else the file's extension, else
 *    the first line (a comma-separated header without braces or "key: " is
 *    CSV, anything else YAML/JSON);
 *  - the paths given are recorded for the batch's row (import_batch.sources).
 */
#include "import.h"
#include "store_int.h"
#include "csv.h"
#include "k8s.h"
#include "../common/read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <dirent.h>
#include <sys/stat.h>

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcasecmp(s + n - m, suf) == 0;
}

static int wanted_file(const char *name)
{
	return has_suffix(name, ".yaml") || has_suffix(name, ".yml") || has_suffix(name, ".json") ||
	       has_suffix(name, ".csv");
}

static int looks_like_csv(const char *data, size_t len)
{
	/* first line: commas, no colon-space, no braces: a CSV header */
	size_t i = 0;
	int commas = 0;
	for (; i < len && data[i] != '\n'; i++) {
		if (data[i] == ',')
			commas++;
		if (data[i] == '{' || data[i] == '[' || (data[i] == ':' && i + 1 < len && (data[i + 1] == ' ' || data[i + 1] == '\n')))
			return 0;
	}
	return commas > 0;
}

/* NUL bytes and UTF-8 of one input, as kp_read_stream checks them */
static const kp_read_opts text_checks = { .kind = "YAML, JSON or CSV", .utf8 = 1 };

/* one input, its text checked */
static int import_text(kp_import *imp, const char *name, const char *data, size_t len, kp_err *err)
{
	imp->stats.files++;
	imp->stats.bytes += (long long)len;
	if (len == 0) {
		kp_err_set(err, KP_PARSE, "empty file: nothing to import");
		kp_err_locate(err, name, 1, 1, NULL);
		return KP_PARSE;
	}
	const char *fmt = imp->opts.format;
	int csv;
	if (fmt && (!strcmp(fmt, "csv") || !strcmp(fmt, "openb")))
		csv = 1;
	else if (fmt && (!strcmp(fmt, "yaml") || !strcmp(fmt, "json")))
		csv = 0;
	else if (has_suffix(name, ".csv"))
		csv = 1;
	else if (has_suffix(name, ".yaml") || has_suffix(name, ".yml") || has_suffix(name, ".json"))
		csv = 0;
	else
		csv = looks_like_csv(data, len);
	imp->cur_data = data;
	imp->cur_len = len;
	imp->cur_off = 0;
	imp->cur_line = 1;
	imp->cur_base = imp->stats.bytes - (long long)len;
	int rc = csv ? kp_csv_read(imp, name, data, len, fmt && !strcmp(fmt, "openb") ? "openb" : NULL, err)
		     : kp_k8s_read(imp, name, data, len, err);
	kp_arena_reset(&imp->arena);
	imp->cur_data = NULL;
	imp->cur_len = imp->cur_off = 0;
	if (rc == KP_OK && imp->opts.progress) {
		kp_import_progress p = { .phase = KP_IMPORT_READING, .bytes = imp->stats.bytes, .objects = imp->objects };
		imp->opts.progress(imp->opts.progress_ctx, &p);
	}
	return rc;
}

int kp_import_buffer(kp_import *imp, const char *name, const char *data, size_t len, kp_err *err)
{
	kp_read_opts ro = text_checks;
	ro.name = name;
	int rc = kp_text_check(&ro, data, len, err);
	return rc != KP_OK ? rc : import_text(imp, name, data, len, err);
}

static int import_file(kp_import *imp, const char *path, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	if (!f) {
		kp_err_set(err, KP_IO, "cannot open '%s': %s", path, strerror(errno));
		return KP_IO;
	}
	kp_read_opts ro = text_checks;
	ro.name = name;
	ro.limit = imp->opts.max_input_size ? imp->opts.max_input_size : KP_READ_IMPORT_LIMIT;
	ro.hint = imp->opts.size_hint;
	kp_sb sb;
	kp_sb_init(&sb);
	int rc = kp_read_stream(f, &ro, &sb, err);
	if (f != stdin)
		fclose(f);
	if (rc == KP_OK)
		rc = import_text(imp, name, sb.buf ? sb.buf : "", sb.len, err);
	kp_sb_release(&sb);
	return rc;
}

static int import_dir(kp_import *imp, const char *path, int depth, kp_err *err)
{
	if (depth > 64)
		return kp_err_set(err, KP_IO, "'%s': directories nested too deep (symlink loop?)", path);
	DIR *d = opendir(path);
	if (!d)
		return kp_err_set(err, KP_IO, "cannot open directory '%s': %s", path, strerror(errno));
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = KP_OK;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;   /* ., .., and hidden files */
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			char **v = kp_realloc(names, cap * sizeof *v);
			if (!v) {
				rc = kp_err_set(err, KP_NOMEM, "out of memory");
				break;
			}
			names = v;
		}
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		names[n] = kp_malloc(len);
		if (!names[n]) {
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
			break;
		}
		snprintf(names[n], len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		n++;
	}
	closedir(d);
	if (rc == KP_OK)
		kp_sort(names, n, sizeof *names, kp_cmp_str, NULL);
	for (size_t i = 0; i < n && rc == KP_OK; i++) {
		struct stat st;
		if (stat(names[i], &st) != 0) {
			rc = kp_err_set(err, KP_IO, "cannot read '%s': %s", names[i], strerror(errno));
			break;
		}
		if (S_ISDIR(st.st_mode))
			rc = import_dir(imp, names[i], depth + 1, err);
		else if (S_ISREG(st.st_mode) && wanted_file(names[i]))
			rc = import_file(imp, names[i], err);
	}
	for (size_t i = 0; i < n; i++)
		kp_free(names[i]);
	kp_free(names);
	return rc;
}

int kp_import_path(kp_import *imp, const char *path, kp_err *err)
{
	if (imp->sources.len > 1)
		kp_sb_addc(&imp->sources, ',');
	kp_sb_add_json_str(&imp->sources, path);
	if (!strcmp(path, "-"))
		return import_file(imp, path, err);
	struct stat st;
	if (stat(path, &st) != 0)
		return kp_err_set(err, KP_IO, "cannot open '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return import_dir(imp, path, 0, err);
	return import_file(imp, path, err);
}

static long long dir_size(const char *path, int depth)
{
	DIR *d = depth > 64 ? NULL : opendir(path);
	if (!d)
		return 0;
	long long total = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		char *name = kp_malloc(len);
		if (!name)
			break;
		snprintf(name, len, "%s/%s", path, e->d_name);
		struct stat st;
		if (stat(name, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				total += dir_size(name, depth + 1);
			else if (S_ISREG(st.st_mode) && wanted_file(name))
				total += (long long)st.st_size;
		}
		kp_free(name);
	}
	closedir(d);
	return total;
}

long long kp_import_path_size(const char *path)
{
	struct stat st;
	if (!strcmp(path, "-") || stat(path, &st) != 0)
		return -1;
	if (S_ISDIR(st.st_mode))
		return dir_size(path, 0);
	return S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}
