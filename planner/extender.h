/*
 * extender.h — evaluating a profile's SQL extenders once per run.
 */
#ifndef KP_EXTENDER_H
#define KP_EXTENDER_H

#include <sqlite3.h>
#include "cycle.h"

/* Run the profile's extenders for the pending pods in pods[0..n): fills
 * cy->ext_off / cy->ext_rows (replacing earlier ones). */
int kp_extenders_run(sqlite3 *db, kp_snap *s, const kp_profile *pf, const int32_t *pods, int n, kp_cycle *cy,
		     kp_err *err);

#endif
