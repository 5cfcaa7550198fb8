/*
 * kube.c — the kube-scheduler version and feature gates a plan reproduces
 * (kube.h).  The gate table follows kube's versioned feature specs
 * (pkg/features/kube_features.go, defaultVersionedKubernetesFeatureGates):
 * a version's default is the last stage at or before it.
 */
#include "kube.h"
#include "suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define KP_GATE_INFO_(index, name, defaults, kplan) { name, defaults, kplan },
const kp_gate_info kp_gates[KP_FG_COUNT] = { KP_FEATURE_GATES(KP_GATE_INFO_) };
#undef KP_GATE_INFO_

int kp_kube_default(int gate, int minor)
{
	char c = kp_gates[gate].defaults[minor - KP_KUBE_OLDEST];
	return c == '-' ? -1 : c != '0';
}

static int locked(int gate, int minor)
{
	return kp_gates[gate].defaults[minor - KP_KUBE_OLDEST] == 'L';
}

void kp_kube_init(kp_kube *k, int minor)
{
	memset(k, 0, sizeof *k);
	k->minor = minor;
	for (int g = 0; g < KP_FG_COUNT; g++)
		k->on[g] = kp_kube_default(g, minor) == 1;
}

int kp_kube_parse_version(const char *text, int *minor, kp_err *err)
{
	const char *p = text + (text[0] == 'v');
	char *end;
	long major = strtol(p, &end, 10);
	long m = -1;
	if (isdigit((unsigned char)*p) && major == 1 && *end == '.' && isdigit((unsigned char)end[1])) {
		m = strtol(end + 1, &end, 10);
		if (*end == '.' && isdigit((unsigned char)end[1]))
			strtol(end + 1, &end, 10);   /* a patch release plans as its minor */
	}
	if (m < 0 || *end)
		return kp_err_set(err, KP_USAGE, "'%s' is not a kube version (1.MINOR, e.g. 1.%d)", text, KP_KUBE_NEWEST);
	if (m < KP_KUBE_OLDEST || m > KP_KUBE_NEWEST)
		return kp_err_set(err, KP_USAGE, "kube 1.%ld is not one kplan plans as (1.%d to 1.%d; docs/kube-versions.md)", m,
				  KP_KUBE_OLDEST, KP_KUBE_NEWEST);
	*minor = (int)m;
	return KP_OK;
}

int kp_kube_gate_index(const char *name)
{
	for (int g = 0; g < KP_FG_COUNT; g++)
		if (!strcmp(kp_gates[g].name, name))
			return g;
	return -1;
}

static int unknown_gate(const char *name, const char *origin, kp_err *err)
{
	const char *names[KP_FG_COUNT];
	for (int g = 0; g < KP_FG_COUNT; g++)
		names[g] = kp_gates[g].name;
	const char *best = kp_closest(name, names, KP_FG_COUNT);
	return kp_err_set(err, KP_USAGE, "%s: unrecognized feature gate: %s%s%s%s (the gates kplan knows: docs/kube-versions.md)",
			  origin, name, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
}

/* one "Name=value" item of len bytes */
static int set_one(kp_kube *k, const char *item, size_t len, const char *origin, kp_err *err)
{
	char buf[128];
	while (len && isspace((unsigned char)*item))
		item++, len--;
	while (len && isspace((unsigned char)item[len - 1]))
		len--;
	if (!len)
		return KP_OK;
	if (len >= sizeof buf)
		return kp_err_set(err, KP_USAGE, "%s: feature gate item too long: '%.40s...'", origin, item);
	memcpy(buf, item, len);
	buf[len] = 0;
	char *eq = strchr(buf, '=');
	if (!eq)
		return kp_err_set(err, KP_USAGE, "%s: missing bool value for %s (write %s=true or %s=false)", origin, buf, buf, buf);
	*eq = 0;
	const char *name = buf, *val = eq + 1;
	int g = kp_kube_gate_index(name);
	if (g < 0)
		return unknown_gate(name, origin, err);
	int on;
	if (!strcmp(val, "true"))
		on = 1;
	else if (!strcmp(val, "false"))
		on = 0;
	else
		return kp_err_set(err, KP_USAGE, "%s: invalid value of %s=%s, err: strconv.ParseBool: parsing \"%s\": invalid syntax",
				  origin, name, val, val);
	if (kp_kube_default(g, k->minor) < 0)
		return kp_err_set(err, KP_USAGE, "%s: feature gate %s does not exist in kube 1.%d", origin, name, k->minor);
	if (!on && locked(g, k->minor))
		return kp_err_set(err, KP_USAGE, "%s: cannot set feature gate %s to false, feature is locked to true", origin, name);
	char kp = kp_gates[g].kplan;
	if ((kp == 'O' && !on) || (kp == 'F' && on))
		return kp_err_set(err, KP_USAGE, "%s: kplan models %s only %s (docs/kube-versions.md)", origin, name,
				  kp == 'O' ? "on" : "off");
	k->on[g] = (uint8_t)on;
	k->set[g] = 1;
	return KP_OK;
}

int kp_kube_set_gates(kp_kube *k, const char *spec, const char *origin, kp_err *err)
{
	kp_kube tmp = *k;
	for (const char *p = spec; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (set_one(&tmp, p, len, origin, err))
			return KP_USAGE;
		p += len + (comma != NULL);
	}
	*k = tmp;
	return KP_OK;
}

void kp_kube_gates_text(const kp_kube *k, char *buf, size_t size)
{
	size_t n = 0;
	if (size)
		buf[0] = 0;
	for (int g = 0; g < KP_FG_COUNT && n < size; g++) {
		if (!k->set[g])
			continue;
		int w = snprintf(buf + n, size - n, "%s%s=%s", n ? "," : "", kp_gates[g].name, k->on[g] ? "true" : "false");
		n += w > 0 ? (size_t)w : 0;
	}
}

void kp_kube_describe(const kp_kube *k, char *buf, size_t size)
{
	char gates[1024];
	kp_kube_gates_text(k, gates, sizeof gates);
	snprintf(buf, size, "kube 1.%d%s%s%s", k->minor, gates[0] ? " (feature gates: " : "", gates, gates[0] ? ")" : "");
}

/* Read in kubernetes/kubernetes component-helpers/nodedeclaredfeatures
 * features/<name> (docs/kube-versions.md §3 NodeDeclaredFeatures): the
 * rules with an InferForScheduling, by the release that registers them. */
static const struct { const char *name; int minor; } ndf_registry[] = {
	{ "RestartAllContainersOnContainerExits", 35 },
	{ "UserNamespacesHostNetworkSupport", 36 },
	{ "VolumeBindMountOptions", 37 },
	{ "CgroupOptions", 38 },
	{ "ContainerUlimits", 38 },
	{ "DownwardAPIAssignedResources", 38 },
	{ "PerPodPIDLimit", 38 },
	{ "PodCertificateMLDSA", 38 },
	{ "PodDefaultNetworkNone", 38 },
	{ "SecurityProfileOCI", 38 },
};

int kp_kube_ndf_minor(const char *feature)
{
	for (size_t i = 0; i < sizeof ndf_registry / sizeof *ndf_registry; i++)
		if (!strcmp(ndf_registry[i].name, feature))
			return ndf_registry[i].minor;
	return 0;
}
