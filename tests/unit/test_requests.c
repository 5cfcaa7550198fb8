/*
 * test_requests.c — unit test (TAP) of kp_pod_requests() (importers/requests.c):
 * a pod's effective requests (kube-scheduler-semantics.md §4.1) and the scoring-only non-zero
 * requests (§4.2).
 *
 * Cases come from Kubernetes' own tests (repository kubernetes/kubernetes):
 *   staging/src/k8s.io/component-helpers/resource/helpers_test.go
 *     TestPodRequestsAndLimits, TestPodRequestsAndLimitsWithoutOverhead,
 *     TestPodResourceRequests
 *   pkg/scheduler/util/pod_resources_test.go
 *     TestGetNonZeroRequest, TestGetRequestForResource
 *   pkg/scheduler/framework/types_test.go
 *     TestNodeInfoAddPod (Requested / NonZeroRequested of pods test-1..3)
 * Each case names the upstream test (and its case name).  Amounts are what
 * kplan stores: cpu in millicores, memory in bytes, others in base units.
 *
 * Deliberate difference: upstream unit tests call PodRequests on objects that
 * never went through API defaulting, so "limit only" containers request
 * nothing there; kplan sees objects after defaulting (requests = limits when
 * requests are absent, kube-scheduler-semantics.md §4.1), and the expectations below follow
 * that rule.  Each such case says so.
 */
#include "importers/model.h"
#include "common/kp.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MI (1024LL * 1024)
#define DCPU KP_DEFAULT_MILLI_CPU_REQUEST
#define DMEM KP_DEFAULT_MEMORY_REQUEST

enum { APP = KP_CONTAINER_APP, INIT = KP_CONTAINER_INIT, SIDE = KP_CONTAINER_SIDECAR };

/* One container: kind, requests, limits as "name=value,name=value" (raw integers). */
typedef struct ctr { int kind; const char *req, *lim; } ctr;

typedef struct rcase {
	const char *name;
	ctr c[6];              /* containers in spec order (init/sidecar first, as importers/k8s_podspec.c stores them) */
	int n;                 /* how many of c[] are used */
	const char *overhead;
	int nonzero;
	int want_code;         /* KP_OK or KP_RANGE */
	const char *want;      /* "name=value,..." sorted by name, zero amounts absent;
				* nonzero: always "cpu=X,memory=Y" (see format_nonzero) */
} rcase;

