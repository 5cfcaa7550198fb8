/*
 * whatif.c — what-if scenarios for one plan run (see whatif.h): parsing the
 * options, building the scenario in TEMP tables that shadow the imported
 * ones, and recording what it was (run_scenario, run_node, run_pod).
 *
 * Rules, as the README's "What-if" section documents them:
 *  - --remove-nodes: the nodes are gone; their pods become pending (re-placed
 *    by the run: `move` from the removed node, or `unschedulable`), except
 *    DaemonSet pods, static (Node-owned) pods, finished and terminating pods,
 *    which vanish with the node (as do pending DaemonSet pods made for it);
 *  - --cordon: spec.unschedulable;
 *  - --drain: cordon, and its pods become pending, except DaemonSet and static
 *    pods (they stay, as `kubectl drain` leaves them), finished and
 *    terminating pods;
 *  - --add-nodes FILE[:COUNT]: COUNT copies of the Node in FILE, named
 *    TEMPLATE-whatif-1, -2, ... (the first free numbers), label
 *    kubernetes.io/hostname set to that name; every DaemonSet whose pods the
 *    controller would put there gets a pending pod for each;
 *  - --scale NS/[KIND/]NAME=N: the workload's replicas (its live pods and the
 *    pods generated at import, not finished) brought to N: new pending pods
 *    named as the importer names them, or the surplus removed — StatefulSet:
 *    highest ordinal first; others, roughly as the ReplicaSet controller:
 *    pending ones first, then terminating, then the newest, then the last
 *    imported;
 *  - --mode full: every bound pod that is not a DaemonSet or static pod,
 *    not finished and not terminating, becomes pending (keep when it lands
 *    on its node again, move when elsewhere).
 */
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "whatif.h"
#include "udf.h"
#include "scores.h"
#include "../common/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>

/* option kinds, in the order they are applied */
/* add-pods (FILE:COUNT, pending copies of a Pod or a workload's pod template)
 * is what `kplan capacity --pod` uses; `plan` has no option for it */
/* remove-pods (ID,ID,...: those pods deleted, as evicted and not re-created),
 * untaint (KEY or KEY=VALUE: the NoSchedule/NoExecute taints with that key,
 * and value, removed from every node) and relax (CLASS:node-selector:KEY,
 * CLASS:spread:SEQ or CLASS:affinity:SEQ: one constraint of a scheduling class
 * relaxed — the nodeSelector key dropped, the spread constraint's maxSkew + 1,
 * the required pod (anti-)affinity term dropped — or CLASS:node-affinity:TERM.SEQ
 * or CLASS:node-affinity:all: one matchExpression of a required nodeSelectorTerm
 * dropped, or the whole required node affinity — in TEMP copies of the class
 * tables, like the node and pod tables) are what `kplan fix` checks its
 * candidates with; `plan` has no option for them */
/* from-run N (first of all): the state run N left — the pods it bound or
 * moved are bound there, its victims gone (or pending again when a
 * controller re-creates them, as the run modelled them) */
enum { WI_FROM_RUN, WI_REMOVE, WI_CORDON, WI_DRAIN, WI_ADD, WI_SCALE, WI_ADD_PODS, WI_REMOVE_PODS, WI_UNTAINT,
       WI_RELAX, WI_MODE, WI_STRATEGY, WI_NKINDS };
static const char *const kind_names[WI_NKINDS] = { "from-run", "remove-nodes", "cordon", "drain", "add-nodes", "scale",
						   "add-pods", "remove-pods", "untaint", "relax", "mode", "strategy" };

enum { STRAT_LEAST, STRAT_MOST, STRAT_BALANCED };
static const char *const strat_names[] = { "least", "most", "balanced" };

/* ids of scenario objects: negative, ascending in creation order, never an imported row's */
#define WI_ID_BASE (-1000000000000LL)
#define WI_MAX_ADD 100000

typedef struct wi_op {
	int kind, given;             /* given: position on the command line */
	char *value;                 /* as given */
	char *node;                  /* remove/cordon/drain: a node's name ... */
	char *selector;              /* ... or a label selector (JSON requirements) */
	char *file;                  /* add-nodes */
	long count;
	char *ns, *wkind, *wname;    /* scale */
	int64_t replicas;
	int relative;                /* scale NS/W=+N: replicas is added to the current count */
	int strategy;                /* strategy */
	/* what it did (kp_whatif_apply, kp_whatif_record) */
	int seq;
	long nodes, pending, added, removed;
	int nothing_selected;        /* a selector or name that selected no node */
	kp_sb effect, result;
} wi_op;

struct kp_whatif {
	wi_op *ops;
	int nops, cap, ngiven;
	int tables;                  /* the temp tables were made */
	int64_t nodes_made, pods_made;
	int have_created;
	int64_t created;             /* creationTimestamp of added pods; INT64_MIN: unknown */
	const kp_whatif_importer *importer;   /* borrowed; NULL: none */
};

/* ---- building the scenario: shared state ---- */

enum {
	Q_POD_INS, Q_POD_LABELS, Q_POD_LABEL, Q_POD_REC, Q_NAME_USED, Q_NODE_USED, Q_COUNT
};

typedef struct wctx {
	sqlite3 *db;
	kp_whatif *w;
	kp_err *err;
	sqlite3_stmt *q[Q_COUNT];
} wctx;

static const char *const qsql[Q_COUNT] = {
	[Q_POD_INS] = "INSERT INTO temp.pod(id, namespace, name, class_id, phase, created, owner_kind, owner_name, "
		      "owner_uid, workload_id, daemon_node, source, batch_id) "
		      "VALUES(?1, ?2, ?3, ?4, 'Pending', ?5, ?6, ?7, ?8, ?9, ?10, 'what-if', ?11)",
	[Q_POD_LABELS] = "INSERT OR REPLACE INTO temp.pod_label(pod_id, key, value) "
			 "SELECT ?1, key, value FROM json_each(?2) WHERE json_valid(?2)",
	[Q_POD_LABEL] = "INSERT OR REPLACE INTO temp.pod_label(pod_id, key, value) VALUES(?1, ?2, ?3)",
	[Q_POD_REC] = "INSERT OR REPLACE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id, workload_id, "
		      "node_name, seq) VALUES(?1, ?2, ?3, 'added', ?4, ?5, ?6, ?7)",
	[Q_NAME_USED] = "SELECT 1 FROM temp.pod WHERE namespace = ?1 AND name = ?2 "
			"UNION ALL SELECT 1 FROM main.pod WHERE namespace = ?1 AND name = ?2 LIMIT 1",
	[Q_NODE_USED] = "SELECT 1 FROM temp.node WHERE name = ?1 UNION ALL SELECT 1 FROM main.node WHERE name = ?1 LIMIT 1",
};

static int db_fail(wctx *c, const char *what)
{
	if (kp_interrupted || sqlite3_errcode(c->db) == SQLITE_INTERRUPT)
		return kp_err_set(c->err, KP_INTR, "interrupted");
	return kp_err_set(c->err, KP_IO, "what-if: %s: %s", what, sqlite3_errmsg(c->db));
}

static sqlite3_stmt *Q(wctx *c, int i)
{
	if (!c->q[i] && sqlite3_prepare_v2(c->db, qsql[i], -1, &c->q[i], NULL) != SQLITE_OK) {
		db_fail(c, "preparing a statement");
		return NULL;
	}
	sqlite3_reset(c->q[i]);
	sqlite3_clear_bindings(c->q[i]);
	return c->q[i];
}

static void bind_opt_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* Run one statement with ?1 = a (integer) and ?2 = b (text, may be NULL):
 * *out = the first row's first column as an integer (0 when no row), and
 * *changes = rows changed (each may be NULL); `what` names it in errors. */
static int run2(wctx *c, const char *what, const char *sql, int64_t a, const char *b, int64_t *out, long *changes)
{
	sqlite3_stmt *s;
	if (out)
		*out = 0;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, what);
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, a);
	if (sqlite3_bind_parameter_count(s) >= 2)
		bind_opt_text(s, 2, b);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && out)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(c, what);
	if (changes)
		*changes = sqlite3_changes(c->db);
	return KP_OK;
}

/* a statement that changes the scenario's tables */
static int exec2(wctx *c, const char *sql, int64_t a, const char *b, long *changes)
{
	return run2(c, "building the scenario", sql, a, b, NULL, changes);
}

/* the single integer a query returns; 0 when no row */
static int query_int(wctx *c, const char *sql, int64_t a, const char *b, int64_t *out)
{
	return run2(c, "reading the cluster", sql, a, b, out, NULL);
}

/* "a, b, c, d, e, ... (12)": the names a query returns (?1 = a), for messages */
static int add_names(wctx *c, kp_sb *sb, const char *sql, int64_t a)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "reading the cluster");
	sqlite3_bind_int64(s, 1, a);
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n < 5)
			kp_sb_printf(sb, "%s%s", n ? ", " : "", (const char *)sqlite3_column_text(s, 0));
		n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_fail(c, "reading the cluster");
	if (n > 5)
		kp_sb_printf(sb, ", ... (%d)", n);
	return KP_OK;
}

/* names as controllers make them: the importer's suffix (whatif.h), the
 * same function as the import's, so that a replica added here has the name
 * an import with more replicas would give it */
static int pod_suffix(wctx *c, const char *ns, const char *name, int64_t i, char out[6])
{
	const kp_whatif_importer *imp = c->w->importer;
	if (!imp || !imp->pod_suffix)
		return kp_err_set(c->err, KP_ERROR, "internal error: no importer to name generated pods with "
				  "(kp_whatif_set_importer)");
	imp->pod_suffix(ns, name, i, out);
	return KP_OK;
}

/* 1 when a pod NS/NAME exists (in the scenario or imported), 0 not, <0 error */
static int pod_name_used(wctx *c, const char *ns, const char *name)
{
	sqlite3_stmt *s = Q(c, Q_NAME_USED);
	if (!s)
		return c->err->code;
	sqlite3_bind_text(s, 1, ns, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : db_fail(c, "reading pods");
}

/* ---- parsing ---- */

kp_whatif *kp_whatif_new(void)
{
	kp_whatif *w = kp_calloc(1, sizeof *w);
	return w;
}

void kp_whatif_set_importer(kp_whatif *w, const kp_whatif_importer *imp)
{
	if (w)
		w->importer = imp;
}

static void op_release(wi_op *op)
{
	kp_free(op->value);
	kp_free(op->node);
	kp_free(op->selector);
	kp_free(op->file);
	kp_free(op->ns);
	kp_free(op->wkind);
	kp_free(op->wname);
	kp_sb_release(&op->effect);
	kp_sb_release(&op->result);
}

void kp_whatif_free(kp_whatif *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->nops; i++)
		op_release(&w->ops[i]);
	kp_free(w->ops);
	kp_free(w);
}

int kp_whatif_empty(const kp_whatif *w) { return !w || !w->nops; }

