/*
 * test_cel.c — the CEL subset of DRA selectors (common/cel*.c): evaluation
 * against fixture devices, compile-time errors and refusals with their
 * positions, CEL's commutative error semantics, limits (length, nesting,
 * allocation failures, no allocation while evaluating), and every selector
 * of the real manifests in ../shared/data/realworld2 (skipped when absent).
 *
 * Cases name their source: kube's dynamic-resource-allocation/cel
 * compile_test.go TestCEL and semver_test.go TestSemver, apiserver's
 * cel/library quantity_test.go TestQuantity (kubernetes/kubernetes), a
 * realworld2 file, or "kplan" for kplan's own choices (docs/cel.md).
 * kube's cases that evaluate to a non-bool are wrapped in a comparison
 * (a selector must be bool).
 *
 * `test_cel --replay FILE...` compiles and evaluates each file's text on the
 * fixtures instead (tests/t/60-fuzz-regressions.t feeds it the fuzz corpus
 * and regressions): exit 0, or 3 when an invariant breaks (a refusal is
 * not a failure).
 */
#include "../../common/cel.h"
#include "../../common/quantity.h"
#include "../../common/ydom.h"
#include "tap.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* ---- fixture devices ---- */

enum { A = 0, C = 1 };   /* the maps: attributes, capacity */

typedef struct fx_entry {
	int map;
	const char *qname;   /* "name" (the driver's domain) or "domain/name", as in a ResourceSlice */
	int type;            /* KP_CEL_*; capacity: s is the quantity text */
	int64_t i;
	const char *s;
} fx_entry;

typedef struct fixture {
	const char *driver;
	int multi;
	fx_entry e[12];
} fixture;

#define B_(q, v) { A, q, KP_CEL_BOOL, v, NULL }
#define I_(q, v) { A, q, KP_CEL_INT, v, NULL }
#define S_(q, v) { A, q, KP_CEL_STRING, 0, v }
#define V_(q, v) { A, q, KP_CEL_VERSION, 0, v }
#define Q_(q, v) { C, q, KP_CEL_QUANTITY, 0, v }

static const fixture F_NONE = { "", 0, { { 0 } } };
static const fixture F_BOOL = { "dra.example.com", 0, { B_("name", 1) } };
static const fixture F_OTHER = { "dra.example.com", 0, { B_("other.example.com/name", 1) } };
static const fixture F_INT = { "dra.example.com", 0, { I_("name", 1) } };
static const fixture F_STR = { "dra.example.com", 0, { S_("name", "fish") } };
static const fixture F_VER = { "dra.example.com", 0, { V_("name", "1.0.0") } };
static const fixture F_CAP = { "dra.example.com", 0, { Q_("name", "1Mi") } };
static const fixture F_ALL = { "dra.example.com", 0, {
	B_("bool", 1), I_("int", 1), S_("string", "fish"), V_("version", "1.0.0"), Q_("quantity", "1Mi"),
	B_("a", 1), B_("b", 1), B_("c", 1), B_("dra.example.com/something", 1), S_("qtext", "10Ei"), S_("qfine", "1n") } };
/* dra-example-driver's GPUs (its ResourceSlices: model, index, uuid, driverVersion; memory) */
static const fixture F_GPU = { "gpu.example.com", 0, {
	S_("model", "LATEST-GPU-MODEL"), I_("index", 0), S_("uuid", "gpu-18db0e85-99e9-c746-8531-ffeb86328b39"),
	V_("driverVersion", "1.0.0"), Q_("memory", "80Gi"),
	S_("resource.kubernetes.io/pcieRoot", "pci0000:00") } };
static const fixture F_HUGE = { "gpu.example.com", 0, {
	S_("model", "BLEEDING-EDGE-GPU"), I_("index", 1), V_("driverVersion", "1.1.0-rc.2"), Q_("memory", "2Ti") } };
/* NVIDIA's driver: a MIG device with 14 multiprocessors */
static const fixture F_MIG = { "gpu.nvidia.com", 0, {
	S_("type", "mig"), I_("index", 0), S_("productName", "NVIDIA A100-SXM4-40GB"), Q_("multiprocessors", "14"),
	Q_("memory", "4864Mi") } };
static const fixture F_NIC = { "dra.net", 0, { B_("rdma", 1), S_("ifName", "eth1") } };
static const fixture F_QAT = { "qat.intel.com", 0, { S_("services", "sym;asym") } };
static const fixture F_INTEL = { "gpu.intel.com", 0, { S_("driver", "xe-vfio-pci"), S_("model", "0x56c0") } };
static const fixture F_PERF = { "test-driver.cdi.k8s.io", 1, { { 0 } } };
/* values a device should not give: kplan reports them as errors */
static const fixture F_BAD = { "bad.example.com", 0, {
	V_("version", "1.2"), { A, "none", KP_CEL_NONE, 0, NULL }, { A, "qty", KP_CEL_QUANTITY, 5, NULL },
	{ C, "wrong", KP_CEL_INT, 5, NULL }, Q_("fine", "1n") } };

static int fx_lookup(void *ctx, int map, const char *domain, const char *name, kp_cel_val *out)
{
	const fixture *f = ctx;
	for (const fx_entry *e = f->e; e->qname; e++) {
		if (e->map != map)
			continue;
		/* kube's parseQualifiedName: no "/" means the driver's domain */
		const char *slash = strchr(e->qname, '/');
		size_t dn = slash ? (size_t)(slash - e->qname) : strlen(f->driver);
		const char *d = slash ? e->qname : f->driver, *n = slash ? slash + 1 : e->qname;
		if (strlen(domain) != dn || strncmp(domain, d, dn) != 0)
			continue;
		if (!name)
			return 1;
		if (strcmp(name, n) != 0)
			continue;
		out->type = e->type;
		out->i = e->i;
		out->b = (int)e->i;
		out->s = e->s;
		if (map == C && e->s) {
			kp_err err = { 0 };
			if (kp_quantity_parse(e->s, 1, &out->i, &err) != KP_OK)
				out->type = KP_CEL_NONE;
			if (strcmp(e->s, "1n") == 0)
				out->type = KP_CEL_NONE;   /* finer than a milli-unit: as cel.h asks callers to */
		}
		return 1;
	}
	return 0;
}

static kp_cel_device device_of(const fixture *f)
{
	kp_cel_device d = { .driver = f->driver, .allow_multiple = f->multi, .lookup = fx_lookup, .ctx = (void *)f };
	return d;
}

/* ---- evaluation ---- */

typedef struct eval_case {
	const char *name;
	const char *expr;
	const fixture *fx;
	int want;            /* 1, 0, -1 (runtime error) */
	const char *msg;     /* -1: a substring of the message */
} eval_case;

