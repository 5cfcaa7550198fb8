/*
 * dra_load.h — what the DRA loader's two files share (private to
 * planner/snapshot_dra*.c): snapshot_dra.c loads classes, pools, slices and
 * devices and calls snapshot_dra_claims.c for the claims and the pods'
 * claims, with the lookups it built.
 */
#ifndef KP_DRA_LOAD_H
#define KP_DRA_LOAD_H

#include "snapshot_int.h"
#include "dra.h"
#include "cycle.h"     /* kp_dmap */

/* the claims (requests, constraints, allocations); pool_by_key: (driver,
 * pool) -> pool, dev_by_key: (pool, device name) -> device + 1; fills
 * claim_by_key: (namespace, name) -> claim */
int kp_snap_load_dra_claims(kp_loader *L, kp_dra *d, const kp_dmap *pool_by_key, const kp_dmap *dev_by_key,
			    kp_dmap *claim_by_key);
/* the CEL selectors of q's rows (column 0, bound by the caller), compiled
 * in order, at most 64; one that does not compile is NULL and the first such
 * is *bad with its message (*bad -1: none).  KP_OK or KP_NOMEM. */
int kp_dra_load_selectors(kp_loader *L, sqlite3_stmt *q, kp_cel ***out, uint32_t *n, int32_t *bad, const char **bad_msg);
/* every pod's claims, resolved to claim indexes */
int kp_snap_load_dra_pod_claims(kp_loader *L, kp_dra *d, const kp_dmap *claim_by_key);

#endif