static int usage(kp_err *err, const char *option, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int usage(kp_err *err, const char *option, const char *value, const char *fmt, ...)
{
	char why[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return kp_err_set(err, KP_USAGE, "--%s '%s': %s", option, value, why);
}

/* label selector lexer (k8s.io/apimachinery labels.Parse) */
enum { T_END, T_ID, T_COMMA, T_LP, T_RP, T_EQ, T_DEQ, T_NEQ, T_NOT, T_GT, T_LT, T_IN, T_NOTIN };

typedef struct lexer {
	const char *p;
	int tok;
	char id[320];
	int too_long;
} lexer;

static int special(char ch) { return ch == '=' || ch == '!' || ch == '(' || ch == ')' || ch == ',' || ch == '<' || ch == '>'; }

static int lex(lexer *l)
{
	while (*l->p && isspace((unsigned char)*l->p))
		l->p++;
	const char *p = l->p;
	if (!*p)
		return l->tok = T_END;
	if (special(*p)) {
		l->p++;
		switch (*p) {
		case ',': return l->tok = T_COMMA;
		case '(': return l->tok = T_LP;
		case ')': return l->tok = T_RP;
		case '<': return l->tok = T_LT;
		case '>': return l->tok = T_GT;
		case '=':
			if (*l->p == '=') {
				l->p++;
				return l->tok = T_DEQ;
			}
			return l->tok = T_EQ;
		default:   /* '!' */
			if (*l->p == '=') {
				l->p++;
				return l->tok = T_NEQ;
			}
			return l->tok = T_NOT;
		}
	}
	size_t n = 0;
	while (p[n] && !isspace((unsigned char)p[n]) && !special(p[n]))
		n++;
	l->too_long = n >= sizeof l->id;
	snprintf(l->id, sizeof l->id, "%.*s", (int)(n < sizeof l->id ? n : sizeof l->id - 1), p);
	l->p = p + n;
	if (!strcmp(l->id, "in"))
		return l->tok = T_IN;
	if (!strcmp(l->id, "notin"))
		return l->tok = T_NOTIN;
	return l->tok = T_ID;
}

static const char *tok_text(const lexer *l)
{
	static const char *const t[] = { "end of string", "", "','", "'('", "')'", "'='", "'=='", "'!='", "'!'", "'>'",
					 "'<'", "'in'", "'notin'" };
	return l->tok == T_ID ? l->id : t[l->tok];
}

static int valid_int(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* kubectl -l syntax -> [["key","In",["v"]], ...]; message in why */
static int parse_selector(const char *text, kp_sb *json, char *why, size_t nwhy)
{
	lexer l = { text, T_END, "", 0 };
	int nreq = 0;
	kp_sb_adds(json, "[");
	lex(&l);
	for (;;) {
		int neg = 0;
		if (l.tok == T_NOT) {
			neg = 1;
			lex(&l);
		}
		if (l.tok != T_ID) {
			snprintf(why, nwhy, "found %s, expected a label key", tok_text(&l));
			return -1;
		}
		if (l.too_long || !kp_valid_label_key(l.id)) {
			snprintf(why, nwhy, "'%s' is not a valid label key", l.id);
			return -1;
		}
		char key[320];
		snprintf(key, sizeof key, "%s", l.id);
		kp_sb_adds(json, nreq++ ? ",[" : "[");
		kp_sb_add_json_str(json, key);
		lex(&l);
		if (neg || l.tok == T_END || l.tok == T_COMMA) {
			kp_sb_printf(json, ",\"%s\",[]]", neg ? "DoesNotExist" : "Exists");
		} else if (l.tok == T_IN || l.tok == T_NOTIN) {
			const char *op = l.tok == T_IN ? "In" : "NotIn";
			if (lex(&l) != T_LP) {
				snprintf(why, nwhy, "found %s, expected '(' after '%s'", tok_text(&l), op[0] == 'I' ? "in" : "notin");
				return -1;
			}
			kp_sb_printf(json, ",\"%s\",[", op);
			int nv = 0;
			for (;;) {
				lex(&l);
				if (l.tok == T_RP && nv == 0) {
					snprintf(why, nwhy, "'%s' needs at least one value in its parentheses", op[0] == 'I' ? "in" : "notin");
					return -1;
				}
				if (l.tok != T_ID) {
					snprintf(why, nwhy, "found %s, expected a value", tok_text(&l));
					return -1;
				}
				if (l.too_long || !kp_valid_label_value(l.id)) {
					snprintf(why, nwhy, "'%s' is not a valid label value", l.id);
					return -1;
				}
				if (nv++)
					kp_sb_adds(json, ",");
				kp_sb_add_json_str(json, l.id);
				lex(&l);
				if (l.tok == T_RP)
					break;
				if (l.tok != T_COMMA) {
					snprintf(why, nwhy, "found %s, expected ',' or ')'", tok_text(&l));
					return -1;
				}
			}
			kp_sb_adds(json, "]]");
			lex(&l);
		} else if (l.tok == T_EQ || l.tok == T_DEQ || l.tok == T_NEQ || l.tok == T_GT || l.tok == T_LT) {
			int op = l.tok;
			lex(&l);
			char val[320] = "";
			if (l.tok == T_ID) {
				if (l.too_long || (op != T_GT && op != T_LT && !kp_valid_label_value(l.id))) {
					snprintf(why, nwhy, "'%s' is not a valid label value", l.id);
					return -1;
				}
				snprintf(val, sizeof val, "%s", l.id);
				lex(&l);
			} else if (l.tok != T_END && l.tok != T_COMMA) {
				snprintf(why, nwhy, "found %s, expected a value", tok_text(&l));
				return -1;
			}
			if ((op == T_GT || op == T_LT) && !valid_int(val)) {
				snprintf(why, nwhy, "'%s' needs an integer, got '%s'", op == T_GT ? ">" : "<", val);
				return -1;
			}
			const char *name = op == T_NEQ ? "NotIn" : op == T_GT ? "Gt" : op == T_LT ? "Lt" : "In";
			kp_sb_printf(json, ",\"%s\",[", name);
			kp_sb_add_json_str(json, val);
			kp_sb_adds(json, "]]");
		} else {
			snprintf(why, nwhy, "found %s, expected one of: in, notin, =, ==, !=, >, <, ',' or end of string",
				 tok_text(&l));
			return -1;
		}
		if (l.tok == T_END)
			break;
		if (l.tok != T_COMMA) {
			snprintf(why, nwhy, "found %s, expected ',' or end of string", tok_text(&l));
			return -1;
		}
		lex(&l);
	}
	kp_sb_adds(json, "]");
	return kp_sb_ok(json) ? 0 : -2;
}

static const struct { const char *alias, *kind; } kinds[] = {
	{ "deployment", "Deployment" }, { "deployments", "Deployment" }, { "deploy", "Deployment" },
	{ "statefulset", "StatefulSet" }, { "statefulsets", "StatefulSet" }, { "sts", "StatefulSet" },
	{ "replicaset", "ReplicaSet" }, { "replicasets", "ReplicaSet" }, { "rs", "ReplicaSet" },
	{ "replicationcontroller", "ReplicationController" }, { "replicationcontrollers", "ReplicationController" },
	{ "rc", "ReplicationController" }, { "job", "Job" }, { "jobs", "Job" },
	{ "daemonset", "DaemonSet" }, { "daemonsets", "DaemonSet" }, { "ds", "DaemonSet" },
};

static int parse_op(wi_op *op, const char *option, const char *v, kp_err *err)
{
	switch (op->kind) {
	case WI_REMOVE:
	case WI_CORDON:
	case WI_DRAIN: {
		if (!*v)
			return usage(err, option, v, "needs a node name or a label selector");
		int sel = 0;
		for (const char *p = v; *p; p++)
			sel |= special(*p) || isspace((unsigned char)*p);
		if (!sel) {
			/* no operator: a node's name */
			if (!(op->node = kp_strdup(v)))
				return kp_err_set(err, KP_NOMEM, "out of memory");
			return KP_OK;
		}
		kp_sb json;
		kp_sb_init(&json);
		char why[512];
		int rc = parse_selector(v, &json, why, sizeof why);
		if (rc == -1) {
			kp_sb_release(&json);
			return usage(err, option, v, "bad label selector: %s", why);
		}
		if (rc || !(op->selector = kp_strdup(kp_sb_str(&json)))) {
			kp_sb_release(&json);
			return kp_err_set(err, KP_NOMEM, "out of memory");
		}
		kp_sb_release(&json);
		return KP_OK;
	}
	case WI_ADD:
	case WI_ADD_PODS: {
		struct stat st;
		long max = op->kind == WI_ADD ? WI_MAX_ADD : KP_WHATIF_MAX_PODS;
		const char *colon = strrchr(v, ':');
		size_t flen = strlen(v);
		op->count = 1;
		if (colon && stat(v, &st) != 0 && !strchr(colon, '/')) {
			/* FILE:COUNT */
			const char *c = colon + 1;
			char *end;
			errno = 0;
			long n = strtol(c, &end, 10);
			if (!*c || *end || errno || n <= 0 || n > max || !isdigit((unsigned char)*c))
				return usage(err, option, v, "COUNT must be a positive integer (at most %ld), got '%s'", max, c);
			op->count = n;
			flen = (size_t)(colon - v);
		}
		if (!flen)
			return usage(err, option, v, op->kind == WI_ADD ? "needs a Node template file (FILE or FILE:COUNT)"
				     : "needs a Pod or workload file (FILE or FILE:COUNT)");
		if (!(op->file = kp_strndup(v, flen)))
			return kp_err_set(err, KP_NOMEM, "out of memory");
		return KP_OK;
	}
	case WI_SCALE: {
		const char *eq = strrchr(v, '=');
		if (!eq)
			return usage(err, option, v, "expected NAMESPACE/WORKLOAD=REPLICAS (or NAMESPACE/KIND/WORKLOAD=REPLICAS)");
		const char *c = eq + 1;
		char *end;
		if (*c == '+') {
			op->relative = 1;   /* NS/W=+N: N more than now */
			c++;
		}
		errno = 0;
		long long n = strtoll(c, &end, 10);
		if (!*c || *end || errno || n < 0 || n > KP_WHATIF_MAX_PODS || !isdigit((unsigned char)*c))
			return usage(err, option, v, "REPLICAS must be an integer from 0 to %d, got '%s'", KP_WHATIF_MAX_PODS, c);
		op->replicas = n;
		const char *s1 = memchr(v, '/', (size_t)(eq - v));
		const char *s2 = s1 ? memchr(s1 + 1, '/', (size_t)(eq - s1 - 1)) : NULL;
		const char *s3 = s2 ? memchr(s2 + 1, '/', (size_t)(eq - s2 - 1)) : NULL;
		if (!s1 || s3 || s1 == v || s1 + 1 == eq || (s2 && (s2 == s1 + 1 || s2 + 1 == eq)))
			return usage(err, option, v, "expected NAMESPACE/WORKLOAD=REPLICAS (or NAMESPACE/KIND/WORKLOAD=REPLICAS)");
		op->ns = kp_strndup(v, (size_t)(s1 - v));
		const char *name = s2 ? s2 + 1 : s1 + 1;
		op->wname = kp_strndup(name, (size_t)(eq - name));
		if (!op->ns || !op->wname)
			return kp_err_set(err, KP_NOMEM, "out of memory");
		if (s2) {
			char k[64];
			size_t kl = (size_t)(s2 - s1 - 1);
			if (kl >= sizeof k)
				kl = sizeof k - 1;
			for (size_t i = 0; i < kl; i++)
				k[i] = (char)tolower((unsigned char)s1[1 + i]);
			k[kl] = 0;
			for (size_t i = 0; i < sizeof kinds / sizeof *kinds && !op->wkind; i++)
				if (!strcmp(k, kinds[i].alias))
					op->wkind = kp_strdup(kinds[i].kind);
			if (!op->wkind)
				return usage(err, option, v, "unknown workload kind '%.*s' (Deployment, StatefulSet, ReplicaSet, "
					     "ReplicationController or Job)", (int)(s2 - s1 - 1), s1 + 1);
		}
		return KP_OK;
	}
	case WI_REMOVE_PODS: {
		/* ID,ID,...: positive integers */
		int n = 0;
		for (const char *p = v; *p;) {
			const char *q = p;
			while (isdigit((unsigned char)*q))
				q++;
			if (q == p || q - p > 18 || (*q && *q != ',') || (*q == ',' && !q[1]))
				return usage(err, option, v, "expected pod ids separated by commas");
			n++;
			p = *q ? q + 1 : q;
		}
		if (!n)
			return usage(err, option, v, "expected pod ids separated by commas");
		return KP_OK;
	}
	case WI_UNTAINT: {
		const char *eq = strchr(v, '=');
		if (!*v || eq == v)
			return usage(err, option, v, "expected a taint KEY or KEY=VALUE");
		op->node = eq ? kp_strndup(v, (size_t)(eq - v)) : kp_strdup(v);   /* the key */
		op->selector = eq ? kp_strdup(eq + 1) : NULL;                      /* the value */
		if (!op->node || (eq && !op->selector))
			return kp_err_set(err, KP_NOMEM, "out of memory");
		return KP_OK;
	}
	case WI_RELAX: {
		/* CLASS:WHAT:ARG */
#define RELAX_USAGE "expected CLASS:node-selector:KEY, CLASS:spread:SEQ, CLASS:affinity:SEQ, " \
	"CLASS:node-affinity:TERM.SEQ or CLASS:node-affinity:all"
		const char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		char *end;
		errno = 0;
		long long id = strtoll(v, &end, 10);
		if (!c1 || !c2 || end != c1 || errno || !c2[1])
			return usage(err, option, v, RELAX_USAGE);
		op->replicas = id;
		op->wkind = kp_strndup(c1 + 1, (size_t)(c2 - c1 - 1));
		op->wname = kp_strdup(c2 + 1);
		if (!op->wkind || !op->wname)
			return kp_err_set(err, KP_NOMEM, "out of memory");
		if (strcmp(op->wkind, "node-selector") && strcmp(op->wkind, "spread") && strcmp(op->wkind, "affinity") &&
		    strcmp(op->wkind, "node-affinity"))
			return usage(err, option, v, RELAX_USAGE);
		if (!strcmp(op->wkind, "node-affinity") && strcmp(op->wname, "all")) {
			long long term, seq;
			char tail;
			if (sscanf(op->wname, "%lld.%lld%c", &term, &seq, &tail) != 2 || term < 0 || seq < 0)
				return usage(err, option, v, RELAX_USAGE);
		}
		return KP_OK;
	}
	case WI_FROM_RUN: {
		char *end;
		errno = 0;
		long long id = strtoll(v, &end, 10);
		if (!*v || *end || errno || id <= 0)
			return usage(err, option, v, "needs a run id (a positive integer)");
		op->count = (long)id;
		return KP_OK;
	}
	case WI_MODE:
		if (strcmp(v, "full") && strcmp(v, "pending"))
			return usage(err, option, v, "the mode is 'pending' (the default: plan the pending pods), 'full' "
				     "(plan every pod from scratch) or 'rebalance' (propose moves)");
		return KP_OK;
	case WI_STRATEGY:
		for (int i = 0; i < 3; i++)
			if (!strcmp(v, strat_names[i])) {
				op->strategy = i;
				return KP_OK;
			}
		return usage(err, option, v, "the strategy is least, most or balanced");
	}
	return KP_OK;
}

int kp_whatif_add(kp_whatif *w, const char *option, const char *value, kp_err *err)
{
	int kind = -1;
	for (int i = 0; i < WI_NKINDS; i++)
		if (!strcmp(option, kind_names[i]))
			kind = i;
	if (kind < 0)
		return kp_err_set(err, KP_USAGE, "unknown what-if option '%s'", option);
	value = value ? value : "";
	wi_op op;
	memset(&op, 0, sizeof op);
	op.kind = kind;
	kp_sb_init(&op.effect);
	kp_sb_init(&op.result);
	if (!(op.value = kp_strdup(value)) || parse_op(&op, option, value, err)) {
		op_release(&op);
		return err->code ? err->code : kp_err_set(err, KP_NOMEM, "out of memory");
	}
	/* --from-run, --mode and --strategy: the last one counts; --mode pending is the default */
	if (kind == WI_MODE || kind == WI_STRATEGY || kind == WI_FROM_RUN) {
		for (int i = 0; i < w->nops; i++)
			if (w->ops[i].kind == kind) {
				op_release(&w->ops[i]);
				memmove(&w->ops[i], &w->ops[i + 1], (size_t)(w->nops - i - 1) * sizeof *w->ops);
				w->nops--;
				break;
			}
		if (kind == WI_MODE && !strcmp(value, "pending")) {
			op_release(&op);
			return KP_OK;
		}
	}
	if (KP_GROW(w->ops, w->nops, w->cap, 8)) {
		op_release(&op);
		return kp_err_set(err, KP_NOMEM, "out of memory");
	}
	op.given = w->ngiven++;
	w->ops[w->nops++] = op;
	return KP_OK;
}

void kp_whatif_options_json(const kp_whatif *w, kp_sb *sb)
{
	if (kp_whatif_empty(w))
		return;
	int any = 0;
	for (int i = 0; i < w->nops; i++) {
		const wi_op *op = &w->ops[i];
		if (op->kind == WI_MODE)
			kp_sb_adds(sb, ",\"mode\":\"full\"");
		else if (op->kind == WI_STRATEGY)
			kp_sb_printf(sb, ",\"strategy\":\"%s\"", strat_names[op->strategy]);
		else
			any = 1;
	}
	if (!any)
		return;
	kp_sb_adds(sb, ",\"whatif\":[");
	int n = 0;
	for (int i = 0; i < w->nops; i++) {
		const wi_op *op = &w->ops[i];
		if (op->kind == WI_MODE || op->kind == WI_STRATEGY)
			continue;
		kp_sb_adds(sb, n++ ? ",[" : "[");
		kp_sb_add_json_str(sb, kind_names[op->kind]);
		kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, op->value);
		kp_sb_addc(sb, ']');
	}
	kp_sb_addc(sb, ']');
}

/* ops in the order they apply: by kind, then as given */
static int cmp_apply(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const wi_op *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return x->given - y->given;
}

/* ---- the temp tables ---- */

static const char *const shadowed[] = { "node", "node_resource", "node_label", "node_taint", "node_image", "pod",
					"pod_label" };

void kp_whatif_cleanup(sqlite3 *db)
{
	/* always schema-qualified: an unqualified DROP would reach the main table */
	static const char sql[] =
		"DROP TABLE IF EXISTS temp.node; DROP TABLE IF EXISTS temp.node_resource; DROP TABLE IF EXISTS temp.node_label;"
		"DROP TABLE IF EXISTS temp.node_taint; DROP TABLE IF EXISTS temp.node_image; DROP TABLE IF EXISTS temp.pod;"
		"DROP TABLE IF EXISTS temp.pod_label; DROP TABLE IF EXISTS temp.kp_whatif_moved;"
		"DROP TABLE IF EXISTS temp.kp_whatif_node; DROP TABLE IF EXISTS temp.kp_whatif_pod;"
		"DROP TABLE IF EXISTS temp.kp_whatif_sel; DROP TABLE IF EXISTS temp.kp_whatif_dsfail;"
		"DROP TABLE IF EXISTS temp.class_node_selector; DROP TABLE IF EXISTS temp.class_spread;"
		"DROP TABLE IF EXISTS temp.class_pod_affinity; DROP TABLE IF EXISTS temp.class_node_term;"
		"DROP TABLE IF EXISTS temp.class_node_expr; DROP TABLE IF EXISTS temp.pod_class;"
		"DROP TABLE IF EXISTS temp.class_request; DROP TABLE IF EXISTS temp.class_container;"
		"DROP TABLE IF EXISTS temp.class_toleration; DROP TABLE IF EXISTS temp.class_port;";
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* CREATE TEMP TABLE T with main.T's own definition and indexes, and its rows */
static int shadow(wctx *c, const char *table)
{
	sqlite3_stmt *s;
	int rc = KP_OK;
	if (sqlite3_prepare_v2(c->db, "SELECT type, sql FROM main.sqlite_schema WHERE tbl_name = ?1 AND sql IS NOT NULL "
				      "AND type IN ('table', 'index') ORDER BY type = 'index'", -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "reading the schema");
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	int tables = 0;
	while (!rc && sqlite3_step(s) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(s, 0), *sql = (const char *)sqlite3_column_text(s, 1);
		kp_sb ddl;
		kp_sb_init(&ddl);
		if (!strcmp(type, "table") && !strncmp(sql, "CREATE TABLE ", 13)) {
			kp_sb_printf(&ddl, "CREATE TEMP TABLE %s", sql + 13);
			tables++;
		} else if (!strncmp(sql, "CREATE INDEX ", 13)) {
			kp_sb_printf(&ddl, "CREATE INDEX temp.%s", sql + 13);
		} else if (!strncmp(sql, "CREATE UNIQUE INDEX ", 20)) {
			kp_sb_printf(&ddl, "CREATE UNIQUE INDEX temp.%s", sql + 20);
		} else {
			kp_sb_release(&ddl);
			continue;
		}
		if (!kp_sb_ok(&ddl))
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		else if (sqlite3_exec(c->db, kp_sb_str(&ddl), NULL, NULL, NULL) != SQLITE_OK)
			rc = db_fail(c, "copying the cluster");
		kp_sb_release(&ddl);
	}
	sqlite3_finalize(s);
	if (rc)
		return rc;
	if (tables != 1)
		return kp_err_set(c->err, KP_IO, "what-if: the database has no table '%s'", table);
	char sql[128];
	snprintf(sql, sizeof sql, "INSERT INTO temp.%s SELECT * FROM main.%s", table, table);
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(c, "copying the cluster");
	return KP_OK;
}

static int make_tables(wctx *c)
{
	kp_whatif_cleanup(c->db);
	for (size_t i = 0; i < sizeof shadowed / sizeof *shadowed; i++)
		if (shadow(c, shadowed[i]))
			return c->err->code;
	if (sqlite3_exec(c->db,
			 "CREATE TEMP TABLE kp_whatif_moved(pod_id INTEGER PRIMARY KEY, node_id INTEGER NOT NULL, seq INTEGER NOT NULL);"
			 "CREATE TEMP TABLE kp_whatif_node(node_id INTEGER NOT NULL, name TEXT NOT NULL, change TEXT NOT NULL, "
			 " seq INTEGER NOT NULL, PRIMARY KEY(node_id, change));"
			 "CREATE TEMP TABLE kp_whatif_pod(pod_id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, name TEXT NOT NULL, "
			 " change TEXT NOT NULL, class_id INTEGER, workload_id INTEGER, node_name TEXT, seq INTEGER NOT NULL);"
			 "CREATE TEMP TABLE kp_whatif_sel(node_id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
			 "CREATE TEMP TABLE kp_whatif_dsfail(class_id INTEGER NOT NULL, node_id INTEGER NOT NULL, "
			 " PRIMARY KEY(class_id, node_id));",
			 NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(c, "creating the scenario tables");
	return KP_OK;
}

/* ---- selecting nodes ---- */

/* temp.kp_whatif_sel := the imported nodes (still present) op names or selects */
static int select_nodes(wctx *c, wi_op *op, const char *option)
{
	long n = 0;
	if (exec2(c, "DELETE FROM temp.kp_whatif_sel", 0, NULL, NULL))
		return c->err->code;
	if (op->node) {
		if (exec2(c, "INSERT INTO temp.kp_whatif_sel(node_id, name) SELECT id, name FROM temp.node "
			     "WHERE name = ?2 AND id > 0", 0, op->node, &n))
			return c->err->code;
		if (!n) {
			int64_t known;
			if (query_int(c, "SELECT count(*) FROM main.node WHERE name = ?2", 0, op->node, &known))
				return c->err->code;
			if (!known)
				return kp_err_set(c->err, KP_ERROR, "--%s '%s': no node named '%s' (a label selector needs =, !=, "
						  "in, notin, ! or a comma)", option, op->value, op->node);
			op->nothing_selected = 1;   /* removed by --remove-nodes */
		}
		return KP_OK;
	}
	if (exec2(c,
		  "INSERT INTO temp.kp_whatif_sel(node_id, name) SELECT n.id, n.name FROM temp.node n WHERE n.id > 0 "
		  "AND NOT EXISTS (SELECT 1 FROM json_each(?2) r WHERE NOT COALESCE(kplan_match_expression("
		  "json_extract(r.value, '$[1]'), (SELECT l.value FROM temp.node_label l WHERE l.node_id = n.id "
		  "AND l.key = json_extract(r.value, '$[0]')), json_extract(r.value, '$[2]')), 0))",
		  0, op->selector, &n))
		return c->err->code;
	op->nothing_selected = n == 0;
	return KP_OK;
}

static int record_nodes(wctx *c, wi_op *op, const char *change)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "INSERT OR IGNORE INTO temp.kp_whatif_node(node_id, name, change, seq) "
				      "SELECT node_id, name, ?2, ?1 FROM temp.kp_whatif_sel", -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "recording the scenario");
	sqlite3_bind_int(s, 1, op->seq);
	sqlite3_bind_text(s, 2, change, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_fail(c, "recording the scenario");
	op->nodes = sqlite3_changes(c->db);
	return KP_OK;
}

static const char sel_names[] = "SELECT name FROM temp.kp_whatif_sel ORDER BY name";

/* the pods on the selected nodes that stay put (drain) or vanish (remove) */
#define STAYING_POD "(COALESCE(p.owner_kind, '') IN ('DaemonSet', 'Node') OR p.daemon_node IS NOT NULL)"
#define DONE_POD "(p.phase IN ('Succeeded', 'Failed') OR p.terminating)"

/* bound pods on the selected nodes that become pending (not DaemonSet, static, finished or terminating) */
static int make_pending(wctx *c, wi_op *op)
{
	long n;
	if (exec2(c, "INSERT OR IGNORE INTO temp.kp_whatif_moved(pod_id, node_id, seq) SELECT p.id, s.node_id, ?1 "
		     "FROM temp.pod p JOIN temp.kp_whatif_sel s ON s.name = p.node_name "
		     "WHERE NOT " STAYING_POD " AND NOT " DONE_POD, op->seq, NULL, &n) ||
	    exec2(c, "UPDATE temp.pod SET node_name = NULL WHERE id IN (SELECT pod_id FROM temp.kp_whatif_moved "
		     "WHERE seq = ?1)", op->seq, NULL, NULL))
		return c->err->code;
	op->pending = n;
	return KP_OK;
}

static void effect_nodes(wctx *c, wi_op *op, const char *verb)
{
	kp_sb_printf(&op->effect, "%ld node%s %s", op->nodes, op->nodes == 1 ? "" : "s", verb);
	if (op->nodes) {
		kp_sb_adds(&op->effect, " (");
		add_names(c, &op->effect, sel_names, 0);
		kp_sb_adds(&op->effect, ")");
	}
}

static int apply_remove(wctx *c, wi_op *op)
{
	if (select_nodes(c, op, "remove-nodes") || record_nodes(c, op, "removed"))
		return c->err->code;
	long gone = 0;
	/* pods that vanish with their node: DaemonSet and static pods, finished and
	 * terminating ones, and pending DaemonSet pods made for it */
	if (exec2(c, "INSERT OR IGNORE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id, workload_id, "
		     "node_name, seq) SELECT p.id, p.namespace, p.name, 'removed', p.class_id, p.workload_id, "
		     "COALESCE(p.node_name, p.daemon_node), ?1 FROM temp.pod p "
		     "WHERE (p.node_name IN (SELECT name FROM temp.kp_whatif_sel) AND (" STAYING_POD " OR " DONE_POD ")) "
		     "OR (p.node_name IS NULL AND p.daemon_node IN (SELECT name FROM temp.kp_whatif_sel))", op->seq, NULL,
		  &gone) ||
	    exec2(c, "DELETE FROM temp.pod_label WHERE pod_id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1 "
		     "AND change = 'removed')", op->seq, NULL, NULL) ||
	    exec2(c, "DELETE FROM temp.pod WHERE id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1 "
		     "AND change = 'removed')", op->seq, NULL, NULL) ||
	    make_pending(c, op) ||
	    exec2(c, "UPDATE temp.pod SET nominated_node = NULL WHERE nominated_node IN (SELECT name FROM temp.kp_whatif_sel)", 0, NULL, NULL))
		return c->err->code;
	op->removed = gone;
	static const char *const children[] = { "node_resource", "node_label", "node_taint", "node_image" };
	for (size_t i = 0; i < 4; i++) {
		char sql[160];
		snprintf(sql, sizeof sql, "DELETE FROM temp.%s WHERE node_id IN (SELECT node_id FROM temp.kp_whatif_sel)", children[i]);
		if (exec2(c, sql, 0, NULL, NULL))
			return c->err->code;
	}
	if (exec2(c, "DELETE FROM temp.node WHERE id IN (SELECT node_id FROM temp.kp_whatif_sel)", 0, NULL, NULL))
		return c->err->code;
	effect_nodes(c, op, "removed");
	kp_sb_printf(&op->effect, "; %ld pod%s made pending", op->pending, op->pending == 1 ? "" : "s");
	if (gone)
		kp_sb_printf(&op->effect, "; %ld pod%s gone with %s (DaemonSet, static, finished or terminating)", gone,
			     gone == 1 ? "" : "s", op->nodes == 1 ? "it" : "them");
	return KP_OK;
}

static int apply_cordon(wctx *c, wi_op *op, int drain)
{
	const char *opt = drain ? "drain" : "cordon";
	int64_t already = 0;
	if (select_nodes(c, op, opt) || record_nodes(c, op, drain ? "drained" : "cordoned") ||
	    query_int(c, "SELECT count(*) FROM temp.node WHERE unschedulable AND id IN (SELECT node_id FROM "
			 "temp.kp_whatif_sel)", 0, NULL, &already) ||
	    exec2(c, "UPDATE temp.node SET unschedulable = 1 WHERE id IN (SELECT node_id FROM temp.kp_whatif_sel)", 0, NULL, NULL))
		return c->err->code;
	if (!drain) {
		effect_nodes(c, op, "cordoned");
		if (already)
			kp_sb_printf(&op->effect, "; %lld of them already", (long long)already);
		return KP_OK;
	}
	int64_t staying = 0;
	if (make_pending(c, op) ||
	    query_int(c, "SELECT count(*) FROM temp.pod p WHERE p.node_name IN (SELECT name FROM temp.kp_whatif_sel) AND "
			 STAYING_POD " AND NOT " DONE_POD "", 0, NULL, &staying))
		return c->err->code;
	effect_nodes(c, op, "drained");
	kp_sb_printf(&op->effect, "; %ld pod%s made pending", op->pending, op->pending == 1 ? "" : "s");
	if (staying)
		kp_sb_printf(&op->effect, "; %lld DaemonSet or static pod%s stay%s", (long long)staying,
			     staying == 1 ? "" : "s", staying == 1 ? "s" : "");
	return KP_OK;
}

/* ---- adding pods ---- */

typedef struct new_pod {
	const char *ns, *name, *owner_kind, *owner_name, *owner_uid, *daemon_node, *labels;
	int64_t class_id, workload_id, batch;
	const char *extra[8];        /* label key, value pairs */
	int nextra;
} new_pod;

static int created_now(wctx *c)
{
	kp_whatif *w = c->w;
	if (w->have_created)
		return KP_OK;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT max((SELECT max(created) FROM main.pod), (SELECT max(created) FROM workload)), "
				      "(SELECT max(created) FROM main.pod), (SELECT max(created) FROM workload)",
			       -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "reading the cluster");
	w->created = INT64_MIN;
	if (sqlite3_step(s) == SQLITE_ROW) {
		for (int i = 0; i < 3; i++)
			if (sqlite3_column_type(s, i) != SQLITE_NULL) {
				w->created = sqlite3_column_int64(s, i) + 1;
				break;
			}
	}
	sqlite3_finalize(s);
	w->have_created = 1;
	return KP_OK;
}

static int add_pod(wctx *c, wi_op *op, const new_pod *p)
{
	if (created_now(c))
		return c->err->code;
	int64_t id = WI_ID_BASE + ++c->w->pods_made;
	sqlite3_stmt *s = Q(c, Q_POD_INS);
	if (!s)
		return c->err->code;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, p->ns, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, p->class_id);
	if (c->w->created != INT64_MIN)
		sqlite3_bind_int64(s, 5, c->w->created);
	bind_opt_text(s, 6, p->owner_kind);
	bind_opt_text(s, 7, p->owner_name);
	bind_opt_text(s, 8, p->owner_uid);
	if (p->workload_id)
		sqlite3_bind_int64(s, 9, p->workload_id);
	bind_opt_text(s, 10, p->daemon_node);
	sqlite3_bind_int64(s, 11, p->batch);
	if (sqlite3_step(s) != SQLITE_DONE)
		return db_fail(c, "adding a pod");
	if (p->labels) {
		if (!(s = Q(c, Q_POD_LABELS)))
			return c->err->code;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, p->labels, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE)
			return db_fail(c, "adding a pod");
	}
	for (int k = 0; k + 1 < p->nextra; k += 2) {
		if (!(s = Q(c, Q_POD_LABEL)))
			return c->err->code;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, p->extra[k], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, p->extra[k + 1], -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE)
			return db_fail(c, "adding a pod");
	}
	if (!(s = Q(c, Q_POD_REC)))
		return c->err->code;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, p->ns, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, p->class_id);
	if (p->workload_id)
		sqlite3_bind_int64(s, 5, p->workload_id);
	bind_opt_text(s, 6, p->daemon_node);
	sqlite3_bind_int(s, 7, op->seq);
	if (sqlite3_step(s) != SQLITE_DONE)
		return db_fail(c, "adding a pod");
	return KP_OK;
}

