/*
 * fix_text.c — kp_report_fix (fix_text.h): the answer of `kplan fix` as text
 * (each examined pod's checked fix and the alternatives, the joint change
 * set, the hint) or as JSON (docs/why-not.md shows both).
 */
#include "fix_text.h"

#include <stdio.h>

static void print_cand_json(kp_sb *out, const kp_fix_cand *c, int rank)
{
	kp_sb_printf(out, "{\"rank\":%d,\"level\":\"%s\",\"kind\":", rank, kp_fix_level_name(c->level));
	kp_sb_add_json_str(out, c->kind);
	kp_sb_adds(out, ",\"detail\":");
	kp_sb_add_json_str(out, c->detail);
	kp_sb_printf(out, ",\"victims\":%s,\"checked\":true,\"result_node\":", c->victims);
	kp_sb_add_json_str(out, c->node);
	kp_sb_printf(out, ",\"joint\":%s}", c->joint ? "true" : "false");
}

static void print_json(const kp_fix_result *r, const char *tmpl, int nfix, int nofix, kp_sb *out)
{
	kp_sb_printf(out, "{\"run_id\":%lld,\"baseline\":{\"run\":%lld,\"seed\":%llu,\"tie_break\":\"%s\",\"preemption\":%s,"
		     "\"preemption_from_run\":%s,\"from_run\":%s,\"config\":", (long long)r->run, (long long)r->run,
		     (unsigned long long)r->seed, r->tie_rank ? "node-rank" : "random", r->preemption ? "true" : "false",
		     r->preemption_from_run ? "true" : "false",
		     r->from_run ? "true" : "false");
	kp_sb_add_json_str(out, r->config);
	kp_sb_printf(out, ",\"kube\":");
	kp_sb_add_json_str(out, r->kube);
	kp_sb_printf(out, "},\"unschedulable\":%ld,\"examined\":%d,\"fixed\":%d,\"plans\":%ld,\"recorded\":%s,\"pods\":[",
		     r->unschedulable, r->npods, nfix, r->plans, r->recorded ? "true" : "false");
	for (int i = 0; i < r->npods; i++) {
		const kp_fix_pod *t = &r->pods[i];
		kp_sb_adds(out, i ? ",{\"namespace\":" : "{\"namespace\":");
		kp_sb_add_json_str(out, t->ns);
		kp_sb_adds(out, ",\"pod\":");
		kp_sb_add_json_str(out, t->name);
		kp_sb_printf(out, ",\"unschedulable_in_replay\":%s,\"fix\":", t->still ? "true" : "false");
		if (t->ncands)
			print_cand_json(out, &t->cands[0], 1);
		else
			kp_sb_adds(out, "null");
		kp_sb_adds(out, ",\"candidates\":[");
		for (int k = 0; k < t->ncands; k++) {
			if (k)
				kp_sb_addc(out, ',');
			print_cand_json(out, &t->cands[k], k + 1);
		}
		kp_sb_adds(out, "],\"joint_node\":");
		kp_sb_add_json_str(out, t->joint_node);
		kp_sb_adds(out, ",\"pinned\":");
		kp_sb_add_json_str(out, t->pinned);
		kp_sb_addc(out, '}');
	}
	kp_sb_printf(out, "],\"joint\":{\"changes\":%d,\"pods\":%d,\"placed\":%d},\"hint\":", r->joint_changes,
		     r->joint_wanted, r->joint_placed);
	kp_sb_add_json_str(out, nofix && !tmpl ? "--node-template FILE also tries adding a node like FILE" : NULL);
	kp_sb_adds(out, "}\n");
}

