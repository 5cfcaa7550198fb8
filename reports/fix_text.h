/*
 * fix_text.h — `kplan fix`'s answer for people and for tools
 * (reports/fix_text.c), from the data alone (common/fix_result.h).
 */
#ifndef KP_REPORT_FIX_TEXT_H
#define KP_REPORT_FIX_TEXT_H

#include "../common/kp.h"
#include "../common/fix_result.h"

/* Append r to out: the text summary (json 0) or one JSON object and a
 * newline (json 1).  tmpl: the --node-template given, NULL none (the hint
 * for pods without a fix names it).  Cannot fail; out records running out of
 * memory (kp_sb_ok). */
void kp_report_fix(const kp_fix_result *r, const char *tmpl, int json, kp_sb *out);

#endif