/* ---- --add-nodes ---- */

/* the template's child rows, read once: values per row */
typedef struct trows {
	int ncols, nrows;
	sqlite3_value **v;           /* nrows * ncols; column 0 (node_id) unused */
} trows;

typedef struct tmpl {
	char *name;
	int unschedulable;
	int64_t created;
	int has_created;
	trows rows[4];
} tmpl;

static const char *const child_cols[4][2] = {
	{ "node_resource", "node_id, resource, allocatable, capacity" },
	{ "node_label", "node_id, key, value" },
	{ "node_taint", "node_id, seq, key, value, effect" },
	{ "node_image", "node_id, seq, name, size_bytes" },
};

static void tmpl_release(tmpl *t)
{
	kp_free(t->name);
	for (int k = 0; k < 4; k++) {
		for (int i = 0; i < t->rows[k].nrows * t->rows[k].ncols; i++)
			sqlite3_value_free(t->rows[k].v[i]);
		kp_free(t->rows[k].v);
	}
	memset(t, 0, sizeof *t);
}

/* Import FILE with the importer itself (every check and message of `kplan
 * import`, through the caller's importer: whatif.h) into a new database in
 * memory: *out (close it, also after an error; NULL when none was made), *n
 * its counts.  An import error becomes "OPTION 'SHOWN': message". */