static const rcase cases[] = {
	/* ---- helpers_test.go TestPodRequestsAndLimits ---- */
	{"TestPodRequestsAndLimits just-limit-no-overhead (kplan: request = limit, §4.1)",
	 {{APP, NULL, "cpu=9000"}}, 1, NULL, 0, KP_OK, "cpu=9000"},
	{"TestPodRequestsAndLimits just-overhead",
	 {{APP, NULL, NULL}}, 1, "cpu=5000,memory=5", 0, KP_OK, "cpu=5000,memory=5"},
	{"TestPodRequestsAndLimits req-and-overhead",
	 {{APP, "cpu=1000,memory=10", NULL}}, 1, "cpu=5000,memory=5", 0, KP_OK, "cpu=6000,memory=15"},
	{"TestPodRequestsAndLimits all-req-lim-and-overhead (request wins over limit)",
	 {{APP, "cpu=1000,memory=10", "cpu=2000,memory=12"}}, 1, "cpu=5000,memory=5", 0, KP_OK,
	 "cpu=6000,memory=15"},
	{"TestPodRequestsAndLimits req-some-lim-and-overhead",
	 {{APP, "cpu=1000,memory=10", "cpu=2000"}}, 1, "cpu=5000,memory=5", 0, KP_OK, "cpu=6000,memory=15"},

	/* ---- helpers_test.go TestPodRequestsAndLimitsWithoutOverhead (overhead omitted there) ---- */
	{"TestPodRequestsAndLimitsWithoutOverhead two container no overhead - sum of containers",
	 {{APP, "cpu=1000,memory=5", "cpu=2000,memory=10"}, {APP, "cpu=4000,memory=12", "cpu=8000,memory=24"}}, 2,
	 NULL, 0, KP_OK, "cpu=5000,memory=17"},
	{"TestPodRequestsAndLimitsWithoutOverhead massive init - largest init (no overhead given)",
	 {{INIT, "cpu=1000,memory=5", "cpu=1000,memory=5"}, {INIT, "cpu=40000,memory=120", "cpu=80000,memory=240"},
	  {APP, "cpu=1000,memory=5", "cpu=2000,memory=10"}, {APP, "cpu=4000,memory=12", "cpu=8000,memory=24"}}, 4,
	 NULL, 0, KP_OK, "cpu=40000,memory=120"},
	{"TestPodRequestsAndLimitsWithoutOverhead massive init, overhead included (kplan always adds it)",
	 {{INIT, "cpu=1000,memory=5", NULL}, {INIT, "cpu=40000,memory=120", NULL},
	  {APP, "cpu=1000,memory=5", NULL}, {APP, "cpu=4000,memory=12", NULL}}, 4,
	 "cpu=3000,memory=8", 0, KP_OK, "cpu=43000,memory=128"},

	/* ---- helpers_test.go TestPodResourceRequests ---- */
	{"TestPodResourceRequests nil options, larger init container",
	 {{INIT, "cpu=4000", NULL}, {APP, "cpu=1000", NULL}}, 2, NULL, 0, KP_OK, "cpu=4000"},
	{"TestPodResourceRequests nil options, larger containers",
	 {{INIT, "cpu=2000", NULL}, {APP, "cpu=2000", NULL}, {APP, "cpu=3000", NULL}}, 3, NULL, 0, KP_OK,
	 "cpu=5000"},
	{"TestPodResourceRequests pod overhead included",
	 {{INIT, "cpu=2000", "cpu=2000"}, {APP, "cpu=2000", NULL}, {APP, "cpu=3000", NULL}}, 3,
	 "cpu=1000,memory=1073741824", 0, KP_OK, "cpu=6000,memory=1073741824"},
	{"TestPodResourceRequests restartable init container (sidecar + regular)",
	 {{SIDE, "cpu=1000", NULL}, {APP, "cpu=1000", NULL}}, 2, NULL, 0, KP_OK, "cpu=2000"},
	{"TestPodResourceRequests multiple restartable init containers: max(5, 3+2+1+1) = 7",
	 {{INIT, "cpu=5000", NULL}, {SIDE, "cpu=1000", NULL}, {SIDE, "cpu=2000", NULL}, {SIDE, "cpu=3000", NULL},
	  {APP, "cpu=1000", NULL}}, 5, NULL, 0, KP_OK, "cpu=7000"},
	{"TestPodResourceRequests multiple restartable and regular init containers: init-2 5 + sidecars 1+2 = 8",
	 {{INIT, "cpu=5000", NULL}, {SIDE, "cpu=1000", NULL}, {SIDE, "cpu=2000", NULL}, {INIT, "cpu=5000", NULL},
	  {SIDE, "cpu=3000", NULL}, {APP, "cpu=1000", NULL}}, 6, NULL, 0, KP_OK, "cpu=8000"},
	{"TestPodResourceRequests restartable-init, init and regular: init 200 after sidecar 10 = 210",
	 {{SIDE, "cpu=10000", NULL}, {INIT, "cpu=200000", NULL}, {APP, "cpu=100000", NULL}}, 3, NULL, 0, KP_OK,
	 "cpu=210000"},
	{"TestPodResourceRequests aggregate request is max of sums (spec requests only)",
	 {{APP, "cpu=1000", NULL}, {APP, "cpu=2000", NULL}}, 2, NULL, 0, KP_OK, "cpu=3000"},

	/* ---- kube-scheduler-semantics.md §4.1 worked by hand ---- */
	{"§4.1 init before sidecar: init stage does not include the later sidecar (k9s po_sidecar shape)",
	 {{INIT, "cpu=333,memory=349175808", NULL}, {SIDE, "cpu=20,memory=41943040", NULL},
	  {APP, "cpu=30,memory=10485760", NULL}}, 3, NULL, 0, KP_OK, "cpu=333,memory=349175808"},
	{"§4.1 sidecar after an init container: sidecars 1+4 + app 1 = 6 > init 5",
	 {{INIT, "cpu=5000", NULL}, {SIDE, "cpu=1000", NULL}, {SIDE, "cpu=4000", NULL}, {APP, "cpu=1000", NULL}},
	 4, NULL, 0, KP_OK, "cpu=6000"},
	{"§4.1 a sidecar keeps running: sidecar 8 + app 1 = 9",
	 {{SIDE, "memory=8", NULL}, {APP, "memory=1", NULL}}, 2, NULL, 0, KP_OK, "memory=9"},
	{"§4.1 per resource: init wins cpu, apps win memory",
	 {{INIT, "cpu=4000,memory=1", NULL}, {APP, "cpu=1000,memory=3", NULL}, {APP, "memory=4", NULL}}, 3, NULL,
	 0, KP_OK, "cpu=4000,memory=7"},
	{"§4.1 extended resource from a limit only (nvidia job-1.yaml shape), sorted output",
	 {{APP, "memory=100", "nvidia.com/gpu=1"}}, 1, NULL, 0, KP_OK, "memory=100,nvidia.com/gpu=1"},
	{"§4.1 limit only on an init container counts as its request",
	 {{INIT, NULL, "cpu=7000"}, {APP, "cpu=1000", NULL}}, 2, NULL, 0, KP_OK, "cpu=7000"},
	{"§4.1 overhead-only resource is returned",
	 {{APP, "cpu=100", NULL}}, 1, "example.com/foo=2", 0, KP_OK, "cpu=100,example.com/foo=2"},
	{"zero amounts left out (explicit 0 cpu and gpu)",
	 {{APP, "cpu=0,memory=64,nvidia.com/gpu=0", NULL}}, 1, NULL, 0, KP_OK, "memory=64"},
	{"no requests at all: empty result",
	 {{APP, NULL, NULL}, {INIT, NULL, NULL}}, 2, NULL, 0, KP_OK, ""},

	/* ---- overflow ---- */
	{"overflow: two app containers at INT64_MAX -> KP_RANGE",
	 {{APP, "memory=9223372036854775807", NULL}, {APP, "memory=1", NULL}}, 2, NULL, 0, KP_RANGE, NULL},
	{"overflow: overhead on top of INT64_MAX -> KP_RANGE",
	 {{APP, "cpu=9223372036854775807", NULL}}, 1, "cpu=1", 0, KP_RANGE, NULL},
	{"overflow: init stage = init + earlier sidecars past INT64_MAX -> KP_RANGE",
	 {{SIDE, "cpu=9223372036854775807", NULL}, {INIT, "cpu=1", NULL}, {APP, NULL, NULL}}, 3, NULL, 0,
	 KP_RANGE, NULL},
	{"no overflow: INT64_MAX exactly",
	 {{APP, "memory=9223372036854775806", NULL}, {APP, "memory=1", NULL}}, 2, NULL, 0, KP_OK,
	 "memory=9223372036854775807"},

	/* ---- non-zero requests (§4.2) ---- */
	/* pod_resources_test.go TestGetNonZeroRequest */
	{"TestGetNonZeroRequest cpu_and_memory_not_found",
	 {{APP, NULL, NULL}}, 1, NULL, 1, KP_OK, "cpu=100,memory=209715200"},
	{"TestGetNonZeroRequest only_cpu_exist",
	 {{APP, "cpu=200", NULL}}, 1, NULL, 1, KP_OK, "cpu=200,memory=209715200"},
	{"TestGetNonZeroRequest only_memory_exist",
	 {{APP, "memory=419430400", NULL}}, 1, NULL, 1, KP_OK, "cpu=100,memory=419430400"},
	{"TestGetNonZeroRequest cpu_memory_exist",
	 {{APP, "cpu=200,memory=419430400", NULL}}, 1, NULL, 1, KP_OK, "cpu=200,memory=419430400"},
	/* pod_resources_test.go TestGetRequestForResource: extended resources are not defaulted and
	 * the non-zero variant returns cpu and memory only */
	{"TestGetRequestForResource extended_resource_found (not part of the non-zero result)",
	 {{APP, "intel.com/foo=4", NULL}}, 1, NULL, 1, KP_OK, "cpu=100,memory=209715200"},
	{"explicit 0 stays 0 in the non-zero request (§4.2)",
	 {{APP, "cpu=0,memory=0", NULL}}, 1, NULL, 1, KP_OK, "cpu=0,memory=0"},
	{"non-zero defaults apply per container: 2 bare containers + 1 with cpu 50",
	 {{APP, NULL, NULL}, {APP, NULL, NULL}, {APP, "cpu=50", NULL}}, 3, NULL, 1, KP_OK,
	 "cpu=250,memory=629145600"},
	{"non-zero: limit-only container counts its limit, not the default",
	 {{APP, NULL, "cpu=700,memory=1000"}}, 1, NULL, 1, KP_OK, "cpu=700,memory=1000"},
	/* types_test.go TestNodeInfoAddPod */
	{"TestNodeInfoAddPod test-1 Requested: cpu 100m + overhead 500m, memory 500",
	 {{APP, "cpu=100,memory=500", NULL}}, 1, "cpu=500", 0, KP_OK, "cpu=600,memory=500"},
	{"TestNodeInfoAddPod test-1 NonZeroRequested: Non0CPU 600, Non0Mem 500",
	 {{APP, "cpu=100,memory=500", NULL}}, 1, "cpu=500", 1, KP_OK, "cpu=600,memory=500"},
	{"TestNodeInfoAddPod test-2 Requested: cpu 700, memory 500 (overhead)",
	 {{APP, "cpu=200", NULL}}, 1, "cpu=500,memory=500", 0, KP_OK, "cpu=700,memory=500"},
	{"TestNodeInfoAddPod test-2 NonZeroRequested: Non0Mem = DefaultMemoryRequest + 500",
	 {{APP, "cpu=200", NULL}}, 1, "cpu=500,memory=500", 1, KP_OK, "cpu=700,memory=209715700"},
	{"TestNodeInfoAddPod test-3 Requested: max(200m, init 500m) + 500m; init 200Mi + 500",
	 {{INIT, "cpu=500,memory=209715200", NULL}, {APP, "cpu=200", NULL}}, 2, "cpu=500,memory=500", 0, KP_OK,
	 "cpu=1000,memory=209715700"},
	{"TestNodeInfoAddPod test-3 NonZeroRequested: Non0CPU 1000, Non0Mem 200Mi + 500",
	 {{INIT, "cpu=500,memory=209715200", NULL}, {APP, "cpu=200", NULL}}, 2, "cpu=500,memory=500", 1, KP_OK,
	 "cpu=1000,memory=209715700"},
	{"non-zero with a bare sidecar: defaults in the sum and in the stages (§4.2 + §4.1)",
	 {{SIDE, NULL, NULL}, {INIT, "cpu=1000", NULL}, {APP, NULL, NULL}}, 3, NULL, 1, KP_OK,
	 /* cpu: sum 100+100 = 200, init stage 1000+100 = 1100; memory: sum 400Mi, init stage 200Mi+200Mi */
	 "cpu=1100,memory=419430400"},
};

