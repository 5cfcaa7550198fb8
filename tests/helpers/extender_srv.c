/*
 * extender_srv.c — a kube-scheduler HTTP extender for kplan's tests
 * (tests/t/3x-http-extender.t): one process, 127.0.0.1, an ephemeral port
 * written to PORTFILE, one request at a time, each answered and closed.
 *
 *   extender_srv PORTFILE [options]
 *     --log FILE            append each request as "PATH BODY\n"
 *     --reject NODE=MSG     filter: NODE in FailedNodes with MSG
 *     --unresolvable NODE=MSG  filter: NODE in FailedAndUnresolvableNodes
 *     --drop NODE           filter: NODE left out, without a status
 *     --claim NODE          filter: NODE returned although it was not sent
 *     --score NODE=N        prioritize: NODE scores N (the others 0)
 *     --sleep-ms N          wait before answering
 *     --status N            answer with this HTTP status
 *     --error MSG           filter: answer {"Error": MSG}
 *     --malformed           answer a body that is not JSON
 *     --preempt-drop NODE   preempt: NODE left out of the candidates
 *     --preempt-victims NODE=UID,...  preempt: NODE's victims are these
 *                           (empty: none), NODE added when it was not sent
 *     --preempt-pdb NODE=N  preempt: NODE's NumPDBViolations is N
 *
 * A path ending in "prioritize" gets a HostPriorityList of the nodes it was
 * sent; one ending in "preempt" an ExtenderPreemptionResult: the candidates
 * it was sent (NodeNameToVictims' pods by metadata.uid, or
 * NodeNameToMetaVictims' UIDs) as NodeNameToMetaVictims, changed by the
 * --preempt-* options; any other a filter result: NodeNames when it was
 * sent NodeNames (nodeCacheCapable), else Nodes.items with each kept
 * node's metadata.name.
 * The process ends by itself after 10 minutes.
 */
#define _GNU_SOURCE
#include "common/json.h"
#include "common/kp.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXOPT 32
typedef struct opt { const char *node, *msg; } opt;
static opt rejects[MAXOPT], unres[MAXOPT], scores[MAXOPT], pvictims[MAXOPT], ppdb[MAXOPT];
static const char *drops[MAXOPT], *claims[MAXOPT], *pdrops[MAXOPT];
static int nrej, nunres, nscores, ndrops, nclaims, npvictims, nppdb, npdrops, sleep_ms, status = 200, malformed;
static const char *error_msg, *log_file;

static void add_opt(opt *v, int *n, char *arg)
{
	char *eq = strchr(arg, '=');
	if (!eq || *n == MAXOPT) {
		fprintf(stderr, "extender_srv: expected NODE=VALUE, got '%s'\n", arg);
		exit(64);
	}
	*eq = 0;
	v[(*n)++] = (opt){ arg, eq + 1 };
}

static const char *find(const opt *v, int n, const char *node)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].node, node))
			return v[i].msg;
	return NULL;
}

static int listed(const char *const *v, int n, const char *node)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i], node))
			return 1;
	return 0;
}

static const kp_json *member(const kp_json *o, const char *k)
{
	for (size_t i = 0; o && o->type == KP_J_OBJ && i < o->n; i++)
		if (!strcmp(o->items[2 * i]->str, k))
			return o->items[2 * i + 1];
	return NULL;
}

/* the names of the nodes sent, and whether as NodeNames */
static int sent_nodes(const kp_json *args, const char **names, int max, int *as_names)
{
	int n = 0;
	const kp_json *nn = member(args, "NodeNames"), *items = member(member(args, "Nodes"), "items");
	*as_names = nn != NULL;
	for (size_t i = 0; nn && nn->type == KP_J_ARR && i < nn->n && n < max; i++)
		names[n++] = nn->items[i]->str;
	for (size_t i = 0; items && items->type == KP_J_ARR && i < items->n && n < max; i++) {
		const kp_json *nm = member(member(items->items[i], "metadata"), "name");
		if (nm && nm->type == KP_J_STR)
			names[n++] = nm->str;
	}
	return n;
}

static void json_str(kp_sb *sb, const char *s) { kp_sb_add_json_str(sb, s); }

