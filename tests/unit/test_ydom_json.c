/*
 * test_ydom_json.c — the JSON fast path (common/ydom_json.c) against
 * libyaml: for every input, kp_yaml_each_object must deliver the same
 * objects — the same trees, node by node: type, line, column, plain or
 * quoted, text, weight — with the same info, and end with the same result
 * and message, whether it reads with the fast path (KPLAN_JSON_READER unset)
 * or with libyaml (=libyaml).  Inputs: cases written for each rule of the
 * fast path (and each reason it gives up), every .json file under
 * tests/data and tests/fuzz (the fuzzer's JSON oracle finds), and those of
 * ../shared/data when it is there.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ydom_dump.h"
#include "tap.h"

static int same(const char *name, const char *data, size_t len, long stop_at)
{
	char *slow = read_with("libyaml", data, len, stop_at), *fast = read_with(NULL, data, len, stop_at);
	int eq = slow && fast && !strcmp(slow, fast);
	TAP_OK(eq, "%s: the fast path reads as libyaml does", name);
	if (!eq && slow && fast) {
		size_t i = 0;
		while (slow[i] && slow[i] == fast[i])
			i++;
		printf("#   libyaml: %.200s\n", slow + (i > 60 ? i - 60 : 0));
		printf("#   fast:    %.200s\n", fast + (i > 60 ? i - 60 : 0));
	}
	kp_free(slow);
	kp_free(fast);
	return eq;
}

/* the fast path alone (no libyaml after it): 1 when it read data to the end */
static int fast_alone(const char *data, size_t len)
{
	char *s = read_with("fast", data, len, 0);
	int r = s && !strstr(s, "not JSON the fast path reads");
	kp_free(s);
	return r;
}

/* cases up to (not including) the first with a name starting "!" are read by
 * the fast path alone; from there on it gives up and libyaml reads them
 * ("~": either way) */
static const struct { const char *name, *text; } cases[] = {
	{ "object", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}}" },
	{ "List streamed item by item", "{\"kind\": \"List\", \"items\": [{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}},\n"
					"  {\"kind\": \"Pod\", \"metadata\": {\"name\": \"b\"}}]}" },
	{ "typed list, kind after items", "{\"items\": [{\"metadata\": {\"name\": \"a\"}}], \"kind\": \"PodList\"}" },
	{ "kubectl indentation", "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"kind\": \"Pod\",\n"
				 "            \"spec\": {\"containers\": []}\n        }\n    ],\n    \"kind\": \"List\"\n}\n" },
	{ "CRLF", "{\r\n  \"a\": [1, 2],\r\n  \"b\": {}\r\n}\r\n" },
	{ "numbers", "[0, -0, 1.5, -2.25e10, 1E+3, 3e-2, 123456789012345678901234567890, true, false, null]" },
	{ "escapes", "{\"s\": \"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\\u00e9\\u4e2d\\u0041\"}" },
	{ "UTF-8 columns", "{\"名前\": \"値\", \"x\": [\"é\", 1]}" },
	{ "empty containers", "{\"a\": {}, \"b\": [], \"c\": [[], {}], \"d\": \"\"}" },
	{ "adjacent colon", "{\"a\":1,\"b\":\"x\",\"c\":[1,2]}" },
	{ "tabs inside", "{\t\"a\"\t:\t1\t}" },
	{ "duplicate key in an item", "{\"kind\": \"List\", \"items\": [{\"a\": 1, \"a\": 2}, {\"b\": 1}]}" },
	{ "duplicate key outside items", "{\"kind\": \"List\", \"x\": 1, \"x\": 2, \"items\": []}" },
	{ "NUL escape", "{\"a\": \"x\\u0000y\"}" },
	{ "top-level array", "[{\"kind\": \"Pod\"}, {\"kind\": \"Node\"}]" },
	/* what the fast path gives up on: libyaml decides */
	{ "a number key (not JSON): given up", "{1: 2}" },
	{ "!comment", "{\"a\": 1} # c" },
	{ "trailing comma", "{\"a\": 1,}" },
	{ "YAML flow", "{a: b, c: [d]}" },
	{ "single quotes", "{'a': 'b'}" },
	{ "surrogate pair escape", "{\"a\": \"\\ud83d\\ude00\"}" },
	{ "lone surrogate", "{\"a\": \"\\ud800\"}" },
	{ "raw tab in a string", "{\"a\": \"x\ty\"}" },
	{ "raw newline in a string", "{\"a\": \"x\ny\"}" },
	{ "key and colon on two lines", "{\"a\"\n: 1}" },
	{ "tab before the document", "\t{\"a\": 1}" },
	{ "tab after the document", "{\"a\": 1}\t" },
	{ "two documents", "{\"a\": 1}\n{\"b\": 2}" },
	{ "garbage after", "{\"a\": 1} x" },
	{ "leading zero", "[01]" },
	{ "bare word", "[abc]" },
	{ "unterminated", "{\"a\": [1, 2" },
	{ "invalid UTF-8", "{\"a\": \"\xC3\x28\"}" },
	{ "overlong UTF-8", "{\"a\": \"\xC0\xAF\"}" },
	{ "~BOM (not taken for JSON: libyaml reads it)", "\xEF\xBB\xBF{\"a\": 1}" },
	{ "number then letter", "[1x]" },
	{ "infinity", "[Infinity]" },
	{ "a late error after items", "{\"kind\": \"List\", \"items\": [{\"kind\": \"Pod\"}, {\"kind\": \"Node\"}, {\"kind\": x}]}" },
	{ "a late YAML-ism after items", "{\"kind\": \"List\", \"items\": [{\"kind\": \"Pod\"}, {kind: Node}, {\"kind\": \"S\"}]}" },
	{ "!one-pair mapping as a List item", "{\"items\": [{\"a\": 1}, \"k\": {\"b\": 2}, {\"c\": 3}]}" },
	{ "!one-pair mapping, a number key", "{\"items\": [{\"a\": 1}, 7: 8]}" },
	{ "!one-pair mapping, a collection key", "{\"items\": [{\"a\": 1}, {\"k\": 1}: 2]}" },
	{ "anchor after items", "{\"items\": [{\"a\": 1}, &x {\"b\": 2}, *x]}" },
	{ "key over 1000 bytes", NULL },
	{ "~nesting 600 deep (the builder refuses it either way)", NULL },
};

