/*
 * priority.h — the PriorityClasses the API server builds in, and what it
 * refuses: kubernetes pkg/apis/scheduling/helpers.go (SystemPriorityClasses,
 * IsKnownSystemPriorityClass) and validation/validation.go
 * (ValidatePriorityClass, ValidatePriorityClassUpdate).
 *
 * The API server makes system-node-critical (2000001000) and
 * system-cluster-critical (2000000000) at startup (pkg/registry/scheduling/rest
 * storage_scheduling.go), globalDefault false, preemptionPolicy defaulted to
 * PreemptLowerPriority, and refuses to delete them (pkg/registry/scheduling/
 * priorityclass/storage).  So a pod may name them in every cluster: kplan
 * knows them without an import.  An imported object of the same name is the
 * same class (a `kubectl get priorityclasses` dump holds both); one with
 * another value, globalDefault or preemptionPolicy could not exist there and
 * is refused at import, as is any other name starting with "system-" and a
 * user class above 1000000000.
 */
#ifndef KP_PRIORITY_H
#define KP_PRIORITY_H

#include <stddef.h>
#include <stdint.h>

#define KP_SYSTEM_CRITICAL_PRIORITY 2000000000LL   /* SystemCriticalPriority */
#define KP_HIGHEST_USER_PRIORITY 1000000000LL      /* HighestUserDefinablePriority */

/* The classes a pod may name, as a subquery (id, name, value, preemption_policy;
 * id NULL for a built-in class not imported).  schema.sql's pod_priority view
 * holds the same text: the planner (queries/snapshot/classes.sql, checked by an assert in
 * planner/snapshot_classes.c) and the view resolve alike. */
#define KP_KNOWN_PRIORITY_CLASSES                                                                        \
	"(SELECT id, name, value, preemption_policy FROM priority_class UNION ALL "                     \
	"SELECT NULL, column1, column2, 'PreemptLowerPriority' FROM (VALUES "                           \
	"('system-node-critical', 2000001000), ('system-cluster-critical', 2000000000)) "              \
	"WHERE column1 NOT IN (SELECT name FROM priority_class))"

/* NULL when the API server would hold a PriorityClass with these fields (policy
 * NULL: PreemptLowerPriority); else why not, in buf, with *field the field it
 * is about: "name", "value", "globalDefault" or "preemptionPolicy". */
const char *kp_priority_class_refused(const char *name, int64_t value, int global_default, const char *policy,
				      const char **field, char *buf, size_t size);

#endif
