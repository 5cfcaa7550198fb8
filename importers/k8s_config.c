/*
 * k8s_config.c — scheduler configuration: a KubeSchedulerConfiguration
 * (kubescheduler.config.k8s.io/v1 or v1beta3) is stored as JSON, with its
 * own YAML text where it can be cut out of the file (ytext.h) for errors a
 * plan finds later; a ConfigMap whose data value holds one is read as a
 * YAML stream of its own (one level deep), errors located at the file's
 * own lines.  Other ConfigMaps are counted as skipped.
 */
#include "k8s_int.h"
#include "../common/ytext.h"

#include <stdio.h>
#include <string.h>

int kp_k8s_read_sched_config(kctx *c, const objhead *h)
{
	if (!h->api_version)
		return kp_k8s_bad(c, h->obj, "apiVersion: required");
	if (strcmp(h->api_version, "kubescheduler.config.k8s.io/v1") != 0 &&
	    strcmp(h->api_version, "kubescheduler.config.k8s.io/v1beta3") != 0)
		return kp_k8s_bad(c, kp_ymap_get(h->obj, "apiVersion"),
				  "apiVersion: '%s' is not supported (kplan reads kubescheduler.config.k8s.io/v1 and v1beta3; "
			   "v1beta1/v1beta2 were removed from Kubernetes in 1.25/1.28)", h->api_version);
	kp_sb sb;
	kp_sb_init(&sb);
	kp_ynode_to_json(h->obj, &sb);
	if (!kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return kp_k8s_nomem(c);
	}
	/* its own text too, positioned as in the file, for errors found when a
	 * plan reads it (kept only when it reads back as the same document) */
	char *yaml = c->ytext ? kp_ytext_cut(c->ytext, c->ylen, h->obj->line + c->yline, h->obj->col + c->ycol) : NULL;
	if (yaml && !kp_ytext_same(yaml, sb.buf)) {
		kp_free(yaml);
		yaml = NULL;
	}
	kp_sched_config_in sc = { { h->obj->line, h->obj->col }, h->api_version, sb.buf, c->doc, yaml,
				  yaml ? c->yfile : NULL };
	int rc = kp_import_sched_config(c->imp, c->file, &sc, c->err);
	kp_sb_release(&sb);
	kp_free(yaml);
	return rc;
}

/* A ConfigMap that carries a KubeSchedulerConfiguration (the usual way to
 * mount one): its data value is read as a YAML stream of its own. */
int kp_k8s_read_configmap(kctx *c, const objhead *h)
{
	const kp_ynode *data;
	if (kp_k8s_get_map(c, h->obj, "data", "data", &data) != KP_OK)
		return KP_PARSE;
	int found = 0;
	for (size_t i = 0; data && i < data->n; i++) {
		const kp_ynode *v = data->u.pairs[i].value;
		if (v->type != KP_Y_SCALAR || !strstr(v->u.str, "KubeSchedulerConfiguration"))
			continue;
		char name[600];
		snprintf(name, sizeof name, "%s[%s data.%s]", c->file, c->object, data->u.pairs[i].key->u.str);
		kctx inner = *c;
		inner.file = name;
		inner.object[0] = 0;
		inner.in_configmap = 1;
		/* a literal block scalar: its lines are the file's, indented */
		int ind = c->ytext ? kp_ytext_literal_indent(c->ytext, c->ylen, v->line + c->yline, v->col + c->ycol,
							     v->u.str, v->n) : -1;
		char *shifted = ind > 0 ? kp_ytext_shift(v->u.str, v->n, v->line + c->yline, (unsigned)ind) : NULL;
		inner.ytext = shifted;
		inner.ylen = shifted ? strlen(shifted) : 0;
		inner.yline = inner.ycol = 0;
		inner.cm_label = NULL;
		char label[500];
		if (shifted) {
			inner.yline = v->line + c->yline;
			inner.ycol = (unsigned)ind;
			inner.yfile = c->file;
			snprintf(label, sizeof label, "%s data.%s", c->object, data->u.pairs[i].key->u.str);
			inner.cm_label = label;
		}
		kp_arena a;
		kp_arena_init(&a, 16 * 1024);
		inner.a = &a;
		int rc = kp_yaml_each_object(v->u.str, v->n, name, &a, kp_k8s_on_object, &inner, c->err);
		if (rc != KP_OK && shifted && c->err->line && !strcmp(c->err->file, name)) {
			/* a YAML error in the value (ydom located it there): the file's position */
			c->err->file[0] = c->err->object[0] = 0;
			unsigned l = c->err->line, col = c->err->col;
			c->err->line = 0;
			kctx at = inner;
			at.object[0] = 0;
			kp_k8s_locate(&at, c->err, l, col);
		}
		kp_arena_release(&a);
		kp_free(shifted);
		if (rc != KP_OK)
			return rc;
		found = 1;
	}
	if (!found)
		kp_import_skipped(c->imp, h->api_version ? "v1 ConfigMap" : "ConfigMap");
	return KP_OK;
}