static const eval_case eval_cases[] = {
	/* compile_test.go TestCEL */
	{"TestCEL/true", "true", &F_NONE, 1, NULL},
	{"TestCEL/false", "false", &F_NONE, 0, NULL},
	{"TestCEL/runtime-error-lookup-identifier",
	 "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))", &F_NONE, -1,
	 "no such key: noSuchAttr"},
	{"TestCEL/runtime-error-lookup-map",
	 "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))", &F_NONE, -1,
	 "no such key: noSuchAttr"},
	{"TestCEL/domain-check-negative", "\"no-such-domain\" in device.attributes", &F_NONE, 0, NULL},
	{"TestCEL/domain-check-positive", "\"dra.example.com\" in device.attributes", &F_ALL, 1, NULL},
	{"TestCEL/empty-driver-name", "device.driver == \"\"", &F_NONE, 1, NULL},
	{"TestCEL/real-driver-name", "device.driver == \"dra.example.com\"", &F_BOOL, 1, NULL},
	{"TestCEL/driver-name-qualifier", "device.attributes[\"dra.example.com\"].name", &F_BOOL, 1, NULL},
	{"TestCEL/driver-name-qualifier-map-lookup", "device.attributes[\"dra.example.com\"][\"name\"]", &F_BOOL, 1, NULL},
	{"TestCEL/bind", "cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)", &F_BOOL, 1, NULL},
	{"TestCEL/qualified-attribute-name", "device.attributes[\"other.example.com\"].name", &F_OTHER, 1, NULL},
	{"TestCEL/bool", "device.attributes[\"dra.example.com\"].name", &F_BOOL, 1, NULL},
	{"TestCEL/int", "device.attributes[\"dra.example.com\"].name > 0", &F_INT, 1, NULL},
	{"TestCEL/string", "device.attributes[\"dra.example.com\"].name == \"fish\"", &F_STR, 1, NULL},
	{"TestCEL/version", "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"0.0.1\"))", &F_VER, 1, NULL},
	{"TestCEL/version_v",
	 "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"v0.0.1\", true)) && isSemver(\"v1.0.0\", true)",
	 &F_VER, 1, NULL},
	{"TestCEL/quantity", "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", &F_CAP, 1, NULL},
	{"TestCEL/check-positive",
	 "\"name\" in device.capacity[\"dra.example.com\"] && device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
	 &F_CAP, 1, NULL},
	{"TestCEL/check-negative",
	 "!(\"name\" in device.capacity[\"dra.example.com\"]) || device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
	 &F_NONE, 1, NULL},
	{"TestCEL/all",
	 "\ndevice.capacity[\"dra.example.com\"].quantity.isGreaterThan(quantity(\"1Ki\")) &&\n"
	 "device.attributes[\"dra.example.com\"].bool &&\n"
	 "device.attributes[\"dra.example.com\"].int > 0 &&\n"
	 "device.attributes[\"dra.example.com\"].string == \"fish\" &&\n"
	 "device.attributes[\"dra.example.com\"].version.isGreaterThan(semver(\"0.0.1\")) &&\n"
	 "device.capacity[\"dra.example.com\"][\"quantity\"].isGreaterThan(quantity(\"1Ki\")) &&\n"
	 "device.attributes[\"dra.example.com\"][\"bool\"] &&\n"
	 "device.attributes[\"dra.example.com\"][\"int\"] > 0 &&\n"
	 "device.attributes[\"dra.example.com\"][\"string\"] == \"fish\" &&\n"
	 "device.attributes[\"dra.example.com\"][\"version\"].isGreaterThan(semver(\"0.0.1\"))\n", &F_ALL, 1, NULL},
	{"TestCEL/many",
	 "device.attributes[\"dra.example.com\"].a && device.attributes[\"dra.example.com\"].b && device.attributes[\"dra.example.com\"].c",
	 &F_ALL, 1, NULL},
	{"TestCEL/allow_multiple_allocations", "device.allowMultipleAllocations == true", &F_PERF, 1, NULL},
	{"TestCEL/allow_multiple_allocations_default", "device.allowMultipleAllocations == false", &F_NONE, 1, NULL},

	/* quantity_test.go TestQuantity */
	{"TestQuantity/isQuantity", "isQuantity(\"20\")", &F_NONE, 1, NULL},
	{"TestQuantity/isQuantity_megabytes", "isQuantity(\"20M\")", &F_NONE, 1, NULL},
	{"TestQuantity/isQuantity_mebibytes", "isQuantity(\"20Mi\")", &F_NONE, 1, NULL},
	{"TestQuantity/isQuantity_invalidSuffix", "isQuantity(\"20Mo\")", &F_NONE, 0, NULL},
	{"TestQuantity/isQuantity_passingRegex", "isQuantity(\"10Mm\")", &F_NONE, 0, NULL},
	{"TestQuantity/parseInvalidSuffix", "quantity(\"10Mo\").isInteger()", &F_NONE, -1, "invalid quantity '10Mo'"},
	{"TestQuantity/equality_reflexivity", "quantity(\"200M\") == quantity(\"200M\")", &F_NONE, 1, NULL},
	{"TestQuantity/equality_symmetry",
	 "quantity(\"200M\") == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")", &F_NONE, 1, NULL},
	{"TestQuantity/equality_transitivity",
	 "quantity(\"2M\") == quantity(\"0.002G\") && quantity(\"2000k\") == quantity(\"2M\") && quantity(\"0.002G\") == quantity(\"2000k\")",
	 &F_NONE, 1, NULL},
	{"TestQuantity/inequality", "quantity(\"200M\") == quantity(\"0.3G\")", &F_NONE, 0, NULL},
	{"TestQuantity/quantity_less", "quantity(\"50M\").isLessThan(quantity(\"50Mi\"))", &F_NONE, 1, NULL},
	{"TestQuantity/quantity_less_obvious", "quantity(\"50M\").isLessThan(quantity(\"100M\"))", &F_NONE, 1, NULL},
	{"TestQuantity/quantity_less_false", "quantity(\"100M\").isLessThan(quantity(\"50M\"))", &F_NONE, 0, NULL},
	{"TestQuantity/quantity_greater", "quantity(\"50Mi\").isGreaterThan(quantity(\"50M\"))", &F_NONE, 1, NULL},
	{"TestQuantity/quantity_greater_obvious", "quantity(\"150Mi\").isGreaterThan(quantity(\"100Mi\"))", &F_NONE, 1, NULL},
	{"TestQuantity/quantity_greater_false", "quantity(\"50M\").isGreaterThan(quantity(\"100M\"))", &F_NONE, 0, NULL},
	{"TestQuantity/compare_equal", "quantity(\"200M\").compareTo(quantity(\"0.2G\")) == 0", &F_NONE, 1, NULL},
	{"TestQuantity/compare_less", "quantity(\"50M\").compareTo(quantity(\"50Mi\")) == -1", &F_NONE, 1, NULL},
	{"TestQuantity/compare_greater", "quantity(\"50Mi\").compareTo(quantity(\"50M\")) == 1", &F_NONE, 1, NULL},
	{"TestQuantity/add_quantity", "quantity(\"50k\").add(quantity(\"20\")) == quantity(\"50.02k\")", &F_NONE, 1, NULL},
	{"TestQuantity/add_int", "quantity(\"50k\").add(20).isLessThan(quantity(\"50020\"))", &F_NONE, 0, NULL},
	{"TestQuantity/sub_quantity", "quantity(\"50k\").sub(quantity(\"20\")) == quantity(\"49.98k\")", &F_NONE, 1, NULL},
	{"TestQuantity/sub_int", "quantity(\"50k\").sub(20) == quantity(\"49980\")", &F_NONE, 1, NULL},
	{"TestQuantity/multiply", "quantity(\"50k\").mul(2) == quantity(\"100000\")", &F_NONE, 1, NULL},
	{"TestQuantity/arith_chain_1", "quantity(\"50k\").add(20).sub(quantity(\"100k\")).asInteger() == -49980", &F_NONE, 1, NULL},
	{"TestQuantity/arith_chain",
	 "quantity(\"50k\").add(20).sub(quantity(\"100k\")).sub(-50000).asInteger() == 20", &F_NONE, 1, NULL},
	{"TestQuantity/as_integer", "quantity(\"50k\").asInteger() == 50000", &F_NONE, 1, NULL},
	{"TestQuantity/is_integer", "quantity(\"50\").isInteger()", &F_NONE, 1, NULL},
	/* kplan: quantities in milli-units */
	{"kplan: milli quantities compare exactly", "quantity(\"1500m\") == quantity(\"1.5\") && quantity(\"1m\").sign() == 1",
	 &F_NONE, 1, NULL},
	{"kplan: exact in milli-units", "quantity(\"0.0005Ki\") == quantity(\"512m\") && quantity(\"1e-3\") == quantity(\"1m\") && "
	 "quantity(\"0.5Ki\").asInteger() == 512", &F_NONE, 1, NULL},
	{"kplan: a fraction is not an integer", "quantity(\"1500m\").isInteger()", &F_NONE, 0, NULL},
	{"kplan: asInteger of a fraction", "quantity(\"1500m\").asInteger() == 1", &F_NONE, -1, "cannot convert value to integer"},
	{"kplan: sign() as kube declares it", "sign(quantity(\"-2Gi\")) == -1 && sign(quantity(\"0\")) == 0", &F_NONE, 1, NULL},
	{"kplan: kube's Quantity.Equal is false for add()'s pointer on the right",
	 "quantity(\"50.02k\") == quantity(\"50k\").add(quantity(\"20\"))", &F_NONE, 0, NULL},
	{"kplan: and != true", "quantity(\"50.02k\") != quantity(\"50k\").add(quantity(\"20\"))", &F_NONE, 1, NULL},
	{"kplan: a capacity is a quantity", "device.capacity[\"gpu.example.com\"].memory == quantity(\"80Gi\")", &F_GPU, 1, NULL},
	{"kplan: quantity arithmetic beyond int64 milli-units",
	 "quantity(\"8Pi\").mul(2000).isGreaterThan(quantity(\"0\"))", &F_NONE, -1, "beyond int64 milli-units"},
	{"kplan: quantity() of an attribute", "quantity(device.attributes[\"dra.example.com\"].name).sign() == 1", &F_STR, -1,
	 "invalid quantity 'fish'"},
	{"kplan: a capacity finer than a milli-unit", "device.capacity[\"bad.example.com\"].fine.sign() == 1", &F_BAD, -1,
	 "no usable value for 'fine'"},
	{"kplan: a capacity that is no quantity", "device.capacity[\"bad.example.com\"].wrong.sign() == 1", &F_BAD, -1,
	 "no usable value for 'wrong'"},
	{"kplan: an attribute without a value", "device.attributes[\"bad.example.com\"].none == 1", &F_BAD, -1,
	 "no usable value for 'none'"},

	/* semver_test.go TestSemver */
	{"TestSemver/parse", "semver(\"1.2.3\") == semver(\"1.2.3\")", &F_NONE, 1, NULL},
	{"TestSemver/parseInvalidVersion", "semver(\"v1.0\").major() == 1", &F_NONE, -1, "No Major.Minor.Patch elements found"},
	{"TestSemver/isSemver", "isSemver(\"1.2.3-beta.1+build.1\")", &F_NONE, 1, NULL},
	{"TestSemver/isSemver_false", "isSemver(\"v1.0\")", &F_NONE, 0, NULL},
	{"TestSemver/inequality", "semver(\"1.2.3\") == semver(\"1.0.0\")", &F_NONE, 0, NULL},
	{"TestSemver/semver_less", "semver(\"1.0.0\").isLessThan(semver(\"1.2.3\"))", &F_NONE, 1, NULL},
	{"TestSemver/semver_less_false", "semver(\"1.0.0\").isLessThan(semver(\"1.0.0\"))", &F_NONE, 0, NULL},
	{"TestSemver/semver_greater", "semver(\"1.2.3\").isGreaterThan(semver(\"1.0.0\"))", &F_NONE, 1, NULL},
	{"TestSemver/semver_greater_false", "semver(\"1.0.0\").isGreaterThan(semver(\"1.0.0\"))", &F_NONE, 0, NULL},
	{"TestSemver/compare_equal", "semver(\"1.2.3\").compareTo(semver(\"1.2.3\")) == 0", &F_NONE, 1, NULL},
	{"TestSemver/compare_less", "semver(\"1.0.0\").compareTo(semver(\"1.2.3\")) == -1", &F_NONE, 1, NULL},
	{"TestSemver/compare_greater", "semver(\"1.2.3\").compareTo(semver(\"1.0.0\")) == 1", &F_NONE, 1, NULL},
	{"TestSemver/major minor patch",
	 "semver(\"1.2.3\").major() == 1 && semver(\"1.2.3\").minor() == 2 && semver(\"1.2.3\").patch() == 3", &F_NONE, 1, NULL},
	/* semverlib.go's documented examples (normalize) and semver.org's precedence */
	{"semverlib.go: normalize", "semver(\"v1.0.0\", true) == semver(\"1.0.0\") && semver(\"1.0\", true) == semver(\"1.0.0\") && "
	 "semver(\"01.01.01\", true) == semver(\"1.1.1\")", &F_NONE, 1, NULL},
	{"semverlib.go: short version with a prerelease", "isSemver(\"1.0-rc\", true)", &F_NONE, 0, NULL},
	{"semverlib.go: short version with a prerelease, semver()", "semver(\"1.0-rc\", true).major() == 1", &F_NONE, -1,
	 "short version cannot contain PreRelease/Build meta data"},
	{"semver.org: precedence",
	 "semver(\"1.0.0-alpha\").isLessThan(semver(\"1.0.0-alpha.1\")) && semver(\"1.0.0-alpha.1\").isLessThan(semver(\"1.0.0-alpha.beta\")) && "
	 "semver(\"1.0.0-alpha.beta\").isLessThan(semver(\"1.0.0-beta\")) && semver(\"1.0.0-beta\").isLessThan(semver(\"1.0.0-beta.2\")) && "
	 "semver(\"1.0.0-beta.2\").isLessThan(semver(\"1.0.0-beta.11\")) && semver(\"1.0.0-beta.11\").isLessThan(semver(\"1.0.0-rc.1\")) && "
	 "semver(\"1.0.0-rc.1\").isLessThan(semver(\"1.0.0\"))", &F_NONE, 1, NULL},
	{"semver.org: build metadata does not count", "semver(\"1.0.0+a\") == semver(\"1.0.0+b.2\")", &F_NONE, 1, NULL},
	{"blang/semver: leading zeroes", "isSemver(\"1.02.3\") || isSemver(\"1.2.3-01\")", &F_NONE, 0, NULL},
	{"kplan: a version attribute compares as a semver",
	 "device.attributes[\"gpu.example.com\"].driverVersion.compareTo(semver(\"1.1.0\")) < 0", &F_HUGE, 1, NULL},
	{"kplan: a version attribute == a version", "device.attributes[\"gpu.example.com\"].driverVersion == semver(\"1.0.0\")",
	 &F_GPU, 1, NULL},
	{"kplan: Semver.Equal on another type is an error", "device.attributes[\"dra.example.com\"].version == 1", &F_ALL, -1,
	 "no such overload"},
	{"kplan: Int.Equal on a version is false", "1 == device.attributes[\"dra.example.com\"].version", &F_ALL, 0, NULL},
	{"kplan: an invalid version attribute", "device.attributes[\"bad.example.com\"].version.major() == 1", &F_BAD, -1,
	 "parse semantic version '1.2'"},

	/* kplan: CEL's logical operators (cel-spec langdef "Logical Operators") */
	{"kplan: false && error", "false && device.attributes[\"x\"].y", &F_NONE, 0, NULL},
	{"kplan: error && false", "device.attributes[\"x\"].y && false", &F_NONE, 0, NULL},
	{"kplan: true || error", "true || device.attributes[\"x\"].y", &F_NONE, 1, NULL},
	{"kplan: error || true", "device.attributes[\"x\"].y || true", &F_NONE, 1, NULL},
	{"kplan: error && true", "device.attributes[\"x\"].y && true", &F_NONE, -1, "no such key: y"},
	{"kplan: true && error", "true && device.attributes[\"x\"].y", &F_NONE, -1, "no such key: y"},
	{"kplan: error || false", "device.attributes[\"x\"].y || false", &F_NONE, -1, "no such key: y"},
	{"kplan: the first error in text order", "device.attributes[\"x\"].a || device.attributes[\"x\"].b", &F_NONE, -1,
	 "no such key: a"},
	{"kplan: error || error || true", "device.attributes[\"x\"].a || device.attributes[\"x\"].b || true", &F_NONE, 1, NULL},
	{"kplan: a non-bool term", "true && device.attributes[\"dra.example.com\"].name", &F_INT, -1, "no such overload"},
	{"kplan: a non-bool term absorbed", "device.attributes[\"dra.example.com\"].name && false", &F_INT, 0, NULL},
	{"kplan: ! of an error", "!device.attributes[\"x\"].y", &F_NONE, -1, "no such key: y"},
	{"kplan: ?: on an error", "device.attributes[\"x\"].y ? true : true", &F_NONE, -1, "no such key: y"},
	{"kplan: ?: evaluates one branch", "true ? true : device.attributes[\"x\"].y", &F_NONE, 1, NULL},
	{"kplan: == is strict", "device.attributes[\"x\"].y == 1 || true", &F_NONE, 1, NULL},
	{"kplan: has() guards a lookup", "has(device.attributes[\"x\"].y) && device.attributes[\"x\"].y", &F_NONE, 0, NULL},
	{"kplan: has() of a present attribute", "has(device.attributes[\"gpu.example.com\"].model)", &F_GPU, 1, NULL},
	{"kplan: has() of a domain is true (an empty map)", "has(device.attributes.absent)", &F_NONE, 1, NULL},
	{"kplan: in on a domain map", "\"model\" in device.attributes[\"gpu.example.com\"] && !(\"x\" in device.attributes[\"gpu.example.com\"])",
	 &F_GPU, 1, NULL},
	{"kplan: a non-bool result", "device.attributes[\"dra.example.com\"].name", &F_INT, -1,
	 "CEL result of type int could not be converted to bool"},

	/* kplan: comparisons and arithmetic */
	{"kplan: heterogeneous == is false", "device.attributes[\"dra.example.com\"].name == \"1\"", &F_INT, 0, NULL},
	{"kplan: < across types", "device.attributes[\"dra.example.com\"].name < \"z\"", &F_INT, -1, "no such overload"},
	{"kplan: ordering of strings and bools", "\"ab\" < \"abc\" && \"abd\" > \"abc\" && false < true && \"\" <= \"\"", &F_NONE, 1, NULL},
	{"kplan: int division truncates", "7 / 2 == 3 && -7 / 2 == -3 && -7 % 3 == -1 && 0x10 == 16", &F_NONE, 1, NULL},
	{"kplan: integer overflow", "9223372036854775807 + 1 > 0", &F_NONE, -1, "integer overflow"},
	{"kplan: the smallest int", "-9223372036854775808 < 0 && -9223372036854775808 % -1 == 0", &F_NONE, 1, NULL},
	{"kplan: its negation overflows", "-(-9223372036854775808) > 0", &F_NONE, -1, "integer overflow"},
	{"kplan: division overflow", "-9223372036854775808 / -1 > 0", &F_NONE, -1, "integer overflow"},
	{"kplan: multiplication overflow", "4611686018427387904 * 2 > 0", &F_NONE, -1, "integer overflow"},
	{"kplan: division by zero", "1 / (1 - 1) == 0", &F_NONE, -1, "division by zero"},
	{"kplan: modulus by zero", "1 % 0 == 0", &F_NONE, -1, "modulus by zero"},
	{"kplan: in a list", "device.driver in [\"gpu.example.com\", \"dra.net\"] && !(device.driver in [])", &F_GPU, 1, NULL},
	{"kplan: in a list, another type", "device.attributes[\"dra.example.com\"].name in [\"1\", \"2\"]", &F_INT, 0, NULL},
	{"kplan: an element's error", "1 in [1, 1 / 0]", &F_NONE, -1, "division by zero"},
	{"kplan: size", "size([1, 2, 3]) == 3 && [].size() == 0 && size(\"h\\u00e9llo\") == 5", &F_NONE, 1, NULL},

	/* kplan: strings */
	{"kplan: escapes", "\"\\x41\\101\\u00e9\\U0001F600\" == 'AA\xc3\xa9\xf0\x9f\x98\x80' && \"\\\"\\n\" == '\"\\x0a'", &F_NONE, 1, NULL},
	{"kplan: raw and triple-quoted strings", "r\"\\n\".size() == 2 && \"\"\"a\"b\nc\"\"\" == 'a\"b\\nc' && R'''x''' == \"x\"",
	 &F_NONE, 1, NULL},
	{"kplan: string functions",
	 "device.attributes[\"gpu.example.com\"].uuid.startsWith(\"gpu-\") && device.attributes[\"gpu.example.com\"].model.endsWith(\"MODEL\") && "
	 "device.attributes[\"gpu.example.com\"].model.contains(\"-GPU-\") && !\"abc\".contains(\"abcd\")", &F_GPU, 1, NULL},
	{"kplan: lowerAscii, upperAscii", "device.attributes[\"gpu.example.com\"].model.lowerAscii() == \"latest-gpu-model\" && "
	 "\"\xc3\xa9" "a\".upperAscii() == \"\xc3\xa9" "A\"", &F_GPU, 1, NULL},
	{"kplan: concatenation", "device.driver + \"/\" + device.attributes[\"gpu.example.com\"].model == \"gpu.example.com/LATEST-GPU-MODEL\"",
	 &F_GPU, 1, NULL},
	{"kplan: a computed domain", "device.attributes[device.driver].index == 0", &F_GPU, 1, NULL},
	{"kplan: comments and newlines", "// the driver\ndevice.driver == 'gpu.example.com' // ours\n", &F_GPU, 1, NULL},
	{"kplan: cel.bind with a value", "cel.bind(m, device.attributes[\"gpu.example.com\"].model, m.startsWith(\"LATEST\") && m.size() == 16)",
	 &F_GPU, 1, NULL},
	{"kplan: cel.bind shadows", "cel.bind(x, 1, cel.bind(x, \"a\", x == \"a\")) && cel.bind(x, 2, x == 2)", &F_NONE, 1, NULL},
	{"kplan: an int key is converted", "device.attributes[\"dra.example.com\"][device.attributes[\"dra.example.com\"].int]", &F_ALL, -1,
	 "no such key: 1"},
	{"kplan: a version key is not", "device.attributes[\"dra.example.com\"][device.attributes[\"dra.example.com\"].version]", &F_ALL, -1,
	 "type conversion error from 'kubernetes.Semver' to 'string'"},
	{"kplan: in with converted and unconvertible keys",
	 "!(device.attributes[\"dra.example.com\"].bool in device.attributes) && !(device.attributes[\"dra.example.com\"].version in device.attributes)",
	 &F_ALL, 1, NULL},
	{"kplan: quantity() of a computed text beyond the range", "quantity(device.attributes[\"dra.example.com\"].qtext).sign() == 1",
	 &F_ALL, -1, "kplan limit: quantity '10Ei' is beyond int64 milli-units"},
	{"kplan: isQuantity() of it", "isQuantity(device.attributes[\"dra.example.com\"].qtext)", &F_ALL, 1, NULL},
	{"kplan: quantity() of a computed text finer than 1m", "quantity(device.attributes[\"dra.example.com\"].qfine).sign() == 1",
	 &F_ALL, -1, "kplan limit: quantity '1n' is finer than a milli-unit"},
	{"kplan: semver(s, true) of an attribute", "semver(device.attributes[\"dra.example.com\"].string, true).major() == 0", &F_ALL, -1,
	 "Invalid character(s) found in major number \"0fish\""},
	{"kplan: an attribute that is a quantity", "device.attributes[\"bad.example.com\"].qty == 5", &F_BAD, -1,
	 "no usable value for 'qty'"},

	/* ../shared/data/realworld2 (selectors of DeviceClasses and claim templates) */
	{"realworld2 autoscaler_e2e_dra_driver_bundle_deviceclass.yaml", "device.driver == 'gpu.example.com'", &F_GPU, 1, NULL},
	{"realworld2 dra-example-driver_rct_firstavailable_cel.yaml: model",
	 "device.attributes['gpu.example.com'].model == 'BLEEDING-EDGE-GPU'", &F_GPU, 0, NULL},
	{"realworld2 dra-example-driver_rct_firstavailable_cel.yaml: model, bleeding edge",
	 "device.attributes['gpu.example.com'].model == 'BLEEDING-EDGE-GPU'", &F_HUGE, 1, NULL},
	{"realworld2 dra-example-driver_rct_firstavailable_cel.yaml: 1Ti",
	 "device.capacity['gpu.example.com'].memory.compareTo(quantity('1Ti')) >= 0", &F_GPU, 0, NULL},
	{"realworld2 dra-example-driver_rct_firstavailable_cel.yaml: 1Ti, huge",
	 "device.capacity['gpu.example.com'].memory.compareTo(quantity('1Ti')) >= 0", &F_HUGE, 1, NULL},
	{"realworld2 dra-example-driver_rct_firstavailable_cel.yaml: latest",
	 "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'", &F_GPU, 1, NULL},
	{"realworld2 dranet_deviceclass_gke_multinetwork.yaml", "device.driver == \"dra.net\"", &F_NIC, 1, NULL},
	{"realworld2 dranet_nvidia_resourceclaims.yaml: gpu", "device.attributes[\"gpu.nvidia.com\"].index <= 2", &F_MIG, 1, NULL},
	{"realworld2 dranet_nvidia_resourceclaims.yaml: gpu selector on a NIC", "device.attributes[\"gpu.nvidia.com\"].index <= 2",
	 &F_NIC, -1, "no such key: index"},
	{"realworld2 dranet_nvidia_resourceclaims.yaml: nic", "device.attributes[\"dra.net\"].rdma == true", &F_NIC, 1, NULL},
	{"realworld2 intel_gpu_deviceclasses.yaml", "device.driver == \"gpu.intel.com\"", &F_INTEL, 1, NULL},
	{"realworld2 intel_gpu_deviceclasses.yaml (commented out)",
	 "device.attributes[\"gpu.intel.com\"].driver == 'vfio-pci' || device.attributes[\"gpu.intel.com\"].driver == 'xe-vfio-pci'",
	 &F_INTEL, 1, NULL},
	{"realworld2 intel_qat_rcts.yaml: sym",
	 "device.attributes[\"qat.intel.com\"].services == \"sym\" ||\n  device.attributes[\"qat.intel.com\"].services == \"sym;asym\" ||\n"
	 "  device.attributes[\"qat.intel.com\"].services == \"sym;dc\" ||\n  device.attributes[\"qat.intel.com\"].services == \"asym;sym\" ||\n"
	 "  device.attributes[\"qat.intel.com\"].services == \"dc;sym\"", &F_QAT, 1, NULL},
	{"realworld2 intel_qat_rcts.yaml: dc",
	 "device.attributes[\"qat.intel.com\"].services == \"dc\" ||\n  device.attributes[\"qat.intel.com\"].services == \"dc;sym\" ||\n"
	 "  device.attributes[\"qat.intel.com\"].services == \"dc;asym\" ||\n  device.attributes[\"qat.intel.com\"].services == \"sym;dc\" ||\n"
	 "  device.attributes[\"qat.intel.com\"].services == \"asym;dc\" ||\n  device.attributes[\"qat.intel.com\"].services == \"dcc\"",
	 &F_QAT, 0, NULL},
	{"realworld2 k8s-scheduler-perf_deviceclass_consumable_v1beta2.yaml",
	 "device.driver == \"test-driver.cdi.k8s.io\" &&\ndevice.allowMultipleAllocations == true", &F_PERF, 1, NULL},
	{"realworld2 nvidia-dra_bats_multiple_mig.yaml: small",
	 "device.capacity['gpu.nvidia.com'].multiprocessors.isLessThan(quantity(\"30\"))\n", &F_MIG, 1, NULL},
	{"realworld2 nvidia-dra_bats_multiple_mig.yaml: large",
	 "device.capacity['gpu.nvidia.com'].multiprocessors.isGreaterThan(quantity(\"50\"))\n", &F_MIG, 0, NULL},
	/* NVIDIA's DeviceClasses (k8s-dra-driver-gpu deployments/helm templates) */
	{"k8s-dra-driver-gpu deviceclass-gpu.yaml", "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
	 &F_MIG, 0, NULL},
	{"k8s-dra-driver-gpu deviceclass-mig.yaml", "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'",
	 &F_MIG, 1, NULL},
};

