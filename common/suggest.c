/*
 * suggest.c — "did you mean": the name closest to a mistyped one, by edit
 * distance (commands and options in cli/, feature gates in kube.c).
 */
#include "suggest.h"

#include <string.h>

enum { MAXNAME = 64 };

/* Optimal string alignment distance: an insertion, a deletion, a substitution
 * or a swap of two neighbours counts 1.  Names are cut at MAXNAME - 1 bytes. */
int kp_str_distance(const char *a, const char *b)
{
	size_t la = strnlen(a, MAXNAME - 1), lb = strnlen(b, MAXNAME - 1);
	int d[MAXNAME][MAXNAME];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

const char *kp_closest(const char *typed, const char *const *names, size_t n)
{
	size_t len = strlen(typed);
	int most = len >= 6 ? 2 : 1, best = most + 1;
	const char *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		int d = kp_str_distance(typed, names[i]);
		if (d < best && strcmp(typed, names[i])) {
			best = d;
			pick = names[i];
		}
	}
	return len && len < MAXNAME ? pick : NULL;
}
