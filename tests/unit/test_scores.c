/*
 * test_scores.c — kube-scheduler's score formulas and matching helpers
 * (planner/scores.h) against the numbers of kube's own unit tests.
 *
 * Every table row is one upstream test case (or one node of it); the group
 * comment names the Go test function it comes from (kubernetes/kubernetes,
 * v1.28–v1.31 sources).  kube's tests assert the combined node score; here
 * each resource's score is asserted too, and the node score is combined the
 * way the plugin combines it:
 *   LeastAllocated / MostAllocated  Σ s_r·w_r / Σ w_r      (integer division;
 *                                   resources with allocatable 0 skipped)
 *   RequestedToCapacityRatio        round(Σ s_r·w_r / Σ w_r) over s_r > 0
 * Quantities are in the units of the Go test (the formulas only use ratios).
 */
#include <math.h>
#include <stdint.h>

#include "../../planner/scores.h"
#include "tap.h"

#define MB (1024LL * 1024)

/* ------------------------------------------------------------ Least / Most */

typedef struct res { int64_t req, alloc, weight, want; } res;
typedef struct alloc_case {
	const char *name;
	int n;
	res r[3];
	int64_t want;             /* the node score of the Go test */
} alloc_case;

/* pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go
 * TestLeastAllocatedScoringStrategy */
static const alloc_case least_cases[] = {
	{"nothing scheduled, nothing requested (node1)", 2,
	 {{0, 4000, 1, 100}, {0, 10000, 1, 100}}, 100},
	{"nothing scheduled, resources requested, differently sized nodes (node1)", 2,
	 {{3000, 4000, 1, 25}, {5000, 10000, 1, 50}}, 37},
	{"nothing scheduled, resources requested, differently sized nodes (node2)", 2,
	 {{3000, 6000, 1, 50}, {5000, 10000, 1, 50}}, 50},
	{"no resources requested, pods scheduled with resources (node1)", 2,
	 {{6000, 10000, 1, 40}, {0, 20000, 1, 100}}, 70},
	{"no resources requested, pods scheduled with resources (node2)", 2,
	 {{6000, 10000, 1, 40}, {5000, 20000, 1, 75}}, 57},
	{"resources requested, pods scheduled with resources (node1)", 2,
	 {{6000, 10000, 1, 40}, {5000, 20000, 1, 75}}, 57},
	{"resources requested, pods scheduled with resources (node2)", 2,
	 {{6000, 10000, 1, 40}, {10000, 20000, 1, 50}}, 45},
	{"resources requested, pods scheduled with resources, differently sized nodes (node2)", 2,
	 {{6000, 10000, 1, 40}, {10000, 50000, 1, 80}}, 60},
	{"requested resources exceed node capacity (node1)", 2,
	 {{6000, 4000, 1, 0}, {0, 10000, 1, 100}}, 50},
	{"requested resources exceed node capacity (node2)", 2,
	 {{6000, 4000, 1, 0}, {5000, 10000, 1, 50}}, 25},
	{"zero node resources, pods scheduled with resources", 2,
	 {{3000, 0, 1, -1}, {5000, 0, 1, -1}}, 0},
	{"different weight on CPU and memory, differently sized nodes (node1)", 2,
	 {{3000, 4000, 1, 25}, {5000, 10000, 2, 50}}, 41},
	{"different weight on CPU and memory, differently sized nodes (node2)", 2,
	 {{3000, 6000, 1, 50}, {5000, 10000, 2, 50}}, 50},
	{"honor extended resource if the pod requests (node1)", 3,
	 {{3000, 6000, 1, 50}, {5000, 10000, 1, 50}, {2, 4, 1, 50}}, 50},
	{"honor extended resource if the pod requests (node2)", 3,
	 {{3000, 6000, 1, 50}, {5000, 10000, 1, 50}, {2, 10, 1, 80}}, 60},
	{"if the node doesn't have a resource (node1: extended allocatable 0, weight 2)", 3,
	 {{0, 0, 2, -1}, {3000, 6000, 1, 50}, {4000, 10000, 1, 60}}, 55},
};