static void run_eval_cases(void)
{
	for (size_t i = 0; i < sizeof eval_cases / sizeof eval_cases[0]; i++) {
		const eval_case *c = &eval_cases[i];
		kp_cel *e = NULL;
		kp_cel_pos pos = { 0, 0 };
		char msg[256] = "";
		int rc = kp_cel_compile(c->expr, &e, &pos, msg, sizeof msg);
		if (rc != KP_OK) {
			TAP_OK(0, "%s", c->name);
			printf("#   compile failed at %d:%d: %s\n", pos.line, pos.col, msg);
			continue;
		}
		kp_cel_device d = device_of(c->fx);
		int got = kp_cel_eval(e, &d, msg, sizeof msg);
		int ok = got == c->want && (got != -1 || !c->msg || strstr(msg, c->msg));
		TAP_OK(ok, "%s", c->name);
		if (!ok)
			printf("#   got %d (%s), want %d (%s)\n", got, msg, c->want, c->msg ? c->msg : "");
		kp_cel_free(e);
	}
}

/* ---- compile-time errors and refusals ---- */

typedef struct compile_case {
	const char *name;
	const char *expr;
	int line, col;
	const char *msg;   /* a substring */
} compile_case;

static const compile_case compile_cases[] = {
	{"TestCEL/syntax-error", "?!", 1, 1, "Syntax error"},
	{"TestCEL/type-error", "1", 1, 1, "must evaluate to bool or the unknown type, not int"},
	{"TestCEL/macro-exists-on-int", "device.attributes[\"dra.example.com\"].name.exists(x, x > 0)", 1, 43,
	 "unsupported: the macro 'exists'"},
	{"TestCEL/check_attribute_domains", "device.attributes.exists_one(x, x == \"dra.example.com\")", 1, 19,
	 "unsupported: the macro 'exists_one'"},
	{"TestCEL/split_attribute", "device.attributes[\"dra.example.com\"].services.split(\"example\").size() >= 2", 1, 47,
	 "unsupported: the function 'split'"},
	{"TestCEL/regexp_attribute", "device.attributes[\"dra.example.com\"].services.matches(\"[^a]?sym\")", 1, 47,
	 "unsupported: the function 'matches'"},
	{"TestCEL/includes-function-compilation-error", "device.attributes[\"dra.example.com\"].attr.includes(\"fish\")", 1, 43,
	 "the function 'includes'"},
	{"TestCEL/allow_multiple_allocations: an undefined field", "device.allowMultipleAlloc == false", 1, 7,
	 "undefined field 'allowMultipleAlloc'"},
	{"TestQuantity/isQuantity_noOverload", "isQuantity([1, 2, 3])", 1, 1,
	 "found no matching overload for 'isQuantity' applied to '(list(int))'"},
	{"TestQuantity/as_integer_error (kplan: out of range)",
	 "quantity(\"9999999999999999999999999999999999999G\").asInteger() == 0", 1, 10, "beyond kplan's range"},
	{"TestQuantity/divide_scaled", "quantity(\"10k\").div(2) == quantity(\"5000\")", 1, 17, "unsupported: the function 'div'"},
	{"TestQuantity/as_float", "quantity(\"50.703k\").asApproximateFloat() > 0", 1, 21, "the function 'asApproximateFloat'"},
	{"TestSemver/isSemver_noOverload", "isSemver([1, 2, 3])", 1, 1, "found no matching overload for 'isSemver'"},
	{"kplan: finer than a milli-unit", "quantity(\"1n\").sign() == 1", 1, 10, "finer than a milli-unit"},
	{"kplan: 0.5m", "device.capacity[\"d\"].x == quantity('0.5m')", 1, 36, "finer than a milli-unit"},
	{"kplan: 0.0001Ki", "quantity(\"0.0001Ki\").sign() == 1", 1, 10, "finer than a milli-unit"},
	{"kplan: 1e-4", "quantity(\"1e-4\").sign() == 1", 1, 10, "finer than a milli-unit"},
	{"kplan: < on quantities", "quantity(\"1\") < quantity(\"2\")", 1, 15,
	 "found no matching overload for '_<_' applied to '(kubernetes.Quantity, kubernetes.Quantity)'"},
	{"kplan: == across types", "1 == \"a\"", 1, 3, "found no matching overload for '_==_' applied to '(int, string)'"},
	{"kplan: columns count characters", "\"\xc3\xa9\" == 1", 1, 5, "applied to '(string, int)'"},
	{"kplan: + across types", "device.driver + 1 == \"\"", 1, 15, "found no matching overload for '_+_'"},
	{"kplan: ?: across types", "(true ? 1 : \"a\") == 1", 1, 7, "'_?_:_'"},
	{"kplan: a mixed list", "1 in [1, \"a\"]", 1, 10, "expected type 'int' but found 'string'"},
	{"kplan: a second line", "device.driver == 'a' &&\n  device.foo", 2, 9, "undefined field 'foo'"},
	{"kplan: undeclared", "gpu.model == \"a\"", 1, 1, "undeclared reference to 'gpu'"},
	{"kplan: an undeclared receiver", "model.startsWith(\"a\")", 1, 1, "undeclared reference to 'model'"},
	{"kplan: undeclared function", "foo(device.driver)", 1, 1, "undeclared reference to 'foo'"},
	{"kplan: a qualified function", "sets.contains([1], [1])", 1, 6, "unsupported: the function 'sets.contains'"},
	{"kplan: a conversion", "int(device.attributes[\"d\"].x) > 1", 1, 1, "unsupported: the function 'int'"},
	{"kplan: a double", "device.attributes[\"d\"].x > 1.5", 1, 28, "unsupported: floating-point literal"},
	{"kplan: a uint", "device.attributes[\"d\"].x > 1u", 1, 28, "unsupported: unsigned integer literal"},
	{"kplan: bytes", "b\"abc\" == b\"abc\"", 1, 1, "unsupported: bytes literal"},
	{"kplan: null", "device.attributes[\"d\"].x == null", 1, 29, "unsupported: null"},
	{"kplan: a map literal", "\"a\" in {\"a\": 1}", 1, 8, "unsupported: map literal"},
	{"kplan: optional selection", "device.attributes[\"d\"].?x == 1", 1, 23, "optional field selection"},
	{"kplan: optional index", "device.attributes[\"d\"][?\"x\"] == 1", 1, 23, "optional index"},
	{"kplan: message construction", "device{driver: \"a\"}.driver == \"a\"", 1, 7, "message construction"},
	{"kplan: a leading dot", ".device.driver == \"a\"", 1, 1, "leading '.'"},
	{"kplan: reserved", "if == 1", 1, 1, "reserved identifier: if"},
	{"kplan: has() of an index", "has(device.attributes[\"x\"])", 1, 1, "invalid argument to has() macro"},
	{"kplan: has() of an attribute value", "has(device.attributes[\"x\"].y.z)", 1, 1, "has() on a field of an attribute value"},
	{"kplan: cel.bind's name", "cel.bind(a.b, 1, true)", 1, 11, "cel.bind() variable names must be simple identifiers"},
	{"kplan: cel.bind's arguments", "cel.bind(a, 1)", 1, 5, "cel.bind() takes 3 arguments"},
	{"kplan: size of a map", "size(device.attributes) > 0", 1, 1, "unsupported: size() of a map"},
	{"kplan: indexing a list", "[1, 2][0] == 1", 1, 7, "unsupported: indexing a list"},
	{"kplan: in on an attribute value", "1 in device.attributes[\"d\"].x", 1, 3, "unsupported: 'in' on an attribute value"},
	{"kplan: == on maps", "device.attributes == device.capacity", 1, 19, "unsupported: '==' on map(string, map(string, any)) values"},
	{"kplan: an unterminated string", "device.driver == \"abc", 1, 18, "unterminated string literal"},
	{"kplan: a newline in a string", "device.driver == \"a\nb\"", 1, 18, "newline in a string literal"},
	{"kplan: an invalid escape", "device.driver == \"\\q\"", 1, 19, "invalid escape sequence"},
	{"kplan: a surrogate", "device.driver == \"\\ud800\"", 1, 19, "invalid code point"},
	{"kplan: invalid UTF-8", "device.driver == \"a\xff\"", 1, 20, "invalid UTF-8"},
	{"kplan: an int too large", "9223372036854775808 > 0", 1, 1, "invalid int literal"},
	{"kplan: an unexpected character", "device.driver = \"a\"", 1, 15, "Syntax error: unexpected character '='"},
	{"kplan: an unexpected end", "device.driver == ", 1, 18, "Syntax error: unexpected end of expression"},
	{"kplan: a trailing token", "device.driver == \"a\" )", 1, 22, "Syntax error: unexpected ')'"},
	{"kplan: an empty expression", "", 1, 1, "unexpected end of expression"},
};

