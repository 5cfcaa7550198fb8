/*
 * whatif_parse.c — the syntax of each what-if option (kp_whatif_add calls
 * wi_parse_op): node names and kubectl label selectors (--remove-nodes,
 * --cordon, --drain), FILE[:COUNT] (--add-nodes, add-pods),
 * NS/[KIND/]NAME=[+]N (--scale), and kplan fix's and capacity's own options.
 * Nothing here reads the database: a syntax error is KP_USAGE with a message
 * naming the option and the value ("--scale 'x': ..."); what needs the
 * cluster (an unknown node or workload, a bad file) is the apply functions'.
 */
#include "whatif_int.h"
#include "scores.h"
#include "../common/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>

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

static int nomem(kp_err *err) { return kp_err_set(err, KP_NOMEM, "out of memory"); }

/* --remove-nodes, --cordon, --drain: a node's name, or a label selector when
 * the value has an operator, a comma or a space */
static int parse_nodes(wi_op *op, const char *option, const char *v, kp_err *err)
{
	if (!*v)
		return usage(err, option, v, "needs a node name or a label selector");
	int sel = 0;
	for (const char *p = v; *p; p++)
		sel |= special(*p) || isspace((unsigned char)*p);
	if (!sel) {
		/* no operator: a node's name */
		if (!(op->node = kp_strdup(v)))
			return nomem(err);
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
		return nomem(err);
	}
	kp_sb_release(&json);
	return KP_OK;
}

/* --add-nodes, add-pods: FILE or FILE:COUNT (a FILE that exists with a colon
 * in its name is a FILE) */
static int parse_file_count(wi_op *op, const char *option, const char *v, kp_err *err)
{
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
		return nomem(err);
	return KP_OK;
}

/* the KIND of NS/KIND/NAME, as kubectl spells it (deploy, sts, ...) */
static int parse_workload_kind(wi_op *op, const char *option, const char *v, const char *s1, const char *s2,
			       kp_err *err)
{
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
	return KP_OK;
}

/* --scale NS/[KIND/]NAME=N or =+N */
static int parse_scale(wi_op *op, const char *option, const char *v, kp_err *err)
{
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
		return nomem(err);
	return s2 ? parse_workload_kind(op, option, v, s1, s2, err) : KP_OK;
}

/* remove-pods ID,ID,...: positive integers */
static int parse_remove_pods(const char *option, const char *v, kp_err *err)
{
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

/* untaint KEY or KEY=VALUE */
static int parse_untaint(wi_op *op, const char *option, const char *v, kp_err *err)
{
	const char *eq = strchr(v, '=');
	if (!*v || eq == v)
		return usage(err, option, v, "expected a taint KEY or KEY=VALUE");
	op->node = eq ? kp_strndup(v, (size_t)(eq - v)) : kp_strdup(v);   /* the key */
	op->selector = eq ? kp_strdup(eq + 1) : NULL;                      /* the value */
	if (!op->node || (eq && !op->selector))
		return nomem(err);
	return KP_OK;
}

/* relax CLASS:WHAT:ARG */
static int parse_relax(wi_op *op, const char *option, const char *v, kp_err *err)
{
	static const char relax_usage[] = "expected CLASS:node-selector:KEY, CLASS:spread:SEQ, CLASS:affinity:SEQ, "
					  "CLASS:node-affinity:TERM.SEQ or CLASS:node-affinity:all";
	const char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	char *end;
	errno = 0;
	long long id = strtoll(v, &end, 10);
	if (!c1 || !c2 || end != c1 || errno || !c2[1])
		return usage(err, option, v, "%s", relax_usage);
	op->replicas = id;
	op->wkind = kp_strndup(c1 + 1, (size_t)(c2 - c1 - 1));
	op->wname = kp_strdup(c2 + 1);
	if (!op->wkind || !op->wname)
		return nomem(err);
	if (strcmp(op->wkind, "node-selector") && strcmp(op->wkind, "spread") && strcmp(op->wkind, "affinity") &&
	    strcmp(op->wkind, "node-affinity"))
		return usage(err, option, v, "%s", relax_usage);
	if (!strcmp(op->wkind, "node-affinity") && strcmp(op->wname, "all")) {
		long long term, seq;
		char tail;
		if (sscanf(op->wname, "%lld.%lld%c", &term, &seq, &tail) != 2 || term < 0 || seq < 0)
			return usage(err, option, v, "%s", relax_usage);
	}
	return KP_OK;
}

/* from-run N: a run id */
static int parse_from_run(wi_op *op, const char *option, const char *v, kp_err *err)
{
	char *end;
	errno = 0;
	long long id = strtoll(v, &end, 10);
	if (!*v || *end || errno || id <= 0)
		return usage(err, option, v, "needs a run id (a positive integer)");
	op->count = (long)id;
	return KP_OK;
}

int wi_parse_op(wi_op *op, const char *option, const char *v, kp_err *err)
{
	switch (op->kind) {
	case WI_REMOVE:
	case WI_CORDON:
	case WI_DRAIN: return parse_nodes(op, option, v, err);
	case WI_ADD:
	case WI_ADD_PODS: return parse_file_count(op, option, v, err);
	case WI_SCALE: return parse_scale(op, option, v, err);
	case WI_REMOVE_PODS:
	case WI_MOVE_PODS: return parse_remove_pods(option, v, err);
	case WI_UNTAINT: return parse_untaint(op, option, v, err);
	case WI_RELAX: return parse_relax(op, option, v, err);
	case WI_FROM_RUN: return parse_from_run(op, option, v, err);
	case WI_MODE:
		if (strcmp(v, "full") && strcmp(v, "pending"))
			return usage(err, option, v, "the mode is 'pending' (the default: plan the pending pods), 'full' "
				     "(plan every pod from scratch) or 'rebalance' (propose moves)");
		return KP_OK;
	case WI_STRATEGY:
		for (int i = 0; i < WI_NSTRATS; i++)
			if (!strcmp(v, wi_strat_names[i])) {
				op->strategy = i;
				return KP_OK;
			}
		{
			const char *near = kp_closest(v, wi_strat_names, WI_NSTRATS);
			return usage(err, option, v, "the strategy is least, most, balanced, fgd, gpu-pack or kube-1.20%s%s%s",
				     near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		}
	}
	return KP_OK;
}
