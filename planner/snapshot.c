/*
 * snapshot.c — the snapshot in use (snapshot.h): node and pod lookups by
 * database id, whether a pod goes with its node, a topology key's domains over the nodes, placing a pod on a
 * node and taking it off (resources, ports, pod lists, topology counters and
 * the per-node version the planner's cache keys on), and releasing it all.
 * Loading is snapshot_load.c; the matching primitives are snapshot_match.c.
 */
#include "snapshot_int.h"

#include <string.h>

int kp_snap_node_index(const kp_snap *s, int64_t id)
{
	int lo = 0, hi = s->nnodes;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->node_id_map[2 * mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nnodes && s->node_id_map[2 * lo] == id ? (int)s->node_id_map[2 * lo + 1] : -1;
}

int kp_snap_pod_index(const kp_snap *s, int64_t id)
{
	/* pods are loaded in id order */
	int lo = 0, hi = s->npods;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->pods[mid].db_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->npods && s->pods[lo].db_id == id ? lo : -1;
}

int kp_snap_pod_per_node(const kp_snap *s, const kp_pod *p)
{
	const char *ok = kp_str(&s->strs, p->owner_kind);
	return p->daemon_node >= 0 || !strcmp(ok, "DaemonSet") || !strcmp(ok, "Node");
}

const kp_topo *kp_snap_topo(kp_snap *s, kp_sid key)
{
	for (int i = 0; i < s->ntopo; i++)
		if (s->topo[i].key == key)
			return &s->topo[i];
	if (KP_GROW(s->topo, s->ntopo, s->cap_topo, 8))
		return NULL;
	size_t nn = (size_t)(s->nnodes ? s->nnodes : 1);
	kp_topo t = { key, 0, kp_malloc(nn * sizeof *t.val), kp_malloc(nn * sizeof *t.dom) };
	/* value -> domain: a scratch map over the interned strings */
	int32_t *map = kp_malloc((size_t)(s->strs.n ? s->strs.n : 1) * sizeof *map);
	if (!t.val || !t.dom || !map) {
		kp_free(t.val);
		kp_free(t.dom);
		kp_free(map);
		return NULL;
	}
	for (int32_t i = 0; i < s->strs.n; i++)
		map[i] = -1;
	for (int n = 0; n < s->nnodes; n++) {
		kp_sid v = kp_labels_get(&s->node_labels[n], key);
		t.val[n] = v;
		t.dom[n] = -1;
		if (v >= 0) {
			if (map[v] < 0)
				map[v] = t.ndom++;
			t.dom[n] = map[v];
		}
	}
	kp_free(map);
	s->topo[s->ntopo] = t;
	return &s->topo[s->ntopo++];
}

int kp_snap_add_pod(kp_snap *s, int32_t pi, int32_t node)
{
	kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	size_t base = (size_t)node * (size_t)s->nres;
	if (KP_GROW(s->node_pods[node], s->nnode_pods[node], s->cap_node_pods[node], 4))
		return KP_NOMEM;
	while (s->nports[node] + c->nports > s->cap_ports[node])
		if (KP_GROW(s->ports[node], s->cap_ports[node], s->cap_ports[node], 4))
			return KP_NOMEM;
	for (uint32_t k = 0; k < c->nreq; k++)
		s->used[base + c->req_res[k]] += c->req_val[k];
	s->nz_used[2 * node] += c->nz_cpu;
	s->nz_used[2 * node + 1] += c->nz_mem;
	s->node_npods[node]++;
	for (uint32_t k = 0; k < c->nports; k++)
		s->ports[node][s->nports[node]++] = c->ports[k];
	s->node_pods[node][s->nnode_pods[node]++] = pi;
	p->node = node;
	if (s->st && kp_snap_volumes_moved(s, pi, node, 1))
		return KP_NOMEM;
	if (kp_counters_update(s, pi, node, 1))
		return KP_NOMEM;
	kp_snap_touch(s, node);
	return KP_OK;
}

void kp_snap_remove_pod(kp_snap *s, int32_t pi)
{
	kp_pod *p = &s->pods[pi];
	int node = p->node;
	if (node < 0)
		return;
	(void)kp_counters_update(s, pi, node, -1);   /* no allocation going down */
	if (s->st)
		kp_snap_volumes_moved(s, pi, node, -1);   /* no allocation going down */
	kp_snap_touch(s, node);
	const kp_class *c = &s->classes[p->cls];
	size_t base = (size_t)node * (size_t)s->nres;
	for (uint32_t k = 0; k < c->nreq; k++)
		s->used[base + c->req_res[k]] -= c->req_val[k];
	s->nz_used[2 * node] -= c->nz_cpu;
	s->nz_used[2 * node + 1] -= c->nz_mem;
	s->node_npods[node]--;
	/* remove this class's ports once each */
	for (uint32_t k = 0; k < c->nports; k++)
		for (uint32_t j = 0; j < s->nports[node]; j++) {
			kp_hport *h = &s->ports[node][j];
			if (h->ip == c->ports[k].ip && h->proto == c->ports[k].proto && h->port == c->ports[k].port) {
				*h = s->ports[node][--s->nports[node]];
				break;
			}
		}
	for (uint32_t j = 0; j < s->nnode_pods[node]; j++)
		if (s->node_pods[node][j] == pi) {
			memmove(&s->node_pods[node][j], &s->node_pods[node][j + 1],
				(s->nnode_pods[node] - j - 1) * sizeof(int32_t));
			s->nnode_pods[node]--;
			break;
		}
	p->node = -1;
}

void kp_snap_release(kp_snap *s)
{
	kp_snap_storage_release(s);
	kp_snap_dra_release(s);
	for (int i = 0; i < s->nnodes; i++) {
		if (s->ports)
			kp_free(s->ports[i]);
		if (s->node_pods)
			kp_free(s->node_pods[i]);
	}
	kp_free(s->ports);
	kp_free(s->nports);
	kp_free(s->cap_ports);
	kp_free(s->node_pods);
	kp_free(s->nnode_pods);
	kp_free(s->cap_node_pods);
	kp_free(s->alloc);
	kp_free(s->used);
	kp_free(s->res_name);
	kp_free(s->image_nodes);
	kp_counters_release(&s->counters);
	for (int i = 0; i < s->ntopo; i++) {
		kp_free(s->topo[i].val);
		kp_free(s->topo[i].dom);
	}
	kp_free(s->topo);
	kp_free(s->node_ver);
	for (int i = 0; i < s->nclasses; i++) {
		if (s->classes[i].static_shared)
			continue;
		kp_free(s->classes[i].feasible);
		kp_free(s->classes[i].affinity_ok);
		kp_free(s->classes[i].taints_ok);
		kp_free(s->classes[i].static_reason);
		kp_free(s->classes[i].static_rank);
	}
	kp_free(s->classes);
	kp_free(s->pods);
	for (int i = 0; i < s->nreasons; i++)
		kp_free(s->reasons[i].msg);
	kp_free(s->reasons);
	kp_strtab_release(&s->strs);
	kp_arena_release(&s->arena);
	memset(s, 0, sizeof *s);
}