static void run_compile_cases(void)
{
	for (size_t i = 0; i < sizeof compile_cases / sizeof compile_cases[0]; i++) {
		const compile_case *c = &compile_cases[i];
		kp_cel *e = (kp_cel *)1;
		kp_cel_pos pos = { 0, 0 };
		char msg[256] = "";
		int rc = kp_cel_compile(c->expr, &e, &pos, msg, sizeof msg);
		int ok = rc == KP_PARSE && !e && pos.line == c->line && pos.col == c->col && strstr(msg, c->msg);
		TAP_OK(ok, "refused: %s", c->name);
		if (!ok)
			printf("#   got %d at %d:%d: %s\n#   want %d:%d: %s\n", rc, pos.line, pos.col, msg, c->line, c->col, c->msg);
		if (rc == KP_OK)
			kp_cel_free(e);
	}
}

/* ---- limits ---- */

static int compiles(const char *src, char *msg, size_t size)
{
	kp_cel *e = NULL;
	kp_cel_pos pos;
	int rc = kp_cel_compile(src, &e, &pos, msg, size);
	kp_cel_free(e);
	return rc;
}

static void test_limits(void)
{
	static char buf[KP_CEL_MAX_LEN + 64];
	char msg[256];
	/* nesting: 99 parentheses are 100 levels, one more is refused */
	int n = KP_CEL_MAX_DEPTH - 1;
	memset(buf, '(', (size_t)n);
	strcpy(buf + n, "true");
	memset(buf + n + 4, ')', (size_t)n);
	buf[2 * n + 4] = 0;
	TAP_EQ_I64(compiles(buf, msg, sizeof msg), KP_OK, "%d nested parentheses compile", n);
	memmove(buf + 1, buf, strlen(buf) + 1);
	buf[0] = '(';
	strcat(buf, ")");
	TAP_OK(compiles(buf, msg, sizeof msg) == KP_PARSE && strstr(msg, "nested more than 100"), "%d are refused: %s", n + 1, msg);
	/* a long chain of ! and of + */
	memset(buf, '!', 5000);
	strcpy(buf + 5000, "true");
	TAP_OK(compiles(buf, msg, sizeof msg) == KP_PARSE && strstr(msg, "nested more than"), "5000 '!' are refused");
	buf[0] = 0;
	for (int i = 0; i < 150; i++)
		strcat(buf, "1 + ");
	strcat(buf, "1 > 0");
	TAP_OK(compiles(buf, msg, sizeof msg) == KP_PARSE && strstr(msg, "nested more than"), "150 '+' are refused");
	/* a long || chain is one node: 400 alternatives compile and evaluate */
	buf[0] = 0;
	for (int i = 0; i < 400; i++)
		strcat(buf, i ? " || device.driver == 'x'" : "device.driver == 'x'");
	kp_cel *e = NULL;
	kp_cel_pos pos;
	int rc = kp_cel_compile(buf, &e, &pos, msg, sizeof msg);
	kp_cel_device d = device_of(&F_GPU);
	TAP_OK(rc == KP_OK && kp_cel_eval(e, &d, msg, sizeof msg) == 0, "400 alternatives (%zu bytes)", strlen(buf));
	kp_cel_free(e);
	/* the length: kube's 10240 bytes */
	memset(buf, ' ', KP_CEL_MAX_LEN);
	memcpy(buf, "true", 4);
	buf[KP_CEL_MAX_LEN] = 0;
	TAP_EQ_I64(compiles(buf, msg, sizeof msg), KP_OK, "%d bytes compile", KP_CEL_MAX_LEN);
	strcat(buf, " ");
	TAP_OK(compiles(buf, msg, sizeof msg) == KP_PARSE && strstr(msg, "longer than 10240"), "%d bytes are refused", KP_CEL_MAX_LEN + 1);
	/* cel.bind() variables */
	buf[0] = 0;
	for (int i = 0; i <= KP_CEL_MAX_BINDS; i++)
		sprintf(buf + strlen(buf), "cel.bind(v%d, %d, ", i, i);
	strcat(buf, "true");
	for (int i = 0; i <= KP_CEL_MAX_BINDS; i++)
		strcat(buf, ")");
	TAP_OK(compiles(buf, msg, sizeof msg) == KP_PARSE && strstr(msg, "more than 16 cel.bind()"), "17 cel.bind() are refused");
	/* scratch space: concatenation beyond KP_CEL_SCRATCH is an error, not an overflow */
	strcpy(buf, "cel.bind(s, '");
	memset(buf + strlen(buf), 'x', 1000);
	strcpy(buf + 13 + 1000, "', s + s + s + s + s != '')");
	rc = kp_cel_compile(buf, &e, &pos, msg, sizeof msg);
	TAP_OK(rc == KP_OK && kp_cel_eval(e, &d, msg, sizeof msg) == -1 && strstr(msg, "exceed 4096 bytes"),
	       "5,000 bytes of strings are an error: %s", msg);
	kp_cel_free(e);
	/* work: nested lists cost their size (once evaluated twice per level: 2^30 here) */
	strcpy(buf, "true");
	for (int i = 0; i < 30; i++) {
		memmove(buf + 9, buf, strlen(buf) + 1);
		memcpy(buf, "true in [", 9);
		strcat(buf, "]");
	}
	rc = kp_cel_compile(buf, &e, &pos, msg, sizeof msg);
	TAP_OK(rc == KP_OK && kp_cel_eval(e, &d, msg, sizeof msg) == 1, "30 nested 'in' lists evaluate at once");
	kp_cel_free(e);
	/* ... and the step limit stops lists and strings bound once and used again and again */
	const char *steps[] = { "tests/fuzz/regressions/cel/bound-lists-used-again-and-again",
				"tests/fuzz/regressions/cel/bound-strings-contains-quadratic" };
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(steps[i], "rb");
		size_t n = f ? fread(buf, 1, KP_CEL_MAX_LEN, f) : 0;
		if (f)
			fclose(f);
		buf[n] = 0;
		rc = kp_cel_compile(buf, &e, &pos, msg, sizeof msg);
		TAP_OK(rc == KP_OK && kp_cel_eval(e, &d, msg, sizeof msg) == -1 && strstr(msg, "more than 1000000 steps"),
		       "%s: %s", steps[i] + 27, msg);
		kp_cel_free(e);
	}
	/* small and missing message buffers, no text */
	TAP_OK(kp_cel_compile(NULL, &e, &pos, msg, sizeof msg) == KP_PARSE && !e, "no text: %s", msg);
	TAP_OK(kp_cel_compile("1 +", &e, NULL, NULL, 0) == KP_PARSE && !e, "no pos, no msg");
	rc = kp_cel_compile("device.attributes['x'].y", &e, &pos, msg, sizeof msg);
	TAP_OK(rc == KP_OK && kp_cel_eval(e, &d, msg, 4) == -1 && strcmp(msg, "no ") == 0, "a 4-byte message: '%s'", msg);
	kp_cel_free(e);
}