static void print_joint(const kp_fix_result *r, kp_sb *out)
{
	if (!r->joint_changes || r->joint_wanted < 2)
		return;   /* one pod: its best fix is the set */
	kp_sb_printf(out, "joint change set: %d change%s for the %d pod%s with a fix, checked in one plan: %d of them placed\n",
		     r->joint_changes, r->joint_changes == 1 ? "" : "s", r->joint_wanted, r->joint_wanted == 1 ? "" : "s",
		     r->joint_placed);
	for (int i = 0; i < r->npods; i++) {
		const kp_fix_pod *t = &r->pods[i];
		const kp_fix_cand *c = NULL;
		for (int k = 0; k < t->ncands && !c; k++)
			c = t->cands[k].joint ? &t->cands[k] : NULL;
		if (c)
			kp_sb_printf(out, "  %s/%s [%s]: %s; ", t->ns, t->name, kp_fix_level_name(c->level), c->detail);
		else if (t->still && (t->ncands || t->joint_node))
			kp_sb_printf(out, "  %s/%s: no change of its own; ", t->ns, t->name);
		else
			continue;
		if (t->joint_node)
			kp_sb_printf(out, "the joint plan places it on %s\n", t->joint_node);
		else
			kp_sb_adds(out, "not placed together with the others\n");
	}
}

static void print_text(const kp_fix_result *r, const char *tmpl, int nfix, int nofix, kp_sb *out)
{
	kp_sb_printf(out, "fix run %lld: %d of %d unschedulable pod%s examined %s a fix (%ld unschedulable in the run; "
		     "%ld dry-run plan%s)\n", (long long)r->run, nfix, r->npods, r->npods == 1 ? "" : "s",
		     nfix == 1 ? "has" : "have", r->unschedulable, r->plans, r->plans == 1 ? "" : "s");
	kp_sb_printf(out, "baseline: %srun %lld%s (seed %llu%s, preemption %s%s, configuration: %s; %s) plus each change\n",
		     r->from_run ? "the state " : "", (long long)r->run, r->from_run ? " left (--from-run)" : "'s options",
		     (unsigned long long)r->seed, r->tie_rank ? ", ties by the node ranking" : "", r->preemption ? "on" : "off",
		     r->preemption_from_run ? " as in the run" : " by --no-preemption", r->config, r->kube);
	for (int i = 0; i < r->npods; i++) {
		const kp_fix_pod *t = &r->pods[i];
		if (t->ncands) {
			const kp_fix_cand *c = &t->cands[0];
			kp_sb_printf(out, "  %s/%s [%s]: %s; checked: fits on %s\n", t->ns, t->name, c->kind, c->detail, c->node);
			for (int k = 1; k < t->ncands; k++)
				kp_sb_printf(out, "    then [%s]: %s; checked: fits on %s\n", kp_fix_level_name(t->cands[k].level),
					     t->cands[k].detail, t->cands[k].node);
		} else if (!t->still) {
			kp_sb_printf(out, "  %s/%s: no fix needed: it fits in a replay of the run (the database changed since)\n",
				     t->ns, t->name);
		} else {
			kp_sb_printf(out, "  %s/%s: no fix found (tried: evicting lower-priority pods, %s%srelaxing one taint or "
				     "constraint)\n", t->ns, t->name, tmpl ? "adding a node, " : "",
				     t->gpu ? "moving pods off GPUs, " : "");
			if (t->pinned)
				kp_sb_printf(out, "    its volumes pin it (%s): a node added for it must be there%s\n", t->pinned,
					     tmpl ? " (the template's node did not take it)" : "; try --node-template with such a node");
		}
	}
	print_joint(r, out);
	if (nofix && !tmpl)
		kp_sb_printf(out, "hint: for %d pod%s nothing short of untainting a dedicated node was found: "
			     "--node-template FILE (a Node manifest) also tries adding a node like it\n", nofix, nofix == 1 ? "" : "s");
}

void kp_report_fix(const kp_fix_result *r, const char *tmpl, int json, kp_sb *out)
{
	int nfix = 0, nofix = 0;
	for (int i = 0; i < r->npods; i++) {
		nfix += r->pods[i].ncands > 0;
		/* no fix, or none short of untainting a dedicated node: the hint */
		nofix += r->pods[i].still && (!r->pods[i].ncands || r->pods[i].cands[0].level == KP_FIX_UNTAINT_DEDICATED);
	}
	if (json)
		print_json(r, tmpl, nfix, nofix, out);
	else
		print_text(r, tmpl, nfix, nofix, out);
}