/* one node's victims as MetaVictims: --preempt-victims, else the UIDs sent */
static void meta_victims(kp_sb *out, const char *node, const kp_json *sent)
{
	const char *repl = find(pvictims, npvictims, node), *pdb = find(ppdb, nppdb, node);
	const kp_json *np = member(sent, "NumPDBViolations"), *pods = member(sent, "Pods");
	kp_sb_adds(out, "{\"Pods\":[");
	if (repl) {
		for (const char *p = repl; *p;) {
			size_t l = strcspn(p, ",");
			kp_sb_adds(out, p == repl ? "{\"UID\":" : ",{\"UID\":");
			char uid[256];
			snprintf(uid, sizeof uid, "%.*s", (int)l, p);
			json_str(out, uid);
			kp_sb_addc(out, '}');
			p += l + (p[l] == ',');
		}
	} else {
		for (size_t i = 0; pods && pods->type == KP_J_ARR && i < pods->n; i++) {
			const kp_json *u = member(pods->items[i], "UID");
			if (!u)
				u = member(member(pods->items[i], "metadata"), "uid");
			kp_sb_adds(out, i ? ",{\"UID\":" : "{\"UID\":");
			json_str(out, u && u->type == KP_J_STR ? u->str : "");
			kp_sb_addc(out, '}');
		}
	}
	kp_sb_printf(out, "],\"NumPDBViolations\":%s}", pdb ? pdb : np && np->type == KP_J_NUM ? np->str : "0");
}

/* an ExtenderPreemptionResult for the candidates sent */
static void answer_preempt(const kp_json *args, kp_sb *out)
{
	const kp_json *m = member(args, "NodeNameToMetaVictims");
	if (!m || m->type != KP_J_OBJ)
		m = member(args, "NodeNameToVictims");
	kp_sb_adds(out, "{\"NodeNameToMetaVictims\":{");
	int k = 0;
	for (size_t i = 0; m && m->type == KP_J_OBJ && i < m->n; i++) {
		const char *node = m->items[2 * i]->str;
		if (listed(pdrops, npdrops, node))
			continue;
		kp_sb_adds(out, k++ ? "," : "");
		json_str(out, node);
		kp_sb_addc(out, ':');
		meta_victims(out, node, m->items[2 * i + 1]);
	}
	for (int i = 0; i < npvictims; i++) {   /* nodes that were not sent */
		if (m && m->type == KP_J_OBJ && member(m, pvictims[i].node))
			continue;
		kp_sb_adds(out, k++ ? "," : "");
		json_str(out, pvictims[i].node);
		kp_sb_addc(out, ':');
		meta_victims(out, pvictims[i].node, NULL);
	}
	kp_sb_adds(out, "}}");
}

static void answer(const char *path, const char *body, kp_sb *out)
{
	if (malformed) {
		kp_sb_adds(out, "<html>not JSON</html>");
		return;
	}
	kp_arena a;
	kp_arena_init(&a, 1 << 16);
	const kp_json *args = kp_json_parse(body, &a);
	const char *names[4096];
	int as_names = 0, n = sent_nodes(args, names, 4096, &as_names);
	size_t pl = strlen(path);
	if (pl >= 7 && !strcmp(path + pl - 7, "preempt")) {
		answer_preempt(args, out);
	} else if (pl >= 10 && !strcmp(path + pl - 10, "prioritize")) {
		kp_sb_addc(out, '[');
		for (int i = 0; i < n; i++) {
			const char *sc = find(scores, nscores, names[i]);
			kp_sb_adds(out, i ? ",{\"Host\":" : "{\"Host\":");
			json_str(out, names[i]);
			kp_sb_printf(out, ",\"Score\":%s}", sc ? sc : "0");
		}
		kp_sb_addc(out, ']');
	} else if (error_msg) {
		kp_sb_adds(out, "{\"Error\":");
		json_str(out, error_msg);
		kp_sb_addc(out, '}');
	} else {
		kp_sb_adds(out, as_names ? "{\"NodeNames\":[" : "{\"Nodes\":{\"items\":[");
		int k = 0;
		for (int i = 0; i < n + nclaims; i++) {
			const char *nm = i < n ? names[i] : claims[i - n];
			if (i < n && (find(rejects, nrej, nm) || find(unres, nunres, nm) || listed(drops, ndrops, nm)))
				continue;
			kp_sb_adds(out, k++ ? "," : "");
			if (as_names) {
				json_str(out, nm);
			} else {
				kp_sb_adds(out, "{\"metadata\":{\"name\":");
				json_str(out, nm);
				kp_sb_adds(out, "}}");
			}
		}
		kp_sb_adds(out, as_names ? "]" : "]}");
		for (int pass = 0; pass < 2; pass++) {
			const opt *v = pass ? unres : rejects;
			int nv = pass ? nunres : nrej;
			kp_sb_adds(out, pass ? ",\"FailedAndUnresolvableNodes\":{" : ",\"FailedNodes\":{");
			for (int i = 0; i < nv; i++) {
				kp_sb_adds(out, i ? "," : "");
				json_str(out, v[i].node);
				kp_sb_addc(out, ':');
				json_str(out, v[i].msg);
			}
			kp_sb_addc(out, '}');
		}
		kp_sb_addc(out, '}');
	}
	kp_arena_release(&a);
}

