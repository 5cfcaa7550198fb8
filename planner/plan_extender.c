/*
 * plan_extender.c — calling kube-scheduler's HTTP extenders during a plan
 * (http_extender.h), where and as kube-scheduler calls them
 * (kubernetes/kubernetes pkg/scheduler/extender.go HTTPExtender,
 * schedule_one.go findNodesThatPassExtenders and prioritizeNodes):
 *
 *   Filter, after every filter plugin: the extenders in order, each one
 *   interested in the pod (no managedResources, or the pod requests one)
 *   with a filterVerb, gets the nodes still feasible; its FailedNodes
 *   become Unschedulable statuses, FailedAndUnresolvableNodes
 *   UnschedulableAndUnresolvable ones (they win when a node is in both),
 *   and the nodes it returns are what the next extender sees.  An error
 *   (transport, HTTP status other than 200, a reply that is not JSON, the
 *   reply's Error) of an ignorable extender skips it; of any other it fails
 *   the pod's cycle with kube's error text.
 *
 *   Prioritize, with two or more feasible nodes, after the score plugins:
 *   each interested extender with a prioritizeVerb; every {Host, Score} of
 *   a feasible node adds Score x weight x (MaxNodeScore 100 /
 *   MaxExtenderPriority 10) to the node's total.  Any error is ignored
 *   (kube logs it and gives no score), whatever `ignorable` says.
 *
 * The body is kube's ExtenderArgs: {"Pod": v1.Pod, "Nodes": v1.NodeList}
 * or, nodeCacheCapable, {"Pod", "NodeNames": [...]}; POST to
 * urlPrefix/verb, Content-Type application/json, libcurl with the
 * extender's httpTimeout (5 s when unset).  Replies are read as Go's
 * encoding/json reads them: field names match without regard to case.
 * The pod's JSON (queries/plan/extender_pod_spec.sql) is built once per
 * cycle; nodes' JSON once per run (kube's v1.Node: nothing in it changes
 * during a plan).  No answer is reused across cycles: kube calls again
 * every cycle.  Every call is one extender_call row (queries/plan/).
 */
#include "plan_extender_int.h"
#include "static.h"
#include "../common/db.h"
#include "kp_queries.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* the most a reply may hold (a NodeList of every node fits easily) */
#define MAX_REPLY (64u << 20)

enum { V_FILTER = KP_HX_FILTER, V_PRIORITIZE = KP_HX_PRIORITIZE };
enum { O_OK = KP_HX_OK, O_ERROR = KP_HX_ERROR, O_SKIPPED = KP_HX_SKIPPED, O_IGNORED = KP_HX_IGNORED };
static const char *const verb_names[] = { "filter", "prioritize", "preempt" };
static const char *const outcome_names[] = { "ok", "error", "skipped", "ignored" };

typedef struct call_rec {
	int32_t pod;
	const kp_hext *x;
	uint8_t verb, outcome;
	int32_t nodes, passed;
	int64_t ms;
	char *msg;
} call_rec;

struct kp_hext_run {
	CURL *curl;
	char **node_json;            /* per node, built on first use */
	kp_dmap node_of;             /* node name sid -> node index + 1 */
	call_rec *calls;
	size_t ncalls, cap_calls;
	long skipped, failed, ignored;
	char first_problem[400];
	kp_sb body, reply;
	char *pod_json;              /* the cycle's pod (po->seq = pod_seq) */
	int32_t pod_seq;
};

double kp_hx_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

struct kp_hext_run *kp_hx_run(planner *pl)
{
	if (pl->hx)
		return pl->hx;
	struct kp_hext_run *h = kp_calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->node_json = kp_calloc((size_t)(pl->s.nnodes ? pl->s.nnodes : 1), sizeof *h->node_json);
	if (!h->node_json || kp_dmap_init(&h->node_of, (uint32_t)pl->s.nnodes * 2 + 16)) {
		kp_free(h->node_json);
		kp_free(h);
		return NULL;
	}
	for (int n = 0; n < pl->s.nnodes; n++) {
		int64_t *v = kp_dmap_put(&h->node_of, pl->s.node_name[n]);
		if (!v) {
			kp_dmap_release(&h->node_of);
			kp_free(h->node_json);
			kp_free(h);
			return NULL;
		}
		*v = n + 1;
	}
	kp_sb_init(&h->body);
	kp_sb_init(&h->reply);
	h->pod_seq = -1;
	pl->hx = h;
	return h;
}

