/*
 * names.h — names as Kubernetes controllers make them, shared by the importer
 * (pods it generates for workloads, resource claims it generates for pods)
 * and what-if (replicas --scale adds, DaemonSet pods of added nodes), so
 * that both name a pod alike.
 */
#ifndef KP_NAMES_H
#define KP_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* The 5-character suffix controllers give pod names (NS/NAME: the owner),
 * made deterministic: index i of one owner never collides with another
 * index below 27^5.  Cannot fail; out gets 5 characters and a NUL. */
void kp_pod_suffix(const char *ns, const char *name, int64_t i, char out[6]);

/* The ResourceClaim the resourceclaim controller makes for a pod's claim
 * from a ResourceClaimTemplate: generateName "<pod>-<claim>-", both parts
 * cut in proportion to their lengths to 57 characters when longer (then
 * without the last '-'), as pkg/controller/resourceclaim does; the API
 * server's 5 random characters made deterministic: kp_pod_suffix of
 * "<pod>/<claim>" in ns.  Cannot fail; truncates to size. */
void kp_claim_name(const char *ns, const char *pod, const char *claim, char *out, size_t size);

/* The DRA driver and DeviceClass of the GPUs the openb importer publishes
 * (importers/openb.c); the planner allocates that class best fit (planner/dra.c). */
#define KP_OPENB_GPU_DRIVER "gpu.openb.kplan.io"
#define KP_OPENB_GPU_CLASS "gpu.openb.kplan.io"

#endif