/* pkg/scheduler/framework/plugins/noderesources/most_allocated_test.go
 * TestMostAllocatedScoringStrategy */
static const alloc_case most_cases[] = {
	{"nothing scheduled, nothing requested", 2,
	 {{0, 4000, 1, 0}, {0, 10000, 1, 0}}, 0},
	{"nothing scheduled, resources requested, differently sized nodes (node1)", 2,
	 {{3000, 4000, 1, 75}, {5000, 10000, 1, 50}}, 62},
	{"nothing scheduled, resources requested, differently sized nodes (node2)", 2,
	 {{3000, 6000, 1, 50}, {5000, 10000, 1, 50}}, 50},
	{"no resources requested, pods scheduled with resources (node1)", 2,
	 {{6000, 10000, 1, 60}, {0, 20000, 1, 0}}, 30},
	{"no resources requested, pods scheduled with resources (node2)", 2,
	 {{6000, 10000, 1, 60}, {5000, 20000, 1, 25}}, 42},
	{"resources requested, pods scheduled with resources (node1)", 2,
	 {{6000, 10000, 1, 60}, {5000, 20000, 1, 25}}, 42},
	{"resources requested, pods scheduled with resources (node2)", 2,
	 {{6000, 10000, 1, 60}, {10000, 20000, 1, 50}}, 55},
	{"resources requested equal node capacity (node1)", 2,
	 {{5000, 5000, 1, 100}, {9000, 10000, 1, 90}}, 95},
	{"resources requested equal node capacity (node2)", 2,
	 {{5000, 10000, 1, 50}, {9000, 9000, 1, 100}}, 75},
	{"different weight on CPU and memory (node1)", 2,
	 {{3000, 4000, 1, 75}, {5000, 10000, 2, 50}}, 58},
	/* 3 pods without requests: 3 x 100m / 3 x 200Mi (non-zero defaults);
	 * cpu 300m > 250m is capped at the allocatable */
	{"no resources requested, pods scheduled, nonzero request for resource (node1)", 2,
	 {{300, 250, 1, 100}, {600 * MB, 1000 * MB, 1, 60}}, 80},
	{"no resources requested, pods scheduled, nonzero request for resource (node2)", 2,
	 {{100, 250, 1, 40}, {200 * MB, 1000 * MB, 1, 20}}, 30},
	{"honor extended resource if the pod request (node1)", 3,
	 {{3000, 6000, 1, 50}, {5000, 10000, 1, 50}, {2, 4, 1, 50}}, 50},
	{"honor extended resource if the pod request (node2)", 3,
	 {{3000, 6000, 1, 50}, {5000, 10000, 1, 50}, {2, 10, 1, 20}}, 40},
	{"if the node doesn't have a resource (node1: extended allocatable 0, weight 2)", 3,
	 {{0, 0, 2, -1}, {3000, 6000, 1, 50}, {4000, 10000, 1, 40}}, 45},
};

static void check_alloc(const char *group, int64_t (*fn)(int64_t, int64_t),
			const alloc_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++, c++) {
		int64_t sum = 0, wsum = 0;
		for (int j = 0; j < c->n; j++) {
			int64_t s = fn(c->r[j].req, c->r[j].alloc);
			TAP_EQ_I64(s, c->r[j].want, "%s: %s: resource %d (%lld/%lld)", group, c->name, j,
				   (long long)c->r[j].req, (long long)c->r[j].alloc);
			if (s < 0)
				continue;
			sum += s * c->r[j].weight;
			wsum += c->r[j].weight;
		}
		TAP_EQ_I64(wsum ? sum / wsum : 0, c->want, "%s: %s: node score", group, c->name);
	}
}

/* ---------------------------------------------- RequestedToCapacityRatio */

static const kp_shape_point shape_least[] = {{0, 10}, {100, 0}};
static const kp_shape_point shape_bin1[] = {{0, 0}, {100, 1}};