/* the node of that name, or -1 */
int kp_hx_node_named(planner *pl, const char *name)
{
	kp_sid sid = kp_strtab_find(&pl->s.strs, name);
	const int64_t *v = sid >= 0 ? kp_dmap_get(&pl->hx->node_of, sid) : NULL;
	return v ? (int)*v - 1 : -1;
}

/* ---- what is sent ---- */

/* a resource amount as a Kubernetes quantity: cpu in millicores */
static void add_quantity(kp_sb *sb, const char *res, int64_t v)
{
	if (!strcmp(res, "cpu"))
		kp_sb_printf(sb, "\"%lldm\"", (long long)v);
	else
		kp_sb_printf(sb, "\"%lld\"", (long long)v);
}

static void add_labels(kp_sb *sb, const kp_snap *s, const kp_labels *l)
{
	kp_sb_addc(sb, '{');
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, kp_str(&s->strs, l->v[i].key));
		kp_sb_addc(sb, ':');
		kp_sb_add_json_str(sb, kp_str(&s->strs, l->v[i].value));
	}
	kp_sb_addc(sb, '}');
}

/* kube's v1.Node of node n: name, uid, labels, taints, unschedulable,
 * allocatable, capacity (as imported; a what-if's added node: its
 * allocatable) */
static char *node_json(planner *pl, int n)
{
	const kp_snap *s = &pl->s;
	kp_sb sb;
	kp_sb_init(&sb);
	char *uid = NULL, *cap = NULL;
	sqlite3_stmt *st;
	if (s->node_db_id[n] > 0 && sqlite3_prepare_v2(pl->db, kp_sql_plan_extender_node, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, s->node_db_id[n]);
		if (sqlite3_step(st) == SQLITE_ROW) {
			if (sqlite3_column_text(st, 0))
				uid = kp_strdup((const char *)sqlite3_column_text(st, 0));
			if (sqlite3_column_text(st, 1))
				cap = kp_strdup((const char *)sqlite3_column_text(st, 1));
		}
		sqlite3_finalize(st);
	}
	kp_sb_adds(&sb, "{\"metadata\":{\"name\":");
	kp_sb_add_json_str(&sb, kp_str(&s->strs, s->node_name[n]));
	if (uid) {
		kp_sb_adds(&sb, ",\"uid\":");
		kp_sb_add_json_str(&sb, uid);
	}
	kp_sb_adds(&sb, ",\"labels\":");
	add_labels(&sb, s, &s->node_labels[n]);
	kp_sb_adds(&sb, "},\"spec\":{");
	if (s->unschedulable[n])
		kp_sb_adds(&sb, "\"unschedulable\":true,");
	kp_sb_adds(&sb, "\"taints\":[");
	static const char *const effects[] = { "", "NoSchedule", "PreferNoSchedule", "NoExecute" };
	for (uint32_t i = 0; i < s->ntaints[n]; i++) {
		const kp_taint *t = &s->taints[n][i];
		kp_sb_adds(&sb, i ? ",{\"key\":" : "{\"key\":");
		kp_sb_add_json_str(&sb, kp_str(&s->strs, t->key));
		if (t->value >= 0 && kp_str(&s->strs, t->value)[0]) {
			kp_sb_adds(&sb, ",\"value\":");
			kp_sb_add_json_str(&sb, kp_str(&s->strs, t->value));
		}
		kp_sb_printf(&sb, ",\"effect\":\"%s\"}", t->effect < 4 ? effects[t->effect] : "");
	}
	kp_sb_adds(&sb, "]},\"status\":{\"allocatable\":{");
	for (int r = 0, first = 1; r < s->nres; r++) {
		const char *name = kp_str(&s->strs, s->res_name[r]);
		int64_t v = s->alloc[(size_t)n * (size_t)s->nres + (size_t)r];
		if (!v && r != 0 && r != 1 && r != 3)
			continue;   /* a resource of other nodes, not this one's */
		kp_sb_adds(&sb, first ? "" : ",");
		first = 0;
		kp_sb_add_json_str(&sb, name);
		kp_sb_addc(&sb, ':');
		add_quantity(&sb, name, v);
	}
	kp_sb_addc(&sb, '}');
	if (cap) {
		kp_sb_adds(&sb, ",\"capacity\":");
		kp_sb_adds(&sb, cap);
	}
	kp_sb_adds(&sb, "}}");
	kp_free(uid);
	kp_free(cap);
	if (!kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return NULL;
	}
	return sb.buf;
}