/* ---- building pods ---- */

static int parse_ress(kp_arena *a, const char *spec, kp_ress *out)
{
	memset(out, 0, sizeof *out);
	if (!spec || !*spec)
		return 0;
	size_t n = 1;
	for (const char *p = spec; *p; p++)
		n += *p == ',';
	out->v = kp_arena_alloc(a, n * sizeof *out->v);
	if (!out->v)
		return -1;
	const char *p = spec;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(p, '=');
		if (!eq)
			return -1;
		out->v[i].name = kp_arena_strndup(a, p, (size_t)(eq - p));
		errno = 0;
		char *end;
		out->v[i].value = strtoll(eq + 1, &end, 10);
		if (errno || (*end && *end != ','))
			return -1;
		p = *end ? end + 1 : end;
	}
	out->n = n;
	return 0;
}

static void format_ress(const kp_ress *r, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < r->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%lld", i ? "," : "", r->v[i].name,
					(long long)r->v[i].value);
}

/* Non-zero results: "cpu=X,memory=Y" (an absent entry reads as 0, since the
 * contract only promises cpu and memory), then any other name returned. */
static void format_nonzero(const kp_ress *r, char *buf, size_t size)
{
	int64_t cpu = 0, mem = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (!strcmp(r->v[i].name, "cpu"))
			cpu = r->v[i].value;
		else if (!strcmp(r->v[i].name, "memory"))
			mem = r->v[i].value;
	}
	size_t len = (size_t)snprintf(buf, size, "cpu=%lld,memory=%lld", (long long)cpu, (long long)mem);
	for (size_t i = 0; i < r->n && len < size; i++)
		if (strcmp(r->v[i].name, "cpu") && strcmp(r->v[i].name, "memory"))
			len += (size_t)snprintf(buf + len, size - len, ",UNEXPECTED %s", r->v[i].name);
}