typedef struct rtcr_case {
	const char *name;
	const kp_shape_point *shape;
	size_t nshape;
	int n;
	res r[3];
	int64_t want;
} rtcr_case;

static const rtcr_case rtcr_cases[] = {
	/* requested_to_capacity_ratio_test.go TestRequestedToCapacityRatioScoringStrategy
	 * (shape (0,10),(100,0), cpu and memory weight 1) */
	{"nothing scheduled, nothing requested", shape_least, 2, 2,
	 {{0, 4000, 1, 100}, {0, 10000, 1, 100}}, 100},
	{"nothing scheduled, resources requested, differently sized nodes (node1: round(37.5))", shape_least, 2, 2,
	 {{3000, 4000, 1, 25}, {5000, 10000, 1, 50}}, 38},
	{"nothing scheduled, resources requested, differently sized nodes (node2)", shape_least, 2, 2,
	 {{3000, 6000, 1, 50}, {5000, 10000, 1, 50}}, 50},
	/* TestResourceBinPackingSingleExtended (shape (0,0),(100,1), intel.com/foo weight 1) */
	{"single extended: resources requested, pods scheduled with less resources (node1)", shape_bin1, 2, 1,
	 {{2, 8, 1, 2}}, 2},
	{"single extended: resources requested, pods scheduled with less resources (node2)", shape_bin1, 2, 1,
	 {{2, 4, 1, 5}}, 5},
	{"single extended: on node with existing pod running (node2: 4/4)", shape_bin1, 2, 1,
	 {{4, 4, 1, 10}}, 10},
	{"single extended: resources requested, pods scheduled with more resources (node1)", shape_bin1, 2, 1,
	 {{4, 8, 1, 5}}, 5},
	/* TestResourceBinPackingMultipleExtended (intel.com/foo weight 3, intel.com/bar weight 5) */
	{"multiple extended: pods scheduled with less resources (node1: round(31/8))", shape_bin1, 2, 2,
	 {{2, 8, 3, 2}, {2, 4, 5, 5}}, 4},
	{"multiple extended: pods scheduled with less resources (node2: round(25/8))", shape_bin1, 2, 2,
	 {{2, 4, 3, 5}, {2, 8, 5, 2}}, 3},
	{"multiple extended: on node with existing pod running (node2: foo 6 > 4, round(55/8))", shape_bin1, 2, 2,
	 {{6, 4, 3, 10}, {4, 8, 5, 5}}, 7},
	{"multiple extended: pods scheduled with more resources (node1)", shape_bin1, 2, 2,
	 {{4, 8, 3, 5}, {2, 4, 5, 5}}, 5},
	{"multiple extended: pods scheduled with more resources (node2)", shape_bin1, 2, 2,
	 {{4, 4, 3, 10}, {2, 8, 5, 2}}, 5},
};

static void check_rtcr(void)
{
	const rtcr_case *c = rtcr_cases;
	for (size_t i = 0; i < sizeof rtcr_cases / sizeof *rtcr_cases; i++, c++) {
		int64_t sum = 0, wsum = 0;
		for (int j = 0; j < c->n; j++) {
			int64_t s = kp_rtcr(c->r[j].req, c->r[j].alloc, c->shape, c->nshape);
			TAP_EQ_I64(s, c->r[j].want, "rtcr: %s: resource %d (%lld/%lld)", c->name, j,
				   (long long)c->r[j].req, (long long)c->r[j].alloc);
			if (s > 0) {
				sum += s * c->r[j].weight;
				wsum += c->r[j].weight;
			}
		}
		int64_t total = wsum ? (int64_t)llround((double)sum / (double)wsum) : 0;
		TAP_EQ_I64(total, c->want, "rtcr: %s: node score", c->name);
	}
}

