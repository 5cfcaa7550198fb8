/*
 * test_quantity.c — unit test (TAP) for importers/quantity.c: exact parsing
 * of Kubernetes quantities to Value() / MilliValue() integers.
 *
 * Most cases are ported from Kubernetes' own tests in
 * staging/src/k8s.io/apimachinery/pkg/api/resource/ (repository
 * kubernetes/kubernetes); each group names the upstream test it comes from.
 * The expected numbers are what Value() (milli 0) or MilliValue() (milli 1)
 * return there, except where a comment says kplan deliberately differs:
 * kplan reports a result outside int64 as KP_RANGE where Kubernetes caps or
 * saturates, and rejects digitless text that Kubernetes reads as 0.
 *
 * Build: cc -I. common/kp.c importers/quantity.c tests/unit/test_quantity.c
 */
#include "../../common/quantity.h"
#include "tests/unit/tap.h"

#include <stdint.h>
#include <string.h>

typedef struct qty_case {
	const char *input;
	int milli;          /* 1: MilliValue, 0: Value */
	int want_code;      /* KP_OK, KP_PARSE or KP_RANGE */
	int64_t want_value; /* checked only when want_code is KP_OK */
} qty_case;

/* 250 zeros, to build texts at and just past KP_QUANTITY_MAX_LEN (256). */
#define Z10 "0000000000"
#define Z50 Z10 Z10 Z10 Z10 Z10
#define Z250 Z50 Z50 Z50 Z50 Z50