/* allocation: compile survives every failed allocation; evaluation allocates nothing */
static void test_alloc(void)
{
	const char *src = "cel.bind(g, device.attributes[\"gpu.example.com\"], g.model in ['A', 'LATEST-GPU-MODEL'] && "
			  "device.capacity[\"gpu.example.com\"].memory.isGreaterThan(quantity('40Gi')) && "
			  "g.driverVersion.isLessThan(semver('2.0.0')) && (g.model + 'x').lowerAscii().size() > 3)";
	int nomem_ok = 1, n;
	for (n = 0; n < 1000; n++) {
		kp_cel *e = NULL;
		char msg[64] = "";
		kp_alloc_fail_after(n);
		int rc = kp_cel_compile(src, &e, NULL, msg, sizeof msg);
		kp_alloc_fail_after(-1);
		if (rc == KP_OK) {
			kp_cel_free(e);
			break;
		}
		nomem_ok &= rc == KP_NOMEM && !e && strcmp(msg, "out of memory") == 0;
	}
	TAP_OK(nomem_ok && n > 0 && n < 1000, "compile: each of the first %d allocations fails cleanly (KP_NOMEM)", n);
	kp_cel *e = NULL;
	char msg[128];
	TAP_EQ_I64(kp_cel_compile(src, &e, NULL, msg, sizeof msg), KP_OK, "the expression compiles");
	kp_cel_device d = device_of(&F_GPU);
	kp_alloc_fail_after(0);
	int r1 = kp_cel_eval(e, &d, msg, sizeof msg), r2 = kp_cel_eval(e, &d, msg, sizeof msg);
	kp_alloc_fail_after(-1);
	TAP_OK(r1 == 1 && r2 == 1, "evaluation with every allocation failing: %d %d %s", r1, r2, msg);
	kp_cel_free(e);
	kp_cel_free(NULL);
	TAP_OK(kp_cel_eval(NULL, &d, msg, sizeof msg) == -1, "kp_cel_eval(NULL) is an error");
}

