/*
 * test_csv.c — unit tests of the CSV reader (importers/csv.c): kplan's node
 * and pod tables, format detection, header and row errors, CSV syntax.  The
 * openb trace's rows are test_openb.c's.  The import batch is csv_mock.h's:
 * each case compares the objects it recorded with what it wants.
 */
#include "tests/unit/csv_mock.h"

#define EFF "(want NoSchedule, PreferNoSchedule or NoExecute)"

static const tcase cases[] = {
	/* ---- kplan node table ---- */
	{ "nodes: every column", NULL, 0,
	  "node,cpu,memory,ephemeral-storage,pods,labels,taints,unschedulable,created,nvidia.com/gpu,hugepages-2Mi\n"
	  "n1,4,16Gi,100Gi,110,zone=a;disk=ssd,gpu=true:NoSchedule;spot:PreferNoSchedule,true,2024-01-02T03:04:05Z,2,1Gi\n"
	  "n2,500m,,,,,,0,1700000000,,\n"
	  "n3,,,,, kubernetes.io/hostname = custom ; ,,false,,,\n",
	  KP_OK,
	  "node n1 @2:1 created=1704164645 unschedulable labels{zone=a,disk=ssd,kubernetes.io/hostname=n1} "
	  "taints{gpu=true:NoSchedule,spot=~:PreferNoSchedule} alloc{cpu=4000,memory=17179869184,"
	  "ephemeral-storage=107374182400,pods=110,nvidia.com/gpu=2,hugepages-2Mi=1073741824} cap=alloc\n"
	  "node n2 @3:1 created=1700000000 labels{kubernetes.io/hostname=n2} alloc{cpu=500} cap=alloc\n"
	  "node n3 @4:1 labels{kubernetes.io/hostname=custom} alloc{} cap=alloc\n" },
	{ "nodes: columns in any order, short rows are empty values", NULL, 0,
	  "node,unschedulable,memory,taints\n"
	  "a,1,1Mi\n"
	  "b\n",
	  KP_OK,
	  "node a @2:1 unschedulable labels{kubernetes.io/hostname=a} alloc{memory=1048576} cap=alloc\n"
	  "node b @3:1 labels{kubernetes.io/hostname=b} alloc{} cap=alloc\n" },
	{ "nodes: header only", NULL, 0, "node,cpu\n", KP_OK, "" },
	{ "empty file", NULL, 0, "", KP_OK, "" },
	{ "blank lines only", "openb", 0, "\n \r\n\n", KP_OK, "" },

	/* ---- kplan pod table ---- */
	{ "pods: every column", NULL, 0,
	  "namespace,pod,node,phase,cpu,memory,ephemeral-storage,priority,priority_class,preemption_policy,"
	  "scheduler,labels,node_selector,tolerations,created,owner,image,host_ports,example.com/foo\n"
	  "prod,web-0,n1,Running,250m,1Gi,2Gi,1000,high,Never,my-sched,app=web;tier=fe,disktype=ssd,"
	  "k1=v1:NoSchedule;k2:NoExecute;k3;k4=v4;:PreferNoSchedule;*,2023-11-14T22:13:20Z,"
	  "ReplicaSet/web-abc,nginx:1.25,8080;9090/UDP;53/SCTP,3\n"
	  ",pending,,,,,,-5,,PreemptLowerPriority,,,,,,,,,\n",
	  KP_OK,
	  "pod prod/web-0 @2:1 node=n1 phase=Running created=1700000000 priority=1000 class=high "
	  "preemption=Never scheduler=my-sched owner=ReplicaSet/web-abc labels{app=web,tier=fe} "
	  "selector{disktype=ssd} tolerations{k1|Equal|v1|NoSchedule,k2|Exists|~|NoExecute,k3|Exists|~|~,"
	  "k4|Equal|v4|~,~|Exists|~|PreferNoSchedule,~|Exists|~|~} container[0 web-0 image=nginx:1.25 "
	  "req{cpu=250,memory=1073741824,ephemeral-storage=2147483648,example.com/foo=3} "
	  "port=8080:8080/TCP port=9090:9090/UDP port=53:53/SCTP]\n"
	  "pod default/pending @3:1 priority=-5 preemption=PreemptLowerPriority container[0 pending req{}]\n" },
	{ "pods: header starting with pod", NULL, 0,
	  "pod,cpu,namespace\n"
	  "p1,1,kube-system\n"
	  "p2,0.1\n",
	  KP_OK,
	  "pod kube-system/p1 @2:1 container[0 p1 req{cpu=1000}]\n"
	  "pod default/p2 @3:1 container[0 p2 req{cpu=100}]\n" },

	/* ---- format selection ---- */
	{ "--format openb on a kplan header", "openb", 0,
	  "node,cpu\nn1,1\n", KP_PARSE,
	  "error t.csv:1:1: not an openb trace header (want 'sn,cpu_milli,memory_mib,gpu,model' or "
	  "'name,cpu_milli,memory_mib,num_gpu,gpu_milli')" },
	{ "--format openb on a reordered openb header", "openb", 0,
	  "sn,memory_mib,cpu_milli,gpu,model\n", KP_PARSE,
	  "error t.csv:1:1: not an openb trace header (want 'sn,cpu_milli,memory_mib,gpu,model' or "
	  "'name,cpu_milli,memory_mib,num_gpu,gpu_milli')" },
	{ "--format csv detects", "csv", 0,
	  "pod\np\n", KP_OK, "pod default/p @2:1 container[0 p req{}]\n" },
	{ "--format yaml is refused", "yaml", 0,
	  "node\nn\n", KP_USAGE, "error t.csv: the csv reader cannot read format 'yaml'" },
	{ "unknown header", NULL, 0,
	  "host,cpu\nn1,1\n", KP_PARSE,
	  "error t.csv:1:1: unknown csv header starting with 'host' (want 'node', 'pod', "
	  "'namespace,pod' or an openb trace header)" },
	{ "namespace without pod", NULL, 0,
	  "namespace,node\n", KP_PARSE,
	  "error t.csv:1:1: unknown csv header starting with 'namespace' (want 'node', 'pod', "
	  "'namespace,pod' or an openb trace header)" },

	/* ---- header errors (fatal) ---- */
	{ "unknown column", NULL, 0,
	  "node,cpu,colour\nn1,1,red\n", KP_PARSE, "error t.csv:1:3: unknown column 'colour'" },
	{ "pods is not a pod column", NULL, 0,
	  "pod,pods\n", KP_PARSE, "error t.csv:1:2: unknown column 'pods'" },
	{ "duplicate column", NULL, 0,
	  "node,cpu, memory ,memory\nn1,1,1,1\n", KP_PARSE, "error t.csv:1:4: duplicate column 'memory'" },
	{ "empty column name", NULL, 0,
	  "\n\nnode,cpu,\nn1,1\n", KP_PARSE, "error t.csv:3:3: empty column name" },
	{ "header names are case-sensitive", NULL, 0,
	  "node,CPU\n", KP_PARSE, "error t.csv:1:2: unknown column 'CPU'" },

	/* ---- row errors ---- */
	{ "bad quantity", NULL, 0,
	  "node,cpu\nn1,1.5.0\nn2,1\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'cpu': invalid quantity '1.5.0': unknown suffix '.0'\n"
	  "error t.csv:2:2: Node n1: column 'cpu': invalid quantity '1.5.0': unknown suffix '.0'" },
	{ "negative quantity", NULL, 0,
	  "pod,memory\np1,-1Gi\n", KP_RANGE,
	  "invalid t.csv:2:2: Pod default/p1: column 'memory': negative quantity '-1Gi'\n"
	  "error t.csv:2:2: Pod default/p1: column 'memory': negative quantity '-1Gi'" },
	{ "quantity out of range", NULL, 0,
	  "node,memory\nn1,100Ei\n", KP_RANGE,
	  "invalid t.csv:2:2: Node n1: column 'memory': quantity '100Ei' out of range: value does not fit int64\n"
	  "error t.csv:2:2: Node n1: column 'memory': quantity '100Ei' out of range: value does not fit int64" },
	{ "empty node name", NULL, 0,
	  "node,cpu\n  ,1\n", KP_PARSE,
	  "invalid t.csv:2:1: missing node name\n"
	  "error t.csv:2:1: missing node name" },
	{ "empty pod name (second column)", NULL, 0,
	  "namespace,pod\nkube-system,\n", KP_PARSE,
	  "invalid t.csv:2:2: missing pod name\n"
	  "error t.csv:2:2: missing pod name" },
	{ "too many fields", NULL, 0,
	  "node,cpu\nn1,1,2\n", KP_PARSE,
	  "invalid t.csv:2:3: Node n1: too many fields: 3 (the header has 2)\n"
	  "error t.csv:2:3: Node n1: too many fields: 3 (the header has 2)" },
	{ "bad boolean", NULL, 0,
	  "node,unschedulable\nn1,yes\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'unschedulable': bad boolean 'yes' (want true, false, 1 or 0)\n"
	  "error t.csv:2:2: Node n1: column 'unschedulable': bad boolean 'yes' (want true, false, 1 or 0)" },
	{ "bad taint effect", NULL, 0,
	  "node,taints\nn1,a=b:NoSchedule;c=d:Sometimes\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: bad taint effect 'Sometimes' in 'c=d:Sometimes' " EFF "\n"
	  "error t.csv:2:2: Node n1: bad taint effect 'Sometimes' in 'c=d:Sometimes' " EFF },
	{ "taint without effect", NULL, 0,
	  "node,taints\nn1,a=b\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: bad taint 'a=b' (want key[=value]:Effect)\n"
	  "error t.csv:2:2: Node n1: bad taint 'a=b' (want key[=value]:Effect)" },
	{ "taint with empty key", NULL, 0,
	  "node,taints\nn1,=b:NoExecute\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: taint '=b:NoExecute' has an empty key\n"
	  "error t.csv:2:2: Node n1: taint '=b:NoExecute' has an empty key" },
	{ "bad toleration effect", NULL, 0,
	  "pod,tolerations\np,k:noschedule\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: bad toleration effect 'noschedule' in 'k:noschedule' " EFF "\n"
	  "error t.csv:2:2: Pod default/p: bad toleration effect 'noschedule' in 'k:noschedule' " EFF },
	{ "toleration with value but no key", NULL, 0,
	  "pod,tolerations\np,=v\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: toleration '=v' has an empty key\n"
	  "error t.csv:2:2: Pod default/p: toleration '=v' has an empty key" },
	{ "bad label", NULL, 0,
	  "node,labels\nn1,a=b;zone\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'labels': bad label 'zone' (want key=value)\n"
	  "error t.csv:2:2: Node n1: column 'labels': bad label 'zone' (want key=value)" },
	{ "duplicate label", NULL, 0,
	  "pod,node_selector\np,a=1;a=2\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'node_selector': duplicate node selector key 'a'\n"
	  "error t.csv:2:2: Pod default/p: column 'node_selector': duplicate node selector key 'a'" },
	{ "bad time", NULL, 0,
	  "node,created\nn1,yesterday\n", KP_PARSE,
	  "invalid t.csv:2:2: Node n1: column 'created': bad time 'yesterday' (want RFC 3339 or Unix seconds)\n"
	  "error t.csv:2:2: Node n1: column 'created': bad time 'yesterday' (want RFC 3339 or Unix seconds)" },
	{ "bad priority", NULL, 0,
	  "pod,priority\np,high\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'priority': bad integer 'high'\n"
	  "error t.csv:2:2: Pod default/p: column 'priority': bad integer 'high'" },
	{ "priority out of int32", NULL, 0,
	  "pod,priority\np,2147483648\n", KP_RANGE,
	  "invalid t.csv:2:2: Pod default/p: column 'priority': integer '2147483648' out of range\n"
	  "error t.csv:2:2: Pod default/p: column 'priority': integer '2147483648' out of range" },
	{ "bad phase", NULL, 0,
	  "pod,phase\np,running\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'phase': bad value 'running' (want Pending, Running, "
	  "Succeeded, Failed or Unknown)\n"
	  "error t.csv:2:2: Pod default/p: column 'phase': bad value 'running' (want Pending, Running, "
	  "Succeeded, Failed or Unknown)" },
	{ "bad preemption policy", NULL, 0,
	  "pod,preemption_policy\np,Always\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'preemption_policy': bad value 'Always' (want "
	  "PreemptLowerPriority or Never)\n"
	  "error t.csv:2:2: Pod default/p: column 'preemption_policy': bad value 'Always' (want "
	  "PreemptLowerPriority or Never)" },
	{ "bad owner", NULL, 0,
	  "pod,owner\np,ReplicaSet\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: bad owner 'ReplicaSet' (want Kind/name)\n"
	  "error t.csv:2:2: Pod default/p: bad owner 'ReplicaSet' (want Kind/name)" },
	{ "bad host port", NULL, 0,
	  "pod,host_ports\np,80;70000\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: bad host port '70000' (want PORT or PORT/PROTOCOL, port 1-65535, "
	  "protocol TCP, UDP or SCTP)\n"
	  "error t.csv:2:2: Pod default/p: bad host port '70000' (want PORT or PORT/PROTOCOL, port 1-65535, "
	  "protocol TCP, UDP or SCTP)" },
	{ "bad extended resource quantity", NULL, 0,
	  "pod,nvidia.com/gpu\np,one\n", KP_PARSE,
	  "invalid t.csv:2:2: Pod default/p: column 'nvidia.com/gpu': invalid quantity 'one': expected a number\n"
	  "error t.csv:2:2: Pod default/p: column 'nvidia.com/gpu': invalid quantity 'one': expected a number" },
	{ "import error (duplicate) is located and stops", NULL, 1,
	  "node\nok\ndup\nlater\n", KP_ERROR,
	  "node ok @2:1 labels{kubernetes.io/hostname=ok} alloc{} cap=alloc\n"
	  "error t.csv:3:1: Node dup: duplicate node 'dup' in this batch" },

	/* ---- CSV syntax (fatal) ---- */
	{ "missing closing quote spanning lines", NULL, 1,
	  "node,labels\nn1,a=b\nn2,\"a=b\nc=d\n\nn3,x=y\n", KP_PARSE,
	  "node n1 @2:1 labels{a=b,kubernetes.io/hostname=n1} alloc{} cap=alloc\n"
	  "error t.csv:3:2: missing closing quote" },
	{ "missing closing quote in the header", NULL, 0,
	  "\"node,cpu\nn1,1\n", KP_PARSE, "error t.csv:1:1: missing closing quote" },
	{ "quote inside an unquoted field", NULL, 1,
	  "node,cpu\nn1,1\"2\nn2,1\n", KP_PARSE,
	  "error t.csv:2:2: misplaced quote (a quote inside an unquoted field, or text after a closing quote)" },
	{ "text after a closing quote, after a multi-line field", NULL, 1,
	  "node,labels,cpu\n\"n\n1\",\"a=b\"x,1\n", KP_PARSE,
	  "error t.csv:2:2: misplaced quote (a quote inside an unquoted field, or text after a closing quote)" },

	/* ---- skip mode ---- */
	{ "skip mode goes on after bad rows", NULL, 1,
	  "node,cpu,taints\n"
	  "a,1\n"
	  "b,x\n"
	  "c,2,k:Bad\n"
	  "d,3,k:NoSchedule\n",
	  KP_OK,
	  "node a @2:1 labels{kubernetes.io/hostname=a} alloc{cpu=1000} cap=alloc\n"
	  "invalid t.csv:3:2: Node b: column 'cpu': invalid quantity 'x': expected a number\n"
	  "invalid t.csv:4:3: Node c: bad taint effect 'Bad' in 'k:Bad' " EFF "\n"
	  "node d @5:1 labels{kubernetes.io/hostname=d} taints{k=~:NoSchedule} alloc{cpu=3000} cap=alloc\n" },
	/* ---- line endings, quoting, blank lines ---- */
	{ "CRLF line endings", NULL, 0,
	  "node,cpu,labels\r\nn1,1,a=b\r\n\r\nn2,2,\r\n", KP_OK,
	  "node n1 @2:1 labels{a=b,kubernetes.io/hostname=n1} alloc{cpu=1000} cap=alloc\n"
	  "node n2 @4:1 labels{kubernetes.io/hostname=n2} alloc{cpu=2000} cap=alloc\n" },
	{ "CRLF with a bad row: line numbers", NULL, 1,
	  "pod,cpu\r\np1,1\r\np2,zz\r\n", KP_OK,
	  "pod default/p1 @2:1 container[0 p1 req{cpu=1000}]\n"
	  "invalid t.csv:3:2: Pod default/p2: column 'cpu': invalid quantity 'zz': expected a number\n" },
	{ "quoted fields with commas, quotes and newlines", NULL, 1,
	  "pod,labels,image,cpu\n"
	  "\"p,1\",\"a=x,y;b=\"\"q\"\"\",img,1\n"
	  "\"p\n2\",,\"i\r\nj\",\n"
	  "last,,,\"\n"
	  "zz\"\n"
	  "after,,,1\n",
	  KP_OK,
	  "pod default/p,1 @2:1 labels{a=x,y,b=\"q\"} container[0 p,1 image=img req{cpu=1000}]\n"
	  "pod default/p\\n2 @3:1 container[0 p\\n2 image=i\\r\\nj req{}]\n"
	  "invalid t.csv:6:4: Pod default/last: column 'cpu': invalid quantity '\nzz': expected a number\n"
	  "pod default/after @8:1 container[0 after req{cpu=1000}]\n" },
	{ "blank lines, no final newline", NULL, 0,
	  "\n\nnode\n\nn1\n  \t\nn2", KP_OK,
	  "node n1 @5:1 labels{kubernetes.io/hostname=n1} alloc{} cap=alloc\n"
	  "node n2 @7:1 labels{kubernetes.io/hostname=n2} alloc{} cap=alloc\n" },
	{ "UTF-8 byte order mark", NULL, 0,
	  "\xEF\xBB\xBFnode\nn1\n", KP_OK,
	  "node n1 @2:1 labels{kubernetes.io/hostname=n1} alloc{} cap=alloc\n" },
	{ "list items are trimmed; a second header is just a row", NULL, 0,
	  "node,taints,labels\nn1, a = b : NoSchedule ; c:NoExecute ;, x = 1 \n"
	  "pod,tolerations,host_ports\n", KP_PARSE,
	  "node n1 @2:1 labels{x=1,kubernetes.io/hostname=n1} taints{a=b:NoSchedule,c=~:NoExecute} "
	  "alloc{} cap=alloc\n"
	  "invalid t.csv:3:2: Node pod: bad taint 'tolerations' (want key[=value]:Effect)\n"
	  "error t.csv:3:2: Node pod: bad taint 'tolerations' (want key[=value]:Effect)" },
	{ "spaces inside tolerations and host ports are trimmed", NULL, 0,
	  "pod,tolerations,host_ports\np, k = v : NoExecute ; * , 80 / UDP ; 81\n", KP_OK,
	  "pod default/p @2:1 tolerations{k|Equal|v|NoExecute,~|Exists|~|~} container[0 p req{} "
	  "port=80:80/UDP port=81:81/TCP]\n" },
	{ "quoted header names are trimmed", NULL, 0,
	  "\" node \",\" cpu\"\nn1,2\n", KP_OK,
	  "node n1 @2:1 labels{kubernetes.io/hostname=n1} alloc{cpu=2000} cap=alloc\n" },
};

