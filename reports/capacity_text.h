/*
 * capacity_text.h — the text summary of a `kplan capacity` answer
 * (reports/capacity_text.c), rendered from the answer's JSON alone, so that
 * reports/ needs no planner type:
 *
 *   kp_report_capacity_text(kp_sb_str(&a.result), a.subject, a.reason, &t);
 */
#ifndef KP_REPORT_CAPACITY_TEXT_H
#define KP_REPORT_CAPACITY_TEXT_H

#include "../common/kp.h"

/* Append to t the lines `kplan capacity` prints after "capacity N: ".  json:
 * the answer (kp_capacity_answer.result, capacity_run.result); subject and
 * reason: the answer's (capacity_run.subject, .reason; reason may be NULL).
 * KP_OK; KP_PARSE when json does not parse as an answer; KP_NOMEM. */
int kp_report_capacity_text(const char *json, const char *subject, const char *reason, kp_sb *t);

#endif
