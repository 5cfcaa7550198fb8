/*
 * capacity_text.h — the text summary of a capacity answer (cli/capacity_text.c).
 */
#ifndef KP_CLI_CAPACITY_TEXT_H
#define KP_CLI_CAPACITY_TEXT_H

#include "../planner/capacity.h"

/* Append a's summary, rendered from its JSON (a->result), to t: the lines
 * `kplan capacity` prints after "capacity N: ".  0, or -1 when the JSON does
 * not parse or out of memory. */
int kp_cli_capacity_text(const kp_capacity_answer *a, kp_sb *t);

#endif
