/*
 * test_kube_gates.c — common/kube.h's gate table against
 * docs/kube-versions-gates.tsv (the researched defaults, one row per gate:
 * name, stages, then 1.31..1.37 as -, off, on or on-locked): the same gates
 * (by name, each once), with the same default in every version; and
 * kp_kube_init / kp_kube_default read the table as the TSV says.  Run from
 * the repository root (as `make test` does).
 */
#include <stdio.h>
#include <string.h>

#include "../../common/kube.h"
#include "tap.h"

static char code(const char *cell)
{
	return !strcmp(cell, "-") ? '-' : !strcmp(cell, "off") ? '0' : !strcmp(cell, "on") ? '1'
	       : !strcmp(cell, "on-locked") ? 'L' : '?';
}

int main(void)
{
	FILE *f = fopen("docs/kube-versions-gates.tsv", "r");
	TAP_OK(f != NULL, "docs/kube-versions-gates.tsv opens (run from the repository root)");
	if (!f)
		return tap_done();
	char line[1024];
	int row = 0, seen[KP_FG_COUNT] = { 0 }, nseen = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (row++ == 0) {
			TAP_OK(!strncmp(line, "gate\tstages\t1.31", 16), "the header names gate, stages, 1.31..");
			continue;
		}
		char *cells[16];
		int n = 0;
		for (char *p = line; n < 16;) {
			cells[n++] = p;
			char *tab = strchr(p, '\t');
			if (!tab)
				break;
			*tab = 0;
			p = tab + 1;
		}
		TAP_EQ_I64(n, 2 + KP_KUBE_NEWEST - KP_KUBE_OLDEST + 1, "row %d: name, stages and one column a version", row);
		if (n != 2 + KP_KUBE_NEWEST - KP_KUBE_OLDEST + 1)
			continue;
		char want[8] = "";
		for (int v = 0; v <= KP_KUBE_NEWEST - KP_KUBE_OLDEST; v++)
			want[v] = code(cells[2 + v]);
		int g = kp_kube_gate_index(cells[0]);
		TAP_OK(g >= 0, "%s: in kube.h", cells[0]);
		if (g < 0)
			continue;
		TAP_EQ_I64(seen[g]++, 0, "%s: once in the TSV", cells[0]);
		nseen++;
		TAP_EQ_STR(kp_gates[g].defaults, want, "%s: the defaults 1.31..1.37", cells[0]);
		for (int minor = KP_KUBE_OLDEST; minor <= KP_KUBE_NEWEST; minor++) {
			char c = want[minor - KP_KUBE_OLDEST];
			kp_kube k;
			kp_kube_init(&k, minor);
			int exp = c == '-' ? -1 : c != '0';
			if (kp_kube_default(g, minor) != exp || k.on[g] != (exp == 1))
				TAP_OK(0, "%s 1.%d: kp_kube_default %d, kp_kube_init %d, the TSV %c", cells[0], minor,
				       kp_kube_default(g, minor), k.on[g], c);
		}
	}
	fclose(f);
	TAP_EQ_I64(nseen, KP_FG_COUNT, "every gate of kube.h is in the TSV");
	return tap_done();
}