/* Inputs that a NUL-terminated table cannot hold. */
static void test_nul_byte(void)
{
	static const char in[] = "node,cpu\nn\0x,1\nn2,1\n";
	static const tcase t = { "NUL byte", NULL, 1, NULL, KP_OK, NULL };
	kp_import imp;
	kp_err err;
	imp_init(&imp, 1);
	int rc = run_csv(&imp, &t, in, sizeof in - 1, &err);
	TAP_EQ_I64(rc, KP_OK, "NUL byte in a field: skipped in skip mode");
	TAP_EQ_STR(kp_sb_str(&imp.out),
		   "invalid t.csv:2:1: Node n: NUL byte in field\n"
		   "node n2 @3:1 labels{kubernetes.io/hostname=n2} alloc{cpu=1000} cap=alloc\n",
		   "NUL byte in a field: located");
	imp_release(&imp);
}

static void test_alloc_failures(void)
{
	static const long pods[5] = { 0, 2, 0, 0, 0 };
	alloc_failures("kplan pods",
		       "namespace,pod,cpu,labels,tolerations,host_ports,owner\n"
		       "ns,p1,1,a=b;c=d,k=v:NoSchedule;*,80;90/UDP,Job/j\n"
		       "ns,\"p\n2\",2,,,,\n", pods);
}

int main(void)
{
	run_cases(cases, sizeof cases / sizeof cases[0]);
	test_nul_byte();
	test_alloc_failures();
	return tap_done();
}