/* requested_to_capacity_ratio_test.go TestBrokenLinearFunction.  The plugin
 * scales the shape's scores by MaxNodeScore/MaxCustomPriorityScore = 10 before
 * building the function, so kp_rtcr(p, 100, shape) = 10 x the Go assertion;
 * only assertions where that scaling is exact (no truncation in between) are
 * used.  p > 100 is requested > allocatable, which kube maps to f(100). */
typedef struct blf_case { const kp_shape_point *shape; size_t nshape; int64_t p, want; } blf_case;
static const kp_shape_point blf1[] = {{10, 1}, {90, 9}};
static const kp_shape_point blf2[] = {{0, 2}, {40, 10}, {100, 0}};
static const kp_shape_point blf3[] = {{0, 2}, {40, 2}, {100, 2}};
static const blf_case blf_cases[] = {
	{blf1, 2, 0, 10}, {blf1, 2, 9, 10}, {blf1, 2, 10, 10}, {blf1, 2, 20, 20},
	{blf1, 2, 90, 90}, {blf1, 2, 100, 90}, {blf1, 2, 110, 90},
	{blf2, 3, 0, 20}, {blf2, 3, 20, 60}, {blf2, 3, 30, 80}, {blf2, 3, 40, 100},
	{blf2, 3, 70, 50}, {blf2, 3, 100, 0}, {blf2, 3, 110, 0},
	{blf3, 3, 0, 20}, {blf3, 3, 20, 20}, {blf3, 3, 40, 20}, {blf3, 3, 70, 20},
	{blf3, 3, 100, 20}, {blf3, 3, 110, 20},
};

static void check_broken_linear(void)
{
	for (size_t i = 0; i < sizeof blf_cases / sizeof *blf_cases; i++) {
		const blf_case *c = &blf_cases[i];
		TAP_EQ_I64(kp_rtcr(c->p, 100, c->shape, c->nshape), c->want,
			   "TestBrokenLinearFunction case_%d: p=%lld",
			   c->shape == blf1 ? 0 : c->shape == blf2 ? 1 : 2, (long long)c->p);
	}
	TAP_EQ_I64(kp_rtcr(5, 0, shape_least, 2), -1, "rtcr: allocatable 0 is skipped (-1)");
}

/* ------------------------------------------------------ BalancedAllocation */

typedef struct bal_case { const char *name; int n; int64_t req[3], alloc[3]; int64_t want; } bal_case;

/* balanced_allocation_test.go TestNodeResourcesBalancedAllocation (the
 * v1.28–v1.31 cases; fractions = requested / allocatable as float64, at most 1) */
static const bal_case bal_cases[] = {
	{"nothing scheduled, nothing requested (1.28-1.31: no PreScore skip)", 2,
	 {0, 0}, {4000, 10000}, 100},
	{"nothing scheduled, resources requested, differently sized nodes (node1)", 2,
	 {3000, 5000}, {4000, 10000}, 87},
	{"nothing scheduled, resources requested, differently sized nodes (node2)", 2,
	 {3000, 5000}, {6000, 10000}, 100},
	{"resources requested, pods scheduled with resources (node1)", 2,
	 {6000, 5000}, {10000, 20000}, 82},
	{"resources requested, pods scheduled with resources (node2)", 2,
	 {6000, 10000}, {10000, 20000}, 95},
	{"resources requested, pods scheduled with resources, differently sized nodes (node2)", 2,
	 {6000, 10000}, {10000, 50000}, 80},
	{"requested resources at node capacity (node1)", 2,
	 {6000, 0}, {6000, 10000}, 50},
	{"requested resources at node capacity (node2)", 2,
	 {6000, 5000}, {6000, 10000}, 75},
	{"include scalar resource on a node for balanced resource allocation (node1)", 3,
	 {3000, 5000, 4}, {3500, 40000, 8}, 70},
	{"include scalar resource on a node for balanced resource allocation (node2)", 3,
	 {3000, 5000, 1}, {3500, 40000, 8}, 65},
	{"node without the scalar resource should skip the scalar resource", 2,
	 {3000, 5000}, {3500, 40000}, 63},
	{"balanced_allocation.go: a fraction above 1 counts as 1 (12000/6000)", 2,
	 {12000, 0}, {6000, 10000}, 50},
};

