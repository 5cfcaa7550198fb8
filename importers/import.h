/*
 * import.h — one import batch: everything below the given paths goes into
 * the database in ONE transaction, or nothing does.
 *
 *   kp_import *imp;
 *   kp_import_begin(db, &opts, &imp, &err);
 *   kp_import_path(imp, "cluster/", &err);   // files, directories, "-"
 *   kp_import_finish(imp, &err);             // expand workloads, COMMIT
 *   kp_import_free(imp);                     // ROLLBACK if not finished
 *
 * The options, counts and progress types (kp_import_opts, kp_import_stats,
 * kp_import_progress) are in store.h, with what the format readers call:
 * k8s.h (YAML/JSON) and csv.h (CSV) turn text into kp_node_in / kp_pod_in
 * structs (model.h) and hand them to kp_import_node / kp_import_pod; other
 * kinds have their own kp_import_* entry points.  This header includes all
 * three, so a caller of importers/ needs only this one.
 *
 * Files: import.c (begin, finish, free), import_read.c (paths, formats),
 * store*.c (rows; store_int.h), csv.c, k8s*.c (readers), requests.c.
 */
#ifndef KP_IMPORT_H
#define KP_IMPORT_H

#include <stdio.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "model.h"
#include "store.h"
#include "csv.h"
#include "k8s.h"

int kp_import_begin(sqlite3 *db, const kp_import_opts *opts, kp_import **out, kp_err *err);
/* A file, a directory (recursively, sorted; *.yaml *.yml *.json *.csv) or "-" (stdin).
 * Each file is read chunk by chunk (common/read.h): a NUL byte, invalid UTF-8,
 * more than max_input_size bytes or SIGINT/SIGTERM end it as it is read. */
int kp_import_path(kp_import *imp, const char *path, kp_err *err);
/* Import a buffer already in memory; name is used in messages. */
int kp_import_buffer(kp_import *imp, const char *name, const char *data, size_t len, kp_err *err);
int kp_import_finish(kp_import *imp, kp_err *err);
/* The bytes kp_import_path(path) would read (a directory: the files it would
 * take); -1 for "-" or a path that cannot be read.  For progress meters. */
long long kp_import_path_size(const char *path);
void kp_import_free(kp_import *imp);      /* rolls back an unfinished batch; NULL ok */
const kp_import_stats *kp_import_get_stats(const kp_import *imp);
int64_t kp_import_batch_id(const kp_import *imp);

#endif
