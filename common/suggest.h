/*
 * suggest.h — "did you mean" (suggest.c).
 */
#ifndef KP_SUGGEST_H
#define KP_SUGGEST_H

#include <stddef.h>

/* Optimal string alignment distance (an insertion, deletion, substitution or
 * swap of neighbours counts 1); names are cut at 63 bytes. */
int kp_str_distance(const char *a, const char *b);
/* The name closest to typed, one edit away (two from 6 characters on), not
 * typed itself; NULL when none. */
const char *kp_closest(const char *typed, const char *const *names, size_t n);

#endif
