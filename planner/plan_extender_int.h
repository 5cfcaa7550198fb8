/*
 * plan_extender_int.h — what plan_extender.c (Filter, Prioritize, the
 * client) shares with plan_extender_preempt.c (ProcessPreemption).
 */
#ifndef KP_PLAN_EXTENDER_INT_H
#define KP_PLAN_EXTENDER_INT_H

#include "plan_int.h"
#include "http_extender.h"
#include "../common/json.h"

enum { KP_HX_FILTER, KP_HX_PRIORITIZE, KP_HX_PREEMPT };
enum { KP_HX_OK, KP_HX_ERROR, KP_HX_SKIPPED, KP_HX_IGNORED };

/* the run's extender state (pl->hx), made on first use; NULL: no memory */
struct kp_hext_run *kp_hx_run(planner *pl);
/* the node of that name, or -1 (after kp_hx_run) */
int kp_hx_node_named(planner *pl, const char *name);
/* HTTPExtender.IsInterested for the cycle's pod */
int kp_hx_interested(planner *pl, const kp_hext *x);
/* the run's request body, reset; filled by the caller, sent by kp_hx_post */
kp_sb *kp_hx_body(planner *pl);
/* kube's v1.Pod of the cycle's pod, built once per cycle; NULL: no memory */
const char *kp_hx_cycle_pod(planner *pl);
/* kube's v1.Pod of pod pi (spec.nodeName when it is on a node), allocated;
 * NULL: no memory */
char *kp_hx_pod_json(planner *pl, int32_t pi);
/* pod pi's metadata.uid into out; a pod imported without one: its stand-in
 * "NAMESPACE/NAME" (no UID has a '/', so none is taken for another) */
void kp_hx_pod_uid(planner *pl, int32_t pi, char *out, size_t n);
/* POST the body to urlPrefix/verb; KP_OK with the reply kept, or -1 with
 * kube's error text in msg */
int kp_hx_post(planner *pl, const kp_hext *x, const char *verb, char *msg, size_t nmsg);
/* the reply as Go's json.Decoder would take it into go_type (want_type or
 * null), or NULL with its error in msg */
kp_json *kp_hx_reply(planner *pl, int want_type, const char *go_type, char *msg, size_t nmsg);
/* an object's member, its name matched as Go matches struct fields (any case) */
const kp_json *kp_hx_member(const kp_json *o, const char *name);
/* one extender_call row for the cycle's pod; KP_OK or out of memory */
int kp_hx_record(planner *pl, const kp_hext *x, int verb, int outcome, int nodes, int passed, double t0,
		 const char *msg);
/* a monotonic clock in milliseconds */
double kp_hx_now_ms(void);

#endif