static int import_in_memory(wctx *c, const char *file, const char *option, const char *shown, sqlite3 **out,
			    kp_whatif_counts *n)
{
	const kp_whatif_importer *imp = c->w->importer;
	sqlite3 *m = NULL;
	kp_err ierr = { 0 };
	memset(n, 0, sizeof *n);
	*out = NULL;
	if (!imp || !imp->import)   /* a library caller that did not say how to read files */
		return kp_err_set(c->err, KP_ERROR, "%s '%s': internal error: no importer to read the file with "
				  "(kp_whatif_set_importer)", option, shown);
	if (sqlite3_open_v2(":memory:", &m, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
	    sqlite3_exec(m, kp_schema_sql, NULL, NULL, NULL) != SQLITE_OK || kp_udf_register(m) != SQLITE_OK) {
		sqlite3_close(m);
		return kp_err_set(c->err, KP_NOMEM, "%s: cannot make a database in memory", option);
	}
	*out = m;
	int irc = imp->import(m, file, n, &ierr);
	if (!irc && !ierr.code)
		return KP_OK;
	if (!ierr.code)
		kp_err_set(&ierr, irc, "internal error: the importer failed without a message");
	char buf[2048];
	return kp_err_set(c->err, ierr.code == KP_NOMEM || ierr.code == KP_INTR ? ierr.code : KP_ERROR, "%s '%s': %s",
			  option, shown, kp_err_format(&ierr, buf, sizeof buf));
}

/* Read the Node template with the importer itself (every check and message
 * of `kplan import`), into a database in memory. */
static int read_template(wctx *c, wi_op *op, tmpl *t)
{
	memset(t, 0, sizeof *t);
	sqlite3 *m = NULL;
	kp_whatif_counts st;
	int rc = import_in_memory(c, op->file, "--add-nodes", op->value, &m, &st);
	if (rc == KP_NOMEM && !m)
		return rc;
	long nodes = st.nodes, others = st.pods + st.workloads + st.others;
	if (!rc && (nodes != 1 || others)) {
		rc = kp_err_set(c->err, KP_ERROR, "--add-nodes '%s': a node template holds exactly one Node, and nothing "
				"else (%s holds %ld Node%s and %ld other object%s)", op->value, op->file, nodes,
				nodes == 1 ? "" : "s", others, others == 1 ? "" : "s");
	}
	sqlite3_stmt *s = NULL;
	if (!rc && sqlite3_prepare_v2(m, "SELECT name, unschedulable, created FROM node", -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW) {
		t->name = kp_strdup((const char *)sqlite3_column_text(s, 0));
		t->unschedulable = sqlite3_column_int(s, 1);
		t->has_created = sqlite3_column_type(s, 2) != SQLITE_NULL;
		t->created = sqlite3_column_int64(s, 2);
		if (!t->name)
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	} else if (!rc) {
		rc = kp_err_set(c->err, KP_IO, "--add-nodes '%s': cannot read the template back: %s", op->value, sqlite3_errmsg(m));
	}
	sqlite3_finalize(s);
	for (int k = 0; k < 4 && !rc; k++) {
		char sql[160];
		snprintf(sql, sizeof sql, "SELECT %s FROM %s", child_cols[k][1], child_cols[k][0]);
		if (sqlite3_prepare_v2(m, sql, -1, &s, NULL) != SQLITE_OK) {
			rc = kp_err_set(c->err, KP_IO, "--add-nodes: %s", sqlite3_errmsg(m));
			break;
		}
		trows *r = &t->rows[k];
		r->ncols = sqlite3_column_count(s);
		int cap = 0;
		while (!rc && sqlite3_step(s) == SQLITE_ROW) {
			if (r->nrows == cap) {
				cap = cap ? cap * 2 : 16;
				sqlite3_value **v = kp_realloc(r->v, (size_t)cap * (size_t)r->ncols * sizeof *v);
				if (!v) {
					rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
					break;
				}
				r->v = v;
			}
			for (int j = 0; j < r->ncols; j++)
				r->v[r->nrows * r->ncols + j] = sqlite3_value_dup(sqlite3_column_value(s, j));
			r->nrows++;
		}
		sqlite3_finalize(s);
	}
	sqlite3_close(m);
	return rc;
}

/* pending pods of every DaemonSet whose controller would run one on the
 * nodes op added: the template (with the controller's tolerations) passes
 * node affinity and tolerates the taints — the static filters' SQL, as the
 * importer uses it for imported nodes */

static int daemon_pods(wctx *c, wi_op *op)
{
	int64_t nds;
	if (query_int(c, "SELECT count(*) FROM workload WHERE kind = 'DaemonSet' AND COALESCE(pod_class_id, class_id) "
			 "IS NOT NULL", 0, NULL, &nds))
		return c->err->code;
	if (!nds)
		return KP_OK;
	if (sqlite3_exec(c->db, "CREATE TEMP TABLE IF NOT EXISTS kp_classes(class_id INTEGER PRIMARY KEY);"
				"DELETE FROM temp.kp_classes; DELETE FROM temp.kp_whatif_dsfail;"
				"INSERT OR IGNORE INTO temp.kp_classes(class_id) SELECT COALESCE(pod_class_id, class_id) "
				"FROM workload WHERE kind = 'DaemonSet' AND COALESCE(pod_class_id, class_id) IS NOT NULL;",
			 NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(c, "DaemonSets of added nodes");
	const char *const filters[] = { kp_sql_filters_node_affinity, kp_sql_filters_taint_toleration };
	for (int f = 0; f < 2; f++) {
		sqlite3_stmt *st, *ins;
		if (sqlite3_prepare_v2(c->db, filters[f], -1, &st, NULL) != SQLITE_OK)
			return db_fail(c, "DaemonSets of added nodes");
		if (sqlite3_prepare_v2(c->db, "INSERT OR IGNORE INTO temp.kp_whatif_dsfail(class_id, node_id) VALUES(?1, ?2)",
				       -1, &ins, NULL) != SQLITE_OK) {
			sqlite3_finalize(st);
			return db_fail(c, "DaemonSets of added nodes");
		}
		int rc;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (sqlite3_column_int64(st, 1) >= 0)
				continue;   /* only the added nodes */
			sqlite3_reset(ins);
			sqlite3_bind_int64(ins, 1, sqlite3_column_int64(st, 0));
			sqlite3_bind_int64(ins, 2, sqlite3_column_int64(st, 1));
			if (sqlite3_step(ins) != SQLITE_DONE) {
				rc = SQLITE_ERROR;
				break;
			}
		}
		sqlite3_finalize(ins);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(c, "DaemonSets of added nodes");
	}
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT w.id, w.namespace, w.name, w.uid, w.template_hash, COALESCE(w.pod_class_id, w.class_id), "
			       "w.labels, w.batch_id, n.name FROM workload w JOIN temp.kp_whatif_node n ON n.seq = ?1 "
			       "AND n.change = 'added' WHERE w.kind = 'DaemonSet' AND COALESCE(w.pod_class_id, w.class_id) IS NOT NULL "
			       "AND NOT EXISTS (SELECT 1 FROM temp.kp_whatif_dsfail f WHERE f.class_id = "
			       "COALESCE(w.pod_class_id, w.class_id) AND f.node_id = n.node_id) ORDER BY w.id, n.node_id",
			       -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "DaemonSets of added nodes");
	sqlite3_bind_int(s, 1, op->seq);
	int rc = KP_OK, step;
	int64_t last_wl = 0, idx = 0;
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
		new_pod p;
		memset(&p, 0, sizeof p);
		p.workload_id = sqlite3_column_int64(s, 0);
		p.ns = (const char *)sqlite3_column_text(s, 1);
		const char *ds = (const char *)sqlite3_column_text(s, 2);
		p.owner_kind = "DaemonSet";
		p.owner_name = ds;
		p.owner_uid = (const char *)sqlite3_column_text(s, 3);
		const char *hash = (const char *)sqlite3_column_text(s, 4);
		p.class_id = sqlite3_column_int64(s, 5);
		p.labels = (const char *)sqlite3_column_text(s, 6);
		p.batch = sqlite3_column_int64(s, 7);
		p.daemon_node = (const char *)sqlite3_column_text(s, 8);
		if (hash) {
			p.extra[p.nextra++] = "controller-revision-hash";
			p.extra[p.nextra++] = hash;
		}
		if (p.workload_id != last_wl) {
			last_wl = p.workload_id;
			idx = 0;
		}
		char name[700], suffix[6];
		int used = 1;
		while (used == 1) {
			if (pod_suffix(c, p.ns, ds, idx++, suffix)) {
				used = -1;
				break;
			}
			snprintf(name, sizeof name, "%s-%s", ds, suffix);
			used = pod_name_used(c, p.ns, name);
		}
		if (used < 0) {
			rc = c->err->code;
			break;
		}
		p.name = name;
		rc = add_pod(c, op, &p);
		if (!rc)
			op->added++;
	}
	sqlite3_finalize(s);
	if (!rc && step != SQLITE_DONE)
		rc = db_fail(c, "DaemonSets of added nodes");
	return rc;
}

static int apply_add(wctx *c, wi_op *op)
{
	tmpl t;
	if (read_template(c, op, &t)) {
		tmpl_release(&t);
		return c->err->code;
	}
	int rc = KP_OK;
	sqlite3_stmt *node = NULL, *child[4] = { NULL }, *host = NULL, *rec = NULL;
	if (sqlite3_prepare_v2(c->db, "INSERT INTO temp.node(id, name, unschedulable, created, source, batch_id) "
				      "VALUES(?1, ?2, ?3, ?4, ?5, 0)", -1, &node, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c->db, "INSERT OR REPLACE INTO temp.node_label(node_id, key, value) "
				      "VALUES(?1, 'kubernetes.io/hostname', ?2)", -1, &host, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c->db, "INSERT INTO temp.kp_whatif_node(node_id, name, change, seq) VALUES(?1, ?2, 'added', ?3)",
			       -1, &rec, NULL) != SQLITE_OK)
		rc = db_fail(c, "adding nodes");
	for (int k = 0; k < 4 && !rc; k++) {
		kp_sb sql;
		kp_sb_init(&sql);
		kp_sb_printf(&sql, "INSERT OR REPLACE INTO temp.%s(%s) VALUES(?1", child_cols[k][0], child_cols[k][1]);
		for (int j = 1; j < t.rows[k].ncols; j++)
			kp_sb_printf(&sql, ", ?%d", j + 1);
		kp_sb_adds(&sql, ")");
		if (!kp_sb_ok(&sql))
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		else if (sqlite3_prepare_v2(c->db, kp_sb_str(&sql), -1, &child[k], NULL) != SQLITE_OK)
			rc = db_fail(c, "adding nodes");
		kp_sb_release(&sql);
	}
	int64_t number = 0;
	for (long i = 0; i < op->count && !rc; i++) {
		if (kp_interrupted) {
			rc = kp_err_set(c->err, KP_INTR, "interrupted");
			break;
		}
		/* TEMPLATE-whatif-N: the first number no node (imported or added) has */
		char name[600];
		int used = 1;
		while (used == 1) {
			snprintf(name, sizeof name, "%s-whatif-%lld", t.name, (long long)++number);
			sqlite3_stmt *q = Q(c, Q_NODE_USED);
			if (!q) {
				used = -1;
				break;
			}
			sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
			int step = sqlite3_step(q);
			used = step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
			sqlite3_reset(q);
		}
		if (used < 0) {
			rc = c->err->code ? c->err->code : db_fail(c, "adding nodes");
			break;
		}
		int64_t id = WI_ID_BASE + ++c->w->nodes_made;
		sqlite3_reset(node);
		sqlite3_bind_int64(node, 1, id);
		sqlite3_bind_text(node, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(node, 3, t.unschedulable);
		if (t.has_created)
			sqlite3_bind_int64(node, 4, t.created);
		else
			sqlite3_bind_null(node, 4);
		sqlite3_bind_text(node, 5, op->file, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(node) != SQLITE_DONE) {
			rc = db_fail(c, "adding nodes");
			break;
		}
		for (int k = 0; k < 4 && !rc; k++)
			for (int r = 0; r < t.rows[k].nrows && !rc; r++) {
				sqlite3_stmt *s = child[k];
				sqlite3_reset(s);
				sqlite3_bind_int64(s, 1, id);
				for (int j = 1; j < t.rows[k].ncols; j++)
					sqlite3_bind_value(s, j + 1, t.rows[k].v[r * t.rows[k].ncols + j]);
				if (sqlite3_step(s) != SQLITE_DONE)
					rc = db_fail(c, "adding nodes");
			}
		sqlite3_reset(host);
		sqlite3_bind_int64(host, 1, id);
		sqlite3_bind_text(host, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_reset(rec);
		sqlite3_bind_int64(rec, 1, id);
		sqlite3_bind_text(rec, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(rec, 3, op->seq);
		if (!rc && (sqlite3_step(host) != SQLITE_DONE || sqlite3_step(rec) != SQLITE_DONE))
			rc = db_fail(c, "adding nodes");
		if (!rc)
			op->nodes++;
	}
	sqlite3_finalize(node);
	sqlite3_finalize(host);
	sqlite3_finalize(rec);
	for (int k = 0; k < 4; k++)
		sqlite3_finalize(child[k]);
	if (!rc)
		rc = daemon_pods(c, op);
	if (!rc) {
		kp_sb_printf(&op->effect, "%ld node%s added from template %s (", op->nodes, op->nodes == 1 ? "" : "s", t.name);
		add_names(c, &op->effect, "SELECT name FROM temp.kp_whatif_node WHERE seq = ?1 AND change = 'added' "
					  "ORDER BY node_id", op->seq);
		kp_sb_adds(&op->effect, ")");
		if (op->added)
			kp_sb_printf(&op->effect, "; %ld DaemonSet pod%s for %s", op->added, op->added == 1 ? "" : "s",
				     op->nodes == 1 ? "it" : "them");
	}
	tmpl_release(&t);
	return rc;
}

/* ---- --scale ---- */

typedef struct wl_info {
	int64_t id, class_id, batch;
	char kind[64], uid[256], hash[128];
	int has_uid, has_hash;
	char *labels;
} wl_info;

static int find_workload(wctx *c, wi_op *op, wl_info *wl)
{
	sqlite3_stmt *s;
	memset(wl, 0, sizeof *wl);
	if (sqlite3_prepare_v2(c->db, "SELECT id, kind, uid, template_hash, COALESCE(pod_class_id, class_id), labels, "
				      "batch_id FROM workload WHERE namespace = ?1 AND name = ?2 AND (?3 IS NULL OR kind = ?3) "
				      "ORDER BY kind", -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "reading workloads");
	sqlite3_bind_text(s, 1, op->ns, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, op->wname, -1, SQLITE_STATIC);
	bind_opt_text(s, 3, op->wkind);
	int n = 0, rc;
	char kinds_seen[256] = "";
	int class_null = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(s, 1);
		size_t used = strlen(kinds_seen);
		snprintf(kinds_seen + used, sizeof kinds_seen - used, "%s%s", n ? " and a " : "", k);
		if (n++)
			continue;
		wl->id = sqlite3_column_int64(s, 0);
		snprintf(wl->kind, sizeof wl->kind, "%s", k);
		if ((wl->has_uid = sqlite3_column_type(s, 2) != SQLITE_NULL))
			snprintf(wl->uid, sizeof wl->uid, "%s", (const char *)sqlite3_column_text(s, 2));
		if ((wl->has_hash = sqlite3_column_type(s, 3) != SQLITE_NULL))
			snprintf(wl->hash, sizeof wl->hash, "%s", (const char *)sqlite3_column_text(s, 3));
		class_null = sqlite3_column_type(s, 4) == SQLITE_NULL;
		wl->class_id = sqlite3_column_int64(s, 4);
		wl->labels = kp_strdup(sqlite3_column_type(s, 5) == SQLITE_NULL ? "{}" : (const char *)sqlite3_column_text(s, 5));
		wl->batch = sqlite3_column_int64(s, 6);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_fail(c, "reading workloads");
	if (!n)
		return kp_err_set(c->err, KP_ERROR, "--scale '%s': no %s named '%s' in namespace '%s'", op->value,
				  op->wkind ? op->wkind : "workload", op->wname, op->ns);
	if (!wl->labels)
		return kp_err_set(c->err, KP_NOMEM, "out of memory");
	if (n > 1)
		return kp_err_set(c->err, KP_ERROR, "--scale '%s': '%s' in namespace '%s' is a %s: write %s/KIND/%s=%lld",
				  op->value, op->wname, op->ns, kinds_seen, op->ns, op->wname, (long long)op->replicas);
	if (!strcmp(wl->kind, "DaemonSet"))
		return kp_err_set(c->err, KP_ERROR, "--scale '%s': %s/%s is a DaemonSet, which has one pod per node it "
				  "selects, not replicas (--add-nodes and --remove-nodes change them)", op->value, op->ns, op->wname);
	if (class_null)
		return kp_err_set(c->err, KP_ERROR, "--scale '%s': %s %s/%s has no pod template", op->value, wl->kind,
				  op->ns, op->wname);
	return KP_OK;
}

/* the workload's replicas in the scenario, in the order scaling down removes them */
static const char sql_replicas[] =
	"SELECT p.id, p.name, p.node_name, (SELECT n.name FROM main.node n JOIN temp.kp_whatif_moved m ON m.node_id = n.id "
	" WHERE m.pod_id = p.id), p.class_id, p.workload_id FROM temp.pod p\n"
	"WHERE p.namespace = ?2 AND p.phase NOT IN ('Succeeded', 'Failed') AND (p.workload_id = ?1 OR (p.workload_id IS NULL AND\n"
	" CASE WHEN ?4 = 'Deployment' THEN p.owner_kind = 'ReplicaSet' AND (p.owner_name IN (SELECT name FROM workload\n"
	"  WHERE kind = 'ReplicaSet' AND namespace = ?2 AND owner_kind = 'Deployment' AND owner_name = ?3)\n"
	"  OR (substr(p.owner_name, 1, length(?3) + 1) = ?3 || '-' AND instr(substr(p.owner_name, length(?3) + 2), '-') = 0))\n"
	" ELSE p.owner_kind = ?4 AND p.owner_name = ?3 END))\n"
	"ORDER BY CASE WHEN ?4 = 'StatefulSet' THEN -CAST(substr(p.name, length(?3) + 2) AS INTEGER) ELSE 0 END,\n"
	" p.node_name IS NOT NULL, p.terminating DESC, p.created DESC NULLS LAST, p.id DESC";

static int apply_scale(wctx *c, wi_op *op)
{
	wl_info wl;
	int rc = find_workload(c, op, &wl);
	if (rc) {
		kp_free(wl.labels);
		return rc;
	}
	int is_deploy = !strcmp(wl.kind, "Deployment"), is_sts = !strcmp(wl.kind, "StatefulSet");
	int is_job = !strcmp(wl.kind, "Job");
	/* the replicas now */
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql_replicas, -1, &s, NULL) != SQLITE_OK) {
		kp_free(wl.labels);
		return db_fail(c, "reading replicas");
	}
	sqlite3_bind_int64(s, 1, wl.id);
	sqlite3_bind_text(s, 2, op->ns, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, op->wname, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, wl.kind, -1, SQLITE_STATIC);
	int64_t current = 0;
	int step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW)
		current++;
	sqlite3_reset(s);
	if (step != SQLITE_DONE) {
		sqlite3_finalize(s);
		kp_free(wl.labels);
		return db_fail(c, "reading replicas");
	}
	kp_sb_printf(&op->effect, "%s %s/%s: ", wl.kind, op->ns, op->wname);
	if (op->relative) {
		/* NS/W=+N: parse_op left N in replicas; a fresh copy each apply */
		int64_t n = op->replicas;
		for (size_t i = strlen(op->value); i > 0; i--)
			if (op->value[i - 1] == '+') {
				n = strtoll(op->value + i, NULL, 10);
				break;
			}
		op->replicas = current + n;
	}
	if (current > op->replicas) {
		/* scale down: the first (current - replicas) in removal order */
		int64_t want = current - op->replicas, k = 0;
		sqlite3_stmt *del = NULL;
		if (sqlite3_prepare_v2(c->db, "INSERT OR REPLACE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id, "
					      "workload_id, node_name, seq) VALUES(?1, ?2, ?3, 'removed', ?4, ?5, ?6, ?7)",
				       -1, &del, NULL) != SQLITE_OK)
			rc = db_fail(c, "removing replicas");
		kp_sb names;
		kp_sb_init(&names);
		while (!rc && k < want && (step = sqlite3_step(s)) == SQLITE_ROW) {
			int64_t id = sqlite3_column_int64(s, 0);
			const char *name = (const char *)sqlite3_column_text(s, 1);
			if (k < 5)
				kp_sb_printf(&names, "%s%s", k ? ", " : "", name);
			k++;
			if (id < 0) {
				/* added earlier in this scenario: it never existed */
				if (exec2(c, "DELETE FROM temp.kp_whatif_pod WHERE pod_id = ?1", id, NULL, NULL))
					rc = c->err->code;
			} else {
				sqlite3_reset(del);
				sqlite3_bind_int64(del, 1, id);
				sqlite3_bind_text(del, 2, op->ns, -1, SQLITE_TRANSIENT);
				sqlite3_bind_text(del, 3, name, -1, SQLITE_TRANSIENT);
				sqlite3_bind_int64(del, 4, sqlite3_column_int64(s, 4));
				if (sqlite3_column_type(s, 5) != SQLITE_NULL)
					sqlite3_bind_int64(del, 5, sqlite3_column_int64(s, 5));
				else
					sqlite3_bind_null(del, 5);
				if (sqlite3_column_type(s, 2) != SQLITE_NULL)
					sqlite3_bind_value(del, 6, sqlite3_column_value(s, 2));
				else
					sqlite3_bind_value(del, 6, sqlite3_column_value(s, 3));
				sqlite3_bind_int(del, 7, op->seq);
				if (sqlite3_step(del) != SQLITE_DONE)
					rc = db_fail(c, "removing replicas");
			}
		}
		sqlite3_finalize(del);
		sqlite3_finalize(s);
		s = NULL;
		/* delete after reading: the query reads temp.pod */
		if (!rc && (exec2(c, "DELETE FROM temp.pod_label WHERE pod_id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE "
				     "seq = ?1 AND change = 'removed')", op->seq, NULL, NULL) ||
			    exec2(c, "DELETE FROM temp.kp_whatif_moved WHERE pod_id IN (SELECT pod_id FROM temp.kp_whatif_pod "
				     "WHERE seq = ?1 AND change = 'removed')", op->seq, NULL, NULL) ||
			    exec2(c, "DELETE FROM temp.pod WHERE id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1 "
				     "AND change = 'removed')", op->seq, NULL, NULL) ||
			    exec2(c, "DELETE FROM temp.pod_label WHERE pod_id < 0 AND pod_id NOT IN (SELECT pod_id FROM "
				     "temp.kp_whatif_pod)", 0, NULL, NULL) ||
			    exec2(c, "DELETE FROM temp.pod WHERE id < 0 AND id NOT IN (SELECT pod_id FROM temp.kp_whatif_pod)", 0, NULL, NULL)))
			rc = c->err->code;
		op->removed = k;
		kp_sb_printf(&op->effect, "%lld -> %lld replicas: %lld removed (%s%s)", (long long)current,
			     (long long)op->replicas, (long long)k, kp_sb_str(&names), k > 5 ? ", ..." : "");
		kp_sb_release(&names);
	} else if (current < op->replicas) {
		sqlite3_finalize(s);
		s = NULL;
		char owner[700], rev[700], idx[24];
		const char *owner_kind = wl.kind;
		snprintf(owner, sizeof owner, "%s", op->wname);
		if (is_deploy && wl.has_hash) {
			owner_kind = "ReplicaSet";
			snprintf(owner, sizeof owner, "%s-%s", op->wname, wl.hash);
		} else if (is_deploy) {
			owner_kind = "ReplicaSet";
		}
		snprintf(rev, sizeof rev, "%s-%s", op->wname, wl.hash);
		int64_t want = op->replicas - current, made = 0;
		kp_sb names;
		kp_sb_init(&names);
		for (int64_t i = 0; made < want && !rc; i++) {
			if (kp_interrupted) {
				rc = kp_err_set(c->err, KP_INTR, "interrupted");
				break;
			}
			char name[800], suffix[6];
			if (is_sts) {
				snprintf(name, sizeof name, "%s-%lld", op->wname, (long long)i);
			} else {
				if ((rc = pod_suffix(c, op->ns, owner, i, suffix)))
					break;
				snprintf(name, sizeof name, "%s-%s", owner, suffix);
			}
			int used = pod_name_used(c, op->ns, name);
			if (used < 0) {
				rc = c->err->code;
				break;
			}
			if (used)
				continue;   /* as the importer: the next index */
			new_pod p;
			memset(&p, 0, sizeof p);
			p.ns = op->ns;
			p.name = name;
			p.class_id = wl.class_id;
			p.workload_id = wl.id;
			p.batch = wl.batch;
			p.labels = wl.labels;
			p.owner_kind = owner_kind;
			p.owner_name = owner;
			p.owner_uid = is_deploy || !wl.has_uid ? NULL : wl.uid;
			snprintf(idx, sizeof idx, "%lld", (long long)i);
			if (is_deploy && wl.has_hash) {
				p.extra[p.nextra++] = "pod-template-hash";
				p.extra[p.nextra++] = wl.hash;
			}
			if (is_sts) {
				p.extra[p.nextra++] = "statefulset.kubernetes.io/pod-name";
				p.extra[p.nextra++] = name;
				p.extra[p.nextra++] = "apps.kubernetes.io/pod-index";
				p.extra[p.nextra++] = idx;
				if (wl.has_hash) {
					p.extra[p.nextra++] = "controller-revision-hash";
					p.extra[p.nextra++] = rev;
				}
			}
			if (is_job) {
				p.extra[p.nextra++] = "batch.kubernetes.io/job-name";
				p.extra[p.nextra++] = op->wname;
				p.extra[p.nextra++] = "job-name";
				p.extra[p.nextra++] = op->wname;
			}
			if ((rc = add_pod(c, op, &p)))
				break;
			if (made < 5)
				kp_sb_printf(&names, "%s%s", made ? ", " : "", name);
			made++;
		}
		op->added = made;
		kp_sb_printf(&op->effect, "%lld -> %lld replicas: %lld pending replica%s added (%s%s)", (long long)current,
			     (long long)op->replicas, (long long)made, made == 1 ? "" : "s", kp_sb_str(&names),
			     made > 5 ? ", ..." : "");
		kp_sb_release(&names);
	} else {
		kp_sb_printf(&op->effect, "already %lld replica%s: no change", (long long)current, current == 1 ? "" : "s");
	}
	sqlite3_finalize(s);
	kp_free(wl.labels);
	return rc;
}

/* ---- add-pods (kplan capacity --pod) ---- */

/* the class tables: the spec's class is copied from the file's database into
 * TEMP copies of them when the class is not there yet (the main schema is
 * only read: capacity works on a read-only database) */
static const char *const class_tables[] = { "pod_class", "class_request", "class_container", "class_node_selector",
					    "class_toleration", "class_node_term", "class_node_expr", "class_pod_affinity",
					    "class_spread", "class_port" };

static int shadow_once(wctx *c, const char *table);

static int copy_class(wctx *c, sqlite3 *m, int64_t class_id)
{
	int64_t have;
	if (query_int(c, "SELECT count(*) FROM pod_class WHERE id = ?1", class_id, NULL, &have))
		return c->err->code;
	if (have)
		return KP_OK;
	int rc = KP_OK;
	for (size_t t = 0; t < sizeof class_tables / sizeof *class_tables && !rc; t++) {
		if ((rc = shadow_once(c, class_tables[t])))
			break;
		char sql[160];
		snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE %s = ?1", class_tables[t], t ? "class_id" : "id");
		sqlite3_stmt *src = NULL, *dst = NULL;
		if (sqlite3_prepare_v2(m, sql, -1, &src, NULL) != SQLITE_OK)
			return kp_err_set(c->err, KP_IO, "--pod: %s", sqlite3_errmsg(m));
		sqlite3_bind_int64(src, 1, class_id);
		int ncols = sqlite3_column_count(src);
		kp_sb ins;
		kp_sb_init(&ins);
		kp_sb_printf(&ins, "INSERT OR IGNORE INTO temp.%s VALUES(?1", class_tables[t]);
		for (int j = 1; j < ncols; j++)
			kp_sb_printf(&ins, ", ?%d", j + 1);
		kp_sb_adds(&ins, ")");
		if (!kp_sb_ok(&ins))
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		else if (sqlite3_prepare_v2(c->db, kp_sb_str(&ins), -1, &dst, NULL) != SQLITE_OK)
			rc = db_fail(c, "adding the pod spec");
		kp_sb_release(&ins);
		while (!rc && sqlite3_step(src) == SQLITE_ROW) {
			sqlite3_reset(dst);
			for (int j = 0; j < ncols; j++)
				sqlite3_bind_value(dst, j + 1, sqlite3_column_value(src, j));
			if (sqlite3_step(dst) != SQLITE_DONE)
				rc = db_fail(c, "adding the pod spec");
		}
		sqlite3_finalize(src);
		sqlite3_finalize(dst);
	}
	return rc;
}

static int apply_add_pods(wctx *c, wi_op *op)
{
	sqlite3 *m = NULL;
	kp_whatif_counts st;
	int rc = import_in_memory(c, op->file, "--pod", op->file, &m, &st);
	if (rc == KP_NOMEM && !m)
		return rc;
	long pods = st.pods, wls = st.workloads, others = st.nodes + st.others;
	if (!rc && (!((pods == 1 && wls == 0) || wls == 1) || others)) {
		rc = kp_err_set(c->err, KP_ERROR, "--pod '%s': the file holds exactly one Pod or one workload (Deployment, "
				"StatefulSet, ReplicaSet, ReplicationController, Job, DaemonSet) and nothing else (it holds %ld "
				"pod%s, %ld workload%s and %ld other object%s)", op->file, pods, pods == 1 ? "" : "s", wls,
				wls == 1 ? "" : "s", others, others == 1 ? "" : "s");
	}
	/* the spec: the workload's pod template (as written), else the pod's */
	sqlite3_stmt *s = NULL;
	char *ns = NULL, *base = NULL, *labels = NULL;
	int64_t class_id = 0;
	if (!rc) {
		const char *sql = wls
			? "SELECT namespace, name, class_id, labels FROM workload WHERE class_id IS NOT NULL"
			: "SELECT p.namespace, p.name, p.class_id, (SELECT json_group_object(key, value) FROM pod_label l "
			  "WHERE l.pod_id = p.id) FROM pod p";
		if (sqlite3_prepare_v2(m, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
			ns = kp_strdup((const char *)sqlite3_column_text(s, 0));
			base = kp_strdup((const char *)sqlite3_column_text(s, 1));
			class_id = sqlite3_column_int64(s, 2);
			labels = kp_strdup(sqlite3_column_type(s, 3) == SQLITE_NULL ? "{}" : (const char *)sqlite3_column_text(s, 3));
			if (!ns || !base || !labels)
				rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		} else {
			rc = kp_err_set(c->err, KP_ERROR, "--pod '%s': the workload has no pod template", op->file);
		}
		sqlite3_finalize(s);
	}
	if (!rc)
		rc = copy_class(c, m, class_id);
	sqlite3_close(m);
	int64_t batch = 0;
	if (!rc && query_int(c, "SELECT COALESCE(max(id), 0) FROM import_batch", 0, NULL, &batch))
		rc = c->err->code;
	kp_sb names;
	kp_sb_init(&names);
	int64_t idx = 0;
	for (long made = 0; !rc && made < op->count;) {
		if (kp_interrupted) {
			rc = kp_err_set(c->err, KP_INTR, "interrupted");
			break;
		}
		char name[800];
		snprintf(name, sizeof name, "%s-capacity-%lld", base, (long long)++idx);
		int used = pod_name_used(c, ns, name);
		if (used < 0) {
			rc = c->err->code;
			break;
		}
		if (used)
			continue;
		new_pod p;
		memset(&p, 0, sizeof p);
		p.ns = ns;
		p.name = name;
		p.class_id = class_id;
		p.batch = batch;
		p.labels = labels;
		if ((rc = add_pod(c, op, &p)))
			break;
		if (made < 5)
			kp_sb_printf(&names, "%s%s", made ? ", " : "", name);
		made++;
		op->added = made;
	}
	if (!rc)
		kp_sb_printf(&op->effect, "%ld pending cop%s of %s/%s added (%s%s)", op->added, op->added == 1 ? "y" : "ies",
			     ns, base, kp_sb_str(&names), op->added > 5 ? ", ..." : "");
	kp_sb_release(&names);
	kp_free(ns);
	kp_free(base);
	kp_free(labels);
	return rc;
}

/* ---- --mode full ---- */

static int apply_full(wctx *c, wi_op *op)
{
	long n;
	if (exec2(c, "INSERT OR IGNORE INTO temp.kp_whatif_moved(pod_id, node_id, seq) SELECT p.id, n.id, ?1 "
		     "FROM temp.pod p JOIN temp.node n ON n.name = p.node_name "
		     "WHERE NOT " STAYING_POD " AND NOT " DONE_POD, op->seq, NULL, &n) ||
	    exec2(c, "UPDATE temp.pod SET node_name = NULL WHERE id IN (SELECT pod_id FROM temp.kp_whatif_moved "
		     "WHERE seq = ?1)", op->seq, NULL, NULL))
		return c->err->code;
	op->pending = n;
	kp_sb_printf(&op->effect, "%ld bound pod%s planned from scratch with the pending ones (DaemonSet, static, "
		     "finished and terminating pods stay)", n, n == 1 ? "" : "s");
	return KP_OK;
}

/* ---- --from-run ---- */

static int apply_from_run(wctx *c, wi_op *op)
{
	int64_t n = 0, whatif = 0;
	if (query_int(c, "SELECT count(*) FROM run WHERE id = ?1", op->count, NULL, &n))
		return c->err->code;
	if (!n)
		return kp_err_set(c->err, KP_ERROR, "--from-run %ld: no run %ld in the database", op->count, op->count);
	if (query_int(c, "SELECT json_extract(options, '$.whatif') IS NOT NULL FROM run WHERE id = ?1", op->count, NULL,
		      &whatif))
		return c->err->code;
	if (whatif)
		return kp_err_set(c->err, KP_ERROR, "--from-run %ld: run %ld planned a what-if scenario (%s), not the "
				  "imported cluster: start from a run without one", op->count, op->count,
				  "see run.options");
	long bound = 0, gone = 0, again = 0, unplaced = 0;
	/* bound where the run put them (a node removed since: pending); a
	 * bound pod it left unschedulable (--mode full) pending */
	if (exec2(c, "UPDATE temp.pod SET node_name = (SELECT n.name FROM placement pl JOIN main.node n ON n.id = pl.node_id "
		     "WHERE pl.run_id = ?1 AND pl.pod_id = temp.pod.id) WHERE id IN (SELECT pod_id FROM placement "
		     "WHERE run_id = ?1 AND action IN ('bind', 'move'))", op->count, NULL, &bound) ||
	    exec2(c, "UPDATE temp.pod SET node_name = NULL WHERE node_name IS NOT NULL AND id IN (SELECT pod_id FROM "
		     "placement WHERE run_id = ?1 AND action = 'unschedulable')", op->count, NULL, &unplaced) ||
	    /* victims: gone without a controller, else re-created, pending */
	    exec2(c, "DELETE FROM temp.pod_label WHERE pod_id IN (SELECT p.id FROM temp.pod p JOIN placement pl "
		     "ON pl.pod_id = p.id AND pl.run_id = ?1 AND pl.action = 'evict' "
		     "WHERE COALESCE(p.owner_kind, '') IN ('', 'Node'))", op->count, NULL, NULL) ||
	    exec2(c, "DELETE FROM temp.pod WHERE id IN (SELECT pod_id FROM placement WHERE run_id = ?1 AND action = 'evict') "
		     "AND COALESCE(owner_kind, '') IN ('', 'Node')", op->count, NULL, &gone) ||
	    exec2(c, "UPDATE temp.pod SET node_name = NULL WHERE id IN (SELECT pod_id FROM placement WHERE run_id = ?1 "
		     "AND action = 'evict')", op->count, NULL, &again))
		return c->err->code;
	again += unplaced;
	op->removed = gone;
	kp_sb_printf(&op->effect, "the state run %ld left: %ld pod%s it placed or moved bound there, %ld victim%s gone, "
		     "%ld re-created by %s controller%s and pending again", op->count, bound, bound == 1 ? "" : "s", gone,
		     gone == 1 ? "" : "s", again, again == 1 ? "its" : "their", again == 1 ? "" : "s");
	return KP_OK;
}

/* ---- --strategy ---- */

static void apply_strategy(kp_config *cfg, wi_op *op)
{
	for (int i = 0; i < cfg->nprofiles; i++) {
		kp_profile *p = &cfg->profiles[i];
		if (!p->score[KP_P_NODE_RESOURCES_FIT] || p->weight[KP_P_NODE_RESOURCES_FIT] <= 0) {
			p->score[KP_P_NODE_RESOURCES_FIT] = 1;
			p->weight[KP_P_NODE_RESOURCES_FIT] = 1;
		}
		p->strategy = op->strategy == STRAT_MOST ? KP_STRAT_MOST : KP_STRAT_LEAST;
		if (op->strategy == STRAT_BALANCED) {
			/* balanced: spread as LeastAllocated does, with each node's resources kept
			 * in proportion first: NodeResourcesBalancedAllocation at 3 times
			 * NodeResourcesFit's weight (README, What-if) */
			p->score[KP_P_BALANCED_ALLOCATION] = 1;
			p->weight[KP_P_BALANCED_ALLOCATION] = 3 * p->weight[KP_P_NODE_RESOURCES_FIT];
		}
	}
	static const char *const what[] = {
		"NodeResourcesFit LeastAllocated in every profile",
		"NodeResourcesFit MostAllocated in every profile",
		"NodeResourcesFit LeastAllocated and NodeResourcesBalancedAllocation at 3x its weight in every profile",
	};
	kp_sb_adds(&op->effect, what[op->strategy]);
}

/* ---- applying ---- */

/* remove-pods: the pods deleted (with their labels), recorded as removed */
static int apply_remove_pods(wctx *c, wi_op *op)
{
	long gone = 0;
	if (exec2(c, "INSERT OR IGNORE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id, workload_id, "
		     "node_name, seq) SELECT p.id, p.namespace, p.name, 'removed', p.class_id, p.workload_id, p.node_name, ?1 "
		     "FROM temp.pod p WHERE p.id IN (SELECT CAST(value AS INTEGER) FROM json_each('[' || ?2 || ']'))",
		  op->seq, op->value, &gone) ||
	    exec2(c, "DELETE FROM temp.pod_label WHERE pod_id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1 "
		     "AND change = 'removed')", op->seq, NULL, NULL) ||
	    exec2(c, "DELETE FROM temp.pod WHERE id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1 "
		     "AND change = 'removed')", op->seq, NULL, NULL))
		return c->err->code;
	op->removed = gone;
	kp_sb_printf(&op->effect, "%ld pod%s removed", gone, gone == 1 ? "" : "s");
	return KP_OK;
}

/* untaint: the NoSchedule/NoExecute taints with the key (and value) removed from every node */
static int apply_untaint(wctx *c, wi_op *op)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "DELETE FROM temp.node_taint WHERE key = ?1 AND (?2 IS NULL OR value = ?2) "
				      "AND effect IN ('NoSchedule', 'NoExecute')", -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "removing taints");
	sqlite3_bind_text(s, 1, op->node, -1, SQLITE_STATIC);
	bind_opt_text(s, 2, op->selector);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_fail(c, "removing taints");
	long n = sqlite3_changes(c->db);
	op->nodes = n;
	kp_sb_printf(&op->effect, "%ld taint%s removed", n, n == 1 ? "" : "s");
	return KP_OK;
}

static int shadow_once(wctx *c, const char *table)
{
	int64_t have = 0;
	if (query_int(c, "SELECT count(*) FROM temp.sqlite_schema WHERE type = 'table' AND name = ?2", 0, table, &have))
		return c->err->code;
	return !have && shadow(c, table) ? c->err->code : KP_OK;
}

/* relax node-affinity: in TEMP copies of class_node_expr, class_node_term and
 * pod_class (the static filter's SQL and its shared-verdict key in
 * planner/static.c read exactly these, so the class gets a key, and verdict,
 * of its own).  TERM.SEQ: that matchExpression (or matchField) of that
 * required term dropped; a term left with none is dropped too (an empty term
 * matches nothing), and with no required term left the class has no required
 * node affinity.  all: every required term dropped. */
static int relax_node_affinity(wctx *c, wi_op *op)
{
	if (shadow_once(c, "class_node_expr") || shadow_once(c, "class_node_term") || shadow_once(c, "pod_class"))
		return c->err->code;
	long n = 0, m = 0;
	if (!strcmp(op->wname, "all")) {
		if (exec2(c, "UPDATE temp.pod_class SET has_required_node_affinity = 0 WHERE id = ?1 "
			     "AND has_required_node_affinity", op->replicas, NULL, &n) ||
		    exec2(c, "DELETE FROM temp.class_node_expr WHERE class_id = ?1 AND required = 1", op->replicas, NULL, NULL) ||
		    exec2(c, "DELETE FROM temp.class_node_term WHERE class_id = ?1 AND required = 1", op->replicas, NULL, NULL))
			return c->err->code;
	} else {
		if (exec2(c, "DELETE FROM temp.class_node_expr WHERE class_id = ?1 AND required = 1 "
			     "AND term = CAST(substr(?2, 1, instr(?2, '.') - 1) AS INTEGER) "
			     "AND seq = CAST(substr(?2, instr(?2, '.') + 1) AS INTEGER)", op->replicas, op->wname, &n))
			return c->err->code;
		if (n && (exec2(c, "DELETE FROM temp.class_node_term WHERE class_id = ?1 AND required = 1 "
				   "AND term = CAST(substr(?2, 1, instr(?2, '.') - 1) AS INTEGER) AND NOT EXISTS (SELECT 1 "
				   "FROM temp.class_node_expr e WHERE e.class_id = ?1 AND e.required = 1 "
				   "AND e.term = CAST(substr(?2, 1, instr(?2, '.') - 1) AS INTEGER))", op->replicas, op->wname,
				   &m) ||
			  (m && exec2(c, "UPDATE temp.pod_class SET has_required_node_affinity = 0 WHERE id = ?1 AND NOT EXISTS "
					"(SELECT 1 FROM temp.class_node_term t WHERE t.class_id = ?1 AND t.required = 1)",
				      op->replicas, NULL, NULL))))
			return c->err->code;
	}
	op->removed = n;
	kp_sb_printf(&op->effect, "%ld constraint%s relaxed", n, n == 1 ? "" : "s");
	return KP_OK;
}

/* relax: one constraint of a class, in a TEMP copy of its table */
static int apply_relax(wctx *c, wi_op *op)
{
	if (!strcmp(op->wkind, "node-affinity"))
		return relax_node_affinity(c, op);
	const char *table = !strcmp(op->wkind, "node-selector") ? "class_node_selector"
			    : !strcmp(op->wkind, "spread") ? "class_spread" : "class_pod_affinity";
	int64_t have = 0;
	if (query_int(c, "SELECT count(*) FROM temp.sqlite_schema WHERE type = 'table' AND name = ?2", 0, table, &have))
		return c->err->code;
	if (!have && shadow(c, table))
		return c->err->code;
	const char *sql = !strcmp(op->wkind, "node-selector")
		? "DELETE FROM temp.class_node_selector WHERE class_id = ?1 AND key = ?2"
		: !strcmp(op->wkind, "spread")
		? "UPDATE temp.class_spread SET max_skew = max_skew + 1 WHERE class_id = ?1 AND seq = CAST(?2 AS INTEGER)"
		: "DELETE FROM temp.class_pod_affinity WHERE class_id = ?1 AND seq = CAST(?2 AS INTEGER) AND required";
	long n = 0;
	if (exec2(c, sql, op->replicas, op->wname, &n))
		return c->err->code;
	op->removed = n;
	kp_sb_printf(&op->effect, "%ld constraint%s relaxed", n, n == 1 ? "" : "s");
	return KP_OK;
}

int kp_whatif_apply(sqlite3 *db, kp_whatif *w, kp_config *cfg, kp_err *err)
{
	if (kp_whatif_empty(w))
		return KP_OK;
	kp_sort(w->ops, (size_t)w->nops, sizeof *w->ops, cmp_apply, NULL);
	int tables = 0;
	for (int i = 0; i < w->nops; i++) {
		wi_op *op = &w->ops[i];
		op->seq = i + 1;
		op->nodes = op->pending = op->added = op->removed = 0;
		op->nothing_selected = 0;
		kp_sb_reset(&op->effect);
		kp_sb_reset(&op->result);
		tables |= op->kind != WI_STRATEGY;
	}
	w->nodes_made = w->pods_made = 0;
	wctx c = { db, w, err, { NULL } };
	int rc = KP_OK;
	if (tables && (rc = make_tables(&c)) == KP_OK)
		w->tables = 1;
	for (int i = 0; i < w->nops && !rc; i++) {
		wi_op *op = &w->ops[i];
		switch (op->kind) {
		case WI_FROM_RUN: rc = apply_from_run(&c, op); break;
		case WI_REMOVE: rc = apply_remove(&c, op); break;
		case WI_CORDON: rc = apply_cordon(&c, op, 0); break;
		case WI_DRAIN: rc = apply_cordon(&c, op, 1); break;
		case WI_ADD: rc = apply_add(&c, op); break;
		case WI_SCALE: rc = apply_scale(&c, op); break;
		case WI_ADD_PODS: rc = apply_add_pods(&c, op); break;
		case WI_REMOVE_PODS: rc = apply_remove_pods(&c, op); break;
		case WI_UNTAINT: rc = apply_untaint(&c, op); break;
		case WI_RELAX: rc = apply_relax(&c, op); break;
		case WI_MODE: rc = apply_full(&c, op); break;
		case WI_STRATEGY: apply_strategy(cfg, op); break;
		}
		if (!rc && !kp_sb_ok(&op->effect))
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
	}
	for (int i = 0; i < Q_COUNT; i++)
		sqlite3_finalize(c.q[i]);
	return rc;
}

/* ---- recording ---- */

/* Run schema.sql's what-if section (CREATE TABLE IF NOT EXISTS ...) and bring
 * the views that name scenario objects up to date: databases made before
 * the section existed get it here. */
static int ensure_schema(wctx *c)
{
	if (kp_db_schema_section(c->db, "what-if", "what-if tables", c->err))
		return c->err->code;
	static const char *const views[] = { "plan_all", "unschedulable" };
	for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
		int64_t current;
		if (query_int(c, "SELECT count(*) FROM main.sqlite_schema WHERE type = 'view' AND name = ?2 "
				 "AND sql LIKE '%run_pod%'", 0, views[i], &current))
			return c->err->code;
		if (current)
			continue;
		char head[64];
		snprintf(head, sizeof head, "\nCREATE VIEW %s AS", views[i]);
		const char *v = strstr(kp_schema_sql, head), *e = v ? strstr(v, ";\n") : NULL;
		if (!v || !e)
			return kp_err_set(c->err, KP_ERROR, "internal error: no view %s in the schema", views[i]);
		kp_sb sql;
		kp_sb_init(&sql);
		kp_sb_printf(&sql, "DROP VIEW IF EXISTS main.%s;%.*s;", views[i], (int)(e - v), v);
		int rc = kp_sb_ok(&sql) ? sqlite3_exec(c->db, kp_sb_str(&sql), NULL, NULL, NULL) : SQLITE_NOMEM;
		kp_sb_release(&sql);
		if (rc != SQLITE_OK)
			return db_fail(c, "updating the plan views");
	}
	return KP_OK;
}

