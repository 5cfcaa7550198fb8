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
/* every pod's claims, resolved to claim indexes */
int kp_snap_load_dra_pod_claims(kp_loader *L, kp_dra *d, const kp_dmap *claim_by_key);

#endif
