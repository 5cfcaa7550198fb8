/*
 * udf.h — kplan's SQL functions, registered on every connection kplan opens
 * and by the loadable extension build/kplan.so (`.load build/kplan`).
 */
#ifndef KP_UDF_H
#define KP_UDF_H

#include <sqlite3.h>

/* Register every kplan_* function on db.  Returns an SQLite result code. */
int kp_udf_register(sqlite3 *db);

#endif