static void run_case(const rcase *c)
{
	kp_arena a;
	kp_arena_init(&a, 4096);
	kp_pod_in pod;
	memset(&pod, 0, sizeof pod);
	kp_container ct[6];
	memset(ct, 0, sizeof ct);
	int bad = 0;
	for (int i = 0; i < c->n; i++) {
		ct[i].name = "c";
		ct[i].kind = c->c[i].kind;
		bad |= parse_ress(&a, c->c[i].req, &ct[i].requests);
		bad |= parse_ress(&a, c->c[i].lim, &ct[i].limits);
	}
	bad |= parse_ress(&a, c->overhead, &pod.overhead);
	pod.containers = ct;
	pod.ncontainers = (size_t)c->n;
	if (bad) {
		TAP_OK(0, "%s: test table entry is well-formed", c->name);
		kp_arena_release(&a);
		return;
	}
	kp_ress out = { (kp_res *)0x1, 12345 };   /* must be overwritten */
	kp_err err;
	memset(&err, 0, sizeof err);
	int rc = kp_pod_requests(&pod, c->nonzero, &a, &out, &err);
	if (c->want_code != KP_OK) {
		TAP_EQ_I64(rc, c->want_code, "%s: returns KP_RANGE", c->name);
		TAP_OK(err.code == c->want_code && err.msg[0], "%s: kp_err set with a message (%s)", c->name, err.msg);
	} else {
		char got[2048];
		TAP_EQ_I64(rc, KP_OK, "%s: returns KP_OK", c->name);
		if (rc == KP_OK && c->nonzero)
			format_nonzero(&out, got, sizeof got);
		else if (rc == KP_OK)
			format_ress(&out, got, sizeof got);
		else
			snprintf(got, sizeof got, "error %d: %.200s", rc, err.msg);
		TAP_EQ_STR(got, c->want, "%s%s", c->nonzero ? "[nonzero] " : "", c->name);
	}
	kp_arena_release(&a);
}

