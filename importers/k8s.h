/*
 * k8s.h — the Kubernetes reader (k8s*.c): every object of a YAML or JSON
 * stream, stored through store.h.
 *
 *   kp_k8s_read(imp, "cluster.yaml", data, len, &err);
 */
#ifndef KP_K8S_H
#define KP_K8S_H

#include <stddef.h>
#include "store.h"

/* Read every object of data (file names it in messages): Nodes, Pods,
 * workloads, PriorityClasses, PodDisruptionBudgets, Services, Namespaces and
 * KubeSchedulerConfigurations (also inside a ConfigMap) are stored, other
 * kinds counted and skipped.  Returns KP_OK, a YAML error, or the error of
 * an object that kp_import_invalid() did not skip. */
int kp_k8s_read(kp_import *imp, const char *file, const char *data, size_t len, kp_err *err);

#endif