void kp_hx_pod_uid(planner *pl, int32_t pi, char *out, size_t n)
{
	const kp_snap *s = &pl->s;
	const kp_pod *p = &s->pods[pi];
	sqlite3_stmt *st;
	out[0] = 0;
	if (p->db_id > 0 && sqlite3_prepare_v2(pl->db, "SELECT uid FROM pod WHERE id = ?1 AND uid <> ''", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, p->db_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (!out[0])
		snprintf(out, n, "%s/%s", kp_str(&s->strs, p->ns), kp_str(&s->strs, p->name));
}

/* kube's v1.Pod of pod pi: metadata (name, namespace, uid, labels), the
 * spec of its class (queries/plan/extender_pod_spec.sql) and, on a node,
 * spec.nodeName */
char *kp_hx_pod_json(planner *pl, int32_t pi)
{
	const kp_snap *s = &pl->s;
	const kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	kp_sb sb;
	kp_sb_init(&sb);
	char uid[256];
	kp_hx_pod_uid(pl, pi, uid, sizeof uid);
	kp_sb_adds(&sb, "{\"metadata\":{\"name\":");
	kp_sb_add_json_str(&sb, kp_str(&s->strs, p->name));
	kp_sb_adds(&sb, ",\"namespace\":");
	kp_sb_add_json_str(&sb, kp_str(&s->strs, p->ns));
	kp_sb_adds(&sb, ",\"uid\":");
	kp_sb_add_json_str(&sb, uid);
	kp_sb_adds(&sb, ",\"labels\":");
	add_labels(&sb, s, &p->labels);
	kp_sb_adds(&sb, "},\"spec\":{");
	if (p->node >= 0) {
		kp_sb_adds(&sb, "\"nodeName\":");
		kp_sb_add_json_str(&sb, kp_str(&s->strs, s->node_name[p->node]));
	}
	int have = 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_extender_pod_spec, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, c->db_id);
		sqlite3_bind_int64(st, 2, c->priority);
		const char *spec = sqlite3_step(st) == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
		if (spec && spec[0] == '{') {   /* the object's members after ours */
			kp_sb_adds(&sb, p->node >= 0 && spec[1] != '}' ? "," : "");
			kp_sb_adds(&sb, spec + 1);
			have = 1;
		}
		sqlite3_finalize(st);
	}
	if (!have) {   /* a class only the snapshot knows: what it holds */
		kp_sb_adds(&sb, p->node >= 0 ? ",\"schedulerName\":" : "\"schedulerName\":");
		kp_sb_add_json_str(&sb, kp_str(&s->strs, c->sched));
		kp_sb_printf(&sb, ",\"priority\":%lld}", (long long)c->priority);
	}
	kp_sb_addc(&sb, '}');
	if (!kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return NULL;
	}
	return sb.buf;
}

/* HTTPExtender.IsInterested: no managedResources, or one of the pod's
 * containers names one in its requests (limits fill requests on import),
 * 0 included; a class only the snapshot knows: its effective requests */
