/*
 * test_openb.c — unit tests of the openb trace's rows (importers/openb.c
 * through csv.c): a GPU node publishes the ResourceSlice <node>-gpus, a GPU
 * pod names the claim template of its shape, the DeviceClass and each
 * template are stored once; the rows refused; the trace's own files.  The
 * import batch is csv_mock.h's: each case compares the objects it recorded
 * (nodes, pods and their claims, slices, classes, templates) with what it
 * wants.
 *
 * The last test reads the openb trace from KP_SHARED_DATA (default
 * ../shared/data) and is skipped when it is absent.
 */
#include "tests/unit/csv_mock.h"

#include <stdio.h>

/* what openb's GPU rows publish */
#define GPU_MILLI "gpu.openb.kplan.io/milli=1000"
#define GPU_ATTR "gpu.openb.kplan.io/"
#define GPU_CLASS_LINE(line) "class gpu.openb.kplan.io @" #line ":1 api=resource.k8s.io/v1 selectors{" \
	"device.driver == \"gpu.openb.kplan.io\"@spec.selectors[0].cel.expression}\n"
#define GPU_CT(pod) "[{\"container\":\"" pod "\",\"request\":null}]"

static const tcase cases[] = {
	/* ---- openb: a GPU node publishes a ResourceSlice <node>-gpus, a GPU pod
	 * names a template of its shape (the class and each template once) ---- */
	{ "openb nodes: detected", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "openb-node-0000,64000,262144,2,P100\n"
	  "openb-node-0001,32000,262144,0,\n",
	  KP_OK,
	  "node openb-node-0000 @2:1 labels{kubernetes.io/hostname=openb-node-0000,"
	  "alibabacloud.com/gpu-card-model=P100,alibabacloud.com/gpu-count=2} alloc{cpu=64000,"
	  "memory=274877906944,pods=110} cap=alloc\n"
	  "slice openb-node-0000-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io "
	  "pool=openb-node-0000 gen=1 count=1 node=openb-node-0000 devices{"
	  "gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0," GPU_ATTR "model=\"P100\"}],"
	  "gpu-1[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=1," GPU_ATTR "model=\"P100\"}]}\n"
	  "node openb-node-0001 @3:1 labels{kubernetes.io/hostname=openb-node-0001,"
	  "alibabacloud.com/gpu-count=0} alloc{cpu=32000,memory=274877906944,pods=110} cap=alloc\n" },
	{ "openb nodes: --format openb", "openb", 0,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "n,8000,32768,1,T4\n",
	  KP_OK,
	  "node n @2:1 labels{kubernetes.io/hostname=n,alibabacloud.com/gpu-card-model=T4,"
	  "alibabacloud.com/gpu-count=1} alloc{cpu=8000,memory=34359738368,pods=110} cap=alloc\n"
	  "slice n-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io pool=n gen=1 count=1 node=n "
	  "devices{gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0," GPU_ATTR "model=\"T4\"}]}\n" },
	{ "openb nodes: GPUs without a model: devices without the model attribute", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "n,8000,32768,1,\n",
	  KP_OK,
	  "node n @2:1 labels{kubernetes.io/hostname=n,alibabacloud.com/gpu-count=1} "
	  "alloc{cpu=8000,memory=34359738368,pods=110} cap=alloc\n"
	  "slice n-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io pool=n gen=1 count=1 node=n "
	  "devices{gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0}]}\n" },
	{ "openb pods: every column", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
	  "openb-pod-0009,12000,16384,1,1000,V100M16|V100M32,LS,Running,4975773,12902960,4975773\n"
	  "openb-pod-1523,14000,0,1,1000,,Burstable,Succeeded,10611842,10615828,10611842\n"
	  "openb-pod-0017,88000,327680,8,1000,G2,Burstable,Pending,9437497,10769854,\n"
	  "openb-pod-0046,2000,1024,0,0,A10|G2|T4|V100M32|V100M32,,,,,\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-whole-1 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=1000}}\n"
	  "pod openb/openb-pod-0009 @2:1 labels{alibabacloud.com/qos=LS,alibabacloud.com/trace-phase=Running,"
	  "alibabacloud.com/creation-time=4975773} affinity[1]{(w0 alibabacloud.com/gpu-card-model In "
	  "V100M16|V100M32)} container[0 openb-pod-0009 req{cpu=12000,memory=17179869184}] "
	  "claims{gpu template=gpu-whole-1 containers=" GPU_CT("openb-pod-0009") "}\n"
	  "pod openb/openb-pod-1523 @3:1 labels{alibabacloud.com/qos=Burstable,"
	  "alibabacloud.com/trace-phase=Succeeded,alibabacloud.com/creation-time=10611842} "
	  "container[0 openb-pod-1523 req{cpu=14000}] "
	  "claims{gpu template=gpu-whole-1 containers=" GPU_CT("openb-pod-1523") "}\n"
	  "template openb/gpu-whole-8 @4:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=8 cap{milli=1000}}\n"
	  "pod openb/openb-pod-0017 @4:1 labels{alibabacloud.com/qos=Burstable,"
	  "alibabacloud.com/trace-phase=Pending,alibabacloud.com/creation-time=9437497} "
	  "affinity[1]{(w0 alibabacloud.com/gpu-card-model In G2)} "
	  "container[0 openb-pod-0017 req{cpu=88000,memory=343597383680}] "
	  "claims{gpu template=gpu-whole-8 containers=" GPU_CT("openb-pod-0017") "}\n"
	  "pod openb/openb-pod-0046 @5:1 affinity[1]{(w0 alibabacloud.com/gpu-card-model In "
	  "A10|G2|T4|V100M32)} container[0 openb-pod-0046 req{cpu=2000,memory=1073741824}]\n" },
	{ "openb pods: the 5-column multigpu files", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "openb-pod-0001,6000,12288,1,460\n"
	  "openb-pod-9000,64000,262144,4,1000\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-share-460 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=460}}\n"
	  "pod openb/openb-pod-0001 @2:1 container[0 openb-pod-0001 req{cpu=6000,memory=12884901888}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("openb-pod-0001") "}\n"
	  "template openb/gpu-whole-4 @3:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=4 cap{milli=1000}}\n"
	  "pod openb/openb-pod-9000 @3:1 container[0 openb-pod-9000 req{cpu=64000,memory=274877906944}] "
	  "claims{gpu template=gpu-whole-4 containers=" GPU_CT("openb-pod-9000") "}\n" },
	{ "openb pods: a shared pod asks gpu_milli of one device", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "s,1000,1024,1,460\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-share-460 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=460}}\n"
	  "pod openb/s @2:1 container[0 s req{cpu=1000,memory=1073741824}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("s") "}\n" },
	{ "openb pods: a whole-GPU pod asks num_gpu devices with all their milli", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "w,1000,1024,2,1000\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-whole-2 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=2 cap{milli=1000}}\n"
	  "pod openb/w @2:1 container[0 w req{cpu=1000,memory=1073741824}] "
	  "claims{gpu template=gpu-whole-2 containers=" GPU_CT("w") "}\n" },
	{ "openb pods: the class and each shape's template are stored once", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "a,1,1,1,460\n"
	  "b,1,1,2,1000\n"
	  "c,1,1,1,460\n"
	  "cpu,1,1,0,0\n"
	  "d,1,1,2,1000\n"
	  "e,1,1,1,500\n",
	  KP_OK,
	  GPU_CLASS_LINE(2)
	  "template openb/gpu-share-460 @2:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=460}}\n"
	  "pod openb/a @2:1 container[0 a req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("a") "}\n"
	  "template openb/gpu-whole-2 @3:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=2 cap{milli=1000}}\n"
	  "pod openb/b @3:1 container[0 b req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-whole-2 containers=" GPU_CT("b") "}\n"
	  "pod openb/c @4:1 container[0 c req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-share-460 containers=" GPU_CT("c") "}\n"
	  "pod openb/cpu @5:1 container[0 cpu req{cpu=1,memory=1048576}]\n"
	  "pod openb/d @6:1 container[0 d req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-whole-2 containers=" GPU_CT("d") "}\n"
	  "template openb/gpu-share-500 @7:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=500}}\n"
	  "pod openb/e @7:1 container[0 e req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-share-500 containers=" GPU_CT("e") "}\n" },
	{ "openb pods: optional columns in another order", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,qos\n"
	  "p,1000,1,0,0,7,BE\n",
	  KP_OK,
	  "pod openb/p @2:1 labels{alibabacloud.com/qos=BE,alibabacloud.com/creation-time=7} "
	  "container[0 p req{cpu=1000,memory=1048576}]\n" },
	{ "openb pods: creation_time is a label, not the queue's timestamp (0 kept, empty absent)", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time\n"
	  "late,1,1,0,0,,,,900\n"
	  "first,1,1,0,0,,,,0\n"
	  "none,1,1,0,0,,,,\n",
	  KP_OK,
	  "pod openb/late @2:1 labels{alibabacloud.com/creation-time=900} container[0 late req{cpu=1,memory=1048576}]\n"
	  "pod openb/first @3:1 labels{alibabacloud.com/creation-time=0} container[0 first req{cpu=1,memory=1048576}]\n"
	  "pod openb/none @4:1 container[0 none req{cpu=1,memory=1048576}]\n" },

	/* ---- header and row errors ---- */
	{ "unknown column in openb", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu\n", KP_PARSE,
	  "error t.csv:1:6: unknown column 'gpu'" },
	{ "openb: bad integer", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,12a,1,0,\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'cpu_milli': bad integer '12a' (want a non-negative integer)\n"
	  "error t.csv:2:2: Node n1: column 'cpu_milli': bad integer '12a' (want a non-negative integer)" },
	{ "openb: negative integer", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,-2,1000\n", KP_RANGE,
	  "invalid t.csv:2:4: Pod openb/p1: column 'num_gpu': negative value '-2'\n"
	  "error t.csv:2:4: Pod openb/p1: column 'num_gpu': negative value '-2'" },
	{ "openb: decimal point", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1.5,0,0\n", KP_PARSE,
	  "invalid t.csv:2:3: Pod openb/p1: column 'memory_mib': bad integer '1.5' (want a non-negative integer)\n"
	  "error t.csv:2:3: Pod openb/p1: column 'memory_mib': bad integer '1.5' (want a non-negative integer)" },
	{ "openb: integer overflow", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,99999999999999999999,1,0,0\n", KP_RANGE,
	  "invalid t.csv:2:2: Pod openb/p1: column 'cpu_milli': integer '99999999999999999999' out of range\n"
	  "error t.csv:2:2: Pod openb/p1: column 'cpu_milli': integer '99999999999999999999' out of range" },
	{ "openb: memory overflow", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,1,9000000000000000,0,\n", KP_RANGE,
	  "invalid t.csv:2:3: Node n1: column 'memory_mib': '9000000000000000' MiB out of range\n"
	  "error t.csv:2:3: Node n1: column 'memory_mib': '9000000000000000' MiB out of range" },
	{ "openb: missing value", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1\n", KP_PARSE,
	  "invalid t.csv:2:4: Node n1: column 'gpu': missing value\n"
	  "error t.csv:2:4: Node n1: column 'gpu': missing value" },
	{ "openb: empty model in gpu_spec", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np,1,1,1,1000,T4||G2\n", KP_PARSE,
	  "invalid t.csv:2:6: Pod openb/p: column 'gpu_spec': empty gpu model in 'T4||G2'\n"
	  "error t.csv:2:6: Pod openb/p: column 'gpu_spec': empty gpu model in 'T4||G2'" },
	{ "openb: a share spread over GPUs is refused", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,2,500\n", KP_PARSE,
	  "invalid t.csv:2:5: Pod openb/p1: column 'gpu_milli': 500 milli on each of 2 GPUs (a pod shares one "
	  "GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)\n"
	  "error t.csv:2:5: Pod openb/p1: column 'gpu_milli': 500 milli on each of 2 GPUs (a pod shares one "
	  "GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)" },
	{ "openb: more than one GPU's milli is refused", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,1,1200\n", KP_RANGE,
	  "invalid t.csv:2:5: Pod openb/p1: column 'gpu_milli': 1200 milli of one GPU (at most 1000)\n"
	  "error t.csv:2:5: Pod openb/p1: column 'gpu_milli': 1200 milli of one GPU (at most 1000)" },
	{ "openb: too many GPUs for one pod", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,4097,1000\n", KP_RANGE,
	  "invalid t.csv:2:4: Pod openb/p1: column 'num_gpu': 4097 GPUs (at most 4096)\n"
	  "error t.csv:2:4: Pod openb/p1: column 'num_gpu': 4097 GPUs (at most 4096)" },
	{ "openb: too many GPUs on one node", NULL, 0,
	  "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,4097,G2\n", KP_RANGE,
	  "invalid t.csv:2:4: Node n1: column 'gpu': 4097 GPUs on one node (at most 4096)\n"
	  "error t.csv:2:4: Node n1: column 'gpu': 4097 GPUs on one node (at most 4096)" },
	{ "openb: empty name", NULL, 0,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n,1,1,0,0\n", KP_PARSE,
	  "invalid t.csv:2:1: missing pod name\n"
	  "error t.csv:2:1: missing pod name" },

	/* ---- skip mode ---- */
	{ "skip mode: openb", NULL, 1,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "p1,1,1,0,0,9\n"
	  "p2,1,1,0,0\n",
	  KP_OK,
	  "invalid t.csv:2:6: Pod openb/p1: too many fields: 6 (the header has 5)\n"
	  "pod openb/p2 @3:1 container[0 p2 req{cpu=1,memory=1048576}]\n" },
	{ "skip mode: openb GPU rows refused publish nothing", NULL, 1,
	  "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	  "bad1,1,1,2,500\n"
	  "bad2,1,1,1,1200\n"
	  "ok,1,1,1,1000\n",
	  KP_OK,
	  "invalid t.csv:2:5: Pod openb/bad1: column 'gpu_milli': 500 milli on each of 2 GPUs (a pod shares one "
	  "GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)\n"
	  "invalid t.csv:3:5: Pod openb/bad2: column 'gpu_milli': 1200 milli of one GPU (at most 1000)\n"
	  GPU_CLASS_LINE(4)
	  "template openb/gpu-whole-1 @4:1 api=resource.k8s.io/v1 requests{gpu class=gpu.openb.kplan.io "
	  "mode=ExactCount count=1 cap{milli=1000}}\n"
	  "pod openb/ok @4:1 container[0 ok req{cpu=1,memory=1048576}] "
	  "claims{gpu template=gpu-whole-1 containers=" GPU_CT("ok") "}\n" },
	{ "skip mode: an openb GPU node after a bad one", NULL, 1,
	  "sn,cpu_milli,memory_mib,gpu,model\n"
	  "bad,1,1,x,T4\n"
	  "n,1,1,1,\n",
	  KP_OK,
	  "invalid t.csv:2:4: Node bad: column 'gpu': bad integer 'x' (want a non-negative integer)\n"
	  "node n @3:1 labels{kubernetes.io/hostname=n,alibabacloud.com/gpu-count=1} "
	  "alloc{cpu=1,memory=1048576,pods=110} cap=alloc\n"
	  "slice n-gpus @3:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io pool=n gen=1 count=1 node=n "
	  "devices{gpu-0[multi cap{" GPU_MILLI "} attrs{" GPU_ATTR "index=0}]}\n" },
};