/* one request on fd: headers, then Content-Length bytes */
static void serve(int fd)
{
	kp_sb in;
	kp_sb_init(&in);
	char buf[65536];
	size_t want = 0, head = 0;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r <= 0)
			break;
		kp_sb_add(&in, buf, (size_t)r);
		const char *end = head ? NULL : strstr(kp_sb_str(&in), "\r\n\r\n");
		if (end) {
			head = (size_t)(end - in.buf) + 4;
			const char *cl = strcasestr(in.buf, "Content-Length:");
			want = cl && cl < end ? (size_t)strtoul(cl + 15, NULL, 10) : 0;
		}
		if (head && in.len >= head + want)
			break;
	}
	char path[512] = "";
	sscanf(kp_sb_str(&in), "%*s %511s", path);
	const char *body = head ? in.buf + head : "";
	if (log_file) {
		FILE *f = fopen(log_file, "a");
		if (f) {
			fprintf(f, "%s %s\n", path, body);
			fclose(f);
		}
	}
	if (sleep_ms) {
		struct timespec ts = { sleep_ms / 1000, (long)(sleep_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	kp_sb out;
	kp_sb_init(&out);
	answer(path, body, &out);
	char hdr[256];
	int hl = snprintf(hdr, sizeof hdr, "HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
			  "Connection: close\r\n\r\n", status, out.len);
	if (write(fd, hdr, (size_t)hl) == hl && out.len)
		(void)!write(fd, out.buf, out.len);
	kp_sb_release(&out);
	kp_sb_release(&in);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: extender_srv PORTFILE [options]\n");
		return 64;
	}
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--malformed")) {
			malformed = 1;
			continue;
		}
		if (!v) {
			fprintf(stderr, "extender_srv: %s needs a value\n", o);
			return 64;
		}
		i++;
		if (!strcmp(o, "--log"))
			log_file = v;
		else if (!strcmp(o, "--reject"))
			add_opt(rejects, &nrej, v);
		else if (!strcmp(o, "--unresolvable"))
			add_opt(unres, &nunres, v);
		else if (!strcmp(o, "--score"))
			add_opt(scores, &nscores, v);
		else if (!strcmp(o, "--drop") && ndrops < MAXOPT)
			drops[ndrops++] = v;
		else if (!strcmp(o, "--preempt-victims"))
			add_opt(pvictims, &npvictims, v);
		else if (!strcmp(o, "--preempt-pdb"))
			add_opt(ppdb, &nppdb, v);
		else if (!strcmp(o, "--preempt-drop") && npdrops < MAXOPT)
			pdrops[npdrops++] = v;
		else if (!strcmp(o, "--claim") && nclaims < MAXOPT)
			claims[nclaims++] = v;
		else if (!strcmp(o, "--sleep-ms"))
			sleep_ms = atoi(v);
		else if (!strcmp(o, "--status"))
			status = atoi(v);
		else if (!strcmp(o, "--error"))
			error_msg = v;
		else {
			fprintf(stderr, "extender_srv: unknown option %s\n", o);
			return 64;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(600);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = 0 };
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof addr;
	if (s < 0 || bind(s, (struct sockaddr *)&addr, sizeof addr) || listen(s, 16) ||
	    getsockname(s, (struct sockaddr *)&addr, &len)) {
		perror("extender_srv");
		return 1;
	}
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", ntohs(addr.sin_port)) < 0 || fclose(f) || rename(tmp, argv[1])) {
		perror("extender_srv: port file");
		return 1;
	}
	for (;;) {
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		serve(c);
		close(c);
	}
}