static void check_balanced(void)
{
	for (size_t i = 0; i < sizeof bal_cases / sizeof *bal_cases; i++) {
		const bal_case *c = &bal_cases[i];
		double f[3];
		for (int j = 0; j < c->n; j++) {
			f[j] = (double)c->req[j] / (double)c->alloc[j];
			if (f[j] > 1)
				f[j] = 1;
		}
		TAP_EQ_I64(kp_balanced_allocation(f, (size_t)c->n), c->want, "balanced: %s", c->name);
	}
	double one[1] = {0.7};
	TAP_EQ_I64(kp_balanced_allocation(one, 1), 100, "balanced: one fraction has std 0");
}

/* kube 1.20's balancedResourceScorer (--strategy kube-1.20): the fractions of
 * balanced_allocation_test.go's cases, scored (1 - |cpu - memory|) * 100 as
 * 1.18-1.21 expected them (the older copies read, on a 0-10 scale, expect
 * 6, 9, 6, 4 for the 65, 90, 60, 40 here: the same truncation) */
typedef struct bal120_case { const char *name; int64_t cpu, cpu_alloc, mem, mem_alloc, want; } bal120_case;
static const bal120_case bal120_cases[] = {
	{"nothing scheduled, nothing requested", 0, 4000, 0, 10000, 100},
	{"differently sized machines (machine1: 75% cpu, 50% memory)", 3000, 4000, 5000, 10000, 75},
	{"differently sized machines (machine2: 50%, 50%)", 3000, 6000, 5000, 10000, 100},
	{"pods scheduled with resources (machine1: 60%, 25%)", 6000, 10000, 5000, 20000, 65},
	{"pods scheduled with resources (machine2: 60%, 50%)", 6000, 10000, 10000, 20000, 90},
	{"differently sized machines (60%, 20%)", 6000, 10000, 10000, 50000, 60},
	{"no resources requested (60%, 0%)", 6000, 10000, 0, 20000, 40},
	{"requested resources exceed node capacity (150% cpu) score 0", 6000, 4000, 0, 10000, 0},
	{"requested resources at node capacity (100% cpu) score 0", 6000, 6000, 0, 10000, 0},
	{"allocatable 0 counts as a full fraction: 0", 0, 0, 0, 10000, 0},
};

static void check_balanced_1_20(void)
{
	for (size_t i = 0; i < sizeof bal120_cases / sizeof *bal120_cases; i++) {
		const bal120_case *c = &bal120_cases[i];
		double cpu = c->cpu_alloc ? (double)c->cpu / (double)c->cpu_alloc : 1;
		double mem = c->mem_alloc ? (double)c->mem / (double)c->mem_alloc : 1;
		TAP_EQ_I64(kp_balanced_allocation_1_20(cpu, mem), c->want, "balanced 1.20: %s", c->name);
	}
	/* the factor the 1.20 formula has that the std one halves: 1 - 0.25 vs 1 - 0.25/2 */
	double f[2] = {0.75, 0.5};
	TAP_EQ_I64(kp_balanced_allocation(f, 2), 87, "balanced: the same node scores 87 with the standard deviation (1.31-1.35)");
}

/* ----------------------------------------------------------- ImageLocality */

typedef struct img { int64_t size, num_nodes; } img;
typedef struct image_case {
	const char *name;
	int64_t total_nodes, containers;
	int n;
	img on_node[3];           /* the pod's images present on the node */
	int64_t want;
} image_case;

/* pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go
 * TestImageLocalityPriority (v1.27+: init containers count; maxThreshold =
 * 1000MB x containers).  sum = Σ int64(size x numNodes / totalNodes). */