static void test_alloc_failures(void)
{
	static const long nodes[5] = { 3, 0, 2, 0, 0 }, pods[5] = { 0, 4, 0, 1, 2 };
	alloc_failures("openb GPU nodes",
		       "sn,cpu_milli,memory_mib,gpu,model\n"
		       "n1,1,1,2,T4\n"
		       "n2,1,1,1,\n"
		       "n3,1,1,0,\n", nodes);
	alloc_failures("openb GPU pods",
		       "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time\n"
		       "p1,1,1,1,460,T4|G2,LS,Running,5\n"
		       "p2,1,1,2,1000,,,,\n"
		       "p3,1,1,1,460,,,,\n"
		       "p4,1,1,0,0,,,,7\n", pods);
}

/* ---- the openb trace ---- */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

static int load(kp_import *imp, const char *dir, const char *file, kp_err *err)
{
	char path[1024];
	size_t len;
	snprintf(path, sizeof path, "%s/openb/%s", dir, file);
	char *data = read_file(path, &len);
	if (!data)
		return kp_err_set(err, KP_IO, "cannot read '%s'", path);
	int rc = kp_csv_read(imp, file, data, len, NULL, err);
	free(data);
	return rc;
}

static int has_line(const kp_import *imp, const char *line)
{
	const char *s = kp_sb_str(&imp->out);
	size_t n = strlen(line);
	for (const char *p = strstr(s, line); p; p = strstr(p + 1, line))
		if ((p == s || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

static void test_openb_files(void)
{
	const char *dir = getenv("KP_SHARED_DATA");
	char probe[1024];
	if (!dir || !*dir)
		dir = "../shared/data";
	snprintf(probe, sizeof probe, "%s/openb/openb_node_list_gpu_node.csv", dir);
	FILE *f = fopen(probe, "rb");
	if (!f) {
		tap_n++;
		printf("ok %d # SKIP ../shared/data absent\n", tap_n);
		return;
	}
	fclose(f);

	kp_import imp;
	kp_err err = {0};
	imp_init(&imp, 0);
	TAP_EQ_I64(load(&imp, dir, "openb_node_list_gpu_node.csv", &err), KP_OK,
		   "openb gpu nodes: read (%s)", err.msg[0] ? err.msg : "no error");
	TAP_EQ_I64(imp.nodes, 1213, "openb gpu nodes: 1,213 nodes");
	TAP_EQ_I64(imp.slices, 1213, "openb gpu nodes: a ResourceSlice each");
	TAP_EQ_I64(imp.devices, 6212, "openb gpu nodes: 6,212 GPUs, a device each");
	TAP_EQ_I64(imp.device_milli, 6212000, "openb gpu nodes: 1000 milli per device");
	TAP_EQ_I64(imp.scalar_gpu, 0, "openb gpu nodes: no alibabacloud.com/gpu-milli in allocatable");
	TAP_EQ_I64(imp.classes + imp.templates, 0, "openb gpu nodes: no DeviceClass nor template");
	TAP_OK(has_line(&imp, "node openb-node-0000 @2:1 labels{kubernetes.io/hostname=openb-node-0000,"
			"alibabacloud.com/gpu-card-model=P100,alibabacloud.com/gpu-count=2} alloc{cpu=64000,"
			"memory=274877906944,pods=110} cap=alloc"),
	       "openb gpu nodes: first row");
	TAP_OK(has_line(&imp, "slice openb-node-0000-gpus @2:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io "
			"pool=openb-node-0000 gen=1 count=1 node=openb-node-0000 devices{"
			"gpu-0[multi cap{gpu.openb.kplan.io/milli=1000} attrs{gpu.openb.kplan.io/index=0,"
			"gpu.openb.kplan.io/model=\"P100\"}],"
			"gpu-1[multi cap{gpu.openb.kplan.io/milli=1000} attrs{gpu.openb.kplan.io/index=1,"
			"gpu.openb.kplan.io/model=\"P100\"}]}"),
	       "openb gpu nodes: first row's slice, 2 P100s");
	TAP_OK(has_line(&imp, "node openb-node-1212 @1214:1 labels{kubernetes.io/hostname=openb-node-1212,"
			"alibabacloud.com/gpu-card-model=G2,alibabacloud.com/gpu-count=8} alloc{cpu=96000,"
			"memory=412316860416,pods=110} cap=alloc"),
	       "openb gpu nodes: last row");
	{
		kp_sb want;
		kp_sb_init(&want);
		kp_sb_adds(&want, "slice openb-node-1212-gpus @1214:1 api=resource.k8s.io/v1 driver=gpu.openb.kplan.io "
			   "pool=openb-node-1212 gen=1 count=1 node=openb-node-1212 devices{");
		for (int i = 0; i < 8; i++)
			kp_sb_printf(&want, "%sgpu-%d[multi cap{gpu.openb.kplan.io/milli=1000} attrs{"
				     "gpu.openb.kplan.io/index=%d,gpu.openb.kplan.io/model=\"G2\"}]", i ? "," : "", i, i);
		kp_sb_addc(&want, '}');
		TAP_OK(has_line(&imp, kp_sb_str(&want)), "openb gpu nodes: last row's slice, gpu-0 to gpu-7");
		kp_sb_release(&want);
	}
	imp_release(&imp);

	imp_init(&imp, 0);
	kp_err_clear(&err);
	TAP_EQ_I64(load(&imp, dir, "openb_pod_list_default.csv", &err), KP_OK,
		   "openb default pods: read (%s)", err.msg[0] ? err.msg : "no error");
	TAP_EQ_I64(imp.pods, 8152, "openb default pods: 8,152 pods");
	TAP_EQ_I64(imp.invalid, 0, "openb default pods: none invalid");
	TAP_EQ_I64(imp.with_memory, 8151, "openb default pods: all but one request memory");
	TAP_EQ_I64(imp.scalar_gpu, 0, "openb default pods: none requests alibabacloud.com/gpu-milli");
	TAP_EQ_I64(imp.gpu_pods, 7064, "openb default pods: 7,064 with num_gpu and gpu_milli, a claim each");
	TAP_EQ_I64(imp.claim_milli, 6086800, "openb default pods: their templates ask sum of num_gpu x gpu_milli");
	TAP_EQ_I64(imp.classes, 1, "openb default pods: the DeviceClass stored once");
	TAP_EQ_I64(imp.templates, 24, "openb default pods: a template per shape (24), each stored once");
	TAP_OK(has_line(&imp, "class gpu.openb.kplan.io @2:1 api=resource.k8s.io/v1 selectors{device.driver == "
			"\"gpu.openb.kplan.io\"@spec.selectors[0].cel.expression}"),
	       "openb default pods: the DeviceClass, before the first GPU pod");
	TAP_OK(has_line(&imp, "template openb/gpu-share-460 @3:1 api=resource.k8s.io/v1 requests{gpu "
			"class=gpu.openb.kplan.io mode=ExactCount count=1 cap{milli=460}}"),
	       "openb default pods: the template of the first 460-milli pod");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-0001 @3:1 labels{alibabacloud.com/qos=LS,"
			"alibabacloud.com/trace-phase=Running,alibabacloud.com/creation-time=427061} "
			"container[0 openb-pod-0001 req{cpu=6000,memory=12884901888}] claims{gpu "
			"template=gpu-share-460 containers=[{\"container\":\"openb-pod-0001\",\"request\":null}]}"),
	       "openb default pods: a shared-GPU pod");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-0017 @19:1 labels{alibabacloud.com/qos=Burstable,"
			"alibabacloud.com/trace-phase=Succeeded,alibabacloud.com/creation-time=9437497} "
			"container[0 openb-pod-0017 req{cpu=88000,memory=343597383680}] claims{gpu "
			"template=gpu-whole-8 containers=[{\"container\":\"openb-pod-0017\",\"request\":null}]}"),
	       "openb default pods: an 8-GPU pod");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-1523 @1525:1 labels{alibabacloud.com/qos=Burstable,"
			"alibabacloud.com/trace-phase=Succeeded,alibabacloud.com/creation-time=10611842} "
			"container[0 openb-pod-1523 req{cpu=14000}] claims{gpu template=gpu-whole-1 "
			"containers=[{\"container\":\"openb-pod-1523\",\"request\":null}]}"),
	       "openb default pods: the pod with memory_mib 0");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-0061 @63:1 labels{alibabacloud.com/qos=BE,"
			"alibabacloud.com/trace-phase=Pending,alibabacloud.com/creation-time=10001278} "
			"container[0 openb-pod-0061 req{cpu=11908,memory=49392123904}] claims{gpu "
			"template=gpu-whole-1 containers=[{\"container\":\"openb-pod-0061\",\"request\":null}]}"),
	       "openb default pods: a trace-Pending pod (no scheduled_time)");
	TAP_OK(has_line(&imp, "pod openb/openb-pod-8151 @8153:1 labels{alibabacloud.com/qos=BE,"
			"alibabacloud.com/trace-phase=Failed,alibabacloud.com/creation-time=12901761} "
			"container[0 openb-pod-8151 req{cpu=3152,memory=5872025600}] claims{gpu "
			"template=gpu-share-590 containers=[{\"container\":\"openb-pod-8151\",\"request\":null}]}"),
	       "openb default pods: last row");
	TAP_OK(!strstr(kp_sb_str(&imp.out), "created=") && !strstr(kp_sb_str(&imp.out), "UNEXPECTED") &&
	       !strstr(kp_sb_str(&imp.out), "TEMPLATE-NOT-STORED"),
	       "openb default pods: no creation timestamp, nothing unexpected, every template stored");
	imp_release(&imp);
}

int main(void)
{
	run_cases(cases, sizeof cases / sizeof cases[0]);
	test_alloc_failures();
	test_openb_files();
	return tap_done();
}