/* The same pod gives the same answer twice, and the input is not modified. */
static void test_pure(void)
{
	kp_arena a;
	kp_arena_init(&a, 1024);
	kp_container ct[2];
	memset(ct, 0, sizeof ct);
	ct[0].kind = SIDE;
	ct[1].kind = APP;
	parse_ress(&a, "memory=8,cpu=3", &ct[0].requests);
	parse_ress(&a, "cpu=5", &ct[1].requests);
	kp_pod_in pod;
	memset(&pod, 0, sizeof pod);
	pod.containers = ct;
	pod.ncontainers = 2;
	kp_ress r1, r2;
	kp_err e;
	memset(&e, 0, sizeof e);
	int rc1 = kp_pod_requests(&pod, 0, &a, &r1, &e);
	int rc2 = kp_pod_requests(&pod, 0, &a, &r2, &e);
	char b1[256], b2[256];
	format_ress(&r1, b1, sizeof b1);
	format_ress(&r2, b2, sizeof b2);
	TAP_OK(rc1 == KP_OK && rc2 == KP_OK && !strcmp(b1, b2) && !strcmp(b1, "cpu=8,memory=8"),
	       "repeatable, sorted by name: %s / %s", b1, b2);
	TAP_OK(ct[0].requests.v[0].value == 8 && !strcmp(ct[0].requests.v[0].name, "memory"),
	       "input requests are left as given (not re-sorted in place)");
	kp_arena_release(&a);
}