/* ---- the real manifests ---- */

typedef struct rw_ctx {
	const char *file;
	int found, compiled, evaluated;
	char failures[512];
} rw_ctx;

static void rw_walk(rw_ctx *c, const kp_ynode *n, const char *key)
{
	if (!n)
		return;
	if (n->type == KP_Y_SEQ)
		for (size_t i = 0; i < n->n; i++)
			rw_walk(c, n->u.items[i], key);
	if (n->type != KP_Y_MAP)
		return;
	for (size_t i = 0; i < n->n; i++) {
		const kp_ynode *k = n->u.pairs[i].key, *v = n->u.pairs[i].value;
		if (k->type != KP_Y_SCALAR)
			continue;
		if (key && strcmp(key, "cel") == 0 && strcmp(k->u.str, "expression") == 0 && v && v->type == KP_Y_SCALAR) {
			kp_cel *e = NULL;
			kp_cel_pos pos;
			char msg[256];
			c->found++;
			if (kp_cel_compile(v->u.str, &e, &pos, msg, sizeof msg) == KP_OK) {
				const fixture *fx[] = { &F_GPU, &F_MIG, &F_NIC, &F_QAT, &F_INTEL, &F_PERF, &F_NONE };
				int ok = 1;
				for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
					kp_cel_device d = device_of(fx[f]);
					int r = kp_cel_eval(e, &d, msg, sizeof msg);
					ok &= r >= -1 && r <= 1;
				}
				c->compiled++;
				c->evaluated += ok;
				kp_cel_free(e);
			} else if (strlen(c->failures) < 300) {
				snprintf(c->failures + strlen(c->failures), sizeof c->failures - strlen(c->failures),
					 " %s:%u (%d:%d %s)", c->file, v->line, pos.line, pos.col, msg);
			}
		}
		rw_walk(c, v, k->u.str);
	}
}