int kp_hx_interested(planner *pl, const kp_hext *x)
{
	const kp_snap *s = &pl->s;
	const kp_class *c = pl->cy.c;
	if (!x->nmanaged)
		return 1;
	for (uint32_t k = 0; k < c->nreq; k++) {
		const char *name = kp_str(&s->strs, s->res_name[c->req_res[k]]);
		for (int m = 0; m < x->nmanaged; m++)
			if (!strcmp(name, x->managed[m].name))
				return 1;
	}
	sqlite3_stmt *st;
	int found = 0;
	if (sqlite3_prepare_v2(pl->db, "SELECT 1 FROM class_container c, json_each(c.requests) r "
				       "WHERE c.class_id = ?1 AND r.key = ?2", -1, &st, NULL) != SQLITE_OK)
		return 0;
	for (int m = 0; m < x->nmanaged && !found; m++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, c->db_id);
		sqlite3_bind_text(st, 2, x->managed[m].name, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

/* ---- the call ---- */

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *ud)
{
	kp_sb *sb = ud;
	size_t n = size * nmemb;
	if (sb->len + n > MAX_REPLY)
		return 0;
	kp_sb_add(sb, ptr, n);
	return kp_sb_ok(sb) ? n : 0;
}

/* the transport's settings for x (makeTransport: enableHTTPS without a CA
 * does not verify; tlsConfig's files and data; serverName the name the
 * certificate must have: the request goes to the URL's host under it) */
static void set_tls(CURL *cu, const kp_hext *x, const char *url, struct curl_slist **connect_to)
{
	if (x->insecure || (x->enable_https && !x->ca_file[0] && !x->ca_data)) {
		curl_easy_setopt(cu, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(cu, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (x->ca_file[0])
		curl_easy_setopt(cu, CURLOPT_CAINFO, x->ca_file);
	if (x->cert_file[0])
		curl_easy_setopt(cu, CURLOPT_SSLCERT, x->cert_file);
	if (x->key_file[0])
		curl_easy_setopt(cu, CURLOPT_SSLKEY, x->key_file);
	struct curl_blob ca = { x->ca_data, x->ca_len, CURL_BLOB_COPY }, cert = { x->cert_data, x->cert_len, CURL_BLOB_COPY },
			 key = { x->key_data, x->key_len, CURL_BLOB_COPY };
	if (x->ca_data)
		curl_easy_setopt(cu, CURLOPT_CAINFO_BLOB, &ca);
	if (x->cert_data)
		curl_easy_setopt(cu, CURLOPT_SSLCERT_BLOB, &cert);
	if (x->key_data)
		curl_easy_setopt(cu, CURLOPT_SSLKEY_BLOB, &key);
	if (!x->server_name[0] || strncasecmp(url, "https://", 8))
		return;
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL;
	if (u && !curl_url_set(u, CURLUPART_URL, url, 0) && !curl_url_get(u, CURLUPART_HOST, &host, 0) &&
	    !curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) && !curl_url_set(u, CURLUPART_HOST, x->server_name, 0)) {
		char *nurl = NULL, map[1400];
		if (!curl_url_get(u, CURLUPART_URL, &nurl, 0)) {
			snprintf(map, sizeof map, "%s:%s:%s:%s", x->server_name, port, host, port);
			*connect_to = curl_slist_append(NULL, map);
			curl_easy_setopt(cu, CURLOPT_URL, nurl);
			curl_easy_setopt(cu, CURLOPT_CONNECT_TO, *connect_to);
			curl_free(nurl);
		}
	}
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
}

/* "host:port" of url (the scheme's port when none is given), as Go's dial names it */
static int url_host_port(const char *url, char *out, size_t n)
{
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL;
	int ok = u && !curl_url_set(u, CURLUPART_URL, url, 0) && !curl_url_get(u, CURLUPART_HOST, &host, 0) &&
		 !curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
	if (ok)
		snprintf(out, n, "%.300s:%.20s", host, port);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return ok;
}

/* POST h->body to urlPrefix/verb; KP_OK with the reply in h->reply, or -1
 * with kube's error text (Go's net/http wording) in msg */
static int post(struct kp_hext_run *h, const kp_hext *x, const char *verb, char *msg, size_t nmsg)
{
	if (!h->curl) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		if (!(h->curl = curl_easy_init())) {
			snprintf(msg, nmsg, "cannot start an HTTP client");
			return -1;
		}
	}
	CURL *cu = h->curl;
	curl_easy_reset(cu);
	char url[1400];
	size_t ul = strlen(x->url_prefix);
	while (ul && x->url_prefix[ul - 1] == '/')
		ul--;
	snprintf(url, sizeof url, "%.*s/%s", (int)ul, x->url_prefix, verb);
	struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json"), *connect_to = NULL;
	char cerr[CURL_ERROR_SIZE] = "";
	kp_sb_reset(&h->reply);
	curl_easy_setopt(cu, CURLOPT_URL, url);
	curl_easy_setopt(cu, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(cu, CURLOPT_POST, 1L);
	curl_easy_setopt(cu, CURLOPT_POSTFIELDS, kp_sb_str(&h->body));
	curl_easy_setopt(cu, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)h->body.len);
	curl_easy_setopt(cu, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(cu, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(cu, CURLOPT_WRITEDATA, &h->reply);
	curl_easy_setopt(cu, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(cu, CURLOPT_TIMEOUT_MS, x->timeout_ms > 0 ? (long)x->timeout_ms : 0L);
	set_tls(cu, x, url, &connect_to);
	CURLcode cc = curl_easy_perform(cu);
	long code = 0;
	curl_easy_getinfo(cu, CURLINFO_RESPONSE_CODE, &code);
	char hp[600];
	int rc = KP_OK;
	if (cc == CURLE_OPERATION_TIMEDOUT) {
		snprintf(msg, nmsg, "Post \"%s\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", url);
		rc = -1;
	} else if (cc == CURLE_COULDNT_CONNECT && url_host_port(url, hp, sizeof hp)) {
		snprintf(msg, nmsg, "Post \"%s\": dial tcp %s: connect: connection refused", url, hp);
		rc = -1;
	} else if (cc == CURLE_COULDNT_RESOLVE_HOST && url_host_port(url, hp, sizeof hp)) {
		*strrchr(hp, ':') = 0;
		snprintf(msg, nmsg, "Post \"%s\": dial tcp: lookup %s: no such host", url, hp);
		rc = -1;
	} else if (cc == CURLE_WRITE_ERROR) {
		snprintf(msg, nmsg, "Post \"%s\": reply larger than kplan reads (%u MiB)", url, MAX_REPLY >> 20);
		rc = -1;
	} else if (cc != CURLE_OK) {
		snprintf(msg, nmsg, "Post \"%s\": %s", url, cerr[0] ? cerr : curl_easy_strerror(cc));
		rc = -1;
	} else if (code != 200) {
		snprintf(msg, nmsg, "failed %s with extender at URL %s, code %ld", verb, url, code);
		rc = -1;
	}
	curl_slist_free_all(hdr);
	curl_slist_free_all(connect_to);
	return rc;
}

int kp_hx_post(planner *pl, const kp_hext *x, const char *verb, char *msg, size_t nmsg)
{
	return post(pl->hx, x, verb, msg, nmsg);
}

const char *kp_hx_cycle_pod(planner *pl)
{
	struct kp_hext_run *h = pl->hx;
	if (h->pod_seq != pl->out[pl->cy.pi].seq || !h->pod_json) {
		kp_free(h->pod_json);
		if (!(h->pod_json = kp_hx_pod_json(pl, pl->cy.pi)))
			return NULL;
		h->pod_seq = pl->out[pl->cy.pi].seq;
	}
	return h->pod_json;
}

kp_sb *kp_hx_body(planner *pl)
{
	kp_sb_reset(&pl->hx->body);
	return &pl->hx->body;
}

/* ExtenderArgs for nodes[0..n) into h->body */
static int build_args(planner *pl, const kp_hext *x, const int32_t *nodes, int n)
{
	struct kp_hext_run *h = pl->hx;
	const char *pod = kp_hx_cycle_pod(pl);
	if (!pod)
		return KP_NOMEM;
	kp_sb *b = kp_hx_body(pl);
	kp_sb_adds(b, "{\"Pod\":");
	kp_sb_adds(b, pod);
	kp_sb_adds(b, x->node_cache_capable ? ",\"NodeNames\":[" : ",\"Nodes\":{\"metadata\":{},\"items\":[");
	for (int i = 0; i < n; i++) {
		if (i)
			kp_sb_addc(b, ',');
		if (x->node_cache_capable) {
			kp_sb_add_json_str(b, kp_str(&pl->s.strs, pl->s.node_name[nodes[i]]));
			continue;
		}
		if (!h->node_json[nodes[i]] && !(h->node_json[nodes[i]] = node_json(pl, nodes[i])))
			return KP_NOMEM;
		kp_sb_adds(b, h->node_json[nodes[i]]);
	}
	kp_sb_adds(b, x->node_cache_capable ? "]}" : "]}}");
	return kp_sb_ok(b) ? KP_OK : KP_NOMEM;
}

/* the reply as Go's json.Decoder would take it, or NULL with its error */
kp_json *kp_hx_reply(planner *pl, int want_type, const char *go_type, char *msg, size_t nmsg)
{
	const char *t = kp_sb_str(&pl->hx->reply);
	while (*t == ' ' || *t == '\n' || *t == '\r' || *t == '\t')
		t++;
	if (!*t) {
		snprintf(msg, nmsg, "EOF");
		return NULL;
	}
	if (!strchr("{[\"tfn-0123456789", *t)) {
		snprintf(msg, nmsg, "invalid character '%c' looking for beginning of value", *t);
		return NULL;
	}
	kp_json *j = kp_json_parse(t, &pl->cy.arena);
	if (!j) {
		snprintf(msg, nmsg, "unexpected EOF or invalid JSON in the extender's reply");
		return NULL;
	}
	if (j->type != want_type && j->type != KP_J_NULL) {
		static const char *const tn[] = { "null", "bool", "number", "string", "array", "object" };
		snprintf(msg, nmsg, "json: cannot unmarshal %s into Go value of type %s", tn[j->type], go_type);
		return NULL;
	}
	return j;
}

/* an object's member, its name matched as Go matches struct fields (any case) */
const kp_json *kp_hx_member(const kp_json *o, const char *name)
{
	if (!o || o->type != KP_J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcasecmp(o->items[2 * i]->str, name))
			return o->items[2 * i + 1];
	return NULL;
}

int kp_hx_record(planner *pl, const kp_hext *x, int verb, int outcome, int nodes, int passed, double t0,
		  const char *msg)
{
	struct kp_hext_run *h = pl->hx;
	if (KP_GROW(h->calls, h->ncalls, h->cap_calls, 64))
		return kp_plan_nomem(pl);
	call_rec *c = &h->calls[h->ncalls++];
	*c = (call_rec){ pl->cy.pi, x, (uint8_t)verb, (uint8_t)outcome, nodes, passed, (int64_t)(kp_hx_now_ms() - t0 + 0.5), NULL };
	if (msg && !(c->msg = kp_strdup(msg)))
		return kp_plan_nomem(pl);
	if (outcome == O_SKIPPED || outcome == O_IGNORED || outcome == O_ERROR) {
		h->skipped += outcome == O_SKIPPED;
		h->ignored += outcome == O_IGNORED;
		h->failed += outcome == O_ERROR;
		if (!h->first_problem[0])
			snprintf(h->first_problem, sizeof h->first_problem, "%.120s %s: %.240s", x->url_prefix, verb_names[verb], msg);
	}
	return KP_OK;
}

/* statuses.Set(node, status): the node's verdict becomes the extender's */
static int set_status(planner *pl, int n, const kp_json *msg, int unres)
{
	kp_cycle *cy = &pl->cy;
	const char *m = msg && msg->type == KP_J_STR ? msg->str : "";
	int r = kp_reason_intern(&pl->s, kp_plugin_names[KP_P_HTTP_EXTENDER], m, unres);
	if (r < 0)
		return kp_plan_nomem(pl);
	cy->fail[n] = -1;
	return kp_cycle_fail(cy, n, KP_P_HTTP_EXTENDER, r, unres) ? kp_plan_nomem(pl) : KP_OK;
}

/* HTTPExtender.Filter's reply into the new feasible list (keep[] per node);
 * KP_OK, -1 with msg (an error as kube reports it), or an error code */
static int fold_filter(planner *pl, const kp_hext *x, const kp_json *j, uint8_t *keep, char *msg, size_t nmsg)
{
	const kp_json *e = kp_hx_member(j, "Error");
	if (e && e->type == KP_J_STR && e->str[0]) {
		snprintf(msg, nmsg, "%s", e->str);
		return -1;
	}
	const kp_json *names = kp_hx_member(j, "NodeNames"), *nodes = kp_hx_member(j, "Nodes");
	if (x->node_cache_capable && names && names->type == KP_J_ARR) {
		for (size_t i = 0; i < names->n; i++) {
			int n = names->items[i]->type == KP_J_STR ? kp_hx_node_named(pl, names->items[i]->str) : -1;
			if (n < 0 || !keep[n]) {
				snprintf(msg, nmsg, "extender \"%s\" claims a filtered node \"%s\" which is not found in the input "
					 "node list", x->url_prefix, names->items[i]->type == KP_J_STR ? names->items[i]->str : "");
				return -1;
			}
			keep[n] = 2;
		}
	} else {
		const kp_json *items = kp_hx_member(nodes, "items");
		for (size_t i = 0; items && items->type == KP_J_ARR && i < items->n; i++) {
			const kp_json *nm = kp_hx_member(kp_hx_member(items->items[i], "metadata"), "name");
			int n = nm && nm->type == KP_J_STR ? kp_hx_node_named(pl, nm->str) : -1;
			if (n >= 0 && keep[n])   /* a node it was not sent: kplan has no such object to keep */
				keep[n] = 2;
		}
	}
	const kp_json *fu = kp_hx_member(j, "FailedAndUnresolvableNodes"), *fa = kp_hx_member(j, "FailedNodes");
	for (int pass = 0; pass < 2; pass++) {
		const kp_json *m = pass ? fa : fu;
		for (size_t i = 0; m && m->type == KP_J_OBJ && i < m->n; i++) {
			int n = kp_hx_node_named(pl, m->items[2 * i]->str);
			if (n < 0 || keep[n] == 2 || (pass && kp_hx_member(fu, m->items[2 * i]->str)))
				continue;
			if (set_status(pl, n, m->items[2 * i + 1], !pass))
				return pl->err->code;
			keep[n] = 3;   /* has a status */
		}
	}
	return KP_OK;
}

int kp_plan_extenders_filter(planner *pl, int32_t *feas, int *nfeas)
{
	kp_cycle *cy = &pl->cy;
	const kp_hexts *l = cy->pf->hext;
	char msg[2048];
	for (int k = 0; l && k < l->n && *nfeas; k++) {
		const kp_hext *x = &l->v[k];
		if (!x->filter_verb[0] || !kp_hx_interested(pl, x))
			continue;
		if (!kp_hx_run(pl) || build_args(pl, x, feas, *nfeas))
			return kp_plan_nomem(pl);
		double t0 = kp_hx_now_ms();
		uint8_t *keep = kp_arena_alloc(&cy->arena, (size_t)pl->s.nnodes + 1);
		if (!keep)
			return kp_plan_nomem(pl);
		memset(keep, 0, (size_t)pl->s.nnodes + 1);
		for (int i = 0; i < *nfeas; i++)
			keep[feas[i]] = 1;
		int rc = post(pl->hx, x, x->filter_verb, msg, sizeof msg);
		kp_json *j = rc ? NULL : kp_hx_reply(pl, KP_J_OBJ, "v1.ExtenderFilterResult", msg, sizeof msg);
		if (!rc && !j)
			rc = -1;
		if (!rc && (rc = fold_filter(pl, x, j, keep, msg, sizeof msg)) > 0)
			return rc;
		if (rc) {
			if (kp_hx_record(pl, x, V_FILTER, x->ignorable ? O_SKIPPED : O_ERROR, *nfeas, 0, t0, msg))
				return pl->err->code;
			if (x->ignorable)
				continue;   /* "Skipping extender as it returned error and has ignorable flag set" */
			cy->abort_msg = kp_arena_strdup(&cy->arena, msg);
			cy->abort_plugin = KP_P_HTTP_EXTENDER;
			return cy->abort_msg ? KP_OK : kp_plan_nomem(pl);
		}
		/* the nodes it dropped without a status: absent from kube's
		 * NodeToStatus (no reason in the message; preemption takes them as
		 * UnschedulableAndUnresolvable, the absent nodes' status) */
		int m = 0;
		for (int i = 0; i < *nfeas; i++) {
			int n = feas[i];
			if (keep[n] == 2) {
				feas[m++] = n;
			} else if (keep[n] == 1) {
				cy->verdicts_dirty = 1;
				cy->fail[n] = KP_P_HTTP_EXTENDER;
				cy->unres[n] = 1;
				cy->rstart[n] = (int32_t)cy->rlen;
				cy->rcount[n] = 0;
			}
		}
		if (kp_hx_record(pl, x, V_FILTER, O_OK, *nfeas, m, t0, NULL))
			return pl->err->code;
		*nfeas = m;
	}
	return KP_OK;
}

int kp_plan_extenders_score(planner *pl)
{
	kp_cycle *cy = &pl->cy;
	const kp_hexts *l = cy->pf->hext;
	char msg[2048];
	for (int k = 0; l && k < l->n; k++) {
		const kp_hext *x = &l->v[k];
		if (!x->prioritize_verb[0] || !kp_hx_interested(pl, x))
			continue;
		if (!kp_hx_run(pl) || build_args(pl, x, cy->feas, cy->nfeas))
			return kp_plan_nomem(pl);
		double t0 = kp_hx_now_ms();
		int rc = post(pl->hx, x, x->prioritize_verb, msg, sizeof msg);
		kp_json *j = rc ? NULL : kp_hx_reply(pl, KP_J_ARR, "v1.HostPriorityList", msg, sizeof msg);
		for (size_t i = 0; j && j->type == KP_J_ARR && i < j->n && !rc; i++) {
			const kp_json *sc = kp_hx_member(j->items[i], "Score");
			if (sc && sc->type != KP_J_NUM && sc->type != KP_J_NULL) {
				snprintf(msg, sizeof msg, "json: cannot unmarshal %s into Go struct field HostPriority.Score of type int64",
					 sc->type == KP_J_STR ? "string" : sc->type == KP_J_BOOL ? "bool" : sc->type == KP_J_ARR ? "array" : "object");
				rc = -1;
			} else if (sc && sc->type == KP_J_NUM && strpbrk(sc->str, ".eE")) {
				snprintf(msg, sizeof msg, "json: cannot unmarshal number %s into Go struct field HostPriority.Score of type int64", sc->str);
				rc = -1;
			}
		}
		if (rc || !j) {
			/* kube: "Failed to run extender's priority function. No score given by this extender." */
			if (kp_hx_record(pl, x, V_PRIORITIZE, O_IGNORED, cy->nfeas, 0, t0, msg))
				return pl->err->code;
			continue;
		}
		uint8_t *feasible = kp_arena_alloc(&cy->arena, (size_t)pl->s.nnodes + 1);
		if (!feasible)
			return kp_plan_nomem(pl);
		memset(feasible, 0, (size_t)pl->s.nnodes + 1);
		for (int i = 0; i < cy->nfeas; i++)
			feasible[cy->feas[i]] = 1;
		for (size_t i = 0; j->type == KP_J_ARR && i < j->n; i++) {
			const kp_json *host = kp_hx_member(j->items[i], "Host"), *sc = kp_hx_member(j->items[i], "Score");
			int n = host && host->type == KP_J_STR ? kp_hx_node_named(pl, host->str) : -1;
			if (n < 0 || !feasible[n] || !sc || sc->type != KP_J_NUM)
				continue;
			/* score x weight x (MaxNodeScore / MaxExtenderPriority) */
			pl->total[n] += (int64_t)strtoll(sc->str, NULL, 10) * x->weight * 10;
		}
		if (kp_hx_record(pl, x, V_PRIORITIZE, O_OK, cy->nfeas, cy->nfeas, t0, NULL))
			return pl->err->code;
	}
	return KP_OK;
}

/* ---- the run's record ---- */

int kp_plan_extenders_write(planner *pl, int64_t run_id)
{
	struct kp_hext_run *h = pl->hx;
	if (!h || !h->ncalls || pl->o->dry_run)
		return KP_OK;
	if (kp_db_schema_section(pl->db, "extenders", "extender calls", pl->err))
		return pl->err->code;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_extender_call_insert, -1, &st, NULL) != SQLITE_OK)
		return kp_err_set(pl->err, KP_IO, "cannot write extender_call: %s", sqlite3_errmsg(pl->db));
	int rc = KP_OK;
	for (size_t i = 0; i < h->ncalls && !rc; i++) {
		const call_rec *c = &h->calls[i];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, (int64_t)i + 1);
		sqlite3_bind_int64(st, 3, pl->s.pods[c->pod].db_id);
		sqlite3_bind_text(st, 4, c->x->url_prefix, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, verb_names[c->verb], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, outcome_names[c->outcome], -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 7, c->nodes);
		if (c->outcome == O_OK)
			sqlite3_bind_int(st, 8, c->passed);
		else
			sqlite3_bind_null(st, 8);
		sqlite3_bind_int64(st, 9, c->ms);
		sqlite3_bind_text(st, 10, c->msg, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = kp_err_set(pl->err, KP_IO, "cannot write extender_call: %s", sqlite3_errmsg(pl->db));
	}
	sqlite3_finalize(st);
	return rc;
}

int kp_plan_extenders_warning(const planner *pl, char *buf, size_t n)
{
	const struct kp_hext_run *h = pl->hx;
	if (!h || !(h->skipped + h->failed + h->ignored))
		return 0;
	snprintf(buf, n, "%ld call(s) to HTTP extenders failed: %ld skipped (ignorable), %ld failed their pod's cycle, "
		 "%ld prioritize call(s) gave no score; first: %s (every call: extender_call)",
		 h->skipped + h->failed + h->ignored, h->skipped, h->failed, h->ignored, h->first_problem);
	return 1;
}

void kp_plan_extenders_release(planner *pl)
{
	struct kp_hext_run *h = pl->hx;
	if (!h)
		return;
	if (h->curl)
		curl_easy_cleanup(h->curl);
	for (int n = 0; n < pl->s.nnodes; n++)
		kp_free(h->node_json[n]);
	kp_free(h->node_json);
	kp_dmap_release(&h->node_of);
	for (size_t i = 0; i < h->ncalls; i++)
		kp_free(h->calls[i].msg);
	kp_free(h->calls);
	kp_sb_release(&h->body);
	kp_sb_release(&h->reply);
	kp_free(h->pod_json);
	kp_free(h);
	pl->hx = NULL;
}