static const image_case image_cases[] = {
	{"two images spread on two nodes, prefer the larger image one (node1)", 2, 2, 1,
	 {{40 * MB, 1}}, 0},
	{"two images spread on two nodes, prefer the larger image one (node2)", 2, 2, 1,
	 {{250 * MB, 1}}, 5},
	{"two images on one node, prefer this node (node1)", 2, 2, 2,
	 {{40 * MB, 1}, {300 * MB, 1}}, 7},
	{"two images on one node, prefer this node (node2)", 2, 2, 0, {{0, 0}}, 0},
	{"if exceed limit, use limit (node1)", 2, 2, 1, {{4000 * MB, 1}}, 100},
	{"if exceed limit, use limit (node2)", 2, 2, 1, {{10 * MB, 1}}, 0},
	{"if exceed limit, use limit (with node which has no images present) (node1)", 3, 2, 1,
	 {{4000 * MB, 1}}, 66},
	{"pod with multiple large images, node2 is preferred (node1)", 3, 3, 2,
	 {{600 * MB, 2}, {900 * MB, 2}}, 32},
	{"pod with multiple large images, node2 is preferred (node2)", 3, 3, 3,
	 {{300 * MB, 1}, {600 * MB, 2}, {900 * MB, 2}}, 36},
	{"pod with multiple small images (node1)", 2, 2, 2,
	 {{30 * MB, 2}, {40 * MB, 1}}, 1},
	{"pod with multiple small images (node2)", 2, 2, 1, {{30 * MB, 2}}, 0},
	{"include InitContainers: two images spread on two nodes (node1)", 2, 2, 1,
	 {{300 * MB, 1}}, 6},
	{"include InitContainers: two images spread on two nodes (node2)", 2, 2, 1,
	 {{30 * MB, 1}}, 0},
};

static void check_image(void)
{
	for (size_t i = 0; i < sizeof image_cases / sizeof *image_cases; i++) {
		const image_case *c = &image_cases[i];
		int64_t sum = 0;
		for (int j = 0; j < c->n; j++)
			sum += (int64_t)((double)c->on_node[j].size * (double)c->on_node[j].num_nodes /
					 (double)c->total_nodes);
		TAP_EQ_I64(kp_image_locality(sum, c->containers), c->want, "image: %s", c->name);
	}
}

/* ------------------------------------------------------------- Tolerations */

typedef struct tol_case {
	const char *name;
	const char *tkey, *top, *tvalue, *teffect;
	const char *key, *value, *effect;
	int want;
} tol_case;

static const tol_case tol_cases[] = {
	/* staging/src/k8s.io/api/core/v1/toleration_test.go TestTolerationToleratesTaint */
	{"same key and effect, operator Exists, taint has no value", "foo", "Exists", "", "NoSchedule",
	 "foo", "", "NoSchedule", 1},
	{"same key and effect, operator Exists, taint has some value", "foo", "Exists", "", "NoSchedule",
	 "foo", "bar", "NoSchedule", 1},
	{"same effect, empty key and operator Exists matches all taints", "", "Exists", "", "NoSchedule",
	 "foo", "bar", "NoSchedule", 1},
	{"same key, effect and value, operator Equal", "foo", "Equal", "bar", "NoSchedule",
	 "foo", "bar", "NoSchedule", 1},
	{"same key and effect, different values, operator Equal", "foo", "Equal", "value1", "NoSchedule",
	 "foo", "value2", "NoSchedule", 0},
	{"same key and value, different effects, operator Equal", "foo", "Equal", "bar", "NoSchedule",
	 "foo", "bar", "NoExecute", 0},
	/* the Gt/Lt cases of the same test (1.35+ operators) whose answer is
	 * also 1.28-1.31's: an operator other than ""/Equal/Exists never tolerates;
	 * check_tolerations runs them with TaintTolerationComparisonOperators on too */
	{"Gt operator, taint value less than toleration value", "node.kubernetes.io/sla", "Gt", "950", "NoSchedule",
	 "node.kubernetes.io/sla", "800", "NoSchedule", 0},
	{"Lt operator, taint value greater than toleration value", "node.kubernetes.io/sla", "Lt", "800", "NoSchedule",
	 "node.kubernetes.io/sla", "950", "NoSchedule", 0},
	{"Gt operator and taint with equal numeric value", "node.kubernetes.io/sla", "Gt", "950", "NoSchedule",
	 "node.kubernetes.io/sla", "950", "NoSchedule", 0},
	{"Gt operator and taint with non-numeric value", "node.kubernetes.io/sla", "Gt", "950", "NoSchedule",
	 "node.kubernetes.io/sla", "high", "NoSchedule", 0},
	/* toleration.go ToleratesTaint: empty effect matches every effect; the
	 * empty operator means Equal (kube-scheduler-semantics.md §5.3.1) */
	{"empty effect tolerates NoExecute", "foo", "Equal", "bar", "",
	 "foo", "bar", "NoExecute", 1},
	{"empty effect tolerates PreferNoSchedule", "foo", "Exists", "", "",
	 "foo", "x", "PreferNoSchedule", 1},
	{"empty operator means Equal (same value)", "foo", "", "bar", "NoSchedule",
	 "foo", "bar", "NoSchedule", 1},
	{"empty operator means Equal (other value)", "foo", "", "bar", "NoSchedule",
	 "foo", "baz", "NoSchedule", 0},
	{"Exists on another key", "foo", "Exists", "", "NoSchedule",
	 "other", "", "NoSchedule", 0},
	{"empty key, empty effect, Exists tolerates everything", "", "Exists", "", "",
	 "anything", "v", "NoExecute", 1},
};

