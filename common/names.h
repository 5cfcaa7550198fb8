/*
 * names.h — names as Kubernetes controllers make them, shared by the importer
 * (pods it generates for workloads) and what-if (replicas --scale adds,
 * DaemonSet pods of added nodes), so that both name a pod alike.
 */
#ifndef KP_NAMES_H
#define KP_NAMES_H

#include <stdint.h>

/* The 5-character suffix controllers give pod names (NS/NAME: the owner),
 * made deterministic: index i of one owner never collides with another
 * index below 27^5.  Cannot fail; out gets 5 characters and a NUL. */
void kp_pod_suffix(const char *ns, const char *name, int64_t i, char out[6]);

#endif
