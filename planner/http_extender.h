/*
 * http_extender.h — kube-scheduler's HTTP scheduler extenders, the
 * `extenders:` list of a KubeSchedulerConfiguration (kubernetes/kubernetes
 * pkg/scheduler/apis/config types.go Extender; pkg/scheduler/extender.go
 * HTTPExtender).  http_extender_config.c reads and validates the list as
 * kube-scheduler does; plan_extender.c calls the extenders during a plan
 * (Filter after the filter plugins, Prioritize added to the scores),
 * plan_extender_preempt.c in DefaultPreemption (ProcessPreemption, between
 * finding the candidates and picking one).
 *
 * kube's extenders belong to the whole configuration, not to one profile:
 * every profile of the document shares one refcounted list (kp_hexts).
 * kplan's SQL extenders (extender.h) are another thing and stay.
 */
#ifndef KP_HTTP_EXTENDER_H
#define KP_HTTP_EXTENDER_H

#include <stddef.h>
#include <stdint.h>
#include "../common/kp.h"
#include "../common/ydom.h"

#define KP_MAX_HTTP_EXTENDERS 16
#define KP_MAX_MANAGED 16

/* kube's DefaultExtenderTimeout: 5 s, used when httpTimeout is 0 or unset */
#define KP_HEXT_DEFAULT_TIMEOUT_MS 5000

typedef struct kp_hext {
	int index;                   /* its place in the configuration's list */
	char url_prefix[1024];
	char filter_verb[128], prioritize_verb[128], preempt_verb[128], bind_verb[128];
	int64_t weight;
	int enable_https, node_cache_capable, ignorable;
	int64_t timeout_ms;          /* < 0: no timeout (Go's http.Client with a negative Timeout) */
	/* tlsConfig */
	int insecure;
	char server_name[256], cert_file[1024], key_file[1024], ca_file[1024];
	unsigned char *cert_data, *key_data, *ca_data;   /* base64-decoded, owned */
	size_t cert_len, key_len, ca_len;
	int nmanaged;
	struct { char name[256]; int ignored_by_scheduler; } managed[KP_MAX_MANAGED];
} kp_hext;

/* The list, in kube's calling order: the ones not ignorable first, then the
 * ignorable ones (scheduler.go buildExtenders), each group in file order. */
typedef struct kp_hexts {
	int refs;
	int n;
	kp_hext v[KP_MAX_HTTP_EXTENDERS];
} kp_hexts;

/* Read and validate `extenders` (a sequence node; NULL or empty: *out NULL)
 * as kube-scheduler would (apis/config/validation validateExtenders).  On an error: KP_PARSE with FILE,
 * LINE, COL in err (source names the file) and why set to a short reason
 * for an imported profile's message.  *out has one reference, the caller's. */
int kp_hexts_parse(const kp_ynode *list, const char *source, kp_hexts **out, char *why, size_t nwhy, kp_err *err);
/* another reference to l (NULL stays NULL) */
kp_hexts *kp_hexts_ref(kp_hexts *l);
/* drop a reference; the last frees the list.  NULL does nothing. */
void kp_hexts_unref(kp_hexts *l);
/* the list as JSON (for run.config), into sb */
void kp_hexts_to_json(const kp_hexts *l, kp_sb *sb);

#endif