static const qty_case cases[] = {
	/* quantity_test.go TestQuantityParse: zeros and a plain number */
	{"0", 0, KP_OK, 0},
	{"0n", 0, KP_OK, 0},
	{"0u", 1, KP_OK, 0},
	{"0m", 1, KP_OK, 0},
	{"0Ki", 0, KP_OK, 0},
	{"0k", 0, KP_OK, 0},
	{"0Mi", 0, KP_OK, 0},
	{"0Gi", 0, KP_OK, 0},
	{"0T", 0, KP_OK, 0},
	{"1", 0, KP_OK, 1},

	/* quantity_test.go TestQuantityParse: binary suffixes */
	{"1Ki", 0, KP_OK, 1024},
	{"8Ki", 0, KP_OK, 8192},
	{"7Mi", 0, KP_OK, 7340032},
	{"6Gi", 0, KP_OK, 6442450944},
	{"5Ti", 0, KP_OK, 5497558138880},
	{"4Pi", 0, KP_OK, 4503599627370496},
	{"3Ei", 0, KP_OK, 3458764513820540928},
	{"10Ti", 0, KP_OK, 10995116277760},
	{"100Ti", 0, KP_OK, 109951162777600},

	/* quantity_test.go TestQuantityParse: decimal suffixes */
	{"5n", 0, KP_OK, 1},
	{"5n", 1, KP_OK, 1},
	{"4u", 1, KP_OK, 1},
	{"3m", 1, KP_OK, 3},
	{"9", 0, KP_OK, 9},
	{"8k", 0, KP_OK, 8000},
	{"50k", 0, KP_OK, 50000},
	{"7M", 0, KP_OK, 7000000},
	{"6G", 0, KP_OK, 6000000000},
	{"5T", 0, KP_OK, 5000000000000},
	{"40T", 0, KP_OK, 40000000000000},
	{"300T", 0, KP_OK, 300000000000000},
	{"2P", 0, KP_OK, 2000000000000000},
	{"1E", 0, KP_OK, 1000000000000000000},

	/* quantity_test.go TestQuantityParse: decimal exponents */
	{"1E-3", 1, KP_OK, 1},
	{"1E-3", 0, KP_OK, 1},
	{"1e3", 0, KP_OK, 1000},
	{"1E6", 0, KP_OK, 1000000},
	{"1e9", 0, KP_OK, 1000000000},
	{"1E12", 0, KP_OK, 1000000000000},
	{"1e15", 0, KP_OK, 1000000000000000},
	{"1E18", 0, KP_OK, 1000000000000000000},
	{"1e14", 0, KP_OK, 100000000000000},
	{"1e13", 0, KP_OK, 10000000000000},
	{"100.035k", 0, KP_OK, 100035},

	/* quantity_test.go TestQuantityParse: things that look like floating point */
	{"0.001", 1, KP_OK, 1},
	{"0.0005k", 1, KP_OK, 500},
	{"0.005", 1, KP_OK, 5},
	{"0.05", 1, KP_OK, 50},
	{"0.5", 1, KP_OK, 500},
	{"0.5", 0, KP_OK, 1},
	{"0.00050k", 1, KP_OK, 500},
	{"0.00500", 1, KP_OK, 5},
	{"0.5e0", 1, KP_OK, 500},
	{"0.5e-1", 1, KP_OK, 50},
	{"0.5e-2", 1, KP_OK, 5},
	{"10.035M", 0, KP_OK, 10035000},
	{"1.2e3", 0, KP_OK, 1200},
	{"1.3E+6", 0, KP_OK, 1300000},
	{"1.40e9", 0, KP_OK, 1400000000},
	{"1.53E12", 0, KP_OK, 1530000000000},
	{"1.6e15", 0, KP_OK, 1600000000000000},
	{"1.7E18", 0, KP_OK, 1700000000000000000},
	{"9.01", 1, KP_OK, 9010},
	{"8.1k", 0, KP_OK, 8100},
	{"7.123456M", 0, KP_OK, 7123456},
	{"6.987654321G", 0, KP_OK, 6987654321},
	{"5.444T", 0, KP_OK, 5444000000000},
	{"40.1T", 0, KP_OK, 40100000000000},
	{"300.2T", 0, KP_OK, 300200000000000},
	{"2.5P", 0, KP_OK, 2500000000000000},
	{"1.01E", 0, KP_OK, 1010000000000000000},

	/* quantity_test.go TestQuantityParse: things that saturate/round */
	{"3.001n", 1, KP_OK, 1},
	{"1.1E-9", 0, KP_OK, 1},
	{"0.0000000001", 0, KP_OK, 1},
	{"0.0000000005", 1, KP_OK, 1},
	{"0.5e-9", 0, KP_OK, 1},
	{"0.9n", 1, KP_OK, 1},
	{"0.00000012345", 1, KP_OK, 1},
	{"0.00000012354", 0, KP_OK, 1},
	/* upstream caps these BinarySI values at 2^63-1; kplan refuses them */
	{"9Ei", 0, KP_RANGE, 0},
	{"9223372036854775807Ki", 0, KP_RANGE, 0},
	/* 1.2e19: upstream parses it, Value() saturates; kplan refuses */
	{"12E", 0, KP_RANGE, 0},

	/* quantity_test.go TestQuantityParse: fractional binary values */
	{"100.035Ki", 0, KP_OK, 102436},           /* 102435.84 */
	{"0.5Mi", 0, KP_OK, 524288},
	{"0.05Gi", 0, KP_OK, 53687092},            /* 53687091.2 */
	{"0.025Ti", 0, KP_OK, 27487790695},        /* 27487790694.4 */

	/* quantity_test.go TestQuantityParse: things written by trolls */
	{"0.000000000001Ki", 0, KP_OK, 1},
	{"0.000000000001Ki", 1, KP_OK, 1},
	{".001", 1, KP_OK, 1},
	{".0001k", 1, KP_OK, 100},
	{"1.", 0, KP_OK, 1},
	{"1.G", 0, KP_OK, 1000000000},

	/* quantity_test.go TestQuantityParse: the negative and explicit-+ variants */
	{"-1Ki", 0, KP_OK, -1024},
	{"+1Ki", 0, KP_OK, 1024},
	{"-3m", 1, KP_OK, -3},
	{"+100.035k", 0, KP_OK, 100035},
	{"-0.05Gi", 0, KP_OK, -53687092},
	{"+.001", 1, KP_OK, 1},

	/* quantity_test.go TestQuantityParse: the invalid list and the empty string */
	{"", 0, KP_PARSE, 0},
	{"1.1.M", 0, KP_PARSE, 0},
	{"1+1.0M", 0, KP_PARSE, 0},
	{"0.1mi", 0, KP_PARSE, 0},
	{"0.1am", 0, KP_PARSE, 0},
	{"aoeu", 0, KP_PARSE, 0},
	{".5i", 0, KP_PARSE, 0},
	{"1i", 0, KP_PARSE, 0},
	{"-3.01i", 0, KP_PARSE, 0},
	{"-3.01e-", 0, KP_PARSE, 0},
	{"1e4294967297", 0, KP_PARSE, 0},
	{" 1", 0, KP_PARSE, 0},
	{"1 ", 0, KP_PARSE, 0},

	/* quantity_test.go TestInterpretExponentInt32Bounds (exponent range) */
	{"1e14", 1, KP_OK, 100000000000000000},
	{"0E2147483647", 0, KP_OK, 0},
	{"1E-2147483647", 0, KP_OK, 1},
	{"1E2147483648", 0, KP_PARSE, 0},
	{"1E-2147483648", 0, KP_PARSE, 0},
	{"1E8589934592", 0, KP_PARSE, 0},
	{"1E9223372036854775808", 0, KP_PARSE, 0},

	/* quantity_test.go TestQuantityParseEmit */
	{"1Mi", 0, KP_OK, 1048576},
	{"1024Mi", 0, KP_OK, 1073741824},
	{"1000M", 0, KP_OK, 1000000000},
	{".001Ki", 1, KP_OK, 1024},
	{".001Ki", 0, KP_OK, 2},                   /* 1.024 */
	{".000001Ki", 1, KP_OK, 2},                /* 1.024 milli */
	{".000000001Ki", 1, KP_OK, 1},
	{"-.000000000001Ki", 1, KP_OK, -1},

	/* quantity_test.go TestNegativeValueRoundsAwayFromZero */
	{"-.484785E-7466", 0, KP_OK, -1},
	{"-.484785E-7466", 1, KP_OK, -1},
	{".484785E-7466", 0, KP_OK, 1},
	{".484785E-7466", 1, KP_OK, 1},
	{"-.484785E-1", 0, KP_OK, -1},
	{"-.484785E-1", 1, KP_OK, -49},
	{".484785E-1", 0, KP_OK, 1},
	{".484785E-1", 1, KP_OK, 49},
	{"-0.0005", 0, KP_OK, -1},
	{"-0.0005", 1, KP_OK, -1},
	{"0.0005", 0, KP_OK, 1},
	{"0.0005", 1, KP_OK, 1},
	{"-1500m", 0, KP_OK, -2},
	{"-1500m", 1, KP_OK, -1500},
	{"1500m", 0, KP_OK, 2},
	{"1500m", 1, KP_OK, 1500},
	{"-9.5000000001Gi", 0, KP_OK, -10200547329},
	{"-9.5000000001Gi", 1, KP_OK, -10200547328108},
	{"9.5000000001Gi", 0, KP_OK, 10200547329},
	{"9.5000000001Gi", 1, KP_OK, 10200547328108},
	{"-1", 0, KP_OK, -1},
	{"-1", 1, KP_OK, -1000},
	{"1", 1, KP_OK, 1000},
	{"0", 1, KP_OK, 0},

	/* quantity_test.go TestQuantityRoundUp (rounded to scale 0) */
	{"9.01", 0, KP_OK, 10},
	{"-9.01", 0, KP_OK, -10},

	/* quantity_test.go TestParseQuantityString */
	{"0.025Ti", 1, KP_OK, 27487790694400},
	{"1.025Ti", 0, KP_OK, 1126999418471},      /* 1126999418470.4 */
	{"-1.025Ti", 0, KP_OK, -1126999418471},
	/* upstream's scanner reads "." and "-." as 0; kplan requires a digit */
	{".", 0, KP_PARSE, 0},
	{"-.", 0, KP_PARSE, 0},

	/* quantity_test.go TestQuantityCmp, TestQuantityDeepCopy */
	{"100m", 1, KP_OK, 100},
	{"50m", 1, KP_OK, 50},
	{"10000T", 0, KP_OK, 10000000000000000},
	{"100Gi", 0, KP_OK, 107374182400},

	/* quantity_overflow_test.go quantityAccessorCases: upstream caps or
	 * saturates at int64 and wraps in older releases; kplan says KP_RANGE */
	{"9223372036854775807", 0, KP_OK, INT64_MAX},
	{"9223372036854775807", 1, KP_RANGE, 0},
	{"1E", 1, KP_RANGE, 0},
	{"8Ei", 0, KP_RANGE, 0},
	{"-8Ei", 0, KP_OK, INT64_MIN},             /* exactly -2^63: fits (upstream caps to -(2^63-1)) */
	{"20Ei", 0, KP_RANGE, 0},
	{"-20Ei", 0, KP_RANGE, 0},
	{"9223372036854775808", 0, KP_RANGE, 0},
	{"18446744073709551616", 0, KP_RANGE, 0},
	{"100E", 0, KP_RANGE, 0},
	{"1000E", 0, KP_RANGE, 0},
	{"1e100", 0, KP_RANGE, 0},
	{"-9223372036854775808", 0, KP_OK, INT64_MIN},
	{"-9223372036854775807", 0, KP_OK, -INT64_MAX},
	{"-9223372036854775807", 1, KP_RANGE, 0},
	{"-1e30", 0, KP_RANGE, 0},
	{"-100E", 0, KP_RANGE, 0},
	{"-9.5Gi", 0, KP_OK, -10200547328},
	{"-9.5Gi", 1, KP_OK, -10200547328000},

	/* kplan: grammar required by the brief */
	{"1Q", 0, KP_PARSE, 0},
	{"1.5.0", 0, KP_PARSE, 0},
	{"Gi", 0, KP_PARSE, 0},                    /* upstream reads it as 0 */
	{"k", 0, KP_PARSE, 0},                     /* upstream reads it as 0 */
	{"+", 0, KP_PARSE, 0},                     /* upstream reads it as 0 */
	{"-", 0, KP_PARSE, 0},                     /* upstream reads it as 0 */
	{"1e", 0, KP_PARSE, 0},
	{"1e+", 0, KP_PARSE, 0},
	{"e3", 0, KP_PARSE, 0},
	{"1KiB", 0, KP_PARSE, 0},
	{"1.0.0Gi", 0, KP_PARSE, 0},
	{"--1", 0, KP_PARSE, 0},
	{"+-1", 0, KP_PARSE, 0},
	{"1ki", 0, KP_PARSE, 0},
	{"1K", 0, KP_PARSE, 0},
	{"1Ki5", 0, KP_PARSE, 0},
	{"1e3.5", 0, KP_PARSE, 0},
	{"0x10", 0, KP_PARSE, 0},
	{"1\t", 0, KP_PARSE, 0},
	{".5", 0, KP_OK, 1},
	{".5", 1, KP_OK, 500},
	{"5.", 1, KP_OK, 5000},
	{"1e0003", 0, KP_OK, 1000},
	{"1e-0", 0, KP_OK, 1},
	{"-0", 0, KP_OK, 0},
	{"-0.0Gi", 1, KP_OK, 0},

	/* kplan: rounding away from zero, exactly */
	{"0.1", 0, KP_OK, 1},
	{"-0.1", 0, KP_OK, -1},
	{"1m", 1, KP_OK, 1},
	{"1m", 0, KP_OK, 1},
	{"0.5m", 1, KP_OK, 1},
	{"-0.5m", 1, KP_OK, -1},
	{"1n", 0, KP_OK, 1},
	{"1.5Gi", 0, KP_OK, 1610612736},
	{"100m", 0, KP_OK, 1},
	{"1.5", 1, KP_OK, 1500},
	{"0.1Ki", 0, KP_OK, 103},                  /* 102.4 */
	{"-0.1Ki", 0, KP_OK, -103},
	{"123456789e-5", 0, KP_OK, 1235},
	{"1000000001n", 0, KP_OK, 2},
	{"999999999n", 0, KP_OK, 1},
	{"7Ei", 0, KP_OK, 8070450532247928832},
	{"7.99999999999999999Ei", 0, KP_OK, 9223372036854775797},

	/* kplan: int64 boundaries, KP_RANGE instead of wrapping */
	{"922337203685477580.7", 0, KP_OK, 922337203685477581},
	{"9223372036854775.807", 1, KP_OK, INT64_MAX},
	{"9223372036854775.8071", 1, KP_RANGE, 0}, /* ceil is 2^63 */
	{"-9223372036854775.8071", 1, KP_OK, INT64_MIN},
	{"-9223372036854775809", 0, KP_RANGE, 0},
	{"9223372036854775806.5", 0, KP_OK, INT64_MAX},
	{"9223372036854775807.0000000001", 0, KP_RANGE, 0},
	{"8796093022207.999999Ki", 0, KP_OK, 9007199254740992},   /* ...991.998976 */
	{"7.999999999999999999Ei", 0, KP_OK, INT64_MAX},          /* ...806.84 */
	{"7.9999999999999999999Ei", 0, KP_RANGE, 0},              /* ...807.68 */
	{"0.000000000000000000009223372036854775807e39", 0, KP_OK, INT64_MAX},
	{"0.000000000000000000009223372036854775807e40", 0, KP_RANGE, 0},

	/* kplan: huge exponents in bounded time */
	{"1e-1000000000", 0, KP_OK, 1},
	{"-1e-1000000000", 1, KP_OK, -1},
	{"1e1000000000", 0, KP_RANGE, 0},
	{"0e1000000000", 0, KP_OK, 0},
	{"1e2147483647", 0, KP_RANGE, 0},
	{"1e-2147483647", 1, KP_OK, 1},
	{"1e2147483648", 0, KP_PARSE, 0},
	{"0.0e-2147483647", 0, KP_OK, 0},

	/* kplan: length limit (KP_QUANTITY_MAX_LEN = 256) */
	{Z250 "000001", 0, KP_OK, 1},              /* 256 bytes */
	{"-" Z250 "00001", 1, KP_OK, -1000},       /* 256 bytes */
	{Z250 "0000001", 0, KP_PARSE, 0},          /* 257 bytes */
};