/* "3 move, 1 unschedulable": the run's actions for the pods a query lists (?1 run, ?2 seq) */
static int add_actions(wctx *c, kp_sb *sb, const char *sql, int64_t run, int seq)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_fail(c, "reading the run");
	sqlite3_bind_int64(s, 1, run);
	sqlite3_bind_int(s, 2, seq);
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		kp_sb_printf(sb, "%s%lld %s", n++ ? ", " : "", (long long)sqlite3_column_int64(s, 1),
			     (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_fail(c, "reading the run");
	if (!n)
		kp_sb_adds(sb, "none");
	return KP_OK;
}

static int results(wctx *c, wi_op *op, int64_t run)
{
	kp_sb *r = &op->result;
	if (op->pending) {
		kp_sb_adds(r, "pods made pending: ");
		if (add_actions(c, r, "SELECT pl.action, count(*) FROM temp.kp_whatif_moved m JOIN placement pl ON pl.run_id = ?1 "
				      "AND pl.pod_id = m.pod_id WHERE m.seq = ?2 GROUP BY pl.action ORDER BY pl.action", run, op->seq))
			return c->err->code;
	}
	if (op->kind == WI_ADD) {
		int64_t pods, used;
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(c->db, "SELECT count(*), count(DISTINCT pl.node_id) FROM placement pl JOIN temp.kp_whatif_node n "
					      "ON n.node_id = pl.node_id AND n.seq = ?2 AND n.change = 'added' WHERE pl.run_id = ?1 "
					      "AND pl.action IN ('keep', 'bind', 'move')", -1, &s, NULL) != SQLITE_OK)
			return db_fail(c, "reading the run");
		sqlite3_bind_int64(s, 1, run);
		sqlite3_bind_int(s, 2, op->seq);
		int step = sqlite3_step(s);
		pods = step == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
		used = step == SQLITE_ROW ? sqlite3_column_int64(s, 1) : 0;
		sqlite3_finalize(s);
		if (step != SQLITE_ROW)
			return db_fail(c, "reading the run");
		if (op->nodes == 1)
			kp_sb_printf(r, "%lld pod%s placed on the added node", (long long)pods, pods == 1 ? "" : "s");
		else
			kp_sb_printf(r, "%lld pod%s placed on %lld of the %ld added nodes", (long long)pods, pods == 1 ? "" : "s",
				     (long long)used, (long)op->nodes);
	}
	if ((op->kind == WI_SCALE || op->kind == WI_ADD_PODS) && op->added) {
		kp_sb_adds(r, "replicas added: ");
		if (add_actions(c, r, "SELECT pl.action, count(*) FROM temp.kp_whatif_pod p JOIN placement pl ON pl.run_id = ?1 "
				      "AND pl.pod_id = p.pod_id WHERE p.seq = ?2 AND p.change = 'added' GROUP BY pl.action "
				      "ORDER BY pl.action", run, op->seq))
			return c->err->code;
	}
	return kp_sb_ok(r) ? KP_OK : kp_err_set(c->err, KP_NOMEM, "out of memory");
}

