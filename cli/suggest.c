/*
 * suggest.c — "did you mean": the command or long option closest to a
 * mistyped one, by edit distance (kp_cli_bad_option, main()).
 */
#include "cli.h"

#include <string.h>

enum { MAXNAME = 64 };

/* Optimal string alignment distance: an insertion, a deletion, a substitution
 * or a swap of two neighbours counts 1.  Names are cut at MAXNAME - 1 bytes. */
int kp_cli_distance(const char *a, const char *b)
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

const char *kp_cli_closest(const char *typed, const char *const *names, size_t n)
{
	size_t len = strlen(typed);
	int most = len >= 6 ? 2 : 1, best = most + 1;
	const char *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		int d = kp_cli_distance(typed, names[i]);
		if (d < best && strcmp(typed, names[i])) {
			best = d;
			pick = names[i];
		}
	}
	return len && len < MAXNAME ? pick : NULL;
}

/* one name, if not seen yet */
static size_t add_name(const char *p, size_t len, char (*names)[KP_CLI_OPTNAME], size_t n, size_t max)
{
	if (!len || len >= KP_CLI_OPTNAME || n == max)
		return n;
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], p, len))
			return n;
	memcpy(names[n], p, len);
	names[n][len] = 0;
	return n + 1;
}

size_t kp_cli_help_options(const char *help, char (*names)[KP_CLI_OPTNAME], size_t max)
{
	size_t n = 0;
	int usage = 1;   /* in the usage lines, before the first empty line */
	for (const char *line = help; *line;) {
		const char *end = strchr(line, '\n');
		end = end ? end : line + strlen(line);
		const char *p = line + strspn(line, " ");
		usage = usage && p < end;
		/* usage lines: every --name; option lines ("  -q, --quiet   no summary"):
		 * the names, up to the two spaces before the text */
		const char *stop = end;
		if (!usage && *p == '-') {
			const char *gap = strstr(p, "  ");
			stop = gap && gap < end ? gap : end;
		} else if (!usage) {
			stop = p;
		}
		for (const char *q = p; q + 2 < stop; q++) {
			if (q[0] != '-' || q[1] != '-' || (q > line && !strchr(" [|", q[-1])))
				continue;
			size_t len = strspn(q + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
			n = add_name(q + 2, len, names, n, max);
			q += 1 + len;
		}
		line = *end ? end + 1 : end;
	}
	return n;
}
