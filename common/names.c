/*
 * names.c — names as Kubernetes controllers make them (see names.h).
 */
#include "names.h"
#include "kp.h"

#include <stdio.h>
#include <string.h>

/* The random-looking 5-character suffix controllers give pod names, made
 * deterministic: index i maps to (i * P + offset(ns, name)) mod 27^5 with P
 * prime to 27, a bijection, so the first 27^5 (14,348,907) names of one
 * owner never collide. */
void kp_pod_suffix(const char *ns, const char *name, int64_t i, char out[6])
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	const uint64_t space = 14348907ULL, P = 10000019ULL;   /* 27^5; a prime, not 3 */
	char key[1024];
	int n = snprintf(key, sizeof key, "%s/%s", ns, name);
	uint64_t off = kp_hash64(key, (size_t)(n < (int)sizeof key ? n : (int)sizeof key - 1), 7) % space;
	uint64_t h = ((uint64_t)i % space * P + off) % space;
	for (int k = 0; k < 5; k++, h /= 27)
		out[k] = alphabet[h % 27];
	out[5] = 0;
}

void kp_claim_name(const char *ns, const char *pod, const char *claim, char *out, size_t size)
{
	size_t lp = strlen(pod), lc = strlen(claim), base = lp + 1 + lc + 1;
	const size_t max_base = 57;   /* 63 less a '-' and the 5 characters */
	char key[1024], suffix[6];
	snprintf(key, sizeof key, "%s/%s", pod, claim);
	kp_pod_suffix(ns, key, 0, suffix);
	if (base <= max_base)
		snprintf(out, size, "%s-%s-%s", pod, claim, suffix);
	else
		snprintf(out, size, "%.*s-%.*s%s", (int)(lp * max_base / base), pod, (int)(lc * max_base / base), claim,
			 suffix);
}
