/*
 * priority.c — the API server's built-in PriorityClasses (see priority.h).
 */
#include "priority.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int64_t value;
} builtin[] = {
	{ "system-node-critical", KP_SYSTEM_CRITICAL_PRIORITY + 1000 },
	{ "system-cluster-critical", KP_SYSTEM_CRITICAL_PRIORITY },
};

const char *kp_priority_class_refused(const char *name, int64_t value, int global_default, const char *policy,
				      const char **field, char *buf, size_t size)
{
	if (strncmp(name, "system-", 7)) {
		if (value <= KP_HIGHEST_USER_PRIORITY)
			return NULL;
		*field = "value";
		snprintf(buf, size, "%lld is above %lld, the highest a user-defined class may have (the API server "
			 "refuses it; higher values are for its built-in system classes)", (long long)value,
			 KP_HIGHEST_USER_PRIORITY);
		return buf;
	}
	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
		if (strcmp(name, builtin[i].name))
			continue;
		if (value != builtin[i].value) {
			*field = "value";
			snprintf(buf, size, "the built-in %s has value %lld; the API server refuses any other", name,
				 (long long)builtin[i].value);
		} else if (global_default) {
			*field = "globalDefault";
			snprintf(buf, size, "the built-in %s is not the global default; the API server refuses true", name);
		} else if (policy && strcmp(policy, "PreemptLowerPriority")) {
			*field = "preemptionPolicy";
			snprintf(buf, size, "the built-in %s has PreemptLowerPriority, and the field cannot change", name);
		} else {
			return NULL;
		}
		return buf;
	}
	*field = "name";
	snprintf(buf, size, "'%s': names starting with 'system-' are reserved for the API server's built-in "
		 "classes (system-node-critical, system-cluster-critical)", name);
	return buf;
}
