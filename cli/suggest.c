/*
 * suggest.c — "did you mean" for commands and long options: the names a
 * help text offers (kp_cli_bad_option, main()); the distance is common/suggest.c.
 */
#include "cli.h"
#include "../common/suggest.h"

#include <string.h>

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