/* Allocation failure is reported as KP_NOMEM, never a crash or a wrong answer:
 * fail the 1st, 2nd, ... allocation until the call gets through. */
static void test_nomem(void)
{
	int saw_nomem = 0, wrong = 0, done = 0;
	for (long k = 0; k < 64 && !done; k++) {
		kp_arena a;
		kp_arena_init(&a, 64);
		kp_container ct[2];
		memset(ct, 0, sizeof ct);
		ct[0].kind = INIT;
		ct[1].kind = APP;
		parse_ress(&a, "cpu=4,memory=1", &ct[0].requests);
		parse_ress(&a, "cpu=1,memory=2,nvidia.com/gpu=1", &ct[1].requests);
		kp_pod_in pod;
		memset(&pod, 0, sizeof pod);
		pod.containers = ct;
		pod.ncontainers = 2;
		kp_ress r;
		kp_err e;
		memset(&e, 0, sizeof e);
		kp_alloc_fail_after(k);
		int rc = kp_pod_requests(&pod, 0, &a, &r, &e);
		kp_alloc_fail_after(-1);
		if (rc == KP_NOMEM) {
			saw_nomem++;
			wrong += e.code != KP_NOMEM;
		} else if (rc == KP_OK) {
			char b[256];
			format_ress(&r, b, sizeof b);
			wrong += strcmp(b, "cpu=4,memory=2,nvidia.com/gpu=1") != 0;
			done = 1;
		} else {
			wrong++;
		}
		kp_arena_release(&a);
	}
	TAP_OK(saw_nomem > 0, "a failed allocation gives KP_NOMEM (%d times)", saw_nomem);
	TAP_OK(done && !wrong, "every other outcome is KP_OK with the right answer");
}

/* Pod-level resources and in-place resize per gate (kp_pod_requests'
 * KP_REQ_* flags; helpers.go PodRequests: pod-level cpu/memory/hugepages
 * requests replace the containers' aggregate, status resources count
 * max(spec, status, allocated), status only when the resize is Infeasible).
 * kplan's cases, after helpers_test.go TestPodRequestsAndLimits (pod-level
 * cases) and TestPodResizeRequests, whose inputs were not re-read
 * (docs/kube-versions.md §2). */
typedef struct vcase {
	const char *name;
	const char *spec;              /* the one app container "c"'s requests */
	const char *pod_req, *pod_lim; /* spec.resources */
	const char *st_req, *st_alloc; /* its status entry, NULL: none */
	int infeasible;
	const char *overhead;
	int flags;
	const char *want;
} vcase;

