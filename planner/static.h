/*
 * static.h — static filter predicates in SQL, once per scheduling class.
 */
#ifndef KP_STATIC_H
#define KP_STATIC_H

#include <sqlite3.h>
#include "snapshot.h"
#include "profile.h"

/* Fill feasible / static_reason / affinity_ok / taints_ok of every class
 * with c->needed set.  Disabled plugins do not reject (their results still
 * feed the spread inclusion policies). */
int kp_static_filters(sqlite3 *db, kp_snap *s, const kp_profile *pf, kp_err *err);

/* Intern a failure reason (plugin must be a kp_plugin_names[] pointer); -1 on OOM. */
int kp_reason_intern(kp_snap *s, const char *plugin, const char *msg, int unresolvable);

#endif
