/*
 * k8s_nodes.c — the Node reader: metadata (uid, creation, labels),
 * spec.unschedulable and spec.taints, status.allocatable and capacity
 * (allocatable defaults to capacity, as SetDefaults_NodeStatus does) and
 * status.images, stored with kp_import_node().
 */
#include "k8s_int.h"

#include <stdio.h>
#include <string.h>

int kp_k8s_read_node(kctx *c, const objhead *h)
{
	kp_node_in n;
	memset(&n, 0, sizeof n);
	n.pos = (kp_pos){ h->obj->line, h->obj->col };
	n.name = h->name;
	const kp_ynode *taints, *images;
	if (kp_k8s_get_str(c, h->meta, "uid", "metadata.uid", &n.uid) != KP_OK ||
	    kp_k8s_get_time(c, h->meta, "creationTimestamp", "metadata.creationTimestamp", &n.created) != KP_OK ||
	    kp_k8s_get_kvs(c, h->meta, "labels", "metadata.labels", &n.labels) != KP_OK ||
	    kp_k8s_get_bool(c, h->spec, "unschedulable", "spec.unschedulable", &n.unschedulable) != KP_OK ||
	    kp_k8s_get_resources(c, h->status, "allocatable", "status.allocatable", &n.allocatable) != KP_OK ||
	    kp_k8s_get_resources(c, h->status, "capacity", "status.capacity", &n.capacity) != KP_OK ||
	    kp_k8s_get_seq(c, h->spec, "taints", "spec.taints", &taints) != KP_OK ||
	    kp_k8s_get_seq(c, h->status, "images", "status.images", &images) != KP_OK ||
	    kp_k8s_get_declared_features(c, h->status, &n) != KP_OK)
		return KP_PARSE;
	/* API defaulting (SetDefaults_NodeStatus): allocatable defaults to capacity */
	if (!kp_ymap_get(h->status, "allocatable"))
		n.allocatable = n.capacity;
	if (taints && taints->n) {
		static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute", NULL };
		n.taints = kp_arena_alloc(c->a, taints->n * sizeof *n.taints);
		if (!n.taints)
			return kp_k8s_nomem(c);
		for (size_t i = 0; i < taints->n; i++) {
			const kp_ynode *t = taints->u.items[i];
			char p[64], q[96];
			snprintf(p, sizeof p, "spec.taints[%zu]", i);
			if (t->type != KP_Y_MAP)
				return kp_k8s_bad(c, t, "%s: expected a mapping", p);
			snprintf(q, sizeof q, "%s.key", p);
			if (kp_k8s_get_str(c, t, "key", q, &n.taints[i].key) != KP_OK)
				return KP_PARSE;
			if (!n.taints[i].key || !n.taints[i].key[0])
				return kp_k8s_bad(c, t, "%s.key: required", p);
			snprintf(q, sizeof q, "%s.value", p);
			if (kp_k8s_get_str(c, t, "value", q, &n.taints[i].value) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.effect", p);
			if (kp_k8s_one_of(c, t, "effect", q, effects, &n.taints[i].effect) != KP_OK)
				return KP_PARSE;
			if (!n.taints[i].effect)
				return kp_k8s_bad(c, t, "%s.effect: required", p);
		}
		n.ntaints = taints->n;
	}
	if (images && images->n) {
		n.images = kp_arena_alloc(c->a, images->n * sizeof *n.images);
		if (!n.images)
			return kp_k8s_nomem(c);
		for (size_t i = 0; i < images->n; i++) {
			const kp_ynode *im = images->u.items[i];
			char p[64], q[96];
			snprintf(p, sizeof p, "status.images[%zu]", i);
			if (im->type != KP_Y_MAP)
				return kp_k8s_bad(c, im, "%s: expected a mapping", p);
			snprintf(q, sizeof q, "%s.names", p);
			if (kp_k8s_get_strs(c, im, "names", q, &n.images[i].names) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.sizeBytes", p);
			if (kp_k8s_get_int(c, im, "sizeBytes", q, &n.images[i].size_bytes, NULL) != KP_OK)
				return KP_PARSE;
			if (n.images[i].size_bytes < 0)
				return kp_k8s_bad(c, im, "%s.sizeBytes: negative", p);
		}
		n.nimages = images->n;
	}
	return kp_import_node(c->imp, c->file, &n, c->err);
}