static int rw_object(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err)
{
	(void)info;
	(void)err;
	rw_walk(ctx, obj, NULL);
	return KP_OK;
}

static void test_realworld(void)
{
	const char *base = getenv("KP_SHARED_DATA");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/realworld2", base && *base ? base : "../shared/data");
	DIR *dp = opendir(dir);
	if (!dp) {
		printf("ok %d # SKIP %s absent\n", ++tap_n, dir);
		return;
	}
	rw_ctx c = { 0 };
	int files = 0;
	struct dirent *de;
	while ((de = readdir(dp))) {
		size_t len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		char path[2048];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		static char data[1 << 20];
		size_t n = fread(data, 1, sizeof data, f);
		fclose(f);
		kp_arena a;
		kp_arena_init(&a, 1 << 16);
		kp_err err = { 0 };
		c.file = de->d_name;
		kp_yaml_each_object(data, n, de->d_name, &a, rw_object, &c, &err);
		kp_arena_release(&a);
		files++;
	}
	closedir(dp);
	TAP_OK(c.found >= 15 && c.compiled == c.found && c.evaluated == c.found,
	       "realworld2: %d selectors in %d files, %d compile, %d evaluate%s", c.found, files, c.compiled, c.evaluated,
	       c.failures);
}

/* ---- replay (fuzz corpus and regressions) ---- */