static const char *code_name(int code)
{
	switch (code) {
	case KP_OK: return "KP_OK";
	case KP_PARSE: return "KP_PARSE";
	case KP_RANGE: return "KP_RANGE";
	default: return "other";
	}
}

static void run_table(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const qty_case *c = &cases[i];
		int64_t got = 12345;
		kp_err err = {0};
		int rc = kp_quantity_parse(c->input, c->milli, &got, &err);
		int ok = rc == c->want_code;
		if (ok && rc == KP_OK)
			ok = got == c->want_value;
		else if (ok)
			ok = err.code == rc && err.msg[0] && got == 12345;
		TAP_OK(ok, "'%s' milli=%d -> %s", c->input, c->milli, code_name(c->want_code));
		if (!ok)
			printf("#   input '%s' milli=%d: got %s %" PRId64 " (%s), want %s %" PRId64 "\n",
			       c->input, c->milli, code_name(rc), got, err.msg,
			       code_name(c->want_code), c->want_value);
	}
}

/* Error messages: lowercase, no final period, the bad text quoted. */
static void run_messages(void)
{
	static const struct {
		const char *input;
		const char *want;
	} msgs[] = {
		{"1.5.0", "invalid quantity '1.5.0': unknown suffix '.0'"},
		{"1Q", "invalid quantity '1Q': unknown suffix 'Q'"},
		{"", "invalid quantity '': empty"},
		{"Gi", "invalid quantity 'Gi': expected a number"},
		{"1e+", "invalid quantity '1e+': exponent 'e+' has no digits"},
		{"1e4294967297", "invalid quantity '1e4294967297': exponent 'e4294967297' out of range"},
		{"8Ei", "quantity '8Ei' out of range: value does not fit int64"},
	};
	for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
		int64_t v;
		kp_err err = {0};
		kp_quantity_parse(msgs[i].input, 0, &v, &err);
		TAP_EQ_STR(err.msg, msgs[i].want, "message for '%s'", msgs[i].input);
	}

	int64_t v;
	kp_err err = {0};
	kp_quantity_parse("9223372036854775807", 1, &v, &err);
	TAP_EQ_STR(err.msg, "quantity '9223372036854775807' out of range: value in millis does not fit int64",
		   "milli range message");

	char longtext[KP_QUANTITY_MAX_LEN + 2];
	memset(longtext, '1', sizeof longtext - 1);
	longtext[sizeof longtext - 1] = 0;
	kp_err_clear(&err);
	int rc = kp_quantity_parse(longtext, 0, &v, &err);
	TAP_EQ_I64(rc, KP_PARSE, "257-byte text is KP_PARSE");
	TAP_OK(strstr(err.msg, "longer than 256 bytes") != NULL && strlen(err.msg) < 120,
	       "long-text message is clear and short: %s", err.msg);
}

