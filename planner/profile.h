/*
 * profile.h — a scheduler profile: which plugins run at which extension
 * point, their score weights and their arguments, after kube's defaulting
 * (kube-scheduler-semantics.md §2).  profile.c builds the default profile and reads
 * KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, v1beta3).
 */
#ifndef KP_PROFILE_H
#define KP_PROFILE_H

#include <stdint.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "../common/kube.h"
#include "scores.h"
#include "registry.h"   /* KP_P_*: the plugins, by index */

enum { KP_STRAT_LEAST, KP_STRAT_MOST, KP_STRAT_RTCR };

#define KP_MAX_RES_WEIGHTS 16
#define KP_MAX_SHAPE 16
#define KP_MAX_DEFAULT_SPREAD 8
#define KP_MAX_EXTENDERS 8

typedef struct kp_res_weight { char name[128]; int64_t weight; } kp_res_weight;

typedef struct kp_default_spread {
	int64_t max_skew;
	char topology_key[256];
	int hard;
} kp_default_spread;

typedef struct kp_profile {
	char scheduler_name[256];
	uint8_t filter[KP_P_COUNT], score[KP_P_COUNT], post_filter[KP_P_COUNT];
	int64_t weight[KP_P_COUNT];
	/* NodeResourcesFitArgs */
	int strategy;
	int nfit_res;
	kp_res_weight fit_res[KP_MAX_RES_WEIGHTS];
	int nshape;
	kp_shape_point shape[KP_MAX_SHAPE];
	int nignored;
	char ignored[KP_MAX_RES_WEIGHTS][128];          /* ignoredResources */
	int nignored_groups;
	char ignored_groups[KP_MAX_RES_WEIGHTS][128];   /* ignoredResourceGroups (prefix before '/') */
	/* NodeResourcesBalancedAllocationArgs */
	int nbal_res;
	kp_res_weight bal_res[KP_MAX_RES_WEIGHTS];
	int bal_1_20;            /* kube 1.20's formula, cpu and memory only (--strategy kube-1.20) */
	/* nodes with equal totals: 0 kube's (a seeded hash of pod and node, a
	 * different order per pod), 1 one seeded ranking of the nodes for every
	 * pod (--tie-break node-rank; --strategy fgd's default) */
	int tie_rank;
	/* InterPodAffinityArgs */
	int64_t hard_pod_affinity_weight;
	int ignore_preferred_existing;
	/* PodTopologySpreadArgs */
	int spread_system_defaults;     /* defaultingType System */
	int ndefault_spread;
	kp_default_spread default_spread[KP_MAX_DEFAULT_SPREAD];
	/* DefaultPreemptionArgs */
	int64_t min_candidate_pct, min_candidate_abs;
	/* percentageOfNodesToScore: -1 = not set (kplan scores every node) */
	int pct_nodes_to_score;
	/* NodeAffinityArgs.addedAffinity, as JSON (parsed by the planner) */
	char *added_affinity_json;
	/* SQL extenders (pluginConfig name KplanSQLExtenders): SQL text, owned */
	int next;
	struct kp_extender { char *sql; char origin[2100]; int score; int64_t weight; } ext[KP_MAX_EXTENDERS];
	/* the configuration's HTTP extenders (http_extender.h), one reference; NULL none */
	struct kp_hexts *hext;
} kp_profile;

/* The most profiles one configuration may define. */
#define KP_MAX_PROFILES 256

/* A profile of an imported configuration that kplan cannot run (an
 * out-of-tree plugin, HTTP extenders, an invalid field): its pods are not
 * planned, and say why. */
typedef struct kp_profile_skip {
	char scheduler_name[256];
	char *why;               /* "profile 'x' uses plugin 'Y' kplan cannot run (FILE:LINE:COL)", owned */
} kp_profile_skip;

typedef struct kp_config {
	int nprofiles;
	kp_profile *profiles;
	int nskipped;
	kp_profile_skip *skipped;
	char source[1024];       /* 'default', a file name, or scheduler_config:ID */
	char *json;              /* the effective profiles as JSON (for run.config) */
	char base_dir[1024];
	kp_kube kube;            /* the version whose defaults profiles start from (kp_config_set_kube) */
	int kube_set;
} kp_config;

/* The default profile of kube (NULL: the newest version's defaults):
 * default-scheduler, the version's default plugins and weights
 * (kp_profile_for_kube). */
void kp_profile_default(kp_profile *p, const kp_kube *kube);
/* kube's default NodeResourcesFit and BalancedAllocation arguments:
 * LeastAllocated, no shape, cpu and memory at weight 1 for both */
void kp_profile_default_resources(kp_profile *p);
/* What a version and its gates change in a profile's defaults, as kube's
 * default_plugins.go (getDefaultPlugins, applyFeatureGates) does:
 * DynamicResources only with DynamicResourceAllocation on, without a Score
 * weight before 1.35 (weight 2 from 1.35: kplan does not run that Score);
 * NodeDeclaredFeatures only with NodeDeclaredFeatures on.  (NodeName before
 * NodeUnschedulable in 1.37 changes nothing kplan can show: NodeName never
 * fails for the pods kplan schedules, node_name.c.)  docs/kube-versions.md §1. */
void kp_profile_for_kube(kp_profile *p, const kp_kube *kube);
/* Parse a KubeSchedulerConfiguration document (YAML or JSON text).  Unknown
 * plugins and fields are errors naming them. */
int kp_config_parse(const char *text, size_t len, const char *source, kp_config *cfg, kp_err *err);
/* The same for an imported configuration: a profile kplan cannot run or
 * that is invalid goes to cfg->skipped instead of failing (an error outside
 * the profiles — apiVersion, extenders, a schedulerName twice — skips every
 * profile of the document, as kube-scheduler would not start with it).
 * Fails only when the text is not YAML at all, or out of memory. */
int kp_config_parse_imported(const char *text, size_t len, const char *source, kp_config *cfg, kp_err *err);
/* Directory against which relative extender file names resolve (NULL: the
 * current directory); set before kp_config_parse when reading --config FILE. */
void kp_config_set_base_dir(kp_config *cfg, const char *dir);
/* Defaults for kube (NULL: the newest version's). */
void kp_config_default(kp_config *cfg, const kp_kube *kube);
/* The version (NULL: newest) whose defaults kp_config_parse* start every
 * profile from; set before parsing, kept by it. */
void kp_config_set_kube(kp_config *cfg, const kp_kube *kube);
void kp_config_release(kp_config *cfg);
/* Render the effective profiles as JSON into cfg->json. */
int kp_config_to_json(kp_config *cfg);

/* The configuration of a plan (config_merge.c), for kp_plan_opts.config_file:
 *  - "default": kube's default profile;
 *  - a file: that KubeSchedulerConfiguration, or the one in the data of a
 *    ConfigMap (as import reads it); any error fails (the user asked for it);
 *  - NULL: per schedulerName, the profile of the latest imported document
 *    that names it (latest import batch, then the later document), and kube's
 *    default profile for default-scheduler when none names it.  A profile
 *    kplan cannot run is in cfg->skipped: only its pods are not planned. */
int kp_config_load(sqlite3 *db, const char *config_file, const kp_kube *kube, kp_config *cfg, kp_err *err);
/* cfg->skipped's reason for schedulerName sched, or NULL */
const char *kp_config_skipped(const kp_config *cfg, const char *sched);

#endif
