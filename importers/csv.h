/*
 * csv.h — the CSV reader (csv.c): kplan's node and pod tables and the
 * Alibaba openb GPU trace, stored through store.h.  docs/csv.md describes
 * the formats.
 *
 *   kp_csv_read(imp, "nodes.csv", data, len, NULL, &err);      detect by header
 *   kp_csv_read(imp, "trace.csv", data, len, "openb", &err);   require openb
 */
#ifndef KP_CSV_H
#define KP_CSV_H

#include <stddef.h>
#include "store.h"

/* Read every row of data (file names it in messages).  format NULL or "csv"
 * detects the table by its header; "openb" forces the openb trace mapping.
 * Returns KP_OK, the first fatal error (a bad header, a CSV syntax error),
 * or the error of a bad row that kp_import_invalid() did not skip. */
int kp_csv_read(kp_import *imp, const char *file, const char *data, size_t len,
		const char *format, kp_err *err);

#endif