static void run_api(void)
{
	int64_t v = 0;
	kp_err err = {0};

	/* parsen reads exactly n bytes of an unterminated buffer */
	static const char buf[] = {'1', '5', '0', '0', 'm', 'X'};
	TAP_EQ_I64(kp_quantity_parsen(buf, 5, 1, &v, &err), KP_OK, "parsen '1500m' of '1500mX'");
	TAP_EQ_I64(v, 1500, "parsen value");
	TAP_EQ_I64(kp_quantity_parsen(buf, 6, 1, &v, &err), KP_PARSE, "parsen '1500mX'");
	kp_err_clear(&err);
	static const char nul[] = {'1', 0, '0'};
	TAP_EQ_I64(kp_quantity_parsen(nul, 3, 0, &v, &err), KP_PARSE, "parsen rejects an embedded NUL");
	kp_err_clear(&err);
	TAP_EQ_I64(kp_quantity_parsen("2Gi", 0, 0, &v, &err), KP_PARSE, "parsen of 0 bytes is empty");

	/* a failed parse leaves *out alone; err may be NULL */
	v = 77;
	TAP_EQ_I64(kp_quantity_parse("1Q", 0, &v, NULL), KP_PARSE, "NULL err accepted");
	TAP_EQ_I64(v, 77, "out untouched on error");
	TAP_EQ_I64(kp_quantity_parse(NULL, 0, &v, NULL), KP_PARSE, "NULL text is KP_PARSE");

	/* the first error wins */
	kp_err_clear(&err);
	kp_err_set(&err, KP_IO, "earlier failure");
	TAP_EQ_I64(kp_quantity_parse("1Q", 0, &v, &err), KP_PARSE, "returns its own code");
	TAP_EQ_STR(err.msg, "earlier failure", "keeps the earlier message");

	/* kp_resource_is_milli */
	TAP_EQ_I64(kp_resource_is_milli("cpu"), 1, "cpu is milli");
	TAP_EQ_I64(kp_resource_is_milli("memory"), 0, "memory is not milli");
	TAP_EQ_I64(kp_resource_is_milli("nvidia.com/gpu"), 0, "gpu is not milli");
	TAP_EQ_I64(kp_resource_is_milli("CPU"), 0, "CPU is not milli");
	TAP_EQ_I64(kp_resource_is_milli("cpus"), 0, "cpus is not milli");
	TAP_EQ_I64(kp_resource_is_milli(""), 0, "empty is not milli");
	TAP_EQ_I64(kp_resource_is_milli(NULL), 0, "NULL is not milli");
}

int main(void)
{
	run_table();
	run_messages();
	run_api();
	return tap_done();
}
