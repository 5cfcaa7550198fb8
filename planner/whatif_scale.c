/*
 * whatif_scale.c — --scale NS/[KIND/]NAME=N (or =+N: N more than now;
 * whatif.h): the workload's replicas (its live pods and the pods generated at
 * import, not finished) brought to N.
 *
 *  - up: new pending pods named as the importer names them (NAME-ORDINAL for
 *    a StatefulSet, else OWNER-SUFFIX with the importer's suffix, the first
 *    free index), with the labels its controller gives them;
 *  - down: the surplus removed — StatefulSet: highest ordinal first; others,
 *    roughly as the ReplicaSet controller: pending ones first, then
 *    terminating, then the newest, then the last imported
 *    (queries/whatif/scale_replicas.sql).
 * A DaemonSet has no replicas (--add-nodes and --remove-nodes change them);
 * an ambiguous name needs its KIND.
 *
 * Volumes: when the workload's template has volumes or volumeClaimTemplates,
 * the scenario gets TEMP copies of pod_volume and pvc (and of the workload
 * volume tables it reads), and an added replica its volumes and claims as
 * the importer gives a generated pod them: the template's volumes (an
 * ephemeral one's claim <pod>-<volume>, owner Pod), a StatefulSet's claims
 * <template>-<set>-<ordinal> (owner StatefulSet), made (generated = 1,
 * negative ids) when no claim of that name exists.  A removed replica's
 * volumes and the claims it owns go with it; a StatefulSet's claims stay
 * (kube's default retention policy, Retain).
 *
 * Resource claims: when the template (or a replica) names resourceClaims and
 * the database has DRA tables, TEMP copies of pod_resource_claim and
 * resource_claim, and an added replica gets the template's entries and a
 * claim of its own per ResourceClaimTemplate (whatif_dra.c); a removed
 * replica's entries and the claims it owns (owner Pod) go with it, a claim
 * it names by resourceClaimName stays.
 */
#include "whatif_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_scale_workload, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "reading workloads");
	sqlite3_bind_text(s, 1, op->ns, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, op->wname, -1, SQLITE_STATIC);
	wi_bind_opt_text(s, 3, op->wkind);
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
		return wi_db_fail(c, "reading workloads");
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

/* ---- volumes ---- */

/* 1 in *has when workload wid's template has volumes or volumeClaimTemplates:
 * the scenario then has TEMP copies of the volume and claim tables
 * (wi_storage_shadow); 0 when not, or when the database has no storage
 * tables */
static int volumes_shadow(wctx *c, int64_t wid, int *has)
{
	int known = 0;
	int64_t any = 0;
	*has = 0;
	if (wi_storage_known(c, &known))
		return c->err->code;
	if (!known)
		return KP_OK;
	if (wi_query_int(c, kp_sql_whatif_scale_has_volumes, wid, NULL, &any))
		return c->err->code;
	if (!any)
		return KP_OK;
	if (wi_storage_shadow(c))
		return c->err->code;
	*has = 1;
	return KP_OK;
}

/* the volumes and claims of added replica id (ns/name) of workload wid:
 * st[0] scale_pod_volumes.sql, st[1] scale_pod_claims.sql, prepared */
static int add_volumes(wctx *c, sqlite3_stmt *const *st, int64_t id, const char *ns, const char *name, int64_t wid)
{
	sqlite3_stmt *s = st[0];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, wid);
	if (sqlite3_step(s) != SQLITE_DONE)
		return wi_db_fail(c, "adding a replica's volumes");
	s = st[1];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, ns, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, wid);
	sqlite3_bind_int64(s, 5, WI_ID_BASE);
	if (sqlite3_step(s) != SQLITE_DONE)
		return wi_db_fail(c, "adding a replica's claims");
	return KP_OK;
}

/* scale down: the first `want` replicas s lists (in removal order) removed,
 * recorded for run_pod; s is read from its first row again */