/* TaintTolerationComparisonOperators on (toleration.go, 1.35+): Gt
 * tolerates a taint whose integer value is greater, Lt one whose value is
 * less (kplan's cases; docs/kube-versions.md §3: Gt 750 vs 950 tolerated) */
static const tol_case cmp_cases[] = {
	{"Gt operator, taint value greater than toleration value", "node.kubernetes.io/sla", "Gt", "750", "NoSchedule",
	 "node.kubernetes.io/sla", "950", "NoSchedule", 1},
	{"Lt operator, taint value less than toleration value", "node.kubernetes.io/sla", "Lt", "950", "NoSchedule",
	 "node.kubernetes.io/sla", "800", "NoSchedule", 1},
	{"Gt operator, other key", "node.kubernetes.io/sla", "Gt", "750", "NoSchedule", "other", "950", "NoSchedule", 0},
	{"Gt operator, other effect", "node.kubernetes.io/sla", "Gt", "750", "NoSchedule",
	 "node.kubernetes.io/sla", "950", "NoExecute", 0},
	{"Lt operator, empty effect, negative values", "k", "Lt", "-5", "", "k", "-10", "PreferNoSchedule", 1},
	{"Gt operator, toleration value not an integer", "k", "Gt", "1.5", "", "k", "10", "NoSchedule", 0},
};

static void check_tolerations(void)
{
	for (size_t i = 0; i < sizeof tol_cases / sizeof *tol_cases; i++) {
		const tol_case *c = &tol_cases[i];
		TAP_EQ_I64(kp_tolerates_str(c->tkey, c->top, c->tvalue, c->teffect, c->key, c->value, c->effect, 0),
			   c->want, "toleration: %s", c->name);
		TAP_EQ_I64(kp_tolerates_str(c->tkey, c->top, c->tvalue, c->teffect, c->key, c->value, c->effect, 1),
			   c->want, "toleration, comparison operators on: %s", c->name);
	}
	for (size_t i = 0; i < sizeof cmp_cases / sizeof *cmp_cases; i++) {
		const tol_case *c = &cmp_cases[i];
		TAP_EQ_I64(kp_tolerates_str(c->tkey, c->top, c->tvalue, c->teffect, c->key, c->value, c->effect, 1),
			   c->want, "toleration, comparison operators on: %s", c->name);
		TAP_EQ_I64(kp_tolerates_str(c->tkey, c->top, c->tvalue, c->teffect, c->key, c->value, c->effect, 0), 0,
			   "toleration, comparison operators off: %s", c->name);
	}
}