static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "test_cel: cannot read '%s'\n", path);
		return 1;
	}
	static char data[KP_CEL_MAX_LEN * 4 + 1];
	size_t n = fread(data, 1, sizeof data - 1, f);
	fclose(f);
	data[n] = 0;
	kp_cel *e = NULL;
	kp_cel_pos pos = { 0, 0 };
	char msg[256] = "";
	int rc = kp_cel_compile(data, &e, &pos, msg, sizeof msg);
	if (rc != KP_OK)
		return (rc == KP_PARSE || rc == KP_NOMEM) && msg[0] && !e ? 0 : 1;
	const fixture *fx[] = { &F_ALL, &F_GPU, &F_BAD, &F_NONE };
	int bad = 0;
	for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
		kp_cel_device d = device_of(fx[i]);
		int r = kp_cel_eval(e, &d, msg, sizeof msg);
		bad |= r < -1 || r > 1 || (r == -1 && !msg[0]);
	}
	kp_cel_free(e);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "--replay") == 0) {
		int bad = 0;
		for (int i = 2; i < argc; i++)
			if (replay(argv[i]) != 0) {
				fprintf(stderr, "test_cel: %s breaks an invariant\n", argv[i]);
				bad = 3;
			}
		return bad;
	}
	run_eval_cases();
	run_compile_cases();
	test_limits();
	test_alloc();
	test_realworld();
	return tap_done();
}