static int scale_down(wctx *c, wi_op *op, sqlite3_stmt *s, int64_t current, int vols, int dra)
{
	int64_t want = current - op->replicas, k = 0;
	int rc = KP_OK;
	sqlite3_stmt *del = NULL;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_scale_record_removed, -1, &del, NULL) != SQLITE_OK)
		rc = wi_db_fail(c, "removing replicas");
	kp_sb names;
	kp_sb_init(&names);
	while (!rc && k < want && sqlite3_step(s) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		const char *name = (const char *)sqlite3_column_text(s, 1);
		if (k < 5)
			kp_sb_printf(&names, "%s%s", k ? ", " : "", name);
		k++;
		if (id < 0) {
			/* added earlier in this scenario: it never existed */
			if (wi_exec(c, kp_sql_whatif_scale_forget, id, NULL, NULL))
				rc = c->err->code;
			continue;
		}
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
			rc = wi_db_fail(c, "removing replicas");
	}
	sqlite3_finalize(del);
	sqlite3_reset(s);
	/* delete after reading: the query reads temp.pod; the claims before the
	 * pods (their owners are looked up) */
	if (!rc && vols && (wi_exec(c, kp_sql_whatif_scale_claims_removed, op->seq, NULL, NULL) ||
			    wi_exec(c, kp_sql_whatif_scale_volumes_removed, op->seq, NULL, NULL)))
		rc = c->err->code;
	if (!rc && dra && (wi_exec(c, kp_sql_whatif_scale_dra_claims_removed, op->seq, NULL, NULL) ||
			   wi_exec(c, kp_sql_whatif_scale_dra_pods_removed, op->seq, NULL, NULL)))
		rc = c->err->code;
	if (!rc && (wi_exec(c, kp_sql_whatif_pods_removed_labels, op->seq, NULL, NULL) ||
		    wi_exec(c, kp_sql_whatif_scale_moved_delete, op->seq, NULL, NULL) ||
		    wi_exec(c, kp_sql_whatif_pods_removed_delete, op->seq, NULL, NULL) ||
		    wi_exec(c, kp_sql_whatif_scale_orphan_labels, 0, NULL, NULL) ||
		    wi_exec(c, kp_sql_whatif_scale_orphan_pods, 0, NULL, NULL)))
		rc = c->err->code;
	op->removed = k;
	kp_sb_printf(&op->effect, "%lld -> %lld replicas: %lld removed (%s%s)", (long long)current,
		     (long long)op->replicas, (long long)k, kp_sb_str(&names), k > 5 ? ", ..." : "");
	kp_sb_release(&names);
	return rc;
}

/* the labels a workload's controller gives replica i (name) besides the
 * template's, as the importer gives them: p->extra (pointing into rev, idx) */
static void controller_labels(wi_op *op, const wl_info *wl, wi_pod *p, int64_t i, const char *name, char *rev,
			      size_t nrev, char *idx, size_t nidx)
{
	int is_deploy = !strcmp(wl->kind, "Deployment"), is_sts = !strcmp(wl->kind, "StatefulSet");
	snprintf(rev, nrev, "%s-%s", op->wname, wl->hash);
	snprintf(idx, nidx, "%lld", (long long)i);
	if (is_deploy && wl->has_hash) {
		p->extra[p->nextra++] = "pod-template-hash";
		p->extra[p->nextra++] = wl->hash;
	}
	if (is_sts) {
		p->extra[p->nextra++] = "statefulset.kubernetes.io/pod-name";
		p->extra[p->nextra++] = name;
		p->extra[p->nextra++] = "apps.kubernetes.io/pod-index";
		p->extra[p->nextra++] = idx;
		if (wl->has_hash) {
			p->extra[p->nextra++] = "controller-revision-hash";
			p->extra[p->nextra++] = rev;
		}
	}
	if (!strcmp(wl->kind, "Job")) {
		p->extra[p->nextra++] = "batch.kubernetes.io/job-name";
		p->extra[p->nextra++] = op->wname;
		p->extra[p->nextra++] = "job-name";
		p->extra[p->nextra++] = op->wname;
	}
}