/* ------------------------------------------------------ Match expressions */

typedef struct expr_case {
	const char *name;
	const char *op;
	const char *value;        /* the node's label value, NULL = absent */
	const char *values[3];
	size_t n;
	int want;
} expr_case;

static const expr_case expr_cases[] = {
	/* staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
	 * TestPodMatchesNodeSelectorAndAffinityTerms (same cases in
	 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go TestNodeAffinity) */
	{"In operator that matches the existing node", "In", "bar", {"bar", "value2"}, 2, 1},
	{"Gt operator that matches the existing node (0206 > 0204)", "Gt", "0206", {"0204"}, 1, 1},
	{"NotIn operator that matches the existing node", "NotIn", "DDR3", {"DDR", "DDR2"}, 2, 1},
	{"Exists operator that matches the existing node", "Exists", "NVIDIA-GRID-K1", {0}, 0, 1},
	{"affinity that don't match node's labels", "In", "bar", {"value1", "value2"}, 2, 0},
	{"multiple matchExpressions ANDed: GPU NotIn [AMD, INTER]", "NotIn", "NVIDIA-GRID-K1", {"AMD", "INTER"}, 2, 1},
	{"multiple matchExpressions ANDed: GPU In [AMD, INTER]", "In", "NVIDIA-GRID-K1", {"AMD", "INTER"}, 2, 0},
	{"ORed terms: diffkey In [wrong, value2] on a node without diffkey", "In", NULL, {"wrong", "value2"}, 2, 0},
	{"Affinity Exists matches but nodeSelector value differs (Exists half)", "Exists", "barrrrrr", {0}, 0, 1},
	/* an invalid label value makes the whole term fail to parse: it never matches */
	{"invalid value in Affinity term won't be scheduled onto the node", "NotIn", "bar",
	 {"invalid value: ___@#$%^"}, 1, 0},
	/* staging/src/k8s.io/apimachinery/pkg/labels Requirement.Matches: Gt/Lt
	 * parse both sides as int64; a missing or non-integer label never matches */
	{"Lt 7 on label 3", "Lt", "3", {"7"}, 1, 1},
	{"Lt 7 on label 7", "Lt", "7", {"7"}, 1, 0},
	{"Gt 1 on a node without the label", "Gt", NULL, {"1"}, 1, 0},
	{"Gt 1 on a non-integer label", "Gt", "v2", {"1"}, 1, 0},
	{"Gt with a non-integer value", "Gt", "5", {"x"}, 1, 0},
	{"Gt with two values", "Gt", "5", {"1", "2"}, 2, 0},
	{"Gt negative numbers (-100 > -200)", "Gt", "-100", {"-200"}, 1, 1},
	{"NotIn on a node without the label", "NotIn", NULL, {"a"}, 1, 1},
	{"DoesNotExist on a node without the label", "DoesNotExist", NULL, {0}, 0, 1},
	{"DoesNotExist on a node with the label", "DoesNotExist", "", {0}, 0, 0},
	{"Exists on a node with an empty label value", "Exists", "", {0}, 0, 1},
	{"unknown operator", "Like", "a", {"a"}, 1, -1},
};

static void check_expressions(void)
{
	for (size_t i = 0; i < sizeof expr_cases / sizeof *expr_cases; i++) {
		const expr_case *c = &expr_cases[i];
		TAP_EQ_I64(kp_match_expression_str(c->op, c->value, c->values, c->n), c->want,
			   "expression: %s", c->name);
	}
}

int main(void)
{
	check_alloc("least", kp_least_allocated, least_cases, sizeof least_cases / sizeof *least_cases);
	check_alloc("most", kp_most_allocated, most_cases, sizeof most_cases / sizeof *most_cases);
	check_rtcr();
	check_broken_linear();
	check_balanced();
	check_balanced_1_20();
	check_image();
	check_tolerations();
	check_expressions();
	return tap_done();
}
