/*
 * fix_relax.c — kplan fix's relaxations, each checked with a dry run:
 *
 *   relax-soft   a DoNotSchedule spread constraint's maxSkew + 1 (what-if
 *                relax CLASS:spread:SEQ), when the pod's reasons name
 *                PodTopologySpread;
 *   relax-hard   an untolerated NoSchedule/NoExecute taint the pod's reasons
 *                name ("node(s) had untolerated taint {KEY: VALUE}"; from 1.35 the
 *                reason names none: queries/fix/taint_reasons.sql finds it), removed
 *                from every node that has it (untaint KEY=VALUE), when it is
 *                not dedicated (below); then one constraint of the pod's class
 *                (queries/fix/relax_class.sql): a nodeSelector key, one
 *                required node affinity expression, else — only when no single
 *                expression helps — the whole required node affinity, a
 *                required pod (anti-)affinity term;
 *   untaint-dedicated  such a taint that marks a node dedicated to something
 *                the pod does not use (kp_fix_dedicated; fix.h defines it).
 *
 * What is checked for a taint is the taint gone for every pod (a toleration on
 * this pod alone is not the same change); for a constraint, the class relaxed
 * for every pod of its spec.
 */
#include "fix_int.h"

#include <string.h>
#include <stdio.h>

static int class_index(const kp_snap *s, int64_t db_id)
{
	for (int i = 0; i < s->nclasses; i++)
		if (s->classes[i].db_id == db_id)
			return i;
	return -1;
}

/* the class selects key or value (nodeSelector, required node affinity expressions) */
static int class_names(const kp_snap *s, const kp_class *c, const char *key, const char *value)
{
	for (uint32_t i = 0; i < c->nnsel; i++)
		if (!strcmp(kp_str(&s->strs, c->nsel[i].key), key) || (*value && !strcmp(kp_str(&s->strs, c->nsel[i].value), value)))
			return 1;
	for (uint32_t t = 0; t < c->nrequired; t++)
		for (uint32_t e = 0; e < c->required[t].nexprs; e++) {
			const kp_sreq *r = &c->required[t].exprs[e];
			if (!strcmp(kp_str(&s->strs, r->key), key))
				return 1;
			for (uint32_t v = 0; v < r->nvals && *value; v++)
				if (!strcmp(kp_str(&s->strs, r->vals[v]), value))
					return 1;
		}
	return 0;
}

static int has_taint(const kp_snap *s, int n, const char *key, const char *value)
{
	for (uint32_t k = 0; k < s->ntaints[n]; k++) {
		const kp_taint *x = &s->taints[n][k];
		if ((x->effect == KP_EFFECT_NOSCHEDULE || x->effect == KP_EFFECT_NOEXECUTE) &&
		    !strcmp(kp_str(&s->strs, x->key), key) && !strcmp(kp_str(&s->strs, x->value), value))
			return 1;
	}
	return 0;
}

/* (a): KEY is an extended resource node n has and class c does not request */
static int unused_resource(const kp_snap *s, const kp_class *c, int n, const char *key)
{
	for (int r = 4; r < s->nres; r++) {
		if (strcmp(kp_str(&s->strs, s->res_name[r]), key) || s->alloc[(size_t)n * (size_t)s->nres + r] <= 0)
			continue;
		for (uint32_t k = 0; k < c->nreq; k++)
			if (c->req_res[k] == r && c->req_val[k] > 0)
				return 0;
		return 1;
	}
	return 0;
}

/* (b): KEY marks a role the class does not select */
static int unused_role(const kp_snap *s, const kp_class *c, const char *key, const char *value)
{
	static const char role[] = "node-role.kubernetes.io/";
	size_t kl = strlen(key);
	int is_role = !strcmp(key, "dedicated") || (kl > 10 && !strcmp(key + kl - 10, "/dedicated")) ||
		      !strncmp(key, role, sizeof role - 1);
	if (!is_role || class_names(s, c, key, value))
		return 0;
	return strncmp(key, role, sizeof role - 1) || !class_names(s, c, key, key + sizeof role - 1);
}