/* scale up: replicas - current pending pods, at the first free indexes */
static int scale_up(wctx *c, wi_op *op, const wl_info *wl, int64_t current, int vols, wi_claims *cl)
{
	int is_deploy = !strcmp(wl->kind, "Deployment"), is_sts = !strcmp(wl->kind, "StatefulSet");
	int rc = KP_OK;
	sqlite3_stmt *vst[2] = { NULL, NULL };
	if (vols && (sqlite3_prepare_v2(c->db, kp_sql_whatif_scale_pod_volumes, -1, &vst[0], NULL) != SQLITE_OK ||
		     sqlite3_prepare_v2(c->db, kp_sql_whatif_scale_pod_claims, -1, &vst[1], NULL) != SQLITE_OK))
		rc = wi_db_fail(c, "adding a replica's volumes");
	/* a Deployment's pods belong to its ReplicaSet NAME-HASH */
	char owner[700], rev[700], idx[24];
	const char *owner_kind = is_deploy ? "ReplicaSet" : wl->kind;
	if (is_deploy && wl->has_hash)
		snprintf(owner, sizeof owner, "%s-%s", op->wname, wl->hash);
	else
		snprintf(owner, sizeof owner, "%s", op->wname);
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
			kp_pod_suffix(op->ns, owner, i, suffix);
			snprintf(name, sizeof name, "%s-%s", owner, suffix);
		}
		int used = wi_pod_name_used(c, op->ns, name);
		if (used < 0) {
			rc = c->err->code;
			break;
		}
		if (used)
			continue;   /* as the importer: the next index */
		wi_pod p;
		memset(&p, 0, sizeof p);
		p.ns = op->ns;
		p.name = name;
		p.class_id = wl->class_id;
		p.workload_id = wl->id;
		p.batch = wl->batch;
		p.labels = wl->labels;
		p.owner_kind = owner_kind;
		p.owner_name = owner;
		p.owner_uid = is_deploy || !wl->has_uid ? NULL : wl->uid;
		controller_labels(op, wl, &p, i, name, rev, sizeof rev, idx, sizeof idx);
		if ((rc = wi_add_pod(c, op, &p)))
			break;
		/* wi_add_pod gave it the scenario's next pod id */
		if (vols && (rc = add_volumes(c, vst, WI_ID_BASE + c->w->pods_made, op->ns, name, wl->id)))
			break;
		if (cl && cl->n && (rc = wi_dra_add_pod(c, cl, WI_ID_BASE + c->w->pods_made, op->ns, name)))
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
	sqlite3_finalize(vst[0]);
	sqlite3_finalize(vst[1]);
	return rc;
}

/* NS/W=+N: parse_op left N in replicas; a fresh copy each apply */
static void relative_replicas(wi_op *op, int64_t current)
{
	int64_t n = op->replicas;
	for (size_t i = strlen(op->value); i > 0; i--)
		if (op->value[i - 1] == '+') {
			n = strtoll(op->value + i, NULL, 10);
			break;
		}
	op->replicas = current + n;
}

int wi_apply_scale(wctx *c, wi_op *op)
{
	wl_info wl;
	int rc = find_workload(c, op, &wl);
	if (rc) {
		kp_free(wl.labels);
		return rc;
	}
	/* the replicas now */
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_scale_replicas, -1, &s, NULL) != SQLITE_OK) {
		kp_free(wl.labels);
		return wi_db_fail(c, "reading replicas");
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
		return wi_db_fail(c, "reading replicas");
	}
	kp_sb_printf(&op->effect, "%s %s/%s: ", wl.kind, op->ns, op->wname);
	if (op->relative)
		relative_replicas(op, current);
	int vols = 0, dra = 0;
	wi_claims cl;
	memset(&cl, 0, sizeof cl);
	if (current != op->replicas && !(rc = volumes_shadow(c, wl.id, &vols)))
		rc = wi_dra_scale(c, wl.id, &cl, &dra);
	if (!rc && current > op->replicas)
		rc = scale_down(c, op, s, current, vols, dra);
	else if (!rc && current < op->replicas)
		rc = scale_up(c, op, &wl, current, vols, &cl);
	else if (!rc)
		kp_sb_printf(&op->effect, "already %lld replica%s: no change", (long long)current, current == 1 ? "" : "s");
	sqlite3_finalize(s);
	wi_dra_free(&cl);
	kp_free(wl.labels);
	return rc;
}