static const vcase vcases[] = {
	{"pod-level cpu request replaces the containers'", "cpu=100", "cpu=1500", NULL, NULL, NULL, 0, NULL, 0, "cpu=1500"},
	{"PodLevelResources off: the containers' request", "cpu=100", "cpu=1500", NULL, NULL, NULL, 0, NULL,
	 KP_REQ_NO_POD_LEVEL, "cpu=100"},
	{"pod-level limit without request defaults the request", "cpu=100", NULL, "memory=2048", NULL, NULL, 0, NULL, 0,
	 "cpu=100,memory=2048"},
	{"pod-level request for another resource is not supported", "cpu=100", "example.com/x=3", NULL, NULL, NULL, 0, NULL,
	 0, "cpu=100"},
	{"overhead after the pod-level request", "cpu=100", "cpu=1500", NULL, NULL, NULL, 0, "cpu=10", 0, "cpu=1510"},
	{"[nonzero] pod-level cpu replaces the 100m default, memory keeps it", "", "cpu=1500", NULL, NULL, NULL, 0, NULL,
	 KP_REQ_NONZERO, "cpu=1500,memory=209715200"},
	{"resize: max(spec, status, allocated)", "cpu=500", NULL, NULL, "cpu=900", "cpu=700", 0, NULL, 0, "cpu=900"},
	{"resize: allocated above status", "cpu=500", NULL, NULL, "cpu=600", "cpu=700", 0, NULL, 0, "cpu=700"},
	{"resize: spec above status", "cpu=800", NULL, NULL, "cpu=600", "cpu=700", 0, NULL, 0, "cpu=800"},
	{"resize Infeasible: status only", "cpu=600", NULL, NULL, "cpu=300", "cpu=300", 1, NULL, 0, "cpu=300"},
	{"InPlacePodVerticalScaling off: spec only", "cpu=600", NULL, NULL, "cpu=900", "cpu=900", 0, NULL, KP_REQ_NO_STATUS,
	 "cpu=600"},
	{"pod-level request replaces a resized container's", "cpu=500", "cpu=1000", NULL, "cpu=900", NULL, 0, NULL, 0,
	 "cpu=1000"},
};

static void test_versions(void)
{
	for (size_t i = 0; i < sizeof vcases / sizeof *vcases; i++) {
		const vcase *c = &vcases[i];
		kp_arena a;
		kp_arena_init(&a, 1024);
		kp_container ct;
		memset(&ct, 0, sizeof ct);
		ct.name = "c";
		ct.kind = APP;
		kp_ctr_status st;
		memset(&st, 0, sizeof st);
		st.name = "c";
		kp_pod_in pod;
		memset(&pod, 0, sizeof pod);
		int bad = parse_ress(&a, c->spec, &ct.requests) | parse_ress(&a, c->pod_req, &pod.pod_requests) |
			  parse_ress(&a, c->pod_lim, &pod.pod_limits) | parse_ress(&a, c->st_req, &st.requests) |
			  parse_ress(&a, c->st_alloc, &st.allocated) | parse_ress(&a, c->overhead, &pod.overhead);
		pod.containers = &ct;
		pod.ncontainers = 1;
		if (c->st_req || c->st_alloc) {
			pod.statuses = &st;
			pod.nstatuses = 1;
		}
		pod.resize_infeasible = c->infeasible;
		kp_ress out;
		kp_err err;
		memset(&err, 0, sizeof err);
		char got[512] = "";
		if (!bad && kp_pod_requests(&pod, c->flags, &a, &out, &err) == KP_OK)
			format_ress(&out, got, sizeof got);
		TAP_EQ_STR(got, c->want, "%s", c->name);
		kp_arena_release(&a);
	}
}

int main(void)
{
	TAP_EQ_I64(DCPU, 100, "KP_DEFAULT_MILLI_CPU_REQUEST is 100m (schedutil.DefaultMilliCPURequest)");
	TAP_EQ_I64(DMEM, 200 * MI, "KP_DEFAULT_MEMORY_REQUEST is 200Mi (schedutil.DefaultMemoryRequest)");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
	test_pure();
	test_nomem();
	test_versions();
	return tap_done();
}