int kp_whatif_record(sqlite3 *db, kp_whatif *w, int64_t run_id, kp_err *err)
{
	if (kp_whatif_empty(w))
		return KP_OK;
	wctx c = { db, w, err, { NULL } };
	if (ensure_schema(&c))
		return err->code;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "INSERT INTO run_scenario(run_id, seq, option, value, nodes, pods_pending, pods_added, "
				   "pods_removed, effect, result) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &s,
			       NULL) != SQLITE_OK)
		return db_fail(&c, "recording the scenario");
	int rc = KP_OK;
	for (int i = 0; i < w->nops && !rc; i++) {
		wi_op *op = &w->ops[i];
		if (w->tables && (rc = results(&c, op, run_id)))
			break;
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_int(s, 2, op->seq);
		sqlite3_bind_text(s, 3, kind_names[op->kind], -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, op->value, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 5, op->nodes);
		sqlite3_bind_int64(s, 6, op->pending);
		sqlite3_bind_int64(s, 7, op->added);
		sqlite3_bind_int64(s, 8, op->removed);
		sqlite3_bind_text(s, 9, kp_sb_str(&op->effect), -1, SQLITE_STATIC);
		if (op->result.len)
			sqlite3_bind_text(s, 10, kp_sb_str(&op->result), -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(s, 10);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = db_fail(&c, "recording the scenario");
	}
	sqlite3_finalize(s);
	if (rc)
		return rc;
	if (w->tables &&
	    (exec2(&c, "INSERT INTO run_node(run_id, node_id, name, change, seq) SELECT ?1, node_id, name, change, seq "
		       "FROM temp.kp_whatif_node", run_id, NULL, NULL) ||
	     exec2(&c, "INSERT INTO run_pod(run_id, pod_id, namespace, name, change, class_id, workload_id, node_name, seq) "
		       "SELECT ?1, pod_id, namespace, name, change, class_id, workload_id, node_name, seq "
		       "FROM temp.kp_whatif_pod", run_id, NULL, NULL)))
		return err->code;
	for (int i = 0; i < w->nops; i++)
		if (w->ops[i].kind == WI_MODE && exec2(&c, "UPDATE run SET mode = 'full' WHERE id = ?1", run_id, NULL, NULL))
			return err->code;
	return KP_OK;
}

void kp_whatif_print(const kp_whatif *w, FILE *out, FILE *warn)
{
	if (kp_whatif_empty(w))
		return;
	for (int i = 0; i < w->nops; i++) {
		const wi_op *op = &w->ops[i];
		if (warn && op->nothing_selected)
			fprintf(warn, "kplan: warning: --%s '%s' selects no node%s\n", kind_names[op->kind], op->value,
				op->node ? " (it is removed by --remove-nodes)" : "");
		if (out)
			fprintf(out, "what-if --%s %s: %s%s%s\n", kind_names[op->kind], op->value, kp_sb_str(&op->effect),
				op->result.len ? "; " : "", kp_sb_str(&op->result));
	}
}
