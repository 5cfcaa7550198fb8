/*
 * test_grow.c — KP_GROW (common/kp.h): the array doubles from its first size
 * when the next element would not fit, with capacities of several integer
 * types, and an allocation failure leaves the array and its capacity as they
 * were.
 */
#include <stdint.h>

#include "../../common/kp.h"
#include "tap.h"

typedef struct item { int64_t a, b; } item;

int main(void)
{
	/* int capacity: 0 -> 4 -> 8 -> 16 as 10 elements are appended */
	item *v = NULL;
	int n = 0, cap = 0, ok = 1;
	int caps[10];
	for (int i = 0; i < 10; i++) {
		ok &= KP_GROW(v, n, cap, 4) == 0;
		caps[i] = cap;
		v[n++] = (item){ i, -i };
	}
	TAP_OK(ok, "int capacity: 10 appends succeed");
	TAP_EQ_I64(caps[0], 4, "int capacity: first size 4");
	TAP_EQ_I64(caps[4], 8, "int capacity: doubled to 8 at the 5th element");
	TAP_EQ_I64(caps[8], 16, "int capacity: doubled to 16 at the 9th element");
	int64_t sum = 0;
	for (int i = 0; i < n; i++)
		sum += v[i].a - v[i].b;
	TAP_EQ_I64(sum, 90, "int capacity: every element kept across reallocations");
	TAP_EQ_I64(KP_GROW(v, 3, cap, 4), 0, "room already there: nothing to do");
	TAP_EQ_I64(cap, 16, "room already there: capacity unchanged");

	/* uint32_t capacity and a forced growth (n == cap) */
	int32_t *w = NULL;
	uint32_t wcap = 0;
	TAP_EQ_I64(KP_GROW(w, wcap, wcap, 2), 0, "uint32_t capacity: first growth");
	TAP_EQ_I64(wcap, 2, "uint32_t capacity: 2");
	TAP_EQ_I64(KP_GROW(w, wcap, wcap, 2), 0, "uint32_t capacity: growth with n == cap");
	TAP_EQ_I64(wcap, 4, "uint32_t capacity: 4");

	/* out of memory: -1, the array and its capacity unchanged */
	item *before = v;
	kp_alloc_fail_after(0);
	int rc = KP_GROW(v, n + 6, cap, 4);
	kp_alloc_fail_after(-1);
	TAP_EQ_I64(rc, -1, "out of memory: -1");
	TAP_OK(v == before, "out of memory: the array is kept");
	TAP_EQ_I64(cap, 16, "out of memory: the capacity is kept");
	TAP_EQ_I64(v[9].a, 9, "out of memory: the elements are intact");
	kp_free(v);
	kp_free(w);
	return tap_done();
}