static void check_dir(const char *dir, int *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			check_dir(path, n);
			continue;
		}
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 5, ".json") || st.st_size > (1 << 26))
			continue;
		FILE *f = fopen(path, "rb");
		char *buf = f ? malloc((size_t)st.st_size + 1) : NULL;
		if (buf && fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size) {
			same(path, buf, (size_t)st.st_size, 0);
			(*n)++;
		}
		free(buf);
		if (f)
			fclose(f);
	}
	closedir(d);
}

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *t = cases[i].text;
		char *own = NULL;
		if (!t && strstr(cases[i].name, "1000")) {
			own = malloc(1200);
			strcpy(own, "{\"");
			memset(own + 2, 'k', 1050);
			strcpy(own + 1052, "\": 1}");
			t = own;
		} else if (!t) {
			own = malloc(1300);
			memset(own, '[', 600);
			memset(own + 600, ']', 600);
			own[1200] = 0;
			t = own;
		}
		same(cases[i].name, t, strlen(t), 0);
		static int giving_up;
		giving_up |= strstr(cases[i].name, "given up") != NULL || cases[i].name[0] == '!';
		int alone = fast_alone(t, strlen(t));
		if (cases[i].name[0] != '~')
			TAP_OK(alone == !giving_up, "%s: %s", cases[i].name,
		       giving_up ? "the fast path gives up (libyaml reads it)" : "the fast path reads it alone");
		free(own);
	}
	/* the callback stops the read: at the same object either way */
	const char *list = "{\"kind\": \"List\", \"items\": [{\"a\": 1}, {\"b\": 2}, {\"c\": 3}]}";
	same("the callback stops at the second item", list, strlen(list), 2);
	int n = 0;
	check_dir("tests/data", &n);
	TAP_OK(n >= 10, "tests/data: %d JSON files read both ways", n);
	/* what the fuzzer's JSON oracle found (tests/fuzz/fuzz_yaml.c), and its seeds */
	int r = 0;
	check_dir("tests/fuzz/regressions/yaml", &r);
	check_dir("tests/fuzz/corpus/yaml", &r);
	TAP_OK(r >= 1, "tests/fuzz: %d JSON files read both ways", r);
	const char *shared = getenv("KP_SHARED_DATA") ? getenv("KP_SHARED_DATA") : "../shared/data";
	struct stat st;
	if (stat(shared, &st)) {
		printf("ok %d # SKIP no %s: its JSON files are not read\n", ++tap_n, shared);
	} else {
		int m = 0;
		check_dir(shared, &m);
		TAP_OK(m > 0, "%s: %d JSON files read both ways", shared, m);
	}
	return tap_done();
}
