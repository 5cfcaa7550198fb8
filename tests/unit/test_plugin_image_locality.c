/*
 * test_plugin_image_locality.c — ImageLocality's Score
 * (planner/plugins/image_locality.c) on the cases of kube's own unit tests:
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/imagelocality/
 * image_locality_test.go, TestImageLocalityPriority (the threshold of
 * 1000 MiB per container, v1.28–v1.31) and TestNormalizedImageName (as the
 * score sees it: a pod's image matches the node's only once normalised).
 * Images are written "NAME=MB" (several names of one image joined by ",");
 * kube's tests give raw scores, ImageLocality has no NormalizeScore.
 */
#include "tap.h"
#include "tap_snap.h"

#define NODE_40_300_2000 "gcr.io/40:latest,gcr.io/40:v1,gcr.io/40:v1=40 gcr.io/300:latest,gcr.io/300:v1=300 gcr.io/2000:latest=2000"
#define NODE_250_10 "gcr.io/250:latest=250 gcr.io/10:latest,gcr.io/10:v1=10"
#define NODE_600_40_900 "gcr.io/600:latest=600 gcr.io/40:latest=40 gcr.io/900:latest=900"
#define NODE_300_600_900 "gcr.io/300:latest=300 gcr.io/600:latest=600 gcr.io/900:latest=900"
#define NODE_4000_30 "gcr.io/4000:latest=4000 gcr.io/30:latest=30"
#define NODE_20_30_40 "gcr.io/20:latest=20 gcr.io/30:latest=30 gcr.io/40:latest=40"

typedef struct image_case {
	const char *name;
	const char *containers;   /* the pod's images */
	const char *init;         /* its init containers' images */
	const char *nodes[3];     /* node1.. images; NULL ends */
	const char *want;
} image_case;

static const image_case cases[] = {
	/* TestImageLocalityPriority */
	{"two images spread on two nodes, prefer the larger image one", "gcr.io/40 gcr.io/250", "",
	 {NODE_40_300_2000, NODE_250_10, NULL}, "node1=0 node2=5"},
	{"two images on one node, prefer this node", "gcr.io/40 gcr.io/300", "", {NODE_40_300_2000, NODE_250_10, NULL},
	 "node1=7 node2=0"},
	{"if exceed limit, use limit", "gcr.io/10 gcr.io/4000", "", {NODE_4000_30, NODE_250_10, NULL}, "node1=100 node2=0"},
	{"if exceed limit, use limit (with node which has no images present)", "gcr.io/10 gcr.io/4000", "",
	 {NODE_4000_30, NODE_250_10, ""}, "node1=66 node2=0 node3=0"},
	{"pod with multiple large images, node2 is preferred", "gcr.io/300 gcr.io/600 gcr.io/900", "",
	 {NODE_600_40_900, NODE_300_600_900, ""}, "node1=32 node2=36 node3=0"},
	{"pod with multiple small images", "gcr.io/30 gcr.io/40", "", {NODE_20_30_40, NODE_4000_30, NULL},
	 "node1=1 node2=0"},
	{"include InitContainers: two images spread on two nodes, prefer the larger image one", "gcr.io/30", "gcr.io/300",
	 {NODE_40_300_2000, NODE_20_30_40, NULL}, "node1=6 node2=0"},
	/* TestNormalizedImageName: one image of 2000 MB on the only node
	 * scores 100 when the pod's name normalises to the node's */
	{"add :latest postfix 1", "root", "", {"root:latest=2000", NULL, NULL}, "node1=100"},
	{"add :latest postfix 2", "gcr.io:5000/root", "", {"gcr.io:5000/root:latest=2000", NULL, NULL}, "node1=100"},
	{"keep it as is 1", "root:tag", "", {"root:tag=2000", NULL, NULL}, "node1=100"},
	{"keep it as is 2",
	 "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2", "",
	 {"root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2=2000", NULL, NULL}, "node1=100"},
	/* kplan's own: a tag is part of the name, root:tag is not root:latest */
	{"kplan: another tag does not match", "root:tag", "", {"root:latest=2000", NULL, NULL}, "node1=0"},
};

/* "a,b=40 c=300" as a node's status.images */
static size_t images_yaml(char *buf, size_t len, const char *spec)
{
	size_t w = (size_t)snprintf(buf, len, "[");
	char names[512];
	long mb;
	int used, first = 1;
	for (const char *s = spec; w < len && sscanf(s, " %511[^=]=%ld%n", names, &mb, &used) == 2; s += used) {
		w += (size_t)snprintf(buf + w, len - w, "%s{names: [", first ? "" : ", ");
		int k = 0;
		for (char *n = strtok(names, ","); n && w < len; n = strtok(NULL, ","))
			w += (size_t)snprintf(buf + w, len - w, "%s'%s'", k++ ? ", " : "", n);
		w += (size_t)snprintf(buf + w, len - w, "], sizeBytes: %lld}", (long long)mb * 1024 * 1024);
		first = 0;
	}
	if (w < len)
		w += (size_t)snprintf(buf + w, len - w, "]");
	return w;
}

/* "img1 img2" as containers named PREFIX0.. */
static size_t containers_yaml(char *buf, size_t len, const char *images, const char *prefix)
{
	size_t w = (size_t)snprintf(buf, len, "[");
	char img[256];
	int used, i = 0;
	for (const char *s = images; w < len && sscanf(s, " %255s%n", img, &used) == 1; s += used, i++)
		w += (size_t)snprintf(buf + w, len - w, "%s{name: %s%d, image: '%s'}", i ? ", " : "", prefix, i, img);
	if (w < len)
		w += (size_t)snprintf(buf + w, len - w, "]");
	return w;
}

static const char *cluster(char *buf, size_t len, const image_case *c)
{
	char part[4096], init[1024];
	size_t w = 0;
	for (int i = 0; i < 3 && c->nodes[i] && w < len; i++) {
		images_yaml(part, sizeof part, c->nodes[i]);
		w += (size_t)snprintf(buf + w, len - w, "kind: Node\nmetadata: {name: node%d}\nstatus: {images: %s}\n---\n",
				      i + 1, part);
	}
	containers_yaml(part, sizeof part, c->containers, "c");
	containers_yaml(init, sizeof init, c->init, "i");
	if (w < len)
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: p}\nspec: {initContainers: %s, containers: %s}\n", init,
			 part);
	return buf;
}

int main(void)
{
	char yaml[16384], got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const image_case *c = &cases[i];
		if (tap_snap_open(&t, cluster(yaml, sizeof yaml, c), NULL, "p") != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_score(&t, &kp_plugin_image_locality, NULL, 1, got, sizeof got), c->want, "Score: %s",
				   c->name);
		tap_snap_close(&t);
	}
	return tap_done();
}