int kp_fix_dedicated(fixer *f, const kp_fix_pod *t, const char *key, const char *value, kp_sb *why)
{
	const kp_snap *s = &f->s;
	int ci = class_index(s, t->class_id);
	if (ci < 0)
		return 0;
	const kp_class *c = &s->classes[ci];
	for (int n = 0; n < s->nnodes; n++) {
		if (!has_taint(s, n, key, value))
			continue;
		const char *node = kp_str(&s->strs, s->node_name[n]);
		if (unused_resource(s, c, n, key)) {
			kp_sb_printf(why, "%s is dedicated to %s, which this pod does not request", node, key);
			return 1;
		}
		if (unused_role(s, c, key, value)) {
			kp_sb_printf(why, "%s is dedicated to %s%s%s, which this pod does not select", node, key, *value ? "=" : "",
				     value);
			return 1;
		}
	}
	return 0;
}

/* ---- taints ---- */

/* check untaint KEY=VALUE for t; a candidate when it places the pod */
static int check_taint(fixer *f, kp_fix_pod *t, int ti, sqlite3_stmt *qn, const char *key, const char *value,
		       int level, const char *why)
{
	kp_sb kv, d;
	kp_sb_init(&kv);
	kp_sb_init(&d);
	kp_sb_printf(&kv, "%s=%s", key, value);
	int rc = kp_sb_ok(&kv) ? KP_OK : kp_fix_nomem(f);
	if (!rc) {
		char *extra[2] = { "untaint", (char *)kp_sb_str(&kv) };
		rc = kp_fix_plan(f, extra, 1);
	}
	if (!rc && f->placed[ti]) {
		sqlite3_reset(qn);
		sqlite3_bind_text(qn, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(qn, 2, value, -1, SQLITE_TRANSIENT);
		const char *eff = NULL, *nodes = NULL;
		if (sqlite3_step(qn) == SQLITE_ROW) {
			eff = (const char *)sqlite3_column_text(qn, 0);
			nodes = (const char *)sqlite3_column_text(qn, 1);
		}
		kp_sb_printf(&d, "remove taint %s:%s from %s", kp_sb_str(&kv), eff ? eff : "NoSchedule", nodes ? nodes : "its nodes");
		if (why)
			kp_sb_printf(&d, " (last resort: %s)", why);
		rc = kp_sb_ok(&d) ? kp_fix_add_cand(f, t, "relax", level, kp_sb_str(&d), "[]", "untaint", kp_sb_str(&kv), ti)
				  : kp_fix_nomem(f);
	}
	kp_sb_release(&kv);
	kp_sb_release(&d);
	return rc;
}

/* the taints the pod's failure reasons name, dedicated ones (level
 * untaint-dedicated) or the others (relax-hard) */
static int try_taints(fixer *f, kp_fix_pod *t, int ti, int level)
{
	static const char pre[] = "node(s) had untolerated taint {";
	sqlite3_stmt *s, *qn;
	if (sqlite3_prepare_v2(f->db, kp_sql_fix_taint_reasons, -1, &s, NULL) != SQLITE_OK)
		return kp_fix_dbfail(f);
	if (sqlite3_prepare_v2(f->db, kp_sql_fix_taint_nodes, -1, &qn, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		return kp_fix_dbfail(f);
	}
	sqlite3_bind_int64(s, 1, f->r->run);
	sqlite3_bind_int64(s, 2, t->id);
	/* read the reasons first: the checks use the connection */
	kp_sb keys;
	kp_sb_init(&keys);
	int n = 0, rc = KP_OK;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(s, 0);
		if (!r || strncmp(r, pre, sizeof pre - 1))
			continue;
		const char *k = r + sizeof pre - 1, *sep = strstr(k, ": "), *end = strrchr(k, '}');
		if (!sep || !end || end < sep + 2 || sep == k || sep - k > 250 || end - sep - 2 > 250)
			continue;
		kp_sb_add(&keys, k, (size_t)(sep - k));
		kp_sb_addc(&keys, 0);
		kp_sb_add(&keys, sep + 2, (size_t)(end - sep - 2));
		kp_sb_addc(&keys, 0);
		n++;
	}
	sqlite3_finalize(s);
	if (!kp_sb_ok(&keys))
		rc = kp_fix_nomem(f);
	const char *p = kp_sb_str(&keys);
	for (int i = 0; i < n && !rc && !kp_fix_full(f, t); i++) {
		const char *key = p, *value = p + strlen(p) + 1;
		p = value + strlen(value) + 1;
		kp_sb why;
		kp_sb_init(&why);
		int ded = kp_fix_dedicated(f, t, key, value, &why);
		if (ded == (level == KP_FIX_UNTAINT_DEDICATED))
			rc = kp_sb_ok(&why) ? check_taint(f, t, ti, qn, key, value, level, ded ? kp_sb_str(&why) : NULL)
					    : kp_fix_nomem(f);
		kp_sb_release(&why);
	}
	kp_sb_release(&keys);
	sqlite3_finalize(qn);
	return rc;
}

/* ---- constraints of the pod's class ---- */

static int try_class(fixer *f, kp_fix_pod *t, int ti, int level)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(f->db, kp_sql_fix_relax_class, -1, &s, NULL) != SQLITE_OK)
		return kp_fix_dbfail(f);
	sqlite3_bind_int64(s, 1, f->r->run);
	sqlite3_bind_int64(s, 2, t->id);
	sqlite3_bind_int64(s, 3, t->class_id);
	/* read every candidate first: the checks use the connection */
	kp_sb what, detail;
	kp_sb_init(&what);
	kp_sb_init(&detail);
	int n = 0, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		/* the query's 3 loosens a rule, 4 drops one (relax_class.sql) */
		if ((sqlite3_column_int(s, 3) == 3 ? KP_FIX_RELAX_SOFT : KP_FIX_RELAX_HARD) != level)
			continue;
		kp_sb_printf(&what, "%lld:%s:%s", (long long)t->class_id, sqlite3_column_text(s, 0), sqlite3_column_text(s, 1));
		kp_sb_addc(&what, 0);
		const unsigned char *dt = sqlite3_column_text(s, 2);
		kp_sb_printf(&detail, "%s (for every pod of its spec)", dt ? (const char *)dt : "");
		kp_sb_addc(&detail, 0);
		n++;
	}
	int rc = step == SQLITE_DONE ? KP_OK : kp_fix_dbfail(f);
	sqlite3_finalize(s);
	if (!rc && (!kp_sb_ok(&what) || !kp_sb_ok(&detail)))
		rc = kp_fix_nomem(f);
	const char *w = kp_sb_str(&what), *d = kp_sb_str(&detail);
	int expr_helped = 0;
	for (int i = 0; i < n && !rc && !kp_fix_full(f, t); i++) {
		/* w: CLASS:KIND:NAME */
		const char *kind = strchr(w, ':') + 1;
		int na = !strncmp(kind, "node-affinity:", 14), all = na && !strcmp(kind + 14, "all");
		/* the whole required node affinity only when no single expression helps */
		if (!(all && expr_helped)) {
			char *extra[2] = { "relax", (char *)w };
			rc = kp_fix_plan(f, extra, 1);
			if (!rc && f->placed[ti]) {
				expr_helped |= na;
				rc = kp_fix_add_cand(f, t, "relax", level, d, "[]", "relax", w, ti);
			}
		}
		w += strlen(w) + 1;
		d += strlen(d) + 1;
	}
	kp_sb_release(&what);
	kp_sb_release(&detail);
	return rc;
}

int kp_fix_try_relax(fixer *f, kp_fix_pod *t, int ti, int level)
{
	if (level == KP_FIX_RELAX_SOFT)
		return try_class(f, t, ti, level);
	if (level == KP_FIX_UNTAINT_DEDICATED)
		return try_taints(f, t, ti, level);
	int rc = try_taints(f, t, ti, level);
	return rc || kp_fix_full(f, t) ? rc : try_class(f, t, ti, level);
}
