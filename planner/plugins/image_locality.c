/*
 * image_locality.c — ImageLocality (kube-scheduler-semantics.md §7.6; kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/imagelocality/image_locality.go).
 * For each container image already on the node: its size scaled by the share
 * of nodes that have it; the sum, clamped to [23 MiB, 1000 MiB x containers],
 * maps linearly to 0..100.  Image names without a tag get ":latest".
 */
#include "../cycle.h"

static int64_t score(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	int64_t sum = 0;
	for (uint32_t i = 0; i < c->nimages; i++) {
		kp_sid img = c->images[i];
		uint32_t lo = 0, hi = s->nimages[node];
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (s->image_names[node][mid] < img)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* image_names are sorted by name text in SQL, not by id: scan on a miss */
		int64_t size = -1;
		if (lo < s->nimages[node] && s->image_names[node][lo] == img)
			size = s->image_sizes[node][lo];
		else
			for (uint32_t k = 0; k < s->nimages[node] && size < 0; k++)
				if (s->image_names[node][k] == img)
					size = s->image_sizes[node][k];
		if (size < 0)
			continue;
		int32_t spread = img < s->image_nodes_len ? s->image_nodes[img] : 0;
		sum += (int64_t)((double)size * ((double)spread / (double)kp_snap_nlive(s)));
	}
	return kp_image_locality(sum, c->ncontainers);
}

const kp_plugin kp_plugin_image_locality = {
	.name = "ImageLocality",
	.weight = 1,
	.local_score = 1,
	.score = score,
};
